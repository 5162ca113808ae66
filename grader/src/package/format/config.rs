//! `problem.yaml`: what a package says of its problem and how it is judged. Both versions
//! of the format are read: the legacy one (`time_multiplier`, `validation: custom`,
//! `validator_flags`) and 2023-07 (`type`, `limits.time_multipliers`, `limits.time_limit`).
//! Every key the grader reads is checked against the values the format allows (a type,
//! a word of a list, a positive number): a wrong one is exit 2 naming the file, line and
//! column, never a default in its place (`validation: costum` taken for `default` would
//! drop the package's own validator, and right answers would be judged wrong). Other keys
//! of the format are ignored; a key no version of the format has is warned of (tools and
//! later versions add keys), or, when it is a near miss of a key the grader reads
//! (`validaton`), exit 2 asking whether that key was meant.

use std::path::Path;
use std::time::Duration;

use serde::Deserialize;

use super::constants::Constants;
use crate::cli::exit::Fault;
use crate::paths::files;
use sandbox::Locked as _;

/// How a package's problem is judged.
#[derive(Debug, Clone, PartialEq)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "each is a word of the format's `type` list or `validation`, which a package combines freely"
)]
pub(crate) struct Config {
    /// The problem's name (English where there are several), or the folder's name.
    pub(crate) name: String,
    /// Whether submissions are scored by groups (`type: scoring`, `format::scoring`) rather
    /// than passed or failed (a verdict that is the first failing case's).
    pub(crate) scoring: bool,
    /// Whether outputs are judged by the package's own output validator.
    pub(crate) custom_validator: bool,
    /// Whether the problem is interactive (`type: interactive`, `validation: custom
    /// interactive`): the output validator is the interactor, run beside the submission
    /// (`package::programs::interaction`).
    pub(crate) interactive: bool,
    /// Whether the problem is multi-pass (2023-07's `type: multi-pass`): the output
    /// validator (or interactor) may accept a pass and ask for another, whose input it
    /// leaves (`package::programs::passes`).
    pub(crate) multi_pass: bool,
    /// The flags given to the output validator, the default one or the package's.
    pub(crate) validator_flags: Vec<String>,
    /// The limits.
    pub(crate) limits: PackageLimits,
    /// Whether it gives a `problem_format_version` other than `legacy` (2023-07 and its
    /// successor 2025-09): a scoring problem may then be scored by 2025-09's keys
    /// (`format::score_groups`).
    pub(crate) modern: bool,
    /// Its `constants`, replaced in its programs and `test_group.yaml` files.
    pub(crate) constants: Constants,
}

/// The limits of `problem.yaml`, with the format's defaults where it says none.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PackageLimits {
    /// A time limit the package fixes (2023-07's `time_limit`, else DOMjudge's
    /// `.timelimit`); else it is set from the accepted submissions.
    pub(crate) time: Option<Duration>,
    /// The file that fixes `time`: `problem.yaml` or `.timelimit`.
    pub(crate) time_from: &'static str,
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
    /// The most passes of a multi-pass problem (2023-07's `validation_passes`, default 2).
    pub(crate) validation_passes: u32,
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

/// The keys of `problem.yaml` in either version of the format (legacy, 2023-07): any other
/// is warned of, or refused when it is a near miss of one the grader reads ([`READ`]).
const KNOWN: [&str; 22] = [
    "problem_format_version",
    "type",
    "name",
    "uuid",
    "version",
    "author",
    "credits",
    "source",
    "source_url",
    "license",
    "rights_owner",
    "embargo_until",
    "limits",
    "validation",
    "validator_flags",
    "grading",
    "scoring",
    "keywords",
    "languages",
    "allow_file_writing",
    "constants",
    "show_test_data_groups",
];

/// The top-level keys the grader reads: a misspelling of one changes how it judges.
const READ: [&str; 6] = [
    "problem_format_version",
    "type",
    "name",
    "limits",
    "validation",
    "validator_flags",
];

