//! A package's test data: every `data/**/*.in` with its `.ans`, in name order, grouped by
//! folder (`sample`, `secret`, `secret/group1`), and the validator flags each folder's
//! nearest configuration gives: the legacy `testdata.yaml`'s strings
//! (`output_validator_flags`, `input_validator_flags`), or 2023-07's lists
//! (`output_validator_args`, `input_validator_args`, one list or one per validator, and
//! BAPCtools' `answer_validator_args`), in a `testdata.yaml` or 2023-07's later name for
//! it, `test_group.yaml`. Keys of 2023-07 that change a judgement and are not read (its
//! scoring keys, a submission's `args`, a case's own `.yaml`) are warned of.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::cases::find::{self, Case};
use crate::cli::exit::Fault;
use crate::package::format::constants::Constants;
use crate::package::format::scoring::{RawRules, Rules};
use crate::paths::files;

/// One test case of a package.
#[derive(Debug, Clone)]
pub(crate) struct TestCase {
    /// Where it is (its name is its path below `data/`, `secret/group1/03`).
    pub(crate) case: Case,
    /// Its answer file.
    pub(crate) answer: PathBuf,
    /// The output validator flags its folder's configuration adds.
    pub(crate) flags: Vec<String>,
    /// The input validator flags its folder's configuration gives every input validator.
    pub(crate) input_flags: Vec<String>,
    /// The input validator flags given to one validator by name (2023-07's map form of
    /// `input_validator_args`); a validator not named gets none.
    pub(crate) input_flags_by: Option<BTreeMap<String, Vec<String>>>,
    /// The answer validator flags (BAPCtools' `answer_validator_args`).
    pub(crate) answer_flags: Vec<String>,
}

impl TestCase {
    /// The flags the input validator `validator` (`input_validators/NAME`) is given.
    pub(crate) fn input_flags_for(&self, validator: &str) -> &[String] {
        let Some(by) = &self.input_flags_by else {
            return &self.input_flags;
        };
        // A program's name is its file's or folder's; a file's also without extension.
        let name = validator.rsplit('/').next().unwrap_or(validator);
        let stem = Path::new(name)
            .file_stem()
            .map_or(name.to_owned(), |s| s.to_string_lossy().into_owned());
        by.get(name)
            .or_else(|| by.get(&stem))
            .map_or(&[], Vec::as_slice)
    }
}

#[derive(Debug, Default, Deserialize)]
struct TestData {
    output_validator_flags: Option<String>,
    input_validator_flags: Option<String>,
    output_validator_args: Option<Vec<String>>,
    input_validator_args: Option<InputArgs>,
    answer_validator_args: Option<Vec<String>>,
    /// 2023-07's keys that change a judgement and are not read: warned of. (Its scoring
    /// keys are `score_groups`'s.)
    args: Option<serde_yaml_ng::Value>,
    static_validation_score: Option<serde_yaml_ng::Value>,
    #[serde(flatten)]
    scoring: RawRules,
}

/// 2023-07's `input_validator_args`: one list for every validator, or one per validator.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
enum InputArgs {
    Every(Vec<String>),
    ByName(BTreeMap<String, Vec<String>>),
}

/// The names of a folder's configuration: the legacy one's and 2023-07's later one's.
const CONFIGURATION: [&str; 2] = ["testdata.yaml", "test_group.yaml"];

/// The keys of 2023-07 a configuration may give that the grader does not read, each
/// changing what a submission gets.
const NOT_READ: [&str; 2] = ["args", "static_validation_score"];

/// The folders of `data/` that hold no cases to run but checks of the validators
/// (2023-07): inputs every input validator must not all accept, and outputs for the
/// output validator.
const CHECKS: [&str; 3] = ["invalid_input", "invalid_output", "valid_output"];

/// Whether the case `name` (`secret/1`) is in the folder `folder` of `data/`.
fn in_folder(name: &str, folder: &str) -> bool {
    name.split('/').next() == Some(folder)
}

/// The inputs of 2023-07's `data/invalid_input/`, each with the input validator flags
/// its folder's configuration gives: none of them is a case (their `answer` is where an
/// answer would be, and none is read).
pub(crate) fn invalid_inputs(
    package: &Path,
    constants: &Constants,
) -> Result<Vec<TestCase>, Fault> {
    let data = package.join("data");
    if !data.join(CHECKS[0]).is_dir() {
        return Ok(Vec::new());
    }
    find::discover(&data)?
        .into_iter()
        .filter(|case| in_folder(&case.name, CHECKS[0]))
        .map(|case| with_configuration(&data, case, constants))
        .collect()
}

