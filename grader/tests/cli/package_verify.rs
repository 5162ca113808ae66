//! `grader package verify PKG`: every submission of a package run in the box and judged by
//! the package's validator, its verdict compared with its folder's. On the test packages
//! of `fixtures/packages/` (`sum`: the default validator with a float tolerance; `parity`:
//! many right answers, the package's own validator) and on the exported built-in problems.

use std::fs;
use std::path::Path;

use predicates::prelude::*;

use testkit::files::write;
use testkit::grader::{grader, one_error_line};
use testkit::packages::{copy, fixture, row};

/// `grader package verify`: its exit status and table.
fn verify(package: &Path) -> (i32, String) {
    let (code, table, _) = testkit::packages::verify(package, &[]);
    (code, table)
}

#[test]
fn package_verify_gives_each_submission_of_a_default_validator_package_its_folder_verdict() {
    let (code, table) = verify(&fixture("sum"));
    assert_eq!(code, 0, "{table}");
    assert!(
        table.starts_with("Sum of Two: 3 test cases, time limit 1 s (set from the accepted"),
        "{table}"
    );
    for (submission, verdict) in [
        ("accepted/sum.c", "AC"),
        ("accepted/sum.py", "AC"),
        ("run_time_error/exit_status.c", "RTE"),
        ("time_limit_exceeded/spin.py", "TLE"),
        ("wrong_answer/whole_numbers.py", "WA"),
    ] {
        let cells = row(&table, submission);
        assert_eq!(&cells[1..3], [verdict, verdict], "{table}");
    }
    // The float tolerance of problem.yaml: `0.750000` and `1000000001.0` are right, and
    // the first case a wrong submission fails is named with why.
    assert!(
        row(&table, "wrong_answer/whole_numbers.py")[4]
            .starts_with("secret/1: line 1: expected `0.75`, got `0`"),
        "{table}"
    );
    // The spinning submission ran past the 1 s limit into the safety margin (x 2) and
    // was stopped there: a TLE with the margin, not within it.
    assert!(!table.contains("within the safety margin"), "{table}");
    assert!(table.contains("every submission got the verdict of its folder"));
}

#[test]
fn package_verify_runs_the_packages_own_output_validator_in_the_box() {
    let (code, table) = verify(&fixture("parity"));
    assert_eq!(code, 0, "{table}");
    // Two accepted submissions print different answers; the validator accepts both.
    assert_eq!(&row(&table, "accepted/plus_two.c")[1..3], ["AC", "AC"]);
    assert_eq!(&row(&table, "accepted/remainder.py")[1..3], ["AC", "AC"]);
    // Its judgemessage.txt is the reason shown.
    assert_eq!(
        row(&table, "wrong_answer/always_one.py")[4],
        "sample/1: 1 does not have the parity of 4"
    );
}

#[test]
fn package_verify_exits_1_naming_a_submission_in_the_wrong_folder() {
    let dir = tempfile::tempdir().unwrap();
    let package = copy("parity", dir.path());
    write(
        &package,
        "submissions/accepted/zero.py",
        "print(0)  # right for even numbers only\n",
    );
    write(&package, "submissions/accepted/notes.fs", "printfn \"0\"\n");
    let (code, table) = verify(&package);
    assert_eq!(code, 1, "{table}");
    let cells = row(&table, "accepted/zero.py");
    assert_eq!(&cells[1..3], ["AC", "WA <- disagrees"], "{table}");
    assert!(
        cells[4].starts_with("secret/large/1: 0 does not have the parity of 99"),
        "{table}"
    );
    // A language the grader has no entry for is listed, not failed.
    assert_eq!(
        row(&table, "accepted/notes.fs")[2],
        "language not supported"
    );
    assert!(table.contains("1 submission(s) did not get the verdict of their folder"));
}

