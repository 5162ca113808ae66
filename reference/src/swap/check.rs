//! The swap checker: any sequence of minimum length is `AC` (problems.md). The output is
//! replayed row by row; the first faulty line is named with the reason.
//!
//! judging.md's layout rules come from `compare`: the sequence is verified on the
//! normalised lines (`AC`), else on the whitespace-separated tokens (`PE`, naming the
//! first line not laid out one item per line), else `WA` with the reason the tokens fail.
//! Either way every item keeps the number of the output line it is on, so messages name
//! lines of the output as the contestant sees it.

use super::board::Row;
use super::moves::why_illegal;
use super::solve::Answer;
use crate::compare::{
    Judgement, as_text, compare, first_difference, normalized_lines, quote, tokens_with_lines,
};
use crate::text::{self, ParseError};

/// The largest move count an answer file may hold: far above any row's minimum (the
/// standard start of 10 and 10 needs 120).
const MAX_MOVES: u32 = 1000;

/// Parses an answer file strictly: `Impossible`, or a count `k` then exactly `k` rows of
/// the board's length, each with one `O`. Checks the form only; legality is the checker's.
pub fn parse_answer(board: Row, text: &[u8]) -> Result<Answer, ParseError> {
    let first_end = text.iter().position(|&b| b == b'\n').unwrap_or(text.len());
    let first = &text[..first_end];
    if first == b"Impossible" {
        text::each_line(text, 1, |_, _| Ok(()))?;
        return Ok(Answer::Impossible);
    }
    let k = text::parse_count(1, first, MAX_MOVES)? as usize;
    let len = usize::from(board.len);
    let mut rows = Vec::with_capacity(k);
    text::each_line(text, k + 1, |number, line| {
        if number > 1 {
            rows.push(Row::parse_line(number, line, len..=len)?);
        }
        Ok(())
    })?;
    Ok(Answer::Moves(rows))
}

/// Judges `output` for `board`, given a correct `answer`.
pub fn check(board: Row, answer: &Answer, output: &[u8]) -> Judgement {
    let Answer::Moves(rows) = answer else {
        return compare("Impossible\n", output);
    };
    let text = match as_text(output) {
        Ok(text) => text,
        Err(judgement) => return judgement,
    };
    let lines: Vec<&str> = normalized_lines(text);
    let numbered: Vec<(usize, &str)> = lines.iter().enumerate().map(|(i, l)| (i + 1, *l)).collect();
    if verify(board, rows.len(), &numbered).is_ok() {
        return Judgement::accepted();
    }
    let tokens = tokens_with_lines(text);
    match verify(board, rows.len(), &tokens) {
        Ok(()) => {
            // The right layout of these tokens is one per line: the first line that is
            // not one is where the layout goes wrong.
            let laid_out: Vec<&str> = tokens.iter().map(|&(_, t)| t).collect();
            Judgement::presentation(format!(
                "right moves, wrong layout (docs/problems.md: the count, then one row per line): {}",
                first_difference(&laid_out, &lines)
            ))
        }
        Err(why) => Judgement::wrong(why),
    }
}

/// Checks that `items` (lines or tokens, each with its output line number) are the count
/// `k` then `k` rows, each one legal move from the one before, ending at the goal.
fn verify(board: Row, k: usize, items: &[(usize, &str)]) -> Result<(), String> {
    let replayed = replay(board, items);
    match replayed.claim {
        Claim::Nothing => return Err(format!("expected {k} moves, got an empty output")),
        Claim::Impossible => return Err(format!("expected {k} moves, got `Impossible`")),
        Claim::Other { line, ref text } => {
            return Err(format!(
                "line {line}: expected the move count {k}, got {}",
                quote(text)
            ));
        }
        Claim::Moves(n) if n != k => return Err(format!("expected {k} moves, got {n}")),
        Claim::Moves(_) => {}
    }
    if replayed.printed < k {
        return Err(format!(
            "expected {k} rows after the count, got {}",
            replayed.printed
        ));
    }
    if let Some(&(line, extra)) = items.get(k + 1) {
        // The first bad line is the one named (docs/judging.md): a row split across lines
        // is a line that is not a row long before the pieces run past the count.
        if let Some(fault) = replayed.fault.as_ref().filter(|f| f.line < line) {
            return Err(fault.message());
        }
        return Err(format!(
            "expected {k} rows after the count, got {}: line {line} ({}) is extra",
            replayed.printed,
            quote(extra)
        ));
    }
    if let Some(fault) = &replayed.fault {
        return Err(fault.message());
    }
    let last = replayed.last(board);
    if !last.is_goal() {
        return Err(format!(
            "line {}: the last row {} is not the goal {}",
            replayed.last_line,
            quote(&last.text()),
            quote(&last.goal().text())
        ));
    }
    Ok(())
}

/// What the first item of an output claims.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// The output has no items.
    Nothing,
    /// `Impossible`.
    Impossible,
    /// A move count, written as problems.md's answers are (no sign, no leading zero).
    Moves(usize),
    /// Anything else, with its output line.
    Other {
        /// The output line of the item.
        line: usize,
        /// The item.
        text: String,
    },
}

