//! The gradebook of a class: what one batch (or several merged shards) found, as data that
//! serialises to JSON and back (so shards can be merged). Nothing here depends on timing or
//! on how the work was split: a merged gradebook is the same as one run's, runs' figures
//! aside.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::case::{Board, CaseResult};
use super::limits::LimitsRecord;
use super::mark::Mark;
use crate::submission::diagnosis::Suggestion;

/// What a case not run is, wherever a gradebook counts such cases (after
/// `--fail-fast-per-submission`, or a student stopped for sleeping): no verdict is
/// guessed for it, so it is neither passed nor failed.
pub(crate) const NOT_RUN: &str = "--, neither passed nor failed";

/// A passed/total pair.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Tally {
    /// `AC` cases.
    pub(crate) passed: usize,
    /// All cases.
    pub(crate) total: usize,
}

/// One student.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct StudentReport {
    /// The student (`section-a/alice`).
    pub(crate) student: String,
    /// The problem.
    pub(crate) problem: String,
    /// The entry file, below the class folder.
    pub(crate) submission: String,
    /// The language.
    pub(crate) language: String,
    /// `AC`, the first failing case's verdict, `CE`, or `--` when it could not be graded.
    pub(crate) verdict: Mark,
    /// `passed / total` as a percentage, one decimal; `None` (`null`) for a student who
    /// was not graded (`--`): no mark was earned, not 0.
    pub(crate) score: Option<f64>,
    /// The points earned, when the groups are worth points (`cases::points`).
    #[serde(default)]
    pub(crate) points: Option<f64>,
    /// `AC` cases.
    pub(crate) passed: usize,
    /// All cases.
    pub(crate) total: usize,
    /// Per group of cases.
    pub(crate) groups: BTreeMap<String, Tally>,
    /// The compiler's message, for `CE`.
    pub(crate) compile_error: Option<String>,
    /// For `CE`, the profile its message points to (`poj`), and why.
    #[serde(default)]
    pub(crate) suggestion: Option<Suggestion>,
    /// Why it could not be graded (an unreadable or oversized file, ...).
    pub(crate) error: Option<String>,
    /// Why some of its cases were not run, when `grader batch` stopped it early (its
    /// program slept through cases in a row): they are `--`, neither passed nor failed.
    #[serde(default)]
    pub(crate) stopped: Option<String>,
    /// The cases, in name order (fewer than `total` after a per-submission fail-fast).
    pub(crate) cases: Vec<CaseResult>,
}

impl StudentReport {
    /// The report without its cases.
    pub(crate) fn without_cases(&self) -> StudentReport {
        StudentReport {
            student: self.student.clone(),
            problem: self.problem.clone(),
            submission: self.submission.clone(),
            language: self.language.clone(),
            verdict: self.verdict,
            score: self.score,
            points: self.points,
            passed: self.passed,
            total: self.total,
            groups: self.groups.clone(),
            compile_error: self.compile_error.clone(),
            suggestion: self.suggestion.clone(),
            error: self.error.clone(),
            stopped: self.stopped.clone(),
            cases: Vec::new(),
        }
    }

    /// How many of its cases in `group` (every group: `None`) were not run: after
    /// `--fail-fast-per-submission`, or when `grader batch` stopped it for sleeping. They
    /// are `--`, neither passed nor failed. 0 for a student whose program never ran (`CE`,
    /// not graded): its build says why, not its cases.
    pub(crate) fn not_run(&self, group: Option<&str>) -> usize {
        if self.compile_error.is_some() || self.error.is_some() {
            return 0;
        }
        match group {
            None => self.total.saturating_sub(self.cases.len()),
            Some(group) => {
                let total = self.groups.get(group).map_or(0, |t| t.total);
                let ran = self.cases.iter().filter(|c| c.group() == group).count();
                total.saturating_sub(ran)
            }
        }
    }

    /// The cases that are not `AC`, in name order.
    pub(crate) fn failures(&self) -> impl Iterator<Item = &CaseResult> {
        self.cases.iter().filter(|c| !c.accepted())
    }
}

/// Something skipped in the class folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SkippedReport {
    /// The path below the class folder.
    pub(crate) path: String,
    /// Why.
    pub(crate) why: String,
}

/// Which shard of a class a gradebook holds (`batch --shard K/N`), so that `merge` can
/// tell when one is missing or given twice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ShardOf {
    /// K, from 1.
    pub(crate) index: u64,
    /// N, the shards the class was split into.
    pub(crate) of: u64,
}