#[test]
fn a_broken_package_is_the_calls_fault_named_by_file_and_place() {
    let dir = tempfile::tempdir().unwrap();
    let package = copy("sum", dir.path());
    write(
        &package,
        "problem.yaml",
        "name: Sum\nlimits:\n  memory: lots\n",
    );
    grader()
        .args(["package", "verify"])
        .arg(&package)
        .assert()
        .code(2)
        .stdout("")
        .stderr(one_error_line(
            "problem.yaml:3:11: limits.memory: invalid type",
        ));
    write(
        &package,
        "problem.yaml",
        "name: Sum\nvalidator_flags: float_tolerance\n",
    );
    grader()
        .args(["package", "verify"])
        .arg(&package)
        .assert()
        .code(2)
        .stderr(one_error_line(
            "validator_flags: `float_tolerance` needs a number",
        ));
    write(&package, "problem.yaml", "type: submit-answer\n");
    grader()
        .args(["package", "verify"])
        .arg(&package)
        .assert()
        .code(2)
        .stderr(one_error_line(
            "problem.yaml: submit-answer problems are not supported",
        ));
    // An interactive problem needs its interactor.
    write(&package, "problem.yaml", "type: interactive\n");
    grader()
        .args(["package", "verify"])
        .arg(&package)
        .assert()
        .code(2)
        .stderr(one_error_line(
            "(or an interactive problem, whose interactor it is, or a multi-pass problem, whose validator it is) but no output_validators/",
        ));
    write(&package, "problem.yaml", "name: Sum\n");
    fs::remove_file(package.join("data/secret/2.ans")).unwrap();
    grader()
        .args(["package", "verify"])
        .arg(&package)
        .assert()
        .code(2)
        .stderr(one_error_line("secret/2.in: no answer file"));
    grader()
        .args(["package", "verify"])
        .arg(dir.path().join("none"))
        .assert()
        .code(2)
        .stderr(one_error_line(
            "none: cannot read a package in: no such folder",
        ));
}

#[test]
fn an_output_validator_that_fails_is_the_packages_fault_never_a_mark() {
    let dir = tempfile::tempdir().unwrap();
    let package = copy("parity", dir.path());
    write(
        &package,
        "output_validators/parity_checker/check.py",
        "import sys\nsys.exit(1)\n",
    );
    grader()
        .args(["package", "verify"])
        .arg(&package)
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            one_error_line(
                "parity_checker: the output validator ended with exit status 1, neither 42 nor \
                 43 on sample/1",
            )
            .and(predicate::str::contains("the package's fault")),
        );
}

#[test]
fn the_exported_packages_verify_with_every_submission_in_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    for (problem, wrong) in [("flip", "wa_one_colour.py"), ("swap", "wa_greedy.py")] {
        let package = dir.path().join(problem);
        grader()
            .args(["package", "export", problem, "--out"])
            .arg(&package)
            .assert()
            .success();
        let (code, table) = verify(&package);
        assert_eq!(code, 0, "{table}");
        assert_eq!(
            &row(&table, "accepted/ac_bfs.c")[1..3],
            ["AC", "AC"],
            "{table}"
        );
        let wrong = format!("wrong_answer/{wrong}");
        assert_eq!(&row(&table, &wrong)[1..3], ["WA", "WA"], "{table}");
    }
}

#[test]
fn the_input_validators_check_every_input_first_and_a_rejected_one_is_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    let package = copy("sum", dir.path());
    // Two spaces: the format says one, and the submissions do not mind.
    write(&package, "data/secret/3.in", "1  2\n");
    write(&package, "data/secret/3.ans", "3\n");
    let (code, table) = verify(&package);
    assert_eq!(code, 1, "{table}");
    assert!(
        table.contains(
            "data: input_validators/validate.py on every input: 1 refused\n  \
             data/secret/3.in: rejected by input_validators/validate.py\n"
        ),
        "{table}"
    );
    // The submissions still ran, and agree with their folders.
    assert!(
        table.contains("every submission got the verdict of its folder"),
        "{table}"
    );
}

#[test]
fn a_submission_that_does_not_compile_disagrees_with_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let package = copy("sum", dir.path());
    write(
        &package,
        "submissions/accepted/broken.c",
        "int main(void) { return x; }\n",
    );
    write(&package, "submissions/accepted/old.py", "print \"3\"\n");
    let (code, table) = verify(&package);
    assert_eq!(code, 1, "{table}");
    let cells = row(&table, "accepted/broken.c");
    assert_eq!(&cells[1..3], ["AC", "CE <- disagrees"], "{table}");
    assert!(cells[4].starts_with("compile: "), "{table}");
    // Python 2 is a language the grader has no entry for, not a compile error.
    assert_eq!(
        row(&table, "accepted/old.py")[2],
        "language not supported (Python 2)"
    );
}

