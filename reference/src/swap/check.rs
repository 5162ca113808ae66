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
    let Some(&(first_line, first)) = items.first() else {
        return Err(format!("expected {k} moves, got an empty output"));
    };
    let digits = !first.is_empty() && first.bytes().all(|b| b.is_ascii_digit());
    let count = if digits && (first.len() == 1 || !first.starts_with('0')) {
        first.parse::<usize>().ok()
    } else {
        None
    };
    match count {
        None if first == "Impossible" => {
            return Err(format!("expected {k} moves, got `Impossible`"));
        }
        None => {
            return Err(format!(
                "line {first_line}: expected the move count {k}, got {}",
                quote(first)
            ));
        }
        Some(n) if n != k => return Err(format!("expected {k} moves, got {n}")),
        Some(_) => {}
    }
    let rows = &items[1..];
    if rows.len() < k {
        return Err(format!(
            "expected {k} rows after the count, got {}",
            rows.len()
        ));
    }
    if let Some(&(line, extra)) = rows.get(k) {
        return Err(format!(
            "expected {k} rows after the count, got {}: line {line} ({}) is extra",
            rows.len(),
            quote(extra)
        ));
    }
    let len = usize::from(board.len);
    let mut prev = board;
    let mut last_line = first_line;
    for &(line, item) in rows {
        let row = Row::parse_line(line, item.as_bytes(), len..=len)
            .map_err(|e| format!("line {line}: {} is not a row: {}", quote(item), e.message))?;
        if let Some(why) = why_illegal(prev, row) {
            return Err(format!(
                "line {line}: {} is not one legal move from {}: {why}",
                quote(item),
                quote(&prev.text())
            ));
        }
        prev = row;
        last_line = line;
    }
    if !prev.is_goal() {
        return Err(format!(
            "line {last_line}: the last row {} is not the goal {}",
            quote(&prev.text()),
            quote(&prev.goal().text())
        ));
    }
    Ok(())
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