/// A class's gradebook, as `grader merge` reads it back (`report::json` writes it).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Gradebook {
    /// The problem: a built-in problem's id, or a package's folder name.
    pub(crate) problem: String,
    /// Whether `problem` is a package's (written only then: a built-in problem's
    /// gradebook is as it was).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) package: bool,
    /// The limits of every run, and the sandbox tier.
    pub(crate) limits: LimitsRecord,
    /// The shard of the class it holds, when it holds one (absent in a whole class's
    /// gradebook, a merged one's, and an older grader's).
    #[serde(default)]
    pub(crate) shard: Option<ShardOf>,
    /// Every case name, in order.
    pub(crate) cases: Vec<String>,
    /// Every group, in order, with its number of cases.
    pub(crate) groups: BTreeMap<String, usize>,
    /// What each group is worth, when points were given (`cases::points`).
    #[serde(default)]
    pub(crate) points: Option<BTreeMap<String, f64>>,
    /// What each group is for, by group, from the case folder's manifest
    /// (`cases::about`): the groups it says nothing of are left out.
    #[serde(default)]
    pub(crate) about: BTreeMap<String, String>,
    /// The students, by name.
    pub(crate) students: Vec<StudentReport>,
    /// What was not graded.
    pub(crate) skipped: Vec<SkippedReport>,
    /// Each case's input and answer, for the HTML page's failing cases.
    #[serde(default)]
    pub(crate) boards: BTreeMap<String, Board>,
}

/// A gradebook's class-wide fields: all but its students. A batch writes its files from
/// these and its students read back one at a time (`report::book`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Head {
    /// The problem: a built-in problem's id, or a package's folder name.
    pub(crate) problem: String,
    /// Whether `problem` is a package's.
    pub(crate) package: bool,
    /// The limits of every run, and the sandbox tier.
    pub(crate) limits: LimitsRecord,
    /// The shard of the class it holds, when it holds one.
    pub(crate) shard: Option<ShardOf>,
    /// Every case name, in order.
    pub(crate) cases: Vec<String>,
    /// Every group, in order, with its number of cases.
    pub(crate) groups: BTreeMap<String, usize>,
    /// What each group is worth, when points were given.
    pub(crate) points: Option<BTreeMap<String, f64>>,
    /// What each group is for, by group.
    pub(crate) about: BTreeMap<String, String>,
    /// What was not graded.
    pub(crate) skipped: Vec<SkippedReport>,
    /// Each case's input and answer, for the HTML page's failing cases.
    pub(crate) boards: BTreeMap<String, Board>,
}

impl Gradebook {
    /// Reads a gradebook an older grader wrote as this one writes it: a student it could
    /// not grade (`--`) had `0` for a score (and for points), where there is none. Only
    /// that exact figure is read so; any other score of a `--` student stays, for
    /// `gradebook_check` to refuse.
    pub(crate) fn upgrade_not_graded(&mut self) {
        for student in &mut self.students {
            if student.verdict == Mark::NotGraded {
                if student.score == Some(0.0) {
                    student.score = None;
                }
                if student.points == Some(0.0) {
                    student.points = None;
                }
            }
        }
    }

    /// Its class-wide fields, and its students.
    pub(crate) fn into_parts(self) -> (Head, Vec<StudentReport>) {
        let head = Head {
            problem: self.problem,
            package: self.package,
            limits: self.limits,
            shard: self.shard,
            cases: self.cases,
            groups: self.groups,
            points: self.points,
            about: self.about,
            skipped: self.skipped,
            boards: self.boards,
        };
        (head, self.students)
    }

    /// Merges shard gradebooks into one: the same problem, cases, limits and sandbox tier;
    /// no student in two shards.
    pub(crate) fn merge(books: Vec<(String, Gradebook)>) -> Result<Gradebook, String> {
        let shards: Vec<(&str, Option<ShardOf>)> = books
            .iter()
            .map(|(name, book)| (name.as_str(), book.shard))
            .collect();
        every_shard_once(&shards)?;
        let mut books = books.into_iter();
        let Some((first_name, mut merged)) = books.next() else {
            return Err("no gradebooks to merge".to_owned());
        };
        // Which gradebook each student came from, to name both when one comes twice (the
        // same shard given twice, or two shards of different splits).
        let mut graded_in: BTreeMap<String, String> = merged
            .students
            .iter()
            .map(|s| (s.student.clone(), first_name.clone()))
            .collect();
        for (name, book) in books {
            if book.problem != merged.problem
                || book.package != merged.package
                || book.cases != merged.cases
                || book.points != merged.points
            {
                return Err(format!(
                    "{name}: graded {} on other cases or limits than {first_name}: other cases or \
                     points",
                    book.problem
                ));
            }
            if book.limits != merged.limits {
                return Err(format!(
                    "{name}: graded {} on other cases or limits than {first_name}: limits {} \
                     against {}",
                    book.problem,
                    limits_text(&book.limits),
                    limits_text(&merged.limits)
                ));
            }
            for student in &book.students {
                if let Some(first) = graded_in.insert(student.student.clone(), name.clone()) {
                    let same = if first == name {
                        " (the same file, given twice)"
                    } else {
                        ""
                    };
                    return Err(format!(
                        "`{}` is graded in two of the gradebooks: {first} and {name}{same}",
                        student.student
                    ));
                }
            }
            merged.students.extend(book.students);
            merged.boards.extend(book.boards);
            for skipped in book.skipped {
                if !merged.skipped.contains(&skipped) {
                    merged.skipped.push(skipped);
                }
            }
        }
        merged.students.sort_by(|a, b| a.student.cmp(&b.student));
        if let Some(pair) = merged
            .students
            .windows(2)
            .find(|w| w[0].student == w[1].student)
        {
            return Err(format!(
                "`{}` is graded in two of the gradebooks",
                pair[0].student
            ));
        }
        merged.skipped.sort_by(|a, b| a.path.cmp(&b.path));
        // The whole class now, or what the gradebooks of an older grader held.
        merged.shard = None;
        Ok(merged)
    }
}

