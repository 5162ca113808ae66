//! End-to-end tests of POJ-era code: Flip Game solutions as POJ's old compilers accepted
//! them (a global `hash` or `next` beside `using namespace std`; `memset`, `printf`,
//! `strlen` and `INT_MAX` without their headers; C with a recursive `inline` function) get
//! `AC` under `--lang poj`, and without it a `CE` whose every report names the first error
//! line and suggests the profile; in `batch`, `--lang-for` chooses the profile for one
//! student without forcing it on the class.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

use testkit::gradebook::student;
use testkit::grader::one_error_line;
use testkit::paths::{fixture, repo, two_cases};
use testkit::scene::Scene;

/// Generous: compiles on a loaded machine.
const TIMEOUT: Duration = Duration::from_mins(5);

/// The POJ-era fixtures, what each needs the profile for, and the language `--lang poj`
/// picks for it.
const POJ_ERA: [(&str, &str, &str); 4] = [
    ("poj_hash.cpp", "`hash` is ambiguous", "poj"),
    ("poj_next.cpp", "`next` is ambiguous", "poj"),
    ("poj_no_headers.cpp", "`strlen` was not declared", "poj"),
    ("poj_inline.c", "`dfs` is undefined", "poj-c"),
];

/// A command with a compile cache and a temporary folder of its own (both go with it).
struct Sandbox {
    scene: Scene,
}

impl Sandbox {
    fn new() -> Sandbox {
        Sandbox {
            scene: Scene::new(TIMEOUT),
        }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.scene.path(rel)
    }

    fn grader(&self) -> Command {
        self.scene.grader()
    }

    /// `grader test flip FIXTURE` on `cases`, with `extra`: stdout and the exit status.
    fn test(&self, name: &str, cases: &Path, extra: &[&str]) -> (String, i32) {
        let output = self
            .grader()
            .args(["test", "flip"])
            .arg(fixture(format!("poj/{name}")))
            .arg("--cases")
            .arg(cases)
            .args(["--wall-limit", "30"])
            .args(extra)
            .output()
            .unwrap();
        (
            String::from_utf8(output.stdout).unwrap(),
            output.status.code().unwrap(),
        )
    }

    fn json(&self, name: &str, cases: &Path, extra: &[&str]) -> Value {
        let (text, _) = self.test(name, cases, &[&["--report", "json"], extra].concat());
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}: {text}"))
    }

    /// Nothing of a run is left in the temporary folder.
    fn assert_no_files_left(&self) {
        self.scene.assert_no_files_left();
    }
}

#[test]
fn poj_era_c_and_cpp_are_accepted_on_every_flip_case_under_the_poj_profile() {
    let sandbox = Sandbox::new();
    let every_case = repo().join("cases/flip");
    for (name, _, language) in POJ_ERA {
        let report = sandbox.json(name, &every_case, &["--lang", "poj"]);
        assert_eq!(report["verdict"], "AC", "{name}: {report:#}");
        assert_eq!(report["language"], language, "{name}");
        assert!(report["total"].as_u64().unwrap() > 60, "{name}: {report:#}");
        assert_eq!(report["passed"], report["total"], "{name}");
        assert_eq!(report["suggestion"], Value::Null, "{name}");
    }
    sandbox.assert_no_files_left();
}

#[test]
fn without_the_profile_each_is_ce_and_every_report_suggests_it_with_the_first_error_line() {
    let sandbox = Sandbox::new();
    for (name, cause, _) in POJ_ERA {
        // JSON: the suggestion as a field of its own.
        let report = sandbox.json(name, &two_cases(), &[]);
        assert_eq!(report["verdict"], "CE", "{name}: {report:#}");
        assert_eq!(report["suggestion"]["lang"], "poj", "{name}: {report:#}");
        let why = report["suggestion"]["why"].as_str().unwrap();
        assert!(why.contains(cause), "{name}: {why}");
        // Human: the advice, and a summary that is the first error, not a context line.
        let (human, status) = sandbox.test(name, &two_cases(), &[]);
        assert_eq!(status, 1, "{name}: {human}");
        assert!(human.contains("\ntry --lang poj ("), "{name}: {human}");
        let last = human.lines().last().unwrap();
        let error = format!("CE 0/2 passed: {name}:");
        assert!(last.starts_with(&error), "{name}: {last}");
        assert!(
            last.contains(": error: ") || last.contains("undefined reference to"),
            "{name}: {last}"
        );
        assert!(!last.contains("In function"), "{name}: {last}");
        // JUnit: the first error as each case's message, the advice in its text.
        let (junit, _) = sandbox.test(name, &two_cases(), &["--report", "junit"]);
        assert!(
            junit.contains(&format!("message=\"compile error: {name}:")),
            "{name}: {junit}"
        );
        assert!(junit.contains("try --lang poj ("), "{name}: {junit}");
    }
    sandbox.assert_no_files_left();
}

