//! Seeded swap rows by kind. 98.5% of valid rows are `Impossible`, so the kinds make
//! solvable rows on purpose (walked back from a goal), impossible rows that look nearly
//! solvable, the standard starts and the longest rows.

use std::collections::HashSet;
use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use super::board::{Cell, MAX_LEN, MAX_PER_COLOUR, Row};
use super::moves::{predecessors, successors};
use super::solve::Solvable;
use super::traps::{self, Trap};
use crate::puzzle::KindDoc;
use crate::rng::Rng;

/// A way of drawing rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A valid row of random length, piece counts and order (almost always impossible).
    Random,
    /// A goal row walked back by random legal moves: always solvable.
    WalkedBack,
    /// An impossible row one local defect away from a solvable one.
    Blocked,
    /// `W^n O B^n`, n = 1 to 10.
    Standard(u8),
    /// A length-21 solvable row with a large answer.
    Longest,
    /// A goal row (answer 0).
    Solved,
    /// Uniform among impossible rows of random shape.
    Impossible,
    /// A solvable row with different numbers of `W` and `B`.
    Uneven,
    /// A solvable row whose empty cell is at one end.
    EmptyAtEnd,
    /// A solvable row with a first move that cannot reach the goal (see [`Trap`]).
    Trap(Trap),
}

/// The kinds, as documented to users.
pub const KINDS: &[KindDoc] = &[
    KindDoc {
        name: "random",
        about: "a valid row of random length, counts and order (98.5% Impossible)",
    },
    KindDoc {
        name: "walked-back",
        about: "a goal walked back by random legal moves: always solvable",
    },
    KindDoc {
        name: "blocked",
        about: "an impossible row one swap of two pieces away from a solvable one",
    },
    KindDoc {
        name: "standard=N",
        about: "the classic start W^N O B^N (N = 1 to 10; N(N+2) moves)",
    },
    KindDoc {
        name: "longest",
        about: "a length-21 solvable row with a large answer",
    },
    KindDoc {
        name: "solved",
        about: "a goal row B...BOW...W (answer 0)",
    },
    KindDoc {
        name: "impossible",
        about: "a random row with no solution",
    },
    KindDoc {
        name: "uneven",
        about: "a solvable row with different numbers of W and B",
    },
    KindDoc {
        name: "empty-at-end",
        about: "a solvable row with the empty cell at one end",
    },
    KindDoc {
        name: "trap",
        about: "a solvable row with 2+ legal first moves, one of them a dead end: catches greedy solvers",
    },
    KindDoc {
        name: "deep-trap",
        about: "a trap whose losing first move still allows 3 more moves: catches solvers that look a little ahead",
    },
];

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Kind::Random => f.write_str("random"),
            Kind::WalkedBack => f.write_str("walked-back"),
            Kind::Blocked => f.write_str("blocked"),
            Kind::Standard(n) => write!(f, "standard={n}"),
            Kind::Longest => f.write_str("longest"),
            Kind::Solved => f.write_str("solved"),
            Kind::Impossible => f.write_str("impossible"),
            Kind::Uneven => f.write_str("uneven"),
            Kind::EmptyAtEnd => f.write_str("empty-at-end"),
            Kind::Trap(Trap::Fork) => f.write_str("trap"),
            Kind::Trap(Trap::Deep) => f.write_str("deep-trap"),
        }
    }
}

impl FromStr for Kind {
    type Err = String;

    fn from_str(s: &str) -> Result<Kind, String> {
        Ok(match s {
            "random" => Kind::Random,
            "walked-back" => Kind::WalkedBack,
            "blocked" => Kind::Blocked,
            "longest" => Kind::Longest,
            "solved" => Kind::Solved,
            "impossible" => Kind::Impossible,
            "uneven" => Kind::Uneven,
            "empty-at-end" => Kind::EmptyAtEnd,
            "trap" => Kind::Trap(Trap::Fork),
            "deep-trap" => Kind::Trap(Trap::Deep),
            _ => match s.strip_prefix("standard=") {
                Some(n) => match n.parse::<u8>() {
                    Ok(n) if (1..=MAX_PER_COLOUR as u8).contains(&n) => Kind::Standard(n),
                    _ => {
                        return Err(format!(
                            "standard rows have N = 1 to {MAX_PER_COLOUR}, got `{n}`"
                        ));
                    }
                },
                None => {
                    return Err(KindDoc::unknown(crate::Problem::Swap, s, KINDS));
                }
            },
        })
    }
}

