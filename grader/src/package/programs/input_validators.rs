//! A package's input validators (`input_validators/`: each file, and each folder, is one
//! validator), run in the box on every input with its folder's
//! `input_validator_flags`: exit 42 is a valid input, 43 an invalid one, anything else the
//! validator's own fault. A checktestdata script (`.ctd`) is one too, run by `pyctd`
//! (`checktestdata`) with its own statuses.

use std::path::{Path, PathBuf};

use sandbox::{Input, Limits};

use crate::cli::exit::Fault;
use crate::package::programs::checktestdata;
use crate::package::programs::in_box::{Call, PackageProgram};
use crate::paths::folders::visible_entries;
use crate::submission::Program;

/// One validator of a package: its name (`input_validators/NAME`) and its source (a
/// file, or a folder of one program).
pub(crate) type Found = (String, PathBuf);

/// The input validators of `package`, in name order (none when it has no such folder).
pub(crate) fn find(package: &Path) -> Result<Vec<Found>, Fault> {
    find_in(package, "input_validators")
}

/// The programs of the folder `folder` of `package` (`input_validators`,
/// `answer_validators`), in name order (none when it has no such folder).
pub(crate) fn find_in(package: &Path, folder: &str) -> Result<Vec<Found>, Fault> {
    let dir = package.join(folder);
    if !crate::paths::files::folder_if_any(&dir)? {
        return Ok(Vec::new());
    }
    let mut found = Vec::new();
    for path in visible_entries(&dir)? {
        let name = format!(
            "{folder}/{}",
            path.file_name().unwrap_or_default().to_string_lossy()
        );
        // A folder is one program, read by `sources` when it is built.
        found.push((name, path));
    }
    Ok(found)
}

/// How a validator says what it found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Protocol {
    /// The format's: exit 42 valid, 43 invalid, given the flags of the input's folder.
    Format,
    /// A checktestdata script's (`checktestdata.rs`): exit 0 valid, 1 invalid. It takes
    /// no flags (the reference has no way to read them).
    Checktestdata,
}

/// An input validator with a worker to run it.
pub(crate) struct InputValidator<'p>(PackageProgram<'p>, Protocol);

impl<'p> InputValidator<'p> {
    /// A worker for `program` (named `shown`, saying by `protocol`) under `limits`.
    pub(crate) fn start(
        (program, protocol): (&'p Program, Protocol),
        shown: &str,
        limits: Limits,
    ) -> Result<Self, Fault> {
        PackageProgram::start(program, shown, limits).map(|p| InputValidator(p, protocol))
    }

    /// Checks the input of the case `case`: `None` when valid, else why not (what the
    /// validator said, when it said anything).
    pub(crate) fn check(
        &mut self,
        case: &str,
        input: &Path,
        flags: &[String],
    ) -> Result<Option<String>, Fault> {
        let protocol = self.1;
        let (mut outcome, _) = self.0.run(Call {
            files: &[],
            args: |_: &Path, _: &Path| match protocol {
                Protocol::Format => flags.to_vec(),
                Protocol::Checktestdata => Vec::new(),
            },
            stdin: Input::File(input.to_path_buf()),
            keep: &[],
        })?;
        said(&self.0, (protocol, "input validator"), &mut outcome, case)
    }
}

/// What a data validator's run (`program`'s, saying by `protocol`, in the `role` messages
/// name) on the file of the case `case` says: `None` valid, else why not; `Err` when it
/// failed, the package's fault.
pub(crate) fn said(
    program: &PackageProgram<'_>,
    (protocol, role): (Protocol, &str),
    outcome: &mut sandbox::Outcome,
    case: &str,
) -> Result<Option<String>, Fault> {
    if protocol == Protocol::Checktestdata {
        checktestdata::in_format_words(outcome, &program.shown, case)?;
    }
    if let Some(fault) = program.fault(outcome, case, role) {
        return Err(fault);
    }
    if outcome.code == Some(42) {
        return Ok(None);
    }
    Ok(Some(refusal(outcome, &program.shown)))
}

/// What a validator that refused a file said: `rejected by VALIDATOR: its first line`
/// (of its standard error, else its output), or without a reason when it said nothing.
fn refusal(outcome: &sandbox::Outcome, shown: &str) -> String {
    let said = [&outcome.stderr, &outcome.stdout]
        .into_iter()
        .map(|b| String::from_utf8_lossy(b.trim_ascii()).into_owned())
        .find(|s| !s.is_empty())
        .map_or_else(String::new, |s| {
            format!(
                ": {}",
                reference::visible::escape(s.lines().next().unwrap_or("").as_bytes())
            )
        });
    format!("rejected by {shown}{said}")
}
