//! The documentation under `docs/` kept true through the real binary: every worked example
//! of problems.md is what `grader solve` prints and what `grader check` accepts; every
//! subcommand, flag and flag value of `--help` is described in its section of cli.md; the
//! JSON examples of cli.md have exactly the fields of real reports; `grader problems
//! PROBLEM` prints problems.md's section; and every pointer to a page of `docs/` (in the
//! README and in `--help`) names a page that exists.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

use predicates::prelude::*;

use testkit::boards::{FLIP_SAMPLE, FLIP_SOLVED};
use testkit::cases::CaseFolder;
use testkit::files::write;
use testkit::grader::{grader, one_error_line};
use testkit::paths::repo;

const PROBLEMS: [&str; 3] = ["flip", "fourinrow", "swap"];

fn page(name: &str) -> String {
    fs::read_to_string(repo().join("docs").join(name)).unwrap()
}

/// A fenced code block of a page: its info string (`text input`), its text (each line
/// with its `\n`), and the `## ` heading it is under.
#[derive(Debug)]
struct Block {
    info: String,
    text: String,
    section: String,
}

fn blocks(page: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut section = String::new();
    let mut open: Option<Block> = None;
    for line in page.lines() {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(info)) => {
                open = Some(Block {
                    info: info.trim().to_owned(),
                    text: String::new(),
                    section: section.clone(),
                });
            }
            (Some(_), Some(_)) => out.extend(open.take()),
            (Some(block), None) => {
                block.text.push_str(line);
                block.text.push('\n');
            }
            (None, None) => {
                if line.starts_with("## ") {
                    line.clone_into(&mut section);
                }
            }
        }
    }
    assert!(open.is_none(), "a code block is never closed");
    out
}

/// The problem a problems.md heading is about: ``## `flip` — ...`` gives `flip`.
fn problem_of(heading: &str) -> Option<&'static str> {
    let id = heading.strip_prefix("## `")?.split('`').next()?;
    PROBLEMS.into_iter().find(|&p| p == id)
}

// ---------------------------------------------------------------- problems.md

#[test]
fn every_example_of_problems_md_is_what_solve_prints_and_check_accepts() {
    let dir = tempfile::tempdir().unwrap();
    let mut checked: BTreeMap<&str, usize> = BTreeMap::new();
    let mut input: Option<(String, std::path::PathBuf)> = None;
    for (n, block) in blocks(&page("problems.md")).iter().enumerate() {
        let Some(label) = block.info.strip_prefix("text ") else {
            continue;
        };
        let problem = problem_of(&block.section)
            .unwrap_or_else(|| panic!("an example outside a problem's section: {block:?}"));
        match label {
            "input" => {
                let path = write(dir.path(), format!("{n}.in"), &block.text);
                input = Some((problem.to_owned(), path));
            }
            "output" | "accepted" => {
                let (of, path) = input.as_ref().expect("an output before any input");
                assert_eq!(of, problem, "an output of {problem} after an input of {of}");
                if label == "output" {
                    grader()
                        .args(["solve", problem])
                        .arg(path)
                        .assert()
                        .success()
                        .stdout(block.text.clone());
                }
                let output = write(dir.path(), format!("{n}.out"), &block.text);
                grader()
                    .args(["check", problem])
                    .args([path, &output])
                    .assert()
                    .success()
                    .stdout("AC\n");
                *checked.entry(problem).or_default() += 1;
            }
            other => panic!("an example labelled `{other}`: expected input, output or accepted"),
        }
    }
    for problem in PROBLEMS {
        assert!(
            checked.get(problem).copied().unwrap_or(0) >= 3,
            "{problem}: fewer than 3 documented examples ({checked:?})"
        );
    }
}

