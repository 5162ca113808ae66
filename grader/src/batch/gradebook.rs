//! The gradebook's JSON, CSV and JUnit forms.

use crate::results::gradebook::Gradebook;
use crate::submission::diagnosis;

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
            s.verdict.to_string(),
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
                crate::report::junit_status(c.verdict, format!("{}: {}", c.verdict, c.message));
            let mut case = TestCase::new(c.name.clone(), status);
            case.set_time(c.wall());
            suite.add_test_case(case);
        }
        report.add_test_suite(suite);
    }
    report.to_string().expect("JUnit serialises")
}
