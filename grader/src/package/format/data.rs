//! A package's test data: every `data/**/*.in` with its `.ans`, in name order, grouped by
//! folder (`sample`, `secret`, `secret/group1`), and the validator flags each folder's
//! `testdata.yaml` gives (`output_validator_flags`, `input_validator_flags`: the nearest
//! file's).

use std::fs;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::cases::find::{self, Case};
use crate::cli::exit::Fault;
use crate::package::format::scoring::{RawRules, Rules};
use crate::paths::files;

/// One test case of a package.
#[derive(Debug, Clone)]
pub(crate) struct TestCase {
    /// Where it is (its name is its path below `data/`, `secret/group1/03`).
    pub(crate) case: Case,
    /// Its answer file.
    pub(crate) answer: PathBuf,
    /// The output validator flags its folder's `testdata.yaml` adds.
    pub(crate) flags: Vec<String>,
    /// The input validator flags its folder's `testdata.yaml` gives.
    pub(crate) input_flags: Vec<String>,
}

#[derive(Debug, Default, Deserialize)]
struct TestData {
    output_validator_flags: Option<String>,
    input_validator_flags: Option<String>,
    #[serde(flatten)]
    scoring: RawRules,
}

/// Every case below `PKG/data`: at least one, each with its `.ans`.
pub(crate) fn load(package: &Path) -> Result<Vec<TestCase>, Fault> {
    let data = package.join("data");
    let cases = find::discover(&data)?;
    if cases.is_empty() {
        return Err(Fault::input(format!(
            "{}: no test data (`*.in` files) below it",
            data.display()
        )));
    }
    cases
        .into_iter()
        .map(|case| {
            let answer = case.input.with_extension("ans");
            if !answer.is_file() {
                return Err(Fault::input(format!(
                    "{}: no answer file (`{}`) beside it",
                    case.input.display(),
                    answer.display()
                )));
            }
            let read = testdata_for(&data, case.input.parent().unwrap_or(&data))?;
            Ok(TestCase {
                case,
                answer,
                flags: words(read.output_validator_flags),
                input_flags: words(read.input_validator_flags),
            })
        })
        .collect()
}

/// The scoring rules of the group `group` (a folder below `PKG/data`, `""` for `data/`
/// itself): its nearest `testdata.yaml`'s.
pub(crate) fn rules_for(package: &Path, group: &str) -> Result<Rules, Fault> {
    let data = package.join("data");
    let (read, file) = nearest(&data, &data.join(group))?;
    read.scoring.rules().map_err(|why| {
        let file = file.unwrap_or_else(|| data.join("testdata.yaml"));
        Fault::input(format!("{}: {why}", file.display()))
    })
}

/// The `testdata.yaml` nearest to `folder` (up to `data`), read.
fn testdata_for(data: &Path, folder: &Path) -> Result<TestData, Fault> {
    nearest(data, folder).map(|(read, _)| read)
}

/// The `testdata.yaml` nearest to `folder` (up to `data`), read, and where it is (none:
/// the defaults).
fn nearest(data: &Path, folder: &Path) -> Result<(TestData, Option<PathBuf>), Fault> {
    for dir in folder.ancestors() {
        let file = dir.join("testdata.yaml");
        // Anything of that name counts, not only a file: a broken link or a link to a
        // device skipped as absent would drop its flags (a float tolerance) unsaid, and
        // right answers would be judged wrong.
        if fs::symlink_metadata(&file).is_ok() {
            let bytes = files::read_file_of_data(&file)?;
            let text = String::from_utf8_lossy(&bytes);
            if text.trim().is_empty() {
                return Ok((TestData::default(), Some(file)));
            }
            let read = serde_yaml_ng::from_str(&text).map_err(|e| {
                let at = e.location().map_or((1, 1), |l| (l.line(), l.column()));
                Fault::input(format!("{}:{}:{}: {e}", file.display(), at.0, at.1))
            })?;
            return Ok((read, Some(file)));
        }
        if dir == data {
            break;
        }
    }
    Ok((TestData::default(), None))
}

/// The words of a flags string.
fn words(flags: Option<String>) -> Vec<String> {
    flags
        .unwrap_or_default()
        .split_whitespace()
        .map(str::to_owned)
        .collect()
}
