//! Both versions of the problem package format, read as each says, on a problem written in
//! each (`twice`: print twice the input's number): the legacy one (`validation: custom`,
//! `output_validators/NAME/`, `testdata.yaml`'s flag strings, `time_multiplier`,
//! `problem_statement/`) and 2023-07 (`problem_format_version`, `type` as a list, `name`
//! by language, `output_validator/` with no `validation` key, `answer_validators/`,
//! `test_group.yaml`'s argument lists, `input_validator_args` by validator,
//! `limits.time_limit`, `statement/`, `submissions/submissions.yaml`).

use std::path::{Path, PathBuf};

use testkit::files::write;
use testkit::grader::grader;
use testkit::output::{json, said};
use testkit::packages::row;

/// The input validator: one number of 1 to MAX, MAX given as `--max MAX` (refused
/// without it: a validator that did not get its arguments says so, exit 1).
const VALIDATE: &str = r#"import sys
args = sys.argv[1:]
if args[:1] != ["--max"]:
    print("no --max given", file=sys.stderr)
    sys.exit(1)
top = int(args[1])
text = sys.stdin.read()
ok = text.endswith("\n") and text.strip().isdigit() and 1 <= int(text) <= top
sys.exit(42 if ok else 43)
"#;

/// The output validator: twice the input, and it must be given `strict` (a fault
/// without, exit 1: the flags of the data's configuration reached it).
const CHECK: &str = r#"import sys
input_file, answer_file, feedback = sys.argv[1:4]
if "strict" not in sys.argv[4:]:
    sys.exit(1)
want = int(open(input_file).read()) * 2
got = sys.stdin.read().split()
if got == [str(want)]:
    sys.exit(42)
open(feedback + "/judgemessage.txt", "w").write("expected %d" % want)
sys.exit(43)
"#;

/// The answer validator of 2023-07 (BAPCtools'): `answer.py INPUT < ANSWER`.
const ANSWER: &str = r#"import sys
n = int(open(sys.argv[1]).read())
sys.exit(42 if sys.stdin.read() == "%d\n" % (2 * n) else 43)
"#;

const RIGHT: &str = "print(2 * int(input()))\n";
const WRONG: &str = "print(2 * int(input()) + 1)\n";

/// The cases of both packages, in `data/`.
fn data(package: &Path) {
    write(package, "data/sample/1.in", "3\n");
    write(package, "data/sample/1.ans", "6\n");
    write(package, "data/secret/1.in", "50\n");
    write(package, "data/secret/1.ans", "100\n");
    write(package, "data/secret/2.in", "7\n");
    write(package, "data/secret/2.ans", "14\n");
}

/// `twice` in the legacy format, at `dir/legacy`.
fn legacy(dir: &Path) -> PathBuf {
    let package = dir.join("legacy");
    write(
        &package,
        "problem.yaml",
        "name: Twice\nvalidation: custom\nvalidator_flags: strict\nlimits:\n  time_multiplier: 3\n  memory: 256\n",
    );
    write(
        &package,
        "problem_statement/problem.en.tex",
        "Print twice $n$.\n",
    );
    data(&package);
    write(
        &package,
        "data/testdata.yaml",
        "input_validator_flags: --max 100\n",
    );
    write(&package, "input_validators/validate.py", VALIDATE);
    write(&package, "output_validators/check/check.py", CHECK);
    write(&package, "submissions/accepted/right.py", RIGHT);
    write(&package, "submissions/wrong_answer/off.py", WRONG);
    package
}

