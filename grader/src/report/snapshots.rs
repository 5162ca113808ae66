//! Snapshot tests of every exporter on the samples (`samples.rs`): the human reports as
//! plain text (and one with its ANSI styles), JSON, JUnit, CSV and HTML as written.
//! `cargo insta review` shows a changed report; CI fails on one not committed.

use insta::assert_snapshot;

use super::book::Held;
use super::exporter::Exporter;
use super::human::gradebook::Saved;
use super::{csv, gradescope, html, human, json, junit, samples, style};
use crate::results::submission::SubmissionResult;

/// What `exporter` writes for `value`, with its styles.
fn styled<T: ?Sized>(exporter: Exporter<T>, value: &T) -> String {
    String::from_utf8(exporter.render(value)).expect("reports are UTF-8")
}

/// What `exporter` writes for `value`, as a file or a pipe gets it.
fn plain<T: ?Sized>(exporter: Exporter<T>, value: &T) -> String {
    style::plain(&styled(exporter, value))
}

/// The test reports of the samples, by name.
fn submissions() -> [(&'static str, SubmissionResult); 6] {
    [
        ("blank_first", samples::blank_first()),
        ("all_accepted", samples::all_accepted()),
        ("wrong_answer", samples::wrong_answer()),
        ("limits_and_crashes", samples::limits_and_crashes()),
        ("compile_error", samples::compile_error()),
        ("cut_short", samples::cut_short()),
    ]
}

#[test]
fn test_reports_in_every_format() {
    for (name, result) in submissions() {
        let human = Exporter::styled(human::submission::report);
        assert_snapshot!(format!("test_{name}.human"), plain(human, &result));
        let json = Exporter::raw(json::submission);
        assert_snapshot!(format!("test_{name}.json"), plain(json, &result));
        let junit = Exporter::raw(junit::submission);
        assert_snapshot!(format!("test_{name}.junit"), plain(junit, &result));
    }
}

#[test]
fn the_human_test_report_with_its_colours() {
    let exporter = Exporter::styled(human::submission::report);
    let text = styled(exporter, &samples::wrong_answer());
    assert!(text.contains('\x1b'), "styled: {text:?}");
    assert_snapshot!("test_wrong_answer.styled", format!("{text:?}"));
}

#[test]
fn fuzz_reports_in_every_format() {
    for (name, result) in [
        ("clean", samples::fuzz_clean()),
        ("seeded", samples::fuzz_seeded()),
        ("regression", samples::fuzz_regression()),
        ("compile_error", samples::fuzz_compile_error()),
    ] {
        let human = Exporter::styled(human::fuzz::report);
        assert_snapshot!(format!("fuzz_{name}.human"), plain(human, &result));
        let json = Exporter::raw(json::fuzz);
        assert_snapshot!(format!("fuzz_{name}.json"), plain(json, &result));
        let junit = Exporter::raw(junit::fuzz);
        assert_snapshot!(format!("fuzz_{name}.junit"), plain(junit, &result));
    }
}

#[test]
fn the_gradebook_in_every_format() {
    let held = Held::new(samples::gradebook());
    let book = held.book();
    let saved = Saved {
        book,
        folder: std::path::Path::new("out"),
    };
    let human = Exporter::styled(human::gradebook::summary);
    assert_snapshot!("gradebook.human", plain(human, &saved));
    assert_snapshot!(
        "gradebook.json",
        plain(Exporter::raw(json::gradebook), &book)
    );
    assert_snapshot!("gradebook.csv", plain(Exporter::raw(csv::gradebook), &book));
    assert_snapshot!(
        "gradebook.junit",
        plain(Exporter::raw(junit::gradebook), &book)
    );
    let page = plain(Exporter::raw(html::gradebook::page), &book);
    // Every hostile name is text, in an element or inside an attribute's quotes.
    assert!(
        !page.contains("\" onmouseover=\""),
        "an attribute was added"
    );
    assert!(!page.contains("<script>alert"), "an element was added");
    assert_snapshot!("gradebook.html", page);
}

#[test]
fn a_gradebook_with_points_per_group_in_every_format() {
    let mut book = samples::gradebook();
    let worth = std::collections::BTreeMap::from([
        ("sample".to_owned(), 0.0),
        ("secret/answers".to_owned(), 60.0),
    ]);
    for s in &mut book.students {
        let tally = |g: &str| s.groups.get(g).map_or((0, 0), |t| (t.passed, t.total));
        // A student not graded earned no points, as `batch` writes it.
        s.points = (s.verdict != crate::results::mark::Mark::NotGraded)
            .then(|| crate::cases::points::earned(&worth, tally));
    }
    book.points = Some(worth);
    let held = Held::new(book.clone());
    let saved = Saved {
        book: held.book(),
        folder: std::path::Path::new("out"),
    };
    let human = Exporter::styled(human::gradebook::summary);
    assert_snapshot!("gradebook-points.human", plain(human, &saved));
    assert_snapshot!(
        "gradebook-points.csv",
        plain(Exporter::raw(csv::gradebook), &held.book())
    );
    let json = plain(Exporter::raw(json::gradebook), &held.book());
    let back: crate::results::gradebook::Gradebook = serde_json::from_str(&json).unwrap();
    assert_eq!(back, book);
    let page = plain(Exporter::raw(html::gradebook::page), &held.book());
    assert!(page.contains("Points (of 60)"), "{page}");
}

#[test]
fn the_gradebook_json_reads_back_as_the_same_gradebook() {
    // `grader merge` reads what `grader batch` wrote.
    let book = samples::gradebook();
    let text = plain(
        Exporter::raw(json::gradebook),
        &Held::new(book.clone()).book(),
    );
    let back: crate::results::gradebook::Gradebook =
        serde_json::from_str(&text).expect("a gradebook");
    assert_eq!(back, book);
}

#[test]
fn every_hostile_name_is_neutralised_in_the_csv() {
    let held = Held::new(samples::gradebook());
    let text = plain(Exporter::raw(csv::gradebook), &held.book());
    let mut rows = ::csv::Reader::from_reader(text.as_bytes());
    let students: Vec<String> = rows
        .records()
        .map(|row| row.expect("a row")[0].to_owned())
        .collect();
    for name in samples::HOSTILE {
        if name.starts_with(['=', '+', '-', '@']) {
            assert!(
                students.contains(&format!("'{name}")),
                "{name}: {students:?}"
            );
        } else {
            assert!(students.contains(&name.to_owned()), "{name}: {students:?}");
        }
    }
}

#[test]
fn the_reports_of_cases_and_check() {
    let regen = Exporter::raw(human::cases::regen);
    assert_snapshot!(
        "cases_regen",
        plain(regen, samples::regenerated().as_slice())
    );
    assert_snapshot!(
        "cases_regen_drifted_much",
        plain(regen, samples::drifted_much().as_slice())
    );
    let check = Exporter::raw(human::cases::check);
    assert_snapshot!("cases_check", plain(check, samples::checked().as_slice()));
    let power = Exporter::raw(human::cases::power);
    assert_snapshot!("cases_power", plain(power, &samples::measured()));
    let mut lines = String::new();
    for result in &samples::checks() {
        lines += &plain(Exporter::raw(human::check::verdict), result);
        lines += &plain(Exporter::raw(json::check), result);
    }
    assert_snapshot!("check", lines);
}

#[test]
fn test_reports_explain_each_wrong_answer() {
    for (name, result) in [
        ("flip", samples::flip_explained()),
        ("fourinrow", samples::fourinrow_explained()),
        ("swap", samples::swap_explained()),
    ] {
        let human = plain(Exporter::styled(human::submission::report), &result);
        assert!(human.contains("\n  why: "), "{human}");
        // The grids fit a terminal of 100 columns (the reason is one line, however long).
        let grids = human.lines().filter(|l| l.starts_with("    "));
        assert!(
            grids.into_iter().all(|l| l.chars().count() <= 100),
            "{human}"
        );
        assert_snapshot!(format!("explained_{name}.human"), human);
        let json = plain(Exporter::raw(json::submission), &result);
        assert_snapshot!(format!("explained_{name}.json"), json);
        let junit = plain(Exporter::raw(junit::submission), &result);
        assert!(junit.contains("why: "), "{junit}");
        let gradescope = plain(Exporter::raw(gradescope::submission), &result);
        assert_snapshot!(format!("explained_{name}.gradescope"), gradescope);
    }
}

#[test]
fn the_html_gradebook_draws_each_explanation() {
    for (problem, book) in samples::explained_gradebooks() {
        let page = plain(
            Exporter::raw(html::gradebook::page),
            &Held::new(book.clone()).book(),
        );
        let bob = &book.students[1];
        for c in &bob.cases {
            let reason = &c
                .explanation
                .as_ref()
                .expect("bob's cases are explained")
                .reason;
            let escaped = maud::html! { (reason) }.into_string();
            assert!(page.contains(&escaped), "{problem}: {reason} in {page}");
        }
        assert_snapshot!(format!("gradebook-explained-{problem}.html"), page);
    }
}

#[test]
fn gradescope_results_of_every_test_sample() {
    for (name, result) in submissions()
        .into_iter()
        .chain([("points", samples::wrong_answer_with_points())])
    {
        let text = plain(Exporter::raw(gradescope::submission), &result);
        assert_snapshot!(format!("gradescope_{name}.json"), text);
    }
}

#[test]
fn a_layout_mistake_is_said_once_on_a_feedback_page() {
    use crate::results::feedback::Reveal;
    use html::feedback::{Handout, page};
    let (book, students) = samples::blank_first_gradebook().into_parts();
    let handout = Handout {
        book: &book,
        student: &students[0],
        reveal: Reveal::Verdicts,
    };
    let text = plain(Exporter::raw(page), &handout);
    assert_eq!(text.matches("What is wrong: ").count(), 1, "{text}");
    assert_snapshot!("feedback-layout-verdicts.html", text);
}

#[test]
fn feedback_pages_at_each_level_of_reveal() {
    use crate::results::feedback::Reveal;
    use html::feedback::{Handout, page};
    for (problem, book) in samples::explained_gradebooks() {
        let (book, students) = book.into_parts();
        for reveal in [Reveal::Verdicts, Reveal::Boards, Reveal::All] {
            let handout = Handout {
                book: &book,
                student: &students[1],
                reveal,
            };
            let text = plain(Exporter::raw(page), &handout);
            // bob's page never names alice.
            assert!(!text.contains("alice"), "{text}");
            let secret = &book.boards["secret/answers/01"];
            assert_eq!(
                text.contains(&format!("<pre>{}</pre>", secret.input)),
                reveal != Reveal::Verdicts,
                "{problem} {reveal:?}: {text}"
            );
            let name = format!("{reveal:?}").to_lowercase();
            assert_snapshot!(format!("feedback-{problem}-{name}.html"), text);
        }
    }
}
