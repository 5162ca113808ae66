//! `grader test PKG SUB` and `grader batch PKG DIR`: a problem package where a problem's
//! name goes, on the test packages of `fixtures/packages/` (`sum`: the default validator
//! with a float tolerance; `parity`: its own output validator; `halves`: a scoring
//! problem whose groups are worth 40 and 60).

use std::path::{Path, PathBuf};
use std::time::Duration;

use predicates::prelude::*;

use testkit::class::Class;
use testkit::files::write;
use testkit::grader::{grader, one_error_line};
use testkit::output::{json, said};
use testkit::packages::{copy, fixture};

/// Wide: the machine is busy, and a package's accepted submissions run first.
const TIMEOUT: Duration = Duration::from_mins(3);

/// `grader test PKG SUBMISSION ARGS...`: its exit status, stdout and stderr.
fn test(package: &Path, submission: &str, args: &[&str]) -> (i32, String, String) {
    let output = grader()
        .arg("test")
        .arg(package)
        .arg(package.join("submissions").join(submission))
        .args(args)
        .timeout(TIMEOUT)
        .output()
        .unwrap();
    said(&output)
}

#[test]
fn test_on_a_package_judges_by_its_default_validator_in_every_report_format() {
    let sum = fixture("sum");
    let (code, out, err) = test(&sum, "accepted/sum.py", &[]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("sum "), "{out}");
    assert!(out.contains("AC 3/3 passed"), "{out}");
    // No time limit in problem.yaml: the accepted submissions set it, and it is said.
    assert!(
        err.contains("time limit 1 s, set from the package's accepted submissions"),
        "{err}"
    );
    // The float tolerance of problem.yaml holds; the validator's message is the why.
    let (code, out, _) = test(&sum, "wrong_answer/whole_numbers.py", &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("WA   secret/1") && out.contains("  why: line 1: expected `0.75`, got `0`"),
        "{out}"
    );
    let (code, out, _) = test(&sum, "wrong_answer/whole_numbers.py", &["--report", "json"]);
    assert_eq!(code, 1);
    let report = json(&out);
    assert_eq!(report["problem"], "sum");
    assert_eq!(report["verdict"], "WA");
    assert_eq!(report["passed"], 2);
    assert_eq!(
        report["cases"][1]["message"],
        "line 1: expected `0.75`, got `0`"
    );
    // The package's limits: problem.yaml's memory (256 MiB) and the format's output (8).
    assert_eq!(report["limits"]["memory_kib"], 256 * 1024);
    assert_eq!(report["limits"]["output_kib"], 8 * 1024);
    assert!(report["cases"][1].get("explanation").is_none(), "{out}");
    let (_, out, _) = test(
        &sum,
        "wrong_answer/whole_numbers.py",
        &["--report", "junit"],
    );
    assert!(out.contains("<testsuite name=\"sum "), "{out}");
    assert!(
        out.contains("WA: line 1: expected `0.75`, got `0`"),
        "{out}"
    );
    let (_, out, _) = test(&sum, "accepted/sum.c", &["--report", "gradescope"]);
    let report = json(&out);
    assert_eq!(report["score"], 3.0, "{out}");
    assert_eq!(report["tests"][0]["visibility"], "visible");
}

#[test]
fn test_on_a_package_runs_its_own_validator_and_its_message_is_why() {
    let parity = fixture("parity");
    // Another right answer than the package's: the validator accepts it.
    let (code, out, _) = test(&parity, "accepted/plus_two.c", &[]);
    assert_eq!(code, 0, "{out}");
    let (code, out, _) = test(&parity, "wrong_answer/always_one.py", &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("  why: 1 does not have the parity of 4"),
        "{out}"
    );
    let (_, out, _) = test(&parity, "wrong_answer/always_one.py", &["--report", "json"]);
    let report = json(&out);
    let messages: Vec<&str> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["message"].as_str().unwrap())
        .collect();
    assert_eq!(
        messages,
        [
            "1 does not have the parity of 4",
            "",
            "",
            "1 does not have the parity of 0"
        ]
    );
}

