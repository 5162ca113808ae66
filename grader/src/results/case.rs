//! One run of one case, judged: the verdict, why, the figures, and what the program
//! printed (kept as bytes, written as text).

use std::time::Duration;

use reference::{Judgement, Verdict};
use serde::{Deserialize, Serialize};

use super::limits::ms;

/// How a `TLE` at the wall limit's message begins (judging.md): what tells it, in a
/// record, from a `TLE` by CPU time.
pub(crate) const WALL_TLE: &str = "wall time over the ";

/// How the message of a `TLE` at the wall limit ends when the program was mostly idle:
/// what `grader batch` stops a sleeping student by (`batch::sleepers`).
pub(crate) const SLEPT: &str = "the program slept or waited";

/// The result of one case (cli.md's fields; the start of the output and the end of
/// stderr are written for failing cases).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CaseResult {
    /// The case's name (`secret/answers/03`).
    pub(crate) name: String,
    /// The verdict.
    pub(crate) verdict: Verdict,
    /// CPU time, ms.
    pub(crate) cpu_ms: f64,
    /// Wall time, ms.
    pub(crate) wall_ms: f64,
    /// Peak memory, KiB.
    pub(crate) memory_kib: u64,
    /// Why, for a person (empty for `AC`).
    pub(crate) message: String,
    /// The start of the program's output.
    #[serde(default, with = "text", skip_serializing_if = "Vec::is_empty")]
    pub(crate) output: Vec<u8>,
    /// The end of its standard error.
    #[serde(default, with = "text", skip_serializing_if = "Vec::is_empty")]
    pub(crate) stderr: Vec<u8>,
    /// An interactive problem's case: the start of what passed between the submission
    /// and the interactor, as a `.interaction` file shows it (`>` what the submission
    /// wrote, `<` what it read); its `output` is then empty.
    #[serde(default, with = "text", skip_serializing_if = "Vec::is_empty")]
    pub(crate) interaction: Vec<u8>,
    /// Why a `WA` or `PE` is wrong, as the reference proves it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) explanation: Option<Explained>,
    /// For a `TLE` at the wall limit: the scheduling figures of the runs it was judged
    /// from, oldest first, so that it is judged again by the rule of the grader that
    /// reads it (`judge::upheld`); empty (and absent) otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) stalls: Vec<Stalled>,
}

/// One run killed at the wall limit, as a record keeps it: what shows whether its time was
/// the program's own or the machine's (judging.md).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Stalled {
    /// CPU time, ms.
    pub(crate) cpu_ms: f64,
    /// Wall time from the program's start to its end, ms.
    pub(crate) wall_ms: f64,
    /// How long its threads had waited, runnable, for a CPU when it was killed, ms.
    pub(crate) waited_ms: f64,
    /// Its threads alive then.
    pub(crate) threads: u32,
    /// Those of them that were runnable then (running, or ready and waiting for a CPU):
    /// none says no wait was under way, so `waited_ms` is whole and this run alone showed
    /// whose its time was. Absent in a record of a grader that did not read it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) runnable: Option<u32>,
    /// The CPUs it could use.
    pub(crate) cpus: u32,
}

/// The reference's explanation of a wrong answer ([`reference::Explanation`]), kept as the
/// CLI contract writes it: `{"reason": "...", "witness": [...]}`, with `"first"` (`"B"`,
/// `"W"` or `null`) for fourinrow. (The typed steps behind it follow from the board and
/// the witness: a report that draws them asks the reference again, from the input.)
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Explained {
    /// One line: what was printed, what is right, and why.
    pub(crate) reason: String,
    /// flip: presses `[row, col]`; fourinrow: moves `[[row, col], [row, col]]`; swap: rows.
    pub(crate) witness: Vec<serde_json::Value>,
    /// fourinrow: the colour that moves first (`null` when no move is needed); absent for
    /// the other problems.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub(crate) first: Option<First>,
}