/// Every case below `PKG/data` (those of `sample`, `secret` and other folders, not the
/// validators' checks of 2023-07: [`CHECKS`]): at least one, each with its `.ans`.
pub(crate) fn load(package: &Path, constants: &Constants) -> Result<Vec<TestCase>, Fault> {
    let data = package.join("data");
    let mut cases = find::discover(&data)?;
    for folder in &CHECKS[1..] {
        if cases.iter().any(|c| in_folder(&c.name, folder)) {
            crate::package::format::config::warn_once(&format!(
                "grader: warning: {}: 2023-07's checks of the output validator are not \
                 run (docs/packages.md)",
                data.join(folder).display()
            ));
        }
    }
    cases.retain(|case| !CHECKS.iter().any(|folder| in_folder(&case.name, folder)));
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
            with_configuration(&data, case, constants)
        })
        .collect()
}

/// `case` of the `data` folder with what its configuration gives (warning of what of it
/// is not read).
fn with_configuration(data: &Path, case: Case, constants: &Constants) -> Result<TestCase, Fault> {
    let answer = case.input.with_extension("ans");
    let (read, file) = nearest(data, case.input.parent().unwrap_or(data), constants)?;
    let own = case.input.with_extension("yaml");
    if own.is_file() {
        crate::package::format::config::warn_once(&format!(
            "grader: warning: {}: a test case's own configuration (2023-07) is not read: its \
             args and validator flags are not given (docs/packages.md)",
            own.display()
        ));
    }
    if let Some(file) = &file {
        for key in read.not_read() {
            crate::package::format::config::warn_once(&format!(
                "grader: warning: {}: `{key}` (2023-07) is not read: the judgement does not \
                 follow it (docs/packages.md)",
                file.display()
            ));
        }
    }
    let (input_flags, input_flags_by) = match read.input_validator_args {
        Some(InputArgs::Every(args)) => (args, None),
        Some(InputArgs::ByName(by)) => (Vec::new(), Some(by)),
        None => (words(read.input_validator_flags), None),
    };
    Ok(TestCase {
        case,
        answer,
        flags: read
            .output_validator_args
            .unwrap_or_else(|| words(read.output_validator_flags)),
        input_flags,
        input_flags_by,
        answer_flags: read.answer_validator_args.unwrap_or_default(),
    })
}

/// The scoring rules of the group `group` (a folder below `PKG/data`, `""` for `data/`
/// itself): its nearest `testdata.yaml`'s.
pub(crate) fn rules_for(
    package: &Path,
    group: &str,
    constants: &Constants,
) -> Result<Rules, Fault> {
    let data = package.join("data");
    let (read, file) = nearest(&data, &data.join(group), constants)?;
    read.scoring.rules().map_err(|why| {
        let file = file.unwrap_or_else(|| data.join("testdata.yaml"));
        Fault::input(format!("{}: {why}", file.display()))
    })
}

impl TestData {
    /// The keys of 2023-07 it gives that the grader does not read.
    fn not_read(&self) -> Vec<&'static str> {
        let given = [self.args.is_some(), self.static_validation_score.is_some()];
        NOT_READ
            .into_iter()
            .zip(given)
            .filter_map(|(key, given)| given.then_some(key))
            .collect()
    }
}

/// The configuration right in the folder `dir`, of either name, if there is one; both
/// is exit 2. Anything of that name counts, not only a file: a broken link or a link to a
/// device skipped as absent would drop its flags (a float tolerance) unsaid, and right
/// answers would be judged wrong.
pub(crate) fn own_configuration(dir: &Path) -> Result<Option<PathBuf>, Fault> {
    let present: Vec<PathBuf> = CONFIGURATION
        .iter()
        .map(|name| dir.join(name))
        .filter(|file| fs::symlink_metadata(file).is_ok())
        .collect();
    if let [first, second] = present.as_slice() {
        return Err(Fault::input(format!(
            "{}: beside {}: a folder's configuration is one file, of either name",
            second.display(),
            first.display()
        )));
    }
    Ok(present.into_iter().next())
}

/// The `testdata.yaml` nearest to `folder` (up to `data`), read, and where it is (none:
/// the defaults).
fn nearest(
    data: &Path,
    folder: &Path,
    constants: &Constants,
) -> Result<(TestData, Option<PathBuf>), Fault> {
    for dir in folder.ancestors() {
        if let Some(file) = own_configuration(dir)? {
            let bytes = files::read_file_of_data(&file)?;
            // The package's constants are replaced in it, as the format says.
            let text = constants.apply_text(&String::from_utf8_lossy(&bytes));
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
