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

#[cfg(test)]
mod tests {
    //! Every drawn witness, read back from the page and replayed by this test's own rules
    //! (the statements' rules, not the reference's code): it solves its board in exactly
    //! the reference's answer.

    use reference::{Problem, Rng};

    use super::*;

    fn drawn(problem: Problem, input: &str) -> String {
        let explained = Explained {
            reason: "r".to_owned(),
            witness: Vec::new(),
            first: None,
        };
        explanation(problem, input, &explained, None).into_string()
    }

    /// The reference's answer: a count, or `None` for `Impossible`.
    fn answer(problem: Problem, input: &str) -> Option<usize> {
        let text = problem.solve(input.as_bytes()).unwrap();
        text.lines().next().unwrap().parse().ok()
    }

    /// The captions of the steps after `start`.
    fn captions(page: &str) -> Vec<&str> {
        page.split("<figcaption>")
            .skip(2)
            .map(|rest| rest.split_once("</figcaption>").unwrap().0)
            .filter(|c| !c.starts_with("every press"))
            .collect()
    }

    /// `(r,c)` read at the start of `text`.
    fn square(text: &str) -> (usize, usize) {
        let inner = text.trim().trim_start_matches('(');
        let (r, rest) = inner.split_once(',').unwrap();
        let c = rest.split_once(')').unwrap().0;
        (
            r.parse::<usize>().unwrap() - 1,
            c.parse::<usize>().unwrap() - 1,
        )
    }

    fn boards(problem: Problem, kinds: &[&str], per_kind: u64) -> Vec<String> {
        let mut all = Vec::new();
        for kind in kinds {
            for seed in 0..per_kind {
                all.push(problem.generate(kind, &mut Rng::new(seed)).unwrap());
            }
        }
        all
    }

    #[test]
    fn flip_presses_drawn_solve_the_board_in_the_answer() {
        for input in boards(
            Problem::Flip,
            &["random", "hardest", "impossible", "solved"],
            25,
        ) {
            let page = drawn(Problem::Flip, &input);
            let mut cells: Vec<Vec<u8>> = input.lines().map(|l| l.bytes().collect()).collect();
            let presses: Vec<(usize, usize)> = captions(&page)
                .iter()
                .map(|c| square(c.strip_prefix("press ").unwrap()))
                .collect();
            for &(r, c) in &presses {
                for (rr, line) in cells.iter_mut().enumerate() {
                    for (cc, cell) in line.iter_mut().enumerate() {
                        if rr.abs_diff(r) + cc.abs_diff(c) <= 1 {
                            *cell = if *cell == b'b' { b'w' } else { b'b' };
                        }
                    }
                }
            }
            if let Some(n) = answer(Problem::Flip, &input) {
                assert_eq!(presses.len(), n, "{input}{page}");
                let first = cells[0][0];
                assert!(cells.iter().flatten().all(|&c| c == first), "{input}{page}");
            } else {
                assert!(presses.is_empty(), "{page}");
                assert!(page.contains("every press flips an even number"), "{page}");
            }
        }
    }

    /// fourinrow's goal: a row, a column or a long diagonal of one colour.
    fn four_in_a_line(cells: &[Vec<u8>]) -> bool {
        let mut lines: Vec<Vec<(usize, usize)>> = Vec::new();
        for i in 0..4 {
            lines.push((0..4).map(|j| (i, j)).collect());
            lines.push((0..4).map(|j| (j, i)).collect());
        }
        lines.push((0..4).map(|i| (i, i)).collect());
        lines.push((0..4).map(|i| (i, 3 - i)).collect());
        lines.iter().any(|line| {
            let first = cells[line[0].0][line[0].1];
            first != b'O' && line.iter().all(|&(r, c)| cells[r][c] == first)
        })
    }