/// Whether the gradebooks named in `shards`, with the shard each holds, are every shard of
/// one split once: a shard missing, one given twice or shards of two splits is why not.
/// A gradebook that says no shard (a whole class's, a merged one's, an older grader's)
/// is left to the other checks of a merge: there is nothing to count.
fn every_shard_once(shards: &[(&str, Option<ShardOf>)]) -> Result<(), String> {
    let mut held: BTreeMap<u64, &str> = BTreeMap::new();
    let mut split: Option<(u64, &str)> = None;
    for &(name, shard) in shards {
        let Some(shard) = shard else { continue };
        match split {
            Some((of, first)) if of != shard.of => {
                return Err(format!(
                    "{name} holds shard {}/{} and {first} a shard of {of}: shards of two \
                     splits of the class",
                    shard.index, shard.of
                ));
            }
            _ => split = Some((shard.of, name)),
        }
        if let Some(first) = held.insert(shard.index, name) {
            return Err(format!(
                "shard {}/{} is given twice: {first} and {name}",
                shard.index, shard.of
            ));
        }
    }
    let Some((of, _)) = split else {
        return Ok(());
    };
    let missing: Vec<String> = (1..=of)
        .filter(|k| !held.contains_key(k))
        .map(|k| format!("{k}/{of}"))
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    let (shards, are) = if missing.len() == 1 {
        ("shard", "is")
    } else {
        ("shards", "are")
    };
    Err(format!(
        "{shards} {} of the class {are} missing: merge every shard's gradebook (a shard \
         with no student writes one too), or grade the missing ones first",
        missing.join(", ")
    ))
}

impl Gradebook {
    /// Judges every student's cases again by the rule of this grader (`judge::upheld`):
    /// a student with a `TLE` at the wall limit that its record does not show to be the
    /// program's own (a shard graded by an older grader keeps no figures for it) is made
    /// not graded, saying why, as `batch` lists a student the machine kept from being
    /// judged. The names of those students, in order.
    pub(crate) fn rejudge(&mut self) -> Vec<String> {
        let wall = self.limits.wall();
        let mut changed = Vec::new();
        for student in &mut self.students {
            let Some(case) = student
                .cases
                .iter()
                .find(|c| !crate::run::judge::upheld(c, wall))
            else {
                continue;
            };
            student.error = Some(format!(
                "its TLE at the wall limit on {} does not show the program's own stall \
                 (judged by an older grader, or held back by the machine): grade it again",
                case.name
            ));
            student.verdict = Mark::NotGraded;
            student.cases.clear();
            student.passed = 0;
            student.score = None;
            student.points = None;
            for tally in student.groups.values_mut() {
                tally.passed = 0;
            }
            changed.push(student.student.clone());
        }
        changed
    }
}

/// The limits record as its JSON, for a message that says how two differ.
fn limits_text(limits: &LimitsRecord) -> String {
    serde_json::to_string(limits).expect("limit records serialise")
}

#[cfg(test)]
mod shard_tests {
    use super::*;

    fn of(index: u64, of: u64) -> ShardOf {
        ShardOf { index, of }
    }

    #[test]
    fn a_merge_takes_every_shard_of_one_split_once() {
        assert_eq!(
            every_shard_once(&[("a", Some(of(2, 2))), ("b", Some(of(1, 2)))]),
            Ok(())
        );
        // Gradebooks that hold no shard have nothing to count.
        assert_eq!(every_shard_once(&[("a", None), ("b", None)]), Ok(()));
        assert_eq!(
            every_shard_once(&[("s1", Some(of(1, 4))), ("s3", Some(of(3, 4)))]).unwrap_err(),
            "shards 2/4, 4/4 of the class are missing: merge every shard's gradebook (a \
             shard with no student writes one too), or grade the missing ones first"
        );
        assert!(
            every_shard_once(&[("s1", Some(of(1, 2)))])
                .unwrap_err()
                .starts_with("shard 2/2 of the class is missing")
        );
        assert_eq!(
            every_shard_once(&[
                ("s1", Some(of(1, 2))),
                ("copy", Some(of(1, 2))),
                ("s2", Some(of(2, 2)))
            ])
            .unwrap_err(),
            "shard 1/2 is given twice: s1 and copy"
        );
        assert_eq!(
            every_shard_once(&[("s1", Some(of(1, 2))), ("t1", Some(of(1, 3)))]).unwrap_err(),
            "t1 holds shard 1/3 and s1 a shard of 2: shards of two splits of the class"
        );
    }
}