/// `twice` in the 2023-07 format, at `dir/modern`.
fn modern(dir: &Path) -> PathBuf {
    let package = dir.join("modern");
    write(
        &package,
        "problem.yaml",
        "problem_format_version: 2023-07-draft\n\
         type: [pass-fail]\n\
         name:\n  nl: Tweemaal\n  en: Twice\n\
         uuid: 0b4d2f9e-52a3-4c39-9d1c-8c7a3d0b2e11\n\
         limits:\n  time_limit: 2\n  time_multipliers:\n    ac_to_time_limit: 3\n  memory: 256\n",
    );
    write(&package, "statement/problem.en.md", "Print twice *n*.\n");
    data(&package);
    write(
        &package,
        "data/test_group.yaml",
        "output_validator_args: [strict]\ninput_validator_args:\n  validate: [--max, \"100\"]\n",
    );
    write(&package, "input_validators/validate.py", VALIDATE);
    write(&package, "answer_validators/answer.py", ANSWER);
    write(&package, "output_validator/check.py", CHECK);
    write(&package, "submissions/accepted/right.py", RIGHT);
    write(&package, "submissions/wrong_answer/off.py", WRONG);
    // Checks of the validators: an invalid input (over the --max its validator is given).
    write(&package, "data/invalid_input/big.in", "500\n");
    // A folder of no meaning of its own, given one by submissions.yaml.
    write(&package, "submissions/mixed/maybe.py", WRONG);
    write(
        &package,
        "submissions/submissions.yaml",
        "mixed/*.py:\n  permitted: [AC, WA]\n  required: [WA]\n",
    );
    package
}

/// `grader package verify` on `package`: its exit status, standard output and error.
fn verify(package: &Path) -> (i32, String, String) {
    testkit::packages::verify(package, &[])
}

#[test]
fn a_legacy_package_is_verified_as_the_legacy_format_says() {
    let dir = tempfile::tempdir().unwrap();
    let package = legacy(dir.path());
    // A file named as 2023-07's folder means nothing to the legacy format (NWERC 2022's
    // `eta` has a stray binary so named beside its output_validators/): not read.
    write(&package, "output_validator", "\u{7f}ELF, a stray binary\n");
    let (code, table, stderr) = verify(&package);
    assert_eq!(code, 0, "{table}{stderr}");
    assert!(
        table.starts_with("Twice: 3 test cases, time limit 1 s (set from the accepted"),
        "{table}"
    );
    assert!(
        table.contains(
            "data: input_validators/validate.py on every input; the output validator on every \
             answer: all accepted"
        ),
        "{table}"
    );
    assert_eq!(
        &row(&table, "wrong_answer/off.py")[1..3],
        ["WA", "WA"],
        "{table}"
    );
    assert!(table.contains("sample/1: expected 6"), "{table}");
    assert!(stderr.is_empty(), "{stderr}");
}

