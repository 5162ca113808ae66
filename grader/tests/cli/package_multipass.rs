//! Multi-pass problems (2023-07's `type: multi-pass`): a problem written here whose first
//! pass asks for the square of a number and whose second, on the input the validator
//! leaves (`nextpass.in`), asks for the root back; as an output validator and as an
//! interactor; through `package verify` and `test`, with submissions that fail on either
//! pass, and validators that ask for a pass past the last or go on from a pass they
//! rejected (the package's fault).

use std::path::{Path, PathBuf};
use std::time::Duration;

use testkit::files::write;
use testkit::grader::grader;
use testkit::output::{json, said};

const TIMEOUT: Duration = Duration::from_mins(4);

/// How both forms of the problem judge a pass, given `words` (the pass's input), `answer`
/// and `got` (the number the submission gave): the first pass's input is `first N`, and
/// the output must be N squared, which it hands to the second pass as `second N*N`; there
/// the output must be the answer, N.
const JUDGE: &str = r#"
if words[0] == "first":
    n = int(words[1])
    if got != n * n:
        wrong(f"expected {n * n}, got {got}")
    with open(feedback + "nextpass.in", "w") as f:
        f.write(f"second {got}\n")
    sys.exit(42)
if got != answer:
    wrong(f"expected {answer}, got {got}")
sys.exit(42)
"#;

/// What both forms read first: the pass's input, the answer, where feedback goes.
const READ: &str = r#"import sys
words = open(sys.argv[1]).read().split()
answer = int(open(sys.argv[2]).read())
feedback = sys.argv[3]
def wrong(why):
    with open(feedback + "judgemessage.txt", "w") as f:
        f.write(why + "\n")
    sys.exit(43)
"#;

/// The output validator: the submission's output is one number.
fn validator() -> String {
    let got = "out = sys.stdin.read().split()\nif len(out) != 1 or not out[0].lstrip(\"-\").isdigit():\n    wrong(\"not one number\")\ngot = int(out[0])\n";
    format!("{READ}{got}{JUDGE}")
}

/// The same problem as an interactor: it says the pass's input, then reads one number.
fn interactor() -> String {
    let got = "print(\" \".join(words), flush=True)\nline = sys.stdin.readline(100).strip()\nif not line.lstrip(\"-\").isdigit():\n    wrong(\"not one number\")\ngot = int(line)\n";
    format!("{READ}{got}{JUDGE}")
}

/// Each submission, by its folder: what it prints on each pass's input.
const SUBMISSIONS: [(&str, &str); 5] = [
    (
        "accepted/both.py",
        "import math\nkind, n = input().split()\nn = int(n)\n\
         print(n * n if kind == 'first' else math.isqrt(n), flush=True)\n",
    ),
    (
        "wrong_answer/second_pass.py",
        "kind, n = input().split()\nprint(int(n) ** 2 if kind == 'first' else 0, flush=True)\n",
    ),
    (
        "wrong_answer/first_pass.py",
        "kind, n = input().split()\nprint(int(n) + 1, flush=True)\n",
    ),
    (
        "run_time_error/second_pass.py",
        "kind, n = input().split()\nassert kind == 'first'\nprint(int(n) ** 2, flush=True)\n",
    ),
    (
        "time_limit_exceeded/second_pass.py",
        "kind, n = input().split()\nwhile kind != 'first':\n    pass\n\
         print(int(n) ** 2, flush=True)\n",
    ),
];

/// The problem as a 2023-07 package in `dir`: `type` as given, the validator or
/// interactor at `output_validator/`, a fixed time limit (no run sets one).
fn package(dir: &Path, kind: &str, validator: &str) -> PathBuf {
    let package = dir.join("roots");
    write(
        &package,
        "problem.yaml",
        format!(
            "problem_format_version: 2023-07\nname: Roots\ntype: {kind}\nlimits:\n  time_limit: 2\n"
        ),
    );
    for (name, n) in [("sample/1", 3), ("secret/1", 7), ("secret/2", 12)] {
        write(&package, format!("data/{name}.in"), format!("first {n}\n"));
        write(&package, format!("data/{name}.ans"), format!("{n}\n"));
    }
    write(
        &package,
        "input_validators/check.py",
        "import sys\nkind, n = sys.stdin.read().split()\n\
         sys.exit(42 if kind == 'first' and 1 <= int(n) <= 1000 else 43)\n",
    );
    write(&package, "output_validator/validate.py", validator);
    for (path, text) in SUBMISSIONS {
        write(&package, format!("submissions/{path}"), text);
    }
    package
}

