//! A package's submissions: each file of `submissions/FOLDER/`, and the verdicts it may
//! get. The format's folders say one (`accepted`: `AC`, `wrong_answer`: `WA`,
//! `time_limit_exceeded`: `TLE`, `run_time_error`: `RTE`); BAPCtools' `rejected` says any
//! but `AC`; and, as DOMjudge reads a jury's submissions, an `@EXPECTED_RESULTS@:` comment
//! in the file lists them in DOMjudge's words, and then it is the expectation whatever the
//! folder (a `mixed/` folder means nothing by itself); 2023-07's `submissions.yaml`
//! (`expectations`), where a rule of it matches, says it over both. Other submissions are run, and
//! their verdicts shown, with none expected. Where an expectation came from is kept: the
//! table says it.

use std::path::{Path, PathBuf};

use crate::cli::exit::Fault;
use crate::package::format::expectations::{BuildSaid, Expected};
use crate::paths::files;

/// One submission of a package.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    /// `FOLDER/FILE`, as the table names it.
    pub(crate) name: String,
    /// The file.
    pub(crate) path: PathBuf,
    /// The verdicts it may get, in the format's words; none when nothing says.
    pub(crate) expected: Vec<&'static str>,
    /// What says so: its folder's name, `rejected/`, `@EXPECTED_RESULTS@` or
    /// `submissions.yaml`.
    pub(crate) from: Option<&'static str>,
    /// Whether its folder is `partially_accepted` (a scoring problem's: `AC` with a score
    /// short of the full one).
    pub(crate) partial: bool,
    /// Its language and entry point, when `submissions.yaml` says.
    pub(crate) build: BuildSaid,
}

impl Entry {
    /// Whether it is one the time limit is set from.
    pub(crate) fn accepted(&self) -> bool {
        self.expected == ["AC"]
    }
}

/// What `submissions/rejected/` allows: any verdict but `AC`, of a program that runs (one
/// that does not compile tests nothing, as in every other folder).
const REJECTED: [&str; 4] = ["WA", "TLE", "RTE", "OLE"];

/// The marker of DOMjudge's comment.
const MARKER: &str = "@EXPECTED_RESULTS@:";

/// A result of DOMjudge's, in either spelling (`WRONG-ANSWER`, `WRONG_ANSWER`), in the
/// format's words: `NO-OUTPUT` is a wrong answer with nothing printed, and a memory limit
/// is a run-time error, as the format names them.
fn result(word: &str) -> Option<&'static str> {
    Some(match word.to_ascii_uppercase().replace('-', "_").as_str() {
        "CORRECT" | "ACCEPTED" => "AC",
        "WRONG_ANSWER" | "NO_OUTPUT" => "WA",
        "TIMELIMIT" | "TIME_LIMIT_EXCEEDED" => "TLE",
        "RUN_ERROR"
        | "RUN_TIME_ERROR"
        | "RUNTIME_ERROR"
        | "MEMORY_LIMIT"
        | "MEMORY_LIMIT_EXCEEDED" => "RTE",
        "OUTPUT_LIMIT" | "OUTPUT_LIMIT_EXCEEDED" => "OLE",
        "COMPILER_ERROR" | "COMPILE_ERROR" => "CE",
        _ => return None,
    })
}

/// The verdicts the first `@EXPECTED_RESULTS@:` comment of `text` lists, if it has one;
/// or `LINE:COL: why` at the word that is none of DOMjudge's. The list runs to the line's
/// end or to the first sign that is not of a word, a comma or a blank (a comment's `*/`).
fn expected_results(text: &str) -> Result<Option<Vec<&'static str>>, String> {
    let Some(at) = text.find(MARKER) else {
        return Ok(None);
    };
    let line = text[..at].matches('\n').count() + 1;
    let line_start = text[..at].rfind('\n').map_or(0, |n| n + 1);
    let column = |byte: usize| text[line_start..byte].chars().count() + 1;
    let start = at + MARKER.len();
    let rest = &text[start..];
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ',' | ' ' | '\t')))
        .unwrap_or(rest.len());
    let mut verdicts = Vec::new();
    let mut offset = 0;
    for word in rest[..end].split(',') {
        let trimmed = word.trim();
        let place = start + offset + (word.len() - word.trim_start().len());
        offset += word.len() + 1;
        match result(trimmed) {
            Some(verdict) if !verdicts.contains(&verdict) => verdicts.push(verdict),
            Some(_) => {}
            None => {
                let what = if trimmed.is_empty() {
                    "a result is missing".to_owned()
                } else {
                    format!("`{trimmed}` is not a result")
                };
                return Err(format!(
                    "{line}:{}: {MARKER} {what}: expected CORRECT, WRONG-ANSWER, TIMELIMIT, \
                     RUN-ERROR, NO-OUTPUT, OUTPUT-LIMIT, MEMORY-LIMIT or COMPILER-ERROR \
                     (or their names with `_`: WRONG_ANSWER, TIME_LIMIT_EXCEEDED, \
                     RUN_TIME_ERROR, ...)",
                    column(place)
                ));
            }
        }
    }
    Ok(Some(verdicts))
}