#[test]
fn a_2023_07_package_is_verified_as_2023_07_says() {
    let dir = tempfile::tempdir().unwrap();
    let package = modern(dir.path());
    let (code, table, stderr) = verify(&package);
    assert_eq!(code, 0, "{table}{stderr}");
    // The English name, the fixed limit.
    assert!(
        table.starts_with("Twice: 3 test cases, time limit 2 s"),
        "{table}"
    );
    assert!(
        table.contains(
            "data: input_validators/validate.py on every input; the input validators on 1 \
             invalid input(s); answer_validators/answer.py on every answer; the output \
             validator on every answer: all accepted"
        ),
        "{table}"
    );
    // output_validator/ judged (its message), with no `validation` key.
    assert!(table.contains("sample/1: expected 6"), "{table}");
    let maybe = row(&table, "mixed/maybe.py");
    assert_eq!(&maybe[1..3], ["WA", "WA"], "{table}");
    assert_eq!(maybe.last(), Some(&"submissions.yaml"), "{table}");
    assert!(stderr.is_empty(), "{stderr}");

    // An answer the answer validator refuses (the output validator accepts `100 `).
    write(&package, "data/secret/1.ans", "100 \n");
    let (code, table, _) = verify(&package);
    assert_eq!(code, 1, "{table}");
    assert!(
        table.contains("data/secret/1.ans: rejected by answer_validators/answer.py"),
        "{table}"
    );
    write(&package, "data/secret/1.ans", "100\n");

    // An invalid input every input validator accepts: exit 1. The output validator's
    // checks are not run, and said.
    write(&package, "data/invalid_input/fine.in", "5\n");
    write(&package, "data/valid_output/1.in", "5\n");
    write(&package, "data/valid_output/1.ans", "10\n");
    write(&package, "data/valid_output/1.out", "10\n");
    let (code, table, stderr) = verify(&package);
    assert_eq!(code, 1, "{table}");
    assert!(
        table.contains(
            "data/invalid_input/fine.in: accepted by every input validator, but an invalid \
             input (data/invalid_input/) must be refused by one"
        ),
        "{table}"
    );
    assert!(!table.contains("big.in"), "{table}");
    assert!(table.starts_with("Twice: 3 test cases"), "{table}");
    assert!(
        stderr.contains("valid_output: 2023-07's checks of the output validator are not run"),
        "{stderr}"
    );
    std::fs::remove_file(package.join("data/invalid_input/fine.in")).unwrap();
    std::fs::remove_dir_all(package.join("data/valid_output")).unwrap();

    // submissions.yaml that asks for what the submission does not get: exit 1.
    write(
        &package,
        "submissions/submissions.yaml",
        "mixed/*.py:\n  permitted: [AC]\n",
    );
    let (code, table, _) = verify(&package);
    assert_eq!(code, 1, "{table}");
    assert_eq!(
        &row(&table, "mixed/maybe.py")[1..3],
        ["AC", "WA <- disagrees"],
        "{table}"
    );

    // What submissions.yaml asks that the grader does not check is warned of.
    write(
        &package,
        "submissions/submissions.yaml",
        "mixed/*.py:\n  required: [WA]\n  message: expected\n",
    );
    let (code, table, stderr) = verify(&package);
    assert_eq!(code, 0, "{table}{stderr}");
    assert!(
        stderr.contains("submissions.yaml:3:3: `mixed/*.py`: `message` is not read"),
        "{stderr}"
    );
}

#[test]
fn a_folder_or_key_of_the_other_version_is_warned_of_or_refused() {
    let dir = tempfile::tempdir().unwrap();
    // 2023-07's output_validator/ in a legacy package without `validation: custom`: the
    // default validator judges, and the grader says it did not use the folder.
    let package = legacy(dir.path());
    std::fs::rename(
        package.join("output_validators/check"),
        package.join("output_validator"),
    )
    .unwrap();
    std::fs::remove_dir(package.join("output_validators")).unwrap();
    write(
        &package,
        "problem.yaml",
        "name: Twice\nlimits:\n  time_multiplier: 3\n",
    );
    let (code, table, stderr) = verify(&package);
    assert_eq!(code, 0, "{table}{stderr}");
    assert!(
        stderr.contains("output_validator/ is 2023-07's; this package is legacy"),
        "{stderr}"
    );
    // In a 2023-07 package the name is its output validator's folder: a file there is
    // refused, named.
    let package = modern(dir.path());
    std::fs::remove_dir_all(package.join("output_validator")).unwrap();
    write(&package, "output_validator", "a stray file\n");
    let (code, _, stderr) = verify(&package);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("output_validator: is a file, not a folder"),
        "{stderr}"
    );
    std::fs::remove_file(package.join("output_validator")).unwrap();
    // Types the format does not allow together: exit 2 at their place.
    let package = modern(dir.path());
    write(
        &package,
        "problem.yaml",
        "problem_format_version: 2023-07-draft\nname: Twice\ntype: [pass-fail, scoring]\n",
    );
    let (code, _, stderr) = verify(&package);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("problem.yaml:3:7: type: `pass-fail` and `scoring` cannot be together"),
        "{stderr}"
    );
}

