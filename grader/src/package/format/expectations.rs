//! 2023-07's `submissions/submissions.yaml`: what each submission may get, by glob
//! patterns of submissions (`accepted`, `wrong_answer/*.py`, `{a,b}.cc`), each with
//! `permitted` (every case's verdict is one of these) and `required` (some case's is). The
//! default folders' rules (`accepted`: permitted `AC`; `wrong_answer`: permitted `AC`,
//! `WA`, required `WA`; ...) hold unless an entry named as the folder replaces what it
//! gives of them.
//!
//! The grader judges a submission by its first case that is not accepted, as it judges
//! the folders: the verdicts a submission may get are those that every rule matching it
//! both permits and requires (`AC` only when all of them do), which for the default
//! folders is what the folders say (`wrong_answer`: `WA`). Keys that ask more (`score`,
//! `message`, `use_for_time_limit`, rules for a group of cases) are not read, and warned
//! of. An entry's `language` (a code of the format's table) and `entrypoint` say how its
//! submissions are built ([`BuildSaid`]).

use std::path::Path;

use super::codes;
use super::config::place_of;
use crate::cli::exit::Fault;
use crate::paths::files;

/// The verdicts of the rules, in the format's words.
const VERDICTS: [&str; 4] = ["AC", "WA", "TLE", "RTE"];

/// The keys of an entry that say nothing of a verdict nor of how it is built.
const QUIET: [&str; 2] = ["authors", "model_solution"];

/// The keys of an entry that ask what the grader does not check: warned of.
const NOT_READ: [&str; 3] = ["score", "message", "use_for_time_limit"];

/// The rule of one entry: the verdicts it permits and requires, when it says.
#[derive(Debug, Clone, Default, PartialEq)]
struct Rule {
    permitted: Option<Vec<&'static str>>,
    required: Option<Vec<&'static str>>,
}

/// The verdicts of a case not accepted, in the format's words: one of them is what
/// `rejected/` requires.
pub(crate) const NOT_ACCEPTED: [&str; 3] = ["RTE", "TLE", "WA"];

/// The default folders' rules.
fn defaults() -> Vec<(&'static str, Rule)> {
    let rule = |permitted: &[&'static str], required: &[&'static str]| Rule {
        permitted: (!permitted.is_empty()).then(|| permitted.to_vec()),
        required: (!required.is_empty()).then(|| required.to_vec()),
    };
    vec![
        ("accepted", rule(&["AC"], &[])),
        ("rejected", rule(&[], &NOT_ACCEPTED)),
        ("wrong_answer", rule(&["AC", "WA"], &["WA"])),
        ("time_limit_exceeded", rule(&["AC", "TLE"], &["TLE"])),
        ("run_time_error", rule(&["AC", "RTE"], &["RTE"])),
        ("brute_force", rule(&["AC", "RTE", "TLE"], &["RTE", "TLE"])),
    ]
}

/// A package's `submissions.yaml`, read.
#[derive(Debug, Default)]
pub(crate) struct Expectations {
    /// The default folders' rules, with what the file replaces of them.
    folders: Vec<(&'static str, Rule)>,
    /// The file's other entries: each pattern (its braces expanded) and its rule.
    entries: Vec<(Vec<String>, Rule)>,
    /// How the submissions an entry matches are built: each pattern (a folder's name
    /// too) and what the entry says.
    builds: Vec<(Vec<String>, Build)>,
}

/// How an entry says its submissions are built (`language`, `entrypoint`), each value
/// with its place (`LINE:COL`).
#[derive(Debug, Clone, Default, PartialEq)]
struct Build {
    language: Option<(String, String)>,
    entrypoint: Option<(String, String)>,
}

/// How a submission is built, as `submissions.yaml` says: its language (a code of the
/// format's table) and its entry point (the main file, or a class), when it says.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct BuildSaid {
    /// The language's code (`python3`).
    pub(crate) language: Option<String>,
    /// The entry point (`main.py`, `Main`).
    pub(crate) entrypoint: Option<String>,
}