/// The keys of `limits` both versions have.
const LIMITS: [&str; 9] = [
    "time_limit",
    "memory",
    "output",
    "code",
    "compilation_time",
    "compilation_memory",
    "validation_time",
    "validation_memory",
    "validation_output",
];
/// The keys of `limits` only the legacy version has.
const LIMITS_LEGACY: [&str; 2] = ["time_multiplier", "time_safety_margin"];
/// The keys of `limits` only 2023-07 has.
const LIMITS_MODERN: [&str; 3] = ["time_multipliers", "time_resolution", "validation_passes"];

/// Why `problem_format_version: text` is not one the format has (`legacy`, `draft`, or a
/// version `YYYY-MM` with `-draft` or not).
fn bad_version(text: &str) -> Option<String> {
    let dated = |v: &str| {
        let b = v.as_bytes();
        b.len() == 7
            && b.iter().enumerate().all(|(i, c)| {
                if i == 4 {
                    *c == b'-'
                } else {
                    c.is_ascii_digit()
                }
            })
    };
    let ok = text == "legacy"
        || text == "draft"
        || dated(text)
        || text.strip_suffix("-draft").is_some_and(dated);
    (!ok).then(|| {
        format!(
            "`{text}` is not a version of the format: expected `legacy`, `draft` or one such \
             as `2023-07-draft`"
        )
    })
}

/// The words `type` may have (a string, or a list in 2023-07).
const TYPES: [&str; 5] = [
    "pass-fail",
    "scoring",
    "interactive",
    "multi-pass",
    "submit-answer",
];

/// The types 2023-07 does not allow together.
const INCOMPATIBLE: [(&str, &str); 3] = [
    ("pass-fail", "scoring"),
    ("multi-pass", "submit-answer"),
    ("interactive", "submit-answer"),
];

/// Why `type` of these words is not one the format has: a word of none of its types, one
/// twice, or two it does not allow together.
fn bad_types(words: &[String]) -> Option<String> {
    if let Some(bad) = words.iter().find(|w| !TYPES.contains(&w.as_str())) {
        return Some(format!(
            "`{bad}` is not a type of problem: expected {}",
            TYPES.join(", ")
        ));
    }
    if words.is_empty() {
        return Some("an empty list: expected at least one type".to_owned());
    }
    if let Some(twice) = words
        .iter()
        .enumerate()
        .find(|(i, w)| words[..*i].contains(w))
    {
        return Some(format!("`{}` is listed twice", twice.1));
    }
    let has = |t: &str| words.iter().any(|w| w == t);
    INCOMPATIBLE
        .iter()
        .find(|(a, b)| has(a) && has(b))
        .map(|(a, b)| format!("`{a}` and `{b}` cannot be together"))
}

/// Why `validation: text` is not one the format has: `default`, or `custom` followed by
/// `interactive`, `score` or both.
fn bad_validation(text: &str) -> Option<String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let ok = matches!(
        words.as_slice(),
        ["default" | "custom"]
            | ["custom", "interactive" | "score"]
            | ["custom", "interactive", "score"]
            | ["custom", "score", "interactive"]
    );
    (!ok).then(|| {
        format!(
            "`{text}` is not a way of validation: expected one of default, custom, custom \
             interactive, custom score, custom interactive score"
        )
    })
}

/// Why a limit `value` of `kind` is not one the format allows.
fn bad_limit(value: f64, kind: Limit) -> Option<String> {
    let ok = value.is_finite()
        && match kind {
            Limit::Multiplier | Limit::Mebibytes => value >= 1.0,
            Limit::Seconds => value > 0.0,
        };
    (!ok).then(|| match kind {
        // A limit below the time that sets it would fail the accepted submission that set it.
        Limit::Multiplier => format!("{value} is below 1"),
        Limit::Seconds => format!("{value} is not a number of seconds above 0"),
        Limit::Mebibytes => format!("{value} is not a size: expected MiB above 0"),
    })
}

/// What a limit is a number of.
#[derive(Clone, Copy)]
enum Limit {
    Multiplier,
    Seconds,
    Mebibytes,
}

