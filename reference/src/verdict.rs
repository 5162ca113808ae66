//! Verdicts, declared in the precedence order of judging.md.

use std::fmt;
use std::str::FromStr;

/// The outcome of one run of one case.
///
/// judging.md: variants are declared from the highest precedence to the lowest, so the
/// derived `Ord` is the precedence: when several apply, the smallest wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verdict {
    /// `CE`: the submission never ran.
    CompileError,
    /// `TLE`: CPU time over the limit, or wall time over the wall limit.
    TimeLimit,
    /// `MLE`: memory over the limit.
    MemoryLimit,
    /// `OLE`: output over the limit.
    OutputLimit,
    /// `RE`: killed by a signal, or a non-zero exit status.
    RuntimeError,
    /// `WA`: the answer is wrong.
    WrongAnswer,
    /// `PE`: right token by token, wrong layout.
    Presentation,
    /// `AC`: accepted.
    Accepted,
}

impl Verdict {
    /// Every verdict, in precedence order.
    pub const ALL: [Verdict; 8] = [
        Verdict::CompileError,
        Verdict::TimeLimit,
        Verdict::MemoryLimit,
        Verdict::OutputLimit,
        Verdict::RuntimeError,
        Verdict::WrongAnswer,
        Verdict::Presentation,
        Verdict::Accepted,
    ];

    /// The short name used in every report (`AC`, `WA`, ...).
    pub fn code(self) -> &'static str {
        match self {
            Verdict::CompileError => "CE",
            Verdict::TimeLimit => "TLE",
            Verdict::MemoryLimit => "MLE",
            Verdict::OutputLimit => "OLE",
            Verdict::RuntimeError => "RE",
            Verdict::WrongAnswer => "WA",
            Verdict::Presentation => "PE",
            Verdict::Accepted => "AC",
        }
    }

    /// A few words for people reading a report.
    pub fn description(self) -> &'static str {
        match self {
            Verdict::CompileError => "compile error",
            Verdict::TimeLimit => "time limit exceeded",
            Verdict::MemoryLimit => "memory limit exceeded",
            Verdict::OutputLimit => "output limit exceeded",
            Verdict::RuntimeError => "runtime error",
            Verdict::WrongAnswer => "wrong answer",
            Verdict::Presentation => "presentation error",
            Verdict::Accepted => "accepted",
        }
    }

    /// The verdict that stands for several: the one of highest precedence, `AC` for none.
    pub fn worst(verdicts: impl IntoIterator<Item = Verdict>) -> Verdict {
        verdicts.into_iter().min().unwrap_or(Verdict::Accepted)
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A verdict name that is none of judging.md's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown verdict `{0}` (expected one of CE, TLE, MLE, OLE, RE, WA, PE, AC)")]
pub struct UnknownVerdict(pub String);

impl FromStr for Verdict {
    type Err = UnknownVerdict;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Verdict::ALL
            .into_iter()
            .find(|v| v.code() == s)
            .ok_or_else(|| UnknownVerdict(s.to_owned()))
    }
}

/// A verdict is written as its code (`"AC"`) in every JSON the grader writes.
impl serde::Serialize for Verdict {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.code())
    }
}

impl<'de> serde::Deserialize<'de> for Verdict {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let code = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        code.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precedence_follows_judging_md() {
        let codes: Vec<_> = Verdict::ALL.iter().map(|v| v.code()).collect();
        assert_eq!(codes, ["CE", "TLE", "MLE", "OLE", "RE", "WA", "PE", "AC"]);
        assert!(Verdict::ALL.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn worst_picks_highest_precedence() {
        use Verdict::*;
        assert_eq!(
            Verdict::worst([Accepted, Presentation, WrongAnswer]),
            WrongAnswer
        );
        assert_eq!(Verdict::worst([RuntimeError, TimeLimit]), TimeLimit);
        assert_eq!(Verdict::worst([]), Accepted);
    }

    #[test]
    fn codes_round_trip() {
        for v in Verdict::ALL {
            assert_eq!(v.code().parse::<Verdict>(), Ok(v));
        }
        assert!("ac".parse::<Verdict>().is_err());
    }
}
