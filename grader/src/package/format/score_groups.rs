//! The 2025-09 version's scoring (its "Result aggregation"), read from each group's own
//! `test_group.yaml` (or `testdata.yaml`, the name its drafts used): `secret` is worth
//! `max_score` (default 100) and scores by `score_aggregation` (default `sum`) of its
//! cases, or of its test data groups (the folders right in it that hold a configuration),
//! each worth its own `max_score` and scoring by its own aggregation (default
//! `pass-fail`); `require_pass` makes a group score nothing unless the groups it names
//! (`sample`, or groups before it) were accepted; `sample` scores nothing. The rules are
//! those `format::scoring` applies. An earlier draft's `scoring: {score, aggregation}`
//! (the format's own example writes it) is read as `max_score` and `score_aggregation`,
//! and said.
//!
//! It applies to a scoring problem of a `problem_format_version` (not legacy) whose
//! configurations give none of the legacy scoring keys (`accept_score`, `range`,
//! `grader_flags`, ...): a package that gives those is scored by them, as before.
//! Not read: `score.txt` and `score_multiplier.txt` (a case scores its share whatever
//! the output validator leaves) and unbounded scores, which only those files give (exit
//! 2); `static_validation_score`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::config::Config;
use super::constants::Constants;
use super::data::{TestCase, own_configuration};
use super::scoring::{Aggregation, Rules};
use crate::cli::exit::Fault;
use crate::paths::files;

/// The legacy scoring keys: a package that gives one is scored by them.
const LEGACY: [&str; 5] = [
    "accept_score",
    "reject_score",
    "range",
    "on_reject",
    "grader_flags",
];

/// The 2025-09 scoring keys, warned of where they are not read.
const MODERN: [&str; 3] = ["max_score", "score_aggregation", "require_pass"];

/// A group's own configuration's scoring keys.
#[derive(Debug, Default, Deserialize)]
struct Own {
    max_score: Option<serde_yaml_ng::Value>,
    score_aggregation: Option<String>,
    require_pass: Option<Names>,
    /// An earlier draft's form of the first two (`scoring: {score: 30, aggregation:
    /// min}`), which the format's own `scoring` example still writes.
    scoring: Option<Draft>,
}

/// A draft's `scoring` map.
#[derive(Debug, Default, Deserialize)]
struct Draft {
    score: Option<serde_yaml_ng::Value>,
    aggregation: Option<String>,
}

/// `require_pass`: one group's name, or several.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Names {
    One(String),
    Several(Vec<String>),
}

/// A group as 2025-09 scores it.
#[derive(Debug, Clone)]
struct Group {
    max: f64,
    aggregation: Aggregation,
    require: Vec<String>,
}

/// Whether the 2025-09 scoring applies to the scoring problem of `cases`: a package of a
/// `problem_format_version` (`modern`) whose configurations give no legacy scoring key.
/// Where it does not, its keys are not read, and each is warned of at its file.
pub(crate) fn applies(package: &Path, cases: &[TestCase], config: &Config) -> Result<bool, Fault> {
    let found = configurations(package, cases, &config.constants)?;
    let legacy = found
        .iter()
        .any(|(_, keys)| keys.iter().any(|k| LEGACY.contains(&k.as_str())));
    let applies = config.modern && !legacy;
    if !applies {
        warn_unread(&modern_keys(found));
    }
    Ok(applies)
}

/// Warns that each of `given` (a file, a 2025-09 scoring key it gives) is not read.
pub(crate) fn warn_unread(given: &[(PathBuf, String)]) {
    for (file, key) in given {
        super::config::warn_once(&format!(
            "grader: warning: {}: `{key}` (2025-09) is not read: this package is legacy, \
             pass-fail, or scored by the legacy keys (docs/packages.md)",
            file.display()
        ));
    }
}

/// The 2025-09 scoring keys the configurations of `cases`'s folders give, each with its
/// file: for a package it does not score (a pass-fail one), warned of by the caller.
pub(crate) fn given(
    package: &Path,
    cases: &[TestCase],
    constants: &Constants,
) -> Result<Vec<(PathBuf, String)>, Fault> {
    Ok(modern_keys(configurations(package, cases, constants)?))
}

/// The 2025-09 scoring keys of `found` (configurations and their keys), each with its
/// file.
fn modern_keys(found: Vec<(PathBuf, Vec<String>)>) -> Vec<(PathBuf, String)> {
    found
        .into_iter()
        .flat_map(|(file, keys)| {
            keys.into_iter()
                .filter(|k| MODERN.contains(&k.as_str()))
                .map(move |k| (file.clone(), k))
        })
        .collect()
}

