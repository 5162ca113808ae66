//! Seeded fourinrow boards by kind. A third of uniform boards already are goals and the
//! deep answers are rare (128 boards need 7 moves), so the kinds draw each answer value,
//! each kind of goal line, boards where the first mover matters and touching empty squares
//! on purpose. Every class is a list of board ranks in ascending order, drawn uniformly.

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use super::board::{Board, Colour, LINES};
use super::table::{BOARDS, UNREACHABLE, all_boards, for_each_move, table, unrank};
use crate::puzzle::KindDoc;
use crate::rng::Rng;

/// The largest answer of any board.
pub const MAX_ANSWER: u8 = 7;

/// The kinds of goal line: rows, columns, the diagonal, the antidiagonal.
pub const LINE_KINDS: [&str; 4] = ["row", "column", "diagonal", "antidiagonal"];

/// A way of drawing boards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Uniform over the 411,840 valid boards.
    Random,
    /// Uniform among the boards with this answer (0 to 7).
    Answer(u8),
    /// Uniform among the boards with the largest answer.
    Hardest,
    /// A goal board whose only lines are of this kind (index into [`LINE_KINDS`]) and colour.
    Solved(usize, Colour),
    /// Boards where this colour must move first to reach a goal soonest.
    FirstMover(Colour),
    /// Unsolved boards whose two empty squares are orthogonally adjacent.
    Touching,
    /// Solvable unsolved boards where exactly one first move keeps the minimum.
    OneWay,
}

/// The kinds, as documented to users.
pub const KINDS: &[KindDoc] = &[
    KindDoc {
        name: "random",
        about: "uniform over the 411,840 valid boards (34% already goals)",
    },
    KindDoc {
        name: "answer=N",
        about: "uniform among the boards whose answer is N (0 to 7)",
    },
    KindDoc {
        name: "hardest",
        about: "uniform among the 128 boards with the largest answer, 7",
    },
    KindDoc {
        name: "solved=LINE-C",
        about: "a goal whose only lines are of kind LINE (row, column, diagonal, antidiagonal) and colour C (B or W)",
    },
    KindDoc {
        name: "first-mover=C",
        about: "boards where colour C (B or W) must move first to win soonest",
    },
    KindDoc {
        name: "touching",
        about: "unsolved boards whose two empty squares touch",
    },
    KindDoc {
        name: "one-way",
        about: "boards where exactly one first move keeps the minimum: a solver missing any one move answers more",
    },
];

fn colour_name(c: Colour) -> char {
    if c == Colour::Black { 'B' } else { 'W' }
}

fn parse_colour(s: &str) -> Result<Colour, String> {
    match s {
        "B" => Ok(Colour::Black),
        "W" => Ok(Colour::White),
        _ => Err(format!("a colour is `B` or `W`, got `{s}`")),
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Kind::Random => f.write_str("random"),
            Kind::Answer(n) => write!(f, "answer={n}"),
            Kind::Hardest => f.write_str("hardest"),
            Kind::Solved(line, c) => write!(f, "solved={}-{}", LINE_KINDS[*line], colour_name(*c)),
            Kind::FirstMover(c) => write!(f, "first-mover={}", colour_name(*c)),
            Kind::Touching => f.write_str("touching"),
            Kind::OneWay => f.write_str("one-way"),
        }
    }
}

impl FromStr for Kind {
    type Err = String;

    fn from_str(s: &str) -> Result<Kind, String> {
        match s {
            "random" => return Ok(Kind::Random),
            "hardest" => return Ok(Kind::Hardest),
            "touching" => return Ok(Kind::Touching),
            "one-way" => return Ok(Kind::OneWay),
            _ => {}
        }
        if let Some(n) = s.strip_prefix("answer=") {
            return match n.parse::<u8>() {
                Ok(n) if n <= MAX_ANSWER => Ok(Kind::Answer(n)),
                _ => Err(format!(
                    "fourinrow answers are 0 to {MAX_ANSWER}, got `{n}`"
                )),
            };
        }
        if let Some(c) = s.strip_prefix("first-mover=") {
            return parse_colour(c).map(Kind::FirstMover);
        }
        if let Some(rest) = s.strip_prefix("solved=") {
            let (line, colour) = rest.rsplit_once('-').ok_or_else(|| {
                format!("expected `solved=LINE-C` (e.g. `solved=row-B`), got `{s}`")
            })?;
            let line = LINE_KINDS.iter().position(|&l| l == line).ok_or_else(|| {
                format!("a line is one of {}, got `{line}`", LINE_KINDS.join(", "))
            })?;
            return Ok(Kind::Solved(line, parse_colour(colour)?));
        }
        Err(KindDoc::unknown(crate::Problem::FourInRow, s, KINDS))
    }
}

/// The kind of each goal line of [`LINES`]: rows, columns, diagonal, antidiagonal.
const LINE_KIND_OF: [usize; 10] = [0, 0, 0, 0, 1, 1, 1, 1, 2, 3];

/// The board classes the kinds draw from, as ranks in ascending order.
struct Classes {
    by_answer: Vec<Vec<u32>>,
    /// Index `line * 2 + colour`.
    solved: Vec<Vec<u32>>,
    /// Index 0: black must move first; 1: white.
    first_mover: [Vec<u32>; 2],
    touching: Vec<u32>,
    one_way: Vec<u32>,
}

