//! Every witness in every report, replayed by this test's own rules from the case's input:
//! it must solve the board in exactly the expected answer's number of steps (for `swap`,
//! its rows must be a minimum sequence `grader check` accepts). The reports are those of
//! the classic wrong solutions (`grader mutant`) on the shipped cases: `grader test
//! --report json`, a `grader batch` gradebook, and `grader fuzz --report json`'s finding.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use testkit::cases::CaseFolder;
use testkit::class::Class;
use testkit::files::write;
use testkit::grader::{grader, grader_path};
use testkit::paths::repo;
use testkit::rules::{cells, flip_press, fourinrow_has_line, one_colour};

/// The wrong solutions tried, by problem: between them, numbers too big, too small and
/// `Impossible` (flip), the wrong first mover and missed lines (fourinrow), and sequences
/// too long, illegal or miscounted (swap).
const MUTANTS: [(&str, &[&str]); 3] = [
    ("flip", &["no-centre", "depth-cap-5", "no-impossible"]),
    ("fourinrow", &["black-first", "no-diagonals", "no-zero"]),
    ("swap", &["greedy", "backwards", "count-off-by-one"]),
];

/// The command line that runs mutant `name` of `problem`.
fn mutant(problem: &str, name: &str) -> String {
    format!("{} mutant {problem} {name}", grader_path().display())
}

/// The shipped case `name`'s input and answer.
fn case(problem: &str, name: &str) -> (String, String) {
    let base = repo().join("cases").join(problem).join("data").join(name);
    let read = |ext: &str| fs::read_to_string(base.with_extension(ext)).unwrap();
    (read("in"), read("ans"))
}

/// Replays `explanation` on `input` of `problem`, whose answer is `answer`: `Err` says
/// what does not hold.
fn replay(problem: &str, input: &str, answer: &str, explanation: &Value) -> Result<(), String> {
    let reason = explanation["reason"]
        .as_str()
        .ok_or("no reason")?
        .to_owned();
    if reason.is_empty() || reason.contains('\n') {
        return Err(format!("the reason is not one line: {reason:?}"));
    }
    let witness = explanation["witness"].as_array().ok_or("no witness")?;
    let first_line = answer.lines().next().unwrap_or("");
    let Ok(steps) = first_line.parse::<usize>() else {
        // `Impossible`: nothing to replay, and nothing claimed.
        return if first_line == "Impossible" && witness.is_empty() {
            Ok(())
        } else {
            Err(format!("answer {first_line:?}, witness {witness:?}"))
        };
    };
    if witness.len() != steps {
        return Err(format!("{} steps, the answer is {steps}", witness.len()));
    }
    match problem {
        "flip" => flip(input, witness),
        "fourinrow" => fourinrow(input, witness, &explanation["first"]),
        "swap" => swap(input, witness),
        _ => unreachable!(),
    }
}

/// `[row, col]`, 1-based, as 0-based indices.
fn square(value: &Value) -> Result<(usize, usize), String> {
    let at = |i: usize| {
        value[i]
            .as_u64()
            .filter(|n| (1..=4).contains(n))
            .map(|n| usize::try_from(n - 1).unwrap())
            .ok_or_else(|| format!("not a square: {value}"))
    };
    Ok((at(0)?, at(1)?))
}

/// Each press flips its square and those beside it; the board ends one colour.
fn flip(input: &str, presses: &[Value]) -> Result<(), String> {
    let mut b = cells(input);
    for press in presses {
        let (r, c) = square(press)?;
        flip_press(&mut b, r, c);
    }
    if one_colour(&b) {
        Ok(())
    } else {
        Err(format!("not one colour after the presses: {b:?}"))
    }
}