/// A random length (2 to 21) and a random number of black pieces that keeps both colours
/// within problems.md's limit.
fn shape(rng: &mut Rng) -> (usize, usize) {
    let len = rng.between(2, MAX_LEN as u64) as usize;
    let pieces = len - 1;
    let lo = pieces.saturating_sub(MAX_PER_COLOUR);
    let blacks = rng.between(lo as u64, pieces.min(MAX_PER_COLOUR) as u64) as usize;
    (len, blacks)
}

/// The goal row of a shape.
fn goal(len: usize, blacks: usize) -> Row {
    Row {
        len: len as u8,
        empty: blacks as u8,
        black: (1u32 << blacks) - 1,
    }
}

/// A random row of a shape: the pieces and the empty cell shuffled.
fn shuffled(rng: &mut Rng, len: usize, blacks: usize) -> Row {
    let mut cells: Vec<Cell> = (0..len)
        .map(|i| match i {
            0 => Cell::Empty,
            i if i <= blacks => Cell::Black,
            _ => Cell::White,
        })
        .collect();
    rng.shuffle(&mut cells);
    Row::from_cells(&cells)
}

/// The goal of a shape walked back by up to `steps` random legal moves (fewer when it
/// reaches a row with no predecessor).
fn walk_back(rng: &mut Rng, len: usize, blacks: usize, steps: usize) -> Row {
    let mut row = goal(len, blacks);
    for _ in 0..steps {
        let before = predecessors(row);
        if before.is_empty() {
            break;
        }
        row = *rng.pick(&before);
    }
    row
}

/// The length-21 rows with 10 pieces of each colour whose answer is at least
/// [`LONG_ANSWER`], in breadth-first order from the goal (deterministic).
fn long_rows() -> &'static [Row] {
    static ROWS: OnceLock<Vec<Row>> = OnceLock::new();
    ROWS.get_or_init(|| {
        // Walking back one level at a time from the goal visits every solvable row of the
        // shape: the level of a row is its answer.
        let mut level = vec![goal(MAX_LEN, MAX_PER_COLOUR)];
        let mut seen: HashSet<Row> = level.iter().copied().collect();
        let mut long = Vec::new();
        for answer in 1.. {
            let next: Vec<Row> = level
                .iter()
                .flat_map(|&row| predecessors(row))
                .filter(|&row| seen.insert(row))
                .collect();
            if next.is_empty() {
                break;
            }
            if answer >= LONG_ANSWER {
                long.extend(&next);
            }
            level = next;
        }
        long
    })
}

/// The smallest answer of a `longest` row (the largest, the standard start, is 120).
pub const LONG_ANSWER: usize = 100;

/// Draws one row of `kind`.
pub fn generate(kind: Kind, rng: &mut Rng) -> Row {
    match kind {
        Kind::Random => {
            let (len, blacks) = shape(rng);
            shuffled(rng, len, blacks)
        }
        Kind::Impossible => loop {
            let (len, blacks) = shape(rng);
            let row = shuffled(rng, len, blacks);
            if !Solvable::default().check(row) {
                break row;
            }
        },
        Kind::Solved => {
            let (len, blacks) = shape(rng);
            goal(len, blacks)
        }
        Kind::WalkedBack => {
            let (len, blacks) = shape(rng);
            let steps = rng.between(1, 4 * len as u64) as usize;
            walk_back(rng, len, blacks, steps)
        }
        Kind::Uneven => loop {
            let (len, blacks) = shape(rng);
            if 2 * blacks != len - 1 {
                let steps = rng.between(1, 4 * len as u64) as usize;
                break walk_back(rng, len, blacks, steps);
            }
        },
        Kind::EmptyAtEnd => loop {
            let (len, blacks) = shape(rng);
            let row = walk_back(rng, len, blacks, 4 * len);
            let e = usize::from(row.empty);
            if (e == 0 || e == len - 1) && !row.is_goal() {
                break row;
            }
        },
        Kind::Standard(n) => {
            let n = usize::from(n);
            let mut cells = vec![Cell::White; n];
            cells.push(Cell::Empty);
            cells.extend(std::iter::repeat_n(Cell::Black, n));
            Row::from_cells(&cells)
        }
        Kind::Longest => *rng.pick(long_rows()),
        Kind::Blocked => blocked(rng),
        Kind::Trap(trap) => traps::draw(rng, trap, |rng| {
            // Nearly even counts: a lopsided row has few crossings, short answers and
            // few forks on the way.
            let len = rng.between(5, MAX_LEN as u64) as usize;
            let half = (len - 1) / 2;
            let blacks = rng.between(
                half.saturating_sub(1) as u64,
                (half + 1).min(len - 2) as u64,
            ) as usize;
            goal(
                len,
                blacks.clamp((len - 1).saturating_sub(MAX_PER_COLOUR), MAX_PER_COLOUR),
            )
        }),
    }
}

