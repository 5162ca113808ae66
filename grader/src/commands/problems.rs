//! `grader problems [PROBLEM]`: what the grader knows, for people choosing a problem id or
//! a kind; with a PROBLEM, that problem's statement, formats and worked examples.
//!
//! The statements are docs/problems.md itself, embedded at build time, so the repository's
//! documentation and the binary can never say different things. The file is one page
//! (a reader sees every problem and the shared conventions together) with one
//! second-level section per problem whose heading starts with the problem's id in
//! backticks; [`statement`] cuts a problem's section out by that heading. A test below
//! checks that every problem has its section, and `grader/tests/cli/docs.rs` keeps the
//! examples in it true.

use reference::Problem;

use crate::cli::exit::Status;
use crate::report::{self, tables::Table};
use std::fmt::Write as _;

/// docs/problems.md, as built into this binary.
const PROBLEMS_MD: &str = include_str!("../../../docs/problems.md");

/// Where the statements come from, for the line that ends a printed statement.
const SOURCE: &str = "docs/problems.md";

pub(crate) fn run(problem: Option<Problem>) -> Status {
    match problem {
        None => report::out(&listing()),
        Some(problem) => {
            let mut text = statement(PROBLEMS_MD, problem).to_owned();
            let _ = write!(
                text,
                "\n(From {SOURCE}; judging rules: docs/judging.md; commands: docs/cli.md.)\n"
            );
            report::out(&text);
        }
    }
    Status::Ok
}

/// The table of problems, then each problem's kinds and mutants.
fn listing() -> String {
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
        // The held-apart mutants are listed on a line of their own: they measure the
        // fuzzer and were never used to tune it (issue 17).
        let (mut mutants, mut held_apart) = (Vec::new(), Vec::new());
        for (index, (name, _)) in problem.mutants().into_iter().enumerate() {
            if problem.is_held_apart(index) {
                held_apart.push(name);
            } else {
                mutants.push(name);
            }
        }
        let _ = write!(
            text,
            "\n{problem}\n  kinds:   {}\n  mutants: {}\n  held apart: {}\n",
            kinds.join(", "),
            mutants.join(", "),
            held_apart.join(", ")
        );
    }
    text.push_str("\n`grader problems PROBLEM` prints a problem's statement and formats.\n");
    text
}

/// The section of docs/problems.md about `problem` (its heading, rules, formats and
/// examples), as built into this binary: the statement of an exported package.
pub(super) fn section(problem: Problem) -> &'static str {
    statement(PROBLEMS_MD, problem)
}

/// The section of `page` about `problem`: from the `## ` heading that starts with the id in
/// backticks up to the next `## ` heading (subsections stay in). Empty when the page has
/// no such section, which the tests below rule out for the page built in.
fn statement(page: &str, problem: Problem) -> &str {
    let heading = format!("## `{}`", problem.id());
    let Some(start) = line_starts(page).find(|&at| page[at..].starts_with(&heading)) else {
        return "";
    };
    let end = line_starts(page)
        .find(|&at| at > start && page[at..].starts_with("## "))
        .unwrap_or(page.len());
    &page[start..end]
}

/// The byte offsets at which the lines of `page` start, skipping fenced code blocks (an
/// example's text never counts as a heading).
fn line_starts(page: &str) -> impl Iterator<Item = usize> + '_ {
    let mut fenced = false;
    let mut at = 0;
    page.split_inclusive('\n').filter_map(move |line| {
        let start = at;
        at += line.len();
        if line.starts_with("```") {
            fenced = !fenced;
            return None;
        }
        (!fenced).then_some(start)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_problem_has_its_own_section_in_the_built_in_page() {
        for problem in Problem::ALL {
            let text = statement(PROBLEMS_MD, problem);
            assert!(
                text.starts_with(&format!("## `{}`", problem.id())),
                "{problem}: no section"
            );
            for other in Problem::ALL.iter().filter(|&&p| p != problem) {
                assert!(
                    !text.contains(&format!("## `{}`", other.id())),
                    "{problem}'s section runs into {other}'s"
                );
            }
            for alias in problem.aliases() {
                assert!(
                    text.contains(alias),
                    "{problem}: alias {alias} not mentioned"
                );
            }
            assert!(text.contains("Input"), "{problem}: no input format");
            assert!(text.contains("Output"), "{problem}: no output format");
            assert!(text.contains("```text input"), "{problem}: no example");
        }
    }

    #[test]
    fn a_section_ends_at_the_next_heading_of_its_level_outside_code() {
        let page = "# Title\nintro\n## `flip` one\nfirst\n### sub\n```text\n## `swap` not a heading\n```\nstill flip\n## `swap` two\nsecond\n";
        assert_eq!(
            statement(page, Problem::Flip),
            "## `flip` one\nfirst\n### sub\n```text\n## `swap` not a heading\n```\nstill flip\n"
        );
        assert_eq!(statement(page, Problem::Swap), "## `swap` two\nsecond\n");
        assert_eq!(statement(page, Problem::FourInRow), "");
    }

    #[test]
    fn the_listing_names_every_problem_alias_and_kind() {
        let text = listing();
        for problem in Problem::ALL {
            assert!(text.contains(problem.id()));
            for alias in problem.aliases() {
                assert!(text.contains(alias));
            }
            for kind in problem.kinds() {
                assert!(text.contains(kind.name));
            }
        }
    }
}
