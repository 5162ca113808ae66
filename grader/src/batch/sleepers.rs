//! Students whose programs sleep: a program killed at the wall limit while idle costs a
//! run of the whole wall limit per case (two when not settled, judging.md), so one
//! student that waits for input that never comes would hold a worker for minutes. After
//! `in_a_row` cases next to each other in case order all ended in a `TLE` at the wall
//! limit with the program idle (`CaseResult::slept`), the rest of that student's runs are
//! not made: they are `--`, neither passed nor failed (no verdict is guessed for them;
//! the score counts the cases passed, so they earn nothing until run), and the gradebook
//! says so (`StudentReport::stopped`).
//!
//! The rule reads only which cases ended so, never the order the runs finished in: a
//! batch resumed from its journal (which holds those `TLE`s) decides exactly as the
//! batch that wrote it, whatever the number of workers.
//!
//! Until it is stopped, a student whose last noted run slept is *dozing*: its runs go to
//! the doze lane beside the workers (`runs.rs`), where a program asleep holds no worker of
//! the class. Where a run goes never changes what is decided.

use sandbox::Locked as _;
use std::collections::BTreeSet;
use std::ops::RangeInclusive;
use std::sync::Mutex;

use crate::results::gradebook::NOT_RUN;

/// The cases (by number) of one student that ended in a `TLE` at the wall limit, and
/// whether they stop it.
#[derive(Debug)]
pub(crate) struct Sleepers {
    /// How many such cases in a row stop a student; 0: never.
    in_a_row: usize,
    /// Per student, its cases that ended in a `TLE` at the wall limit, and whether it
    /// dozes. Noted on the workers as runs finish (the pool's stopping rule runs there),
    /// hence the lock.
    students: Vec<Mutex<Asleep>>,
}

/// What one student's runs showed of sleep.
#[derive(Debug, Default)]
struct Asleep {
    /// Its cases that ended in a `TLE` at the wall limit with the program idle.
    tles: BTreeSet<usize>,
    /// Its cases judged (the journal's and the new), whatever their verdict.
    judged: BTreeSet<usize>,
    /// Whether the last of its runs noted slept so.
    dozing: bool,
    /// Whether its runs were handed to the doze lane already.
    handed: bool,
}

impl Sleepers {
    /// No student stopped yet, of `students`; `in_a_row` 0 stops none.
    pub(crate) fn new(students: usize, in_a_row: usize) -> Sleepers {
        Sleepers {
            in_a_row,
            students: (0..students).map(|_| Mutex::default()).collect(),
        }
    }

    /// Notes `student`'s result on case `case`, `slept` when it is a `TLE` at the wall limit
    /// with the program idle (`CaseResult::slept`); true when the student is stopped (now
    /// or before).
    pub(crate) fn note(&self, student: usize, case: usize, slept: bool) -> bool {
        if self.in_a_row == 0 {
            return false;
        }
        let mut asleep = self.students[student].locked();
        asleep.judged.insert(case);
        if slept {
            asleep.tles.insert(case);
        }
        asleep.dozing = slept;
        first_row(&asleep.tles, self.in_a_row).is_some()
    }

    /// Notes that a run of `student` slept through the wall limit once, not yet judged
    /// (it is made again in full on the doze lane): it dozes, and no case is noted, so the
    /// rule reads judged cases only.
    pub(crate) fn slept_once(&self, student: usize) {
        if self.in_a_row > 0 {
            self.students[student].locked().dozing = true;
        }
    }

    /// Whether `student`'s run on `case` may start beside its runs of `cases` on the doze
    /// lane (`doze::Waves`): not when those would stop it should they all end in a `TLE`
    /// at the wall limit with the program idle (the run would be useless), nor when a case
    /// between them and `case` is neither judged nor among them (it is under way
    /// elsewhere, or not started: the run could make no row with them).
    pub(crate) fn joins(&self, student: usize, cases: &[usize], case: usize) -> bool {
        if self.in_a_row == 0 {
            return true;
        }
        let asleep = self.students[student].locked();
        let mut tles = asleep.tles.clone();
        tles.extend(cases);
        if first_row(&tles, self.in_a_row).is_some() {
            return false;
        }
        let Some(&last) = cases.iter().max() else {
            return true;
        };
        (last + 1..case).all(|c| asleep.judged.contains(&c))
    }

    /// Whether `student`'s last noted run slept (and the rule is on).
    pub(crate) fn dozing(&self, student: usize) -> bool {
        self.in_a_row > 0 && self.students[student].locked().dozing
    }

    /// Whether `student`'s runs go to the doze lane now: true once, the first time it is
    /// found dozing.
    pub(crate) fn hand_off(&self, student: usize) -> bool {
        if self.in_a_row == 0 {
            return false;
        }
        let mut asleep = self.students[student].locked();
        let now = asleep.dozing && !asleep.handed;
        asleep.handed |= now;
        now
    }

    /// The cases in a row that stopped `student`, if it is stopped.
    pub(crate) fn stopped(&self, student: usize) -> Option<RangeInclusive<usize>> {
        if self.in_a_row == 0 {
            return None;
        }
        let asleep = self.students[student].locked();
        first_row(&asleep.tles, self.in_a_row)
    }
}

