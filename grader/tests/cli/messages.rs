//! Messages (issue 13): a wrong call says in its one line what is missing or what was
//! expected; a file where a folder belongs is named as such; quoted output shows its
//! invisible characters; verdicts and malformed inputs name the first place at fault.

use predicates::prelude::*;

use super::{grader, one_error_line};

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
        (&["merge"], "<REPORTS>", "grader merge"),
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
            "a value is required (expected one of human, json, junit)",
            "grader test",
        ),
        (
            &["test", "flip", "a.c", "--time-limt", "2"],
            "a similar argument exists: --time-limit",
            "grader test",
        ),
        (&["tset"], "a similar command exists: test", "grader"),
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