#[test]
fn a_validator_that_fails_or_data_it_refuses_is_exit_2_never_a_mark() {
    let dir = tempfile::tempdir().unwrap();
    let parity = copy("parity", dir.path());
    let checker = "output_validators/parity_checker/check.py";
    write(&parity, checker, "import sys\nsys.exit(1)\n");
    let (code, out, err) = test(&parity, "accepted/remainder.py", &[]);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(
        one_error_line("parity_checker: the output validator ended with exit status 1").eval(&err),
        "{err}"
    );
    // A validator that hangs: over its validation_time, the package's fault too.
    write(&parity, checker, "while True:\n    pass\n");
    write(
        &parity,
        "problem.yaml",
        "name: P\nvalidation: custom\nlimits:\n  validation_time: 1\n",
    );
    let (code, _, err) = test(&parity, "accepted/remainder.py", &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("went over its limit (1 s of CPU)"), "{err}");
    // An input its input validator refuses: the data's fault, named.
    let sum = copy("sum", dir.path());
    write(&sum, "data/secret/3.in", "1  2\n");
    write(&sum, "data/secret/3.ans", "3\n");
    let (code, _, err) = test(&sum, "accepted/sum.py", &[]);
    assert_eq!(code, 2, "{err}");
    assert!(
        one_error_line("data/secret/3.in: rejected by input_validators/validate.py").eval(&err),
        "{err}"
    );
}

#[test]
fn the_time_limit_is_the_flags_else_the_packages_and_multi_pass_ones_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let sum = copy("sum", dir.path());
    let (_, out, err) = test(
        &sum,
        "accepted/sum.py",
        &["--time-limit", "2", "--report", "json"],
    );
    assert_eq!(json(&out)["limits"]["cpu_ms"], 2000.0);
    assert!(!err.contains("set from"), "{err}");
    write(
        &sum,
        "problem.yaml",
        "problem_format_version: 2023-07-draft\nname: Sum\nlimits:\n  time_limit: 3\n",
    );
    let (_, out, err) = test(&sum, "accepted/sum.py", &["--report", "json"]);
    assert_eq!(json(&out)["limits"]["cpu_ms"], 3000.0);
    assert!(!err.contains("set from"), "{err}");
    grader()
        .args(["test", "--cases", "cases/flip"])
        .arg(&sum)
        .arg(sum.join("submissions/accepted/sum.py"))
        .assert()
        .code(2)
        .stderr(one_error_line("a package's cases are its data/ folder"));
    // A submission that is not there is said before the accepted submissions run.
    let (code, _, err) = test(&sum, "accepted/none.py", &[]);
    assert_eq!(code, 2);
    assert!(
        one_error_line("none.py: cannot read: no such file or folder").eval(&err),
        "{err}"
    );
    // Nothing to set it from: the flag is the way out.
    write(&sum, "problem.yaml", "name: Sum\n");
    let accepted = sum.join("submissions/accepted");
    std::fs::rename(&accepted, dir.path().join("kept")).unwrap();
    let (code, _, err) = test(&sum, "wrong_answer/whole_numbers.py", &[]);
    assert_eq!(code, 2);
    assert!(
        one_error_line("no accepted submission runs here; the time limit is set from them; or give --time-limit").eval(&err),
        "{err}"
    );
    std::fs::rename(dir.path().join("kept"), &accepted).unwrap();
    write(&sum, "problem.yaml", "type: submit-answer\n");
    let (code, _, err) = test(&sum, "accepted/sum.py", &[]);
    assert_eq!(code, 2);
    assert!(
        one_error_line("submit-answer problems are not supported").eval(&err),
        "{err}"
    );
    // A multi-pass problem is judged by its own validator, which this package lacks.
    write(&sum, "problem.yaml", "type: multi-pass\n");
    let (code, _, err) = test(&sum, "accepted/sum.py", &[]);
    assert_eq!(code, 2);
    assert!(
        one_error_line("a multi-pass problem, whose validator it is) but no output_validators/")
            .eval(&err),
        "{err}"
    );
}