#[test]
fn a_cpp_output_validator_with_its_header_beside_it_is_built_as_one_source() {
    let dir = tempfile::tempdir().unwrap();
    let package = copy("parity", dir.path());
    let checker = package.join("output_validators/parity_checker");
    fs::remove_file(checker.join("check.py")).unwrap();
    write(
        &checker,
        "parity.h",
        "#pragma once\n#include <cstdio>\nstatic bool same_parity(long a, long b) { return (a - b) % 2 == 0; }\n",
    );
    write(
        &checker,
        "check.cc",
        "#include \"parity.h\"\n\
         #include <string>\n\
         int main(int argc, char **argv) {\n\
         \x20   long n = 0, x = 0;\n\
         \x20   FILE *in = std::fopen(argv[1], \"r\");\n\
         \x20   if (!in || std::fscanf(in, \"%ld\", &n) != 1) return 1;\n\
         \x20   std::string feedback = std::string(argv[3]) + \"/judgemessage.txt\";\n\
         \x20   FILE *out = std::fopen(feedback.c_str(), \"w\");\n\
         \x20   if (std::scanf(\"%ld\", &x) != 1 || x < 0 || x > 100 || !same_parity(x, n)) {\n\
         \x20       std::fprintf(out, \"%ld is not a number of the parity of %ld\\n\", x, n);\n\
         \x20       return 43;\n\
         \x20   }\n\
         \x20   return 42;\n\
         }\n",
    );
    let (code, table) = verify(&package);
    assert_eq!(code, 0, "{table}");
    assert_eq!(&row(&table, "accepted/plus_two.c")[1..3], ["AC", "AC"]);
    assert_eq!(
        row(&table, "wrong_answer/always_one.py")[4],
        "sample/1: 1 is not a number of the parity of 4"
    );
}

#[test]
fn every_answer_goes_through_the_output_validator_and_a_refused_samples_is_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    let package = copy("parity", dir.path());
    // A secret answer need not be an output (the validator may read it as it likes):
    // listed, allowed.
    write(&package, "data/secret/small/1.ans", "2\n");
    let (code, table) = verify(&package);
    assert_eq!(code, 0, "{table}");
    assert!(
        table.contains(
            "data: input_validators/validate.py on every input; the output validator on every \
             answer: all accepted\n  1 secret answer(s) the output validator does not accept \
             as outputs: allowed (only a sample's answer must be one), listed:\n    \
             data/secret/small/1.ans: the output validator does not accept it as an output: 2 \
             does not have the parity of 7\n"
        ),
        "{table}"
    );
    // A sample's is shown in the statement: it must be an output, exit 1.
    write(&package, "data/sample/1.ans", "1\n");
    let (code, table) = verify(&package);
    assert_eq!(code, 1, "{table}");
    assert!(
        table.contains(
            "answer: 1 refused\n  data/sample/1.ans: the output validator does not accept it \
             as an output: 1 does not have the parity of"
        ),
        "{table}"
    );
}

#[test]
fn a_tle_only_within_the_safety_margin_is_marked() {
    let dir = tempfile::tempdir().unwrap();
    let package = copy("sum", dir.path());
    // 1.5 s of CPU: over the 1 s limit, under the limit times the margin (2 s).
    write(
        &package,
        "submissions/time_limit_exceeded/slow.c",
        "#include <stdio.h>\n#include <time.h>\n\
         int main(void) {\n\
         \x20   volatile unsigned long n = 0;\n\
         \x20   while (clock() < 3 * CLOCKS_PER_SEC / 2) n++;\n\
         \x20   printf(\"3\\n\");\n\
         \x20   return 0;\n\
         }\n",
    );
    let (code, table) = verify(&package);
    assert_eq!(code, 0, "{table}");
    let cells = row(&table, "time_limit_exceeded/slow.c");
    assert_eq!(
        &cells[1..3],
        ["TLE", "TLE (only within the safety margin)"],
        "{table}"
    );
    assert_eq!(
        &row(&table, "time_limit_exceeded/spin.py")[1..3],
        ["TLE", "TLE"],
        "{table}"
    );
}

#[test]
fn a_scoring_problem_scores_its_groups_and_checks_accepted_and_partially_accepted() {
    let (code, table) = verify(&fixture("halves"));
    assert_eq!(code, 0, "{table}");
    // The groups' points as problemtools gives them: the samples ignored, 40 for the
    // small group, 60 for the large, and one group enough for AC.
    assert_eq!(&row(&table, "accepted/half.py")[1..3], ["AC", "AC (100)"]);
    assert_eq!(
        &row(&table, "partially_accepted/int32.c")[1..3],
        ["AC", "AC (40)"]
    );
    assert_eq!(
        &row(&table, "wrong_answer/double.py")[1..3],
        ["WA", "WA (0)"]
    );
    // A partially accepted submission that earns everything, or an accepted one that
    // earns part, is not where its folder says.
    let dir = tempfile::tempdir().unwrap();
    let package = copy("halves", dir.path());
    let whole = fs::read_to_string(package.join("submissions/accepted/half.py")).unwrap();
    write(&package, "submissions/partially_accepted/whole.py", whole);
    let int32 = package.join("submissions/partially_accepted/int32.c");
    fs::rename(&int32, package.join("submissions/accepted/int32.c")).unwrap();
    let (code, table) = verify(&package);
    assert_eq!(code, 1, "{table}");
    assert_eq!(
        &row(&table, "partially_accepted/whole.py")[1..3],
        ["AC", "AC (100) <- disagrees"]
    );
    assert_eq!(
        &row(&table, "accepted/int32.c")[1..3],
        ["AC", "AC (40) <- disagrees"]
    );
}

