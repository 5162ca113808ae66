//! Seeded flip boards by kind. Uniform boards are a poor test: 93.75% are `Impossible`,
//! so the kinds draw each answer value, each goal colour and the hardest boards on purpose.

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use super::board::Board;
use super::solve::{PRESSES, UNREACHABLE, distances, table};
use crate::puzzle::KindDoc;
use crate::rng::Rng;

/// The largest answer of any flip board.
pub const MAX_ANSWER: u8 = 6;

/// A way of drawing boards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Uniform over all 65,536 boards.
    Random,
    /// Uniform among the boards with this answer (0 to 6).
    Answer(u8),
    /// One of the two uniform boards.
    Solved,
    /// Uniform among the 61,440 boards with no solution.
    Impossible,
    /// Uniform among the boards with the largest answer.
    Hardest,
    /// Uniform among the 4,096 solvable boards.
    Solvable,
    /// Boards where reaching this colour (`true`: all `b`) takes strictly fewer rounds than
    /// the other: a solution that aims for one colour only fails on one of the two kinds.
    Colour(bool),
}

/// The kinds, as documented to users.
pub const KINDS: &[KindDoc] = &[
    KindDoc {
        name: "random",
        about: "uniform over all 65,536 boards (93.75% Impossible)",
    },
    KindDoc {
        name: "answer=N",
        about: "uniform among the boards whose answer is N (0 to 6)",
    },
    KindDoc {
        name: "solved",
        about: "an all-b or all-w board (answer 0)",
    },
    KindDoc {
        name: "impossible",
        about: "uniform among the boards with no solution",
    },
    KindDoc {
        name: "hardest",
        about: "uniform among the boards with the largest answer, 6",
    },
    KindDoc {
        name: "solvable",
        about: "uniform among the 4,096 solvable boards",
    },
    KindDoc {
        name: "colour=b",
        about: "all-b is strictly closer than all-w: catches solutions aiming at all-w only",
    },
    KindDoc {
        name: "colour=w",
        about: "all-w is strictly closer than all-b: catches solutions aiming at all-b only",
    },
];

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Kind::Random => f.write_str("random"),
            Kind::Answer(n) => write!(f, "answer={n}"),
            Kind::Solved => f.write_str("solved"),
            Kind::Impossible => f.write_str("impossible"),
            Kind::Hardest => f.write_str("hardest"),
            Kind::Solvable => f.write_str("solvable"),
            Kind::Colour(black) => write!(f, "colour={}", if *black { 'b' } else { 'w' }),
        }
    }
}

impl FromStr for Kind {
    type Err = String;

    fn from_str(s: &str) -> Result<Kind, String> {
        Ok(match s {
            "random" => Kind::Random,
            "solved" => Kind::Solved,
            "impossible" => Kind::Impossible,
            "hardest" => Kind::Hardest,
            "solvable" => Kind::Solvable,
            "colour=b" | "color=b" => Kind::Colour(true),
            "colour=w" | "color=w" => Kind::Colour(false),
            _ => {
                if let Some(n) = s.strip_prefix("answer=") {
                    return match n.parse::<u8>() {
                        Ok(n) if n <= MAX_ANSWER => Ok(Kind::Answer(n)),
                        _ => Err(format!("flip answers are 0 to {MAX_ANSWER}, got `{n}`")),
                    };
                }
                if let Some(c) = s
                    .strip_prefix("colour=")
                    .or_else(|| s.strip_prefix("color="))
                {
                    return Err(format!("a colour is `b` or `w`, got `{c}`"));
                }
                return Err(KindDoc::unknown(crate::Problem::Flip, s, KINDS));
            }
        })
    }
}

/// The boards of each answer value, in ascending order of their bits.
fn by_answer() -> &'static [Vec<u16>] {
    static LISTS: OnceLock<Vec<Vec<u16>>> = OnceLock::new();
    LISTS.get_or_init(|| {
        let mut lists = vec![Vec::new(); usize::from(MAX_ANSWER) + 1];
        for (bits, &d) in table().iter().enumerate() {
            if d != UNREACHABLE {
                lists[usize::from(d)].push(bits as u16);
            }
        }
        lists
    })
}