#[test]
fn a_scoring_packages_groups_give_the_points() {
    let halves = fixture("halves");
    // Right on the small group (40 points), wrong on the large one (60).
    let (code, out, _) = test(
        &halves,
        "partially_accepted/int32.c",
        &["--report", "gradescope"],
    );
    assert_eq!(code, 1);
    let report = json(&out);
    assert_eq!(report["score"], 40.0, "{out}");
    assert!(
        report["output"]
            .as_str()
            .unwrap()
            .ends_with("40 of 100 points"),
        "{out}"
    );
    // The samples, which `ignore_sample` leaves out of the score, are worth nothing.
    assert_eq!(report["tests"][0]["max_score"], 0.0, "{out}");
}

/// A class of three on `halves`: right, right on the small group only, wrong.
fn class(dir: &Path) -> PathBuf {
    let class = Class::at(dir.join("class"));
    let submissions = fixture("halves").join("submissions");
    for (from, to) in [
        ("accepted/half.py", "alice.py"),
        ("partially_accepted/int32.c", "bob.c"),
        ("wrong_answer/double.py", "carol.py"),
    ] {
        class.copy(to, &submissions.join(from));
    }
    class.path().to_path_buf()
}

#[test]
fn batch_on_a_package_grades_a_class_with_its_groups_points_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(dir.path());
    let out = dir.path().join("book");
    let batch = || {
        grader()
            .arg("batch")
            .arg(fixture("halves"))
            .arg(&class)
            .arg("--out")
            .arg(&out)
            .arg("--feedback")
            .arg(dir.path().join("pages"))
            .args(["--report", "json"])
            .timeout(TIMEOUT)
            .assert()
            .code(1)
    };
    let first = batch();
    let book = json(&first.get_output().stdout);
    assert_eq!(book["problem"], "halves");
    assert_eq!(book["points"]["secret/small"], 40.0);
    assert_eq!(book["points"]["secret/large"], 60.0);
    let points: Vec<(&str, f64)> = book["students"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["student"].as_str().unwrap(),
                s["points"].as_f64().unwrap(),
            )
        })
        .collect();
    assert_eq!(points, [("alice", 100.0), ("bob", 40.0), ("carol", 0.0)]);
    let csv = std::fs::read_to_string(out.join("gradebook.csv")).unwrap();
    assert!(csv.contains("bob,bob.c,c,60.0,WA,3,5,yes,,0,40,"), "{csv}");
    for page in ["alice", "bob", "carol"] {
        let page = std::fs::read_to_string(dir.path().join(format!("pages/{page}.html")));
        assert!(page.unwrap().contains("halves: feedback for"));
    }
    // Run again: every run comes from the journal, none is made again.
    let journal = std::fs::read_to_string(out.join("journal.jsonl")).unwrap();
    let again = batch();
    assert_eq!(
        again.get_output().stdout,
        first.get_output().stdout,
        "the same gradebook"
    );
    let after = std::fs::read_to_string(out.join("journal.jsonl")).unwrap();
    assert_eq!(after, journal, "no run made again");
    assert!(
        predicate::str::contains("<testsuite name=\"bob\"")
            .eval(&std::fs::read_to_string(out.join("gradebook.xml")).unwrap())
    );
}

/// `grader fuzz ARGS...` (words after `fuzz`): its exit status and JSON report.
fn fuzz(args: &[std::ffi::OsString]) -> (i32, serde_json::Value, String) {
    let output = grader()
        .arg("fuzz")
        .args(args)
        .args(["--report", "json", "--jobs", "2"])
        .timeout(TIMEOUT)
        .output()
        .unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    let report = if stdout.is_empty() {
        serde_json::Value::Null
    } else {
        json(&stdout)
    };
    (output.status.code().unwrap(), report, stderr)
}

