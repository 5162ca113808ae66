//! `grader package export`: the built-in problems written as Kattis/ICPC problem packages.
//! The packages are read back as their own tools read them: the exported validators run
//! as programs (and agree with `grader validate` and `grader check`), and problemtools'
//! `verifyproblem` (from PyPI; `.ci/run` installs it) accepts each package with no error.

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command as Process, Output, Stdio};

use predicates::prelude::*;

use testkit::files::{self, write};
use testkit::grader::{grader, one_error_line};
use testkit::paths::repo;
use testkit::tools::skip;

const PROBLEMS: [&str; 3] = ["flip", "fourinrow", "swap"];

/// Exports `problem` into `dir/problem` and returns the package's folder.
fn export(dir: &Path, problem: &str) -> PathBuf {
    let out = dir.join(problem);
    grader()
        .args(["package", "export", problem, "--out"])
        .arg(&out)
        .assert()
        .success()
        .stdout("")
        .stderr(predicate::str::contains(format!(
            "wrote the {problem} package to "
        )));
    out
}

/// Every file below `dir`, by its path inside it, sorted.
fn files_below(dir: &Path) -> Vec<String> {
    files::files_below(dir)
        .iter()
        .map(|p| p.strip_prefix(dir).unwrap().to_string_lossy().into_owned())
        .collect()
}

/// Runs `program` (a Python file of a package) with `args`, `stdin` on its standard input.
fn python(program: &Path, args: &[&Path], stdin: &[u8]) -> Output {
    let mut child = Process::new("python3")
        .arg(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A validator may exit before reading all of its input: a broken pipe is no failure.
    let _ = std::io::Write::write_all(&mut child.stdin.take().unwrap(), stdin);
    child.wait_with_output().unwrap()
}

#[test]
fn package_export_writes_the_cases_programs_statement_and_metadata() {
    let dir = tempfile::tempdir().unwrap();
    for problem in PROBLEMS {
        let package = export(dir.path(), problem);
        let files = files_below(&package);
        // Every case of the shipped folder, in its group, byte for byte.
        let cases = repo().join("cases").join(problem).join("data");
        for case in files_below(&cases) {
            assert_eq!(
                fs::read(package.join("data").join(&case)).unwrap(),
                fs::read(cases.join(&case)).unwrap(),
                "{problem}: data/{case}"
            );
        }
        let data = files.iter().filter(|f| f.starts_with("data/")).count();
        assert_eq!(data, files_below(&cases).len(), "{problem}: extra data");
        let yaml = fs::read_to_string(package.join("problem.yaml")).unwrap();
        assert!(yaml.contains("\nlimits:\n  memory: 256\n"), "{yaml}");
        assert_eq!(yaml.contains("validation: custom"), problem == "swap");
        let tex = fs::read_to_string(package.join("problem_statement/problem.en.tex")).unwrap();
        assert!(tex.starts_with("\\problemname{"), "{tex}");
        assert!(tex.contains("\\section*{Input}") && tex.contains("\\section*{Output}"));
        assert!(
            !tex.contains("```"),
            "an example leaked into the statement: {tex}"
        );
        assert!(files.contains(&format!("input_validators/{problem}_input.py")));
        assert_eq!(
            files.iter().any(|f| f.starts_with("output_validators/")),
            problem == "swap"
        );
        let accepted: Vec<_> = files
            .iter()
            .filter(|f| f.starts_with("submissions/accepted/ac_"))
            .collect();
        let wrong: Vec<_> = files
            .iter()
            .filter(|f| f.starts_with("submissions/wrong_answer/wa_"))
            .collect();
        assert_eq!((accepted.len(), wrong.len()), (1, 1), "{files:?}");
    }
    // Nothing beside the packages: the staging folders are gone.
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 3);
}