/// Reads `PKG/submissions/submissions.yaml`, when there is one; warnings for what it asks
/// that is not read go to stderr.
pub(crate) fn load(package: &Path) -> Result<Option<Expectations>, Fault> {
    let path = package.join("submissions").join("submissions.yaml");
    if path.symlink_metadata().is_err() {
        return Ok(None);
    }
    let bytes = files::read_file_of_data(&path)?;
    let text = String::from_utf8_lossy(&bytes);
    let (expectations, warnings) =
        parse(&text).map_err(|e| Fault::input(format!("{}:{e}", path.display())))?;
    for warning in warnings {
        crate::package::format::config::warn_once(&format!(
            "grader: warning: {}:{warning}",
            path.display()
        ));
    }
    Ok(Some(expectations))
}

/// The expectations `text` gives, and warnings (`LINE:COL: why`); or `LINE:COL: why`.
fn parse(text: &str) -> Result<(Expectations, Vec<String>), String> {
    let mut expectations = Expectations {
        folders: defaults(),
        entries: Vec::new(),
        builds: Vec::new(),
    };
    let mut warnings = Vec::new();
    if text.trim().is_empty() {
        return Ok((expectations, warnings));
    }
    let tree: serde_yaml_ng::Mapping = serde_yaml_ng::from_str(text).map_err(|e| {
        let at = e.location().map_or((1, 1), |l| (l.line(), l.column()));
        format!("{}:{}: {e}", at.0, at.1)
    })?;
    for (key, value) in &tree {
        let pattern = key
            .as_str()
            .ok_or_else(|| "1:1: a key that is not a pattern of submissions".to_owned())?;
        let at = place_of(text, pattern, 0);
        let body = value
            .as_mapping()
            .ok_or_else(|| format!("{at}: `{pattern}`: expected a map of rules"))?;
        let mut rule = Rule::default();
        let mut build = Build::default();
        for (name, value) in body {
            let name = name.as_str().unwrap_or_default();
            let here = place_below(text, &at, name);
            match name {
                "permitted" => rule.permitted = Some(verdicts(value, &here, pattern, name)?),
                "required" => rule.required = Some(verdicts(value, &here, pattern, name)?),
                "language" => build.language = Some((language(value, &here, pattern)?, here)),
                "entrypoint" => {
                    let entry = value.as_str().filter(|e| !e.trim().is_empty()).ok_or_else(
                        || {
                            format!(
                                "{here}: `{pattern}`: `entrypoint`: expected a file or class name"
                            )
                        },
                    )?;
                    build.entrypoint = Some((entry.to_owned(), here));
                }
                _ if QUIET.contains(&name) => {}
                _ if NOT_READ.contains(&name) => warnings.push(format!(
                    "{here}: `{pattern}`: `{name}` is not read: the grader does not check it"
                )),
                _ if is_group(name) => warnings.push(format!(
                    "{here}: `{pattern}`: the rules for the cases of `{name}` are not read: \
                     the submission is judged by the rules for all its cases"
                )),
                _ => {
                    return Err(format!(
                        "{here}: `{pattern}`: unknown key `{name}`: expected permitted, \
                         required, score, message, use_for_time_limit, language, entrypoint, \
                         authors, model_solution, or a group of cases (`secret/group1`)"
                    ));
                }
            }
        }
        if build != Build::default() {
            expectations.builds.push((expanded(pattern), build));
        }
        if let Some((_, default)) = expectations.folders.iter_mut().find(|(f, _)| *f == pattern) {
            // Named as a default folder: it replaces what it gives of the folder's rule.
            default.permitted = rule.permitted.or(default.permitted.take());
            default.required = rule.required.or(default.required.take());
        } else if rule != Rule::default() {
            // An entry that says nothing of verdicts (only how its submissions are built,
            // or who wrote them) leaves them to the folder's rule.
            expectations.entries.push((expanded(pattern), rule));
        }
    }
    Ok((expectations, warnings))
}