    #[test]
    fn fourinrow_moves_drawn_reach_a_line_in_the_answer_alternating_colours() {
        let kinds = ["random", "hardest", "touching", "first-mover=B", "one-way"];
        for input in boards(Problem::FourInRow, &kinds, 8) {
            let page = drawn(Problem::FourInRow, &input);
            let mut cells: Vec<Vec<u8>> = input.lines().map(|l| l.bytes().collect()).collect();
            let moves = captions(&page);
            let mut last: Option<u8> = None;
            for caption in &moves {
                let (colour, rest) = caption.split_once(' ').unwrap();
                let (from, to) = rest.split_once(" \u{2192} ").unwrap();
                let (colour, from, to) = (colour.as_bytes()[0], square(from), square(to));
                assert_ne!(last, Some(colour), "colours alternate: {page}");
                last = Some(colour);
                assert_eq!(cells[from.0][from.1], colour, "{input}{caption}");
                assert_eq!(cells[to.0][to.1], b'O', "{input}{caption}");
                assert_eq!(
                    from.0.abs_diff(to.0) + from.1.abs_diff(to.1),
                    1,
                    "{caption}"
                );
                cells[to.0][to.1] = colour;
                cells[from.0][from.1] = b'O';
            }
            if let Some(first) = moves.first() {
                let says = format!("<p>{} moves first", &first[..1]);
                assert!(page.contains(&says), "{page}");
            }
            assert_eq!(
                Some(moves.len()),
                answer(Problem::FourInRow, &input),
                "{input}{page}"
            );
            assert!(four_in_a_line(&cells), "{input}{page}");
        }
    }

    /// One legal swap move from `a` to `b`: a `W` right or a `B` left, by a step into the
    /// empty cell or a jump over one piece of the other colour.
    fn one_move(a: &[u8], b: &[u8]) -> bool {
        let (Some(ea), Some(eb)) = (
            a.iter().position(|&c| c == b'O'),
            b.iter().position(|&c| c == b'O'),
        ) else {
            return false;
        };
        let mut moved = a.to_vec();
        moved.swap(ea, eb);
        if moved != b {
            return false;
        }
        let piece = a[eb];
        match (piece, eb.abs_diff(ea)) {
            (b'W', 1) => eb < ea,
            (b'B', 1) => eb > ea,
            (b'W', 2) => eb < ea && a[eb + 1] == b'B',
            (b'B', 2) => eb > ea && a[eb - 1] == b'W',
            _ => false,
        }
    }

    #[test]
    fn swap_rows_drawn_are_legal_moves_to_the_goal_and_long_ones_are_cut() {
        let kinds = ["random", "walked-back", "blocked", "standard=3", "longest"];
        let mut cut = 0;
        for input in boards(Problem::Swap, &kinds, 6) {
            let page = drawn(Problem::Swap, &input);
            let rows: Vec<&[u8]> = page
                .split("<code>")
                .skip(1)
                .map(|rest| rest.split_once("</code>").unwrap().0.as_bytes())
                .collect();
            assert_eq!(rows[0], input.trim_end().as_bytes());
            for pair in rows.windows(2) {
                assert!(one_move(pair[0], pair[1]), "{input}{page}");
            }
            let Some(n) = answer(Problem::Swap, &input) else {
                assert_eq!(rows.len(), 1, "{page}");
                continue;
            };
            assert!(page.contains(&format!("a minimum ({n} moves)")), "{page}");
            if n > ROWS {
                cut += 1;
                assert_eq!(rows.len(), ROWS + 1, "{page}");
                assert!(
                    page.contains(&format!("{} more steps not drawn.", n - ROWS)),
                    "{page}"
                );
            } else {
                assert_eq!(rows.len(), n + 1, "{page}");
                let last = rows[n];
                let empty = last.iter().position(|&c| c == b'O').unwrap();
                let goal = last[..empty].iter().all(|&c| c == b'B')
                    && last[empty + 1..].iter().all(|&c| c == b'W');
                assert!(goal, "{input}{page}");
            }
        }
        assert!(cut > 0, "no long sequence was drawn");
    }
}