#[test]
fn package_export_checks_its_folder_first_and_force_replaces_only_a_package() {
    let dir = tempfile::tempdir().unwrap();
    let mine = dir.path().join("mine");
    write(&mine, "notes.txt", "keep");
    let call = |out: &Path, force: bool| {
        let mut cmd = grader();
        cmd.args(["package", "export", "flip", "--out"]).arg(out);
        if force {
            cmd.arg("--force");
        }
        cmd.assert()
    };
    call(&mine, false)
        .code(2)
        .stderr(one_error_line("mine: exists and is not empty (use --force"));
    call(&mine, true).code(2).stderr(one_error_line(
        "mine: is not a problem package (no problem.yaml)",
    ));
    assert_eq!(files_below(&mine), ["notes.txt"]);

    let file = write(dir.path(), "file.txt", "x");
    call(&file, false).code(2).stderr(one_error_line(
        "file.txt: cannot write into: is a file, not a folder",
    ));
    call(&dir.path().join("no/such/parent"), false)
        .code(2)
        .stderr(one_error_line("no/such/parent: "));

    let package = export(dir.path(), "swap");
    write(&package, "stale.txt", "from an older export");
    call(&package, false)
        .code(2)
        .stderr(one_error_line("use --force"));
    call(&package, true).success();
    let files = files_below(&package);
    assert!(!files.contains(&"stale.txt".to_owned()), "{files:?}");
    assert!(files.contains(&"input_validators/flip_input.py".to_owned()));
    assert_eq!(
        fs::read_dir(dir.path()).unwrap().count(),
        3,
        "left-overs beside"
    );

    grader()
        .args(["package", "export", "chess", "--out"])
        .arg(dir.path().join("chess"))
        .assert()
        .code(2)
        .stderr(one_error_line("unknown problem `chess`"));
}

/// Inputs the format forbids, each with the problem it is an input of.
const MALFORMED: [(&str, &str); 12] = [
    ("flip", ""),
    ("flip", "bwwb\nbbwb\nbwwb\nbwww"),
    ("flip", "bwwb\r\nbbwb\r\nbwwb\r\nbwww\r\n"),
    ("flip", "bwwb\nbbwb\nbwwb\nbwww\n\n"),
    ("flip", "bwwb\nbbxb\nbwwb\nbwww\n"),
    ("flip", "bwwb \nbbwb\nbwwb\nbwww\n"),
    ("fourinrow", "BWBO\nWBWB\nBWBW\nWBWB\n"),
    ("fourinrow", "BWBO\nWBWB\nBWBW\nWBW\n"),
    ("swap", "WWWOBBBO\n"),
    ("swap", "WWWWWWWWWWWOB\n"),
    ("swap", "WOBBBBBBBBBBBBBBBBBBB\n"),
    ("swap", "WOB"),
];

#[test]
fn the_exported_input_validators_accept_every_case_and_refuse_what_validate_refuses() {
    let dir = tempfile::tempdir().unwrap();
    for problem in PROBLEMS {
        let package = export(dir.path(), problem);
        let validator = package.join(format!("input_validators/{problem}_input.py"));
        for case in files_below(&package.join("data")) {
            if Path::new(&case).extension().is_some_and(|x| x == "in") {
                let input = fs::read(package.join("data").join(&case)).unwrap();
                let ran = python(&validator, &[], &input);
                assert_eq!(ran.status.code(), Some(42), "{problem}: {case}: {ran:?}");
            }
        }
    }
    for (problem, input) in MALFORMED {
        let validator = dir
            .path()
            .join(problem)
            .join(format!("input_validators/{problem}_input.py"));
        let ran = python(&validator, &[], input.as_bytes());
        assert_eq!(ran.status.code(), Some(43), "{problem}: {input:?}: {ran:?}");
        assert!(
            !ran.stderr.is_empty(),
            "{problem}: {input:?}: no reason given"
        );
        let file = write(dir.path(), "malformed.in", input);
        grader()
            .args(["validate", problem])
            .arg(&file)
            .assert()
            .code(1);
    }
}

/// swap outputs for the input `WOB` (answer 3), each with whether it is correct.
const SWAP_OUTPUTS: [(&str, bool); 9] = [
    ("3\nOWB\nBWO\nBOW\n", true),
    ("3\nWBO\nOBW\nBOW\n", true),
    ("3\r\nOWB \nBWO\t\nBOW\n\n\n", true),
    ("3\nOWB\nOBW\nBOW\n", false),
    ("3 OWB BWO BOW\n", false),
    ("5\nOWB\nBWO\nBOW\n", false),
    ("3\nOWB\nBWO\nBOW\nBOW\n", false),
    ("3\nOWB\nBWO\n", false),
    ("Impossible\n", false),
];

