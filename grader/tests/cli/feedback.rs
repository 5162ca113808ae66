//! End-to-end tests of the feedback pages (`grader batch|merge --feedback DIR --reveal
//! LEVEL`): one page per student that renders in headless Chromium, shows each secret
//! case exactly as the level says (and nothing more, even in its source), names no other
//! student, and draws witnesses that solve their boards in exactly the answer's steps;
//! a failing student's first explanation is on the first screen of a phone and a laptop.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::Command;
use serde_json::Value;

use testkit::boards::FLIP_SAMPLE;
use testkit::cases::CaseFolder;
use testkit::grader::one_error_line;
use testkit::paths::{fixture, repo};
use testkit::rules::{cells, flip_press, one_colour};
use testkit::scene::Scene;
use testkit::tools::{chromium, rendered};

const TIMEOUT: Duration = Duration::from_mins(5);

/// The sample board (answer 4) and the secret ones: `bobby` (off by one) fails the sample
/// and the two solvable secrets, and is right on the impossible one.
const SAMPLE: (&str, &str) = (FLIP_SAMPLE, "4\n");
const SECRETS: [(&str, &str, &str); 3] = [
    ("01", "bbbw\nwbww\nwwbw\nwbbb\n", "2\n"),
    ("02", "wwwb\nwbbw\nwbbb\nbbwb\n", "4\n"),
    ("03", "bwbb\nbwwb\nbwww\nbbbw\n", "Impossible\n"),
];

/// The students, by name, and their fixtures under `tests/fixtures/flip/`.
const STUDENTS: [(&str, &str); 3] = [
    ("alice.cpp", "ac_rows.cpp"),
    ("bobby.c", "wa_off_by_one.c"),
    ("section-a/dave.cpp", "ce_syntax.cpp"),
];

/// A class and its case folder, in a scene of its own (TMPDIR and compile cache).
struct Class {
    scene: Scene,
}

impl Class {
    fn new() -> Class {
        let scene = Scene::new(TIMEOUT);
        let class = testkit::class::Class::at(scene.path("class"));
        for (path, from) in STUDENTS {
            class.copy(path, &fixture("flip").join(from));
        }
        let cases = CaseFolder::at(scene.path("cases"));
        cases.case("sample/01", SAMPLE.0, SAMPLE.1);
        for (name, input, answer) in SECRETS {
            cases.case(&format!("secret/{name}"), input, answer);
        }
        Class { scene }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.scene.path(rel)
    }

    fn grader(&self) -> Command {
        self.scene.grader()
    }

    /// `grader batch flip class --cases cases --out OUT` with `extra`: the gradebook.
    fn batch(&self, out: &str, extra: &[&str]) -> Value {
        let output = self
            .grader()
            .args([
                "batch", "flip", "class", "--cases", "cases", "--report", "json",
            ])
            .args(["--out", out])
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(
            output.status.code(),
            Some(1),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        serde_json::from_slice(&output.stdout).unwrap()
    }

    /// The pages of folder `dir`, by file name.
    fn pages(&self, dir: &str) -> BTreeMap<String, String> {
        fs::read_dir(self.path(dir))
            .unwrap()
            .map(|entry| {
                let entry = entry.unwrap();
                let name = entry.file_name().into_string().unwrap();
                (name, fs::read_to_string(entry.path()).unwrap())
            })
            .collect()
    }
}

/// A page's text as a reader sees it: its tags taken out, so that a grid's cells read
/// as one word.
fn text_of(html: &str) -> String {
    let mut text = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    text
}

/// Every spelling of a secret board a page could hold: its text, its cells joined (a
/// grid read without its tags), and each line that is not also a line of the sample, as
/// a whole line.
fn spellings(board: &str) -> Vec<String> {
    let sample_lines: Vec<&str> = SAMPLE.0.lines().collect();
    let mut all = vec![board.to_owned(), board.lines().collect::<String>()];
    for line in board.lines().filter(|l| !sample_lines.contains(l)) {
        all.push(format!(">{line}\n"));
        all.push(format!("\n{line}\n"));
    }
    all
}

/// Whether a page (its source, or its DOM) holds any spelling of `board`.
fn holds_board(page: &str, board: &str) -> bool {
    let text = text_of(page);
    spellings(board)
        .iter()
        .any(|s| page.contains(s.as_str()) || text.contains(s.as_str()))
}

/// The element of case `name` on a feedback page (`id="case-NAME"`): the drawn case, a
/// folded one, or its bare name when the page shows nothing more of it.
fn section<'a>(page: &'a str, name: &str) -> &'a str {
    let id = page
        .find(&format!(" id=\"case-{name}\""))
        .unwrap_or_else(|| panic!("no case {name} in {page}"));
    let start = page[..id].rfind('<').unwrap();
    let tag = page[start + 1..id].split_whitespace().next().unwrap();
    element(page, start, tag)
}

