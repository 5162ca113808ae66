//! `grader problems`: what the grader knows, for people choosing a problem id or a kind.

use reference::Problem;

use crate::report::{self, tables::Table};
use crate::status::Status;
use std::fmt::Write as _;

pub(crate) fn run() -> Status {
    let mut table = Table::new(&["id", "aliases", "judged by", "title"], &[]);
    for problem in Problem::ALL {
        table.row(vec![
            problem.id().to_owned(),
            problem.aliases().join(", "),
            if problem.needs_checker() {
                "checker (any optimal sequence)".to_owned()
            } else {
                "comparison".to_owned()
            },
            problem.title().to_owned(),
        ]);
    }
    let mut text = table.render();
    for problem in Problem::ALL {
        let kinds: Vec<&str> = problem.kinds().iter().map(|k| k.name).collect();
        let mutants: Vec<&str> = problem.mutants().iter().map(|m| m.0).collect();
        let _ = write!(
            text,
            "\n{problem}\n  kinds:   {}\n  mutants: {}\n",
            kinds.join(", "),
            mutants.join(", ")
        );
    }
    report::out(&text);
    Status::Ok
}
