//! The gradebook of a class: what one batch (or several merged shards) found, as data that
//! serialises to JSON and back (so shards can be merged), and its CSV and JUnit forms.
//! Nothing here depends on timing or on how the work was split: a merged gradebook is the
//! same as one run's, runs' figures aside.

use std::collections::BTreeMap;

use reference::Verdict;
use serde::{Deserialize, Serialize};

use crate::submission::diagnosis::{self, Suggestion};

/// The verdict of a student who could not be graded (the grader's setup or an unreadable
/// file, never a mark of the student's).
pub(crate) const NOT_GRADED: &str = "--";

/// A student's overall verdict from the cases that ran (cli.md): `AC` when every case ran
/// and is `AC`, else the first failing case's (`WA` when some did not run and none
/// failed).
pub(crate) fn overall(cases: &[CaseReport], total: usize) -> String {
    match cases.iter().find(|c| c.verdict != Verdict::Accepted.code()) {
        Some(failing) => failing.verdict.clone(),
        None if cases.len() == total => Verdict::Accepted.code().to_owned(),
        None => Verdict::WrongAnswer.code().to_owned(),
    }
}

/// `passed / total` as a percentage with one decimal (0 when there are no cases).
pub(crate) fn score(passed: usize, total: usize) -> f64 {
    if total == 0 {
        return 0.0;
    }
    (passed as f64 * 1000.0 / total as f64).round() / 10.0
}

/// The limits every run had.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct LimitFacts {
    /// CPU, ms.
    pub(crate) cpu_ms: f64,
    /// Wall, ms.
    pub(crate) wall_ms: f64,
    /// Memory, KiB.
    pub(crate) memory_kib: u64,
    /// Output, KiB.
    pub(crate) output_kib: u64,
}

/// A passed/total pair.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Tally {
    /// `AC` cases.
    pub(crate) passed: usize,
    /// All cases.
    pub(crate) total: usize,
}

/// One case of one student (cli.md's fields, plus the start of the output and the end of
/// stderr for failing cases).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CaseReport {
    /// The case name.
    pub(crate) name: String,
    /// The verdict code.
    pub(crate) verdict: String,
    /// CPU time, ms.
    pub(crate) cpu_ms: f64,
    /// Wall time, ms.
    pub(crate) wall_ms: f64,
    /// Peak memory, KiB.
    pub(crate) memory_kib: u64,
    /// Why.
    pub(crate) message: String,
    /// The start of the output (failing cases only).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub(crate) output: String,
    /// The end of stderr (failing cases only).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub(crate) stderr: String,
}

/// One student.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct StudentReport {
    /// The student (`section-a/alice`).
    pub(crate) student: String,
    /// The problem.
    pub(crate) problem: String,
    /// The entry file, below the class folder.
    pub(crate) submission: String,
    /// The language.
    pub(crate) language: String,
    /// `AC`, the first failing case's verdict, `CE`, or `--` when it could not be graded.
    pub(crate) verdict: String,
    /// `passed / total` as a percentage, one decimal.
    pub(crate) score: f64,
    /// `AC` cases.
    pub(crate) passed: usize,
    /// All cases.
    pub(crate) total: usize,
    /// Per group of cases.
    pub(crate) groups: BTreeMap<String, Tally>,
    /// The compiler's message, for `CE`.
    pub(crate) compile_error: Option<String>,
    /// For `CE`, the profile its message points to (`poj`), and why.
    #[serde(default)]
    pub(crate) suggestion: Option<Suggestion>,
    /// Why it could not be graded (an unreadable or oversized file, ...).
    pub(crate) error: Option<String>,
    /// The cases, in name order (fewer than `total` after a per-submission fail-fast).
    pub(crate) cases: Vec<CaseReport>,
}

/// Something skipped in the class folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SkippedReport {
    /// The path below the class folder.
    pub(crate) path: String,
    /// Why.
    pub(crate) why: String,
}

/// A class's gradebook.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Gradebook {
    /// The problem.
    pub(crate) problem: String,
    /// The limits.
    pub(crate) limits: LimitFacts,
    /// Every case name, in order.
    pub(crate) cases: Vec<String>,
    /// Every group, in order, with its number of cases.
    pub(crate) groups: BTreeMap<String, usize>,
    /// The students, by name.
    pub(crate) students: Vec<StudentReport>,
    /// What was not graded.
    pub(crate) skipped: Vec<SkippedReport>,
    /// Each case's input and answer, for the HTML page's failing cases.
    #[serde(default)]
    pub(crate) boards: BTreeMap<String, Board>,
}

/// A case's input and answer text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Board {
    /// The input.
    pub(crate) input: String,
    /// The answer.
    pub(crate) answer: String,
}