/// The verdicts the folder `name` allows, and what the table calls where they came from.
fn expected(name: &str) -> (Vec<&'static str>, Option<&'static str>) {
    match name {
        "accepted" => (vec!["AC"], Some("folder")),
        "wrong_answer" => (vec!["WA"], Some("folder")),
        "time_limit_exceeded" => (vec!["TLE"], Some("folder")),
        "run_time_error" => (vec!["RTE"], Some("folder")),
        "rejected" => (REJECTED.to_vec(), Some("rejected/")),
        _ => (Vec::new(), None),
    }
}

/// What BAPCtools' name for a submission it leaves out ends with (`sol.py.disabled`, a
/// folder `multi.java.disabled`).
const DISABLED: &str = ".disabled";

/// A package's submissions: those to run, and those its jury disabled.
#[derive(Debug)]
pub(crate) struct Listed {
    /// The submissions to run, in the order of their folders and names.
    pub(crate) entries: Vec<Entry>,
    /// `FOLDER/NAME` of each submission whose name ends with `.disabled` (BAPCtools'
    /// way of keeping one in the package without running it): not run, but said.
    pub(crate) disabled: Vec<String>,
}

/// Every submission below `PKG/submissions`, folders in name order and files in name
/// order within each; a submission may be a folder (a program of several files). Those
/// named `*.disabled` are listed apart, and not read.
pub(crate) fn load(package: &Path) -> Result<Listed, Fault> {
    let root = package.join("submissions");
    let rules = crate::package::format::expectations::load(package)?;
    let mut found = Vec::new();
    let mut disabled = Vec::new();
    for folder in sorted(&root)? {
        if !folder.is_dir() {
            continue;
        }
        let kind = folder
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        for path in sorted(&folder)? {
            let file = path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            if file.starts_with('.') {
                continue;
            }
            if file.ends_with(DISABLED) {
                disabled.push(format!("{kind}/{file}"));
                continue;
            }
            let (mut expected, mut from) = expected(&kind);
            // Only a file can carry the comment (a folder's files are its program's).
            if path.is_file() {
                let bytes = files::read_file_of_data(&path)?;
                let listed = expected_results(&String::from_utf8_lossy(&bytes))
                    .map_err(|e| Fault::input(format!("{}:{e}", path.display())))?;
                if let Some(listed) = listed {
                    expected = listed;
                    from = Some("@EXPECTED_RESULTS@");
                }
            }
            let name = format!("{kind}/{file}");
            let yaml = || root.join("submissions.yaml").display().to_string();
            let mut build = BuildSaid::default();
            // 2023-07's own file says it over the folder and the comment.
            if let Some(rules) = &rules {
                build = rules
                    .build_of(&name)
                    .map_err(|why| Fault::input(format!("{}:{why}", yaml())))?;
                match rules
                    .of(&name)
                    .map_err(|why| Fault::input(format!("{}: {why}", yaml())))?
                {
                    Expected::Unsaid => {}
                    Expected::Verdicts(verdicts) => {
                        expected = verdicts;
                        from = Some("submissions.yaml");
                    }
                }
            }
            found.push(Entry {
                name,
                path,
                expected,
                from,
                partial: kind == "partially_accepted",
                build,
            });
        }
    }
    if found.is_empty() {
        return Err(Fault::input(format!(
            "{}: no submissions (`submissions/accepted/...`) to verify",
            root.display()
        )));
    }
    Ok(Listed {
        entries: found,
        disabled,
    })
}

/// The entries of `dir`, sorted by name.
fn sorted(dir: &Path) -> Result<Vec<PathBuf>, Fault> {
    crate::paths::folders::existing(dir, "list submissions in")?;
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| Fault::input(files::cannot(dir, "list", &e)))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::expected_results;

    #[test]
    fn domjudges_comment_lists_results_in_either_spelling() {
        assert_eq!(expected_results("int main() {}\n"), Ok(None));
        assert_eq!(
            expected_results("// @EXPECTED_RESULTS@: WRONG-ANSWER, TIME_LIMIT_EXCEEDED\n"),
            Ok(Some(vec!["WA", "TLE"]))
        );
        assert_eq!(
            expected_results("/* @EXPECTED_RESULTS@: TIMELIMIT,RUN-ERROR */\nint x;"),
            Ok(Some(vec!["TLE", "RTE"]))
        );
        assert_eq!(
            expected_results("# @EXPECTED_RESULTS@: NO-OUTPUT, WRONG_ANSWER, CORRECT"),
            Ok(Some(vec!["WA", "AC"]))
        );
    }

    #[test]
    fn an_unknown_result_is_named_at_its_place() {
        let why = expected_results("x\n# @EXPECTED_RESULTS@: WRONG-ANSWER, TLE\n").unwrap_err();
        assert!(
            why.starts_with("2:37: @EXPECTED_RESULTS@: `TLE` is not a result"),
            "{why}"
        );
        let why = expected_results("# @EXPECTED_RESULTS@:\n").unwrap_err();
        assert!(
            why.starts_with("1:22: @EXPECTED_RESULTS@: a result is missing"),
            "{why}"
        );
    }
}