/// Colours take turns from `first`; each move takes a piece of the mover's colour to an
/// empty square beside it; the board ends with four of a colour in a line.
fn fourinrow(input: &str, moves: &[Value], first: &Value) -> Result<(), String> {
    let mut b = cells(input);
    let mut mover = match (first.as_str(), moves.is_empty()) {
        (Some("B"), false) => b'B',
        (Some("W"), false) => b'W',
        (None, true) if first.is_null() => b'?',
        _ => return Err(format!("first {first} for {} moves", moves.len())),
    };
    for m in moves {
        let ((r1, c1), (r2, c2)) = (square(&m[0])?, square(&m[1])?);
        if b[r1][c1] != mover || b[r2][c2] != b'O' || r1.abs_diff(r2) + c1.abs_diff(c2) != 1 {
            return Err(format!("{m}: not a move of {}", char::from(mover)));
        }
        b[r2][c2] = mover;
        b[r1][c1] = b'O';
        mover = if mover == b'B' { b'W' } else { b'B' };
    }
    if fourinrow_has_line(&b) {
        Ok(())
    } else {
        Err(format!("no line after the moves: {b:?}"))
    }
}

/// The rows, printed as an output, are `AC` by `grader check` (which replays them and
/// knows the minimum).
fn swap(input: &str, rows: &[Value]) -> Result<(), String> {
    let dir = tempfile::tempdir().unwrap();
    let mut output = format!("{}\n", rows.len());
    for row in rows {
        output += row.as_str().ok_or_else(|| format!("not a row: {row}"))?;
        output.push('\n');
    }
    let input_file = write(dir.path(), "in", input);
    let output_file = write(dir.path(), "out", &output);
    let check = grader()
        .args(["check", "swap"])
        .args([&input_file, &output_file])
        .output()
        .unwrap();
    if check.status.success() {
        Ok(())
    } else {
        Err(format!(
            "grader check: {}",
            String::from_utf8_lossy(&check.stdout)
        ))
    }
}

/// Replays every explained case of `cases` (a report's `cases`) of `problem`; how many.
fn replay_cases(problem: &str, cases: &[Value], origin: &str) -> usize {
    let mut replayed = 0;
    for c in cases {
        let verdict = c["verdict"].as_str().unwrap();
        let Some(explanation) = c.get("explanation") else {
            assert!(
                !matches!(verdict, "WA" | "PE"),
                "{origin}: {c} has no explanation"
            );
            continue;
        };
        assert!(matches!(verdict, "WA" | "PE"), "{origin}: {c}");
        let name = c["name"].as_str().unwrap();
        let (input, answer) = case(problem, name);
        if let Err(why) = replay(problem, &input, &answer, explanation) {
            panic!("{origin} {name}: {why}\n{explanation}");
        }
        replayed += 1;
    }
    replayed
}

#[test]
fn every_witness_of_a_test_report_solves_its_case_in_the_answers_steps() {
    for (problem, names) in MUTANTS {
        for name in names {
            let run = grader()
                .args(["test", problem, "--cmd", &mutant(problem, name)])
                .args(["--report", "json", "--jobs", "2", "--wall-limit", "60"])
                .output()
                .unwrap();
            assert_eq!(run.status.code(), Some(1), "{problem} {name}");
            let report: Value = serde_json::from_slice(&run.stdout).unwrap();
            let cases = report["cases"].as_array().unwrap();
            let replayed = replay_cases(problem, cases, &format!("{problem} {name}"));
            assert!(replayed > 0, "{problem} {name}: no wrong answer explained");
        }
    }
}

/// A class of one student per mutant of `problem`: a Python program that becomes the
/// mutant.
fn class(dir: &Path, problem: &str, names: &[&str]) -> PathBuf {
    let class = Class::at(dir.join("class"));
    let grader = grader_path();
    for name in names {
        class.write(
            format!("{name}.py"),
            format!(
                "import os\nos.execv({grader:?}, [{grader:?}, 'mutant', '{problem}', '{name}'])\n",
                grader = grader.display().to_string()
            ),
        );
    }
    class.path().to_path_buf()
}

#[test]
fn every_witness_of_a_gradebook_solves_its_case_in_the_answers_steps() {
    for (problem, names) in MUTANTS {
        let dir = tempfile::tempdir().unwrap();
        let class = class(dir.path(), problem, names);
        let out = dir.path().join("out");
        let batch = grader()
            .args(["batch", problem])
            .arg(&class)
            .arg("--out")
            .arg(&out)
            // The strict box would not show the student the grader binary it runs.
            .args(["--jobs", "2", "--wall-limit", "60", "--sandbox", "none"])
            .output()
            .unwrap();
        assert_eq!(batch.status.code(), Some(1), "{problem}");
        let book: Value =
            serde_json::from_slice(&fs::read(out.join("gradebook.json")).unwrap()).unwrap();
        let students = book["students"].as_array().unwrap();
        assert_eq!(students.len(), names.len(), "{book}");
        for student in students {
            let who = student["student"].as_str().unwrap();
            let cases = student["cases"].as_array().unwrap();
            let replayed = replay_cases(problem, cases, &format!("{problem} gradebook {who}"));
            assert!(replayed > 0, "{problem} {who}: no wrong answer explained");
        }
    }
}