/// The first `n` numbers in a row in `cases`, if any (`n` > 0).
fn first_row(cases: &BTreeSet<usize>, n: usize) -> Option<RangeInclusive<usize>> {
    let mut start = None;
    let mut last = None;
    for &c in cases {
        if last.is_none_or(|l: usize| l + 1 != c) {
            start = Some(c);
        }
        last = Some(c);
        let first = start?;
        if c + 1 - first >= n {
            return Some(first..=c);
        }
    }
    None
}

/// What a student stopped so is told: `stopped after 3 wall-limit TLEs in a row (a/01 to
/// a/03: the program slept or waited): 6 cases not run (--, neither passed nor failed)`.
pub(crate) fn why(row: &[&str], not_run: usize) -> String {
    let (first, last) = (row.first().copied(), row.last().copied());
    let cases = if not_run == 1 { "case" } else { "cases" };
    let (tles, which) = match row {
        [one] => ("TLE".to_owned(), (*one).to_owned()),
        _ => (
            "TLEs in a row".to_owned(),
            format!(
                "{} to {}",
                first.unwrap_or_default(),
                last.unwrap_or_default()
            ),
        ),
    };
    format!(
        "stopped after {} wall-limit {tles} ({which}: the program slept or waited): \
         {not_run} {cases} not run ({NOT_RUN})",
        row.len(),
    )
}

#[cfg(test)]
mod tests {
    use reference::{Judgement, Verdict};

    use super::*;
    use crate::results::case::{CaseResult, Figures};

    fn result(verdict: Verdict, message: &str) -> CaseResult {
        let judgement = Judgement {
            verdict,
            message: message.to_owned(),
        };
        CaseResult::new("x", judgement, Figures::default(), Vec::new(), Vec::new())
    }

    fn set(cases: &[usize]) -> BTreeSet<usize> {
        cases.iter().copied().collect()
    }

    #[test]
    fn only_cases_next_to_each_other_make_a_row() {
        assert_eq!(first_row(&set(&[0, 2, 4, 6]), 2), None);
        assert_eq!(first_row(&set(&[0, 2, 3, 5]), 2), Some(2..=3));
        assert_eq!(first_row(&set(&[1, 2, 4, 5, 6]), 3), Some(4..=6));
        assert_eq!(first_row(&set(&[7]), 1), Some(7..=7));
        assert_eq!(first_row(&set(&[]), 1), None);
    }

    #[test]
    fn a_tle_by_cpu_or_another_failure_breaks_no_row_and_makes_none() {
        let sleepers = Sleepers::new(2, 2);
        let wall = result(
            Verdict::TimeLimit,
            "wall time over the 4 s limit with 3 ms of CPU: the program slept or waited",
        );
        let cpu = result(Verdict::TimeLimit, "CPU time over the 1 s limit");
        assert!(!sleepers.note(0, 0, wall.slept()));
        assert!(!sleepers.note(0, 1, cpu.slept()));
        assert!(!sleepers.note(0, 3, wall.slept()));
        assert_eq!(sleepers.stopped(0), None);
        // Finished out of order, 2 joins 3: the row is 2..=3.
        assert!(sleepers.note(0, 2, wall.slept()));
        assert_eq!(sleepers.stopped(0), Some(2..=3));
        assert_eq!(sleepers.stopped(1), None, "only that student");
        // A first try that slept, not yet judged: the student dozes, no case is noted.
        let once = Sleepers::new(1, 1);
        once.slept_once(0);
        assert!(once.dozing(0));
        assert_eq!(once.stopped(0), None, "only judged cases stop");
        assert!(once.hand_off(0) && !once.hand_off(0), "handed once");
        // Which run joins the cases under way on the doze lane: not one beside cases that
        // would stop the student should they all sleep (4 and 5 with 3 noted), nor one
        // past a case neither judged nor under way (a row could not reach it).
        let three = Sleepers::new(1, 3);
        three.note(0, 3, true);
        three.note(0, 7, false);
        assert!(three.joins(0, &[], 0), "a wave's first");
        assert!(three.joins(0, &[0], 1));
        assert!(
            !three.joins(0, &[0], 2),
            "1 is neither judged nor under way"
        );
        assert!(
            three.joins(0, &[1], 2) && three.joins(0, &[2], 4),
            "3 is judged"
        );
        assert!(!three.joins(0, &[4, 5], 6), "4 and 5 with 3 stop it");
        assert!(!three.joins(0, &[2, 4], 5), "so do 2 and 4 with 3");
        assert!(three.joins(0, &[6], 8), "7 is judged, whatever its verdict");
        assert_eq!(three.stopped(0), None, "nothing noted by asking");
        assert!(
            Sleepers::new(1, 0).joins(0, &[0, 1, 2], 9),
            "off: no lane to hold"
        );
        // Off: never.
        let off = Sleepers::new(1, 0);
        off.slept_once(0);
        assert!(!off.dozing(0));
        assert!(!off.note(0, 0, wall.slept()) && !off.note(0, 1, wall.slept()));
        assert_eq!(off.stopped(0), None);
    }
}