/// The element `<tag ...>` that starts at `start`, to its matching end tag.
fn element<'a>(page: &'a str, start: usize, tag: &str) -> &'a str {
    let (open, close) = (format!("<{tag}"), format!("</{tag}>"));
    let mut depth = 0;
    let mut at = start;
    loop {
        let next_open = page[at + 1..].find(&open).map(|i| i + at + 1);
        let next_close = at + 1 + page[at + 1..].find(&close).expect("a closed element");
        match next_open {
            Some(o) if o < next_close => {
                depth += 1;
                at = o;
            }
            _ if depth == 0 => return &page[start..next_close + close.len()],
            _ => {
                depth -= 1;
                at = next_close;
            }
        }
    }
}

/// The kind of mistake case `name` is listed under on a feedback page: its section,
/// whose heading says the verdict.
fn kind_of<'a>(page: &'a str, name: &str) -> &'a str {
    let id = page.find(&format!(" id=\"case-{name}\"")).unwrap();
    let start = page[..id].rfind("<section class=\"kind\">").unwrap();
    element(page, start, "section")
}

/// The secret cases' reasons in the gradebook (what `--reveal boards` shows).
fn secret_reasons(book: &Value) -> Vec<String> {
    book["students"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["cases"].as_array().unwrap())
        .filter(|c| c["name"].as_str().unwrap().starts_with("secret/"))
        .filter_map(|c| c["explanation"]["reason"].as_str())
        .map(str::to_owned)
        .collect()
}

/// flip by the rules of the statement: a press flips the piece and its neighbours; a
/// board is solved when every piece shows one colour.
fn replay_flip(board: &str, presses: &[(usize, usize)]) -> bool {
    let mut board = cells(board);
    for &(row, col) in presses {
        flip_press(&mut board, row - 1, col - 1);
    }
    one_colour(&board)
}

/// Every witness drawn on `page` (a feedback page or the gradebook): each case's first
/// `<pre>` is its board, its `press (r,c)` captions the presses. Replayed, they solve the
/// board in exactly its answer's number; an impossible board shows no press, and its
/// invariant. Returns how many witnesses were checked.
fn check_witnesses(page: &str) -> usize {
    let answers: BTreeMap<&str, &str> = std::iter::once((SAMPLE.0, SAMPLE.1))
        .chain(SECRETS.iter().map(|(_, input, answer)| (*input, *answer)))
        .collect();
    let mut checked = 0;
    // A case starts at a heading (the gradebook's `h4`, under its reason's `h3`) or at
    // its element (a feedback page).
    let marked = page
        .replace("class=\"case\"", "<h3>")
        .replace("<h4>", "<h3>");
    for block in marked.split("<h3>").skip(1) {
        let Some(at) = block.find("<div class=\"explanation\">") else {
            continue;
        };
        let board_start = block.find("<pre>").unwrap() + "<pre>".len();
        let board = &block[board_start..board_start + block[board_start..].find("</pre>").unwrap()];
        let answer = answers[board].trim();
        let presses: Vec<(usize, usize)> = block[at..]
            .split("<figcaption>press (")
            .skip(1)
            .map(|rest| {
                let (r, rest) = rest.split_once(',').unwrap();
                let (c, _) = rest.split_once(')').unwrap();
                (r.parse().unwrap(), c.parse().unwrap())
            })
            .collect();
        if answer == "Impossible" {
            assert!(presses.is_empty(), "{block}");
            assert!(
                block.contains("every press flips an even number"),
                "{block}"
            );
        } else {
            assert_eq!(presses.len(), answer.parse::<usize>().unwrap(), "{block}");
            assert!(replay_flip(board, &presses), "{board} {presses:?}");
        }
        checked += 1;
    }
    checked
}

