//! The gradebook page's failing cases by reason, and the groups table of a verdict-only
//! feedback page, through `grader batch` on the shipped flip cases, read as a person
//! would in headless Chromium: ten students who print an empty line first are one
//! short section with no drawing, their ten names in it, a wrong number keeps its drawing, and a student's page
//! says per group what it tests, its points and the margin its runs left.

use std::fs;
use std::path::Path;
use std::time::Duration;

use testkit::class::Class;
use testkit::paths::fixture;
use testkit::scene::Scene;
use testkit::tools::{chromium, rendered};

/// The students who print an empty line first: ann, bea, cat, and seven after fay.
const BLANK_FIRST: [&str; 10] = [
    "ann", "bea", "cat", "gil", "hal", "ida", "jon", "kim", "lea", "max",
];

/// The class: the ten of [`BLANK_FIRST`] print an empty line first, cid a space; dan's
/// counts are one too many, eve does not compile, fay is right.
fn class(root: &Path) {
    let flip = fixture("flip");
    let class = Class::at(root.join("class"));
    let right = fs::read_to_string(flip.join("ac_rows.py")).unwrap();
    for name in BLANK_FIRST {
        class.write(format!("{name}.py"), format!("print()\n{right}"));
    }
    class
        .copy("cid.py", &flip.join("pe_leading_space.py"))
        .copy("dan.c", &flip.join("wa_off_by_one.c"))
        .copy("eve.cpp", &flip.join("ce_syntax.cpp"))
        .copy("fay.py", &flip.join("ac_rows.py"));
}

/// A page as `browser` built it, or as written when this machine has none.
fn shown(root: &Path, browser: Option<&str>, page: &Path) -> String {
    browser.map_or_else(
        || fs::read_to_string(page).unwrap(),
        |browser| rendered(browser, &root.join("chromium"), page),
    )
}

/// The part of `page` from `start` to the next `</section>`.
fn section<'a>(page: &'a str, start: &str) -> &'a str {
    let at = page
        .find(start)
        .unwrap_or_else(|| panic!("no {start} in {page}"));
    let end = page[at..].find("</section>").unwrap() + at;
    &page[at..end]
}

/// Each of [`BLANK_FIRST`] is in the block `blank` once, and under no other reason.
fn each_named_once(page: &str, blank: &str) {
    for name in BLANK_FIRST {
        assert_eq!(
            blank.matches(&format!("\">{name}: 69 cases</li>")).count(),
            1,
            "{name} listed once in the block: {blank}"
        );
        assert_eq!(
            page.matches(&format!(">{name}: ")).count(),
            1,
            "{name} under no other reason: {page}"
        );
    }
}

#[test]
fn failing_cases_are_grouped_by_reason_and_a_students_groups_say_what_they_test() {
    let scene = Scene::new(Duration::from_mins(10));
    class(scene.root());
    let output = scene
        .grader()
        .args(["batch", "flip", "class", "--out", "out", "--feedback", "fb"])
        .args(["--jobs", "2", "--wall-limit", "30"])
        .args(["--points", "sample=0", "--points", "secret/impossible=40"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    let browser = chromium();
    if browser.is_none() {
        eprintln!("the pages are not rendered: no chromium on this machine");
    }
    let page = shown(
        scene.root(),
        browser,
        &scene.root().join("out/gradebook.html"),
    );
    // The most students first: the empty line, one block for the ten, said once, one
    // example, no drawing.
    let blank = section(&page, "<section class=\"reason\" id=\"r-0\">");
    assert!(
        blank.contains("Right answer, wrong layout <span class=\"count\">(10 students, 690 cases)"),
        "{blank}"
    );
    each_named_once(&page, blank);
    assert_eq!(
        page.matches("What is wrong: your output starts with an empty line")
            .count(),
        1,
        "{page}"
    );
    assert_eq!(blank.matches("<h4>").count(), 1, "one example: {blank}");
    assert!(
        blank.contains("<li id=\"s-0\">ann: 69 cases</li>"),
        "{blank}"
    );
    assert!(
        blank.contains("<li id=\"s-13\">max: 69 cases</li>"),
        "{blank}"
    );
    assert!(!blank.contains("class=\"steps\""), "{blank}");
    // The space before the answer is a reason of its own, also without a drawing.
    let space = section(
        &page,
        "What is wrong: a line of your output starts with a space",
    );
    assert!(space.contains("cid: 69 cases"), "{space}");
    assert!(!space.contains("class=\"steps\""), "{space}");
    // A wrong number keeps its case in full, with the minimum drawn.
    let above = section(&page, "Your count is more than the minimum");
    assert!(
        above.contains("dan <span class=\"v WA\">WA</span>"),
        "{above}"
    );
    assert!(above.contains("class=\"steps\""), "{above}");
    assert!(
        page.contains("Did not compile <span class=\"count\">(1 student)"),
        "{page}"
    );
    // Every failing student is under a reason the table links to; fay (6) is under none.
    assert_eq!(
        page.matches("<section class=\"reason\"").count(),
        4,
        "{page}"
    );
    for index in (0..14).filter(|&i| i != 6) {
        assert!(
            page.contains(&format!("id=\"s-{index}\"")),
            "s-{index}: {page}"
        );
    }
    assert!(!page.contains("fay:"), "{page}");
    // ann's page (verdicts only): each group's points, margin and what it tests.
    let ann = shown(scene.root(), browser, &scene.root().join("fb/ann.html"));
    check_anns_page(&ann);
}

/// ann's page (verdicts only): each group's points, margin and what it tests; her one
/// mistake said once, with its count of cases.
fn check_anns_page(ann: &str) {
    assert!(
        ann.contains(
            "<tr><td>secret/impossible</td><td class=\"num PE\">0/10</td>\
             <td class=\"num\">0 of 40</td><td class=\"margin\">"
        ),
        "{ann}"
    );
    assert!(
        ann.contains(
            "<tr class=\"about\"><td colspan=\"4\">What it tests: boards with no solution: \
             `Impossible`, with a capital I</td></tr>"
        ),
        "{ann}"
    );
    let margins = ann.matches("<td class=\"margin\">").count();
    assert_eq!(margins, 8, "a margin per group: {ann}");
    assert_eq!(ann.matches(" of 1 s CPU, ").count(), 8, "{ann}");
    // Her one mistake, said once, with its count of cases.
    assert_eq!(
        ann.matches("What is wrong: your output starts with an empty line")
            .count(),
        1,
        "{ann}"
    );
    assert!(
        ann.contains(
            "Right answer, wrong layout: print it exactly as the statement shows \
             <span class=\"count\">(69 cases)</span>"
        ),
        "{ann}"
    );
}