fn words(words: &[&str]) -> Vec<std::ffi::OsString> {
    words.iter().map(Into::into).collect()
}

#[test]
fn fuzz_on_a_package_draws_from_its_generator_judges_shrinks_saves_and_replays() {
    let dir = tempfile::tempdir().unwrap();
    let sum = fixture("sum");
    let wrong = sum.join("submissions/wrong_answer/whole_numbers.py");
    let saved = dir.path().join("saved");
    let mut args = vec![sum.clone().into_os_string(), wrong.into_os_string()];
    args.extend(words(&[
        "--seed",
        "5",
        "--runs",
        "200",
        "--shrink-steps",
        "30",
    ]));
    args.extend(["--save".into(), saved.clone().into_os_string()]);
    let (code, report, err) = fuzz(&args);
    assert_eq!(code, 1, "{report}{err}");
    let finding = &report["finding"];
    assert_eq!(report["problem"], "sum");
    assert_eq!(finding["verdict"], "WA");
    assert!(
        finding["kind"]
            .as_str()
            .unwrap()
            .starts_with("generators/fuzz.py ")
    );
    // The reference (the first accepted submission, sum.c) gave the expected answer.
    let (input, expected) = (&finding["shrunk"]["input"], &finding["shrunk"]["expected"]);
    let numbers: Vec<f64> = input
        .as_str()
        .unwrap()
        .split_whitespace()
        .map(|w| w.parse().unwrap())
        .collect();
    assert_eq!(*expected, format!("{:.6}\n", numbers[0] + numbers[1]));
    // Shrunk by seed: never longer than what was found.
    assert!(input.as_str().unwrap().len() <= finding["input"].as_str().unwrap().len());
    let run = finding["run"].as_u64().unwrap();
    let stem = saved.join(format!("sum-seed5-run{run}"));
    let read = |ext: &str| std::fs::read_to_string(stem.with_extension(ext)).unwrap();
    assert_eq!(
        (read("in").as_str(), read("ans").as_str()),
        (input.as_str().unwrap(), expected.as_str().unwrap())
    );
    // The replay spells out the package's limits and finds the same run again.
    let replay = finding["replay"].as_str().unwrap();
    assert!(
        replay.contains("--time-limit 1s --memory-limit 256MiB --output-limit 8MiB"),
        "{replay}"
    );
    let again: Vec<std::ffi::OsString> =
        replay.split_whitespace().skip(2).map(Into::into).collect();
    let (code, replayed, _) = fuzz(&again);
    assert_eq!(code, 1);
    assert_eq!(replayed["finding"]["input"], finding["input"]);
    assert_eq!(replayed["finding"]["run"], run);
}

#[test]
fn fuzz_on_a_package_judges_by_its_own_validator_and_passes_a_right_submission() {
    let parity = fixture("parity");
    let right = parity.join("submissions/accepted/remainder.py");
    let mut args = vec![parity.clone().into_os_string(), right.into_os_string()];
    args.extend(words(&["--seed", "3", "--runs", "30"]));
    let (code, report, err) = fuzz(&args);
    assert_eq!(code, 0, "{report}{err}");
    assert_eq!(report["finding"], serde_json::Value::Null);
    assert_eq!(report["runs"], 30);
    let wrong = parity.join("submissions/wrong_answer/always_one.py");
    let mut args = vec![parity.into_os_string(), wrong.into_os_string()];
    args.extend(words(&[
        "--seed",
        "3",
        "--runs",
        "30",
        "--shrink-steps",
        "5",
    ]));
    let (code, report, _) = fuzz(&args);
    assert_eq!(code, 1);
    let message = report["finding"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("1 does not have the parity of "),
        "{message}"
    );
}