/// The rules of every group of `cases` (each folder a case is in and those above it, up
/// to `data/` itself, `""`), as 2025-09 scores them; exit 2 where the package breaks the
/// version's rules in a way that leaves a score undefined.
pub(crate) fn rules(
    package: &Path,
    cases: &[TestCase],
    constants: &Constants,
) -> Result<BTreeMap<String, Rules>, Fault> {
    let data = package.join("data");
    let names: Vec<&str> = cases.iter().map(|t| t.case.name.as_str()).collect();
    let secret = read_group(&data, "secret", Some(100.0), Aggregation::Sum, constants)?;
    // Its test data groups: the folders right in it that have a configuration.
    let mut groups: BTreeMap<String, Group> = BTreeMap::new();
    for name in &names {
        if let Some(rest) = name.strip_prefix("secret/")
            && let Some((folder, _)) = rest.split_once('/')
        {
            let group = format!("secret/{folder}");
            if !groups.contains_key(&group) && own_file(&data, &group)?.is_some() {
                let read = read_group(&data, &group, None, Aggregation::PassFail, constants)?;
                groups.insert(group, read);
            }
        }
    }
    if !groups.is_empty()
        && let Some(loose) = names
            .iter()
            .filter(|n| n.starts_with("secret/"))
            .find(|n| !groups.keys().any(|g| n.starts_with(&format!("{g}/"))))
    {
        return Err(Fault::input(format!(
            "{}: secret/ holds test data groups, and this case outside them: 2025-09 allows \
             one or the other",
            data.join(loose).display()
        )));
    }
    check_requires(&data, "secret", &secret, &groups)?;
    for (name, group) in &groups {
        check_requires(&data, name, group, &groups)?;
    }
    let count = |prefix: &str| names.iter().filter(|n| n.starts_with(prefix)).count();
    let mut rules = BTreeMap::new();
    rules.insert(String::new(), Rules::of_data(secret.max));
    for name in &names {
        let mut folder = *name;
        while let Some((parent, _)) = folder.rsplit_once('/') {
            folder = parent;
            if rules.contains_key(folder) {
                continue;
            }
            let ruled = if folder == "sample" || folder.starts_with("sample/") {
                Rules::of_samples()
            } else if folder == "secret" {
                Rules::of_group(
                    secret.max,
                    secret.aggregation,
                    count("secret/"),
                    secret.require.clone(),
                )
            } else if let Some((group, read)) = groups
                .iter()
                .find(|(g, _)| folder == g.as_str() || folder.starts_with(&format!("{g}/")))
            {
                let ruled = Rules::of_group(
                    read.max,
                    read.aggregation,
                    count(&format!("{group}/")),
                    read.require.clone(),
                );
                // A folder inside a group is no group: its cases are the group's.
                if folder == group {
                    ruled
                } else {
                    ruled.inside()
                }
            } else if folder.starts_with("secret/") {
                Rules::of_group(secret.max, secret.aggregation, count("secret/"), Vec::new())
                    .inside()
            } else {
                return Err(Fault::input(format!(
                    "{}: a case outside sample/ and secret/: 2025-09 scores none there",
                    data.join(name).display()
                )));
            };
            rules.insert(folder.to_owned(), ruled);
        }
    }
    Ok(rules)
}

/// The group `name`'s own scoring keys, with `max` (`None`: it must say) and `aggregation`
/// its defaults.
fn read_group(
    data: &Path,
    name: &str,
    max: Option<f64>,
    aggregation: Aggregation,
    constants: &Constants,
) -> Result<Group, Fault> {
    let file = own_file(data, name)?;
    let own: Own = match &file {
        Some(file) => parse(file, constants)?,
        None => Own::default(),
    };
    let at = file
        .clone()
        .unwrap_or_else(|| data.join(name).join("test_group.yaml"));
    let own = with_draft(own, &at);
    let max = match &own.max_score {
        None => max.ok_or_else(|| {
            Fault::input(format!(
                "{}: no max_score: a test data group must say what it is worth while secret's \
                 is bounded (2025-09)",
                at.display()
            ))
        })?,
        Some(value) => match value.as_u64() {
            #[expect(clippy::cast_precision_loss, reason = "a score the package gives")]
            Some(points) => points as f64,
            None if value.as_str() == Some("unbounded") => {
                return Err(Fault::input(format!(
                    "{}: max_score: unbounded scores come from the output validator's \
                     score.txt, which the grader does not read",
                    at.display()
                )));
            }
            None => {
                return Err(Fault::input(format!(
                    "{}: max_score: `{}` is neither a whole number of points nor unbounded",
                    at.display(),
                    serde_yaml_ng::to_string(value).unwrap_or_default().trim()
                )));
            }
        },
    };
    let aggregation = match own.score_aggregation.as_deref() {
        None => aggregation,
        Some("pass-fail") => Aggregation::PassFail,
        Some("sum") => Aggregation::Sum,
        Some("min") => Aggregation::Min,
        Some(other) => {
            return Err(Fault::input(format!(
                "{}: score_aggregation: `{other}` is not one of pass-fail, sum, min",
                at.display()
            )));
        }
    };
    let require = match own.require_pass {
        None => Vec::new(),
        Some(Names::One(name)) => vec![name],
        Some(Names::Several(names)) => names,
    };
    Ok(Group {
        max,
        aggregation,
        require,
    })
}