#[test]
fn the_exported_swap_checker_judges_as_grader_check_does() {
    let dir = tempfile::tempdir().unwrap();
    let package = export(dir.path(), "swap");
    let checker = package.join("output_validators/swap_checker/swap_output.py");
    let feedback = dir.path().join("feedback");
    fs::create_dir(&feedback).unwrap();
    // Every answer of the package is accepted as an output.
    for case in files_below(&package.join("data")) {
        if let Some(name) = case.strip_suffix(".in") {
            let input = package.join("data").join(&case);
            let answer = package.join("data").join(format!("{name}.ans"));
            let ran = python(
                &checker,
                &[&input, &answer, &feedback],
                &fs::read(&answer).unwrap(),
            );
            assert_eq!(ran.status.code(), Some(42), "{case}: {ran:?}");
        }
    }
    let input = write(dir.path(), "wob.in", "WOB\n");
    let answer = write(dir.path(), "wob.ans", "3\nOWB\nBWO\nBOW\n");
    for (output, correct) in SWAP_OUTPUTS {
        let ran = python(&checker, &[&input, &answer, &feedback], output.as_bytes());
        let said = fs::read_to_string(feedback.join("judgemessage.txt")).unwrap();
        assert_eq!(
            ran.status.code(),
            Some(if correct { 42 } else { 43 }),
            "{output:?}: {said}"
        );
        assert!(correct || said.starts_with("line "), "{output:?}: {said}");
        let out = write(dir.path(), "wob.out", output);
        let check = grader()
            .args(["check", "swap"])
            .arg(&input)
            .arg(&out)
            .output()
            .unwrap();
        assert_eq!(
            check.status.success(),
            correct,
            "grader check on {output:?}"
        );
    }
    let impossible = write(dir.path(), "imp.in", "WBBO\n");
    let none = write(dir.path(), "imp.ans", "Impossible\n");
    for (output, code) in [("Impossible\n", 42), ("impossible\n", 43), ("0\n", 43)] {
        let ran = python(
            &checker,
            &[&impossible, &none, &feedback],
            output.as_bytes(),
        );
        assert_eq!(ran.status.code(), Some(code), "{output:?}");
    }
}

/// Whether this machine has `command` from the PyPI package `package`. As `has_tools`
/// (testkit's `tools`) does for Debian's packages: missing, the test fails under CI
/// (`.ci/run` installs it) and is skipped elsewhere with a line naming the package.
fn has_pypi_tool(test: &str, command: &str, package: &str) -> bool {
    if Process::new(command)
        .arg("--help")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
    {
        return true;
    }
    skip(&format!(
        "{test}: needs `{command}` (PyPI package `{package}`)"
    ))
}

/// `verifyproblem PACKAGE -p PARTS...`: its output, and the lines that are errors.
fn verifyproblem(package: &Path, parts: &[&str]) -> (String, Vec<String>) {
    let output = Process::new("verifyproblem")
        .arg(package)
        .arg("-p")
        .args(parts)
        .current_dir(package.parent().unwrap())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    let errors = text
        .lines()
        .filter(|l| l.starts_with("ERROR"))
        .map(str::to_owned)
        .collect();
    (text, errors)
}

#[test]
fn verifyproblem_accepts_every_exported_package_with_no_error() {
    if !has_pypi_tool("the verifyproblem test", "verifyproblem", "problemtools") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for problem in PROBLEMS {
        let package = export(dir.path(), problem);
        // Everything but the statement: the metadata, every case through the input
        // validator, the output validator, and every submission getting its folder's
        // verdict. No error and no warning.
        let (text, errors) =
            verifyproblem(&package, &["config", "data", "validators", "submissions"]);
        assert!(errors.is_empty(), "{problem}: {errors:?}\n{text}");
        assert!(
            text.contains(&format!("{problem} tested: 0 errors, 0 warnings")),
            "{problem}:\n{text}"
        );
        // The statement on its own (its rendering failing for want of LaTeX leaves
        // verifyproblem in a removed folder, and every later compile fails with it).
        // The machine's fault, tolerated only when `lualatex` is missing, and only as
        // the two errors that say the statement could not be rendered (PDF, HTML).
        let (text, errors) = verifyproblem(&package, &["statement"]);
        if has_lualatex() {
            assert!(errors.is_empty(), "{problem}: {errors:?}\n{text}");
        } else {
            let rendering = |e: &String| {
                e.contains("checking problem statement for language en")
                    || e.contains("convert problem statement to html for language \"en\"")
            };
            assert!(
                errors.iter().all(rendering),
                "{problem}: {errors:?}\n{text}"
            );
            assert!(text.contains("'lualatex'"), "{problem}:\n{text}");
        }
    }
}

/// Whether LaTeX, as problemtools renders statements with it, is on this machine.
fn has_lualatex() -> bool {
    let found = Process::new("lualatex")
        .arg("--version")
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !found {
        let _ = writeln!(
            std::io::stderr().lock(),
            "note: no `lualatex` (Debian package `texlive-luatex`): exported statements \
             are checked by problemtools' verifyproblem without being rendered"
        );
    }
    found
}
