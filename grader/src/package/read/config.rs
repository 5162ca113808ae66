//! `problem.yaml`: what a package says of its problem and how it is judged. Both versions
//! of the format are read: the legacy one (`time_multiplier`, `validation: custom`,
//! `validator_flags`) and 2023-07 (`type`, `limits.time_multipliers`, `limits.time_limit`).
//! Keys the grader has no use for are ignored; a key it reads with the wrong type is exit
//! 2 naming the file, line and column.

use std::path::Path;
use std::time::Duration;

use serde::Deserialize;

use crate::files;
use crate::status::Fault;

/// How a package's problem is judged.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Config {
    /// The problem's name (English where there are several), or the folder's name.
    pub(crate) name: String,
    /// Whether submissions are scored by groups (`type: scoring`, `read::scoring`) rather
    /// than passed or failed (a verdict that is the first failing case's).
    pub(crate) scoring: bool,
    /// Whether outputs are judged by the package's own output validator.
    pub(crate) custom_validator: bool,
    /// The flags given to the output validator, the default one or the package's.
    pub(crate) validator_flags: Vec<String>,
    /// The limits.
    pub(crate) limits: PackageLimits,
}

/// The limits of `problem.yaml`, with the format's defaults where it says none.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PackageLimits {
    /// A time limit the package fixes (2023-07's `time_limit`); else it is set from the
    /// accepted submissions.
    pub(crate) time: Option<Duration>,
    /// The time limit is the slowest accepted time times this, rounded up to a second.
    pub(crate) time_multiplier: f64,
    /// Submissions that must time out must still do so at the time limit times this.
    pub(crate) safety_margin: f64,
    /// Memory per run, MiB.
    pub(crate) memory: u64,
    /// Standard output per run, MiB.
    pub(crate) output: u64,
    /// CPU time of one output validator run.
    pub(crate) validation_time: Duration,
    /// Memory of one output validator run, MiB.
    pub(crate) validation_memory: u64,
    /// Output of one output validator run, MiB.
    pub(crate) validation_output: u64,
}

#[derive(Debug, Default, Deserialize)]
struct Raw {
    problem_format_version: Option<String>,
    name: Option<Name>,
    #[serde(rename = "type")]
    kind: Option<Types>,
    validation: Option<String>,
    validator_flags: Option<String>,
    #[serde(default)]
    limits: RawLimits,
}

/// `name`: one string, or one per language (2023-07).
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Name {
    One(String),
    ByLanguage(std::collections::BTreeMap<String, String>),
}

/// `type`: one word, or several (2023-07).
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Types {
    One(String),
    Many(Vec<String>),
}

#[derive(Debug, Default, Deserialize)]
struct RawLimits {
    time_multiplier: Option<f64>,
    time_safety_margin: Option<f64>,
    time_multipliers: Option<Multipliers>,
    time_limit: Option<f64>,
    memory: Option<u64>,
    output: Option<u64>,
    validation_time: Option<f64>,
    validation_memory: Option<u64>,
    validation_output: Option<u64>,
}

#[derive(Debug, Default, Deserialize)]
struct Multipliers {
    ac_to_time_limit: Option<f64>,
    time_limit_to_tle: Option<f64>,
}

/// Reads `PKG/problem.yaml`.
pub(crate) fn load(package: &Path) -> Result<Config, Fault> {
    let path = package.join("problem.yaml");
    let bytes = files::read_capped(&path)?;
    let text = std::str::from_utf8(&bytes)
        .map_err(|e| Fault::Usage(format!("{}: not UTF-8 text: {e}", path.display())))?;
    let folder = package
        .canonicalize()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "problem".to_owned());
    parse(text, &folder).map_err(|e| Fault::Usage(format!("{}:{e}", path.display())))
}

/// The config `text` gives, or why not: `LINE:COL: why` where the parser tells the place,
/// ` why` (no place) for a value that is read but cannot be used.
fn parse(text: &str, folder: &str) -> Result<Config, String> {
    let raw: Raw = if text.trim().is_empty() {
        Raw::default()
    } else {
        serde_yaml_ng::from_str(text).map_err(|e| match e.location() {
            Some(at) => format!("{}:{}: {}", at.line(), at.column(), without_location(&e)),
            None => format!(" {e}"),
        })?
    };
    let modern = raw.problem_format_version.is_some();
    let types = match raw.kind {
        None => Vec::new(),
        Some(Types::One(word)) => vec![word],
        Some(Types::Many(words)) => words,
    };
    let validation = raw.validation.unwrap_or_default();
    let words: Vec<&str> = types
        .iter()
        .map(String::as_str)
        .chain(validation.split_whitespace())
        .collect();
    if words.contains(&"interactive") || words.contains(&"multi-pass") {
        return Err(
            " interactive and multi-pass problems are not supported (docs/packages.md)".to_owned(),
        );
    }
    if words.contains(&"score") {
        return Err(
            " an output validator that scores (`validation: custom score`) is not \
             supported (docs/packages.md)"
                .to_owned(),
        );
    }
    let custom_validator = words.contains(&"custom") || (modern && !validation.is_empty());
    let name = match raw.name {
        Some(Name::One(name)) => name,
        Some(Name::ByLanguage(names)) => names
            .get("en")
            .or_else(|| names.values().next())
            .cloned()
            .unwrap_or_else(|| folder.to_owned()),
        None => folder.to_owned(),
    };
    Ok(Config {
        name,
        scoring: words.contains(&"scoring"),
        custom_validator,
        validator_flags: raw
            .validator_flags
            .unwrap_or_default()
            .split_whitespace()
            .map(str::to_owned)
            .collect(),
        limits: limits(&raw.limits, modern)?,
    })
}