/// Whether an entry's key names a group of cases (`sample`, `secret/group1`, a glob of
/// them) rather than a rule.
fn is_group(name: &str) -> bool {
    [
        "sample",
        "secret",
        "invalid_input",
        "invalid_output",
        "valid_output",
    ]
    .iter()
    .any(|top| name == *top || name.starts_with(&format!("{top}/")))
}

/// The verdicts of a list (`[AC, WA]`), or `LINE:COL: why` at `at`.
fn verdicts(
    value: &serde_yaml_ng::Value,
    at: &str,
    pattern: &str,
    key: &str,
) -> Result<Vec<&'static str>, String> {
    let words: Vec<&str> = match value {
        serde_yaml_ng::Value::String(one) => vec![one.as_str()],
        serde_yaml_ng::Value::Sequence(many) => many.iter().filter_map(|v| v.as_str()).collect(),
        _ => Vec::new(),
    };
    if words.is_empty() {
        return Err(format!(
            "{at}: `{pattern}`: `{key}`: expected a list of verdicts (AC, WA, TLE, RTE)"
        ));
    }
    words
        .into_iter()
        .map(|word| {
            VERDICTS.into_iter().find(|v| *v == word).ok_or_else(|| {
                format!("{at}: `{pattern}`: `{key}`: `{word}` is not a verdict: expected AC, WA, TLE or RTE")
            })
        })
        .collect()
}

/// `LINE:COL` of the key `key` in the entry whose own key is at `parent` (`LINE:COL`):
/// the first indented line below it that starts with `key`, before the next entry; found
/// as [`place_of`] finds one where it is written some other way.
fn place_below(text: &str, parent: &str, key: &str) -> String {
    let first: usize = parent
        .split_once(':')
        .and_then(|(line, _)| line.parse().ok())
        .unwrap_or(1);
    for (number, line) in text.lines().enumerate().skip(first) {
        let body = line.trim_start();
        let indent = line.len() - body.len();
        if indent == 0 && !body.is_empty() {
            break;
        }
        if body
            .strip_prefix(key)
            .is_some_and(|rest| rest.trim_start().starts_with(':'))
        {
            return format!("{}:{}", number + 1, indent + 1);
        }
    }
    place_of(text, key, 1)
}

/// The language an entry names: a code of the format's table, or `LINE:COL: why` at `at`.
fn language(value: &serde_yaml_ng::Value, at: &str, pattern: &str) -> Result<String, String> {
    let word = value.as_str().unwrap_or_default();
    if codes::is_code(word) {
        Ok(word.to_owned())
    } else {
        Err(format!(
            "{at}: `{pattern}`: `language`: `{word}` is not a language code of the format's \
             table: expected one of {}",
            codes::listed()
        ))
    }
}

/// `pattern` with its braces expanded (`{a,b}.py`: `a.py`, `b.py`).
fn expanded(pattern: &str) -> Vec<String> {
    let Some(open) = pattern.find('{') else {
        return vec![pattern.to_owned()];
    };
    let Some(close) = pattern[open..].find('}').map(|c| open + c) else {
        return vec![pattern.to_owned()];
    };
    pattern[open + 1..close]
        .split(',')
        .flat_map(|choice| {
            expanded(&format!(
                "{}{choice}{}",
                &pattern[..open],
                &pattern[close + 1..]
            ))
        })
        .collect()
}

/// Whether `pattern` (no braces) matches `path` (`FOLDER/FILE`) or a folder of it, `*`
/// matching any run of characters within one name.
fn matches(pattern: &str, path: &str) -> bool {
    let want: Vec<&str> = pattern.trim_end_matches('/').split('/').collect();
    let names: Vec<&str> = path.split('/').collect();
    want.len() <= names.len() && want.iter().zip(&names).all(|(w, n)| name_matches(w, n))
}

