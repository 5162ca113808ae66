//! `grader test --report gradescope`: Gradescope's autograder `results.json`, checked
//! against the fields, types and values its documentation allows
//! (<https://gradescope-autograders.readthedocs.io/en/latest/specs/>); points per group;
//! the visibility of secret cases; a compile error; and the README's `run_autograder`
//! script, run as written with its paths moved into a temporary folder.

use std::fs;
use std::path::Path;

use serde_json::Value;

use testkit::boards::{FLIP_SAMPLE, FLIP_SOLVED};
use testkit::cases::CaseFolder;
use testkit::files::write;
use testkit::grader::{grader, grader_path, one_error_line};
use testkit::paths::repo;

/// The top-level fields Gradescope's format documents.
const TOP: [&str; 11] = [
    "score",
    "execution_time",
    "output",
    "output_format",
    "test_output_format",
    "test_name_format",
    "visibility",
    "stdout_visibility",
    "extra_data",
    "tests",
    "leaderboard",
];

/// The fields of a test Gradescope's format documents.
const TEST: [&str; 11] = [
    "score",
    "max_score",
    "status",
    "name",
    "name_format",
    "number",
    "output",
    "output_format",
    "tags",
    "visibility",
    "extra_data",
];

/// The visibilities Gradescope knows.
const VISIBILITIES: [&str; 4] = ["hidden", "after_due_date", "after_published", "visible"];

/// Checks `results` against Gradescope's documented format (and what this grader always
/// writes: a score, and a test per case); the tests.
fn documented(results: &Value) -> &Vec<Value> {
    let top = results.as_object().expect("an object");
    for key in top.keys() {
        assert!(TOP.contains(&key.as_str()), "undocumented field {key}");
    }
    assert!(results["score"].is_number(), "{results}");
    assert!(results["output"].is_string(), "{results}");
    for field in ["visibility", "stdout_visibility"] {
        let value = results[field].as_str().unwrap();
        assert!(VISIBILITIES.contains(&value), "{field}: {value}");
    }
    let tests = results["tests"].as_array().expect("tests");
    let mut sum = 0.0;
    for test in tests {
        for key in test.as_object().expect("a test").keys() {
            assert!(
                TEST.contains(&key.as_str()),
                "undocumented test field {key}"
            );
        }
        let score = test["score"].as_f64().expect("score");
        let max = test["max_score"].as_f64().expect("max_score");
        assert!((0.0..=max).contains(&score), "{test}");
        sum += score;
        assert!(
            test["name"].is_string() && test["output"].is_string(),
            "{test}"
        );
        let status = test["status"].as_str().unwrap();
        assert!(["passed", "failed"].contains(&status), "{test}");
        let visibility = test["visibility"].as_str().unwrap();
        assert!(VISIBILITIES.contains(&visibility), "{test}");
    }
    // The parts sum to the whole, to the cent.
    let score = results["score"].as_f64().unwrap();
    assert!(
        (score - sum).abs() < 1e-9,
        "{score} is not the tests' {sum}"
    );
    tests
}

/// A case folder `cases` in `dir` of `(name, input, answer)`.
fn case_folder(dir: &Path, cases: &[(&str, &str, &str)]) -> std::path::PathBuf {
    let folder = CaseFolder::at(dir.join("cases"));
    for (name, input, answer) in cases {
        folder.case(name, input, answer);
    }
    folder.path().to_path_buf()
}

/// Four flip cases in a sample and two secret groups: a program printing `4` passes the
/// sample and one case of `secret/a`, and fails the other two (solved boards).
fn cases(dir: &Path) -> std::path::PathBuf {
    case_folder(
        dir,
        &[
            ("sample/01", FLIP_SAMPLE, "4\n"),
            ("secret/a/01", FLIP_SAMPLE, "4\n"),
            ("secret/a/02", FLIP_SOLVED, "0\n"),
            ("secret/b/01", FLIP_SOLVED, "0\n"),
        ],
    )
}

fn test_of(cases: &Path, extra: &[&str]) -> (Value, i32) {
    let run = grader()
        .args(["test", "flip", "--cmd", "echo 4", "--report", "gradescope"])
        .args(["--jobs", "1", "--wall-limit", "30", "--cases"])
        .arg(cases)
        .args(extra)
        .output()
        .unwrap();
    let results = serde_json::from_slice(&run.stdout).unwrap_or_else(|e| {
        panic!("{e}: {}", String::from_utf8_lossy(&run.stderr));
    });
    (results, run.status.code().unwrap())
}

