//! `gradebook.csv`: a row per student, for a spreadsheet.
//!
//! A spreadsheet runs a cell that begins with `=`, `+`, `-` or `@` (and, in some, tab or
//! carriage return) as a formula: `=HYPERLINK("http://evil","x")` as a student's name
//! would be a live link in the teacher's sheet. As OWASP advises for CSV injection, such
//! a text cell gets a leading `'`, which the spreadsheet shows as text; the csv crate
//! quotes what needs quoting.
//!
//! Which cells are text from outside the grader: the student and the submission (names of
//! files and folders in the class folder, chosen by the students), the language (the
//! language table's name), `suggested_lang` and the group headers (case folder names).
//! And every text cell of a merged gradebook, whose JSON anyone may have edited. All of
//! them go through [`text`]. The grader's own vocabulary is written as is: the numbers it
//! counts (score, passed, total, not_run, per-group counts; none is negative), the verdict code
//! (`--` for not graded is a documented mark, never a formula) and `compiled`; a
//! student not graded has an empty score (and points) cell.

use std::io::{self, Write};

use super::book::Book;
use crate::results::gradebook::StudentReport;

/// The characters that make a spreadsheet read a cell as a formula.
const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// A text cell from outside the grader, neutralised: a leading `'` when it would be read
/// as a formula.
pub(crate) fn text(cell: &str) -> String {
    if cell.starts_with(FORMULA_STARTS) {
        format!("'{cell}")
    } else {
        cell.to_owned()
    }
}

/// How a student's build went: `yes`, `CE`, or `not-graded` when the grader could not
/// grade it (a missing compiler, a validator that failed, several entry files: nothing
/// failed to compile, and the JSON's `error` says what happened).
fn compiled(s: &StudentReport) -> &'static str {
    match (&s.compile_error, &s.error) {
        (Some(_), _) => "CE",
        (None, Some(_)) => "not-graded",
        (None, None) => "yes",
    }
}

/// `gradebook.csv` (and `grader batch --report csv`).
pub(crate) fn gradebook(book: &Book<'_>, out: &mut dyn Write) -> io::Result<()> {
    let head = book.head;
    let mut writer = csv::Writer::from_writer(out);
    let mut header: Vec<String> = [
        "student",
        "submission",
        "language",
        "score",
        "verdict",
        "passed",
        "total",
        "compiled",
        "suggested_lang",
        "not_run",
    ]
    .map(str::to_owned)
    .to_vec();
    if let Some(points) = &head.points {
        header.push(format!(
            "points (of {})",
            crate::cases::points::most(points)
        ));
    }
    header.extend(head.groups.iter().map(|(g, n)| text(&format!("{g} ({n})"))));
    writer.write_record(&header)?;
    for standing in book.standings {
        let s = &standing.report;
        let suggested = s.suggestion.as_ref().map(|x| x.lang.as_str());
        let mut row = vec![
            text(&s.student),
            text(&s.submission),
            text(&s.language),
            // Empty for a student not graded: a spreadsheet averages no 0 it never earned.
            s.score
                .map(|score| format!("{score:.1}"))
                .unwrap_or_default(),
            s.verdict.to_string(),
            s.passed.to_string(),
            s.total.to_string(),
            compiled(s).to_owned(),
            text(suggested.unwrap_or_default()),
            // The cases not run (`--`): empty when nothing ran, as `compiled` says why.
            if s.compile_error.is_some() || s.error.is_some() {
                String::new()
            } else {
                standing.not_run.to_string()
            },
        ];
        if head.points.is_some() {
            row.push(s.points.map(|p| p.to_string()).unwrap_or_default());
        }
        row.extend(
            head.groups
                .keys()
                .map(|g| s.groups.get(g).map_or(0, |t| t.passed).to_string()),
        );
        writer.write_record(&row)?;
    }
    writer.flush()
}

#[cfg(test)]
mod tests {
    use super::text;

    #[test]
    fn a_cell_a_spreadsheet_would_run_gets_a_leading_quote() {
        for cell in [
            "=1+1",
            "+1",
            "-1",
            "@SUM(1)",
            "\tx",
            "\rx",
            "=HYPERLINK(\"a\",\"b\")",
        ] {
            assert_eq!(text(cell), format!("'{cell}"), "{cell:?}");
        }
    }

    #[test]
    fn other_cells_are_kept_as_they_are() {
        for cell in ["alice", "", "a=b", "x-1", " =1", "'quoted", "section-a/bob"] {
            assert_eq!(text(cell), cell, "{cell:?}");
        }
    }
}