/// Whether the one-name pattern `pattern` matches `name`.
fn name_matches(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == name,
        Some((head, rest)) => {
            name.starts_with(head)
                && (head.len()..=name.len())
                    .any(|at| name.is_char_boundary(at) && name_matches(rest, &name[at..]))
        }
    }
}

/// What a submission may get.
#[derive(Debug, PartialEq)]
pub(crate) enum Expected {
    /// No rule of the file matches it (its folder's or its comment's hold).
    Unsaid,
    /// The verdicts, in the format's words (an output limit, `OLE`, is among the
    /// run-time errors, as the format counts it).
    Verdicts(Vec<&'static str>),
}

impl Expectations {
    /// How the submission `name` (`FOLDER/FILE`) is built, as the entries that match it
    /// say; or why they cannot all be followed (two of them naming two languages, or two
    /// entry points).
    pub(crate) fn build_of(&self, name: &str) -> Result<BuildSaid, String> {
        let mut said = BuildSaid::default();
        let mut places: (Option<&str>, Option<&str>) = (None, None);
        for (_, build) in self
            .builds
            .iter()
            .filter(|(patterns, _)| patterns.iter().any(|p| matches(p, name)))
        {
            for (given, (to, place), key) in [
                (
                    &build.language,
                    (&mut said.language, &mut places.0),
                    "language",
                ),
                (
                    &build.entrypoint,
                    (&mut said.entrypoint, &mut places.1),
                    "entrypoint",
                ),
            ] {
                let Some((value, here)) = given else {
                    continue;
                };
                match to {
                    Some(earlier) if earlier != value => {
                        return Err(format!(
                            "{here}: `{key}` `{value}` for {name}, which {} gives `{earlier}`",
                            place.unwrap_or_default()
                        ));
                    }
                    _ => {
                        *to = Some(value.clone());
                        *place = Some(here);
                    }
                }
            }
        }
        Ok(said)
    }

