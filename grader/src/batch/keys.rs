//! The journal's keys: a run is known by a hash of its program, its case (name, input and
//! answer) and the limits record (with, on a package, its judge: the validator and its
//! flags), so a result is reused exactly when all are unchanged. The cases' texts are
//! read once here, for the keys and for the runs.

use sha2::{Digest, Sha256};

use crate::cases::discover::Case;
use crate::exec::Limits;
use crate::grade::CaseText;
use crate::results::limits::LimitsRecord;
use crate::status::Fault;
use crate::submission::compile::hex;

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
            limits: match judge {
                Some(judge) => format!("{} {judge}", LimitsRecord::of(limits).key()),
                None => LimitsRecord::of(limits).key(),
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
    pub(crate) fn run(&self, program: &str, case: usize) -> String {
        let mut hash = Sha256::new();
        for part in [program, &self.cases[case], &self.limits] {
            hash.update(part.as_bytes());
            hash.update([0]);
        }
        hex(&hash.finalize())
    }
}

/// A hash of a case's name, input and answer.
fn case_hash(name: &str, text: &CaseText) -> String {
    let mut hash = Sha256::new();
    hash.update(name.as_bytes());
    hash.update([0]);
    hash.update((text.input.len() as u64).to_le_bytes());
    hash.update(&text.input);
    hash.update(&text.answer);
    hex(&hash.finalize())
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
    fn a_case_hash_covers_its_name_input_and_answer() {
        let text = |input: &str, answer: &str| CaseText {
            input: input.into(),
            answer: answer.into(),
        };
        let base = case_hash("01", &text("ab", "1"));
        assert_eq!(base, case_hash("01", &text("ab", "1")));
        assert_ne!(base, case_hash("02", &text("ab", "1")));
        assert_ne!(base, case_hash("01", &text("ab", "2")));
        // The input's length is hashed: where the input ends and the answer starts counts.
        assert_ne!(base, case_hash("01", &text("a", "b1")));
    }
}
