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
            || format!("{}; {}", judgement.message, statement(*row, rows.as_deref())),
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
    format!(
        "this row cannot be solved: whatever you move, the goal {} is never reached (the \
         {} rows reachable from it were all tried)",
        quote(&row.goal().text()),
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