/// `twice` as a 2025-09 scoring problem: `secret/a` (40 points, `pass-fail`) and
/// `secret/b` (60, `sum` of its two cases, only if `secret/a` was accepted).
fn scoring_2025(dir: &Path) -> PathBuf {
    let package = dir.join("scoring2025");
    write(
        &package,
        "problem.yaml",
        "problem_format_version: 2025-09\ntype: scoring\nname: Twice\n",
    );
    write(&package, "data/sample/1.in", "3\n");
    write(&package, "data/sample/1.ans", "6\n");
    for (case, n) in [("a/1", 5), ("a/2", 6), ("b/1", 7), ("b/2", 8)] {
        write(&package, format!("data/secret/{case}.in"), format!("{n}\n"));
        write(
            &package,
            format!("data/secret/{case}.ans"),
            format!("{}\n", 2 * n),
        );
    }
    write(&package, "data/secret/a/test_group.yaml", "max_score: 40\n");
    write(
        &package,
        "data/secret/b/test_group.yaml",
        "max_score: 60\nscore_aggregation: sum\nrequire_pass: secret/a\n",
    );
    write(&package, "submissions/accepted/right.py", RIGHT);
    // Wrong on 8 alone: `secret/b`'s second case.
    write(
        &package,
        "submissions/partially_accepted/half.py",
        "n = int(input())\nprint(2 * n + (n == 8))\n",
    );
    // Wrong on 5 alone: `secret/a` fails, and `secret/b`, which requires it, scores
    // nothing though its cases are right.
    write(
        &package,
        "submissions/wrong_answer/first.py",
        "n = int(input())\nprint(2 * n + (n == 5))\n",
    );
    package
}