#[test]
fn a_scoring_group_that_breaks_on_reject_runs_no_case_after_its_first_rejected_one() {
    let dir = tempfile::tempdir().unwrap();
    let package = copy("halves", dir.path());
    // Wrong at once on each group's first case; on its second a second of CPU, then
    // wrong. Both groups break on a rejection (`on_reject: break`), so the seconds are
    // never spent: the slowest case run is a quick one. Judged by CPU time, with a wide
    // margin: run, the spin alone would show 1 s.
    write(
        &package,
        "submissions/wrong_answer/slow_later.py",
        "import time\n\
         n = int(input())\n\
         if n in (9999999999998, 10):\n    \
             end = time.process_time() + 1.0\n    \
             while time.process_time() < end:\n        \
                 pass\n\
         print(n // 2 + 1 if n not in (4,) else n // 2)\n",
    );
    let (code, table) = verify(&package);
    assert_eq!(code, 0, "{table}");
    let cells = row(&table, "wrong_answer/slow_later.py");
    assert_eq!(&cells[1..3], ["WA", "WA (0)"], "{table}");
    let time: f64 = cells[3].trim_end_matches(" s").parse().unwrap();
    assert!(time < 0.5, "a case after a group's rejection ran: {table}");
    assert!(cells[4].starts_with("secret/large/1:"), "{table}");
}

#[test]
fn with_no_accepted_submission_that_runs_there_is_no_time_limit_to_judge_by() {
    let dir = tempfile::tempdir().unwrap();
    let package = copy("sum", dir.path());
    fs::remove_dir_all(package.join("submissions/accepted")).unwrap();
    write(&package, "submissions/accepted/sum.fs", "printfn \"0\"\n");
    grader()
        .args(["package", "verify"])
        .arg(&package)
        .assert()
        .code(2)
        .stdout("")
        .stderr(one_error_line(
            "accepted: no accepted submission runs here (accepted/sum.fs: language not \
             supported); the time limit is set from them",
        ));
}

#[test]
fn cases_check_takes_a_package_and_checks_its_data_with_its_own_validators() {
    let dir = tempfile::tempdir().unwrap();
    let package = copy("parity", dir.path());
    // No root is needed for packages alone; from a folder with no `cases/`.
    grader()
        .current_dir(dir.path())
        .args(["cases", "check", "parity"])
        .assert()
        .success()
        .stdout(
            "parity: 4 test cases\ndata: input_validators/validate.py on every input; the \
             output validator on every answer: all accepted\n",
        );
    write(&package, "data/secret/large/1.in", "101\n");
    grader()
        .current_dir(dir.path())
        .args(["cases", "check", "parity"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "1 refused\n  data/secret/large/1.in: rejected by input_validators/validate.py\n",
        ));
    grader()
        .current_dir(dir.path())
        .args(["cases", "check", "elsewhere"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "unknown problem `elsewhere` (expected flip, fourinrow or swap; aliases: \
             poj1753, codevs1004, wikioi1004), and no problem package (a folder with a \
             problem.yaml) is there",
        ));
}

#[test]
fn an_accepted_submission_that_times_out_does_not_set_the_time_limit() {
    let dir = tempfile::tempdir().unwrap();
    let package = copy("sum", dir.path());
    // Fixed at 1 s, the accepted submissions run under it; the spinner there times out.
    write(
        &package,
        "problem.yaml",
        "problem_format_version: 2023-07-draft\nname: Sum\nvalidator_flags: float_tolerance 1e-6\n\
         limits:\n  time_limit: 1\n",
    );
    write(
        &package,
        "submissions/accepted/spin.py",
        "while True:\n    pass\n",
    );
    let (code, table) = verify(&package);
    assert_eq!(code, 1, "{table}");
    assert!(
        table.starts_with("Sum: 3 test cases, time limit 1 s (fixed by problem.yaml)"),
        "{table}"
    );
    assert_eq!(
        &row(&table, "accepted/spin.py")[1..3],
        ["AC", "TLE <- disagrees"]
    );
    assert_eq!(&row(&table, "accepted/sum.c")[1..3], ["AC", "AC"]);
    assert!(
        table.contains("1 submission(s) did not get the verdict"),
        "{table}"
    );
}