/// The first value of `raw` the format does not allow: its key's path (`limits.memory`)
/// and why.
fn bad_value(raw: &Raw) -> Option<(String, String)> {
    let key = |k: &str| k.to_owned();
    if let Some(why) = raw.problem_format_version.as_deref().and_then(bad_version) {
        return Some((key("problem_format_version"), why));
    }
    if let Some(why) = raw.kind.as_ref().and_then(|t| bad_types(&t.words())) {
        return Some((key("type"), why));
    }
    if let Some(why) = raw.validation.as_deref().and_then(bad_validation) {
        return Some((key("validation"), why));
    }
    // A multi-pass problem has a first pass and at least one more.
    if let Some(passes) = raw.limits.validation_passes.filter(|&n| n < 2) {
        return Some((
            key("limits.validation_passes"),
            format!("{passes} is below 2: a multi-pass problem has two passes or more"),
        ));
    }
    let l = &raw.limits;
    let m = l.time_multipliers.as_ref();
    #[expect(clippy::cast_precision_loss, reason = "sizes in MiB, far below 2^52")]
    let limits = [
        ("time_multiplier", l.time_multiplier, Limit::Multiplier),
        (
            "time_safety_margin",
            l.time_safety_margin,
            Limit::Multiplier,
        ),
        (
            "ac_to_time_limit",
            m.and_then(|m| m.ac_to_time_limit),
            Limit::Multiplier,
        ),
        (
            "time_limit_to_tle",
            m.and_then(|m| m.time_limit_to_tle),
            Limit::Multiplier,
        ),
        ("time_limit", l.time_limit, Limit::Seconds),
        ("validation_time", l.validation_time, Limit::Seconds),
        ("memory", l.memory.map(|v| v as f64), Limit::Mebibytes),
        ("output", l.output.map(|v| v as f64), Limit::Mebibytes),
        (
            "validation_memory",
            l.validation_memory.map(|v| v as f64),
            Limit::Mebibytes,
        ),
        (
            "validation_output",
            l.validation_output.map(|v| v as f64),
            Limit::Mebibytes,
        ),
    ];
    limits.into_iter().find_map(|(name, value, kind)| {
        let why = bad_limit(value?, kind)?;
        let path = if name.starts_with("ac_") || name.starts_with("time_limit_") {
            format!("limits.time_multipliers.{name}")
        } else {
            format!("limits.{name}")
        };
        Some((path, why))
    })
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

impl Types {
    fn words(&self) -> Vec<String> {
        match self {
            Types::One(word) => vec![word.clone()],
            Types::Many(words) => words.clone(),
        }
    }
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
    validation_passes: Option<u32>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Multipliers {
    ac_to_time_limit: Option<f64>,
    time_limit_to_tle: Option<f64>,
}

/// Reads `PKG/problem.yaml`.
pub(crate) fn load(package: &Path) -> Result<Config, Fault> {
    let path = package.join("problem.yaml");
    let bytes = files::read_file_of_data(&path)?;
    let text = std::str::from_utf8(&bytes)
        .map_err(|e| Fault::input(format!("{}: not UTF-8 text: {e}", path.display())))?;
    let folder = package
        .canonicalize()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "problem".to_owned());
    let (mut config, warnings) =
        parse(text, &folder).map_err(|e| Fault::input(format!("{}:{e}", path.display())))?;
    for warning in warnings {
        warn_once(&format!("grader: warning: {}:{warning}", path.display()));
    }
    let apart = apart(text);
    validator_folders(package, &apart, &mut config)?;
    warn_unread_folders(package);
    if let Some(value) = &apart.constants {
        config.constants = Constants::read(value)
            .map_err(|why| Fault::input(format!("{}: {why}", path.display())))?;
    }
    let dotted = package.join(".timelimit");
    if dotted.symlink_metadata().is_ok() {
        let bytes = files::read_file_of_data(&dotted)?;
        let limit = timelimit(&String::from_utf8_lossy(&bytes))
            .map_err(|e| Fault::input(format!("{}:{e}", dotted.display())))?;
        match config.limits.time {
            // problem.yaml is the format's own file; `.timelimit` is DOMjudge's, read for
            // the packages that have only it. Both, and differing, is said.
            Some(fixed) if fixed != limit => warn_once(&format!(
                "grader: warning: {}: {} s, but problem.yaml's time_limit {} s is the limit",
                dotted.display(),
                limit.as_secs_f64(),
                fixed.as_secs_f64()
            )),
            Some(_) => {}
            None => {
                config.limits.time = Some(limit);
                config.limits.time_from = ".timelimit";
            }
        }
    }
    Ok(config)
}

/// What of `text` is read apart from [`parse`], after it has checked the file.
struct Apart {
    /// Whether it is a 2023-07 package (a `problem_format_version` other than `legacy`).
    modern: bool,
    /// Its `limits.time_resolution`.
    resolution: Option<f64>,
    /// Its `constants`, as written.
    constants: Option<serde_yaml_ng::Value>,
}

/// What of `text` is read apart from [`parse`].
fn apart(text: &str) -> Apart {
    let tree: serde_yaml_ng::Value = serde_yaml_ng::from_str(text).unwrap_or_default();
    Apart {
        modern: tree
            .get("problem_format_version")
            .and_then(|v| v.as_str())
            .is_some_and(|v| v != "legacy"),
        resolution: tree
            .get("limits")
            .and_then(|l| l.get("time_resolution"))
            .and_then(serde_yaml_ng::Value::as_f64),
        constants: tree.get("constants").cloned(),
    }
}

/// The output validator's folder of the package's version: 2023-07 has no `validation`
/// key, and its `output_validator/` is the custom validator by being there. A folder of
/// the other version (`output_validators/` in a 2023-07 package, `output_validator/` in
/// a legacy one without `validation: custom`) would be passed over unsaid, and right
/// answers judged by the default validator: warned of. Also warns of a
/// `limits.time_resolution` other than 1 s.
fn validator_folders(package: &Path, apart: &Apart, config: &mut Config) -> Result<(), Fault> {
    let Apart {
        modern, resolution, ..
    } = *apart;
    // In a legacy package the name means nothing: only a folder there is 2023-07's
    // (NWERC 2022's `eta` has a stray binary named so beside its output_validators/).
    let modern_folder = if modern {
        files::folder_if_any(&package.join("output_validator"))?
    } else {
        package.join("output_validator").is_dir()
    };
    let legacy_folder = files::folder_if_any(&package.join("output_validators"))?;
    let yaml = package.join("problem.yaml");
    if modern && modern_folder {
        config.custom_validator = true;
    }
    let unused = if modern && legacy_folder && !config.custom_validator {
        Some(
            "output_validators/ is the legacy format's; this package is 2023-07's, whose \
              output validator is output_validator/",
        )
    } else if !modern && modern_folder && !config.custom_validator {
        Some(
            "output_validator/ is 2023-07's; this package is legacy (no \
              problem_format_version) and says no `validation: custom`",
        )
    } else {
        None
    };
    if let Some(why) = unused {
        warn_once(&format!(
            "grader: warning: {}: {why}: not used, outputs are judged by the default validator",
            yaml.display()
        ));
    }
    if modern && resolution.is_some_and(|r| (r - 1.0).abs() > f64::EPSILON) {
        warn_once(&format!(
            "grader: warning: {}: limits.time_resolution is not read: a time limit set from \
             the submissions is rounded up to a whole second",
            yaml.display()
        ));
    }
    Ok(())
}

/// The folders of 2025-09 that would change what a submission gets, and what the grader
/// does without them.
const UNREAD_FOLDERS: [(&str, &str); 1] = [(
    "static_validator",
    "the static validation of submissions is not run: what it would refuse or score \
         is not seen",
)];

/// Warns of each of [`UNREAD_FOLDERS`] the package has: not reading one silently could
/// turn a right submission into a disagreement nobody could explain.
fn warn_unread_folders(package: &Path) {
    for (name, why) in UNREAD_FOLDERS {
        let folder = package.join(name);
        if folder.symlink_metadata().is_ok() {
            warn_once(&format!(
                "grader: warning: {}: not read: {why}",
                folder.display()
            ));
        }
    }
}

/// The time limit DOMjudge's `.timelimit` gives: a positive number of seconds, alone
/// (blanks around it allowed); or `LINE:COL: why`.
fn timelimit(text: &str) -> Result<Duration, String> {
    let start = text.len() - text.trim_start().len();
    let word = text.trim();
    let line = text[..start].matches('\n').count() + 1;
    let column = start - text[..start].rfind('\n').map_or(0, |n| n + 1) + 1;
    let refused = || {
        format!(
            "{line}:{column}: `{}` is not a time limit: expected a positive number of seconds",
            word.escape_debug()
        )
    };
    let seconds: f64 = word.parse().map_err(|_| refused())?;
    if !seconds.is_finite()
        || seconds <= 0.0
        || !word.bytes().all(|b| b.is_ascii_digit() || b == b'.')
    {
        return Err(refused());
    }
    Duration::try_from_secs_f64(seconds).map_err(|_| refused())
}

/// Says `line` on stderr the first time only: a command reads `problem.yaml` more than
/// once (to check the data, to set the time limit), and one warning is enough.
pub(crate) fn warn_once(line: &str) {
    static SAID: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let mut said = SAID.locked();
    if !said.iter().any(|s| s == line) {
        said.push(line.to_owned());
        crate::report::note(line);
    }
}

/// The config `text` gives, with the warnings of keys it ignores (`LINE:COL: why`), or why
/// not: `LINE:COL: why` where the parser tells the place, ` why` (no place) for a value
/// that is read but cannot be used.
fn parse(text: &str, folder: &str) -> Result<(Config, Vec<String>), String> {
    let located = |e: serde_yaml_ng::Error| match e.location() {
        Some(at) => format!("{}:{}: {}", at.line(), at.column(), without_location(&e)),
        None => format!(" {e}"),
    };
    let raw: Raw = if text.trim().is_empty() {
        Raw::default()
    } else {
        serde_yaml_ng::from_str(text).map_err(located)?
    };
    if let Some((key, why)) = bad_value(&raw) {
        return Err(format!("{}: {key}: {why}", value_place(text, &key)));
    }
    let modern = raw
        .problem_format_version
        .as_deref()
        .is_some_and(|v| v != "legacy");
    let warnings = if text.trim().is_empty() {
        Vec::new()
    } else {
        let tree: serde_yaml_ng::Value = serde_yaml_ng::from_str(text).map_err(located)?;
        unknown_keys(&tree, text, modern)?
    };
    let types = raw.kind.map(|t| t.words()).unwrap_or_default();
    let validation = raw.validation.unwrap_or_default();
    let words: Vec<&str> = types
        .iter()
        .map(String::as_str)
        .chain(validation.split_whitespace())
        .collect();
    if words.contains(&"submit-answer") {
        return Err(" submit-answer problems are not supported (docs/packages.md)".to_owned());
    }
    if words.contains(&"score") {
        return Err(
            " an output validator that scores (`validation: custom score`) is not \
             supported (docs/packages.md)"
                .to_owned(),
        );
    }
    let interactive = words.contains(&"interactive");
    let multi_pass = words.contains(&"multi-pass");
    // An interactive problem's interactor is its output validator: always the package's;
    // so is the validator that asks for a multi-pass problem's passes.
    let custom_validator = interactive
        || multi_pass
        || words.contains(&"custom")
        || (modern && !validation.is_empty());
    let name = match raw.name {
        Some(Name::One(name)) => name,
        Some(Name::ByLanguage(names)) => names
            .get("en")
            .or_else(|| names.values().next())
            .cloned()
            .unwrap_or_else(|| folder.to_owned()),
        None => folder.to_owned(),
    };
    let config = Config {
        name,
        scoring: words.contains(&"scoring"),
        custom_validator,
        interactive,
        multi_pass,
        validator_flags: raw
            .validator_flags
            .unwrap_or_default()
            .split_whitespace()
            .map(str::to_owned)
            .collect(),
        limits: limits(&raw.limits, modern)?,
        modern,
        constants: Constants::default(),
    };
    Ok((config, warnings))
}

/// The warnings of the keys of `tree` (the parsed `text`) that no version of the format
/// has, or that belong to the version the package does not say it is
/// (`limits.time_multiplier` in a 2023-07 package), which are ignored; or the fault of a
/// near miss of a key the grader reads, which would otherwise change the judging unsaid.
fn unknown_keys(
    tree: &serde_yaml_ng::Value,
    text: &str,
    modern: bool,
) -> Result<Vec<String>, String> {
    let mut warnings = Vec::new();
    let keys = |value: &serde_yaml_ng::Value| -> Vec<String> {
        value.as_mapping().map_or_else(Vec::new, |map| {
            map.keys()
                .map(|k| k.as_str().map_or_else(|| format!("{k:?}"), str::to_owned))
                .collect()
        })
    };
    for key in keys(tree) {
        if KNOWN.contains(&key.as_str()) {
            continue;
        }
        let at = place_of(text, &key, 0);
        if let Some(meant) = READ.iter().find(|read| near(&key, read)) {
            return Err(format!(
                "{at}: unknown key `{key}`: did you mean `{meant}`? (the grader reads \
                 `{meant}`, and would judge without it)"
            ));
        }
        warnings.push(format!(
            "{at}: unknown key `{key}`, ignored (not a key of the problem package format)"
        ));
    }
    let limits = tree.get("limits").map(keys).unwrap_or_default();
    let (theirs, version) = if modern {
        (
            LIMITS_LEGACY,
            "the legacy format's; this package is 2023-07's",
        )
    } else {
        (
            [LIMITS_MODERN[0], LIMITS_MODERN[1]],
            "2023-07's; this package is legacy (no problem_format_version)",
        )
    };
    for key in limits {
        let ours = if modern {
            &LIMITS_MODERN[..]
        } else {
            &LIMITS_LEGACY[..]
        };
        if LIMITS.contains(&key.as_str()) || ours.contains(&key.as_str()) {
            continue;
        }
        let at = place_of(text, &key, 1);
        if theirs.contains(&key.as_str()) || (!modern && key == LIMITS_MODERN[2]) {
            warnings.push(format!("{at}: `limits.{key}` is {version}: ignored"));
            continue;
        }
        if let Some(meant) = LIMITS.iter().chain(ours).find(|read| near(&key, read)) {
            return Err(format!(
                "{at}: unknown key `limits.{key}`: did you mean `{meant}`?"
            ));
        }
        warnings.push(format!(
            "{at}: unknown key `limits.{key}`, ignored (not a key of the problem package format)"
        ));
    }
    Ok(warnings)
}

/// `LINE:COL` of the key `key` in `text`: the first line that starts with it, indented
/// (`depth` 1: below `limits`) or not; `1:1` when it is written some other way (a flow
/// mapping), which only a warning's place depends on. `submissions.yaml`'s rules are
/// placed by it too.
pub(super) fn place_of(text: &str, key: &str, depth: usize) -> String {
    for (number, line) in text.lines().enumerate() {
        let body = line.trim_start();
        let indent = line.len() - body.len();
        if (indent > 0) == (depth > 0)
            && body
                .strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with(':'))
        {
            return format!("{}:{}", number + 1, indent + 1);
        }
    }
    "1:1".to_owned()
}