#[test]
fn problems_with_a_problem_prints_its_section_of_problems_md() {
    let doc = page("problems.md");
    for (problem, aliases) in [
        ("flip", &["poj1753"][..]),
        ("fourinrow", &["codevs1004", "wikioi1004"][..]),
        ("swap", &[][..]),
    ] {
        let heading = format!("## `{problem}`");
        let start = doc.find(&heading).unwrap();
        let first_example = blocks(&doc)
            .into_iter()
            .find(|b| problem_of(&b.section) == Some(problem))
            .unwrap();
        let printed = grader()
            .args(["problems", problem])
            .assert()
            .success()
            .stdout(
                predicate::str::starts_with(doc[start..].lines().next().unwrap())
                    .and(predicate::str::contains(first_example.text.clone()))
                    .and(predicate::str::contains("docs/judging.md")),
            )
            .get_output()
            .stdout
            .clone();
        let text = String::from_utf8(printed.clone()).unwrap();
        for other in PROBLEMS.iter().filter(|&&p| p != problem) {
            assert!(
                !text.contains(&format!("## `{other}`")),
                "{problem}: {text}"
            );
        }
        for alias in aliases {
            grader()
                .args(["problems", alias])
                .assert()
                .success()
                .stdout(printed.clone());
        }
    }
    grader()
        .args(["problems", "nope"])
        .assert()
        .code(2)
        .stderr(one_error_line("unknown problem `nope`"));
}

// ---------------------------------------------------------------- cli.md and --help

/// The subcommands a `--help` lists (its `Commands:` block), without `help`.
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| !l.is_empty())
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_owned)
        .collect()
}

/// The long flags a `--help` lists, without `--help` and `--version`, and the possible
/// values it lists for them.
fn flags_and_values(help: &str) -> (BTreeSet<String>, BTreeSet<String>) {
    let mut flags = BTreeSet::new();
    let mut values = BTreeSet::new();
    let mut in_values = false;
    for line in help.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with('-') && !trimmed.starts_with("- ") {
            in_values = false;
            for word in trimmed.split([' ', ',']) {
                if let Some(name) = word.strip_prefix("--")
                    && !["help", "version"].contains(&name)
                {
                    flags.insert(format!("--{name}"));
                }
            }
        } else if trimmed == "Possible values:" {
            in_values = true;
        } else if in_values && let Some(item) = trimmed.strip_prefix("- ") {
            values.insert(item.split(':').next().unwrap().to_owned());
        }
    }
    (flags, values)
}

/// Whether `text` holds `word` as a whole word (`--out` is not in `--output-limit`).
fn mentions(text: &str, word: &str) -> bool {
    let part = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    text.match_indices(word)
        .any(|(at, _)| !text[..at].ends_with(part) && !text[at + word.len()..].starts_with(part))
}

/// The section of cli.md headed ``### `grader COMMAND` ``, up to the next heading.
fn cli_section<'a>(doc: &'a str, command: &str) -> &'a str {
    let heading = format!("### `grader {command}`");
    let start = doc
        .find(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("docs/cli.md has no section `{heading}`"))
        + 1;
    let body = start + heading.len();
    let end = doc[body..]
        .match_indices("\n#")
        .map(|(at, _)| body + at + 1)
        .find(|&at| !inside_code(doc, at))
        .unwrap_or(doc.len());
    &doc[start..end]
}

/// Whether byte `at` of `doc` is inside a fenced code block.
fn inside_code(doc: &str, at: usize) -> bool {
    doc[..at].lines().filter(|l| l.starts_with("```")).count() % 2 == 1
}

fn help_of(command: &[&str]) -> String {
    let output = grader().args(command).arg("--help").assert().success();
    String::from_utf8(output.get_output().stdout.clone()).unwrap()
}

#[test]
fn every_subcommand_flag_and_value_of_help_is_in_its_section_of_cli_md() {
    let doc = page("cli.md");
    let top = help_of(&[]);
    let mut commands: Vec<Vec<String>> = subcommands(&top).into_iter().map(|c| vec![c]).collect();
    let mut seen = 0;
    while let Some(command) = commands.pop() {
        let words: Vec<&str> = command.iter().map(String::as_str).collect();
        let help = help_of(&words);
        let nested = subcommands(&help);
        if !nested.is_empty() {
            commands.extend(
                nested
                    .into_iter()
                    .map(|c| [command.clone(), vec![c]].concat()),
            );
            continue;
        }
        let name = words.join(" ");
        let section = cli_section(&doc, &name);
        let (flags, values) = flags_and_values(&help);
        for flag in &flags {
            assert!(
                mentions(section, flag),
                "`grader {name} {flag}` is not described in its section of docs/cli.md"
            );
        }
        for value in &values {
            assert!(
                mentions(section, value),
                "`grader {name}`: the value `{value}` is not in its section of docs/cli.md"
            );
        }
        seen += 1;
    }
    assert!(seen >= 13, "only {seen} commands found in --help");
    for global in ["--help", "--version"] {
        assert!(mentions(&doc, global), "{global} is not in docs/cli.md");
    }
}

