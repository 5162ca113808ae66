//! swap's explanations: the contestant's rows replayed by the checker's own replay
//! ([`crate::swap::check::replay`]): the first illegal row and the rule it breaks, a count
//! that disagrees with the rows, or a sequence that ends away from the goal, beside a
//! minimum sequence. Every sequence that reaches the goal has the same length (the closed
//! form of [`crate::swap::solve`]), so a count above the minimum can never be made good.

use rustc_hash::FxHashSet;

use super::judge::Explain;
use super::model::{Explanation, SwapWitness, Witness};
use crate::compare::{Judgement, as_text, quote, tokens_with_lines};
use crate::swap::check::{Claim, Replay, replay};
use crate::swap::moves::successors;
use crate::swap::solve::{Answer, by_counting};
use crate::swap::{Row, Swap};

impl Explain for Swap {
    fn witness(row: &Row) -> Explanation {
        let rows = minimum(*row);
        Explanation {
            reason: statement(*row, rows.as_deref()),
            witness: Witness::Swap(SwapWitness {
                start: *row,
                rows: rows.unwrap_or_default(),
                replay: None,
            }),
        }
    }

    fn wrong(row: &Row, output: &[u8], judgement: &Judgement) -> Explanation {
        let rows = minimum(*row);
        // Layout aside: the tokens, each with its output line, as the checker reads a
        // badly laid out output.
        let replayed = as_text(output)
            .ok()
            .map(|text| replay(*row, &tokens_with_lines(text)));
        let reason = replayed.as_ref().map_or_else(
            || {
                format!(
                    "{}; {}",
                    judgement.message,
                    statement(*row, rows.as_deref())
                )
            },
            |replayed| reason(*row, rows.as_deref(), replayed, judgement),
        );
        Explanation {
            reason,
            witness: Witness::Swap(SwapWitness {
                start: *row,
                rows: rows.unwrap_or_default(),
                replay: replayed,
            }),
        }
    }
}

/// The rows of the reference's minimum sequence, or `None` when the goal is out of reach.
fn minimum(row: Row) -> Option<Vec<Row>> {
    match by_counting(row) {
        Answer::Moves(rows) => Some(rows),
        Answer::Impossible => None,
    }
}

/// `1 move`, `3 moves`.
fn moves(n: usize) -> String {
    format!("{n} move{}", if n == 1 { "" } else { "s" })
}

/// The answer explained, with no output to compare.
fn statement(row: Row, rows: Option<&[Row]>) -> String {
    let goal = quote(&row.goal().text());
    match rows.map(<[Row]>::len) {
        Some(0) => "the row is already the goal, so the answer is 0".to_owned(),
        Some(m) => format!(
            "the minimum is {}, and every sequence that reaches the goal {goal} has exactly {m}",
            moves(m)
        ),
        None => impossible(row),
    }
}

/// Why no sequence solves `row`: every row it can reach was tried.
fn impossible(row: Row) -> String {
    let mut seen = FxHashSet::from_iter([row]);
    let mut frontier = vec![row];
    while let Some(at) = frontier.pop() {
        for next in successors(at) {
            if seen.insert(next) {
                frontier.push(next);
            }
        }
    }
    let goal = quote(&row.goal().text());
    if seen.len() == 1 {
        return format!(
            "this row cannot be solved: no piece can move, and it is not the goal {goal}"
        );
    }
    format!(
        "this row cannot be solved: whatever you move, the goal {goal} is never reached (the \
         {} rows reachable from it were all tried)",
        seen.len()
    )
}

