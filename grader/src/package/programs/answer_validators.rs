//! A package's answer validators (`answer_validators/`, BAPCtools' addition to 2023-07:
//! each file, and each folder, is one), run in the box on every answer as
//! `VALIDATOR INPUT [answer_validator_args] < ANSWER`: exit 42 is a valid answer, 43 an
//! invalid one, anything else the validator's own fault. A checktestdata script
//! (`.ctd`) reads the answer alone, with its own statuses (`checktestdata`).

use std::path::Path;

use sandbox::{Input, Limits};

use crate::cli::exit::Fault;
use crate::package::programs::in_box::{Call, PackageProgram};
use crate::package::programs::input_validators::{Found, Protocol, find_in, said};
use crate::submission::Program;

/// The name the case's input is shown to a run by, beside the validator's files.
const INPUT: &str = "testcase.in";

/// The answer validators of `package`, in name order (none when it has no such folder).
pub(crate) fn find(package: &Path) -> Result<Vec<Found>, Fault> {
    find_in(package, "answer_validators")
}

/// An answer validator with a worker to run it.
pub(crate) struct AnswerValidator<'p>(PackageProgram<'p>, Protocol);

impl<'p> AnswerValidator<'p> {
    /// A worker for `program` (named `shown`, saying by `protocol`) under `limits`.
    pub(crate) fn start(
        (program, protocol): (&'p Program, Protocol),
        shown: &str,
        limits: Limits,
    ) -> Result<Self, Fault> {
        PackageProgram::start(program, shown, limits).map(|p| AnswerValidator(p, protocol))
    }

    /// Checks the answer of the case `case` (its `input` and `answer` files): `None` when
    /// valid, else why not.
    pub(crate) fn check(
        &mut self,
        case: &str,
        (input, answer): (&Path, &Path),
        flags: &[String],
    ) -> Result<Option<String>, Fault> {
        let protocol = self.1;
        let (mut outcome, _) = self.0.run(Call {
            files: &[(INPUT, input)],
            // A checktestdata script reads the answer alone, and no flags.
            args: |files: &Path, _: &Path| match protocol {
                Protocol::Format => {
                    let mut args = vec![files.join(INPUT).to_string_lossy().into_owned()];
                    args.extend(flags.iter().cloned());
                    args
                }
                Protocol::Checktestdata => Vec::new(),
            },
            stdin: Input::File(answer.to_path_buf()),
            keep: &[],
        })?;
        said(&self.0, (protocol, "answer validator"), &mut outcome, case)
    }
}
