//! The page: the class summary with a verdict histogram, a sortable table of students,
//! the student x group matrix, the failing cases by reason with the students under each,
//! and what was not graded.

use std::io::{self, Write};

use maud::{DOCTYPE, Markup, PreEscaped, html};

use super::parts::{around, css_class, hole};
use super::{failures, groups};
use crate::report::book::{Book, Standing};
use crate::results::gradebook::NOT_RUN;

/// The page's style sheet, inline: the page is one file.
const STYLE: &str = include_str!("page.css");

/// The script that sorts the students' table by a clicked column, inline too.
const SCRIPT: &str = include_str!("sort.js");

/// `gradebook.html`. The parts with a row or an entry per student (the table, the
/// matrix, the failing cases) are written a row at a time into the page around them.
pub(crate) fn page(book: &Book<'_>, out: &mut dyn Write) -> io::Result<()> {
    let head = book.head;
    let limits = &head.limits;
    let markup = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                title { (head.problem) " gradebook" }
                // Constants of this crate, not data: nothing in them comes from a student.
                style { (PreEscaped(STYLE)) }
            }
            body {
                // Newlines between blocks and rows, for a person reading the source.
                "\n"
                h1 { (head.problem) ": " (book.standings.len()) " students, " (head.cases.len()) " cases" } "\n"
                p {
                    "Limits: " (limits.cpu_ms) " ms CPU, " (limits.wall_ms) " ms wall, "
                    (limits.memory_kib / 1024) " MiB memory, " (limits.output_kib / 1024) " MiB output."
                } "\n"
                (histogram(book))
                (scores(book))
                (stopped(book))
                (hole())
                @if !head.skipped.is_empty() {
                    h2 { "Not graded" } "\n"
                    ul {
                        @for s in &head.skipped {
                            li { code { (s.path) } ": " (s.why) } "\n"
                        }
                    } "\n"
                }
                script { (PreEscaped(SCRIPT)) } "\n"
            }
        }
    };
    around(markup, out, |out| {
        students(book, out)?;
        groups::matrix(book, out)?;
        failures::section(book, out)
    })?;
    writeln!(out)
}

/// How many students got each mark, with a bar as long as its share of the largest.
fn histogram(book: &Book<'_>) -> Markup {
    let counts = book.histogram();
    let most = counts.iter().map(|(_, n)| *n).max().unwrap_or(1).max(1);
    html! {
        h2 { "Verdicts" } "\n"
        table #histogram {
            @for (mark, n) in &counts {
                tr {
                    td { span.v.(css_class(*mark)) { (mark.code()) } }
                    td.num { (n) }
                    td { span.bar.(css_class(*mark)) style={ "width:" (n * 20 / most) "em" } {} }
                } "\n"
            }
        } "\n"
    }
}

/// How the graded students' scores spread: their mean and median, and how many fall in each
/// tenth (the last holds only 100%), with bars as the verdicts have. Students who could not
/// be graded are counted apart: they have no score.
fn scores(book: &Book<'_>) -> Markup {
    let mut graded: Vec<f64> = book
        .standings
        .iter()
        .map(|s| &s.report)
        .filter_map(|s| s.score)
        .collect();
    graded.sort_by(f64::total_cmp);
    if graded.is_empty() {
        return html! {};
    }
    let (mean, median) = mean_and_median(&graded);
    let mut bins = [0usize; 11];
    for score in &graded {
        // 100% alone in the last bin; 95.5% in the tenth that starts at 90.
        let bin = if *score >= 100.0 {
            10
        } else {
            ((score.max(0.0) / 10.0) as usize).min(9)
        };
        bins[bin] += 1;
    }
    let most = bins.iter().copied().max().unwrap_or(1).max(1);
    let ungraded = book.standings.len() - graded.len();
    html! {
        h2 { "Scores" } "\n"
        p #score-summary {
            "Mean " (format!("{mean:.1}%")) ", median " (format!("{median:.1}%"))
            " over " (graded.len()) @if graded.len() == 1 { " graded student" } @else { " graded students" }
            @if ungraded > 0 { "; " (ungraded) " not graded" }
            "."
        } "\n"
        table #scores {
            @for (i, n) in bins.iter().enumerate() {
                tr {
                    td {
                        @if i == 10 { "100%" } @else { (i * 10) "–" (i * 10 + 9) "%" }
                    }
                    td.num { (n) }
                    td { span.bar.AC style={ "width:" (n * 20 / most) "em" } {} }
                } "\n"
            }
        } "\n"
    }
}

