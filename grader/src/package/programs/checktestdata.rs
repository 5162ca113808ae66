//! A package's checktestdata scripts (`input_validators/NAME.ctd`): input validators
//! written in DOMjudge's checktestdata language, run by PyPI's `checktestdata` (its
//! `pyctd` command, which problemtools also uses) as `pyctd SCRIPT < INPUT`, in the box
//! like any validator; an answer validator (`answer_validators/NAME.ctd`, BAPCtools') as
//! `pyctd SCRIPT < ANSWER`. Its exit statuses are the reference implementation's, not the
//! format's 42 and 43: 0 the input is valid, 1 it is not, anything else (2: the script
//! does not parse, or fails as it runs) the script's own fault.

use std::path::Path;
use std::sync::OnceLock;

use sandbox::Outcome;

use crate::cli::exit::{Cause, Fault};
use crate::package::programs::building::build;
use crate::submission::languages::{Language, Languages};
use crate::submission::{Options, Program};

/// The extension of a checktestdata script.
const EXTENSION: &str = "ctd";

/// How a script runs, as an entry of the language table: `pyctd` is found as an
/// interpreter is (past a pyenv shim, its installation shown read-only to the box), and
/// reads the input on its standard input when given no file.
const ENTRY: &str = r#"
extensions = ["ctd"]
run = ["pyctd", "{src}"]
version = ["pyctd", "--version"]
"#;

/// How to get `pyctd` when it is missing.
const INSTALL: &str = "install PyPI's `checktestdata` (pip install checktestdata)";

/// What the run of a script said of an input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Said {
    /// Exit 0: the input is valid.
    Valid,
    /// Exit 1: it is not.
    Invalid,
}

/// What an exit status of `pyctd` (the reference's, `checktestdata.cc`: 0, 1, and 2 for
/// a failure) says; `None` for a failure of the script, never a judgement of the input.
pub(crate) fn said(code: i32) -> Option<Said> {
    match code {
        0 => Some(Said::Valid),
        1 => Some(Said::Invalid),
        _ => None,
    }
}

/// `outcome`, a run of a script, in the format's words (exit 42 valid, 43 invalid), so
/// that one rule judges every validator; the fault of a script that failed (`shown`, on
/// the case `case`: a status that is neither 0 nor 1), never an invalid file. A run over
/// its limits or killed is left as it is.
pub(crate) fn in_format_words(outcome: &mut Outcome, shown: &str, case: &str) -> Result<(), Fault> {
    let Some(code) = outcome.code.filter(|_| outcome.killed.is_none()) else {
        return Ok(());
    };
    outcome.code = Some(match said(code) {
        Some(Said::Valid) => 42,
        Some(Said::Invalid) => 43,
        None => {
            let stderr = outcome.stderr.trim_ascii();
            let saying = if stderr.is_empty() {
                String::new()
            } else {
                let lines: Vec<&[u8]> = stderr.split(|&b| b == b'\n').take(2).collect();
                format!(
                    ", saying `{}`",
                    reference::visible::escape(&lines.join(&b' '))
                )
            };
            return Err(Fault::input(format!(
                "{shown}: the checktestdata script failed on {case} (exit status {code}, not 0 \
                 for valid nor 1 for invalid{saying}): the package's fault, not the data's"
            )));
        }
    });
    Ok(())
}

/// Whether `path` is a checktestdata script: a `.ctd` file, or a folder of one (the
/// format's programs may be folders).
pub(crate) fn is_script(path: &Path) -> bool {
    let script = |file: &Path| file.is_file() && file.extension().is_some_and(|x| x == EXTENSION);
    if path.is_dir() {
        // A folder of one file, that script (hidden files aside, as a build leaves them).
        let files: Vec<_> = std::fs::read_dir(path)
            .into_iter()
            .flatten()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                !p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with('.'))
            })
            .collect();
        return matches!(files.as_slice(), [file] if script(file));
    }
    script(path)
}

/// The script `path` made a program that runs it (`Err` inside: what refused it); a fault
/// when `pyctd` is not installed, saying what to install.
pub(crate) fn built(path: &Path, options: &Options<'_>) -> Result<Result<Program, String>, Fault> {
    static TABLE: OnceLock<Languages> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let entry: Language = toml::from_str(ENTRY).expect("the checktestdata entry parses");
        Languages::only("checktestdata", entry)
    });
    let options = Options {
        languages: table,
        language: None,
        ..options.clone()
    };
    build(path, &options).map_err(|fault| {
        if fault.cause() == Cause::Setup && fault.message().contains("not found") {
            Fault::setup(format!(
                "{}: checktestdata's `pyctd` is not installed: {INSTALL}",
                path.display()
            ))
        } else {
            fault
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reference_statuses_say_valid_invalid_or_nothing() {
        assert_eq!(said(0), Some(Said::Valid));
        assert_eq!(said(1), Some(Said::Invalid));
        // A script that does not parse, or fails as it runs: the package's fault.
        assert_eq!(said(2), None);
        assert_eq!(said(42), None);
        assert_eq!(said(43), None);
    }

    #[test]
    fn the_entry_runs_the_script_by_pyctd() {
        let entry: Language = toml::from_str(ENTRY).unwrap();
        assert_eq!(entry.run, ["pyctd", "{src}"]);
        assert!(entry.compile.is_none());
    }
}