/// The first printed row that is not a legal move from the row before it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowFault {
    /// Its output line.
    pub line: usize,
    /// Its place among the rows printed (1 for the first row after the count).
    pub step: usize,
    /// The item as printed.
    pub text: String,
    /// What is wrong with it.
    pub kind: FaultKind,
}

/// What is wrong with a faulty row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FaultKind {
    /// It is not a row of the board's length with one `O`: the parser's reason.
    NotARow(String),
    /// It is a row, but not one legal move from `from`: which rule it breaks.
    Illegal {
        /// The row before it (the start row for the first).
        from: Row,
        /// The rule broken (see [`why_illegal`]).
        why: String,
    },
}

impl RowFault {
    /// The checker's message: `line 3: `OBW` is not one legal move from `OWB`: ...`.
    pub fn message(&self) -> String {
        let (line, item) = (self.line, quote(&self.text));
        match &self.kind {
            FaultKind::NotARow(why) => format!("line {line}: {item} is not a row: {why}"),
            FaultKind::Illegal { from, why } => format!(
                "line {line}: {item} is not one legal move from {}: {why}",
                quote(&from.text())
            ),
        }
    }
}

/// A contestant's output replayed from the start row: the one replay of the checker and
/// of the explanations (`crate::explain::swap`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replay {
    /// What the first item says.
    pub claim: Claim,
    /// How many items follow the first: the rows printed.
    pub printed: usize,
    /// The rows printed that are legal moves, each from the one before, up to the first
    /// fault.
    pub rows: Vec<Row>,
    /// The output line of the last of `rows` (of the count when there is none).
    pub last_line: usize,
    /// The first printed row that is not a legal move, if any.
    pub fault: Option<RowFault>,
}

impl Replay {
    /// The row the legal moves lead to: the last of `rows`, or `start` when none.
    pub fn last(&self, start: Row) -> Row {
        self.rows.last().copied().unwrap_or(start)
    }
}