fn classes() -> &'static Classes {
    static CLASSES: OnceLock<Classes> = OnceLock::new();
    CLASSES.get_or_init(|| {
        let table = table();
        let mut classes = Classes {
            by_answer: vec![Vec::new(); usize::from(MAX_ANSWER) + 1],
            solved: vec![Vec::new(); 8],
            first_mover: [Vec::new(), Vec::new()],
            touching: Vec::new(),
            one_way: Vec::new(),
        };
        for (index, board) in all_boards().enumerate() {
            let index = index as u32;
            let answer = table.answer(board);
            classes.by_answer[usize::from(answer)].push(index);
            if answer == 0 {
                // The set of (line kind, colour) the board's lines belong to.
                let mut found = Vec::new();
                for (l, &line) in LINES.iter().enumerate() {
                    for (c, colour) in [Colour::Black, Colour::White].into_iter().enumerate() {
                        if board.pieces(colour) & line == line {
                            found.push(LINE_KIND_OF[l] * 2 + c);
                        }
                    }
                }
                found.dedup();
                if let [only] = found[..] {
                    classes.solved[only].push(index);
                }
                continue;
            }
            let black = table.distance(board, Colour::Black);
            let white = table.distance(board, Colour::White);
            if black < white {
                classes.first_mover[0].push(index);
            } else if white < black {
                classes.first_mover[1].push(index);
            }
            let low = board.empty.trailing_zeros();
            let high = board.empty.ilog2();
            if (high - low == 4) || (high - low == 1 && high % 4 != 0) {
                classes.touching.push(index);
            }
            if answer != UNREACHABLE && optimal_first_moves(board) == 1 {
                classes.one_way.push(index);
            }
        }
        classes
    })
}

/// How many first moves (of either colour) keep a solvable board's answer: a move of
/// `c` to a board one move nearer with the other colour to move next. Read from the
/// distance table, so the class comes from the search, not from a list of mistakes.
pub fn optimal_first_moves(board: Board) -> usize {
    let table = table();
    let answer = table.answer(board);
    let mut count = 0;
    for colour in [Colour::Black, Colour::White] {
        if table.distance(board, colour) != answer {
            continue;
        }
        for_each_move(board, colour, |after| {
            if table.distance(after, colour.other()).saturating_add(1) == answer {
                count += 1;
            }
        });
    }
    count
}

/// Draws one board of `kind`.
pub fn generate(kind: Kind, rng: &mut Rng) -> Board {
    let classes = classes();
    let pick = |rng: &mut Rng, list: &[u32]| unrank(*rng.pick(list) as usize);
    match kind {
        Kind::Random => unrank(rng.index(BOARDS)),
        Kind::Answer(n) => pick(rng, &classes.by_answer[usize::from(n)]),
        Kind::Hardest => pick(rng, &classes.by_answer[usize::from(MAX_ANSWER)]),
        Kind::Solved(line, colour) => pick(
            rng,
            &classes.solved[line * 2 + usize::from(colour == Colour::White)],
        ),
        Kind::FirstMover(colour) => pick(
            rng,
            &classes.first_mover[usize::from(colour == Colour::White)],
        ),
        Kind::Touching => pick(rng, &classes.touching),
        Kind::OneWay => pick(rng, &classes.one_way),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_class_is_populated_and_holds_what_it_promises() {
        let c = classes();
        assert!(c.solved.iter().all(|l| !l.is_empty()));
        assert!(c.first_mover.iter().all(|l| !l.is_empty()));
        assert!(!c.touching.is_empty());
        assert!(!c.one_way.is_empty());
        let mut rng = Rng::new(4);
        let table = table();
        for _ in 0..30 {
            for n in 0..=MAX_ANSWER {
                assert_eq!(table.answer(generate(Kind::Answer(n), &mut rng)), n);
            }
            let b = generate(Kind::Solved(3, Colour::White), &mut rng);
            assert!(b.is_goal() && b.white() & 0x1248 == 0x1248 && !b.has_line(&LINES[..9]));
            let f = generate(Kind::FirstMover(Colour::Black), &mut rng);
            assert!(table.distance(f, Colour::Black) < table.distance(f, Colour::White));
            let one_way = generate(Kind::OneWay, &mut rng);
            assert!(
                !one_way.is_goal() && table.answer(one_way) != UNREACHABLE,
                "{one_way}"
            );
            assert_eq!(optimal_first_moves(one_way), 1, "{one_way}");
            let t = generate(Kind::Touching, &mut rng);
            assert!(!t.is_goal());
            let (low, high) = (t.empty.trailing_zeros(), t.empty.ilog2());
            assert!(
                high - low == 4 || (high - low == 1 && low / 4 == high / 4),
                "{t}"
            );
        }
    }

    #[test]
    fn kinds_round_trip_and_explain_mistakes() {
        for name in [
            "random",
            "answer=7",
            "hardest",
            "solved=antidiagonal-W",
            "first-mover=B",
            "touching",
            "one-way",
        ] {
            assert_eq!(name.parse::<Kind>().unwrap().to_string(), name);
        }
        assert_eq!(
            "answer=8".parse::<Kind>().unwrap_err(),
            "fourinrow answers are 0 to 7, got `8`"
        );
        assert!(
            "solved=ring-B"
                .parse::<Kind>()
                .unwrap_err()
                .contains("row, column")
        );
        assert!(
            "first-mover=X"
                .parse::<Kind>()
                .unwrap_err()
                .contains("`B` or `W`")
        );
    }
}