/// The solvable boards strictly closer to all-b (`[true]`) or to all-w (`[false]`).
fn by_colour(black: bool) -> &'static [u16] {
    static LISTS: OnceLock<[Vec<u16>; 2]> = OnceLock::new();
    let lists = LISTS.get_or_init(|| {
        let to_white = distances(&PRESSES, &[Board::ALL_WHITE.0]);
        let to_black = distances(&PRESSES, &[Board::ALL_BLACK.0]);
        let pick = |closer: &dyn Fn(u8, u8) -> bool| -> Vec<u16> {
            (0..=u16::MAX)
                .filter(|&b| closer(to_black[b as usize], to_white[b as usize]))
                .collect()
        };
        // UNREACHABLE is the largest value, so an unreachable colour is never closer.
        [pick(&|b, w| w < b), pick(&|b, w| b < w)]
    });
    &lists[usize::from(black)]
}

/// Draws one board of `kind`.
pub fn generate(kind: Kind, rng: &mut Rng) -> Board {
    let uniform = |rng: &mut Rng| Board(rng.below(1 << 16) as u16);
    match kind {
        Kind::Random => uniform(rng),
        Kind::Answer(n) => Board(*rng.pick(&by_answer()[usize::from(n)])),
        Kind::Solved => Board(*rng.pick(&by_answer()[0])),
        Kind::Hardest => Board(*rng.pick(&by_answer()[usize::from(MAX_ANSWER)])),
        // 15 in 16 boards qualify: rejection is cheap and needs no list.
        Kind::Impossible => loop {
            let board = uniform(rng);
            if table()[board.0 as usize] == UNREACHABLE {
                break board;
            }
        },
        Kind::Solvable => loop {
            let board = uniform(rng);
            if table()[board.0 as usize] != UNREACHABLE {
                break board;
            }
        },
        Kind::Colour(black) => Board(*rng.pick(by_colour(black))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_draws_what_it_promises() {
        let mut rng = Rng::new(9);
        for n in 0..=MAX_ANSWER {
            for _ in 0..20 {
                let b = generate(Kind::Answer(n), &mut rng);
                assert_eq!(table()[b.0 as usize], n);
            }
        }
        for _ in 0..50 {
            assert!(generate(Kind::Solved, &mut rng).is_goal());
            assert_eq!(table()[generate(Kind::Hardest, &mut rng).0 as usize], 6);
            assert_eq!(
                table()[generate(Kind::Impossible, &mut rng).0 as usize],
                UNREACHABLE
            );
            assert_ne!(
                table()[generate(Kind::Solvable, &mut rng).0 as usize],
                UNREACHABLE
            );
        }
        let to_white = distances(&PRESSES, &[0]);
        let to_black = distances(&PRESSES, &[0xFFFF]);
        for _ in 0..50 {
            let b = generate(Kind::Colour(true), &mut rng).0 as usize;
            assert!(to_black[b] < to_white[b]);
            let w = generate(Kind::Colour(false), &mut rng).0 as usize;
            assert!(to_white[w] < to_black[w]);
        }
    }

    #[test]
    fn kinds_round_trip_and_explain_mistakes() {
        for doc in KINDS {
            let name = doc.name.replace("=N", "=3");
            assert_eq!(name.parse::<Kind>().unwrap().to_string(), name);
        }
        assert_eq!(
            "answer=9".parse::<Kind>().unwrap_err(),
            "flip answers are 0 to 6, got `9`"
        );
        assert!(
            "colour=x"
                .parse::<Kind>()
                .unwrap_err()
                .contains("`b` or `w`")
        );
        assert!("sideways".parse::<Kind>().unwrap_err().contains("answer=N"));
    }

    #[test]
    fn the_first_draws_of_seed_1_are_pinned() {
        let mut rng = Rng::new(1);
        let drawn: Vec<u16> = (0..4).map(|_| generate(Kind::Random, &mut rng).0).collect();
        let mut rng = Rng::new(1);
        let expected: Vec<u16> = (0..4).map(|_| rng.below(1 << 16) as u16).collect();
        assert_eq!(drawn, expected);
    }
}