#[test]
fn a_ce_the_profile_cannot_mend_suggests_nothing() {
    let sandbox = Sandbox::new();
    let broken = sandbox.path("broken.cpp");
    // POJ-era in style, but a typo: no profile declares `flips`.
    fs::write(
        &broken,
        "#include <iostream>\nusing namespace std;\nint main()\n{\n    cout << flips << endl;\n    return 0;\n}\n",
    )
    .unwrap();
    for extra in [&[][..], &["--lang", "poj"]] {
        let output = sandbox
            .grader()
            .args(["test", "flip"])
            .arg(&broken)
            .arg("--cases")
            .arg(two_cases())
            .args(extra)
            .output()
            .unwrap();
        let human = String::from_utf8(output.stdout).unwrap();
        assert_eq!(output.status.code(), Some(1), "{human}");
        assert!(!human.contains("try --lang"), "{extra:?}: {human}");
        assert!(
            human
                .lines()
                .last()
                .unwrap()
                .starts_with("CE 0/2 passed: broken.cpp:5:"),
            "{extra:?}: {human}"
        );
    }
    // Compiled with the profile already: no advice to use it, whatever the message.
    let table = sandbox.path("old.toml");
    fs::write(
        &table,
        "[poj]\ncompile = [\"g++\", \"-std=gnu++98\", \"-o\", \"{out}\", \"{src}\"]\nrun = [\"{out}\"]\n",
    )
    .unwrap();
    let table = table.to_string_lossy().into_owned();
    let report = sandbox.json(
        "poj_no_headers.cpp",
        &two_cases(),
        &["--lang", "poj", "--config", &table],
    );
    assert_eq!(report["verdict"], "CE", "{report:#}");
    assert_eq!(report["suggestion"], Value::Null, "{report:#}");
    sandbox.assert_no_files_left();
}

/// A class: alice and bob wrote for POJ's g++, carol for its gcc, dave for today's g++.
fn class(sandbox: &Sandbox) {
    let class = testkit::class::Class::at(sandbox.path("class"));
    for (to, from) in [
        ("alice.cpp", "poj/poj_hash.cpp"),
        ("bob.cpp", "poj/poj_no_headers.cpp"),
        ("sec/carol/main.c", "poj/poj_inline.c"),
        ("dave.cpp", "flip/ac_rows.cpp"),
    ] {
        class.copy(to, &fixture(from));
    }
}

#[test]
fn batch_lang_for_compiles_the_students_it_names_with_the_profile_and_the_rest_by_extension() {
    let sandbox = Sandbox::new();
    class(&sandbox);
    let output = sandbox
        .grader()
        .args(["batch", "flip", "class", "--out", "out", "--report", "json"])
        .args(["--lang-for", "alice=poj", "--lang-for", "sec/c*=poj"])
        .arg("--cases")
        .arg(two_cases())
        .args(["--wall-limit", "30"])
        .output()
        .unwrap();
    let progress = String::from_utf8(output.stderr).unwrap();
    let book: Value =
        serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("{e}: {progress}"));
    assert_eq!(output.status.code(), Some(1), "{book:#}");
    for (name, verdict, language) in [
        ("alice", "AC", "poj"),
        ("sec/carol", "AC", "poj-c"),
        ("dave", "AC", "cpp"),
        ("bob", "CE", "cpp"),
    ] {
        let s = student(&book, name);
        assert_eq!(
            (s["verdict"].as_str(), s["language"].as_str()),
            (Some(verdict), Some(language)),
            "{name}: {s:#}"
        );
    }
    // Bob's old code is not forced on anyone, nor anyone's profile on him: his CE says
    // which line failed and how to choose the profile for him alone, in every form.
    let bob = student(&book, "bob");
    assert_eq!(bob["suggestion"]["lang"], "poj", "{bob:#}");
    assert_eq!(student(&book, "dave")["suggestion"], Value::Null);
    let first_error = "bob.cpp:15:13: error: ";
    let advice = "try --lang-for 'bob=poj' (`strlen` was not declared";
    let bob_line = progress
        .lines()
        .find(|l| l.contains("] bob: "))
        .unwrap_or_else(|| panic!("{progress}"));
    assert!(
        bob_line.contains(&format!("bob: did not compile: {first_error}")),
        "{bob_line}"
    );
    let csv = fs::read_to_string(sandbox.path("out/gradebook.csv")).unwrap();
    assert!(
        csv.lines()
            .next()
            .unwrap()
            .contains(",compiled,suggested_lang"),
        "{csv}"
    );
    assert!(csv.contains("bob,bob.cpp,cpp,0.0,CE,0,2,CE,poj"), "{csv}");
    assert!(
        csv.contains("alice,alice.cpp,poj,100.0,AC,2,2,yes,"),
        "{csv}"
    );
    let xml = fs::read_to_string(sandbox.path("out/gradebook.xml")).unwrap();
    assert!(xml.contains(&format!("message=\"{first_error}")), "{xml}");
    assert!(xml.contains(&advice.replace('\'', "&apos;")), "{xml}");
    let html = fs::read_to_string(sandbox.path("out/gradebook.html")).unwrap();
    assert!(html.contains(advice), "{html}");
    assert!(html.contains(&format!("</span>: {first_error}")), "{html}");
    let json = fs::read_to_string(sandbox.path("out/gradebook.json")).unwrap();
    assert_eq!(serde_json::from_str::<Value>(&json).unwrap(), book);
    // The human summary: bob's first error and the advice on his line.
    let human = sandbox
        .grader()
        .args(["batch", "flip", "class", "--out", "out2"])
        .args(["--lang-for", "alice=poj", "--lang-for", "sec/c*=poj"])
        .arg("--cases")
        .arg(two_cases())
        .args(["--wall-limit", "30"])
        .output()
        .unwrap();
    let human = String::from_utf8(human.stdout).unwrap();
    let line = human
        .lines()
        .find(|l| l.contains(" bob "))
        .unwrap_or_else(|| panic!("{human}"));
    assert!(
        line.contains(first_error) && line.contains(advice),
        "{line}"
    );
}