#[test]
fn the_help_lists_are_read_as_clap_writes_them() {
    // The parsers above, on a help text of the form clap writes: so that a change of
    // format cannot turn the test above into one that checks nothing.
    let help = "Usage: grader x [OPTIONS]\n\nCommands:\n  regen  Rewrite\n          more\n  help   Print\n\nOptions:\n      --root <ROOT>  The folder [default: cases]\n      --report <REPORT>\n          Possible values:\n          - human: A table\n          - json:  One\n  -h, --help     Print help\n";
    assert_eq!(subcommands(help), ["regen"]);
    let (flags, values) = flags_and_values(help);
    assert_eq!(
        flags.into_iter().collect::<Vec<_>>(),
        ["--report", "--root"]
    );
    assert_eq!(values.into_iter().collect::<Vec<_>>(), ["human", "json"]);
    assert!(mentions("use `--out DIR`", "--out"));
    assert!(!mentions("use `--output-limit`", "--out"));
}

// ---------------------------------------------------------------- JSON fields

/// The fields of `value`, as paths (`cases[].verdict`); the keys of maps keyed by data
/// (`groups`, `boards`: a group or case name) are `*`.
fn fields(value: &serde_json::Value) -> BTreeSet<String> {
    fn walk(value: &serde_json::Value, path: &str, map: bool, out: &mut BTreeSet<String>) {
        match value {
            serde_json::Value::Object(object) => {
                for (key, child) in object {
                    let key = if map { "*" } else { key.as_str() };
                    let path = if path.is_empty() {
                        key.to_owned()
                    } else {
                        format!("{path}.{key}")
                    };
                    out.insert(path.clone());
                    walk(
                        child,
                        &path,
                        ["groups", "boards", "points"].contains(&key),
                        out,
                    );
                }
            }
            serde_json::Value::Array(items) => {
                for item in items {
                    walk(item, &format!("{path}[]"), false, out);
                }
            }
            _ => {}
        }
    }
    let mut out = BTreeSet::new();
    walk(value, "", false, &mut out);
    out
}

/// The example of cli.md in the block marked `json LABEL`.
fn documented(label: &str) -> serde_json::Value {
    let info = format!("json {label}");
    let block = blocks(&page("cli.md"))
        .into_iter()
        .find(|b| b.info == info)
        .unwrap_or_else(|| panic!("docs/cli.md has no block `{info}`"));
    serde_json::from_str(&block.text)
        .unwrap_or_else(|e| panic!("docs/cli.md's `{info}` is not JSON: {e}"))
}

fn assert_same_fields(label: &str, real: &[u8]) {
    let real: serde_json::Value = serde_json::from_slice(real).unwrap();
    let (doc, real) = (fields(&documented(label)), fields(&real));
    let undocumented: Vec<_> = real.difference(&doc).collect();
    let missing: Vec<_> = doc.difference(&real).collect();
    assert!(
        undocumented.is_empty() && missing.is_empty(),
        "{label}: fields of real reports not in docs/cli.md: {undocumented:?}; \
         fields documented but not in a real report: {missing:?}"
    );
}

/// Two flip cases: the sample (answer 4) and a solved board (answer 0), so that a
/// program printing `4` passes one and fails the other.
fn two_cases(dir: &Path) -> std::path::PathBuf {
    let cases = CaseFolder::at(dir.join("cases"));
    cases
        .case("a/01", FLIP_SAMPLE, "4\n")
        .case("b/01", FLIP_SOLVED, "0\n");
    cases.path().to_path_buf()
}