/// `LINE:COL` of the value of the key at `path` (`limits.memory`) in `text`: just past the
/// `:` of its line, found as [`place_of`] finds keys.
fn value_place(text: &str, path: &str) -> String {
    let depth = path.matches('.').count();
    let key = path.rsplit('.').next().unwrap_or(path);
    let at = place_of(text, key, depth);
    let Some((line, _)) = at.split_once(':') else {
        return at;
    };
    let number: usize = line.parse().unwrap_or(1);
    let Some(body) = text.lines().nth(number.saturating_sub(1)) else {
        return at;
    };
    let Some(colon) = body.find(':') else {
        return at;
    };
    let after = &body[colon + 1..];
    let column = colon + 2 + (after.len() - after.trim_start().len());
    format!("{number}:{column}")
}

/// Whether `key` is a near miss of `read`: a letter or two away (a typo), or the same
/// but for case, `-` for `_` or a plural.
fn near(key: &str, read: &str) -> bool {
    let plain = |s: &str| s.to_ascii_lowercase().replace('-', "_");
    let (key, read) = (plain(key), plain(read));
    key == read || key.trim_end_matches('s') == read || edits(&key, &read) <= 2
}

/// The edit distance of `a` and `b` (insertions, deletions, substitutions).
fn edits(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let here = row[j + 1];
            row[j + 1] = (previous + usize::from(ca != *cb))
                .min(row[j] + 1)
                .min(here + 1);
            previous = here;
        }
    }
    row[b.len()]
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
    // The values were checked as they were read (`positive`): what is left is a number
    // too large to be a duration.
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
    Ok(PackageLimits {
        time: seconds(raw.time_limit, "time_limit")?,
        time_from: "problem.yaml",
        time_multiplier: multiplier,
        safety_margin: margin,
        memory: raw.memory.unwrap_or(1024),
        output: raw.output.unwrap_or(8),
        validation_time: seconds(raw.validation_time, "validation_time")?
            .unwrap_or(Duration::from_mins(1)),
        validation_memory: raw.validation_memory.unwrap_or(1024),
        validation_output: raw.validation_output.unwrap_or(8),
        validation_passes: raw.validation_passes.unwrap_or(2),
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
    fn a_timelimit_file_is_a_positive_number_of_seconds_alone() {
        assert_eq!(timelimit("1\n"), Ok(Duration::from_secs(1)));
        assert_eq!(timelimit("  2.5 \n\n"), Ok(Duration::from_millis(2500)));
        for (text, place, word) in [
            ("\n  fast\n", "2:3", "fast"),
            ("0\n", "1:1", "0"),
            ("-1", "1:1", "-1"),
            ("1 s\n", "1:1", "1 s"),
            ("inf", "1:1", "inf"),
            ("", "1:1", ""),
        ] {
            let why = timelimit(text).unwrap_err();
            assert_eq!(
                why,
                format!(
                    "{place}: `{word}` is not a time limit: expected a positive number of seconds"
                ),
                "{text:?}"
            );
        }
    }

    #[test]
    fn legacy_and_modern_keys_are_read_with_their_versions_defaults() {
        let legacy = parse(
            "name: Hello\nvalidation: custom\nvalidator_flags: float_tolerance 1e-6\nlimits:\n  memory: 512\n  time_safety_margin: 4\n",
            "hello",
        )
        .unwrap()
        .0;
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
        .unwrap()
        .0;
        assert_eq!(modern.name, "Odd Echo");
        assert!(modern.scoring && !modern.custom_validator);
        assert_eq!(modern.limits.time, Some(Duration::from_millis(2500)));
        assert_eq!(
            (modern.limits.time_multiplier, modern.limits.safety_margin),
            (2.0, 1.5)
        );
        let empty = parse("", "plain").unwrap().0;
        assert_eq!((empty.name.as_str(), empty.limits.memory), ("plain", 1024));
    }

    #[test]
    fn faults_are_located_and_multi_pass_problems_read() {
        let said = parse("name: x\nlimits:\n  memory: lots\n", "x").unwrap_err();
        assert!(
            said.starts_with("3:11: limits.memory: invalid type"),
            "{said}"
        );
        let said = parse("name: [unclosed\n", "x").unwrap_err();
        assert!(said.starts_with("2:1: "), "{said}");
        let config = parse("problem_format_version: 2023-07\ntype: multi-pass\n", "m")
            .unwrap()
            .0;
        assert!(config.multi_pass && config.custom_validator && !config.interactive);
        assert_eq!(config.limits.validation_passes, 2);
        let text = "problem_format_version: 2023-07\ntype: [interactive, multi-pass]\n\
                    limits:\n  validation_passes: 5\n";
        let config = parse(text, "m").unwrap().0;
        assert!(config.multi_pass && config.interactive);
        assert_eq!(config.limits.validation_passes, 5);
        let said = parse(
            "problem_format_version: 2023-07\ntype: multi-pass\nlimits:\n  validation_passes: 1\n",
            "m",
        )
        .unwrap_err();
        assert!(
            said.starts_with("4:22: limits.validation_passes: 1 is below 2"),
            "{said}"
        );
        for text in [
            "validation: custom interactive\n",
            "problem_format_version: 2023-07\ntype: interactive\n",
            "problem_format_version: 2023-07\ntype: [pass-fail, interactive]\n",
        ] {
            let config = parse(text, "guess").unwrap().0;
            assert!(config.interactive && config.custom_validator, "{text}");
        }
        assert!(!parse("validation: custom\n", "x").unwrap().0.interactive);
        let said = parse("validation: custom score\n", "scored").unwrap_err();
        assert!(
            said.contains("`validation: custom score`) is not supported"),
            "{said}"
        );
        let said = parse("limits:\n  time_multiplier: 0.5\n", "x").unwrap_err();
        assert!(
            said.starts_with("2:20: limits.time_multiplier: 0.5 is below 1"),
            "{said}"
        );
    }

    #[test]
    fn a_value_the_format_does_not_allow_is_located_and_names_the_allowed_ones() {
        let said = parse("name: x\nvalidation: costum\n", "x").unwrap_err();
        assert!(
            said.starts_with("2:13: validation: `costum` is not a way of validation: expected one of default, custom,"),
            "{said}"
        );
        for (text, at) in [
            ("type: pass_fail\n", "1:7: type: `pass_fail` is not a type"),
            (
                "problem_format_version: 2023-7\n",
                "1:25: problem_format_version: `2023-7`",
            ),
            (
                "limits:\n  memory: 0\n",
                "2:11: limits.memory: 0 is not a size",
            ),
            (
                "limits:\n  time_limit: -1\n",
                "2:15: limits.time_limit: -1 is not a number of seconds above 0",
            ),
            ("validation: custom score score\n", "1:13: validation:"),
        ] {
            let said = parse(text, "x").unwrap_err();
            assert!(said.starts_with(at), "{text}: {said}");
        }
        assert!(
            parse("problem_format_version: legacy\nvalidation: custom\n", "x")
                .unwrap()
                .0
                .custom_validator
        );
    }

    #[test]
    fn unknown_keys_are_warned_of_and_near_misses_of_read_ones_refused() {
        let (_, warnings) = parse("name: x\nfoo: 1\nlimits:\n  bar: 2\n", "x").unwrap();
        assert_eq!(
            warnings,
            [
                "2:1: unknown key `foo`, ignored (not a key of the problem package format)",
                "4:3: unknown key `limits.bar`, ignored (not a key of the problem package format)",
            ]
        );
        let said = parse("validaton: custom\n", "x").unwrap_err();
        assert!(
            said.starts_with("1:1: unknown key `validaton`: did you mean `validation`?"),
            "{said}"
        );
        let said = parse("limits:\n  memroy: 2\n", "x").unwrap_err();
        assert!(
            said.starts_with("2:3: unknown key `limits.memroy`: did you mean `memory`?"),
            "{said}"
        );
        // The other version's keys are ignored, and said to be.
        let (_, warnings) = parse(
            "limits:\n  time_multipliers:\n    ac_to_time_limit: 3\n",
            "x",
        )
        .unwrap();
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(
            warnings[0].starts_with("2:3: `limits.time_multipliers` is 2023-07's"),
            "{warnings:?}"
        );
        let (_, warnings) = parse(
            "problem_format_version: 2023-07-draft\nlimits:\n  time_multiplier: 3\n",
            "x",
        )
        .unwrap();
        assert!(
            warnings[0].starts_with("3:3: `limits.time_multiplier` is the legacy format's"),
            "{warnings:?}"
        );
        // Every key of the format passes without a word.
        let (_, warnings) = parse(
            "name: x\nuuid: u\nauthor: a\nsource: s\nlicense: cc0\nrights_owner: r\nkeywords: k\n",
            "x",
        )
        .unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
    }
}