    /// What the submission `name` (`FOLDER/FILE`) may get, or why no verdict can meet
    /// the rules that match it.
    pub(crate) fn of(&self, name: &str) -> Result<Expected, String> {
        let folder = name.split('/').next().unwrap_or(name);
        let entries: Vec<&Rule> = self
            .entries
            .iter()
            .filter(|(patterns, _)| patterns.iter().any(|p| matches(p, name)))
            .map(|(_, rule)| rule)
            .collect();
        let replaced = self
            .folders
            .iter()
            .find(|(f, _)| *f == folder)
            .is_some_and(|(f, rule)| {
                defaults()
                    .iter()
                    .any(|(d, default)| d == f && default != rule)
            });
        if entries.is_empty() && !replaced {
            return Ok(Expected::Unsaid);
        }
        let rules: Vec<&Rule> = self
            .folders
            .iter()
            .filter(|(f, _)| *f == folder)
            .map(|(_, rule)| rule)
            .chain(entries)
            .collect();
        let allowed: Vec<&'static str> = VERDICTS
            .into_iter()
            .filter(|v| {
                rules.iter().all(|rule| {
                    rule.permitted.as_ref().is_none_or(|p| p.contains(v))
                        && rule.required.as_ref().is_none_or(|r| r.contains(v))
                })
            })
            .collect();
        if allowed.is_empty() {
            return Err(format!(
                "no verdict meets every rule for {name}: what one permits, another does not \
                 require"
            ));
        }
        let mut allowed = allowed;
        if allowed.contains(&"RTE") {
            allowed.push("OLE");
        }
        Ok(Expected::Verdicts(allowed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(text: &str, name: &str) -> Result<Expected, String> {
        parse(text).unwrap().0.of(name)
    }

    #[test]
    fn language_and_entrypoint_are_read_and_must_agree() {
        let text = "accepted:\n  language: cpp\naccepted/a:\n  entrypoint: Main\n\
                    mixed/*.py:\n  language: python3\n  authors: [A]\n";
        let read = parse(text).unwrap().0;
        assert_eq!(
            read.build_of("accepted/a"),
            Ok(BuildSaid {
                language: Some("cpp".to_owned()),
                entrypoint: Some("Main".to_owned()),
            })
        );
        assert_eq!(
            read.build_of("mixed/x.py").unwrap().language.as_deref(),
            Some("python3")
        );
        assert_eq!(read.build_of("wrong_answer/x.py"), Ok(BuildSaid::default()));
        // They say nothing of verdicts: the folders' rules hold, as the folders say them.
        assert_eq!(read.of("accepted/a"), Ok(Expected::Unsaid));
        assert_eq!(read.of("mixed/x.py"), Ok(Expected::Unsaid));
        let why = parse("x:\n  language: c++\n").unwrap_err();
        assert!(
            why.starts_with("2:3: `x`: `language`: `c++` is not a language code"),
            "{why}"
        );
        let two = parse("accepted:\n  entrypoint: a.py\naccepted/b:\n  entrypoint: b.py\n")
            .unwrap()
            .0;
        assert_eq!(
            two.build_of("accepted/b"),
            Err("4:3: `entrypoint` `b.py` for accepted/b, which 2:3 gives `a.py`".to_owned())
        );
    }

    #[test]
    fn the_default_folders_say_what_their_folders_say() {
        let none = "";
        assert_eq!(of(none, "accepted/a.py"), Ok(Expected::Unsaid));
        assert_eq!(of(none, "mixed/a.py"), Ok(Expected::Unsaid));
        // Replaced in part: the rest of the folder's rule holds.
        let text = "time_limit_exceeded:\n  permitted: [AC, WA, TLE]\n";
        assert_eq!(
            of(text, "time_limit_exceeded/slow.py"),
            Ok(Expected::Verdicts(vec!["TLE"]))
        );
        let text = "wrong_answer:\n  required: [WA, RTE]\n  permitted: [AC, WA, RTE]\n";
        assert_eq!(
            of(text, "wrong_answer/x.c"),
            Ok(Expected::Verdicts(vec!["WA", "RTE", "OLE"]))
        );
    }

    #[test]
    fn globs_and_braces_match_submissions_and_their_folders() {
        let text = "mixed/{fast,slow}.py:\n  permitted: [AC, TLE]\n  required: [TLE]\n\
                    other/*.cc:\n  permitted: [AC]\n\
                    odd:\n  required: [WA, TLE]\n";
        assert_eq!(
            of(text, "mixed/fast.py"),
            Ok(Expected::Verdicts(vec!["TLE"]))
        );
        assert_eq!(
            of(text, "mixed/slow.py"),
            Ok(Expected::Verdicts(vec!["TLE"]))
        );
        assert_eq!(of(text, "mixed/other.py"), Ok(Expected::Unsaid));
        assert_eq!(of(text, "other/a.cc"), Ok(Expected::Verdicts(vec!["AC"])));
        assert_eq!(of(text, "other/a.py"), Ok(Expected::Unsaid));
        assert_eq!(
            of(text, "odd/x.py"),
            Ok(Expected::Verdicts(vec!["WA", "TLE"]))
        );
        // A rule on top of a default folder's: both hold.
        let text = "accepted/*.py:\n  required: [WA]\n";
        assert!(
            of(text, "accepted/a.py")
                .unwrap_err()
                .contains("no verdict meets")
        );
    }

    #[test]
    fn what_is_not_read_is_warned_of_and_a_wrong_key_or_verdict_is_refused() {
        let (_, warnings) =
            parse("accepted/a.py:\n  score: 100\n  secret/g1:\n    permitted: [AC]\n").unwrap();
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(warnings[0].starts_with("2:3: `accepted/a.py`: `score` is not read"));
        let why = parse("x:\n  permited: [AC]\n").unwrap_err();
        assert!(why.starts_with("2:3: `x`: unknown key `permited`"), "{why}");
        let why = parse("x:\n  permitted: [AC, OK]\n").unwrap_err();
        assert!(why.contains("`OK` is not a verdict"), "{why}");
    }
}