/// An impossible row made by swapping two neighbouring pieces of different colours in a
/// solvable row; when no swap blocks it, a row with no legal move at all that is not the
/// goal.
fn blocked(rng: &mut Rng) -> Row {
    loop {
        let (len, blacks) = shape(rng);
        if blacks == 0 || blacks == len - 1 {
            continue;
        }
        let steps = rng.between(1, 4 * len as u64) as usize;
        let row = walk_back(rng, len, blacks, steps);
        let mut cells: Vec<Cell> = (0..len).map(|i| row.cell(i)).collect();
        let pairs: Vec<usize> = (0..len - 1)
            .filter(|&i| {
                cells[i] != Cell::Empty && cells[i + 1] != Cell::Empty && cells[i] != cells[i + 1]
            })
            .collect();
        if pairs.is_empty() {
            continue;
        }
        let i = *rng.pick(&pairs);
        cells.swap(i, i + 1);
        let swapped = Row::from_cells(&cells);
        if !Solvable::default().check(swapped) && successors(swapped).next().is_some() {
            return swapped;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::swap::solve::{by_search, closed_form};

    fn valid(row: Row) -> bool {
        Row::parse(row.to_string().as_bytes()) == Ok(row)
    }

    #[test]
    #[expect(clippy::many_single_char_names, reason = "one letter per kind")]
    fn every_kind_draws_what_it_promises() {
        let mut rng = Rng::new(5);
        for _ in 0..100 {
            let solvable = |row| Solvable::default().check(row);
            let r = generate(Kind::Random, &mut rng);
            assert!(valid(r));
            let w = generate(Kind::WalkedBack, &mut rng);
            assert!(valid(w) && solvable(w));
            let b = generate(Kind::Blocked, &mut rng);
            assert!(
                valid(b) && !solvable(b) && successors(b).next().is_some(),
                "{}",
                b.text()
            );
            let i = generate(Kind::Impossible, &mut rng);
            assert!(valid(i) && !solvable(i));
            let s = generate(Kind::Solved, &mut rng);
            assert!(valid(s) && s.is_goal());
            let u = generate(Kind::Uneven, &mut rng);
            assert!(valid(u) && solvable(u) && u.blacks() != u.whites());
            let e = generate(Kind::EmptyAtEnd, &mut rng);
            assert!(valid(e) && solvable(e) && (e.empty == 0 || e.empty + 1 == e.len));
        }
        for _ in 0..5 {
            let l = generate(Kind::Longest, &mut rng);
            assert!(valid(l) && l.len == 21 && Solvable::default().check(l));
            assert!(
                closed_form(l) >= LONG_ANSWER,
                "{}: {}",
                l.text(),
                closed_form(l)
            );
        }
        assert_eq!(generate(Kind::Standard(3), &mut rng).text(), "WWWOBBB");
    }

    #[test]
    fn trap_kinds_draw_solvable_rows_with_a_losing_first_move() {
        let mut rng = Rng::new(17);
        let mut solvable = Solvable::default();
        for _ in 0..100 {
            for trap in [Trap::Fork, Trap::Deep] {
                let row = generate(Kind::Trap(trap), &mut rng);
                assert!(valid(row) && solvable.check(row), "{}", row.text());
                // More than one legal first move, and one of them cannot reach the goal
                // (every goal-reaching sequence is a minimum one).
                assert!(successors(row).count() > 1, "{}", row.text());
                let losing = traps::losing_first_moves(row, &mut solvable);
                assert!(!losing.is_empty(), "{}", row.text());
                // The other solver agrees (its full search is cheap on short rows only).
                if row.len <= 12 {
                    assert!(
                        losing
                            .iter()
                            .all(|&(_, next)| by_search(next).moves().is_none())
                    );
                }
                assert!(
                    traps::holds(row, trap, &mut solvable),
                    "{trap:?} {}",
                    row.text()
                );
            }
        }
    }

    #[test]
    fn kinds_round_trip_and_explain_mistakes() {
        for doc in KINDS {
            let name = doc.name.replace("=N", "=4");
            assert_eq!(name.parse::<Kind>().unwrap().to_string(), name);
        }
        assert!(
            "standard=11"
                .parse::<Kind>()
                .unwrap_err()
                .contains("N = 1 to 10")
        );
        assert!(
            "sideways"
                .parse::<Kind>()
                .unwrap_err()
                .contains("walked-back")
        );
    }
}
