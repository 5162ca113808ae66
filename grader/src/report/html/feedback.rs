//! A student's feedback page (`--feedback DIR`): one self-contained HTML page to hand
//! out, with that student's verdicts, score and points, and each failure as much as
//! `--reveal` shows ([`Reveal::of`], the one rule). It names no other student and counts
//! nothing of the class.
//!
//! The page leads with what a student acts on: the verdict and score, a row per group of
//! cases, then the failing cases by kind of mistake ([`by_mistake`]: one case of each kind
//! drawn in full, the others of that kind listed by name, each folded with its own
//! details), and last the cases that passed, folded. A student with one mistake in many
//! cases reads its explanation on the first screen, on a phone too.
//!
//! The pages go in one flat folder, `DIR/<name>.html` ([`page_names`]), checked before
//! any work by the rule of outputs (`outputs`, as `--out` is) and written atomically.

use std::io::{self, Write};
use std::path::Path;

use maud::{DOCTYPE, Markup, PreEscaped, html};
use reference::Problem;

use super::parts::{css_class, group_class, title};
use super::witness;
use crate::cli::exit::Fault;
use crate::paths::outputs::{self, Inputs, Kind};
use crate::report::book::Book;
use crate::report::exporter::Exporter;
use crate::results::case::{Board, CaseResult, Explained};
use crate::results::feedback::{Mistake, Reveal, by_mistake, page_names};
use crate::results::gradebook::{Head, StudentReport};
use crate::results::layout_mistake::Layout;
use crate::results::mark::Mark;
use crate::submission::diagnosis;

/// The page's style sheet, the gradebook's: the page is one file.
const STYLE: &str = include_str!("page.css");

/// The rules of this page alone, after the gradebook's.
const OWN_STYLE: &str = include_str!("feedback.css");

/// One student's page: the gradebook it comes from, the student, and what to reveal.
pub(crate) struct Handout<'a> {
    /// The class (its problem, cases, boards and points; never its other students).
    pub(crate) book: &'a Head,
    /// The student.
    pub(crate) student: &'a StudentReport,
    /// What the page shows of the secret cases.
    pub(crate) reveal: Reveal,
}

/// Checks the feedback folder `dir` and the pages it will hold (one per student of
/// `students`) by the rule of outputs, before any work. `out` is the gradebook's folder:
/// the pages never go in it (the gradebook names every student, and a student named
/// `gradebook` would take its page's name).
pub(crate) fn check<'a>(
    dir: &Path,
    out: &Path,
    students: impl IntoIterator<Item = &'a str>,
    inputs: &Inputs,
) -> Result<(), Fault> {
    if same_folder(dir, out) {
        return Err(Fault::call(format!(
            "{}: --feedback is the gradebook's --out folder; feedback pages go in a folder \
             of their own",
            dir.display()
        )));
    }
    let names = page_names(students);
    let files: Vec<(&str, Kind)> = names.iter().map(|n| (n.as_str(), Kind::Feedback)).collect();
    outputs::folder(dir, &files, inputs)
}

/// Whether `a` and `b` are one folder: the same file when both exist, else the same
/// absolute path.
fn same_folder(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => match (std::path::absolute(a), std::path::absolute(b)) {
            (Ok(x), Ok(y)) => x.components().eq(y.components()),
            _ => false,
        },
    }
}

/// Writes every student's page into `dir` (made when missing), each atomically, a
/// student read at a time.
pub(crate) fn write_pages(book: &Book<'_>, dir: &Path, reveal: Reveal) -> Result<(), Fault> {
    crate::paths::folders::create(dir)?;
    let names = page_names(book.standings.iter().map(|s| s.report.student.as_str()));
    for (index, name) in names.iter().enumerate() {
        let path = dir.join(name);
        let student = book
            .student(index)
            .map_err(|e| crate::paths::files::stopped_or(&path, "write", &e))?;
        let handout = Handout {
            book: book.head,
            student: &student,
            reveal,
        };
        Exporter::raw(page).save(&path, &handout)?;
    }
    Ok(())
}

