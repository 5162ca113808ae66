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
    /// `passed / total` as a percentage, one decimal.
    pub(crate) score: f64,
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
    /// The cases, in name order (fewer than `total` after a per-submission fail-fast).
    pub(crate) cases: Vec<CaseResult>,
}

impl StudentReport {
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

/// A class's gradebook.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Gradebook {
    /// The problem.
    pub(crate) problem: String,
    /// The limits of every run, and the sandbox tier.
    pub(crate) limits: LimitsRecord,
    /// Every case name, in order.
    pub(crate) cases: Vec<String>,
    /// Every group, in order, with its number of cases.
    pub(crate) groups: BTreeMap<String, usize>,
    /// What each group is worth, when points were given (`cases::points`).
    #[serde(default)]
    pub(crate) points: Option<BTreeMap<String, f64>>,
    /// The students, by name.
    pub(crate) students: Vec<StudentReport>,
    /// What was not graded.
    pub(crate) skipped: Vec<SkippedReport>,
    /// Each case's input and answer, for the HTML page's failing cases.
    #[serde(default)]
    pub(crate) boards: BTreeMap<String, Board>,
}

impl Gradebook {
    /// How many students got each overall mark, in judging.md order (`--` last); marks
    /// nobody got are left out.
    pub(crate) fn histogram(&self) -> Vec<(Mark, usize)> {
        Mark::all()
            .map(|mark| {
                let n = self.students.iter().filter(|s| s.verdict == mark).count();
                (mark, n)
            })
            .filter(|&(_, n)| n > 0)
            .collect()
    }

    /// Whether every student is `AC`.
    pub(crate) fn all_accepted(&self) -> bool {
        self.students.iter().all(|s| s.verdict.accepted())
    }

    /// Merges shard gradebooks into one: the same problem, cases, limits and sandbox tier;
    /// no student in two shards.
    pub(crate) fn merge(books: Vec<(String, Gradebook)>) -> Result<Gradebook, String> {
        let mut books = books.into_iter();
        let Some((first_name, mut merged)) = books.next() else {
            return Err("no gradebooks to merge".to_owned());
        };
        for (name, book) in books {
            if book.problem != merged.problem
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
        Ok(merged)
    }
}

/// The limits record as its JSON, for a message that says how two differ.
fn limits_text(limits: &LimitsRecord) -> String {
    serde_json::to_string(limits).expect("limit records serialise")
}
