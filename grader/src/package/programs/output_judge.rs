//! How a package judges an output: the format's default validator in the grader's
//! process, with `validator_flags` and the case's folder's `output_validator_flags`, or
//! the package's own output validator, in the box, under `validation_time`,
//! `validation_memory` and `validation_output`. One judge for every command that runs a
//! submission on a package's cases (`package verify`, `test`, `batch`, `fuzz`).
//!
//! A custom validator needs a worker of its own; each thread that judges asks for one with
//! [`PackageJudge::worker`] and hands it back to [`PackageJudge::judge`].

use std::collections::BTreeMap;
use std::path::Path;

use reference::Judgement;
use sandbox::Limits;

use crate::cli::exit::Fault;
use crate::keys::Key;
use crate::package::format::config::Config;
use crate::package::format::data::TestCase;
use crate::package::format::default_validator::{self, Flags};
use crate::package::programs::output_validator::Validator;
use crate::submission::Program;

/// The package's judge, and the flags of each of its cases.
#[derive(Debug)]
pub(crate) struct PackageJudge {
    how: How,
    /// Each case's flags (`validator_flags`, then its folder's `output_validator_flags`),
    /// by case name; `None`: a generated input's (`validator_flags` alone).
    flags: BTreeMap<Option<String>, Vec<String>>,
    /// The most passes of a case, when the problem is multi-pass (`passes.rs`).
    passes: Option<u32>,
}

/// Which validator judges.
#[derive(Debug)]
enum How {
    /// The default validator: its flags parsed before anything runs.
    Default(BTreeMap<Option<String>, Flags>),
    /// The package's validator: the program, its source as messages name it, its limits.
    Custom(Box<Program>, String, Limits),
    /// An interactive problem's interactor (its output validator), as for `Custom`: it
    /// judges by interacting (`interaction.rs`), never an output after the run.
    Interactive(Box<Program>, String, Limits),
}

/// Where a case's files are, and its answer's bytes (the default validator reads them).
#[derive(Debug, Clone, Copy)]
pub(crate) struct CaseFiles<'a> {
    /// The case's name below `data/` (`secret/group1/03`), or a generated input's as
    /// messages name it.
    pub(crate) name: &'a str,
    /// Whether it is a case of `data/` or an input the package's generator made.
    pub(crate) origin: Origin,
    /// Its input file.
    pub(crate) input: &'a Path,
    /// Its answer file.
    pub(crate) answer: &'a Path,
    /// The answer's bytes.
    pub(crate) answer_text: &'a [u8],
}

/// Where an input judged comes from, which decides its validator flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Origin {
    /// A case of `data/`: its folder's `output_validator_flags` add to `validator_flags`.
    Data,
    /// The package's generator (`grader fuzz`): `validator_flags` alone.
    Generated,
}

impl CaseFiles<'_> {
    /// The key of its flags.
    fn key(&self) -> Option<String> {
        match self.origin {
            Origin::Data => Some(self.name.to_owned()),
            Origin::Generated => None,
        }
    }
}

impl PackageJudge {
    /// The default validator for `cases`: every case's flags are checked now, so that a
    /// flag it lacks is the package's fault before anything runs.
    pub(crate) fn default(
        package: &Path,
        config: &Config,
        cases: &[TestCase],
    ) -> Result<PackageJudge, Fault> {
        Flags::parse(&config.validator_flags).map_err(|why| {
            Fault::input(format!(
                "{}: validator_flags: {why}",
                package.join("problem.yaml").display()
            ))
        })?;
        let flags = flags_of(config, cases);
        let parsed = flags
            .iter()
            .map(|(name, flags)| {
                Flags::parse(flags)
                    .map(|parsed| (name.clone(), parsed))
                    .map_err(|why| {
                        let name = name.as_deref().unwrap_or("problem.yaml");
                        Fault::input(format!("{name}: output_validator_flags: {why}"))
                    })
            })
            .collect::<Result<_, _>>()?;
        Ok(PackageJudge {
            how: How::Default(parsed),
            flags,
            passes: None,
        })
    }

    /// The package's own validator, `program` (built from `shown`), run under `limits`:
    /// an interactive problem's interactor, else the judge of each output.
    pub(crate) fn own(
        config: &Config,
        cases: &[TestCase],
        (program, shown): (Program, String),
        limits: Limits,
    ) -> PackageJudge {
        let program = Box::new(program);
        PackageJudge {
            how: if config.interactive {
                How::Interactive(program, shown, limits)
            } else {
                How::Custom(program, shown, limits)
            },
            flags: flags_of(config, cases),
            // The most passes of a case, when the problem is multi-pass.
            passes: config.multi_pass.then_some(config.limits.validation_passes),
        }
    }

    /// Whether it judges by interacting with the submission as it runs.
    pub(crate) fn interactive_problem(&self) -> bool {
        matches!(self.how, How::Interactive(..))
    }

    /// The most passes of a case, when the problem is multi-pass.
    pub(crate) fn passes(&self) -> Option<u32> {
        self.passes
    }

    /// The package's validator as messages name it (empty for the default one).
    pub(crate) fn shown(&self) -> &str {
        match &self.how {
            How::Default(_) => "",
            How::Custom(_, shown, _) | How::Interactive(_, shown, _) => shown,
        }
    }

    /// The interactor's flags for the case `case` (as [`PackageJudge::judge`] gives an
    /// output validator's).
    pub(crate) fn flags(&self, case: &CaseFiles<'_>) -> Result<&[String], Fault> {
        self.flags
            .get(&case.key())
            .map(Vec::as_slice)
            .ok_or_else(|| unknown(case.name))
    }