impl Gradebook {
    /// How many students got each overall verdict, in judging.md order.
    pub(crate) fn histogram(&self) -> Vec<(String, usize)> {
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        for s in &self.students {
            *counts.entry(s.verdict.clone()).or_default() += 1;
        }
        let order = reference::Verdict::ALL.map(reference::Verdict::code);
        let mut out: Vec<(String, usize)> = order
            .iter()
            .filter_map(|code| counts.remove(*code).map(|n| ((*code).to_owned(), n)))
            .collect();
        out.extend(counts);
        out
    }

    /// Whether every student is `AC` and nothing was skipped.
    pub(crate) fn all_accepted(&self) -> bool {
        self.students.iter().all(|s| s.verdict == "AC")
    }
}

/// The JSON form.
pub(crate) fn json(book: &Gradebook) -> String {
    let mut text = serde_json::to_string_pretty(book).expect("gradebooks serialise");
    text.push('\n');
    text
}

/// The CSV form: a row per student.
pub(crate) fn csv(book: &Gradebook) -> String {
    let mut writer = csv::Writer::from_writer(Vec::new());
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
    ]
    .map(str::to_owned)
    .to_vec();
    header.extend(book.groups.iter().map(|(g, n)| format!("{g} ({n})")));
    writer.write_record(&header).expect("in memory");
    for s in &book.students {
        let compiled = match (&s.compile_error, &s.error) {
            (Some(_), _) => "CE",
            (None, Some(_)) => "error",
            (None, None) => "yes",
        };
        let mut row = vec![
            s.student.clone(),
            s.submission.clone(),
            s.language.clone(),
            format!("{:.1}", s.score),
            s.verdict.clone(),
            s.passed.to_string(),
            s.total.to_string(),
            compiled.to_owned(),
            s.suggestion
                .as_ref()
                .map(|x| x.lang.clone())
                .unwrap_or_default(),
        ];
        row.extend(
            book.groups
                .keys()
                .map(|g| s.groups.get(g).map_or(0, |t| t.passed).to_string()),
        );
        writer.write_record(&row).expect("in memory");
    }
    String::from_utf8(writer.into_inner().expect("in memory")).expect("UTF-8 fields")
}

/// The JUnit form: a suite per student, a test case per case.
pub(crate) fn junit(book: &Gradebook) -> String {
    use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
    let mut report = Report::new(format!("grader batch {}", book.problem));
    for s in &book.students {
        let mut suite = TestSuite::new(s.student.clone());
        if s.compile_error.is_some() || s.error.is_some() {
            let mut status = TestCaseStatus::non_success(NonSuccessKind::Error);
            let (kind, summary, text) = match (&s.compile_error, &s.error) {
                (Some(m), _) => {
                    let mut text = m.clone();
                    if let Some(suggestion) = &s.suggestion {
                        text = format!("{text}\n\n{}", suggestion.for_student(&s.student));
                    }
                    ("CE", diagnosis::summary(m), text)
                }
                (None, Some(m)) => (
                    "error",
                    m.lines().next().unwrap_or_default().to_owned(),
                    m.clone(),
                ),
                (None, None) => unreachable!("checked above"),
            };
            status.set_type(kind);
            status.set_message(summary);
            status.set_description(text);
            suite.add_test_case(TestCase::new("build", status));
        }
        for c in &s.cases {
            let status =
                crate::report::junit_status(&c.verdict, format!("{}: {}", c.verdict, c.message));
            let mut case = TestCase::new(c.name.clone(), status);
            case.set_time(std::time::Duration::from_secs_f64(c.wall_ms / 1e3));
            suite.add_test_case(case);
        }
        report.add_test_suite(suite);
    }
    report.to_string().expect("JUnit serialises")
}

/// Merges shard gradebooks into one: the same problem, cases and limits; no student in
/// two shards.
pub(crate) fn merge(books: Vec<(String, Gradebook)>) -> Result<Gradebook, String> {
    let mut books = books.into_iter();
    let Some((first_name, mut merged)) = books.next() else {
        return Err("no gradebooks to merge".to_owned());
    };
    for (name, book) in books {
        if book.problem != merged.problem
            || book.cases != merged.cases
            || book.limits != merged.limits
        {
            return Err(format!(
                "{name}: graded {} on other cases or limits than {first_name}",
                book.problem
            ));
        }
        merged.students.extend(book.students);
        merged.boards.extend(book.boards);
        for skipped in book.skipped {
            if !merged.skipped.contains(&skipped) {
                merged.skipped.push(skipped);
            }
        }
    }
    merged.students.sort_by(|a, b| a.student.cmp(&b.student));
    if let Some(pair) = merged
        .students
        .windows(2)
        .find(|w| w[0].student == w[1].student)
    {
        return Err(format!(
            "`{}` is graded in two of the gradebooks",
            pair[0].student
        ));
    }
    merged.skipped.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(merged)
}
