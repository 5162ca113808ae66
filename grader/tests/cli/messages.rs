//! Messages (issue 13): a wrong call says in its one line what is missing or what was
//! expected; a file where a folder belongs is named as such; quoted output shows its
//! invisible characters; verdicts and malformed inputs name the first place at fault.

use predicates::prelude::*;

use testkit::boards::FLIP_SAMPLE;
use testkit::cases::CaseFolder;
use testkit::files::write;
use testkit::grader::{grader, one_error_line};
use testkit::paths::repo;

#[test]
fn a_wrong_call_names_what_is_missing_and_what_is_valid_in_every_command() {
    // (arguments, what the one line must say, the command whose help it points to)
    let calls: &[(&[&str], &str, &str)] = &[
        (&["test"], "<PROBLEM>, <SUBMISSION>", "grader test"),
        (
            &["test", "flip"],
            "missing required argument: <SUBMISSION>",
            "grader test",
        ),
        (&["fuzz", "swap"], "<SUBMISSION>", "grader fuzz"),
        (
            &["batch", "flip"],
            "missing required argument: <DIR>",
            "grader batch",
        ),
        (&["check", "flip", "in"], "<OUTPUT>", "grader check"),
        (&["gen", "flip"], "--seed <SEED>", "grader gen"),
        (&["mutant", "flip"], "<NAME>", "grader mutant"),
        (&["merge"], "<GRADEBOOK.json>", "grader merge"),
        (&["cases", "power"], "<PROBLEM>", "grader cases power"),
        (
            &["batch", "flip", "class", "--layout", "weird"],
            "--layout weird: expected one of auto, folders, files",
            "grader batch",
        ),
        (
            &["test", "flip", "a.c", "--report", "xml"],
            "--report xml: expected one of human, json, junit",
            "grader test",
        ),
        (
            &["fuzz", "flip", "a.c", "--sandbox", "paranoid"],
            "--sandbox paranoid: expected one of auto, strict, basic, none",
            "grader fuzz",
        ),
        (
            &["check", "flip", "in", "out", "--report", "csv"],
            "--report csv: expected one of human, json",
            "grader check",
        ),
        (
            &["merge", "a.json", "--report", "pdf"],
            "--report pdf: expected one of human, json, csv, junit",
            "grader merge",
        ),
        (
            &["test", "flip", "a.c", "--report"],
            "a value is required (expected one of human, json, junit, gradescope)",
            "grader test",
        ),
        (
            &["test", "flip", "a.c", "--time-limt", "2"],
            "a similar argument exists: --time-limit",
            "grader test",
        ),
        (&["tset"], "a similar command exists: test", "grader"),
        (
            &[],
            "`grader` needs a command: one of problems, solve, ",
            "grader",
        ),
        (
            &["cases"],
            "`grader cases` needs a command: one of regen, check, power",
            "grader cases",
        ),
    ];
    for &(args, says, command) in calls {
        let help = format!("(see `{command} --help`)");
        grader().args(args).assert().code(2).stdout("").stderr(
            one_error_line(says)
                .and(predicate::str::contains(help))
                .and(predicate::str::contains("\n  ").not()),
        );
    }
}

#[test]
fn a_file_where_a_folder_belongs_is_named_as_a_file_by_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "notes.txt", "not a folder\n");
    let file = file.to_str().unwrap();
    // Compiled, so that the compile cache is opened.
    let source = write(dir.path(), "ok.c", "int main(void) { return 0; }\n");
    let source = source.to_str().unwrap();
    let cases = repo().join("cases/flip");
    let cases = cases.to_str().unwrap();
    let beneath = format!("{file}/deeper");
    let class = write(
        dir.path(),
        "class/alice.c",
        "int main(void) { return 0; }\n",
    );
    let class = class.parent().unwrap().to_str().unwrap();
    let calls: Vec<Vec<&str>> = vec![
        vec!["test", "flip", source, "--cases", file],
        vec!["batch", "flip", file, "--cases", cases],
        vec!["batch", "flip", class, "--cases", cases, "--out", file],
        vec!["cases", "check", "--root", file],
        vec!["cases", "regen", "flip", "--root", file],
        vec!["cases", "power", "flip", "--root", file],
        vec!["gen", "flip", "--seed", "1", "--out", file],
        vec!["gen", "flip", "--seed", "1", "--out", &beneath],
        vec![
            "test",
            "flip",
            source,
            "--cases",
            cases,
            "--cache-dir",
            file,
        ],
        vec![
            "test",
            "flip",
            source,
            "--cases",
            cases,
            "--cache-dir",
            &beneath,
        ],
    ];
    for args in calls {
        grader()
            .args(&args)
            .current_dir(dir.path())
            .assert()
            .code(2)
            .stderr(
                one_error_line("notes.txt: cannot ")
                    .and(predicate::str::contains(": is a file, not a folder"))
                    .and(predicate::str::contains("no such file").not()),
            );
    }
    // A path through the file: the file is named, not the OS's "Not a directory".
    let within = format!("{file}/deeper/x.in");
    for args in [
        vec!["solve", "flip", &within],
        vec!["validate", "flip", &within],
        vec!["check", "flip", &within, &within],
    ] {
        grader()
            .args(&args)
            .assert()
            .code(2)
            .stderr(
                one_error_line("x.in: cannot read: ").and(predicate::str::contains(
                    "notes.txt is a file, not a folder",
                )),
            );
    }
    // Nothing was written over the file or beside it.
    assert_eq!(std::fs::read_to_string(file).unwrap(), "not a folder\n");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 3);
}