#[test]
fn lang_for_wrong_calls_are_one_line_and_a_rule_for_nobody_warns() {
    let sandbox = Sandbox::new();
    class(&sandbox);
    for (value, says) in [
        ("alice", "expected PATTERN=NAME"),
        ("alice=", "expected PATTERN=NAME"),
        ("[a=poj", "[a=poj"),
        (
            "alice=intercal",
            "--lang-for 'alice=intercal': unknown language (known: c, ",
        ),
    ] {
        sandbox
            .grader()
            .args([
                "batch",
                "flip",
                "class",
                "--out",
                "out",
                "--lang-for",
                value,
            ])
            .arg("--cases")
            .arg(two_cases())
            .assert()
            .code(2)
            .stdout("")
            .stderr(one_error_line(says));
    }
    assert!(!sandbox.path("out").exists(), "a wrong call graded nobody");
    sandbox
        .grader()
        .args(["batch", "flip", "class", "--out", "out", "--report", "csv"])
        .args(["--lang-for", "alice=poj", "--lang-for", "zed=poj"])
        .arg("--cases")
        .arg(two_cases())
        .args(["--wall-limit", "30"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "grader: warning: --lang-for 'zed=poj' matches no student",
        ))
        .stdout(predicate::str::contains("alice,alice.cpp,poj,100.0,AC"));
    sandbox
        .grader()
        .args(["batch", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("--lang-for <PATTERN=NAME>"));
    sandbox
        .grader()
        .args(["test", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("`poj` for POJ-era C and C++"));
}

#[test]
fn fuzz_suggests_the_profile_too_and_finds_no_difference_under_it() {
    let sandbox = Sandbox::new();
    let fuzz = |extra: &[&str]| {
        let output = sandbox
            .grader()
            .args(["fuzz", "flip"])
            .arg(fixture("poj/poj_next.cpp"))
            .args(["--seed", "7", "--no-regressions", "--wall-limit", "30"])
            .args(extra)
            .output()
            .unwrap();
        (
            String::from_utf8(output.stdout).unwrap(),
            output.status.code().unwrap(),
        )
    };
    let (human, status) = fuzz(&["--runs", "1"]);
    assert_eq!(status, 1, "{human}");
    assert!(human.contains("\ntry --lang poj ("), "{human}");
    assert!(
        human.contains("CE the submission did not compile: poj_next.cpp:16:22: error: "),
        "{human}"
    );
    let (json, _) = fuzz(&["--runs", "1", "--report", "json"]);
    let report: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(report["suggestion"]["lang"], "poj", "{report:#}");
    let (junit, _) = fuzz(&["--runs", "1", "--report", "junit"]);
    assert!(
        junit.contains("message=\"compile error: poj_next.cpp:16:22: error: "),
        "{junit}"
    );
    let (human, status) = fuzz(&["--runs", "200", "--lang", "poj"]);
    assert_eq!(status, 0, "{human}");
    sandbox.assert_no_files_left();
}
