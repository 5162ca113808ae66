//! A package whose input validator is a checktestdata script (`input_validators/*.ctd`),
//! run by PyPI's `checktestdata` (`pyctd`) in the box: its verdicts on scripts and inputs
//! of this file, each covering a feature of the language (INT, FLOAT, STRING, REGEX,
//! SPACE, NEWLINE, EOF, REP, REPI, WHILE, IF, MATCH, ISEOF, variables and arrays,
//! UNIQUE, INARRAY, ASSERT), are the ones DOMjudge's reference implementation gives
//! (checked against its own tests, `tests/test_*` of github.com/DOMjudge/checktestdata:
//! pyctd agrees with all 161 of their expectations); a script that does not parse or
//! fails as it runs is the package's fault (exit 2), never an invalid input; and
//! `verify`, `cases check` and `test` use it.

use std::path::{Path, PathBuf};

use predicates::prelude::*;

use testkit::files::write;
use testkit::grader::{grader, one_error_line};
use testkit::tools::skip;

/// Whether `pyctd` is on this machine's `PATH`; else [`skip`] naming its PyPI package.
fn has_pyctd(test: &str) -> bool {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path).any(|dir| dir.join("pyctd").is_file())
        || skip(&format!(
            "{test}: needs `pyctd` (PyPI package `checktestdata`: pip install checktestdata)"
        ))
}

/// A package at `dir/NAME` whose data is `inputs` (`data/secret/01.in`, ... in order,
/// each with an answer) and whose one input validator is the checktestdata `script`.
fn package(dir: &Path, name: &str, script: &str, inputs: &[&str]) -> PathBuf {
    let package = dir.join(name);
    write(&package, "problem.yaml", format!("name: {name}\n"));
    write(&package, "input_validators/check.ctd", script);
    for (n, input) in inputs.iter().enumerate() {
        write(&package, format!("data/secret/{:02}.in", n + 1), input);
        write(&package, format!("data/secret/{:02}.ans", n + 1), "0\n");
    }
    package
}

