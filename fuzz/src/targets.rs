//! Entry points for coverage-guided fuzzing (`fuzz/libfuzzer/`, thin wrappers over these)
//! and for the stable test that replays their corpus: arbitrary bytes into our parsers,
//! the output comparison and the checkers. None may panic on any input; where a property
//! must hold (a parsed board's own answer is accepted), it is asserted.

use reference::{Problem, Verdict};

use crate::differ::draw;

/// The problem a byte picks, so one target covers all three.
fn problem(byte: u8) -> Problem {
    Problem::ALL[usize::from(byte) % Problem::ALL.len()]
}

/// Bytes as an input of the problem the first byte picks: parsing never panics, and an
/// input that parses is solved, its answer accepted by the checker, and its shrink
/// neighbours are valid inputs.
pub fn parse_input(data: &[u8]) {
    let Some((&first, input)) = data.split_first() else {
        return;
    };
    let problem = problem(first);
    if problem.validate(input).is_err() {
        return;
    }
    let answer = problem.solve(input).expect("a valid input solves");
    let judgement = problem
        .check(input, None, answer.as_bytes())
        .expect("a valid input checks");
    assert_eq!(judgement.verdict, Verdict::Accepted, "{judgement:?}");
    for neighbour in problem.shrink(input).expect("a valid input shrinks") {
        assert_eq!(
            problem.validate(neighbour.as_bytes()),
            Ok(()),
            "{neighbour:?}"
        );
    }
}

/// Bytes split at the first NUL into an expected answer and an output: the comparison of
/// judging.md never panics and accepts an output equal to the answer.
pub fn compare_outputs(data: &[u8]) {
    let split = data.iter().position(|&b| b == 0).unwrap_or(data.len());
    let Ok(expected) = std::str::from_utf8(&data[..split]) else {
        return;
    };
    let output = data.get(split + 1..).unwrap_or_default();
    let _ = reference::compare::compare(expected, output);
    let same = reference::compare::compare(expected, expected.as_bytes());
    assert_eq!(same.verdict, Verdict::Accepted, "{expected:?}");
}

/// Bytes as a contestant's output for a generated input (the first byte picks the
/// problem, the second the input): the checker never panics, whatever the output.
pub fn check_output(data: &[u8]) {
    let [first, second, output @ ..] = data else {
        return;
    };
    let problem = problem(*first);
    let drawn = draw(problem, u64::from(*second), u64::from(*second));
    let _ = problem.check(drawn.input.as_bytes(), None, output);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_take_empty_odd_and_valid_bytes() {
        for data in [
            &b""[..],
            b"\0",
            b"\x00bwwb\nbbwb\nbwwb\nbwww\n",
            b"\x01BWBO\nWBWB\nBWBW\nWBWO\n",
            b"\x02WWOBB\n",
            b"\x02\xff\xfe",
            b"4\n\x004 \r\n\n",
            b"\x02\x05\n3\nWOWBB\n",
        ] {
            parse_input(data);
            compare_outputs(data);
            check_output(data);
        }
    }
}
