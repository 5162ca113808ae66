//! Witnesses drawn as text for a terminal: flip and fourinrow boards as small grids side
//! by side, one per step; swap rows one per line, the contestant's replay beside a
//! minimum sequence. Reports that draw their own (HTML) use the typed witness instead.

use std::fmt::Write as _;

use super::model::{FlipWitness, FourInRowWitness, SwapWitness, Witness, colour_letter};
use crate::swap::check::FaultKind;

/// How many columns a drawing fills at most, unless told otherwise.
const COLUMNS: usize = 100;

impl Witness {
    /// The steps, drawn within 100 columns: each line ends with `\n`.
    pub fn draw(&self) -> String {
        self.draw_within(COLUMNS)
    }

    /// The steps, drawn with grids side by side in bands no wider than `columns` (at
    /// least one grid a band, however narrow): each line ends with `\n`.
    pub fn draw_within(&self, columns: usize) -> String {
        match self {
            Witness::Flip(w) => flip(w, columns),
            Witness::FourInRow(w) => fourinrow(w, columns),
            Witness::Swap(w) => swap(w),
        }
    }
}

/// A grid with a label above it.
struct Panel {
    label: String,
    lines: Vec<String>,
}

impl Panel {
    fn new(label: impl Into<String>, board: &impl std::fmt::Display) -> Panel {
        Panel {
            label: label.into(),
            lines: board.to_string().lines().map(str::to_owned).collect(),
        }
    }
}

/// The gap between two grids of a band.
const GAP: usize = 3;