/// In a report's points, a 2025-09 group whose cases lie in two folders is worth its
/// max_score once, each folder its cases' share (it was once a folder: 140 points in all).
#[test]
fn a_2025_09_group_split_over_folders_is_worth_its_max_score_once_in_points() {
    let dir = tempfile::tempdir().unwrap();
    let package = scoring_2025(dir.path());
    for (from, to) in [("a/1", "a/x/1"), ("a/2", "a/y/2")] {
        let secret = package.join("data/secret");
        std::fs::create_dir_all(secret.join(to).parent().unwrap()).unwrap();
        for extension in ["in", "ans"] {
            std::fs::rename(
                secret.join(format!("{from}.{extension}")),
                secret.join(format!("{to}.{extension}")),
            )
            .unwrap();
        }
    }
    let output = grader()
        .arg("test")
        .arg(&package)
        .arg(package.join("submissions/accepted/right.py"))
        .args(["--report", "gradescope"])
        .timeout(std::time::Duration::from_mins(3))
        .output()
        .unwrap();
    let (code, out, err) = said(&output);
    assert_eq!(code, 0, "{out}{err}");
    let report = json(&out);
    assert!(
        report["output"]
            .as_str()
            .unwrap()
            .ends_with("100 of 100 points"),
        "{out}"
    );
    let worth = |name: &str| {
        report["tests"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"].as_str().unwrap().starts_with(name))
            .unwrap_or_else(|| panic!("no {name}: {out}"))["max_score"]
            .to_string()
    };
    // Each case its share: `secret/a`'s 40 over two, `secret/b`'s 60 over two.
    assert_eq!(
        ["secret/a/x/1", "secret/a/y/2", "secret/b/1"].map(worth),
        ["20.0", "20.0", "30.0"],
        "{out}"
    );
}

/// Verifies `scoring_2025`'s package as its groups score it (100, 70, 0), every
/// submission as its folder says; what it said on stderr.
fn scored_as_its_groups_say(package: &Path) -> String {
    let (code, table, stderr) = verify(package);
    assert_eq!(code, 0, "{table}{stderr}");
    assert_eq!(&row(&table, "accepted/right.py")[1..3], ["AC", "AC (100)"]);
    // Its verdict is its cases' (2025-09 has no accepted-with-less), its score between.
    assert_eq!(
        &row(&table, "partially_accepted/half.py")[1..3],
        ["RTE,TLE,WA", "WA (70)"],
        "{table}"
    );
    assert_eq!(
        &row(&table, "wrong_answer/first.py")[1..3],
        ["WA", "WA (0)"],
        "{table}"
    );
    stderr
}

/// The form of an earlier draft, which the format's own `scoring` example writes
/// (`scoring: {score: 30, aggregation: min}`), is read as `max_score` and
/// `score_aggregation`, and said.
#[test]
fn a_drafts_scoring_map_is_read_as_max_score_and_aggregation() {
    let dir = tempfile::tempdir().unwrap();
    let package = scoring_2025(dir.path());
    write(
        &package,
        "data/secret/a/test_group.yaml",
        "scoring:\n  score: 40\n",
    );
    write(
        &package,
        "data/secret/b/test_group.yaml",
        "scoring:\n  score: 60\n  aggregation: sum\nrequire_pass: secret/a\n",
    );
    let stderr = scored_as_its_groups_say(&package);
    assert_eq!(
        stderr
            .matches("`scoring: {score, aggregation}` is read as max_score and score_aggregation")
            .count(),
        2,
        "{stderr}"
    );
}

#[test]
fn a_2025_09_scoring_problem_scores_by_its_groups_max_score_aggregation_and_requirements() {
    let dir = tempfile::tempdir().unwrap();
    let package = scoring_2025(dir.path());
    let stderr = scored_as_its_groups_say(&package);
    assert!(stderr.is_empty(), "{stderr}");

    // A group that does not say what it is worth, while secret's is bounded: exit 2.
    write(
        &package,
        "data/secret/a/test_group.yaml",
        "score_aggregation: min\n",
    );
    let (code, _, stderr) = verify(&package);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains(
            "secret/a/test_group.yaml: no max_score: a test data group must say what it is \
             worth"
        ),
        "{stderr}"
    );
    // A requirement that is not an earlier pass-fail group: exit 2 at its file.
    write(&package, "data/secret/a/test_group.yaml", "max_score: 40\n");
    write(
        &package,
        "data/secret/b/test_group.yaml",
        "max_score: 60\nrequire_pass: secret/c\n",
    );
    let (code, _, stderr) = verify(&package);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("require_pass: `secret/c` is neither sample nor a pass-fail group"),
        "{stderr}"
    );

    // A legacy scoring key in the package: scored by the legacy keys as before, and the
    // 2025-09 keys are said not to be read.
    write(
        &package,
        "data/secret/b/test_group.yaml",
        "max_score: 60\naccept_score: 2\n",
    );
    let (code, table, stderr) = verify(&package);
    assert_eq!(code, 1, "{table}{stderr}");
    assert!(
        stderr.contains("`max_score` (2025-09) is not read"),
        "{stderr}"
    );

    // An output validator's score.txt is not read: said, and the case scores its share.
    write(
        &package,
        "data/secret/b/test_group.yaml",
        "max_score: 60\nscore_aggregation: sum\n",
    );
    write(
        &package,
        "output_validator/check.py",
        "import sys\nwant = int(open(sys.argv[1]).read()) * 2\n\
         open(sys.argv[3] + '/score.txt', 'w').write('1')\n\
         sys.exit(42 if sys.stdin.read().split() == [str(want)] else 43)\n",
    );
    let (code, table, stderr) = verify(&package);
    assert_eq!(code, 0, "{table}{stderr}");
    assert_eq!(&row(&table, "accepted/right.py")[1..3], ["AC", "AC (100)"]);
    assert!(
        stderr.contains(
            "the output validator left score.txt, which is not read: a case scores its \
             group's share"
        ),
        "{stderr}"
    );
}