#[test]
fn check_shows_invisible_characters_and_names_the_line_at_fault() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "1.in", FLIP_SAMPLE);
    let cases: &[(&[u8], &str)] = &[
        (
            "4\u{200b}\n".as_bytes(),
            "WA: expected `4`, got `4\\u{200b}`\n",
        ),
        (
            "\u{feff}4\n".as_bytes(),
            "WA: expected `4`, got `\\u{feff}4`\n",
        ),
        (b"4\x1b[2J\n", "WA: expected `4`, got `4\\x1b[2J`\n"),
        (
            b"4\n\xff\n",
            "WA: line 2: output is not valid UTF-8 (byte 0xFF at column 1)\n",
        ),
        (
            b"4\n\n\n\n\nx\n",
            "WA: line 6: expected the end of the output, got `x`\n",
        ),
        (
            b"\n4\n",
            "PE: right answer, wrong layout: line 1: expected `4`, got ``\n",
        ),
    ];
    for &(output, said) in cases {
        let out = write(dir.path(), "1.out", output);
        grader()
            .args(["check", "flip"])
            .args([&input, &out])
            .assert()
            .code(1)
            .stdout(said.to_owned());
    }
    let row = write(dir.path(), "swap.in", "WOB\n");
    let out = write(dir.path(), "swap.out", "3\nOWB BWO\n\n\nBWO\n");
    grader()
        .args(["check", "swap"])
        .args([&row, &out])
        .assert()
        .code(1)
        .stdout("WA: line 5: `BWO` is not one legal move from `BWO`: no piece moved\n");
}

#[test]
fn the_reports_of_test_show_invisible_characters_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let cases = dir.path().join("cases");
    CaseFolder::at(&cases).case("1", FLIP_SAMPLE, "4\n");
    let program = write(
        dir.path(),
        "zwsp.py",
        "import sys\nsys.stdout.write('4\\u200b\\n')\nsys.stderr.write('bye\\x1b[2J\\n')\n",
    );
    let run = |report: &str| {
        grader()
            .env("TMPDIR", dir.path())
            .env("GRADER_CACHE_DIR", cache.path())
            .args(["test", "flip"])
            .arg(&program)
            .arg("--cases")
            .arg(&cases)
            .args(["--report", report])
            .output()
            .unwrap()
    };
    let human = run("human");
    assert_eq!(human.status.code(), Some(1));
    let text = String::from_utf8(human.stdout).unwrap();
    assert!(text.contains("expected `4`, got `4\\u{200b}`"), "{text}");
    assert!(text.contains("+4\\u{200b}"), "the diff: {text}");
    assert!(text.contains("bye\\x1b[2J"), "the stderr: {text}");
    assert!(
        !text.contains('\u{200b}') && !text.contains('\x1b'),
        "{text}"
    );
    let json: serde_json::Value = serde_json::from_slice(&run("json").stdout).unwrap();
    assert_eq!(
        json["cases"][0]["message"],
        "expected `4`, got `4\\u{200b}`"
    );
}

#[test]
fn solve_and_validate_name_the_first_bad_byte_not_the_end_of_the_file() {
    let dir = tempfile::tempdir().unwrap();
    // (problem, file, its bytes, where its first bad byte is)
    let boards: &[(&str, &str, &[u8], &str)] = &[
        // A bad cell on line 2, and line 4 missing.
        ("flip", "short.in", b"bwwb\nbbxb\nbwwb\n", "short.in:2:3: "),
        // A bad cell on line 2, and no final line end.
        (
            "flip",
            "open.in",
            b"bwwb\nbbxb\nbwwb\nbwww",
            "open.in:2:3: ",
        ),
        // A bad cell on line 2, and a fifth line.
        (
            "flip",
            "long.in",
            b"bwwb\nbbxb\nbwwb\nbwww\nbwww\n",
            "long.in:2:3: ",
        ),
        // An 8th `B` on line 2, before a 5th cell.
        ("fourinrow", "eight.in", b"BBBB\nBBBBW\n", "eight.in:2:4: "),
        // A row that becomes too long at its 22nd cell, with no line end at all.
        (
            "swap",
            "row.in",
            b"WWWWWWWWWWOBBBBBBBBBBBBBBBB",
            "row.in:1:22: ",
        ),
    ];
    for &(problem, name, bytes, at) in boards {
        let file = write(dir.path(), name, bytes);
        grader()
            .args(["solve", problem])
            .arg(&file)
            .assert()
            .code(2)
            .stdout("")
            .stderr(one_error_line(at));
        grader()
            .args(["validate", problem])
            .arg(&file)
            .assert()
            .code(1)
            .stdout(predicate::str::contains(at));
    }
}

#[test]
fn the_html_gradebook_shows_invisible_characters_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let cases = dir.path().join("cases");
    CaseFolder::at(&cases).case("1", FLIP_SAMPLE, "4\n");
    write(
        dir.path(),
        "class/alice.py",
        "import sys\nsys.stdout.write('4\\u200b\\n')\n",
    );
    let out = dir.path().join("book");
    grader()
        .env("TMPDIR", dir.path())
        .env("GRADER_CACHE_DIR", cache.path())
        .args(["batch", "flip"])
        .arg(dir.path().join("class"))
        .arg("--cases")
        .arg(&cases)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(1);
    let html = std::fs::read_to_string(out.join("gradebook.html")).unwrap();
    assert!(html.contains("+4\\u{200b}"), "the diff: {html}");
    assert!(html.contains("got `4\\u{200b}`"), "the message: {html}");
    assert!(!html.contains('\u{200b}'), "{html}");
}