/// `own` with a draft's `scoring: {score, aggregation}` read as `max_score` and
/// `score_aggregation` where those are not given, and said once (`at`: its file).
fn with_draft(mut own: Own, at: &Path) -> Own {
    let Some(draft) = own.scoring.take() else {
        return own;
    };
    if draft.score.is_some() || draft.aggregation.is_some() {
        super::config::warn_once(&format!(
            "grader: warning: {}: `scoring: {{score, aggregation}}` is read as max_score and \
             score_aggregation, which is how 2025-09 writes them (this is an earlier draft's \
             form)",
            at.display()
        ));
    }
    own.max_score = own.max_score.or(draft.score);
    own.score_aggregation = own.score_aggregation.or(draft.aggregation);
    own
}

/// Checks what the group `name` requires: `sample`, or a group before it that scores by
/// `pass-fail` (`secret` only `sample`), as the version asks.
fn check_requires(
    data: &Path,
    name: &str,
    group: &Group,
    groups: &BTreeMap<String, Group>,
) -> Result<(), Fault> {
    for required in &group.require {
        let fine = required == "sample"
            || (name != "secret"
                && required.as_str() < name
                && groups
                    .get(required)
                    .is_some_and(|g| g.aggregation == Aggregation::PassFail));
        if !fine {
            let file = own_file(data, name)?.unwrap_or_else(|| data.join(name));
            return Err(Fault::input(format!(
                "{}: require_pass: `{required}` is neither sample nor a pass-fail group \
                 before {name}",
                file.display()
            )));
        }
    }
    Ok(())
}

/// The configuration file right in the folder `name` of `data`, if there is one.
fn own_file(data: &Path, name: &str) -> Result<Option<PathBuf>, Fault> {
    own_configuration(&data.join(name))
}

/// The scoring keys of the configuration `file`.
fn parse(file: &Path, constants: &Constants) -> Result<Own, Fault> {
    let bytes = files::read_file_of_data(file)?;
    let text = constants.apply_text(&String::from_utf8_lossy(&bytes));
    if text.trim().is_empty() {
        return Ok(Own::default());
    }
    serde_yaml_ng::from_str(&text).map_err(|e| {
        let at = e.location().map_or((1, 1), |l| (l.line(), l.column()));
        Fault::input(format!("{}:{}:{}: {e}", file.display(), at.0, at.1))
    })
}

/// Every configuration of the folders of `cases` (each folder a case is in and those
/// above it, `data/` too), with the keys it gives.
fn configurations(
    package: &Path,
    cases: &[TestCase],
    constants: &Constants,
) -> Result<Vec<(PathBuf, Vec<String>)>, Fault> {
    let data = package.join("data");
    let mut folders = BTreeSet::from([String::new()]);
    for test in cases {
        let mut folder = test.case.name.as_str();
        while let Some((parent, _)) = folder.rsplit_once('/') {
            folders.insert(parent.to_owned());
            folder = parent;
        }
    }
    let mut found = Vec::new();
    for folder in folders {
        if let Some(file) = own_file(&data, &folder)? {
            let bytes = files::read_file_of_data(&file)?;
            let text = constants.apply_text(&String::from_utf8_lossy(&bytes));
            let tree: serde_yaml_ng::Value = serde_yaml_ng::from_str(&text).unwrap_or_default();
            let keys = tree
                .as_mapping()
                .map(|map| {
                    map.keys()
                        .filter_map(|k| k.as_str().map(str::to_owned))
                        .collect()
                })
                .unwrap_or_default();
            found.push((file, keys));
        }
    }
    Ok(found)
}