/// Panels side by side, columns as wide as the widest label, in bands of as many as fit in
/// `columns` (the last panel of a band needs no gap after it).
fn side_by_side(panels: &[Panel], columns: usize) -> String {
    let widest = panels
        .iter()
        .flat_map(|p| std::iter::once(&p.label).chain(&p.lines))
        .map(|s| s.chars().count())
        .max()
        .unwrap_or(0);
    let width = widest + GAP;
    let per_band = (columns.saturating_sub(widest) / width + 1).max(1);
    let mut out = String::new();
    for (n, band) in panels.chunks(per_band).enumerate() {
        if n > 0 {
            out.push('\n');
        }
        let height = band.iter().map(|p| p.lines.len()).max().unwrap_or(0);
        let rows = std::iter::once(band.iter().map(|p| p.label.as_str()).collect::<Vec<_>>())
            .chain((0..height).map(|i| {
                band.iter()
                    .map(|p| p.lines.get(i).map_or("", String::as_str))
                    .collect()
            }));
        for cells in rows {
            let mut line = String::new();
            for cell in cells {
                let _ = write!(line, "{cell:width$}");
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
    out
}

fn flip(w: &FlipWitness, columns: usize) -> String {
    let mut panels = vec![Panel::new("start", &w.start)];
    for (square, board) in w.presses.iter().zip(&w.boards) {
        panels.push(Panel::new(format!("press {square}"), board));
    }
    if let Some(cells) = &w.invariant {
        // The squares of the invariant, marked where the start board has them.
        let lines = (1..=4u8)
            .map(|row| {
                (1..=4u8)
                    .map(|col| {
                        if cells.iter().any(|s| s.row == row && s.col == col) {
                            '*'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect();
        panels.push(Panel {
            label: "squares *".to_owned(),
            lines,
        });
    }
    side_by_side(&panels, columns)
}

fn fourinrow(w: &FourInRowWitness, columns: usize) -> String {
    let mut panels = vec![Panel::new("start", &w.start)];
    let mut mover = w.first;
    for (slide, board) in w.moves.iter().zip(&w.boards) {
        let colour = mover.map_or("", colour_letter);
        panels.push(Panel::new(
            format!("{colour} {}->{}", slide.from, slide.to),
            board,
        ));
        mover = mover.map(crate::fourinrow::Colour::other);
    }
    side_by_side(&panels, columns)
}

fn swap(w: &SwapWitness) -> String {
    let mut yours: Vec<String> = Vec::new();
    if let Some(replay) = &w.replay {
        yours.extend(replay.rows.iter().map(|r| r.text()));
        if let Some(fault) = &replay.fault {
            let why = match &fault.kind {
                FaultKind::NotARow(why) | FaultKind::Illegal { why, .. } => why,
            };
            yours.push(format!("{}  <- line {}: {why}", fault.text, fault.line));
        }
    }
    let width = usize::from(w.start.len).max("a minimum".len()) + 3;
    let mut out = String::new();
    if w.replay.is_some() {
        let _ = writeln!(out, "{:7}{:width$}yours", "", "a minimum");
    } else if !w.rows.is_empty() {
        let _ = writeln!(out, "{:7}a minimum", "");
    }
    let start = w.start.text();
    let _ = writeln!(
        out,
        "{}",
        format!(
            "{:7}{start:width$}{}",
            "start",
            if w.replay.is_some() {
                start.as_str()
            } else {
                ""
            }
        )
        .trim_end()
    );
    for i in 0..w.rows.len().max(yours.len()) {
        let minimum = w.rows.get(i).map_or_else(String::new, |r| r.text());
        let theirs = yours.get(i).map_or("", String::as_str);
        let _ = writeln!(
            out,
            "{}",
            format!("{:>5}  {minimum:width$}{theirs}", i + 1).trim_end()
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::Problem;

    fn drawn(problem: Problem, input: &str, output: Option<&str>) -> String {
        let explanation = match output {
            Some(out) => problem
                .explain(input.as_bytes(), out.as_bytes())
                .unwrap()
                .unwrap(),
            None => problem.witness(input.as_bytes()).unwrap(),
        };
        explanation.witness.draw()
    }

    #[test]
    fn flip_boards_are_drawn_press_by_press() {
        assert_eq!(
            drawn(Problem::Flip, "wbww\nbbbw\nwbww\nwwww\n", None),
            "start         press (2,2)\n\
             wbww          wwww\n\
             bbbw          wwww\n\
             wbww          wwww\n\
             wwww          wwww\n"
        );
        // An unsolvable board: the squares of its invariant beside it.
        let text = drawn(Problem::Flip, "bwww\nwwww\nwwww\nwwww\n", Some("1\n"));
        assert!(
            text.starts_with("start       squares *\nbwww        *"),
            "{text}"
        );
    }

    #[test]
    fn fourinrow_moves_name_their_colour_and_bands_wrap() {
        let text = drawn(Problem::FourInRow, "BWBO\nWBWB\nBWBW\nWBWO\n", None);
        let header = text.lines().next().unwrap();
        assert!(header.starts_with("start"), "{text}");
        assert_eq!(header.matches("->").count(), 5, "{text}");
        // Six panels fit one band: start and five moves.
        assert_eq!(text.lines().count(), 5, "{text}");
    }

    #[test]
    fn bands_wrap_to_the_columns_given_and_never_pass_them() {
        let why = Problem::FourInRow
            .witness(b"BWBO\nWBWB\nBWBW\nWBWO\n")
            .unwrap();
        for columns in [0, 20, 40, 60, 96] {
            let text = why.witness.draw_within(columns);
            let widest = text.lines().map(|l| l.chars().count()).max().unwrap();
            // A band always has one grid, however narrow the columns.
            assert!(widest <= columns.max(14), "{columns}: {text}");
            let moves: usize = text.lines().map(|l| l.matches("->").count()).sum();
            assert_eq!(moves, 5, "{columns}: {text}");
        }
        // Two grids of 14 columns and a gap of 3 fit in 31, not in 30.
        let starts = |columns| why.witness.draw_within(columns).lines().count();
        assert!(starts(30) > starts(31));
    }

    #[test]
    fn swap_replays_are_drawn_beside_a_minimum() {
        assert_eq!(
            drawn(Problem::Swap, "WOB\n", Some("3\nOWB\nOBW\nBOW\n")),
            "       a minimum   yours\n\
             start  WOB         WOB\n\
             \x20   1  OWB         OWB\n\
             \x20   2  BWO         OBW  <- line 3: more than one piece moved\n\
             \x20   3  BOW\n"
        );
        assert_eq!(drawn(Problem::Swap, "OWWB\n", None), "start  OWWB\n");
    }
}
