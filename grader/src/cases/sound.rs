//! The rule of a sound case, the same for every command that reads cases (`test`, `batch`,
//! `cases check`, `cases power`): its input is valid strictly per problems.md (inputs made
//! by the project are clean), and its answer is well-formed and correct (`flip` and
//! `fourinrow`: the reference's answer; `swap`: a minimum sequence the checker accepts).
//!
//! A case that breaks the rule is a fault of the data, located as `FILE:LINE:COL: message`:
//! grading on it would turn the folder's mistake into every contestant's mark.

use std::fmt;
use std::path::{Path, PathBuf};

use reference::{CheckError, ParseError, Problem};

use crate::cli::exit::Fault;

/// Why a case cannot be graded on, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CaseFault {
    /// The file at fault: the input or the answer.
    pub(crate) file: PathBuf,
    /// 1-based line in that file.
    pub(crate) line: usize,
    /// 1-based column in that file.
    pub(crate) column: usize,
    /// What is wrong.
    pub(crate) message: String,
}

impl CaseFault {
    fn parse(file: &Path, error: &ParseError) -> CaseFault {
        CaseFault {
            file: file.to_path_buf(),
            line: error.line,
            column: error.column,
            message: error.message.clone(),
        }
    }
}

impl fmt::Display for CaseFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file.display(),
            self.line,
            self.column,
            self.message
        )
    }
}

impl From<CaseFault> for Fault {
    /// A broken case is a fault of the input (exit 2), never a contestant's verdict.
    fn from(fault: CaseFault) -> Fault {
        Fault::input(fault.to_string())
    }
}

/// Checks that `input` (read from `path`) is a valid input of `problem`. When it is not
/// but is a valid input of another problem, the message says so: the likely mistake is a
/// case folder of the wrong problem.
pub(crate) fn input(problem: Problem, path: &Path, input: &[u8]) -> Result<(), CaseFault> {
    let Err(error) = problem.validate(input) else {
        return Ok(());
    };
    let mut fault = CaseFault::parse(path, &error);
    if let Some(other) = Problem::ALL
        .into_iter()
        .find(|&p| p != problem && p.validate(input).is_ok())
    {
        fault.message = format!(
            "{} (this is a board of `{other}`, not of `{problem}`: are these another \
             problem's cases?)",
            fault.message
        );
    }
    Err(fault)
}

/// Checks a whole case: its input (as [`input`] does) and its answer, well-formed and
/// correct for that input.
pub(crate) fn case(
    problem: Problem,
    (input_path, input_text): (&Path, &[u8]),
    (answer_path, answer_text): (&Path, &[u8]),
) -> Result<(), CaseFault> {
    input(problem, input_path, input_text)?;
    problem
        .verify_answer(input_text, answer_text)
        .map_err(|error| located(&error, input_path, answer_path))
}

/// Where a check of a case went wrong: in its input or in its answer.
pub(crate) fn located(error: &CheckError, input_path: &Path, answer_path: &Path) -> CaseFault {
    match error {
        CheckError::Input(error) => CaseFault::parse(input_path, error),
        CheckError::Answer(error) => CaseFault::parse(answer_path, error),
        // Well-formed but wrong: the whole answer is at fault, so it is located at its
        // start.
        CheckError::Wrong(why) => CaseFault {
            file: answer_path.to_path_buf(),
            line: 1,
            column: 1,
            message: format!("not a correct answer: {why}"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FLIP: &[u8] = b"bwwb\nbbwb\nbwwb\nbwww\n";

    fn flip(input: &[u8], answer: &[u8]) -> Result<(), String> {
        case(
            Problem::Flip,
            (Path::new("c/01.in"), input),
            (Path::new("c/01.ans"), answer),
        )
        .map_err(|f| f.to_string())
    }

    #[test]
    fn a_valid_input_with_the_right_answer_is_sound() {
        assert_eq!(flip(FLIP, b"4\n"), Ok(()));
        let swap = |answer: &[u8]| {
            case(
                Problem::Swap,
                (Path::new("s.in"), b"WOB\n"),
                (Path::new("s.ans"), answer),
            )
            .map_err(|f| f.to_string())
        };
        assert_eq!(swap(b"3\nOWB\nBWO\nBOW\n"), Ok(()));
        // Well-formed, but not a sequence the checker accepts: a case fault.
        let illegal = swap(b"3\nOWB\nOWB\nBOW\n").unwrap_err();
        assert!(
            illegal.starts_with("s.ans:1:1: not a correct answer: "),
            "{illegal}"
        );
        let short = swap(b"2\nOWB\nBOW\n").unwrap_err();
        assert!(short.contains("expected 3 moves"), "{short}");
    }

    #[test]
    fn faults_name_the_file_line_and_column() {
        let bad_input = flip(b"bwwb\nbbxb\nbwwb\nbwww\n", b"4\n").unwrap_err();
        assert!(bad_input.starts_with("c/01.in:2:3: "), "{bad_input}");
        let bad_answer = flip(FLIP, b"4\nx\n").unwrap_err();
        assert!(bad_answer.starts_with("c/01.ans:2:1: "), "{bad_answer}");
        let wrong = flip(FLIP, b"5\n").unwrap_err();
        assert!(
            wrong.starts_with("c/01.ans:1:1: not a correct answer"),
            "{wrong}"
        );
    }

    #[test]
    fn another_problems_board_is_named_as_such() {
        let fault = flip(b"BWBO\nWBWB\nBWBW\nWBWO\n", b"5\n").unwrap_err();
        assert!(fault.starts_with("c/01.in:1:1: "), "{fault}");
        assert!(fault.contains("a board of `fourinrow`"), "{fault}");
        let garbage = flip(b"hello\n", b"4\n").unwrap_err();
        assert!(!garbage.contains("a board of"), "{garbage}");
    }
}
