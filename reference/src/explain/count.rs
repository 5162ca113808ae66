//! The reasons of the one-line answers (`flip` and `fourinrow`): what the contestant
//! claimed against the minimum, in the words of issue 16 ("you printed 5; 3 presses
//! suffice: ...", "no 2 presses solve this board; the minimum is 3", ...).

use crate::compare::{Judgement, as_text, tokens};
use crate::count::Count;

/// What a one-line output claims, read leniently (layout aside).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Said {
    /// A count, written as answers are (no sign, no leading zero).
    Moves(u64),
    /// `Impossible`.
    Impossible,
    /// Anything else: no output, several tokens, a word, bytes that are not text.
    Unreadable,
}

impl Said {
    /// Reads `output` as one answer token.
    pub fn read(output: &[u8]) -> Said {
        let Ok(text) = as_text(output) else {
            return Said::Unreadable;
        };
        match tokens(text)[..] {
            ["Impossible"] => Said::Impossible,
            [token] if token == "0" || !token.starts_with('0') => {
                if token.bytes().all(|b| b.is_ascii_digit()) {
                    token.parse().map_or(Said::Unreadable, Said::Moves)
                } else {
                    Said::Unreadable
                }
            }
            _ => Said::Unreadable,
        }
    }
}

/// What a problem says about one board's answer, for the reasons below.
#[derive(Debug, Clone)]
pub struct Facts {
    /// The right answer.
    pub answer: Count,
    /// The step, singular then plural: `("press", "presses")`, `("move", "moves")`.
    pub noun: (&'static str, &'static str),
    /// The steps of a minimum solution, as a reason lists them.
    pub listing: String,
    /// The reason of a board that is already solved.
    pub solved: String,
    /// The reason of a board that cannot be solved.
    pub impossible: String,
}

impl Facts {
    /// `1 press`, `3 presses`.
    fn steps(&self, n: u64) -> String {
        format!("{n} {}", if n == 1 { self.noun.0 } else { self.noun.1 })
    }

    /// The answer explained, with no output to compare: `the minimum is 3 presses: ...`.
    pub fn statement(&self) -> String {
        match self.answer {
            Count::Moves(0) => self.solved.clone(),
            Count::Moves(m) => format!(
                "the minimum is {}: {}",
                self.steps(u64::from(m)),
                self.listing
            ),
            Count::Impossible => self.impossible.clone(),
        }
    }

    /// Why `output`, judged `judgement`, is wrong.
    pub fn reason(&self, output: &[u8], judgement: &Judgement) -> String {
        let said = Said::read(output);
        match (self.answer, said) {
            (Count::Moves(0), Said::Moves(_) | Said::Impossible) => self.solved.clone(),
            (Count::Moves(m), Said::Impossible) => {
                format!("you printed Impossible; this board is solved in {m}")
            }
            (Count::Moves(m), Said::Moves(n)) if n > u64::from(m) => {
                let verb = if m == 1 { "suffices" } else { "suffice" };
                format!(
                    "you printed {n}; {} {verb}: {}",
                    self.steps(u64::from(m)),
                    self.listing
                )
            }
            (Count::Moves(m), Said::Moves(0)) => {
                format!("you printed 0, but the board is not solved; the minimum is {m}")
            }
            (Count::Moves(m), Said::Moves(n)) if n < u64::from(m) => {
                let verb = if n == 1 { "solves" } else { "solve" };
                format!("no {} {verb} this board; the minimum is {m}", self.steps(n))
            }
            // The one thing wrong, once, with the exact text: a proof that the board cannot
            // be solved is no help to a student who knew it and wrote `impossible` or `-1`,
            // nor a line for each such case of a student who never prints the word.
            (Count::Impossible, Said::Moves(_) | Said::Unreadable) => format!(
                "this board cannot be solved, and the answer for that is `Impossible`, written \
                 exactly so; you printed {}",
                printed(output)
            ),
            // Not an answer at all (or, defensively, the right one): the checker's message
            // says what was expected, and the statement why.
            _ => format!("{}; {}", judgement.message, self.statement()),
        }
    }
}

/// What a program printed, as a reason quotes it: its first line, trimmed and cut short.
fn printed(output: &[u8]) -> String {
    let Ok(text) = as_text(output) else {
        return "bytes that are not text".to_owned();
    };
    let line = text.trim().lines().next().unwrap_or("").trim();
    if line.is_empty() {
        return "nothing".to_owned();
    }
    let cut: String = line.chars().take(40).collect();
    if cut.len() < line.len() {
        format!("`{cut}…`")
    } else {
        format!("`{cut}`")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unsolvable_board_answered_otherwise_is_told_the_exact_word_once() {
        let facts = Facts {
            answer: Count::Impossible,
            noun: ("press", "presses"),
            listing: String::new(),
            solved: String::new(),
            impossible: "a long proof".to_owned(),
        };
        let judgement = Judgement::wrong("expected `Impossible`, got `impossible`");
        for (output, shown) in [
            (&b"impossible\n"[..], "`impossible`"),
            (b"-1\n", "`-1`"),
            (b"17\n", "`17`"),
            (b"\n", "nothing"),
        ] {
            let reason = facts.reason(output, &judgement);
            assert_eq!(
                reason,
                format!(
                    "this board cannot be solved, and the answer for that is `Impossible`, \
                     written exactly so; you printed {shown}"
                )
            );
            assert!(!reason.contains("a long proof"));
        }
    }

    #[test]
    fn outputs_are_read_as_one_answer_token() {
        assert_eq!(Said::read(b"4\n"), Said::Moves(4));
        assert_eq!(Said::read(b"  4 \r\n\n"), Said::Moves(4));
        assert_eq!(Said::read(b"0\n"), Said::Moves(0));
        assert_eq!(Said::read(b"Impossible\n"), Said::Impossible);
        for unreadable in [
            &b""[..],
            b"04\n",
            b"-1\n",
            b"4 4\n",
            b"impossible\n",
            b"abc\n",
            b"\xff\n",
            b"99999999999999999999999\n",
        ] {
            assert_eq!(Said::read(unreadable), Said::Unreadable, "{unreadable:?}");
        }
    }
}
