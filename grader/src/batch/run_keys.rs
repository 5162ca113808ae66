//! The journal's keys: a run is known by a hash of its program, its case (name, input and
//! answer) and the limits record (with, on a package, its judge: the validator and its
//! flags), so a result is reused exactly when all are unchanged. The cases' texts are
//! read once here, for the keys and for the runs.

use sandbox::Limits;

use crate::cases::find::Case;
use crate::cli::exit::Fault;
use crate::keys::{Key, hex};
use crate::results::limits::LimitsRecord;
use crate::run::grade::CaseText;

/// Every case's text and hash, and the limits' key.
#[derive(Debug)]
pub(crate) struct Keys {
    /// The cases' texts, in the cases' order.
    pub(crate) texts: Vec<CaseText>,
    /// A hash of each case.
    cases: Vec<String>,
    /// The limits record's key (and a package's judge's).
    limits: String,
}

impl Keys {
    /// Reads `cases` (once for the whole batch) under `limits`, judged by `judge` (a
    /// package's judge's hash; `None` for a built-in problem, whose keys are as they were).
    pub(crate) fn read(
        cases: &[Case],
        limits: &Limits,
        judge: Option<&str>,
    ) -> Result<Keys, Fault> {
        let (texts, hashes) = cases
            .iter()
            .map(|case| {
                let text = CaseText::load(case)?;
                let hash = case_hash(&case.name, &text);
                Ok((text, hash))
            })
            .collect::<Result<Vec<_>, Fault>>()?
            .into_iter()
            .unzip();
        Ok(Keys {
            texts,
            cases: hashes,
            limits: {
                // A built-in problem has no judge of its own: its part is empty.
                let mut key = Key::new("limits and judge");
                key.part(LimitsRecord::of(limits).key())
                    .part(judge.unwrap_or_default());
                key.hex()
            },
        })
    }

    /// Keys of `count` cases without texts, for tests that run nothing.
    #[cfg(test)]
    pub(crate) fn without_texts(count: usize) -> Keys {
        Keys {
            texts: Vec::new(),
            cases: (0..count).map(|c| format!("case {c}")).collect(),
            limits: "limits".to_owned(),
        }
    }

    /// The key of the run of the program hashed `program` on case number `case`.
    pub(crate) fn run(&self, program: &str, case: usize) -> RunKey {
        let mut key = Key::new("run");
        key.part(program).part(&self.cases[case]).part(&self.limits);
        RunKey(key.bytes())
    }
}

/// A run's key: the hash of its program, case and limits. A journal line holds it in hex.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct RunKey([u8; 32]);

/// The first 128 bits of a run's key: what the journal's index keeps of it, half the
/// bytes. Two runs of a journal of millions of lines share them with a chance under
/// 1e-25: the index tells runs apart as surely as the whole key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct ShortKey(u128);

impl RunKey {
    /// As a journal line writes it: 64 hex digits.
    pub(crate) fn hex(&self) -> String {
        hex(&self.0)
    }

    /// Its first 128 bits.
    pub(crate) fn short(&self) -> ShortKey {
        let mut first = [0; 16];
        first.copy_from_slice(&self.0[..16]);
        ShortKey(u128::from_be_bytes(first))
    }
}

impl ShortKey {
    /// The short key of a key written as [`RunKey::hex`] writes it; `None` for any other
    /// text (a line no grader wrote).
    pub(crate) fn of_hex(text: &str) -> Option<ShortKey> {
        let all_hex = text
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        if text.len() != 64 || !all_hex {
            return None;
        }
        u128::from_str_radix(&text[..32], 16).ok().map(ShortKey)
    }
}

/// A hash of a case's name, input and answer.
fn case_hash(name: &str, text: &CaseText) -> String {
    let mut key = Key::new("case");
    key.part(name).part(&text.input).part(&text.answer);
    key.hex()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(cases: &[&str], limits: &str) -> Keys {
        Keys {
            texts: Vec::new(),
            cases: cases.iter().map(|&c| c.to_owned()).collect(),
            limits: limits.to_owned(),
        }
    }

    #[test]
    fn a_key_changes_with_the_program_the_case_and_the_limits_and_with_nothing_else() {
        let base = keys(&["c1", "c2"], "l1");
        assert_eq!(base.run("p", 0), keys(&["c1", "c9"], "l1").run("p", 0));
        assert_ne!(base.run("p", 0), base.run("q", 0));
        assert_ne!(base.run("p", 0), base.run("p", 1));
        assert_ne!(base.run("p", 0), keys(&["c1"], "l2").run("p", 0));
        // The parts are kept apart: moving a letter from one to the next is another key.
        assert_ne!(
            keys(&["bc"], "d").run("a", 0),
            keys(&["c"], "d").run("ab", 0)
        );
    }

    #[test]
    fn a_short_key_is_the_first_half_of_the_hex_key_and_only_a_whole_key_parses() {
        let key = keys(&["c1"], "l1").run("p", 0);
        let hex = key.hex();
        assert_eq!(hex.len(), 64);
        assert_eq!(ShortKey::of_hex(&hex), Some(key.short()));
        assert_ne!(key.short(), keys(&["c1"], "l1").run("q", 0).short());
        for bad in [
            &hex[..63],
            &hex.to_uppercase(),
            &format!("{}g", &hex[..63]),
            "",
        ] {
            assert_eq!(ShortKey::of_hex(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_case_hash_covers_its_name_input_and_answer() {
        let text = |input: &str, answer: &str| CaseText {
            input: input.into(),
            answer: answer.into(),
            interaction: None,
        };
        let base = case_hash("01", &text("ab", "1"));
        assert_eq!(base, case_hash("01", &text("ab", "1")));
        assert_ne!(base, case_hash("02", &text("ab", "1")));
        assert_ne!(base, case_hash("01", &text("ab", "2")));
        // The input's length is hashed: where the input ends and the answer starts counts.
        assert_ne!(base, case_hash("01", &text("a", "b1")));
    }
}