/// The verdict `verify`'s table gives `submission`.
fn got<'a>(table: &'a str, submission: &str) -> &'a str {
    testkit::packages::row(table, submission)[1]
}

/// `grader test` of `submission` of `package`, reported as JSON: the exit status, the
/// report and standard error.
fn test(package: &Path, submission: &str) -> (i32, serde_json::Value, String) {
    let output = grader()
        .arg("test")
        .arg(package)
        .arg(package.join("submissions").join(submission))
        .args(["--report", "json"])
        .timeout(TIMEOUT)
        .output()
        .unwrap();
    let (code, out, err) = said(&output);
    let report = if out.is_empty() {
        serde_json::Value::Null
    } else {
        json(&out)
    };
    (code, report, err)
}

#[test]
fn every_submission_of_a_multi_pass_problem_gets_its_folder_s_verdict_and_its_pass() {
    let dir = tempfile::tempdir().unwrap();
    for (kind, validator) in [
        ("multi-pass", validator()),
        ("[interactive, multi-pass]", interactor()),
    ] {
        let package = package(
            &dir.path().join(kind.replace(['[', ']', ',', ' '], "")),
            kind,
            &validator,
        );
        let (code, out, err) = testkit::packages::verify(&package, &[]);
        assert_eq!(code, 0, "{kind}: {out}{err}");
        for (path, _) in SUBMISSIONS {
            let want = match path.split('/').next().unwrap() {
                "accepted" => "AC",
                "wrong_answer" => "WA",
                "time_limit_exceeded" => "TLE",
                _ => "RTE",
            };
            assert_eq!(got(&out, path), want, "{kind}: {path}:\n{out}");
        }
        // The pass that failed is named, with the validator's reason.
        let (code, report, err) = test(&package, "wrong_answer/second_pass.py");
        assert_eq!(code, 1, "{kind}: {err}");
        assert_eq!(
            report["cases"][0]["message"], "pass 2: expected 3, got 0",
            "{kind}: {report}"
        );
        let (_, report, _) = test(&package, "wrong_answer/first_pass.py");
        assert_eq!(
            report["cases"][0]["message"], "pass 1: expected 9, got 4",
            "{kind}: {report}"
        );
        let (_, report, _) = test(&package, "run_time_error/second_pass.py");
        let message = report["cases"][0]["message"].as_str().unwrap_or_default();
        assert!(
            message.starts_with("pass 2: exit status 1"),
            "{kind}: {report}"
        );
        let (code, report, err) = test(&package, "accepted/both.py");
        assert_eq!(code, 0, "{kind}: {report}{err}");
        if kind.contains("interactive") {
            // Both passes' exchanges, one after the other.
            assert_eq!(
                report["cases"][0]["interaction"], "<first 3\n>9\n---\n<second 9\n>3\n",
                "{report}"
            );
        }
    }
}

#[test]
fn a_validator_that_asks_for_a_pass_past_the_last_or_after_rejecting_is_the_package_s_fault() {
    let dir = tempfile::tempdir().unwrap();
    // Always asks for another pass, accepting each.
    let endless =
        "import sys\nopen(sys.argv[3] + 'nextpass.in', 'w').write('first 2\\n')\nsys.exit(42)\n";
    // Rejects the first pass and asks for another all the same.
    let rejecting =
        "import sys\nopen(sys.argv[3] + 'nextpass.in', 'w').write('first 2\\n')\nsys.exit(43)\n";
    for (validator, why) in [
        (
            endless,
            "accepted pass 2 and asked for another (it left nextpass.in), but limits.validation_passes is 2",
        ),
        (
            rejecting,
            "rejected pass 1 and asked for another all the same",
        ),
    ] {
        let package = package(dir.path(), "multi-pass", validator);
        let (code, report, err) = test(&package, "accepted/both.py");
        assert_eq!((code, &report), (2, &serde_json::Value::Null), "{err}");
        assert!(
            err.contains(why) && err.contains("the package's fault"),
            "{err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // A third pass is allowed where the package says so: the endless validator then
    // fails at the fourth.
    let package = package(dir.path(), "multi-pass", endless);
    let yaml = std::fs::read_to_string(package.join("problem.yaml")).unwrap();
    write(
        &package,
        "problem.yaml",
        format!("{yaml}  validation_passes: 3\n"),
    );
    let (code, _, err) = test(&package, "accepted/both.py");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("accepted pass 3"), "{err}");
}