/// fourinrow's first mover, as the contract writes it: `"B"`, `"W"`, or `null` when no
/// move is needed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub(crate) enum First {
    /// `B` or `W`.
    Colour(String),
    /// No move is needed: `null`.
    NoMove,
}

impl Explained {
    /// The explanation of a run judged `verdict`: only a `WA` or a `PE` is explained (a
    /// crash or a timeout is wrong for its own reason), from the whole `output`.
    pub(crate) fn of_run(
        problem: reference::Problem,
        verdict: Verdict,
        input: &[u8],
        output: &[u8],
    ) -> Option<Explained> {
        matches!(verdict, Verdict::WrongAnswer | Verdict::Presentation)
            .then(|| Explained::of(problem, input, output))
            .flatten()
    }

    /// The explanation of `output` for `input` of `problem`; `None` when it is right, or
    /// when the input does not parse (a sound case always does).
    pub(crate) fn of(
        problem: reference::Problem,
        input: &[u8],
        output: &[u8],
    ) -> Option<Explained> {
        let explanation = problem.explain(input, output).ok()??;
        let value = serde_json::to_value(&explanation).ok()?;
        serde_json::from_value(value).ok()
    }
}

/// A `first` that is there, even as `null` (`Some(First::NoMove)`).
fn present<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<First>, D::Error> {
    First::deserialize(deserializer).map(Some)
}

/// What one run measured, for [`CaseResult::new`].
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Figures {
    /// CPU time.
    pub(crate) cpu: Duration,
    /// Wall time.
    pub(crate) wall: Duration,
    /// Peak memory, KiB.
    pub(crate) memory_kib: u64,
}

impl CaseResult {
    /// The result of case `name`, judged `judgement`, with its figures and streams.
    pub(crate) fn new(
        name: &str,
        judgement: Judgement,
        figures: Figures,
        output: Vec<u8>,
        stderr: Vec<u8>,
    ) -> CaseResult {
        CaseResult {
            name: name.to_owned(),
            verdict: judgement.verdict,
            cpu_ms: ms(figures.cpu),
            wall_ms: ms(figures.wall),
            memory_kib: figures.memory_kib,
            message: judgement.message,
            output,
            stderr,
            interaction: Vec::new(),
            explanation: None,
            stalls: Vec::new(),
        }
    }

    /// Whether it is `AC`.
    pub(crate) fn accepted(&self) -> bool {
        self.verdict == Verdict::Accepted
    }

    /// Whether it is a `TLE` at the wall limit with the program idle (it slept or waited,
    /// not computed), told by its message as a record keeps it.
    pub(crate) fn slept(&self) -> bool {
        self.verdict == Verdict::TimeLimit
            && self.message.starts_with(WALL_TLE)
            && self.message.ends_with(SLEPT)
    }

    /// Its group: the folder its name is in (`secret/answers`), `.` for a case at the top.
    pub(crate) fn group(&self) -> &str {
        self.name.rsplit_once('/').map_or(".", |(group, _)| group)
    }

    /// Wall time.
    pub(crate) fn wall(&self) -> Duration {
        Duration::from_secs_f64(self.wall_ms / 1e3)
    }

    /// The same result keeping at most `keep` bytes of the output's start and of stderr's
    /// end, and neither for an `AC` (a gradebook keeps what explains a failure).
    pub(crate) fn excerpt(mut self, keep: usize) -> CaseResult {
        if self.accepted() {
            self.output.clear();
            self.stderr.clear();
        } else {
            self.output.truncate(keep);
            let cut = self.stderr.len().saturating_sub(keep);
            self.stderr.drain(..cut);
        }
        self
    }
}

/// A case's input and answer text, for the reports that show the boards.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Board {
    /// The input.
    pub(crate) input: String,
    /// The answer.
    pub(crate) answer: String,
    /// An interactive problem's sample: its `.interaction` file beside the input, the
    /// exchange the statement shows (`>` what a submission writes, `<` what it reads).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) interaction: Option<String>,
}