/// The page.
pub(crate) fn page(handout: &Handout<'_>, out: &mut dyn Write) -> io::Result<()> {
    let Handout {
        book,
        student: s,
        reveal,
    } = *handout;
    let markup = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                // A phone shows the page at its own width, not as a shrunken desktop.
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (book.problem) ": " (s.student) " feedback" }
                // Constants of this crate, not data.
                style { (PreEscaped(STYLE)) (PreEscaped(OWN_STYLE)) }
            }
            body.feedback {
                "\n"
                h1 { (book.problem) ": feedback for " (s.student) } "\n"
                p.verdict {
                    "Verdict: " span.v.(css_class(s.verdict)) { (s.verdict.code()) }
                    " (" @match s.verdict { Mark::Graded(v) => (v.description()), Mark::NotGraded => "not graded" } ")"
                    @if let (true, Some(score)) = (graded(s), s.score) {
                        ". Score: " strong { (format!("{score:.1}%")) } " (" (s.passed) " of " (s.total) " cases passed)"
                    }
                    @if let (Some(points), Some(earned)) = (&book.points, s.points) {
                        ". Points: " strong { (earned) } " of " (crate::cases::points::most(points))
                    }
                    "."
                } "\n"
                p.about {
                    "Submission: " code { (s.submission) } @if !s.language.is_empty() { " (" (s.language) ")" } ". "
                    "Sample cases are shown in full; " (reveal.describe()) "."
                } "\n"
                (body(book, s, reveal))
            }
        }
    };
    writeln!(out, "{}", markup.into_string())
}

/// Whether the student's cases ran (neither a compile error nor a reason it was not
/// graded).
fn graded(s: &StudentReport) -> bool {
    s.total > 0 && s.compile_error.is_none() && s.error.is_none()
}

/// What the student gets: the compiler's message, why it was not graded, or the groups,
/// the failing cases by kind and the passing ones.
fn body(book: &Head, s: &StudentReport, reveal: Reveal) -> Markup {
    html! {
        @if let Some(message) = &s.compile_error {
            h2 { "Did not compile: " (diagnosis::summary(message)) } "\n"
            @if let Some(x) = &s.suggestion { p.suggestion { (x.for_student(&s.student)) } }
            (pre(message)) "\n"
        } @else if let Some(why) = &s.error {
            h2 { "Not graded" } "\n"
            p { (why) } "\n"
        } @else {
            @let kinds = by_mistake(s.failures(), &book.boards, reveal);
            @if !kinds.is_empty() {
                h2 { "Failing cases" } "\n"
                @for (kind, cases) in &kinds {
                    (kind_section(book, *kind, cases, reveal))
                }
            }
            // After the mistakes, whose first explanation is on a phone's first screen:
            // the groups' table, with what each tests and its margins, is taller there.
            (groups(book, s))
            @let not_run: Vec<&str> = book.cases.iter().map(String::as_str).filter(|n| !s.cases.iter().any(|c| c.name == *n)).collect();
            @if !not_run.is_empty() {
                h2 { "Not run" } "\n"
                @if let Some(why) = &s.stopped { p.stopped { "Your program was " (why) "." } "\n" }
                (folded(&format!("{} {} not run", not_run.len(), cases_word(not_run.len())), &not_run))
            }
            @let passed: Vec<&str> = s.cases.iter().filter(|c| c.accepted()).map(|c| c.name.as_str()).collect();
            @if !passed.is_empty() {
                h2 { "Passing cases" } "\n"
                (folded(&format!("{} {} passed", passed.len(), cases_word(passed.len())), &passed))
            }
        }
    }
}

/// `case` or `cases`.
fn cases_word(n: usize) -> &'static str {
    if n == 1 { "case" } else { "cases" }
}

/// A folded list of case names, under `summary`.
fn folded(summary: &str, names: &[&str]) -> Markup {
    html! {
        details.names {
            summary { (summary) }
            @for (group, leaves) in by_group(names, |name| name) {
                div.line {
                    span.group { @if !group.is_empty() { (group) "/" } }
                    span.leaves { @for name in leaves { code { (leaf(name)) } " " } }
                }
            }
        } "\n"
    }
}