/// `grader cases check PKG`: its exit status, standard output and standard error.
fn cases_check(package: &Path) -> (i32, String, String) {
    let output = grader()
        .args(["cases", "check"])
        .arg(package)
        .timeout(std::time::Duration::from_mins(3))
        .output()
        .unwrap();
    (
        output.status.code().unwrap(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

/// A script's name, its text, and its inputs, each with whether it is valid.
type Script = (&'static str, &'static str, &'static [(&'static str, bool)]);

/// The scripts, and each input with whether the reference finds it valid. Each invalid
/// input is wrong in one way only, named beside it, with the reference test that shows
/// the rule.
const SCRIPTS: &[Script] = &[
    (
        "ints",
        "# n distinct numbers on one line\n\
         INT(1,5,n) NEWLINE\n\
         REPI(i,n,SPACE) INT(-9,9,x[i]) END NEWLINE\n\
         ASSERT(UNIQUE(x))\n\
         EOF\n",
        &[
            ("3\n1 -2 3\n", true),
            ("1\n9\n", true),
            ("3\n1 -2 1\n", false),   // not unique (test_18)
            ("3\n1  -2 3\n", false),  // two spaces (test_07)
            ("3\n1 -2 3", false),     // no last newline (test_07)
            ("3\n1 -2 3\n\n", false), // a line after the end (test_07)
            ("0\n\n", false),         // out of range (test_16)
            ("3\n01 2 3\n", false),   // a leading zero (libchecktestdata.cc)
            ("3\n-0 1 2\n", false),   // -0 (libchecktestdata.cc)
            ("2\n1 10\n", false),     // out of range (test_16)
            ("2\n1 2 \n", false),     // a space at the line's end (test_07)
            (" 2\n1 2\n", false),     // a space at the start (test_07)
            ("2\r\n1 2\r\n", false),  // a carriage return
        ],
    ),
    (
        "floats",
        "FLOAT(-1,1,x) SPACE FLOAT(0,100,y,FIXED) NEWLINE\n\
         ASSERT(x < y)\n",
        &[
            ("0 1\n", true),
            ("1.0 2.5\n", true),
            ("0.1e0 0.2\n", true), // scientific where not FIXED (test_31)
            ("-0.5 0\n", true),
            ("-1 0\n", true),
            ("01.0 2\n", false),  // a leading zero (test_31)
            ("00 1\n", false),    // a leading zero (test_31)
            (".5 1\n", false),    // no digit before the dot (test_31)
            ("1.5 2\n", false),   // out of range (test_08)
            ("0 1e1\n", false),   // scientific where FIXED (test_08)
            ("0.5 0.5\n", false), // the ASSERT (test_permutation)
            ("e0 1\n", false),    // no digit (test_31)
        ],
    ),
    (
        "words",
        "WHILE(!ISEOF)\n\
         \x20 IF(MATCH(\"#\"))\n\
         \x20   STRING(\"#\") REGEX(\"[a-z]+\") NEWLINE\n\
         \x20 ELSE\n\
         \x20   REGEX(\"[A-Z][0-9]{2}\") SPACE INT(0,99) NEWLINE\n\
         \x20 END\n\
         END\n",
        &[
            ("#abc\nA12 5\n", true),
            ("", true), // WHILE(!ISEOF) runs no time (test_07)
            ("Z00 99\n#q\n", true),
            ("#ABC\n", false),   // not the REGEX (test_21)
            ("A1 5\n", false),   // not the REGEX (test_14)
            ("#abc \n", false),  // a space after the REGEX's match (test_21)
            ("a12 5\n", false),  // not the REGEX (test_02)
            ("#\n", false),      // + wants one (test_21)
            ("A123 5\n", false), // the REGEX matched, then no SPACE (test_21)
        ],
    ),
    (
        "arrays",
        "INT(1,10,n) SPACE INT(0,100,k) NEWLINE\n\
         REPI(i,n,SPACE) INT(0,100,a[i]) END NEWLINE\n\
         ASSERT(INARRAY(k,a))\n\
         REP(n) INT(1,n*10) NEWLINE END\n",
        &[
            ("2 7\n7 8\n20\n1\n", true),
            ("1 0\n0\n10\n", true),
            ("2 9\n7 8\n1\n1\n", false),  // k not in the array (test_22)
            ("2 7\n7 8\n21\n1\n", false), // over the bound the expression gives (test_16)
            ("2 7\n7 8\n20\n", false),    // a line short: the script ends at EOF (test_07)
        ],
    ),
];

#[test]
fn checktestdata_scripts_find_valid_and_invalid_what_the_reference_does() {
    if !has_pyctd("checktestdata_scripts_find_valid_and_invalid_what_the_reference_does") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (name, script, inputs) in SCRIPTS {
        let texts: Vec<&str> = inputs.iter().map(|(text, _)| *text).collect();
        let package = package(dir.path(), name, script, &texts);
        let (code, stdout, stderr) = cases_check(&package);
        let refused: Vec<String> = stdout
            .lines()
            .filter_map(|l| l.trim().strip_prefix("data/secret/"))
            .filter_map(|l| l.split_once(".in: rejected by input_validators/check.ctd"))
            .map(|(case, _)| case.to_owned())
            .collect();
        let expected: Vec<String> = inputs
            .iter()
            .enumerate()
            .filter(|(_, (_, valid))| !valid)
            .map(|(n, _)| format!("{:02}", n + 1))
            .collect();
        assert_eq!(refused, expected, "{name}:\n{stdout}{stderr}");
        assert_eq!(code, 1, "{name}:\n{stdout}{stderr}");
        assert!(
            stdout.contains("data: input_validators/check.ctd on every input:"),
            "{name}:\n{stdout}"
        );
    }
}

#[test]
fn a_checktestdata_script_that_fails_is_the_packages_fault_never_an_invalid_input() {
    if !has_pyctd("a_checktestdata_script_that_fails_is_the_packages_fault_never_an_invalid_input")
    {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (name, script, said) in [
        // Does not parse (test_01_prog.err1's kind).
        ("unclosed", "INT(0,5 SPACE\n", "unexpected token at 1:9"),
        // A variable read before it is set (test_26_prog.err1's kind).
        (
            "unset",
            "INT(0,5,x) NEWLINE ASSERT(y==1)\n",
            "y is not assigned",
        ),
        // A string without its quotes.
        ("unquoted", "STRING(abc)\n", ""),
    ] {
        let package = package(dir.path(), name, script, &["1\n"]);
        let (code, stdout, stderr) = cases_check(&package);
        assert_eq!(code, 2, "{name}:\n{stdout}{stderr}");
        assert!(
            one_error_line(format!(
                "input_validators/check.ctd: the checktestdata script failed on secret/01 \
                 (exit status 2, not 0 for valid nor 1 for invalid, saying `{said}"
            ))
            .eval(&stderr),
            "{name}:\n{stderr}"
        );
        assert!(stderr.contains("the package's fault"), "{stderr}");
    }
}

/// A package of its own whose data is validated by a checktestdata script alone: `verify`
/// runs it on every input first, and a submission on it.
#[test]
fn verify_and_test_check_a_packages_data_by_its_checktestdata_script_alone() {
    if !has_pyctd("verify_and_test_check_a_packages_data_by_its_checktestdata_script_alone") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let script = "INT(1,1000,a) SPACE INT(1,1000,b) NEWLINE\n";
    let package = package(dir.path(), "add", script, &["1 2\n", "30 4\n"]);
    write(&package, "data/secret/01.ans", "3\n");
    write(&package, "data/secret/02.ans", "34\n");
    let sum = "a, b = map(int, input().split())\nprint(a + b)\n";
    write(&package, "submissions/accepted/sum.py", sum);
    write(
        &package,
        "submissions/wrong_answer/product.py",
        "a, b = map(int, input().split())\nprint(a * b)\n",
    );
    let verify = |package: &Path| testkit::packages::verify(package, &[]);
    // An answer validator (2023-07, BAPCtools') may be a script too: it reads the answer.
    write(
        &package,
        "answer_validators/answer.ctd",
        "INT(2,2000) NEWLINE\n",
    );
    // Valid data: the scripts ran, every submission agrees.
    let (code, table, stderr) = verify(&package);
    assert_eq!(code, 0, "{table}{stderr}");
    assert!(
        table.contains(
            "data: input_validators/check.ctd on every input; answer_validators/answer.ctd on \
             every answer: all accepted"
        ),
        "{table}"
    );
    assert!(!table.contains("no validator run"), "{table}");
    assert!(table.contains("every submission got the verdict of its folder"));
    let student = dir.path().join("sum.py");
    std::fs::write(&student, sum).unwrap();
    grader()
        .arg("test")
        .arg(&package)
        .arg(&student)
        .assert()
        .success();

    // An invalid input (0 is below the bound), and its answer: refused and named; exit 1.
    write(&package, "data/secret/03.in", "0 1\n");
    write(&package, "data/secret/03.ans", "1\n");
    let (code, table, stderr) = verify(&package);
    assert_eq!(code, 1, "{table}{stderr}");
    assert!(
        table.contains(
            "every answer: 2 refused\n  \
             data/secret/03.ans: rejected by answer_validators/answer.ctd: "
        ),
        "{table}"
    );
    assert!(
        table.contains("\n  data/secret/03.in: rejected by input_validators/check.ctd: "),
        "{table}"
    );
    // `test` refuses to grade on data its validator refuses.
    grader()
        .arg("test")
        .arg(&package)
        .arg(&student)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("data/secret/03."));

    // A broken script: the package's fault, exit 2, whatever the data.
    write(
        &package,
        "input_validators/check.ctd",
        "INT(1,1000,a SPACE\n",
    );
    let (code, table, stderr) = verify(&package);
    assert_eq!(code, 2, "{table}{stderr}");
    assert!(
        one_error_line("input_validators/check.ctd: the checktestdata script failed on")
            .eval(&stderr),
        "{stderr}"
    );
}

#[test]
fn without_pyctd_a_checktestdata_script_is_not_run_and_says_what_to_install() {
    let dir = tempfile::tempdir().unwrap();
    let package = package(dir.path(), "bare", "INT(1,9) NEWLINE\n", &["1\n"]);
    if Path::new("/usr/bin/pyctd").exists() || Path::new("/bin/pyctd").exists() {
        return;
    }
    // A PATH with no pyctd on it (the system's folders only: no pyenv, no ~/.local).
    let output = grader()
        .args(["cases", "check"])
        .arg(&package)
        .env("PATH", "/usr/bin:/bin")
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        stdout.contains(
            "input_validators/check.ctd: not run: checktestdata's `pyctd` is not installed: \
             install PyPI's `checktestdata` (pip install checktestdata)"
        ),
        "{stdout}"
    );
    // `test` will not grade on data nothing checked.
    let student = dir.path().join("one.py");
    std::fs::write(&student, "print(0)\n").unwrap();
    grader()
        .arg("test")
        .arg(&package)
        .arg(&student)
        .env("PATH", "/usr/bin:/bin")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "no input validator of the package could run",
        ));
}