/// `twice` with its numbers as the package's constants, replaced where 2025-09 says: in
/// the validators, the submissions (a file and a folder's files) and `test_group.yaml`.
#[test]
fn a_packages_constants_are_replaced_in_its_programs_and_test_group_files() {
    let dir = tempfile::tempdir().unwrap();
    let package = dir.path().join("constants");
    write(
        &package,
        "problem.yaml",
        "problem_format_version: 2025-09\nname: Twice\nconstants:\n  max_n: 100\n  \
         factor:\n    value: 2\n    tex: two\n",
    );
    data(&package);
    write(
        &package,
        "data/test_group.yaml",
        "input_validator_args: [--max, \"{{max_n}}\"]\noutput_validator_args: [strict]\n",
    );
    // The validator refuses to run unless both its argument and its own text were
    // replaced.
    write(
        &package,
        "input_validators/validate.py",
        VALIDATE.replace(
            "top = int(args[1])\n",
            "top = int(args[1])\nif top != {{max_n}}:\n    sys.exit(1)\n",
        ),
    );
    write(
        &package,
        "output_validator/check.py",
        CHECK.replace("* 2", "* {{factor}}"),
    );
    write(
        &package,
        "submissions/accepted/right.py",
        "print({{factor.value}} * int(input()))  # {{factor.tex}}, not {{unknown}}\n",
    );
    write(
        &package,
        "submissions/accepted/folder/main.py",
        "from helper import twice\nprint(twice(int(input())))\n",
    );
    write(
        &package,
        "submissions/accepted/folder/helper.py",
        "def twice(n):\n    return {{factor}} * n\n",
    );
    write(&package, "submissions/wrong_answer/off.py", WRONG);
    let (code, table, stderr) = verify(&package);
    assert_eq!(code, 0, "{table}{stderr}");
    for accepted in ["accepted/right.py", "accepted/folder"] {
        assert_eq!(&row(&table, accepted)[1..3], ["AC", "AC"], "{table}");
    }
    assert_eq!(&row(&table, "wrong_answer/off.py")[1..3], ["WA", "WA"]);
    assert!(
        table.contains("input_validators/validate.py on every input"),
        "{table}"
    );
    assert!(stderr.is_empty(), "{stderr}");
    // The package's files are as they were written.
    let written = std::fs::read_to_string(package.join("submissions/accepted/right.py")).unwrap();
    assert!(written.contains("{{factor.value}}"), "{written}");

    // 2025-09's static validator is not read: said, once.
    write(&package, "static_validator/check.py", "print(1)\n");
    let (code, _, stderr) = verify(&package);
    assert_eq!(code, 0, "{stderr}");
    let said = format!("{}: not read: ", package.join("static_validator").display());
    assert_eq!(stderr.matches(&said).count(), 1, "{stderr}");
    assert!(
        stderr.contains("static validation of submissions is not run"),
        "{stderr}"
    );
    std::fs::remove_dir_all(package.join("static_validator")).unwrap();

    // A constant the format does not allow: exit 2 naming problem.yaml.
    write(
        &package,
        "problem.yaml",
        "problem_format_version: 2025-09\nname: Twice\nconstants:\n  2n: 4\n",
    );
    let (code, _, stderr) = verify(&package);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("problem.yaml: constants: `2n` is not a name"),
        "{stderr}"
    );
}

/// Only a sample's answer must be an output the output validator accepts: another may be
/// what the validator reads, in a form of its own (listed as allowed, not a fault).
#[test]
fn a_secret_answer_need_not_be_an_output_and_a_samples_must() {
    let dir = tempfile::tempdir().unwrap();
    let package = modern(dir.path());
    // No answer validator: it would refuse the note below, as it should.
    std::fs::remove_dir_all(package.join("answer_validators")).unwrap();
    // The validator reads the input alone; a secret answer here is a note, no output.
    write(&package, "data/secret/2.ans", "any multiple of 7 doubled\n");
    let (code, table, stderr) = verify(&package);
    assert_eq!(code, 0, "{table}{stderr}");
    assert!(
        table.contains(
            "1 secret answer(s) the output validator does not accept as outputs: allowed"
        ) && table.contains("data/secret/2.ans: the output validator does not accept it"),
        "{table}"
    );
    // A sample's answer is shown in the statement: it must be one.
    write(&package, "data/sample/1.ans", "7\n");
    let (code, table, stderr) = verify(&package);
    assert_eq!(code, 1, "{table}{stderr}");
    assert!(table.contains("1 refused"), "{table}");
    assert!(
        table.contains("  data/sample/1.ans: the output validator does not accept it"),
        "{table}"
    );
}