/// `items` in runs of one group of cases (a name up to its last `/`, `""` for none), in
/// their order: so that a list names each group once.
fn by_group<'a, T>(items: &'a [T], name: impl Fn(&'a T) -> &'a str) -> Vec<(&'a str, Vec<&'a T>)> {
    let mut runs: Vec<(&str, Vec<&T>)> = Vec::new();
    for item in items {
        let group = name(item).rsplit_once('/').map_or("", |(group, _)| group);
        match runs.last_mut() {
            Some((last, same)) if *last == group => same.push(item),
            _ => runs.push((group, vec![item])),
        }
    }
    runs
}

/// A case's name within its group.
fn leaf(name: &str) -> &str {
    name.rsplit_once('/').map_or(name, |(_, leaf)| leaf)
}

/// The student's row of each group of cases: passed of total, coloured as the
/// gradebook's "Students by group" colours it, the points earned when groups are worth
/// points, the margin its runs left under the limits, and what the group tests (its
/// manifest's `about`): on a page that shows only verdicts, what a failing group is for.
/// What a group tests is a row of its own under the group's: as a column it would make
/// the table wider than a phone.
fn groups(book: &Head, s: &StudentReport) -> Markup {
    let columns = 3 + usize::from(book.points.is_some());
    html! {
        h2 { "By group" } "\n"
        table.groups {
            thead {
                tr {
                    th { "Group" } th.num { "Passed" }
                    @if book.points.is_some() { th.num { "Points" } }
                    th { "Margin: most CPU, memory" }
                }
            }
            tbody {
                @for group in book.groups.keys() {
                    @let tally = s.groups.get(group).copied().unwrap_or_default();
                    tr {
                        td { (group) }
                        td.num.(group_class(s, group)) {
                            (tally.passed) "/" (tally.total)
                            @let not_run = s.not_run(Some(group));
                            @if not_run > 0 { ", " (not_run) " not run (--)" }
                        }
                        @if let Some(points) = &book.points {
                            @let worth = points.get(group).copied().unwrap_or_default();
                            @let one = std::collections::BTreeMap::from([(group.clone(), worth)]);
                            td.num { (crate::cases::points::earned(&one, |_| (tally.passed, tally.total))) " of " (worth) }
                        }
                        td.margin { (margin(book, s, group)) }
                    } "\n"
                    @if let Some(about) = book.about.get(group) {
                        tr.about { td colspan=(columns) { "What it tests: " (about) } } "\n"
                    }
                }
            }
        } "\n"
    }
}

/// How close the student's runs in `group` came to the limits: the most CPU time and
/// the most memory of one run, against each limit (`12 ms of 1 s CPU, 9 MiB of 256
/// MiB`): an `AC` at nine tenths of the limit is a warning a verdict does not give.
/// Empty when none of its runs was made.
fn margin(book: &Head, s: &StudentReport, group: &str) -> String {
    let runs = s
        .cases
        .iter()
        .filter(|c| c.name.rsplit_once('/').map_or(".", |(g, _)| g) == group);
    let Some((cpu_ms, memory_kib)) = runs.fold(None, |most: Option<(f64, u64)>, c| {
        let (cpu, memory) = most.unwrap_or_default();
        Some((cpu.max(c.cpu_ms), memory.max(c.memory_kib)))
    }) else {
        return String::new();
    };
    let limits = &book.limits;
    format!(
        "{} of {} CPU, {} of {}",
        crate::run::judge::seconds(std::time::Duration::from_secs_f64(cpu_ms / 1e3)),
        crate::run::judge::seconds(limits.cpu()),
        crate::run::judge::mebibytes(memory_kib.saturating_mul(1024)),
        crate::run::judge::mebibytes(limits.memory())
    )
}

/// A `<pre>` of `text`, as it is: HTML drops a newline right after `<pre>`, so a text that
/// starts with an empty line (a layout mistake) gets one more.
fn pre(text: &str) -> Markup {
    html! { pre { @if text.starts_with('\n') { "\n" } (text) } }
}