#[test]
fn each_case_is_a_test_scored_by_its_groups_points() {
    let dir = tempfile::tempdir().unwrap();
    let cases = cases(dir.path());
    let (results, status) = test_of(
        &cases,
        &["--points", "secret/a=30", "--points", "secret/b=70"],
    );
    assert_eq!(status, 1);
    let tests = documented(&results);
    let by_name = |name: &str| tests.iter().find(|t| t["name"] == name).unwrap();
    assert_eq!(tests.len(), 4);
    // The sample is worth nothing: no points were given for it.
    assert_eq!(by_name("sample/01")["max_score"], 0.0);
    assert_eq!(by_name("secret/a/01")["max_score"], 15.0);
    assert_eq!(by_name("secret/a/01")["score"], 15.0);
    assert_eq!(by_name("secret/a/01")["status"], "passed");
    assert_eq!(by_name("secret/b/01")["max_score"], 70.0);
    assert_eq!(by_name("secret/b/01")["status"], "failed");
    assert_eq!(results["score"], 15.0);
    let failed = by_name("secret/a/02")["output"].as_str().unwrap();
    assert!(
        failed.starts_with("WA: expected `0`, got `4`\nwhy: the board is already solved"),
        "{failed}"
    );
    assert_eq!(by_name("sample/01")["visibility"], "visible");
    assert_eq!(by_name("secret/a/01")["visibility"], "after_published");
    assert!(
        results["output"]
            .as_str()
            .unwrap()
            .contains("15 of 100 points"),
        "{results}"
    );
}

#[test]
fn a_group_in_thirds_sums_to_its_points_and_each_test_is_tagged_with_its_group() {
    let dir = tempfile::tempdir().unwrap();
    let cases = case_folder(
        dir.path(),
        &[
            ("sample/01", FLIP_SAMPLE, "4\n"),
            ("secret/t/01", FLIP_SOLVED, "0\n"),
            ("secret/t/02", FLIP_SAMPLE, "4\n"),
            ("secret/t/03", FLIP_SOLVED, "0\n"),
        ],
    );
    let (results, status) = test_of(&cases, &["--points", "sample=0", "--points", "secret/t=10"]);
    assert_eq!(status, 1);
    let tests = documented(&results);
    let max: f64 = tests.iter().map(|t| t["max_score"].as_f64().unwrap()).sum();
    assert!(
        (max - 10.0).abs() < 1e-9,
        "the tests are worth {max}: {results:#}"
    );
    let worth: Vec<f64> = tests[1..]
        .iter()
        .map(|t| t["max_score"].as_f64().unwrap())
        .collect();
    assert_eq!(worth, [3.34, 3.33, 3.33], "{results:#}");
    // `echo 4` passes the second: the score is its test's.
    assert_eq!(results["score"], 3.33, "{results:#}");
    assert!(
        results["output"]
            .as_str()
            .unwrap()
            .contains("3.33 of 10 points"),
        "{results:#}"
    );
    for test in tests {
        let name = test["name"].as_str().unwrap();
        let group = name.rsplit_once('/').unwrap().0;
        assert_eq!(test["tags"], serde_json::json!([group]), "{test}");
    }
}

#[test]
fn without_points_each_case_is_worth_one_and_the_teacher_picks_the_visibility() {
    let dir = tempfile::tempdir().unwrap();
    let cases = cases(dir.path());
    let (results, _) = test_of(&cases, &["--gradescope-visibility", "hidden"]);
    let tests = documented(&results);
    assert!(tests.iter().all(|t| t["max_score"] == 1.0), "{results}");
    assert_eq!(results["score"], 2.0);
    let hidden: Vec<_> = tests
        .iter()
        .filter(|t| t["visibility"] == "hidden")
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(hidden, ["secret/a/01", "secret/a/02", "secret/b/01"]);
}