/// The limits, with the defaults of the package's version of the format.
fn limits(raw: &RawLimits, modern: bool) -> Result<PackageLimits, String> {
    let multipliers = raw.time_multipliers.as_ref();
    let (multiplier, margin) = if modern {
        (
            multipliers.and_then(|m| m.ac_to_time_limit).unwrap_or(2.0),
            multipliers.and_then(|m| m.time_limit_to_tle).unwrap_or(1.5),
        )
    } else {
        (
            raw.time_multiplier.unwrap_or(5.0),
            raw.time_safety_margin.unwrap_or(2.0),
        )
    };
    let seconds = |value: Option<f64>, key: &str| -> Result<Option<Duration>, String> {
        value
            .map(|s| {
                Duration::try_from_secs_f64(s)
                    .ok()
                    .filter(|d| !d.is_zero())
                    .ok_or_else(|| format!(" limits.{key}: {s} is not a positive duration"))
            })
            .transpose()
    };
    for (key, value) in [
        ("time_multiplier", multiplier),
        ("time_safety_margin", margin),
    ] {
        if !(value.is_finite() && value >= 1.0) {
            return Err(format!(" limits.{key}: {value} is below 1"));
        }
    }
    Ok(PackageLimits {
        time: seconds(raw.time_limit, "time_limit")?,
        time_multiplier: multiplier,
        safety_margin: margin,
        memory: raw.memory.unwrap_or(1024),
        output: raw.output.unwrap_or(8),
        validation_time: seconds(raw.validation_time, "validation_time")?
            .unwrap_or(Duration::from_mins(1)),
        validation_memory: raw.validation_memory.unwrap_or(1024),
        validation_output: raw.validation_output.unwrap_or(8),
    })
}

/// The parser's message without the ` at line L column C` it ends with (the location
/// leads the line instead, as in every `FILE:LINE:COL: message` of the grader).
fn without_location(error: &serde_yaml_ng::Error) -> String {
    let text = error.to_string();
    match text.rfind(" at line ") {
        Some(at) => text[..at].to_owned(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legacy_and_modern_keys_are_read_with_their_versions_defaults() {
        let legacy = parse(
            "name: Hello\nvalidation: custom\nvalidator_flags: float_tolerance 1e-6\nlimits:\n  memory: 512\n  time_safety_margin: 4\n",
            "hello",
        )
        .unwrap();
        assert_eq!(legacy.name, "Hello");
        assert!(legacy.custom_validator && !legacy.scoring);
        assert_eq!(legacy.validator_flags, ["float_tolerance", "1e-6"]);
        assert_eq!(legacy.limits.memory, 512);
        assert_eq!(
            (legacy.limits.time_multiplier, legacy.limits.safety_margin),
            (5.0, 4.0)
        );
        let modern = parse(
            "problem_format_version: 2023-07-draft\ntype: scoring\nname:\n  en: Odd Echo\n  sv: Udda eko\nlimits:\n  time_limit: 2.5\n",
            "oddecho",
        )
        .unwrap();
        assert_eq!(modern.name, "Odd Echo");
        assert!(modern.scoring && !modern.custom_validator);
        assert_eq!(modern.limits.time, Some(Duration::from_millis(2500)));
        assert_eq!(
            (modern.limits.time_multiplier, modern.limits.safety_margin),
            (2.0, 1.5)
        );
        let empty = parse("", "plain").unwrap();
        assert_eq!((empty.name.as_str(), empty.limits.memory), ("plain", 1024));
    }

    #[test]
    fn faults_are_located_and_interactive_problems_refused() {
        let said = parse("name: x\nlimits:\n  memory: lots\n", "x").unwrap_err();
        assert!(
            said.starts_with("3:11: limits.memory: invalid type"),
            "{said}"
        );
        let said = parse("name: [unclosed\n", "x").unwrap_err();
        assert!(said.starts_with("2:1: "), "{said}");
        let said = parse("type: interactive\n", "guess").unwrap_err();
        assert!(said.contains("interactive and multi-pass problems are not supported"));
        let said = parse("validation: custom interactive\n", "guess").unwrap_err();
        assert!(said.contains("not supported"), "{said}");
        let said = parse("validation: custom score\n", "scored").unwrap_err();
        assert!(
            said.contains("`validation: custom score`) is not supported"),
            "{said}"
        );
        assert!(parse("limits:\n  time_multiplier: 0.5\n", "x").is_err());
    }
}