/// bobby's wrong secret case `name` (board `input`, answer `answer`; bobby printed one
/// more) on the page of `level`: exactly what the level shows of it.
fn check_secret(bobby: &str, level: &str, name: &str, input: &str, answer: &str) {
    let secret = section(bobby, &format!("secret/{name}"));
    let wrong = answer.trim().parse::<u32>().unwrap() + 1;
    let has_board = secret.contains(&format!("board<pre>{input}</pre>"));
    let has_answer = secret.contains(&format!("expected<pre>{answer}</pre>"));
    let has_output = secret.contains(&format!("your output<pre>{wrong}\n</pre>"));
    let has_message = secret.contains(&format!("expected `{}`", answer.trim()));
    let has_witness = secret.contains("<figcaption>press (");
    let expect = match level {
        "verdicts" => [false; 5],
        "boards" => [true, false, false, false, true],
        _ => [true; 5],
    };
    assert_eq!(
        [has_board, has_answer, has_output, has_message, has_witness],
        expect,
        "{level}: {secret}"
    );
    // The verdict is always there, in the heading of its kind. A kind finer than
    // the verdict reads the output against the answer: only `all` tells it of a
    // secret case (it is then the sample's kind, the sample drawn).
    let kind = kind_of(bobby, &format!("secret/{name}"));
    assert!(kind.contains("<span class=\"v WA\">WA</span>"), "{kind}");
    if level == "all" {
        assert!(
            kind.contains("Your count is more than the minimum"),
            "{kind}"
        );
        assert!(kind.contains("id=\"case-sample/01\""), "{kind}");
    } else {
        assert!(kind.contains("WA</span> Wrong answer <span"), "{kind}");
        assert!(!kind.contains("sample/01"), "{kind}");
    }
}

#[test]
fn feedback_pages_show_each_secret_case_as_the_reveal_level_says_and_render() {
    let class = Class::new();
    let browser = chromium();
    if browser.is_none() {
        eprintln!("the pages are not rendered: no chromium on this machine");
    }
    for level in ["verdicts", "boards", "all"] {
        let dir = format!("fb-{level}");
        let book = class.batch(
            &format!("out-{level}"),
            &["--feedback", &dir, "--reveal", level],
        );
        let pages = class.pages(&dir);
        // One flat page per student, CE included; no index.
        assert_eq!(
            pages.keys().collect::<Vec<_>>(),
            ["alice.html", "bobby.html", "section-a--dave.html"]
        );
        for (name, page) in &pages {
            // (d) No other student is named.
            let me = name.trim_end_matches(".html");
            for (other, _) in STUDENTS {
                let other = Path::new(other).file_stem().unwrap().to_str().unwrap();
                if !me.ends_with(other) {
                    assert!(!page.contains(other), "{name} names {other}");
                }
            }
            assert!(!page.contains("students"), "{name} counts the class");
            let dom =
                browser.map(|b| rendered(b, &class.path("chromium"), &class.path(&dir).join(name)));
            // (b), (c) The secret boards and answers, as the level shows them.
            for source in std::iter::once(page).chain(dom.as_ref()) {
                for (_, input, _) in SECRETS {
                    let shown = holds_board(source, input);
                    if level == "verdicts" || name != "bobby.html" {
                        assert!(!shown, "{level} {name}: a secret board in {source}");
                    }
                }
                for reason in secret_reasons(&book) {
                    let escaped = reason
                        .replace('&', "&amp;")
                        .replace('>', "&gt;")
                        .replace('<', "&lt;");
                    let shown = source.contains(&escaped);
                    assert_eq!(
                        shown,
                        level != "verdicts" && name == "bobby.html",
                        "{level} {name}: {reason}"
                    );
                }
            }
            // (e) Every witness drawn solves its board in the answer's steps.
            check_witnesses(page);
        }
        let bobby = &pages["bobby.html"];
        // The sample is always shown in full: its board, expected and got, and why.
        let sample = section(bobby, "sample/01");
        assert!(
            sample.contains(&format!("<pre>{}</pre>", SAMPLE.0)),
            "{sample}"
        );
        assert!(
            sample.contains(&format!("expected<pre>{}</pre>", SAMPLE.1)),
            "{sample}"
        );
        assert!(sample.contains("your output<pre>5\n</pre>"), "{sample}");
        assert!(
            sample.contains("Why: you printed 5; 4 presses suffice"),
            "{sample}"
        );
        for (name, input, answer) in &SECRETS[..2] {
            check_secret(bobby, level, name, input, answer);
        }
        // The drawn witnesses: the sample always, the two wrong secrets from `boards`.
        let drawn = check_witnesses(bobby);
        assert_eq!(drawn, if level == "verdicts" { 1 } else { 3 }, "{bobby}");
        // The CE student gets the compiler's message.
        assert!(pages["section-a--dave.html"].contains("Did not compile"));
        // The teacher's gradebook draws every witness (the secret ones too).
        let gradebook =
            fs::read_to_string(class.path(&format!("out-{level}/gradebook.html"))).unwrap();
        assert_eq!(check_witnesses(&gradebook), 3);
    }
}