/// Why the `replayed` output is wrong.
fn reason(row: Row, rows: Option<&[Row]>, replayed: &Replay, judgement: &Judgement) -> String {
    let fallback = || format!("{}; {}", judgement.message, statement(row, rows));
    let Claim::Moves(n) = replayed.claim else {
        return match (rows, &replayed.claim) {
            (Some(rows), Claim::Impossible) if !rows.is_empty() => format!(
                "you printed Impossible; this row is solved in {}",
                rows.len()
            ),
            _ => fallback(),
        };
    };
    let illegal = replayed
        .fault
        .as_ref()
        .map(|fault| format!("your move {} is illegal: {}", fault.step, fault.message()));
    let Some(rows) = rows else {
        // Whatever was printed, it cannot reach the goal; say why, and where it first
        // breaks a rule.
        return [Some(impossible(row)), illegal]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join("; ");
    };
    let m = rows.len();
    if let Some(illegal) = illegal {
        return illegal;
    }
    let last = replayed.last(row);
    let r = replayed.rows.len();
    if last.is_goal() {
        // Every sequence that reaches the goal has exactly m moves, so r == m here.
        return match n.cmp(&m) {
            std::cmp::Ordering::Greater => format!(
                "you printed {n}; {} suffice{}: your {r} rows reach the goal, and every \
                 sequence that does has exactly {m}",
                moves(m),
                if m == 1 { "s" } else { "" }
            ),
            std::cmp::Ordering::Less => format!(
                "no {} solve{} this row; the minimum is {m}",
                moves(n),
                if n == 1 { "s" } else { "" }
            ),
            std::cmp::Ordering::Equal => fallback(),
        };
    }
    let mut parts = Vec::new();
    if n != replayed.printed {
        parts.push(format!(
            "you printed {n} but {} follow{}",
            if replayed.printed == 1 {
                "1 row".to_owned()
            } else {
                format!("{} rows", replayed.printed)
            },
            if replayed.printed == 1 { "s" } else { "" }
        ));
    }
    parts.push(format!(
        "after your {} the row is {}, not the goal {}",
        moves(r),
        quote(&last.text()),
        quote(&last.goal().text())
    ));
    parts.push(format!(
        "the minimum is {m}, and every sequence that reaches the goal has exactly {m}"
    ));
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Puzzle;
    use crate::explain::judge::explain;
    use crate::rng::Rng;
    use crate::swap::solve::by_search;
    use crate::swap::solve::tests::rows;

    fn row(text: &str) -> Row {
        Row::parse(format!("{text}\n").as_bytes()).unwrap()
    }

    /// The witness of `row`, checked: printed as an answer, the checker accepts it, and its
    /// length is the minimum of the other solver (breadth-first search).
    fn check_witness(row: Row) {
        let explanation = Swap::witness(&row);
        let Witness::Swap(w) = &explanation.witness else {
            panic!("a swap witness")
        };
        match by_search(row) {
            Answer::Moves(shortest) => {
                assert_eq!(w.rows.len(), shortest.len(), "{}", row.text());
                let printed = Answer::Moves(w.rows.clone()).to_string();
                let judged = Swap::check(&row, &by_counting(row), printed.as_bytes());
                assert_eq!(judged.message, "", "{}", row.text());
            }
            Answer::Impossible => {
                assert!(w.rows.is_empty());
                assert!(
                    explanation
                        .reason
                        .starts_with("this row cannot be solved: "),
                    "{}",
                    explanation.reason
                );
            }
        }
    }

    #[test]
    fn every_witness_is_a_minimum_sequence_the_checker_accepts() {
        for len in 2..=10 {
            for r in rows(len) {
                check_witness(r);
            }
        }
        // Longer rows of every kind the fuzzer draws, up to the longest.
        let mut rng = Rng::new(16);
        for kind in Swap::FUZZ_MIX {
            for _ in 0..40 {
                check_witness(Swap::generate(&kind.parse().unwrap(), &mut rng));
            }
        }
    }

    #[test]
    fn an_impossible_rows_reason_counts_the_rows_it_can_reach() {
        // The count is checked against a search of its own, which also finds no goal.
        assert_eq!(
            Swap::witness(&row("OWWB")).reason,
            "this row cannot be solved: no piece can move, and it is not the goal `BOWW`"
        );
        let reason = Swap::witness(&row("WOWWB")).reason;
        let reachable = {
            let mut seen = FxHashSet::from_iter([row("WOWWB")]);
            let mut todo = vec![row("WOWWB")];
            while let Some(at) = todo.pop() {
                todo.extend(successors(at).filter(|n| seen.insert(*n)));
            }
            assert!(!seen.iter().any(|r| r.is_goal()));
            seen.len()
        };
        assert_eq!(
            reason,
            format!(
                "this row cannot be solved: whatever you move, the goal `BOWWW` is never \
                 reached (the {reachable} rows reachable from it were all tried)"
            )
        );
    }

    #[test]
    fn wrong_outputs_are_replayed_to_their_first_fault() {
        let judge = |board: &str, out: &str| {
            let r = row(board);
            let e = explain::<Swap>(&r, out.as_bytes()).expect("a wrong output");
            let Witness::Swap(w) = e.witness else {
                panic!("a swap witness")
            };
            // The minimum sequence is always beside the replay.
            assert_eq!(w.rows.len(), by_search(r).moves().unwrap_or(0));
            (e.reason, w.replay)
        };
        let minimum = "the minimum is 3, and every sequence that reaches the goal has exactly 3";
        // An illegal move: its number, its line, the rule it breaks.
        let (reason, replay) = judge("WOB", "3\nOWB\nOBW\nBOW\n");
        assert_eq!(
            reason,
            "your move 2 is illegal: line 3: `OBW` is not one legal move from `OWB`: \
             more than one piece moved"
        );
        let replay = replay.unwrap();
        assert_eq!(replay.rows, [row("OWB")]);
        assert_eq!(replay.fault.unwrap().step, 2);
        // A count above the minimum, the rows right: every sequence has exactly 3.
        assert_eq!(
            judge("WOB", "4\nOWB\nBWO\nBOW\n").0,
            "you printed 4; 3 moves suffice: your 3 rows reach the goal, and every sequence \
             that does has exactly 3"
        );
        assert_eq!(
            judge("WOB", "2\nOWB\nBWO\nBOW\n").0,
            "no 2 moves solve this row; the minimum is 3"
        );
        // Too long: the move after the goal moves nothing.
        assert_eq!(
            judge("WOB", "4\nOWB\nBWO\nBOW\nBOW\n").0,
            "your move 4 is illegal: line 5: `BOW` is not one legal move from `BOW`: \
             no piece moved"
        );
        // A count that disagrees with the rows, which stop short of the goal.
        assert_eq!(
            judge("WOB", "3\nOWB\nBWO\n").0,
            format!(
                "you printed 3 but 2 rows follow; after your 2 moves the row is `BWO`, not \
                 the goal `BOW`; {minimum}"
            )
        );
        assert_eq!(
            judge("WOB", "2\nOWB\nBWO\n").0,
            format!("after your 2 moves the row is `BWO`, not the goal `BOW`; {minimum}")
        );
        assert_eq!(
            judge("WOB", "Impossible\n").0,
            "you printed Impossible; this row is solved in 3"
        );
        assert_eq!(
            judge("WOB", "abc\n").0,
            "line 1: expected the move count 3, got `abc`; the minimum is 3 moves, and every \
             sequence that reaches the goal `BOW` has exactly 3"
        );
        assert_eq!(
            judge("WOB", "").0,
            "expected 3 moves, got an empty output; the minimum is 3 moves, and every \
             sequence that reaches the goal `BOW` has exactly 3"
        );
        assert!(judge("WOB", "3\nOWB\n\u{ff}\n").0.contains("is not a row"));
        // A layout fault: the checker's message.
        assert_eq!(
            judge("WOB", "3 OWB BWO BOW\n").0,
            "right moves, wrong layout (docs/problems.md: the count, then one row per \
             line): line 1: expected `3`, got `3 OWB BWO BOW`"
        );
        // A row that cannot be solved: why, and where the rows first break a rule.
        let (reason, _) = judge("OWWB", "1\nWOWB\n");
        assert!(
            reason.starts_with("this row cannot be solved: "),
            "{reason}"
        );
        assert!(
            reason.ends_with(
                "; your move 1 is illegal: line 2: `WOWB` is not one legal move from `OWWB`: \
                 a `W` moved left; `W` moves only right"
            ),
            "{reason}"
        );
        assert_eq!(explain::<Swap>(&row("WOB"), b"3\nWBO\nOBW\nBOW\n"), None);
    }
}