/// How many students were stopped early for sleeping, and the cases that cost them, said
/// once above the table: their scores do not come from every case.
fn stopped(book: &Book<'_>) -> Markup {
    let stopped: Vec<_> = book
        .standings
        .iter()
        .filter(|s| s.report.stopped.is_some())
        .collect();
    let not_run: usize = stopped.iter().map(|s| s.not_run).sum();
    html! {
        @if !stopped.is_empty() {
            p #stopped {
                (stopped.len()) @if stopped.len() == 1 { " student was" } @else { " students were" }
                " stopped early, their program asleep at the wall limit on cases in a row: "
                (not_run) @if not_run == 1 { " case" } @else { " cases" } " not run (" (NOT_RUN) ": a score counts the cases passed; "
                code { "--stop-after-wall-tles 0" } " runs them)."
            } "\n"
        }
    }
}

/// The mean and the median of `sorted` (not empty).
fn mean_and_median(sorted: &[f64]) -> (f64, f64) {
    let mean = sorted.iter().sum::<f64>() / sorted.len() as f64;
    let mid = sorted.len() / 2;
    let median = if sorted.len() % 2 == 1 {
        sorted[mid]
    } else {
        f64::midpoint(sorted[mid - 1], sorted[mid])
    };
    (mean, median)
}

/// What a student's first failure is, for the students' table: the first failing case and
/// its verdict, the compile error's first line, or why it could not be graded; empty for
/// all `AC`.
fn first_failure(standing: &Standing) -> String {
    let s = &standing.report;
    if let Some(message) = &s.compile_error {
        return format!("CE: {}", crate::submission::diagnosis::summary(message));
    }
    if let Some(error) = &s.error {
        return error.clone();
    }
    let first = standing.first_failure.as_ref();
    let first = first.map(|case| format!("{} {}", case.verdict.code(), case.name));
    match (first, &s.stopped) {
        // The cases not run are as much the student's mark as the first failure.
        (Some(first), Some(_)) => {
            format!("{first}; stopped early, {} not run (--)", standing.not_run)
        }
        (first, _) => first.unwrap_or_default(),
    }
}

/// The students' table, sortable by any column (by each cell's text: a number where it
/// starts with one, so `97.5%` and `67/69` sort as numbers). No cell carries a key of its
/// own: at 3,000 students, every attribute is 3,000 more for the browser to read.
fn students(book: &Book<'_>, out: &mut dyn Write) -> io::Result<()> {
    let points = book.head.points.as_ref();
    let table = html! {
        h2 { "Students" } "\n"
        table #students.sortable {
            thead {
                tr {
                    th.sortable { "Student" }
                    th.sortable { "Verdict" }
                    th.sortable.num { "Score" }
                    @if let Some(points) = points {
                        th.sortable.num { "Points (of " (crate::cases::points::most(points)) ")" }
                    }
                    th.sortable.num { "Passed" }
                    th.sortable { "First failure" }
                    th.sortable { "Language" }
                    th.sortable { "Submission" }
                }
            }
            tbody { (hole()) }
        } "\n"
    };
    around(table, out, |out| {
        for (index, standing) in book.standings.iter().enumerate() {
            let s = &standing.report;
            let row = html! {
                tr.student {
                    td { a href={ "#s-" (index) } { (s.student) } }
                    td { span.v.(css_class(s.verdict)) { (s.verdict.code()) } }
                    // A student not graded shows `--`, as its verdict does, never 0%.
                    td.num { (s.score.map_or_else(|| "--".to_owned(), |score| format!("{score:.1}%"))) }
                    @if points.is_some() {
                        td.num { (s.points.map_or_else(|| "--".to_owned(), |p| p.to_string())) }
                    }
                    td.num { (s.passed) "/" (s.total) }
                    td.first { (first_failure(standing)) }
                    td { (s.language) }
                    td { code { (s.submission) } }
                } "\n"
            };
            out.write_all(row.into_string().as_bytes())?;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::mean_and_median;

    #[test]
    fn the_mean_and_median_of_scores() {
        assert_eq!(mean_and_median(&[50.0]), (50.0, 50.0));
        assert_eq!(mean_and_median(&[0.0, 50.0, 100.0]), (50.0, 50.0));
        let (mean, median) = mean_and_median(&[10.0, 20.0, 90.0, 100.0]);
        assert!((mean - 55.0).abs() < 1e-9 && (median - 55.0).abs() < 1e-9);
    }
}