/// One kind of mistake: its first case drawn in full (when the page may show more than
/// its name), and the others of the kind by name, each folded with what the page shows
/// of it.
fn kind_section(book: &Head, kind: Mistake, cases: &[&CaseResult], reveal: Reveal) -> Markup {
    let verdict = kind.verdict().code();
    let (drawn, listed) = match cases.split_first() {
        Some((first, rest)) if shows_more(book, first, reveal) => (Some(*first), rest),
        _ => (None, cases),
    };
    html! {
        section.kind {
            h3 {
                span.v.(verdict) { (verdict) } " " (title(kind, book.problem.parse().ok()))
                " " span.count { "(" (cases.len()) " " (cases_word(cases.len())) ")" }
            } "\n"
            @if let Some(mistake) = layout_mistake(book, kind, cases, reveal) {
                p.mistake { "What is wrong: " (mistake.says()) "." } "\n"
            }
            @if let Some(c) = drawn {
                article.case id={ "case-" (c.name) } {
                    h4 {
                        code { (c.name) }
                        @if reveal.of(&c.name).answer && !c.message.is_empty() { ": " (c.message) }
                    }
                    (details(book, c, kind, reveal))
                } "\n"
            }
            @if !listed.is_empty() {
                div.others {
                    p.lead { @if drawn.is_some() { "The same in:" } @else { "The cases:" } }
                    @for (group, same) in by_group(listed, |c| c.name.as_str()) {
                        div.line {
                            span.group { @if !group.is_empty() { (group) "/" } }
                            span.leaves { @for c in same {
                                @if shows_more(book, c, reveal) {
                                    details.case id={ "case-" (c.name) } {
                                        summary { code { (leaf(&c.name)) } }
                                        @if reveal.of(&c.name).answer && !c.message.is_empty() { p.message { (c.message) } }
                                        (details(book, c, kind, reveal))
                                    }
                                } @else {
                                    code id={ "case-" (c.name) } { (leaf(&c.name)) }
                                }
                                " "
                            } }
                        }
                    }
                } "\n"
            }
        } "\n"
    }
}

/// The layout mistake of a `PE` kind, said once for all its cases: read from the first
/// case whose page shows its answer and output (a layout mistake is read against the
/// expected answer, which a page shows only so), `None` when none does.
fn layout_mistake(
    book: &Head,
    kind: Mistake,
    cases: &[&CaseResult],
    reveal: Reveal,
) -> Option<Layout> {
    if kind != Mistake::Layout {
        return None;
    }
    cases.iter().find_map(|c| {
        let board = book
            .boards
            .get(&c.name)
            .filter(|_| reveal.of(&c.name).answer)?;
        Some(Layout::of(&board.answer, &c.output))
    })
}

/// Whether the page shows more of case `c` than its name and verdict.
fn shows_more(book: &Head, c: &CaseResult, reveal: Reveal) -> bool {
    let shown = reveal.of(&c.name);
    let has_board = shown.board && book.boards.contains_key(&c.name);
    let has_answer = shown.answer
        && !(c.message.is_empty()
            && c.output.is_empty()
            && c.stderr.is_empty()
            && c.interaction.is_empty());
    has_board || has_answer
}

