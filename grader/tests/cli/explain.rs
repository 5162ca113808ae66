//! `grader solve --explain` through the binary: the reason and the witness of the answer,
//! drawn for people and in JSON. Every witness printed is replayed here, by the rules of
//! problems.md written again for the test, and must solve its board in exactly the
//! answer's number of steps; every "cannot be solved" reason is checked as it is stated.

use std::collections::BTreeSet;
use std::fs;

use predicates::prelude::*;
use serde_json::Value;

use testkit::boards::{FLIP_SAMPLE, FOURINROW_SAMPLE};
use testkit::files::write;
use testkit::grader::{grader, one_error_line};
use testkit::paths::repo;
use testkit::rules::{cells, flip_press, flip_press_area, fourinrow_has_line, one_colour};

/// `grader solve PROBLEM --explain --report json` on `input`: the whole object.
fn explained(problem: &str, input: &str) -> Value {
    let output = grader()
        .args(["solve", problem, "--explain", "--report", "json"])
        .write_stdin(input)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    serde_json::from_slice(&output).unwrap()
}

/// Boards drawn by `grader gen` of each kind, `count` each.
fn generated(problem: &str, kinds: &[&str], count: u32) -> Vec<String> {
    let mut boards = Vec::new();
    for (seed, kind) in kinds.iter().enumerate() {
        let output = grader()
            .args([
                "gen",
                problem,
                "--kind",
                kind,
                "--count",
                &count.to_string(),
            ])
            .args(["--seed", &(seed + 1).to_string()])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let text = String::from_utf8(output).unwrap();
        boards.extend(text.split("\n\n").map(|b| format!("{}\n", b.trim_end())));
    }
    boards
}

/// A `[row, col]` of the JSON, 0-based.
fn square(value: &Value) -> (usize, usize) {
    let rc: Vec<usize> = value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| usize::try_from(v.as_u64().unwrap()).unwrap())
        .collect();
    assert!(rc.len() == 2 && (1..=4).contains(&rc[0]) && (1..=4).contains(&rc[1]));
    (rc[0] - 1, rc[1] - 1)
}

/// Checks one flip explanation against the answer it came with.
fn check_flip(input: &str, object: &Value) {
    let answer = object["answer"].as_str().unwrap().trim_end();
    let explanation = &object["explanation"];
    let presses = explanation["witness"].as_array().unwrap();
    let reason = explanation["reason"].as_str().unwrap();
    let mut board = cells(input);
    if answer == "Impossible" {
        assert!(presses.is_empty(), "{input}");
        // "whatever you press, the squares (1,1) ... keep an odd number of `b` (every press
        // flips an even number of them), and a solved board has an even number there".
        let listed = reason
            .split("the squares ")
            .nth(1)
            .and_then(|r| r.split(" keep an odd number").next())
            .unwrap_or_else(|| panic!("{reason}"));
        let squares: BTreeSet<(usize, usize)> = listed
            .split(' ')
            .map(|s| {
                let (r, c) = s.trim_matches(['(', ')']).split_once(',').unwrap();
                (
                    r.parse::<usize>().unwrap() - 1,
                    c.parse::<usize>().unwrap() - 1,
                )
            })
            .collect();
        let blacks = squares
            .iter()
            .filter(|&&(r, c)| board[r][c] == b'b')
            .count();
        assert_eq!(blacks % 2, 1, "{input}{reason}");
        assert_eq!(squares.len() % 2, 0, "even on both solved boards: {reason}");
        for r in 0..4 {
            for c in 0..4 {
                let flipped = flip_press_area(r, c)
                    .iter()
                    .filter(|s| squares.contains(s))
                    .count();
                assert_eq!(flipped % 2, 0, "press ({r},{c}): {reason}");
            }
        }
        return;
    }
    let n: usize = answer.parse().unwrap();
    assert_eq!(presses.len(), n, "{input}{reason}");
    for press in presses {
        let (r, c) = square(press);
        flip_press(&mut board, r, c);
    }
    assert!(one_colour(&board), "{input}: {reason}");
}

/// Checks one fourinrow explanation against the answer it came with.
fn check_fourinrow(input: &str, object: &Value) {
    let answer: usize = object["answer"]
        .as_str()
        .unwrap()
        .trim_end()
        .parse()
        .unwrap();
    let explanation = &object["explanation"];
    let moves = explanation["witness"].as_array().unwrap();
    assert_eq!(moves.len(), answer, "{input}");
    let mut board = cells(input);
    let mut mover = match explanation["first"].as_str() {
        Some("B") => b'B',
        Some("W") => b'W',
        None => {
            assert_eq!(answer, 0);
            assert!(fourinrow_has_line(&board), "{input}");
            return;
        }
        other => panic!("first: {other:?}"),
    };
    for step in moves {
        assert!(
            !fourinrow_has_line(&board),
            "a line before the last move: {input}"
        );
        let [from, to] = step.as_array().unwrap().as_slice() else {
            panic!("{step}")
        };
        let ((fr, fc), (tr, tc)) = (square(from), square(to));
        assert_eq!(fr.abs_diff(tr) + fc.abs_diff(tc), 1, "adjacent: {step}");
        assert_eq!(board[fr][fc], mover, "the colour to move: {input}{step}");
        assert_eq!(board[tr][tc], b'O', "into an empty square: {input}{step}");
        board[tr][tc] = mover;
        board[fr][fc] = b'O';
        mover = if mover == b'B' { b'W' } else { b'B' };
    }
    assert!(fourinrow_has_line(&board), "{input}");
}

