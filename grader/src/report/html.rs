//! The gradebook as one self-contained HTML page (no network, no files beside it): the
//! class summary with a verdict histogram, a sortable table of students, a student x group
//! matrix coloured by verdict, and every student's failing cases with the input board,
//! expected and got, and their diff.

use std::fmt::Write as _;

use html_escape::encode_text as esc;

use crate::results::gradebook::{Gradebook, StudentReport};
use crate::results::mark::Mark;
use crate::submission::diagnosis;

/// Failing cases shown in full per student: the rest are listed by name.
const DETAILED: usize = 5;

const STYLE: &str = "
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 72em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; }
table { border-collapse: collapse; } td, th { padding: .25em .6em; border-bottom: 1px solid #ddd; text-align: left; }
th.sortable { cursor: pointer; user-select: none; } th.sortable::after { content: ' \\2195'; color: #999; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
.v { font-weight: bold; border-radius: 3px; padding: 0 .3em; }
.AC { background: #c8ecc9; } .WA, .PE { background: #f7c6c5; } .TLE, .MLE, .OLE { background: #fde2b0; }
.RE { background: #f2cbe8; } .CE, .none { background: #ddd; } .partial { background: #fff0b3; }
.bar { display: inline-block; height: 1em; vertical-align: middle; }
pre { background: #f6f6f6; padding: .4em .6em; margin: .2em 0; }
.cols { display: flex; gap: 1.5em; flex-wrap: wrap; } .cols div { min-width: 10em; }
.del { color: #a00; } .ins { color: #070; }
details { margin: .4em 0; } summary { cursor: pointer; }
";

const SCRIPT: &str = "
document.querySelectorAll('table.sortable').forEach(function (table) {
  table.querySelectorAll('th.sortable').forEach(function (th, column) {
    th.addEventListener('click', function () {
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      var up = th.getAttribute('data-order') !== 'up';
      th.setAttribute('data-order', up ? 'up' : 'down');
      rows.sort(function (a, b) {
        var x = a.cells[column].getAttribute('data-key'), y = b.cells[column].getAttribute('data-key');
        var nx = parseFloat(x), ny = parseFloat(y);
        var order = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);
        return up ? order : -order;
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
});
";

/// The page.
pub(crate) fn page(book: &Gradebook) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>{0} gradebook</title><style>{STYLE}</style></head><body>\n\
         <h1>{0}: {1} students, {2} cases</h1>\n<p>Limits: {3} ms CPU, {4} ms wall, {5} MiB \
         memory, {6} MiB output.</p>\n",
        esc(&book.problem),
        book.students.len(),
        book.cases.len(),
        book.limits.cpu_ms,
        book.limits.wall_ms,
        book.limits.memory_kib / 1024,
        book.limits.output_kib / 1024,
    );
    histogram(&mut out, book);
    students(&mut out, book);
    matrix(&mut out, book);
    failures(&mut out, book);
    if !book.skipped.is_empty() {
        out.push_str("<h2>Not graded</h2>\n<ul>\n");
        for s in &book.skipped {
            let _ = writeln!(
                out,
                "<li><code>{}</code>: {}</li>",
                esc(&s.path),
                esc(&s.why)
            );
        }
        out.push_str("</ul>\n");
    }
    let _ = write!(out, "<script>{SCRIPT}</script>\n</body></html>\n");
    out
}

fn histogram(out: &mut String, book: &Gradebook) {
    out.push_str("<h2>Verdicts</h2>\n<table id=\"histogram\">\n");
    let most = book
        .histogram()
        .iter()
        .map(|(_, n)| *n)
        .max()
        .unwrap_or(1)
        .max(1);
    for (mark, n) in book.histogram() {
        let _ = writeln!(
            out,
            "<tr><td><span class=\"v {0}\">{1}</span></td><td class=\"num\">{n}</td>\
             <td><span class=\"bar {0}\" style=\"width:{2}em\"></span></td></tr>",
            css_class(mark),
            mark.code(),
            n * 20 / most
        );
    }
    out.push_str("</table>\n");
}

fn students(out: &mut String, book: &Gradebook) {
    out.push_str(
        "<h2>Students</h2>\n<table id=\"students\" class=\"sortable\"><thead><tr>\
         <th class=\"sortable\">Student</th><th class=\"sortable\">Verdict</th>\
         <th class=\"sortable num\">Score</th><th class=\"sortable num\">Passed</th>\
         <th class=\"sortable\">Language</th><th class=\"sortable\">Submission</th>\
         </tr></thead><tbody>\n",
    );
    for (index, s) in book.students.iter().enumerate() {
        let _ = writeln!(
            out,
            "<tr class=\"student\"><td data-key=\"{0}\"><a href=\"#s-{1}\">{0}</a></td>\
             <td data-key=\"{2}\"><span class=\"v {2}\">{2}</span></td>\
             <td class=\"num\" data-key=\"{3}\">{3:.1}%</td><td class=\"num\" data-key=\"{4}\">{4}/{5}</td>\
             <td data-key=\"{6}\">{6}</td><td data-key=\"{7}\"><code>{7}</code></td></tr>",
            esc(&s.student),
            index,
            s.verdict.code(),
            s.score,
            s.passed,
            s.total,
            esc(&s.language),
            esc(&s.submission)
        );
    }
    out.push_str("</tbody></table>\n");
}

/// The CSS class of a mark: its code, `none` for `--`.
fn css_class(mark: Mark) -> &'static str {
    match mark {
        Mark::Graded(verdict) => verdict.code(),
        Mark::NotGraded => "none",
    }
}

/// The worst verdict of a student's cases in `group`, or how it was not graded.
fn group_class(s: &StudentReport, group: &str) -> &'static str {
    if s.compile_error.is_some() {
        return "CE";
    }
    let in_group = |name: &str| match name.rsplit_once('/') {
        Some((g, _)) => g == group,
        None => group == ".",
    };
    let verdicts: Vec<reference::Verdict> = s
        .cases
        .iter()
        .filter(|c| in_group(&c.name))
        .map(|c| c.verdict)
        .collect();
    if verdicts.is_empty() {
        return "none";
    }
    let failing = verdicts
        .iter()
        .filter(|v| **v != reference::Verdict::Accepted)
        .count();
    match failing {
        0 => "AC",
        n if n == verdicts.len() => reference::Verdict::worst(verdicts).code(),
        _ => "partial",
    }
}

fn matrix(out: &mut String, book: &Gradebook) {
    out.push_str("<h2>Students by group</h2>\n<table id=\"matrix\"><thead><tr><th>Student</th>");
    for (group, n) in &book.groups {
        let _ = write!(
            out,
            "<th>{} <span class=\"num\">({n})</span></th>",
            esc(group)
        );
    }
    out.push_str("</tr></thead><tbody>\n");
    for s in &book.students {
        let _ = write!(out, "<tr><td>{}</td>", esc(&s.student));
        for group in book.groups.keys() {
            let tally = s.groups.get(group).copied().unwrap_or_default();
            let _ = write!(
                out,
                "<td class=\"num {}\">{}/{}</td>",
                group_class(s, group),
                tally.passed,
                tally.total
            );
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table>\n");
}

fn failures(out: &mut String, book: &Gradebook) {
    out.push_str("<h2>Failing cases</h2>\n");
    for (index, s) in book.students.iter().enumerate() {
        let failing: Vec<_> = s.failures().collect();
        let _ = write!(out, "<section id=\"s-{index}\">");
        if let Some(message) = s.compile_error.as_ref().or(s.error.as_ref()) {
            // A compile error says its first error and the profile it points to up front.
            let (summary, advice) = match &s.compile_error {
                Some(m) => (
                    format!(": {}", esc(&diagnosis::summary(m))),
                    s.suggestion.as_ref().map_or_else(String::new, |x| {
                        format!(
                            "<p class=\"suggestion\">{}</p>",
                            esc(&x.for_student(&s.student))
                        )
                    }),
                ),
                None => (String::new(), String::new()),
            };
            let _ = write!(
                out,
                "<details><summary>{} <span class=\"v {}\">{}</span>{summary}</summary>{advice}<pre>{}</pre></details>",
                esc(&s.student),
                css_class(s.verdict),
                s.verdict.code(),
                esc(message)
            );
        } else if !failing.is_empty() {
            let _ = write!(
                out,
                "<details><summary>{}: {} failing of {}</summary>",
                esc(&s.student),
                failing.len(),
                s.total
            );
            for c in failing.iter().take(DETAILED) {
                let board = book.boards.get(&c.name);
                let input = board.map_or("", |b| b.input.as_str());
                let expected = board.map_or("", |b| b.answer.as_str());
                // What a browser would hide in the contestant's text, escaped.
                let shown = reference::visible::escape_lines(&c.output);
                let _ = write!(
                    out,
                    "<h3><span class=\"v {0}\">{0}</span> {1}: {2}</h3><div class=\"cols\">\
                     <div>input<pre>{3}</pre></div><div>expected<pre>{4}</pre></div>\
                     <div>got<pre>{5}</pre></div><div>diff<pre>{6}</pre></div></div>",
                    c.verdict.code(),
                    esc(&c.name),
                    esc(&c.message),
                    esc(input),
                    esc(expected),
                    esc(&shown),
                    diff(expected, &shown)
                );
                let stderr = reference::visible::escape_lines(&c.stderr);
                if !stderr.trim().is_empty() {
                    let _ = write!(out, "<div>stderr (end)<pre>{}</pre></div>", esc(&stderr));
                }
            }
            if failing.len() > DETAILED {
                let rest: Vec<&str> = failing[DETAILED..]
                    .iter()
                    .map(|c| c.name.as_str())
                    .collect();
                let _ = write!(out, "<p>Also failing: {}</p>", esc(&rest.join(", ")));
            }
            out.push_str("</details>");
        }
        out.push_str("</section>\n");
    }
}

/// An HTML line diff of expected and got.
fn diff(expected: &str, got: &str) -> String {
    let mut out = String::new();
    for change in similar::TextDiff::from_lines(expected, got).iter_all_changes() {
        let line = change.value().trim_end_matches('\n');
        let _ = match change.tag() {
            similar::ChangeTag::Delete => {
                writeln!(out, "<span class=\"del\">-{}</span>", esc(line))
            }
            similar::ChangeTag::Insert => {
                writeln!(out, "<span class=\"ins\">+{}</span>", esc(line))
            }
            similar::ChangeTag::Equal => writeln!(out, " {}", esc(line)),
        };
    }
    out
}