impl Board {
    /// The `.interaction` file beside the case input `input`, when there is one that
    /// reads (a package's sample of an interactive problem).
    pub(crate) fn interaction_beside(input: &std::path::Path) -> Option<String> {
        let path = input.with_extension("interaction");
        path.is_file()
            .then(|| crate::paths::files::read_capped(&path).ok())
            .flatten()
            .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
    }
}

/// Bytes a program printed, written as text (what is not UTF-8 becomes U+FFFD: a report
/// shows it, the exporters escape what cannot be seen).
mod text {
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(bytes: &[u8], serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&String::from_utf8_lossy(bytes))
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Vec<u8>, D::Error> {
        String::deserialize(deserializer).map(String::into_bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failing() -> CaseResult {
        CaseResult::new(
            "secret/02",
            Judgement::wrong("expected `4`, got `5`".to_owned()),
            Figures {
                cpu: Duration::from_micros(1500),
                wall: Duration::from_millis(3),
                memory_kib: 1500,
            },
            b"5\n\xff".to_vec(),
            b"trace\nboom\n".to_vec(),
        )
    }

    #[test]
    fn a_case_is_written_with_cli_md_fields_and_read_back() {
        let text = serde_json::to_string(&failing()).unwrap();
        assert_eq!(
            text,
            "{\"name\":\"secret/02\",\"verdict\":\"WA\",\"cpu_ms\":1.5,\"wall_ms\":3.0,\
             \"memory_kib\":1500,\"message\":\"expected `4`, got `5`\",\
             \"output\":\"5\\n\u{fffd}\",\"stderr\":\"trace\\nboom\\n\"}"
        );
        let back: CaseResult = serde_json::from_str(&text).unwrap();
        assert_eq!(
            (back.verdict, back.wall()),
            (Verdict::WrongAnswer, Duration::from_millis(3))
        );
    }

    #[test]
    fn an_explanation_is_kept_as_the_contract_writes_it_and_read_back() {
        use reference::Problem;
        let flip = Explained::of(Problem::Flip, b"wbww\nbbbw\nwbww\nwwww\n", b"3\n").unwrap();
        let text = serde_json::to_string(&flip).unwrap();
        assert_eq!(
            text,
            r#"{"reason":"you printed 3; 1 press suffices: (2,2)","witness":[[2,2]]}"#
        );
        assert_eq!(serde_json::from_str::<Explained>(&text).unwrap(), flip);
        let four = Explained::of(Problem::FourInRow, b"BWBO\nWBWB\nBWBW\nWBWO\n", b"9\n").unwrap();
        let text = serde_json::to_string(&four).unwrap();
        assert!(text.contains(r#""first":"#), "{text}");
        assert_eq!(serde_json::from_str::<Explained>(&text).unwrap(), four);
        let solved = r#"{"reason":"r","witness":[],"first":null}"#;
        let back: Explained = serde_json::from_str(solved).unwrap();
        assert_eq!(back.first, Some(First::NoMove));
        assert_eq!(serde_json::to_string(&back).unwrap(), solved);
        assert_eq!(
            Explained::of(Problem::Flip, b"wbww\nbbbw\nwbww\nwwww\n", b"1\n"),
            None
        );
    }

    #[test]
    fn an_excerpt_keeps_the_start_of_output_and_the_end_of_stderr_of_failures_only() {
        let cut = failing().excerpt(4);
        assert_eq!(
            (cut.output.as_slice(), cut.stderr.as_slice()),
            (&b"5\n\xff"[..], &b"oom\n"[..])
        );
        let mut ac = failing();
        ac.verdict = Verdict::Accepted;
        let ac = ac.excerpt(4);
        assert!(ac.output.is_empty() && ac.stderr.is_empty());
        assert!(!serde_json::to_string(&ac).unwrap().contains("output"));
    }
}