#[test]
fn solve_explain_draws_the_reason_and_every_press_of_a_minimum_solution() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "sample.in", FLIP_SAMPLE);
    let output = grader()
        .args(["solve", "flip", "--explain"])
        .arg(&input)
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "4\n\nthe minimum is 4 presses: (",
        ))
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(output).unwrap();
    // The start and a grid per press, the first row of the start board under its label.
    let header = text.lines().nth(3).unwrap();
    assert!(header.starts_with("start "), "{text}");
    assert_eq!(header.matches("press (").count(), 4, "{text}");
    assert!(text.lines().nth(4).unwrap().starts_with("bwwb "), "{text}");
    // The last grid is solved.
    let last_column: Vec<&str> = text
        .lines()
        .skip(4)
        .map(|l| l.split_whitespace().last().unwrap())
        .collect();
    assert!(
        last_column == ["bbbb"; 4] || last_column == ["wwww"; 4],
        "{text}"
    );
    // Without the flag, the answer alone, as ever.
    grader()
        .args(["solve", "flip"])
        .arg(&input)
        .assert()
        .success()
        .stdout("4\n");
}

#[test]
fn every_flip_witness_solves_its_board_in_the_answer_and_every_invariant_holds() {
    let boards = generated(
        "flip",
        &["answer=1", "answer=3", "hardest", "impossible", "solved"],
        6,
    );
    assert_eq!(boards.len(), 30);
    for board in &boards {
        check_flip(board, &explained("flip", board));
    }
}

#[test]
fn every_fourinrow_witness_is_a_legal_minimum_sequence_with_its_first_colour() {
    let mut boards = generated(
        "fourinrow",
        &["hardest", "answer=3", "solved=diagonal-B", "first-mover=W"],
        6,
    );
    boards.push(FOURINROW_SAMPLE.to_owned());
    for board in &boards {
        check_fourinrow(board, &explained("fourinrow", board));
    }
    let sample = explained("fourinrow", FOURINROW_SAMPLE);
    assert_eq!(sample["answer"], "5\n");
    let reason = sample["explanation"]["reason"].as_str().unwrap();
    assert!(reason.starts_with("the minimum is 5 moves: `"), "{reason}");
}

#[test]
fn every_swap_witness_is_a_minimum_sequence_the_checker_accepts() {
    let dir = tempfile::tempdir().unwrap();
    let mut rows = generated("swap", &["random", "standard=4", "trap"], 4);
    rows.push("WWWOBBB\n".to_owned());
    for row in &rows {
        let object = explained("swap", row);
        let answer = object["answer"].as_str().unwrap();
        let witness: Vec<&str> = object["explanation"]["witness"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap())
            .collect();
        if answer == "Impossible\n" {
            assert!(witness.is_empty());
            continue;
        }
        // The witness, printed as an answer, is judged by the checker.
        let printed = format!("{}\n{}", witness.len(), witness.join("\n"));
        let input = write(dir.path(), "row.in", row);
        let output = write(dir.path(), "row.out", printed);
        grader()
            .args(["check", "swap"])
            .args([&input, &output])
            .assert()
            .success()
            .stdout("AC\n");
        assert_eq!(answer.lines().next().unwrap(), witness.len().to_string());
    }
}

#[test]
fn solve_report_json_has_exactly_the_documented_fields() {
    let doc = fs::read_to_string(repo().join("docs/cli.md")).unwrap();
    let block = doc
        .split("```json solve-report\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("a `json solve-report` block in cli.md");
    let documented: Value = serde_json::from_str(block).unwrap();
    // The documented example is the board one press of (2,2) away from all white.
    assert_eq!(explained("flip", "wbww\nbbbw\nwbww\nwwww\n"), documented);
    let keys = |v: &Value| -> Vec<String> { v.as_object().unwrap().keys().cloned().collect() };
    let real = explained("flip", FLIP_SAMPLE);
    assert_eq!(keys(&real), keys(&documented));
    assert_eq!(keys(&real["explanation"]), keys(&documented["explanation"]));
    let real = explained("fourinrow", FOURINROW_SAMPLE);
    assert_eq!(
        keys(&real["explanation"]),
        ["first", "reason", "witness"],
        "fourinrow adds `first`"
    );
    // Without --explain: the same object, the explanation null.
    grader()
        .args(["solve", "swap", "--report", "json"])
        .write_stdin("WOB\n")
        .assert()
        .success()
        .stdout(
            "{\"answer\":\"3\\nOWB\\nBWO\\nBOW\\n\",\"explanation\":null,\"problem\":\"swap\"}\n",
        );
}

#[test]
fn a_malformed_board_with_explain_is_one_error_line() {
    grader()
        .args(["solve", "fourinrow", "--explain"])
        .write_stdin("BWBO\nWBWB\n")
        .assert()
        .code(2)
        .stdout("")
        .stderr(one_error_line("<stdin>:3:1: "));
    grader()
        .args(["solve", "swap", "--explain", "--report", "yaml"])
        .write_stdin("WOB\n")
        .assert()
        .code(2)
        .stderr(one_error_line("yaml"));
}