#[test]
fn fuzz_on_a_package_without_a_working_generator_is_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let halves = fixture("halves");
    let half = halves.join("submissions/accepted/half.py");
    let (code, _, err) = fuzz(&[halves.into_os_string(), half.into_os_string()]);
    assert_eq!(code, 2);
    assert!(one_error_line("no generators/ folder").eval(&err), "{err}");
    let sum = copy("sum", dir.path());
    let right = sum.join("submissions/accepted/sum.py");
    write(&sum, "generators/fuzz.py", "import sys\nsys.exit(3)\n");
    let (code, _, err) = fuzz(&[sum.clone().into_os_string(), right.clone().into_os_string()]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("generators/fuzz.py: the generator ended with exit status 3 on seed "),
        "{err}"
    );
    let mut args = vec![sum.into_os_string(), right.into_os_string()];
    args.push("--exhaustive".into());
    let (code, _, err) = fuzz(&args);
    assert_eq!(code, 2);
    assert!(
        one_error_line("--exhaustive: a package's inputs come from its generator").eval(&err),
        "{err}"
    );
}

#[test]
fn a_packages_shards_merge_into_the_gradebook_of_one_batch() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(dir.path());
    let mut books = Vec::new();
    for shard in ["1/2", "2/2"] {
        let out = dir.path().join(format!("shard{}", &shard[..1]));
        grader()
            .arg("batch")
            .arg(fixture("halves"))
            .arg(&class)
            .args(["--time-limit", "2", "--shard", shard, "--out"])
            .arg(&out)
            .timeout(TIMEOUT)
            .assert()
            .code(predicate::in_iter([0, 1]));
        books.push(out.join("gradebook.json"));
    }
    let shard = json(std::fs::read_to_string(&books[0]).unwrap());
    assert_eq!(shard["package"], true, "a package's gradebook says so");
    let merged = grader()
        .arg("merge")
        .args(&books)
        .arg("--out")
        .arg(dir.path().join("merged"))
        .args(["--report", "json"])
        .assert()
        .code(1);
    let book = json(&merged.get_output().stdout);
    assert_eq!(book["problem"], "halves");
    let points: Vec<f64> = book["students"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["points"].as_f64().unwrap())
        .collect();
    assert_eq!(points, [100.0, 40.0, 0.0]);
    // A built-in problem's gradebook has no such field, and a name that is no problem's
    // is refused unless the gradebook is a package's.
    let mut forged = shard.clone();
    forged.as_object_mut().unwrap().remove("package");
    let forged_path = dir.path().join("forged.json");
    std::fs::write(&forged_path, forged.to_string()).unwrap();
    grader()
        .arg("merge")
        .arg(&forged_path)
        .arg("--out")
        .arg(dir.path().join("forged"))
        .assert()
        .code(2)
        .stderr(one_error_line("problem: `halves` is not a problem"));
}

#[test]
fn a_batch_resumed_after_its_packages_validator_changed_judges_again() {
    let dir = tempfile::tempdir().unwrap();
    let parity = copy("parity", dir.path());
    let class = dir.path().join("class");
    write(&class, "ann.py", "print(int(input()) % 2)\n");
    let out = dir.path().join("book");
    let batch = || {
        grader()
            .arg("batch")
            .arg(&parity)
            .arg(&class)
            .args(["--time-limit", "2", "--out"])
            .arg(&out)
            .timeout(TIMEOUT)
            .assert()
            .success();
        testkit::gradebook::journal_keys(&out.join("journal.jsonl")).len()
    };
    let runs = batch();
    assert_eq!(runs, 4, "a run per case");
    assert_eq!(batch(), runs, "nothing changed: nothing made again");
    let checker = "output_validators/parity_checker/check.py";
    let text = std::fs::read_to_string(parity.join(checker)).unwrap();
    write(&parity, checker, format!("# changed\n{text}"));
    assert_eq!(batch(), 2 * runs, "every run judged again");
}