#[test]
fn the_witness_of_a_fuzz_finding_solves_the_shrunk_input_in_the_answers_steps() {
    for (problem, names) in MUTANTS {
        let dir = tempfile::tempdir().unwrap();
        let run = grader()
            .current_dir(dir.path())
            .args(["fuzz", problem, "--cmd", &mutant(problem, names[0])])
            .args(["--report", "json", "--seed", "1", "--runs", "300"])
            .args(["--no-regressions", "--jobs", "2", "--wall-limit", "60"])
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(1), "{problem}");
        let report: Value = serde_json::from_slice(&run.stdout).unwrap();
        let shrunk = &report["finding"]["shrunk"];
        assert!(
            matches!(shrunk["verdict"].as_str(), Some("WA" | "PE")),
            "{report}"
        );
        let explanation = shrunk.get("explanation").expect("explained");
        let input = shrunk["input"].as_str().unwrap();
        let expected = shrunk["expected"].as_str().unwrap();
        if let Err(why) = replay(problem, input, expected, explanation) {
            panic!("{problem} fuzz: {why}\n{report}");
        }
    }
}

#[test]
fn the_replay_refuses_a_witness_one_step_short_or_illegal() {
    // The test's own rules must be able to fail.
    let flip = serde_json::json!({"reason": "r", "witness": [[2, 2]]});
    assert!(replay("flip", "wbww\nbbbw\nwbww\nwwww\n", "1\n", &flip).is_ok());
    assert!(replay("flip", "wbww\nbbbw\nwbww\nwwww\n", "2\n", &flip).is_err());
    let wrong_press = serde_json::json!({"reason": "r", "witness": [[1, 1]]});
    assert!(replay("flip", "wbww\nbbbw\nwbww\nwwww\n", "1\n", &wrong_press).is_err());
    let white_first =
        serde_json::json!({"reason": "r", "witness": [[[2, 1], [2, 2]]], "first": "B"});
    assert!(replay("fourinrow", "BWWO\nWOBB\nBWBW\nBWBW\n", "1\n", &white_first).is_err());
    let swap = serde_json::json!({"reason": "r", "witness": ["OWB", "OBW", "BOW"]});
    assert!(replay("swap", "WOB\n", "3\nOWB\nBWO\nBOW\n", &swap).is_err());
}

#[test]
fn the_human_reports_say_why_and_draw_the_minimum_step_by_step() {
    let dir = tempfile::tempdir().unwrap();
    let cases = dir.path().join("cases");
    // One press at (2,2) solves it; the program prints 3.
    CaseFolder::at(&cases).case("secret/01", "wbww\nbbbw\nwbww\nwwww\n", "1\n");
    let test = grader()
        .args(["test", "flip", "--cmd", "echo 3", "--jobs", "1", "--cases"])
        .arg(&cases)
        .output()
        .unwrap();
    assert_eq!(test.status.code(), Some(1));
    let text = String::from_utf8(test.stdout).unwrap();
    assert!(
        text.contains(
            "  why: you printed 3; 1 press suffices: (2,2)\n\
             \x20   start         press (2,2)\n\
             \x20   wbww          wwww\n"
        ),
        "{text}"
    );
    let fuzz = grader()
        .current_dir(dir.path())
        .args(["fuzz", "flip", "--cmd", &mutant("flip", "no-zero")])
        .args([
            "--seed",
            "1",
            "--runs",
            "50",
            "--no-regressions",
            "--jobs",
            "1",
        ])
        .output()
        .unwrap();
    assert_eq!(fuzz.status.code(), Some(1));
    let text = String::from_utf8(fuzz.stdout).unwrap();
    assert!(
        text.contains("  why: the board is already solved, so the answer is 0\n    start\n"),
        "{text}"
    );
}