/// What the page shows of a failing case beyond its name and message, as much as `reveal`
/// shows of it: why it is wrong, drawn; the board, the expected answer, the output and
/// the end of stderr; and, folded below them, the proof of an answer when the mistake is
/// not in the count.
fn details(book: &Head, c: &CaseResult, kind: Mistake, reveal: Reveal) -> Markup {
    let shown = reveal.of(&c.name);
    let board = book.boards.get(&c.name).filter(|_| shown.board);
    let problem: Option<Problem> = book.problem.parse().ok();
    let output = shown.answer.then_some(c.output.as_slice());
    let explained = board.zip(c.explanation.as_ref());
    let drawn = |board: &Board, explained: &Explained| {
        problem.map(|problem| witness::explanation(problem, &board.input, explained, output))
    };
    let folded = matches!(
        kind,
        Mistake::NotImpossible | Mistake::NoOutput | Mistake::NotACount
    );
    html! {
        @if let Some((board, explained)) = explained {
            @match kind {
                // A layout mistake: the message (or, when it is not shown, the reason)
                // says where; a minimum solution has nothing to do with it.
                Mistake::Layout => {
                    @if !shown.answer { p.reason { "Why: " (explained.reason) } }
                }
                _ if folded => {}
                _ => (drawn(board, explained).unwrap_or_default()),
            }
        }
        @if let Some(board) = board {
            div.cols {
                div { "board" (pre(&board.input)) }
                @if shown.answer && !c.interaction.is_empty() {
                    // An interactive problem's case: what passed, not an output; and a
                    // sample's exchange as the statement shows it.
                    @if let Some(sample) = &board.interaction {
                        div { "the sample's interaction" (pre(sample)) }
                    }
                    div { "the interaction (> you wrote, < you read)"
                        (pre(&reference::visible::escape_lines(&c.interaction))) }
                } @else if shown.answer {
                    div { "expected" (pre(&board.answer)) }
                    div { "your output" (pre(&reference::visible::escape_lines(&c.output))) }
                }
            }
        }
        @if shown.answer && !c.stderr.is_empty() {
            div { "stderr (end)" (pre(&reference::visible::escape_lines(&c.stderr))) }
        }
        @if let (true, Some((board, explained))) = (folded, explained) {
            details.proof {
                summary {
                    @if kind == Mistake::NotImpossible { "Why it cannot be solved" }
                    @else { "Why the answer is " code { (board.answer.trim_end()) } }
                }
                (drawn(board, explained).unwrap_or_default())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::report::samples;
    use crate::results::gradebook::Tally;
    use crate::results::mark;

    /// flip cases: the sample (4), three solvable secrets, two that cannot be solved.
    const BOARDS: [(&str, &str); 6] = [
        ("sample/01", "bwwb\nbbwb\nbwwb\nbwww\n"),
        ("secret/answers/01", "bbbw\nwbww\nwwbw\nwbbb\n"),
        ("secret/answers/02", "wwwb\nwbbw\nwbbb\nbbwb\n"),
        ("secret/answers/03", "bbww\nbwww\nwwww\nwwww\n"),
        ("secret/impossible/01", "bwbb\nbwwb\nbwww\nbbbw\n"),
        ("secret/impossible/02", "wwww\nwwww\nwwww\nwwwb\n"),
    ];

    /// The page, at `reveal`, of a student whose program prints `print(answer)` for each
    /// case, judged and explained as a batch does.
    fn page_of(print: impl Fn(&str) -> String, reveal: Reveal) -> String {
        let problem = Problem::Flip;
        let mut book = samples::explained_gradebook(
            problem,
            ("bwwb\nbbwb\nbwwb\nbwww\n", "5\n"),
            ("bwbb\nbwwb\nbwww\nbbbw\n", "3\n"),
        );
        let (mut boards, mut cases, mut groups) = (BTreeMap::new(), Vec::new(), BTreeMap::new());
        for (name, input) in BOARDS {
            let answer = problem.solve(input.as_bytes()).expect("a board");
            let output = print(&answer);
            let judged = problem
                .check(input.as_bytes(), None, output.as_bytes())
                .expect("a board");
            let mut case = samples::case(name, judged.verdict, &judged.message, &output, "");
            case.explanation =
                Explained::of_run(problem, judged.verdict, input.as_bytes(), output.as_bytes());
            let group = name.rsplit_once('/').map_or("", |(g, _)| g).to_owned();
            let tally: &mut Tally = groups.entry(group).or_default();
            tally.total += 1;
            tally.passed += usize::from(case.accepted());
            let input = input.to_owned();
            boards.insert(
                name.to_owned(),
                Board {
                    input,
                    answer,
                    interaction: None,
                },
            );
            cases.push(case);
        }
        let passed = cases.iter().filter(|c| c.accepted()).count();
        let student = StudentReport {
            verdict: mark::overall(cases.iter().map(|c| c.verdict), cases.len()).into(),
            score: Some(mark::score(passed, cases.len())),
            passed,
            total: cases.len(),
            groups: groups.clone(),
            cases,
            ..book.students[1].clone()
        };
        book.cases = BOARDS.iter().map(|(name, _)| (*name).to_owned()).collect();
        book.groups = groups.iter().map(|(g, t)| (g.clone(), t.total)).collect();
        book.boards = boards;
        book.students = vec![student];
        let (head, students) = book.into_parts();
        let handout = Handout {
            book: &head,
            student: &students[0],
            reveal,
        };
        String::from_utf8(Exporter::raw(page).render(&handout)).expect("UTF-8")
    }

    /// One more than a count; `Impossible` as it is.
    fn off_by_one(answer: &str) -> String {
        answer
            .trim()
            .parse::<u32>()
            .map_or_else(|_| answer.to_owned(), |n| format!("{}\n", n + 1))
    }

    fn at(page: &str, text: &str) -> usize {
        page.find(text)
            .unwrap_or_else(|| panic!("no {text} in {page}"))
    }

    #[test]
    fn the_page_leads_with_the_verdict_and_one_drawn_case_of_each_kind_then_the_groups() {
        let page = page_of(off_by_one, Reveal::All);
        assert!(page.contains("<meta name=\"viewport\""), "{page}");
        // The verdict, the first explanation, the groups, and the passing cases last.
        let order = [
            "Verdict: ",
            "<h2>Failing cases</h2>",
            "<div class=\"explanation\">",
            "<h2>By group</h2>",
            "<h2>Passing cases</h2>",
        ];
        let places: Vec<usize> = order.iter().map(|text| at(&page, text)).collect();
        assert!(places.is_sorted(), "{order:?} at {places:?}: {page}");
        assert!(
            page.contains("<td>secret/answers</td><td class=\"num WA\">0/3</td>"),
            "{page}"
        );
        assert!(
            page.contains("<td>secret/impossible</td><td class=\"num AC\">2/2</td>"),
            "{page}"
        );
        // One kind, four cases: the sample drawn, the three secrets folded by name.
        assert_eq!(
            page.matches("<section class=\"kind\">").count(),
            1,
            "{page}"
        );
        assert!(
            page.contains("Your count is more than the minimum"),
            "{page}"
        );
        assert_eq!(page.matches("<article class=\"case\"").count(), 1, "{page}");
        assert!(page.contains("<article class=\"case\" id=\"case-sample/01\">"));
        assert_eq!(page.matches("<details class=\"case\"").count(), 3, "{page}");
        assert!(page.contains("<span class=\"group\">secret/answers/</span>"));
        // Each case's own reason, once.
        assert_eq!(
            page.matches("Why: you printed 5; 4 presses suffice: (1,1) (1,2) (2,2) (4,3)")
                .count(),
            1
        );
        assert_eq!(page.matches("<div class=\"explanation\">").count(), 4);
        // The passing cases, folded.
        let passing = &page[at(&page, "<h2>Passing cases</h2>")..];
        assert!(
            passing.starts_with(
                "<h2>Passing cases</h2>\n<details class=\"names\"><summary>2 cases passed</summary>"
            ),
            "{passing}"
        );
        assert!(
            passing.contains("<code>01</code> <code>02</code>"),
            "{passing}"
        );

        // Secret cases shown by verdict only are their own kind, listed by name.
        let page = page_of(off_by_one, Reveal::Verdicts);
        assert_eq!(
            page.matches("<section class=\"kind\">").count(),
            2,
            "{page}"
        );
        assert_eq!(page.matches("<article class=\"case\"").count(), 1, "{page}");
        assert!(!page.contains("<details class=\"case\""), "{page}");
        assert!(
            page.contains(
                "<span class=\"v WA\">WA</span> Wrong answer <span class=\"count\">(3 cases)</span>"
            ),
            "{page}"
        );
        assert!(
            page.contains("<code id=\"case-secret/answers/02\">02</code>"),
            "{page}"
        );
        assert_eq!(page.matches("<div class=\"explanation\">").count(), 1);
    }

    #[test]
    fn the_groups_say_the_points_earned_in_each_when_groups_are_worth_points() {
        let mut book = samples::explained_gradebook(
            Problem::Flip,
            ("bwwb\nbbwb\nbwwb\nbwww\n", "5\n"),
            ("bwbb\nbwwb\nbwww\nbbbw\n", "3\n"),
        );
        book.points = Some(BTreeMap::from([
            ("sample".to_owned(), 10.0),
            ("secret/answers".to_owned(), 60.0),
        ]));
        book.students[0].points = Some(70.0);
        let (head, students) = book.into_parts();
        let handout = Handout {
            book: &head,
            student: &students[0],
            reveal: Reveal::Verdicts,
        };
        let page = String::from_utf8(Exporter::raw(page).render(&handout)).expect("UTF-8");
        assert!(
            page.contains("Points: <strong>70</strong> of 70."),
            "{page}"
        );
        assert!(page.contains("<th class=\"num\">Points</th>"), "{page}");
        assert!(
            page.contains(
                "<td>secret/answers</td><td class=\"num AC\">1/1</td><td class=\"num\">60 of 60</td>"
            ),
            "{page}"
        );
        // Nothing failed: no kinds, the passing cases folded.
        assert!(!page.contains("Failing cases"), "{page}");
        assert!(page.contains("<summary>2 cases passed</summary>"), "{page}");
    }

    #[test]
    fn a_layout_mistake_is_said_once_with_its_lines_and_no_drawing() {
        let blank_first = |answer: &str| format!("\n{answer}");
        let page = page_of(blank_first, Reveal::All);
        assert_eq!(
            page.matches("<section class=\"kind\">").count(),
            1,
            "{page}"
        );
        assert!(page.contains("<span class=\"v PE\">PE</span> Right answer, wrong layout"));
        assert!(page.contains("(6 cases)"), "{page}");
        // The mistake in words, once.
        assert_eq!(
            page.matches("What is wrong: your output starts with an empty line")
                .count(),
            1,
            "{page}"
        );
        // Each case's message once (the sample's in full, the others folded), no reason.
        assert!(page.contains(
            "<h4><code>sample/01</code>: right answer, wrong layout: line 1: expected `4`, got ``</h4>"
        ));
        assert_eq!(
            page.matches("right answer, wrong layout: line 1").count(),
            6
        );
        // Nothing about the minimum: the layout is the mistake.
        assert!(!page.contains("class=\"explanation\""), "{page}");
        assert!(!page.contains("class=\"steps\""), "{page}");
        assert!(!page.contains("Why: "), "{page}");
        // The empty first line is shown (HTML drops a newline right after `<pre>`).
        assert!(page.contains("your output<pre>\n\n4\n</pre>"), "{page}");
        // Where the message is not shown, the reason says where; still nothing drawn.
        let page = page_of(blank_first, Reveal::Boards);
        assert!(
            page.contains("<p class=\"reason\">Why: right answer, wrong layout"),
            "{page}"
        );
        assert!(!page.contains("class=\"steps\""), "{page}");
        // The sample shows its answer: the mistake is said from it.
        assert!(page.contains("What is wrong: your output starts"), "{page}");
    }

    #[test]
    fn an_unsolvable_board_asks_for_impossible_exactly_with_its_proof_folded() {
        let lower = |answer: &str| answer.replace("Impossible", "impossible");
        let page = page_of(lower, Reveal::All);
        assert!(
            page.contains("The board cannot be solved: print <code>Impossible</code>, exactly so <span class=\"count\">(2 cases)</span>"),
            "{page}"
        );
        assert!(page.contains("<h4><code>secret/impossible/01</code>: expected `Impossible`, got `impossible`</h4>"), "{page}");
        // The proof is there, folded under the board.
        assert_eq!(
            page.matches("<div class=\"explanation\">").count(),
            2,
            "{page}"
        );
        assert_eq!(
            page.matches("<details class=\"proof\"><summary>Why it cannot be solved</summary><div class=\"explanation\">").count(),
            2,
            "{page}"
        );
        // Below `all`, the page says no more than the verdict of a secret case.
        let page = page_of(lower, Reveal::Verdicts);
        assert!(!page.contains("cannot be solved"), "{page}");
        assert!(!page.contains("<code>Impossible</code>"), "{page}");
        assert!(page.contains("Wrong answer"), "{page}");
    }
}
