//! Where each student's runs are in the journal: a line per (student, case) that the
//! journal holds, found when the runs to make are known and added to as runs are
//! journaled. The gradebook reads a student's results back from them, one student at a
//! time, and the compaction keeps exactly their lines.

use super::journal::Place;

/// Each student's places, by case number (16 bytes a run).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Places {
    /// A row per student: none until its first run is noted, then one per case.
    rows: Vec<Vec<Option<Place>>>,
    /// How many cases.
    cases: usize,
}

impl Places {
    /// No place yet, for `students` students on `cases` cases.
    pub(crate) fn new(students: usize, cases: usize) -> Places {
        Places {
            rows: vec![Vec::new(); students],
            cases,
        }
    }

    /// Notes that the run of `student` on case `case` is at `place`.
    pub(crate) fn set(&mut self, student: usize, case: usize, place: Place) {
        let row = &mut self.rows[student];
        if row.len() <= case {
            // The whole row at once: grown a case at a time, its doublings left it up to
            // twice the size.
            row.resize(self.cases.max(case + 1), None);
        }
        row[case] = Some(place);
    }

    /// Where the run of `student` on case `case` is, if the journal holds it.
    pub(crate) fn get(&self, student: usize, case: usize) -> Option<Place> {
        self.rows.get(student)?.get(case).copied().flatten()
    }

    /// Every place, once (students with the same program share theirs), in the order of
    /// the journal.
    pub(crate) fn live(&self) -> Vec<Place> {
        let mut places: Vec<Place> = self.rows.iter().flatten().flatten().copied().collect();
        places.sort_unstable_by_key(|p| p.offset);
        places.dedup_by_key(|p| p.offset);
        places
    }
}

#[cfg(test)]
mod tests {
    use reference::Verdict;

    use super::*;

    fn at(offset: u64) -> Place {
        Place {
            offset,
            len: 10,
            verdict: Verdict::Accepted,
            slept: false,
        }
    }

    #[test]
    fn each_line_is_live_once_in_the_journals_order() {
        let mut places = Places::new(3, 3);
        places.set(0, 2, at(30));
        places.set(0, 0, at(10));
        // Student 2 has student 0's program: the same line.
        places.set(2, 0, at(10));
        places.set(2, 1, at(0));
        assert_eq!(places.get(0, 2), Some(at(30)));
        assert_eq!(places.get(0, 1), None);
        assert_eq!(places.get(1, 0), None);
        assert_eq!(places.get(0, 7), None);
        let live: Vec<u64> = places.live().iter().map(|p| p.offset).collect();
        assert_eq!(live, [0, 10, 30]);
    }
}