#[test]
fn merge_writes_the_same_pages_from_the_shards() {
    let class = Class::new();
    // A source too large to read (a sparse file, past the 16 MiB every read stops at): not
    // graded, and told why on a page of its own.
    let large = fs::File::create(class.path("class/erin.py")).unwrap();
    large.set_len(17 << 20).unwrap();
    class.batch("out", &["--feedback", "fb", "--reveal", "boards"]);
    let erin = fs::read_to_string(class.path("fb/erin.html")).unwrap();
    assert!(erin.contains("<h2>Not graded</h2>"), "{erin}");
    assert!(erin.contains("too large"), "{erin}");
    let output = class
        .grader()
        .args([
            "merge",
            "out/gradebook.json",
            "--out",
            "merged",
            "--report",
            "json",
        ])
        .args(["--feedback", "fb-merged", "--reveal", "boards"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(class.pages("fb"), class.pages("fb-merged"));
}

#[test]
fn feedback_paths_are_checked_before_any_work() {
    let class = Class::new();
    let refused = |args: &[&str], contains: &'static str| {
        class
            .grader()
            .args(["batch", "flip", "class", "--cases", "cases", "--out", "out"])
            .args(args)
            .assert()
            .code(2)
            .stderr(one_error_line(contains));
    };
    // Not the gradebook's folder, nor an input; --reveal needs --feedback.
    refused(
        &["--feedback", "out"],
        "feedback pages go in a folder of their own",
    );
    refused(
        &["--feedback", "./out/"],
        "feedback pages go in a folder of their own",
    );
    refused(&["--feedback", "class"], "class folder");
    refused(&["--reveal", "all"], "--feedback");
    refused(&["--feedback", "fb", "--reveal", "some"], "some");
    fs::write(class.path("file"), "x").unwrap();
    refused(&["--feedback", "file"], "file");
    // A page of the user's is never replaced; nothing is graded.
    fs::create_dir(class.path("fb")).unwrap();
    fs::write(class.path("fb/bobby.html"), "<p>my notes on bobby</p>\n").unwrap();
    refused(&["--feedback", "fb"], "fb/bobby.html");
    assert!(!class.path("out").exists(), "nothing was graded");
    assert_eq!(
        fs::read_to_string(class.path("fb/bobby.html")).unwrap(),
        "<p>my notes on bobby</p>\n"
    );
    // A page the grader wrote is replaced, atomically, by a run that reveals more.
    fs::remove_file(class.path("fb/bobby.html")).unwrap();
    class.batch("out", &["--feedback", "fb"]);
    let before = fs::read_to_string(class.path("fb/bobby.html")).unwrap();
    class.batch("out", &["--feedback", "fb", "--reveal", "all"]);
    let after = fs::read_to_string(class.path("fb/bobby.html")).unwrap();
    assert_ne!(before, after);
    assert!(
        after.contains("secret cases are shown in full too"),
        "{after}"
    );
    let leftovers: Vec<_> = class
        .pages("fb")
        .into_keys()
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// What a student sees first: a phone's screen (390 x 664, what a phone's browser leaves
/// of 390 x 844) and a laptop's (1366 x 657, of 1366 x 768).
const SCREENS: [(u32, u32); 2] = [(390, 664), (1366, 657)];

/// Where `page` puts its first failing case's explanation on a screen of `width` x
/// `height`, as headless `browser` lays it out: the page is measured in an iframe of that
/// size (headless Chromium's window has a smallest width of its own). Returns the
/// explanation's top, the bottom of its first line (the reason), and the page's width.
fn first_explanation(browser: &str, profile: &Path, page: &str, width: u32, height: u32) -> Value {
    let attribute = page
        .replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    let probe = format!(
        "<!DOCTYPE html><html><body style=\"margin:0\">\
         <iframe id=\"page\" style=\"border:0;width:{width}px;height:{height}px\" srcdoc=\"{attribute}\"></iframe>\
         <script>\
         const frame = document.getElementById('page');\
         frame.addEventListener('load', () => {{\
           const doc = frame.contentDocument, view = frame.contentWindow;\
           const why = doc.querySelector('.kind .explanation');\
           const out = document.createElement('pre');\
           out.id = 'probe';\
           out.textContent = JSON.stringify({{\
             width: view.innerWidth, height: view.innerHeight,\
             top: why && why.getBoundingClientRect().top,\
             reason: why && why.querySelector('.reason').getBoundingClientRect().bottom,\
             scroll_width: doc.documentElement.scrollWidth,\
           }});\
           document.body.append(out);\
         }});\
         </script></body></html>"
    );
    let file = profile.with_extension("html");
    fs::write(&file, probe).unwrap();
    let output = std::process::Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", file.display()))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let dom = String::from_utf8(output.stdout).unwrap();
    let start = dom
        .find("<pre id=\"probe\">")
        .unwrap_or_else(|| panic!("no measure in {dom}"))
        + "<pre id=\"probe\">".len();
    let end = start + dom[start..].find("</pre>").unwrap();
    serde_json::from_str(&dom[start..end].replace("&amp;", "&")).unwrap()
}

#[test]
fn a_failing_students_first_explanation_is_on_the_first_screen_of_a_phone_and_a_laptop() {
    let Some(browser) = chromium() else {
        eprintln!("skipped: no chromium on this machine");
        return;
    };
    // The project's flip cases (69, in eight groups): bobby, one press too many, fails
    // the 47 solvable boards and passes the 22 that cannot be solved. The page at the
    // default level, and at `all`, where every failing case is one kind; the groups
    // worth points, so that the groups' table has every column: passed, points, the
    // margin, and under each group what it tests.
    let class = Class::new();
    let cases = repo().join("cases/flip");
    for level in ["verdicts", "all"] {
        let dir = format!("fb-{level}");
        let output = class
            .grader()
            .args(["batch", "flip", "class", "--cases"])
            .arg(&cases)
            .args(["--out", &format!("out-{level}"), "--feedback", &dir])
            .args(["--reveal", level])
            .args([
                "--points",
                "secret/answers=60",
                "--points",
                "secret/impossible=40",
            ])
            .output()
            .unwrap();
        assert_eq!(
            output.status.code(),
            Some(1),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let page = fs::read_to_string(class.path(&dir).join("bobby.html")).unwrap();
        assert!(page.contains("(22 of 69 cases passed)"), "{page}");
        assert!(
            page.contains(
                "<td>secret/impossible</td><td class=\"num AC\">10/10</td>\
                 <td class=\"num\">40 of 40</td><td class=\"margin\">"
            ),
            "{page}"
        );
        assert_eq!(page.matches("<tr class=\"about\">").count(), 7, "{page}");
        // The passing cases come last, folded.
        let passing = page.find("<h2>Passing cases</h2>").unwrap();
        assert!(page[passing..].contains("<details class=\"names\"><summary>22 cases passed"));
        for (width, height) in SCREENS {
            let profile = class.path(&format!("chromium-{level}-{width}"));
            let seen = first_explanation(browser, &profile, &page, width, height);
            assert_eq!(
                (seen["width"].as_u64(), seen["height"].as_u64()),
                (Some(width.into()), Some(height.into())),
                "{seen}"
            );
            let top = seen["top"].as_f64().unwrap_or_else(|| panic!("{seen}"));
            let reason = seen["reason"].as_f64().unwrap();
            assert!(
                top > 0.0 && reason <= f64::from(height),
                "{level} at {width}x{height}: the first explanation from {top} to {reason}"
            );
            // Nothing wider than the screen: no scrolling sideways on a phone.
            assert!(
                seen["scroll_width"].as_u64() <= Some(width.into()),
                "{level} at {width}: {seen}"
            );
        }
    }
}

#[test]
fn a_student_stopped_at_the_first_failure_sees_the_cases_not_run_folded() {
    let class = Class::new();
    class.batch("out", &["--feedback", "fb", "--fail-fast-per-submission"]);
    let bobby = fs::read_to_string(class.path("fb/bobby.html")).unwrap();
    // The sample failed and is drawn; the secret cases not started when it failed (runs
    // go in parallel) were never run, and are listed, folded, before any that passed.
    assert!(
        bobby.contains("<article class=\"case\" id=\"case-sample/01\">"),
        "{bobby}"
    );
    let not_run = &bobby[bobby.find("<h2>Not run</h2>").unwrap()..];
    let summary = not_run
        .strip_prefix("<h2>Not run</h2>\n<details class=\"names\"><summary>")
        .unwrap_or_else(|| panic!("{not_run}"));
    let (n, rest) = summary.split_once(' ').unwrap();
    let n: usize = n.parse().unwrap();
    assert!((1..=3).contains(&n), "{not_run}");
    assert!(rest.starts_with("case"), "{not_run}");
    assert_eq!(
        not_run[..not_run.find("</details>").unwrap()]
            .matches("<code>")
            .count(),
        n,
        "{not_run}"
    );
}
