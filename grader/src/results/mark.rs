//! The overall verdict of a submission or a student, by one rule (judging.md, cli.md),
//! and the mark of a student the grader could not grade.

use std::fmt;

use reference::Verdict;
use serde::{Deserialize, Serialize};

/// A student's overall result in a gradebook: a verdict, or not graded (`--`: an
/// unreadable file, a fault of the grader's setup; never a mark of the student's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Mark {
    /// Graded.
    Graded(Verdict),
    /// Not graded.
    NotGraded,
}

impl Mark {
    /// The code of a student who could not be graded.
    pub(crate) const NOT_GRADED: &'static str = "--";

    /// `AC`, `WA`, ..., or `--`.
    pub(crate) fn code(self) -> &'static str {
        match self {
            Mark::Graded(verdict) => verdict.code(),
            Mark::NotGraded => Self::NOT_GRADED,
        }
    }

    /// Whether this is `AC`.
    pub(crate) fn accepted(self) -> bool {
        self == Mark::Graded(Verdict::Accepted)
    }

    /// Every mark, in judging.md's order of verdicts, `--` last.
    pub(crate) fn all() -> impl Iterator<Item = Mark> {
        Verdict::ALL
            .into_iter()
            .map(Mark::Graded)
            .chain([Mark::NotGraded])
    }
}

impl From<Verdict> for Mark {
    fn from(verdict: Verdict) -> Mark {
        Mark::Graded(verdict)
    }
}

impl fmt::Display for Mark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl Serialize for Mark {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.code())
    }
}

impl<'de> Deserialize<'de> for Mark {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let code = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        if code == Self::NOT_GRADED {
            return Ok(Mark::NotGraded);
        }
        code.parse::<Verdict>().map(Mark::Graded).map_err(|_| {
            serde::de::Error::custom(format!(
                "`{code}` is not a verdict (known: CE, TLE, MLE, OLE, RE, WA, PE, AC, --)"
            ))
        })
    }
}

/// The overall verdict of the cases that ran, out of `total` (cli.md): `AC` when every
/// case ran and is `AC`; otherwise the verdict of the first case, in name order, that is
/// not; `WA` when some did not run (a fail-fast) and none failed.
pub(crate) fn overall(verdicts: impl IntoIterator<Item = Verdict>, total: usize) -> Verdict {
    let mut ran = 0;
    for verdict in verdicts {
        if verdict != Verdict::Accepted {
            return verdict;
        }
        ran += 1;
    }
    if ran == total {
        Verdict::Accepted
    } else {
        Verdict::WrongAnswer
    }
}

/// `passed / total` as a percentage with one decimal (0 when there are no cases).
pub(crate) fn score(passed: usize, total: usize) -> f64 {
    if total == 0 {
        return 0.0;
    }
    (passed as f64 * 1000.0 / total as f64).round() / 10.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use Verdict::*;

    #[test]
    fn the_first_failing_case_decides_and_a_cut_short_run_is_no_ac() {
        assert_eq!(overall([Accepted, Accepted], 2), Accepted);
        assert_eq!(overall([Accepted, TimeLimit, WrongAnswer], 3), TimeLimit);
        assert_eq!(overall([Accepted, WrongAnswer, TimeLimit], 3), WrongAnswer);
        assert_eq!(overall([Accepted], 2), WrongAnswer);
        assert_eq!(overall([], 0), Accepted);
    }

    #[test]
    fn marks_are_written_as_their_codes_and_read_back() {
        for mark in Mark::all() {
            let text = serde_json::to_string(&mark).unwrap();
            assert_eq!(text, format!("\"{}\"", mark.code()));
            assert_eq!(serde_json::from_str::<Mark>(&text).unwrap(), mark);
        }
        let bad = serde_json::from_str::<Mark>("\"OK\"").unwrap_err();
        assert!(bad.to_string().contains("`OK` is not a verdict"), "{bad}");
    }

    #[test]
    fn scores_have_one_decimal() {
        assert_eq!(score(2, 3).to_string(), "66.7");
        assert_eq!(score(0, 0).to_string(), "0");
    }
}