/// Replays `items` (lines or tokens, each with its output line number) from `board`: the
/// claim of the first, then every later item as a row, up to the first that is not one
/// legal move from the row before.
pub fn replay(board: Row, items: &[(usize, &str)]) -> Replay {
    let Some(&(first_line, first)) = items.first() else {
        return Replay {
            claim: Claim::Nothing,
            printed: 0,
            rows: Vec::new(),
            last_line: 0,
            fault: None,
        };
    };
    let digits = !first.is_empty() && first.bytes().all(|b| b.is_ascii_digit());
    let count = if digits && (first.len() == 1 || !first.starts_with('0')) {
        first.parse::<usize>().ok()
    } else {
        None
    };
    let claim = match count {
        Some(n) => Claim::Moves(n),
        None if first == "Impossible" => Claim::Impossible,
        None => Claim::Other {
            line: first_line,
            text: first.to_owned(),
        },
    };
    let len = usize::from(board.len);
    let mut replayed = Replay {
        claim,
        printed: items.len() - 1,
        rows: Vec::new(),
        last_line: first_line,
        fault: None,
    };
    let mut prev = board;
    for (step, &(line, item)) in items[1..].iter().enumerate() {
        let fault = |kind| RowFault {
            line,
            step: step + 1,
            text: item.to_owned(),
            kind,
        };
        let row = match Row::parse_line(line, item.as_bytes(), len..=len) {
            Ok(row) => row,
            Err(e) => {
                replayed.fault = Some(fault(FaultKind::NotARow(e.message)));
                break;
            }
        };
        if let Some(why) = why_illegal(prev, row) {
            replayed.fault = Some(fault(FaultKind::Illegal { from: prev, why }));
            break;
        }
        replayed.rows.push(row);
        replayed.last_line = line;
        prev = row;
    }
    replayed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Verdict;
    use crate::swap::solve::by_counting;

    fn judge(board: &str, output: &str) -> Judgement {
        let row = Row::parse(format!("{board}\n").as_bytes()).unwrap();
        check(row, &by_counting(row), output.as_bytes())
    }

    #[test]
    fn any_minimum_sequence_is_accepted() {
        assert_eq!(
            judge("WOB", "3\nOWB\nBWO\nBOW\n").verdict,
            Verdict::Accepted
        );
        assert_eq!(
            judge("WOB", "3\nWBO\nOBW\nBOW\n").verdict,
            Verdict::Accepted
        );
        assert_eq!(
            judge("WOB", "3\r\nWBO  \nOBW\nBOW\n\n\n").verdict,
            Verdict::Accepted
        );
        assert_eq!(judge("BOW", "0\n").verdict, Verdict::Accepted);
        assert_eq!(judge("OWWB", "Impossible\n").verdict, Verdict::Accepted);
    }

    #[test]
    fn messages_name_lines_of_the_output_even_when_its_layout_is_wrong() {
        let message = |board, out| judge(board, out).message;
        assert_eq!(
            message("WOB", "3 OWB BWO BOW\n"),
            "right moves, wrong layout (docs/problems.md: the count, then one row per line): \
             line 1: expected `3`, got `3 OWB BWO BOW`"
        );
        assert_eq!(
            message("WOB", "3\nOWB\n\nBWO\nBOW\n"),
            "right moves, wrong layout (docs/problems.md: the count, then one row per line): \
             line 3: expected `BWO`, got ``"
        );
        assert_eq!(
            message("WOB", "3 OWB\nOBW BOW\n"),
            "line 2: `OBW` is not one legal move from `OWB`: more than one piece moved"
        );
        assert_eq!(
            message("WOB", "3\nOWB BWO\n\n\nBWO\n"),
            "line 5: `BWO` is not one legal move from `BWO`: no piece moved"
        );
        assert_eq!(
            message("WOB", "3\nOWB\nBWO\nBOW\n\n\nBOW\n"),
            "expected 3 rows after the count, got 4: line 7 (`BOW`) is extra"
        );
        // Rows split across lines: the first line that is not a row is named, not the
        // pieces past the count further down.
        assert_eq!(
            message("WOB", "3\nO WB\nB WO\nB OW\n"),
            "line 2: `O` is not a row: expected `W`, `B` or `O`, found the end of the line (a \
             row holds 3 cells)"
        );
        assert_eq!(
            message("WOB", "3\nOWB\nBWO\nBWO\u{200b}\n"),
            "line 4: `BWO\\u{200b}` is not a row: expected the end of the line after 3 cells, \
             found `\\u{200b}`, an invisible character"
        );
    }

    #[test]
    fn layout_faults_are_presentation_errors() {
        assert_eq!(
            judge("WOB", "3 OWB BWO BOW\n").verdict,
            Verdict::Presentation
        );
        assert_eq!(
            judge("WOB", " 3\nOWB\nBWO\nBOW\n").verdict,
            Verdict::Presentation
        );
    }

    #[test]
    fn wrong_answers_name_the_first_faulty_line_and_why() {
        let message = |board, out| {
            let j = judge(board, out);
            assert_eq!(j.verdict, Verdict::WrongAnswer, "{out:?}");
            j.message
        };
        assert_eq!(
            message("WOB", "4\nOWB\nBWO\nBOW\n"),
            "expected 3 moves, got 4"
        );
        assert_eq!(
            message("WOB", "Impossible\n"),
            "expected 3 moves, got `Impossible`"
        );
        assert_eq!(message("WOB", ""), "expected 3 moves, got an empty output");
        assert_eq!(
            message("WOB", "3\nOWB\nBWO\n"),
            "expected 3 rows after the count, got 2"
        );
        assert!(message("WOB", "3\nOWB\nBWO\nBOW\nBOW\n").contains("line 5 (`BOW`) is extra"));
        assert_eq!(
            message("WOB", "3\nOWB\nOBW\nBOW\n"),
            "line 3: `OBW` is not one legal move from `OWB`: more than one piece moved"
        );
        assert!(message("WOB", "3\nOWB\nBWOO\nBOW\n").starts_with("line 3: `BWOO` is not a row"));
        assert_eq!(
            message("WOB", "3\nOWB\nBWO\nBWO\n"),
            "line 4: `BWO` is not one legal move from `BWO`: no piece moved"
        );
        assert_eq!(
            message("OWWB", "1\nWOWB\n"),
            "line 1: expected `Impossible`, got `1`"
        );
        let row = Row::parse(b"WOB\n").unwrap();
        let invalid = check(row, &by_counting(row), b"3\nOWB\n\xff\n");
        assert_eq!(invalid.verdict, Verdict::WrongAnswer);
        assert!(invalid.message.contains("UTF-8"));
    }

    #[test]
    fn answer_files_are_parsed_strictly() {
        let row = Row::parse(b"WOB\n").unwrap();
        assert_eq!(parse_answer(row, b"Impossible\n"), Ok(Answer::Impossible));
        assert_eq!(
            parse_answer(row, b"3\nOWB\nBWO\nBOW\n").unwrap().moves(),
            Some(3)
        );
        let err = |t: &[u8]| parse_answer(row, t).unwrap_err();
        assert_eq!(
            (err(b"3\nOWB\nBWO\n").line, err(b"3\nOWB\nBWO\n").column),
            (4, 1)
        );
        assert_eq!(err(b"2\nOWB\nBWOB\n").line, 3);
        assert_eq!(err(b"Impossible\n0\n").line, 2);
        assert_eq!(err(b"x\n").column, 1);
        // The first bad byte is named, before the rows that are missing after it.
        let at = |t: &[u8]| (err(t).line, err(t).column);
        assert_eq!(at(b"3\nOWB\nBxO\n"), (3, 2));
        assert_eq!(at(b"3\nOWB\nBWOB"), (3, 4));
        assert_eq!(at(b"Impossible\nx"), (2, 1));
    }
}
