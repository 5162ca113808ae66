//! A wrong answer's explanation, drawn: the stored reason, then the reference's minimum
//! solution step by step as small coloured grids (flip: the board after each press, the
//! pressed cell marked; fourinrow: the board after each move, its from and to squares
//! marked, and who moves first; swap: the rows of a minimum sequence, beside the
//! contestant's own rows with the first illegal one marked when the reason says so).
//!
//! The steps are asked again of the reference from the case's input
//! ([`reference::Problem::witness`]): the stored explanation keeps the contract's JSON,
//! not the boards between steps.

use maud::{Markup, html};
use reference::explain::model::{
    FlipWitness, FourInRowWitness, Square, SwapWitness, colour_letter,
};
use reference::swap::check::{FaultKind, Replay};
use reference::{Problem, Witness};

use crate::results::case::Explained;

/// The grids drawn at most (flip's longest answer is 6 presses, fourinrow's about 15
/// moves): the rest are counted, not drawn.
const GRIDS: usize = 16;

/// The rows of a swap sequence drawn at most, in each column.
const ROWS: usize = 40;

/// The explanation of a wrong answer on `input`: its reason and its steps. `output` is the
/// program's output, when the page may show it (swap draws its rows beside a minimum).
pub(super) fn explanation(
    problem: Problem,
    input: &str,
    explained: &Explained,
    output: Option<&[u8]>,
) -> Markup {
    html! {
        div.explanation {
            p.reason { "Why: " (explained.reason) }
            @if let Ok(minimum) = problem.witness(input.as_bytes()) {
                @match &minimum.witness {
                    Witness::Flip(w) => (flip(w)),
                    Witness::FourInRow(w) => (fourinrow(w)),
                    Witness::Swap(w) => (swap(w, output.and_then(|out| replayed(problem, input, out, explained)).as_ref())),
                }
            }
        }
    }
}

/// The contestant's rows replayed, with its fault kept only when the stored reason names
/// an illegal move (the stored output is a prefix: a row cut at its end is no fault).
fn replayed(problem: Problem, input: &str, output: &[u8], explained: &Explained) -> Option<Replay> {
    let explanation = problem.explain(input.as_bytes(), output).ok()??;
    let Witness::Swap(w) = explanation.witness else {
        return None;
    };
    let mut replay = w.replay?;
    if !explained.reason.contains(" is illegal: ") {
        replay.fault = None;
    }
    Some(replay)
}

/// One grid of a 4x4 board, from its text (`b`/`w`, or `B`/`W`/`O`), with some squares
/// marked by a CSS class.
fn grid(board: &impl std::fmt::Display, marks: &[(Square, &'static str)]) -> Markup {
    let text = board.to_string();
    html! {
        span.grid {
            @for (row, line) in (1u8..).zip(text.lines()) {
                @for (col, cell) in (1u8..).zip(line.chars()) {
                    @let mark = marks.iter().find(|(s, _)| s.row == row && s.col == col).map(|(_, class)| *class);
                    span class={ (cell_class(cell)) @if let Some(m) = mark { " " (m) } } { (cell) }
                }
            }
        }
    }
}

/// The CSS class of a cell: black, white or empty.
fn cell_class(cell: char) -> &'static str {
    match cell {
        'b' | 'B' => "blk",
        'w' | 'W' => "wht",
        _ => "emp",
    }
}

/// A labelled grid.
fn step(label: &str, grid: &Markup) -> Markup {
    html! { figure.step { figcaption { (label) } (grid) } }
}

/// `N more steps not drawn`, when some are cut.
fn rest(total: usize, drawn: usize) -> Markup {
    html! {
        @if total > drawn {
            p.rest { (total - drawn) " more steps not drawn." }
        }
    }
}

fn flip(w: &FlipWitness) -> Markup {
    html! {
        div.steps {
            (step("start", &grid(&w.start, &[])))
            @for (square, board) in w.presses.iter().zip(&w.boards).take(GRIDS) {
                (step(&format!("press {square}"), &grid(board, &[(*square, "mark")])))
            }
            @if let Some(cells) = &w.invariant {
                @let marks: Vec<(Square, &'static str)> = cells.iter().map(|s| (*s, "mark")).collect();
                (step("every press flips an even number of the marked squares", &grid(&w.start, &marks)))
            }
        }
        (rest(w.presses.len(), GRIDS))
    }
}

fn fourinrow(w: &FourInRowWitness) -> Markup {
    // Colours alternate from the first mover.
    let movers = std::iter::successors(w.first, |c| Some(c.other()));
    let labels: Vec<String> = w
        .moves
        .iter()
        .zip(movers.map(colour_letter))
        .map(|(slide, colour)| format!("{colour} {} \u{2192} {}", slide.from, slide.to))
        .collect();
    html! {
        @if let Some(first) = w.first {
            p { (colour_letter(first)) " moves first; colours alternate." }
        }
        div.steps {
            (step("start", &grid(&w.start, &[])))
            @for ((slide, board), label) in w.moves.iter().zip(&w.boards).zip(&labels).take(GRIDS) {
                (step(label, &grid(board, &[(slide.from, "from"), (slide.to, "mark")])))
            }
        }
        (rest(w.moves.len(), GRIDS))
    }
}

fn swap(w: &SwapWitness, replay: Option<&Replay>) -> Markup {
    html! {
        div.cols {
            div {
                "a minimum (" (w.rows.len()) " moves)"
                ol.rows start="0" {
                    li { code { (w.start.text()) } }
                    @for row in w.rows.iter().take(ROWS) { li { code { (row.text()) } } }
                }
                (rest(w.rows.len(), ROWS))
            }
            @if let Some(replay) = replay {
                div {
                    "your rows"
                    ol.rows start="0" {
                        li { code { (w.start.text()) } }
                        @for row in replay.rows.iter().take(ROWS) { li { code { (row.text()) } } }
                        @if let Some(fault) = &replay.fault {
                            @let why = match &fault.kind { FaultKind::NotARow(why) | FaultKind::Illegal { why, .. } => why };
                            li.illegal { code { (reference::visible::escape_lines(fault.text.as_bytes())) } " \u{2190} line " (fault.line) ": " (why) }
                        }
                    }
                    (rest(replay.rows.len(), ROWS))
                }
            }
        }
    }
}
