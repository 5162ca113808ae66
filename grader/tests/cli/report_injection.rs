//! Hostile student names through `grader batch`: a file name that would close an HTML
//! attribute and add one (`x" onmouseover="alert(1)" y=".c`), names that would add an
//! element, and names a spreadsheet would run as formulas. The gradebook's page gets no
//! such attribute or element (read by a small tag reader, on the file and on the DOM a
//! real browser built from it), and every such CSV cell begins with `'`.

use std::collections::BTreeSet;
use std::fs;
use std::path::PathBuf;
use std::time::Duration;

use testkit::class::Class;
use testkit::gradebook::Csv;
use testkit::paths::{fixture, two_cases};
use testkit::scene::Scene;
use testkit::tools::{chromium, rendered};

/// Names that would add an attribute or an element to a page built by hand.
const HTML_HOSTILE: [&str; 3] = [
    "x\" onmouseover=\"alert(1)\" y=\"",
    "<script>alert(1)<script>",
    "<img src=x onerror=alert(2)>",
];

/// Names a spreadsheet would run as formulas (no `/`: they are file names).
const FORMULAS: [&str; 4] = ["=HYPERLINK(\"evil.example\",\"x\")", "@SUM(1)", "+1", "-1"];

/// A class of one C fixture per name, graded into `out/`; the CSV printed on stdout.
struct Graded {
    scene: Scene,
    stdout: String,
}

fn grade(names: &[&str]) -> Graded {
    let scene = Scene::new(Duration::from_mins(5));
    let source = fs::read_to_string(fixture("flip/wa_off_by_one.c")).unwrap();
    Class::at(scene.path("class")).distinct(names.iter().chain(&["alice"]), "c", &source);
    let output = scene
        .grader()
        .args([
            "batch", "flip", "class", "--out", "out", "--report", "csv", "--cases",
        ])
        .arg(two_cases())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    // No student is AC (exit 1), and nothing refused.
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    Graded {
        stdout: String::from_utf8(output.stdout).unwrap(),
        scene,
    }
}

impl Graded {
    fn path(&self, rel: &str) -> PathBuf {
        self.scene.path(rel)
    }
}

/// A tag of an HTML text: its name and its attributes' names.
#[derive(Debug)]
struct Tag {
    name: String,
    attributes: BTreeSet<String>,
}

/// The start tags of `html`, as a browser's tokenizer reads them: a tag opens at `<`, an
/// attribute value in double quotes runs to the next `"`, and the text of `<script>` and
/// `<style>` is not markup. Enough for the pages the grader writes (every value quoted)
/// and for a browser's serialisation of them.
fn tags(html: &str) -> Vec<Tag> {
    let mut tags = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find('<') {
        rest = &rest[at + 1..];
        if rest.starts_with(['/', '!']) {
            continue;
        }
        let end = rest
            .find(|c: char| c.is_whitespace() || c == '>' || c == '/')
            .unwrap();
        let name = rest[..end].to_ascii_lowercase();
        rest = &rest[end..];
        let mut attributes = BTreeSet::new();
        loop {
            rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == '/');
            if let Some(after) = rest.strip_prefix('>') {
                rest = after;
                break;
            }
            let end = rest
                .find(|c: char| c.is_whitespace() || c == '=' || c == '>')
                .unwrap();
            attributes.insert(rest[..end].to_ascii_lowercase());
            rest = &rest[end..];
            if let Some(value) = rest.strip_prefix("=\"") {
                rest = &value[value.find('"').unwrap() + 1..];
            } else if let Some(value) = rest.strip_prefix('=') {
                let end = value.find(|c: char| c.is_whitespace() || c == '>').unwrap();
                rest = &value[end..];
            }
        }
        if name == "script" || name == "style" {
            rest = &rest[rest.find(&format!("</{name}")).unwrap()..];
        }
        tags.push(Tag { name, attributes });
    }
    tags
}

/// No tag has an event handler, and the one script is the page's own (it has no
/// attributes: it is inline).
fn assert_no_injected_markup(html: &str, what: &str) {
    let tags = tags(html);
    let handlers: Vec<&Tag> = tags
        .iter()
        .filter(|t| t.attributes.iter().any(|a| a.starts_with("on") || a == "y"))
        .collect();
    assert!(handlers.is_empty(), "{what}: {handlers:?}");
    let scripts = tags.iter().filter(|t| t.name == "script").count();
    assert_eq!(scripts, 1, "{what}: one script, the page's own");
    assert!(
        !tags.iter().any(|t| t.name == "img"),
        "{what}: an element was added"
    );
}

#[test]
fn the_tag_reader_sees_an_added_attribute_and_element() {
    // What a page built with a text escaper inside attributes had.
    let hand_made = "<td data-key=\"x\" onmouseover=\"alert(1)\" y=\"\">x</td>\
        <script>var a = '<b>';</script><img src=x onerror=alert(2)>";
    let tags = tags(hand_made);
    assert!(tags[0].attributes.contains("onmouseover"), "{tags:?}");
    assert_eq!(tags[1].name, "script");
    assert!(tags[2].attributes.contains("onerror"), "{tags:?}");
    assert_eq!(tags.len(), 3, "the script's text is not markup: {tags:?}");
}

#[test]
fn hostile_names_add_no_attribute_or_element_to_the_html_gradebook() {
    let graded = grade(&HTML_HOSTILE);
    let page = graded.path("out/gradebook.html");
    let html = fs::read_to_string(&page).unwrap();
    assert_no_injected_markup(&html, "gradebook.html");
    for name in HTML_HOSTILE {
        let escaped = name
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;");
        assert!(html.contains(&escaped), "{name} is shown, escaped");
    }
    let Some(chromium) = chromium() else {
        eprintln!("skipped the browser: no chromium on this machine");
        return;
    };
    let dom = rendered(chromium, &graded.path("chromium"), &page);
    assert_eq!(dom.matches("<tr class=\"student\">").count(), 4, "{dom}");
    assert_no_injected_markup(&dom, "the browser's DOM");
}

#[test]
fn names_a_spreadsheet_would_run_begin_with_a_quote_in_the_csv() {
    let graded = grade(&FORMULAS);
    let csv = fs::read_to_string(graded.path("out/gradebook.csv")).unwrap();
    assert_eq!(graded.stdout, csv, "--report csv prints the file");
    let table = Csv::parse(&csv);
    let rows = table.rows();
    assert_eq!(rows.len(), FORMULAS.len() + 1, "{csv}");
    for name in FORMULAS {
        let row = rows
            .iter()
            .find(|r| r[0] == format!("'{name}"))
            .unwrap_or_else(|| panic!("{name}: no row whose student is '{name}: {csv}"));
        assert_eq!(row[1], format!("'{name}.c"), "the submission too");
    }
    let alice = rows.iter().find(|r| r[0] == "alice").unwrap();
    assert_eq!(alice[1], "alice.c", "other names are kept as they are");
    assert_eq!(alice[4], "WA", "{csv}");
    for row in rows {
        for cell in row {
            assert!(
                !cell.starts_with(['=', '+', '-', '@', '\t', '\r']),
                "{cell:?} would be a formula: {csv}"
            );
        }
    }
}