#[test]
fn a_compile_error_is_a_failed_build_test_and_every_case_at_zero() {
    let dir = tempfile::tempdir().unwrap();
    let cases = cases(dir.path());
    let source = write(dir.path(), "sol.c", "int main( { return 0; }\n");
    let report = dir.path().join("results.json");
    grader()
        .args(["test", "flip"])
        .arg(&source)
        .args(["--report", "gradescope", "--report-file"])
        .arg(&report)
        .arg("--cases")
        .arg(&cases)
        .assert()
        .code(1)
        .stdout("");
    let results: Value = serde_json::from_slice(&fs::read(&report).unwrap()).unwrap();
    let tests = documented(&results);
    assert_eq!(tests.len(), 5);
    assert_eq!(tests[0]["name"], "build");
    assert_eq!(tests[0]["status"], "failed");
    // The whole message, every line of it, not only its first.
    let said = tests[0]["output"].as_str().unwrap();
    assert!(
        said.starts_with("CE: ") && said.contains("error") && said.lines().count() > 1,
        "{results}"
    );
    assert!(
        tests
            .iter()
            .all(|t| t["score"] == 0.0 && t["status"] == "failed")
    );
    assert_eq!(results["score"], 0.0);
}

#[test]
fn gradescope_is_refused_by_fuzz_and_a_points_rule_must_name_a_group() {
    grader()
        .args(["fuzz", "flip", "--cmd", "echo 4", "--report", "gradescope"])
        .args(["--no-regressions", "--runs", "1"])
        .assert()
        .code(2)
        .stderr(one_error_line("--report gradescope"));
    let dir = tempfile::tempdir().unwrap();
    let cases = cases(dir.path());
    grader()
        .args(["test", "flip", "--cmd", "echo 4", "--report", "gradescope"])
        .args(["--points", "secret/c=10", "--cases"])
        .arg(&cases)
        .assert()
        .code(2)
        .stderr(one_error_line("no group `secret/c`"));
}

/// The README's block marked `bash run_autograder`, and its `grader test` line.
/// The README's `run_autograder`, whole.
fn readme_script() -> String {
    let readme = fs::read_to_string(repo().join("README.md")).unwrap();
    let start = readme
        .find("```bash run_autograder\n")
        .expect("the README shows run_autograder");
    let block = &readme[start + "```bash run_autograder\n".len()..];
    block[..block.find("```").unwrap()].to_owned()
}

/// Runs the README's `run_autograder` as written, with `/autograder` moved to a folder of
/// its own holding `submission` (the files `uploaded`, as named) and the repository as
/// `source`, and `grader` found where `setup.sh` installs it (`$HOME/.cargo/bin`); the
/// script's exit status and the `results.json` it left.
fn run_autograder(uploaded: &[(&str, &Path)]) -> (i32, Value) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("autograder");
    for sub in ["submission", "results"] {
        fs::create_dir_all(root.join(sub)).unwrap();
    }
    std::os::unix::fs::symlink(repo(), root.join("source")).unwrap();
    for (name, from) in uploaded {
        fs::copy(from, root.join("submission").join(name)).unwrap();
    }
    let home = dir.path().join("home");
    fs::create_dir_all(home.join(".cargo/bin")).unwrap();
    std::os::unix::fs::symlink(grader_path(), home.join(".cargo/bin/grader")).unwrap();
    let script = readme_script().replace("/autograder/", &format!("{}/", root.display()));
    let status = std::process::Command::new("bash")
        .args(["-c", &script])
        .env("HOME", &home)
        .env("TMPDIR", dir.path())
        .status()
        .unwrap();
    let results = fs::read(root.join("results/results.json"))
        .unwrap_or_else(|e| panic!("no results.json: {e}"));
    (
        status.code().unwrap_or(-1),
        serde_json::from_slice(&results).unwrap(),
    )
}

#[test]
fn the_readmes_run_autograder_grades_any_one_file_and_explains_a_refusal() {
    let wrong = repo().join("examples/flip/wa_one_colour.py");
    // Whatever the student named the file.
    let (status, results) = run_autograder(&[("my flip answer.py", &wrong)]);
    assert_eq!(status, 0, "{results}");
    let tests = documented(&results);
    assert!(tests.iter().any(|t| t["status"] == "failed"), "{results}");
    assert!(tests.iter().any(|t| t["status"] == "passed"), "{results}");
    // Two files, or a file the grader refuses: a results.json that says why, score 0.
    let (status, results) = run_autograder(&[("a.py", &wrong), ("b.py", &wrong)]);
    assert_eq!(status, 0);
    assert_eq!(results["score"], 0);
    assert_eq!(
        results["output"],
        "Upload exactly one source file (found 2)."
    );
    let (status, results) = run_autograder(&[("answer.txt", &wrong)]);
    assert_eq!(status, 0);
    assert_eq!(results["score"], 0);
    let said = results["output"].as_str().unwrap();
    assert!(
        said.starts_with("Not graded: grader: error: ") && said.contains("unknown extension"),
        "{said}"
    );
}