#[test]
fn the_json_of_test_fuzz_and_check_has_exactly_the_documented_fields() {
    let dir = tempfile::tempdir().unwrap();
    let cases = two_cases(dir.path());
    let test = grader()
        .args(["test", "flip", "--cmd", "echo 4", "--report", "json"])
        .args(["--wall-limit", "30", "--jobs", "1", "--cases"])
        .arg(&cases)
        .assert()
        .code(1);
    assert_same_fields("test-report", &test.get_output().stdout);

    let fuzz = grader()
        .args(["fuzz", "flip", "--cmd", "echo 4", "--report", "json"])
        .args(["--seed", "1", "--runs", "20", "--no-regressions"])
        .args(["--wall-limit", "30", "--jobs", "1"])
        .assert()
        .code(1);
    assert_same_fields("fuzz-report", &fuzz.get_output().stdout);

    let input = write(dir.path(), "in", FLIP_SAMPLE);
    let output = write(dir.path(), "out", "3\n");
    let check = grader()
        .args(["check", "flip", "--report", "json"])
        .args([&input, &output])
        .assert()
        .code(1);
    assert_same_fields("check-report", &check.get_output().stdout);
}

#[test]
fn the_gradebook_has_exactly_the_documented_fields() {
    let dir = tempfile::tempdir().unwrap();
    let cases = two_cases(dir.path());
    let class = dir.path().join("class");
    // A student who fails one case and writes to stderr (so `output` and `stderr` are
    // there), and a file that is no submission (so `skipped` has an entry).
    write(
        &class,
        "section-a/bob.py",
        "import sys\nsys.stderr.write('debug\\n')\nprint(4)\n",
    );
    write(&class, "notes.txt", "not a submission\n");
    let out = dir.path().join("gradebook");
    let batch = grader()
        .args(["batch", "flip"])
        .arg(&class)
        .args([
            "--report",
            "json",
            "--wall-limit",
            "30",
            "--jobs",
            "1",
            "--points",
            "a=10",
            "--cases",
        ])
        .arg(&cases)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(1);
    assert_same_fields("gradebook", &batch.get_output().stdout);
    assert_same_fields("gradebook", &fs::read(out.join("gradebook.json")).unwrap());
}

// ---------------------------------------------------------------- pointers

/// Every `docs/NAME.md` named in `text` (and, from the README, every `](docs/...)` link).
fn pointed_pages(text: &str) -> BTreeSet<String> {
    text.match_indices("docs/")
        .filter_map(|(at, _)| {
            let rest = &text[at + "docs/".len()..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '-'))?;
            let name = rest[..end].trim_end_matches('.');
            Path::new(name)
                .extension()
                .is_some_and(|e| e == "md")
                .then(|| name.to_owned())
        })
        .collect()
}

#[test]
fn the_readme_and_the_help_point_to_pages_of_docs_that_exist() {
    let readme = fs::read_to_string(repo().join("README.md")).unwrap();
    let help = help_of(&[]);
    assert!(
        !readme.contains("shared/spec"),
        "the README points outside the repository"
    );
    for (what, text) in [("README.md", &readme), ("grader --help", &help)] {
        let pages = pointed_pages(text);
        for needed in ["cli.md", "judging.md", "problems.md"] {
            assert!(
                pages.contains(needed),
                "{what} does not point to docs/{needed}"
            );
        }
        for name in &pages {
            assert!(
                repo().join("docs").join(name).is_file(),
                "{what} points to docs/{name}, which does not exist"
            );
        }
    }
}

#[test]
fn every_entry_of_the_language_table_has_its_row_in_cli_md() {
    let table = fs::read_to_string(repo().join("grader/src/submission/languages.toml")).unwrap();
    let names: Vec<&str> = table
        .lines()
        .filter_map(|l| l.strip_prefix('[')?.strip_suffix(']'))
        .collect();
    assert!(names.len() >= 10, "{names:?}");
    let doc = page("cli.md");
    for name in names {
        assert!(
            doc.contains(&format!("\n| `{name}` |")),
            "docs/cli.md has no row for the language `{name}`"
        );
    }
}