    /// A hash of how it judges (the validator's program, its limits and every case's
    /// flags), for the keys of a batch's journal: a changed validator judges again.
    pub(crate) fn hash(&self) -> Result<String, Fault> {
        // A case is its name (or the generated input's mark), then its flags as a list
        // (`keys`' framing: the key does not change with how Rust formats a type).
        let mut key = Key::new("judge");
        match &self.how {
            How::Default(_) => key.part("default"),
            How::Custom(program, _, limits) | How::Interactive(program, _, limits) => key
                .part(if self.interactive_problem() {
                    "interactive"
                } else {
                    "custom"
                })
                .part(program.hash()?)
                .part(crate::results::limits::LimitsRecord::of(limits).key()),
        };
        if let Some(passes) = self.passes {
            // Only a multi-pass problem's key has it: every other key is as before.
            key.part("passes").part(passes.to_string());
        }
        key.count(self.flags.len());
        for (case, flags) in &self.flags {
            match case {
                Some(name) => key.part("case").part(name),
                None => key.part("generated"),
            };
            key.list(flags);
        }
        Ok(key.hex())
    }

    /// A worker for the custom validator (none for the default one, which runs no
    /// program).
    pub(crate) fn worker(&self) -> Result<Option<Validator<'_>>, Fault> {
        match &self.how {
            How::Default(_) => Ok(None),
            How::Custom(program, shown, limits) | How::Interactive(program, shown, limits) => {
                Validator::start(program, shown, *limits).map(Some)
            }
        }
    }

    /// Judges `output` of the case `case`. `Err` when the validator fails (a crash, a
    /// limit, another exit status): the package's fault, never the submission's mark.
    pub(crate) fn judge(
        &self,
        case: CaseFiles<'_>,
        output: &[u8],
        worker: Option<&mut Validator<'_>>,
    ) -> Result<Judgement, Fault> {
        self.judge_pass(case, output, worker)
            .map(|(judgement, _)| judgement)
    }

    /// Judges `output` as [`PackageJudge::judge`] does, with the input of a multi-pass
    /// problem's next pass when the package's validator left one.
    pub(crate) fn judge_pass(
        &self,
        case: CaseFiles<'_>,
        output: &[u8],
        worker: Option<&mut Validator<'_>>,
    ) -> Result<(Judgement, Option<Vec<u8>>), Fault> {
        match (&self.how, worker) {
            (How::Default(flags), _) => {
                let flags = flags.get(&case.key()).ok_or_else(|| unknown(case.name))?;
                Ok((
                    default_validator::judge(case.answer_text, output, flags),
                    None,
                ))
            }
            (How::Custom(..), Some(worker)) => {
                let flags = self
                    .flags
                    .get(&case.key())
                    .ok_or_else(|| unknown(case.name))?;
                worker.judge_pass(case.name, (case.input, case.answer), flags, output)
            }
            (How::Custom(..), None) => Err(Fault::internal(
                "no worker for the output validator".to_owned(),
            )),
            (How::Interactive(..), _) => Err(Fault::internal(format!(
                "{}: an interactive problem's case is judged by its interaction, not its output",
                case.name
            ))),
        }
    }
}

/// Each case's flags: a folder's `output_validator_flags` add to the problem's
/// `validator_flags`.
fn flags_of(config: &Config, cases: &[TestCase]) -> BTreeMap<Option<String>, Vec<String>> {
    cases
        .iter()
        .map(|test| {
            (
                Some(test.case.name.clone()),
                [config.validator_flags.as_slice(), test.flags.as_slice()].concat(),
            )
        })
        .chain([(None, config.validator_flags.clone())])
        .collect()
}

fn unknown(case: &str) -> Fault {
    Fault::internal(format!("{case}: not a case of the package"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judge(flags: &[(Option<&str>, &[&str])]) -> PackageJudge {
        PackageJudge {
            how: How::Default(BTreeMap::new()),
            flags: flags
                .iter()
                .map(|(case, flags)| {
                    (
                        case.map(str::to_owned),
                        flags.iter().map(|f| (*f).to_owned()).collect(),
                    )
                })
                .collect(),
            passes: None,
        }
    }

    #[test]
    fn the_journal_key_of_a_judge_is_a_fixed_framing_of_its_flags() {
        let key = judge(&[
            (Some("secret/01"), &["float_tolerance", "1e-6"]),
            (None, &[]),
        ])
        .hash()
        .unwrap();
        // Pinned, by `keys`' framing made outside Rust: with p(b) = its length as eight
        // little-endian bytes then b, and q(n) = p of n's eight bytes, SHA-256 of p("judge")
        // p("default") q(2) p("generated") q(0) p("case") p("secret/01") q(2)
        // p("float_tolerance") p("1e-6"). A journal written by this grader is read by the
        // next one, whatever compiler builds it; a change here is a new journal version.
        assert_eq!(
            key,
            "ea0812d1e25bdacd5c7683b74458342405ad06024e5e3cf7f6c9e114e91b84ad"
        );
        // Flags moved between cases, or split differently, are another judge.
        let keys = [
            judge(&[(Some("a"), &["case", "b"])]),
            judge(&[(Some("a"), &[]), (Some("b"), &[])]),
            judge(&[(Some("a"), &["case"]), (Some("b"), &[])]),
            judge(&[(Some("ab"), &[])]),
            judge(&[(None, &["a"])]),
        ]
        .map(|j| j.hash().unwrap());
        let distinct: std::collections::BTreeSet<_> = keys.iter().collect();
        assert_eq!(distinct.len(), keys.len(), "{keys:?}");
    }
}
