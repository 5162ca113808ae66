//! End-to-end tests of `grader batch` and `grader merge`: a class folder in the usual
//! layouts into gradebooks, resuming after SIGKILL without losing or repeating a run,
//! re-running only what a changed case folder needs, shards that merge into the same
//! gradebook as one run, and bad input that spares every other student.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

use testkit::cases::CaseFolder;
use testkit::gradebook::{Csv, JOURNAL_HEADER, journal_keys, student, verdicts};
use testkit::grader::one_error_line;
use testkit::output::json_of;
use testkit::paths::{fixture, repo, two_cases};
use testkit::processes::{children_of, wait_until};
use testkit::scene::Scene;
use testkit::scripts::{language_table, script};
use testkit::tools::{chromium, rendered};

const TIMEOUT: Duration = Duration::from_mins(5);

/// A class folder (`class`) in a scene of its own: its TMPDIR (a grader killed mid-batch
/// cannot remove its folders, and they must go with the test) and its compile cache.
struct Class {
    scene: Scene,
}

impl Class {
    /// `files`: (path in the class folder, fixture under `tests/fixtures/flip/`).
    fn new(files: &[(&str, &str)]) -> Class {
        let scene = Scene::new(TIMEOUT);
        let class = testkit::class::Class::at(scene.path("class"));
        for (path, from) in files {
            class.copy(path, &fixture("flip").join(from));
        }
        Class { scene }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.scene.path(rel)
    }

    fn command(&self) -> Command {
        self.scene.grader()
    }

    /// `grader batch flip class` on the two-case folder; the gradebook and the status.
    fn batch(&self, out: &str, extra: &[&str]) -> (Value, i32) {
        let output = self
            .command()
            .args([
                "batch", "flip", "class", "--out", out, "--report", "json", "--cases",
            ])
            .arg(two_cases())
            .args(extra)
            .output()
            .unwrap();
        (json_of(&output), output.status.code().unwrap())
    }
}

#[test]
fn a_class_in_mixed_layouts_becomes_a_gradebook() {
    let class = Class::new(&[
        ("alice.cpp", "ac_rows.cpp"),
        ("bob.c", "wa_off_by_one.c"),
        ("carol/main.py", "ac_rows.py"),
        ("carol/notes.py", "re_exit_3.py"),
        ("section-b/dave.cpp", "ce_syntax.cpp"),
        ("section-b/erin/solution.c", "re_segv.c"),
    ]);
    fs::write(class.path("class/README.md"), "hello").unwrap();
    let (book, status) = class.batch("out", &[]);
    assert_eq!(status, 1);
    assert_eq!(
        verdicts(&book),
        [
            ("alice".to_owned(), "AC".to_owned(), 2),
            ("bob".to_owned(), "WA".to_owned(), 1),
            ("carol".to_owned(), "AC".to_owned(), 2),
            ("section-b/dave".to_owned(), "CE".to_owned(), 0),
            ("section-b/erin".to_owned(), "RE".to_owned(), 0),
        ]
    );
    let bob = student(&book, "bob");
    assert_eq!(bob["submission"], "bob.c");
    assert_eq!(bob["score"], 50.0);
    assert_eq!(bob["cases"][0]["message"], "expected `4`, got `5`");
    assert_eq!(bob["groups"]["secret"]["passed"], 1);
    assert!(
        student(&book, "section-b/dave")["compile_error"]
            .as_str()
            .unwrap()
            .contains("dave.cpp:4")
    );
    assert_eq!(book["skipped"][0]["path"], "README.md");
    // The files: a CSV row per student, a JUnit suite per student.
    let csv = fs::read_to_string(class.path("out/gradebook.csv")).unwrap();
    assert_eq!(csv.lines().count(), 6, "{csv}");
    assert!(
        csv.lines()
            .next()
            .unwrap()
            .starts_with("student,submission,language,score,verdict,passed,total,compiled")
    );
    assert!(csv.contains("bob,bob.c,c,50.0,WA,1,2,yes"), "{csv}");
    let xml = fs::read_to_string(class.path("out/gradebook.xml")).unwrap();
    assert_eq!(xml.matches("<testsuite ").count(), 5, "{xml}");
    let json: Value =
        serde_json::from_str(&fs::read_to_string(class.path("out/gradebook.json")).unwrap())
            .unwrap();
    assert_eq!(json, book);
    // The human summary names the skipped file and the histogram.
    class
        .command()
        .args(["batch", "flip", "class", "--out", "out", "--cases"])
        .arg(two_cases())
        .assert()
        .code(1)
        .stdout(
            predicate::str::contains("README.md: not a source file")
                .and(predicate::str::contains("CE 1  RE 1  WA 1  AC 2")),
        );
}

#[test]
fn a_rerun_with_nothing_changed_runs_nothing_and_a_changed_case_reruns_alone() {
    let class = Class::new(&[("alice.c", "wa_off_by_one.c"), ("bob.cpp", "ac_rows.cpp")]);
    let cases = class.path("cases");
    CaseFolder::at(&cases)
        .copied("sample/01", &two_cases(), "sample/01")
        .copied("secret/impossible", &two_cases(), "secret/impossible");
    let run = || {
        class
            .command()
            .args([
                "batch", "flip", "class", "--out", "out", "--report", "json", "--cases", "cases",
            ])
            .output()
            .unwrap()
    };
    run();
    let journal = class.path("out/journal.jsonl");
    assert_eq!(journal_keys(&journal).len(), 4);
    let start = Instant::now();
    let again = run();
    assert!(start.elapsed() < Duration::from_secs(20));
    assert_eq!(journal_keys(&journal).len(), 4, "nothing ran again");
    // A case changes (the sample becomes an impossible board: alice, one too many on
    // every solvable board, is right on it). Cases are checked, so it stays a sound case.
    fs::write(cases.join("sample/01.in"), "wwww\nwwwb\nbwww\nbwbw\n").unwrap();
    fs::write(cases.join("sample/01.ans"), "Impossible\n").unwrap();
    let changed = run();
    assert_eq!(
        journal_keys(&journal).len(),
        6,
        "only the changed case ran again"
    );
    let before: Value = serde_json::from_slice(&again.stdout).unwrap();
    let after: Value = serde_json::from_slice(&changed.stdout).unwrap();
    assert_eq!(student(&before, "alice")["passed"], 1);
    assert_eq!(student(&after, "alice")["passed"], 2);
    assert_eq!(student(&after, "bob")["passed"], 2);
}

#[test]
fn an_older_graders_journal_is_made_again_with_a_note_and_a_newer_ones_is_refused_untouched() {
    let class = Class::new(&[("alice.c", "wa_off_by_one.c"), ("bob.cpp", "ac_rows.cpp")]);
    let (first, code) = class.batch("out", &[]);
    assert_eq!(code, 1);
    let journal = class.path("out/journal.jsonl");
    assert_eq!(journal_keys(&journal).len(), 4);
    // As an older grader left it: its runs, without the version line (version 1).
    let text = fs::read_to_string(&journal).unwrap();
    let (_, runs) = text.split_once('\n').unwrap();
    fs::write(&journal, runs).unwrap();
    let again = class
        .command()
        .args([
            "batch", "flip", "class", "--out", "out", "--report", "json", "--cases",
        ])
        .arg(two_cases())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert!(
        stderr.contains(
            "grader: note: journal.jsonl was written by an older grader, whose keys this one \
             cannot match: its 4 runs are made again, and the journal starts anew"
        ),
        "{stderr}"
    );
    let book: Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(verdicts(&book), verdicts(&first));
    assert_eq!(
        journal_keys(&journal).len(),
        4,
        "started anew: each run once"
    );
    // A newer grader's journal is not this grader's to rewrite: exit 2, left as it was.
    let newer = "{\"journal_version\":3}\n{\"runs\":\"of a newer kind\"}\n";
    fs::write(&journal, newer).unwrap();
    let book_before = fs::read(class.path("out/gradebook.json")).unwrap();
    class
        .command()
        .args(["batch", "flip", "class", "--out", "out", "--cases"])
        .arg(two_cases())
        .assert()
        .code(2)
        .stdout("")
        .stderr(one_error_line(
            "journal.jsonl: written by a newer grader (journal version 3; this grader reads \
             version 2): run that grader, or give another --out",
        ));
    assert_eq!(fs::read_to_string(&journal).unwrap(), newer);
    assert_eq!(
        fs::read(class.path("out/gradebook.json")).unwrap(),
        book_before
    );
}

/// The files of a batch's folder `out` and of its feedback folder `feedback`, by name:
/// the journal's aside.
fn written(out: &Path, feedback: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    for dir in [out, feedback] {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if name != "journal.jsonl" {
                files.push((name, fs::read(&path).unwrap()));
            }
        }
    }
    files.sort();
    files
}

/// What a gradebook's JSON says without the figures of its runs (times and memory, which
/// two runs of a program never share).
fn without_figures(mut book: Value) -> Value {
    for s in book["students"].as_array_mut().unwrap() {
        for c in s["cases"].as_array_mut().unwrap() {
            let c = c.as_object_mut().unwrap();
            for figure in ["cpu_ms", "wall_ms", "memory_kib", "stalls"] {
                c.remove(figure);
            }
        }
    }
    book
}

/// A JUnit report without its times.
fn without_times(xml: &[u8]) -> String {
    let text = String::from_utf8(xml.to_vec()).unwrap();
    let mut kept = String::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find(" time=\"") {
        kept.push_str(&rest[..at]);
        let after = &rest[at + 7..];
        rest = &after[after.find('"').unwrap() + 1..];
    }
    kept.push_str(rest);
    kept
}

/// The gradebook files of two batches of the same class, the same but for the figures of
/// their runs.
fn assert_same_but_for_figures(a: &Path, b: &Path) {
    for file in ["gradebook.csv", "gradebook.html"] {
        assert!(
            fs::read(a.join(file)).unwrap() == fs::read(b.join(file)).unwrap(),
            "{file} differs"
        );
    }
    let json = |dir: &Path| {
        without_figures(
            serde_json::from_slice(&fs::read(dir.join("gradebook.json")).unwrap()).unwrap(),
        )
    };
    assert_eq!(json(a), json(b));
    let xml = |dir: &Path| without_times(&fs::read(dir.join("gradebook.xml")).unwrap());
    assert_eq!(xml(a), xml(b));
}

#[test]
fn a_batch_after_cases_went_compacts_its_journal_to_the_live_lines_and_matches_a_fresh_batch() {
    let class = Class::new(&[
        ("alice.c", "wa_off_by_one.c"),
        ("bob.py", "pe_leading_space.py"),
        ("carol.cpp", "ac_rows.cpp"),
    ]);
    let shipped = repo().join("cases/flip/data/secret/answers");
    let cases = class.path("cases/answers");
    fs::create_dir_all(&cases).unwrap();
    for n in 1..=6 {
        for ext in ["in", "ans"] {
            let name = format!("{n:02}.{ext}");
            fs::copy(shipped.join(&name), cases.join(&name)).unwrap();
        }
    }
    let run = |out: &str| {
        let output = class
            .command()
            .args(["batch", "flip", "class", "--cases", "cases", "--out", out])
            .args(["--feedback", &format!("{out}-feedback")])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1), "{output:?}");
    };
    let (out, feedback) = (class.path("out"), class.path("out-feedback"));
    let journal = class.path("out/journal.jsonl");
    run("out");
    assert_eq!(journal_keys(&journal).len(), 18);
    // Nothing changed: nothing runs, nothing is compacted, every file is the same.
    let (files, lines) = (written(&out, &feedback), fs::read(&journal).unwrap());
    run("out");
    assert_eq!(fs::read(&journal).unwrap(), lines);
    assert!(
        written(&out, &feedback) == files,
        "a rerun wrote other files"
    );
    // Four cases go and one changes (01 becomes 07): 3 runs are made, 15 of the 21 lines
    // are dead, and the journal keeps the 6 live ones.
    for n in 3..=6 {
        fs::remove_file(cases.join(format!("{n:02}.in"))).unwrap();
        fs::remove_file(cases.join(format!("{n:02}.ans"))).unwrap();
    }
    for ext in ["in", "ans"] {
        fs::copy(
            shipped.join(format!("07.{ext}")),
            cases.join(format!("01.{ext}")),
        )
        .unwrap();
    }
    run("out");
    let keys = journal_keys(&journal);
    assert_eq!(keys.len(), 6, "only the live lines are kept");
    let leftovers: Vec<_> = fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n.to_string_lossy().starts_with(".grader-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    // A fresh batch of the class as it is now: the same runs, the same gradebook.
    run("fresh");
    let fresh: HashSet<String> = journal_keys(&class.path("fresh/journal.jsonl"))
        .into_iter()
        .collect();
    assert_eq!(keys.into_iter().collect::<HashSet<_>>(), fresh);
    assert_same_but_for_figures(&out, &class.path("fresh"));
    // And read back from the compacted journal, the gradebook is the one just written.
    let files = written(&out, &feedback);
    run("out");
    assert!(
        written(&out, &feedback) == files,
        "the compacted journal read back otherwise"
    );
}

#[test]
fn a_batch_killed_with_sigkill_resumes_without_losing_or_repeating_a_run() {
    // Python solutions on the 69 shipped cases, one worker: long enough to kill midway.
    let class = Class::new(&[
        ("alice.py", "ac_rows.py"),
        ("bob.py", "pe_leading_space.py"),
        ("carol.py", "ac_rows.py"),
    ]);
    let cases = repo().join("cases/flip");
    let journal = class.path("out/journal.jsonl");
    let mut child = batch_in_background(&class, &cases, &journal, 20);
    // The batch's launchers, to check that none outlives it.
    let launchers = children_of(child.id());
    assert!(!launchers.is_empty());
    child.kill().unwrap();
    child.wait().unwrap();
    let done = journal_keys(&journal).len();
    assert!(
        done < 207,
        "killed too late to show anything ({done} runs done)"
    );
    let output = class
        .command()
        .args([
            "batch", "flip", "class", "--out", "out", "--report", "json", "--cases",
        ])
        .arg(&cases)
        .output()
        .unwrap();
    let book: Value = serde_json::from_slice(&output.stdout).unwrap();
    let keys = journal_keys(&journal);
    let unique: HashSet<&String> = keys.iter().collect();
    assert_eq!(unique.len(), 207, "every run once");
    assert_eq!(keys.len(), 207, "no run twice");
    assert_eq!(
        verdicts(&book),
        [
            ("alice".to_owned(), "AC".to_owned(), 69),
            ("bob".to_owned(), "PE".to_owned(), 0),
            ("carol".to_owned(), "AC".to_owned(), 69),
        ]
    );
    // The resumed batch's gradebook is the one a batch in one go writes.
    let once = class
        .command()
        .args(["batch", "flip", "class", "--out", "once", "--cases"])
        .arg(&cases)
        .output()
        .unwrap();
    assert_eq!(once.status.code(), Some(1), "{once:?}");
    assert_same_but_for_figures(&class.path("out"), &class.path("once"));
    // No process of the killed batch is left: its launchers died with it.
    for pid in launchers {
        let alive = fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
            !stat
                .rsplit_once(')')
                .unwrap()
                .1
                .trim_start()
                .starts_with('Z')
        });
        assert!(!alive, "launcher {pid} outlived the batch");
    }
}

#[test]
fn a_second_batch_into_the_same_out_is_refused_while_the_first_runs() {
    let class = Class::new(&[("alice.py", "ac_rows.py"), ("bob.py", "ac_rows.py")]);
    let cases = repo().join("cases/flip");
    let journal = class.path("out/journal.jsonl");
    // A line in the journal: the first batch holds the folder and has not finished.
    let mut first = batch_in_background(&class, &cases, &journal, 1);
    let second = class
        .command()
        .args(["batch", "flip", "class", "--out", "out", "--cases"])
        .arg(&cases)
        .output()
        .unwrap();
    let finished = first.try_wait().unwrap().is_some();
    first.wait().unwrap();
    if finished {
        // The first ended before the second asked: nothing was shown either way.
        return;
    }
    assert_eq!(second.status.code(), Some(2), "{second:?}");
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert!(
        stderr.starts_with("grader: error: out: another grader batch is writing into this folder")
            && stderr.lines().count() == 1,
        "{stderr}"
    );
    // Every run once: the refused batch made none.
    let keys = journal_keys(&journal);
    let unique: HashSet<&String> = keys.iter().collect();
    assert_eq!((keys.len(), unique.len()), (138, 138));
    // Once the first is done, the folder is free again.
    class
        .command()
        .args(["batch", "flip", "class", "--out", "out", "--cases"])
        .arg(&cases)
        .assert()
        .code(0);
}

/// `grader batch flip class --out out --jobs 1 --cases CASES` in `class`, started in the
/// background and returned once its journal holds `lines` lines.
fn batch_in_background(
    class: &Class,
    cases: &Path,
    journal: &Path,
    lines: usize,
) -> std::process::Child {
    let child = class
        .scene
        .process()
        .args([
            "batch", "flip", "class", "--out", "out", "--jobs", "1", "--cases",
        ])
        .arg(cases)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    wait_until("the batch made progress", Duration::from_mins(2), || {
        fs::read_to_string(journal).map_or(0, |t| t.lines().count()) >= lines
    });
    child
}

#[test]
fn shards_merge_into_the_gradebook_of_one_run() {
    let files: Vec<(String, &str)> = (0..8)
        .map(|i| {
            let from = if i % 3 == 0 {
                "wa_off_by_one.c"
            } else {
                "ac_rows.cpp"
            };
            let ext = if i % 3 == 0 { "c" } else { "cpp" };
            (format!("student{i}.{ext}"), from)
        })
        .collect();
    let refs: Vec<(&str, &str)> = files.iter().map(|(a, b)| (a.as_str(), *b)).collect();
    let class = Class::new(&refs);
    let (whole, _) = class.batch("whole", &[]);
    let (one, _) = class.batch("shard1", &["--shard", "1/2"]);
    let (two, _) = class.batch("shard2", &["--shard", "2/2"]);
    assert_eq!(
        verdicts(&one).len() + verdicts(&two).len(),
        8,
        "each student in exactly one shard"
    );
    let output = class
        .command()
        .args([
            "merge",
            "shard1/gradebook.json",
            "shard2/gradebook.json",
            "--out",
            "merged",
            "--report",
            "json",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let merged: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(verdicts(&merged), verdicts(&whole));
    assert_eq!(merged["skipped"], whole["skipped"]);
    // A gradebook of other limits does not merge.
    let mut other = one.clone();
    other["limits"]["cpu_ms"] = serde_json::json!(2500.0);
    fs::write(class.path("other.json"), other.to_string()).unwrap();
    class
        .command()
        .args(["merge", "shard2/gradebook.json", "other.json"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("other cases or limits"));
}

#[test]
fn a_shard_of_a_large_class_merges_whatever_its_size() {
    // A shard of 1,500 students of 150 cases is some 40 MB: past the cap on reading a
    // board or a source, which once cut it and called it broken.
    let class = Class::new(&[("ac.cpp", "ac_rows.cpp"), ("wa.c", "wa_off_by_one.c")]);
    let (book, _) = class.batch("small", &[]);
    let mut big = book.clone();
    let students = book["students"].as_array().unwrap().clone();
    let one = serde_json::to_string(&students[0]).unwrap().len();
    let copies = (17 << 20) / one / students.len() + 1;
    let mut all = Vec::new();
    for i in 0..copies {
        for s in &students {
            let mut s = s.clone();
            s["student"] = serde_json::json!(format!("{}-{i:05}", s["student"].as_str().unwrap()));
            all.push(s);
        }
    }
    big["students"] = Value::Array(all);
    let text = big.to_string();
    assert!(text.len() > 16 << 20);
    fs::write(class.path("big.json"), text).unwrap();
    let output = class
        .command()
        .args(["merge", "big.json", "--out", "merged", "--report", "csv"])
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let rows = String::from_utf8_lossy(&output.stdout).lines().count();
    assert_eq!(
        rows,
        copies * students.len() + 1,
        "a row per student and a header"
    );
}

#[test]
fn merge_judges_a_shards_tle_at_the_wall_limit_again_by_the_runs_it_keeps() {
    let class = Class::new(&[("sleeper.py", "tle_sleep.py"), ("honest.py", "ac_rows.py")]);
    let limits = ["--time-limit", "0.5", "--wall-limit", "1"];
    // A sleeper is `TLE` once a run with no thread runnable at its kill (settled), or two
    // runs in a row, show it slept; a machine that holds a run back leaves it ungraded,
    // and a rerun (the journal resumes) grades it.
    let mut book = Value::Null;
    for _ in 0..5 {
        book = class.batch("shard", &limits).0;
        if student(&book, "sleeper")["verdict"] != "--" {
            break;
        }
    }
    let sleeper = student(&book, "sleeper");
    assert_eq!(sleeper["verdict"], "TLE", "{book:#}");
    for case in sleeper["cases"].as_array().unwrap() {
        assert_eq!(case["verdict"], "TLE", "{case}");
        assert!(
            case["message"].as_str().unwrap().contains("slept"),
            "{case}"
        );
        let runs = case["stalls"].as_array().unwrap();
        let settled = |run: &Value| run["runnable"] == 0;
        assert!(
            runs.len() >= 2 || runs.iter().all(settled),
            "one settled run, or two: {case}"
        );
        assert!(runs[0]["wall_ms"].as_f64().unwrap() > 900.0, "{case}");
    }
    assert!(student(&book, "honest")["cases"][0].get("stalls").is_none());
    let merge = |shard: &str| {
        let output = class
            .command()
            .args(["merge", shard, "--out", "merged", "--report", "json"])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1));
        let merged: Value = serde_json::from_slice(&output.stdout).unwrap();
        (merged, String::from_utf8_lossy(&output.stderr).into_owned())
    };
    // Merged as a batch of this grader wrote it: the same marks.
    let (merged, warnings) = merge("shard/gradebook.json");
    assert_eq!(verdicts(&merged), verdicts(&book));
    assert!(warnings.is_empty(), "{warnings}");
    // The shard as an older grader wrote it, without the runs: the `TLE` shows nothing of
    // the program's own, and the student is not graded.
    let mut old = book.clone();
    for student in old["students"].as_array_mut().unwrap() {
        for case in student["cases"].as_array_mut().unwrap() {
            case.as_object_mut().unwrap().remove("stalls");
        }
    }
    fs::write(class.path("old.json"), old.to_string()).unwrap();
    let (merged, warnings) = merge("old.json");
    assert_eq!(
        verdicts(&merged),
        [
            ("honest".to_owned(), "AC".to_owned(), 2),
            ("sleeper".to_owned(), "--".to_owned(), 0),
        ]
    );
    let why = student(&merged, "sleeper")["error"].as_str().unwrap();
    assert!(why.contains("TLE at the wall limit on sample/01"), "{why}");
    assert!(
        warnings.contains("`sleeper` is not graded: a TLE at the wall limit"),
        "{warnings}"
    );
}

#[test]
fn bad_calls_are_refused_and_bad_submissions_spare_the_others() {
    let class = Class::new(&[("alice.c", "wa_off_by_one.c")]);
    // A 50 MB source and one that is not UTF-8: each is that student's problem only.
    fs::write(class.path("class/huge.c"), vec![b' '; 50 << 20]).unwrap();
    fs::write(class.path("class/latin1.py"), b"# caf\xe9\nprint(4)\n").unwrap();
    let (book, status) = class.batch("out", &[]);
    assert_eq!(status, 1);
    assert_eq!(student(&book, "alice")["verdict"], "WA");
    assert!(
        student(&book, "huge")["error"]
            .as_str()
            .unwrap()
            .contains("too large")
    );
    assert_eq!(student(&book, "huge")["verdict"], "--");
    assert_eq!(student(&book, "latin1")["verdict"], "RE");
    let refused = |args: &[&str], says: &str| {
        class
            .command()
            .args(args)
            .assert()
            .code(2)
            .stderr(one_error_line(says));
    };
    fs::create_dir_all(class.path("empty")).unwrap();
    refused(&["batch", "flip", "empty"], "no submissions");
    refused(&["batch", "flip", "missing"], "missing");
    refused(&["batch", "flip", "class", "--shard", "3/2"], "3/2");
    refused(&["merge", "nothing.json"], "nothing.json");
}

#[test]
fn the_html_gradebook_loads_in_a_real_browser_without_console_errors() {
    let Some(chromium) = chromium() else {
        eprintln!("skipped: no chromium on this machine");
        return;
    };
    let class = Class::new(&[
        ("alice.cpp", "ac_rows.cpp"),
        ("bob.c", "wa_off_by_one.c"),
        ("carol<script>.py", "re_exit_3.py"),
        ("dave.cpp", "ce_syntax.cpp"),
    ]);
    let (book, _) = class.batch("out", &[]);
    let page = class.path("out/gradebook.html");
    let html = fs::read_to_string(&page).unwrap();
    assert!(html.contains("carol&lt;script&gt;"), "names are escaped");
    // No console message on the way (`rendered` asserts it).
    let dom = rendered(chromium, &class.path("chromium"), &page);
    let rows = book["students"].as_array().unwrap().len();
    assert_eq!(rows, 4);
    assert_eq!(dom.matches("<tr class=\"student\">").count(), rows, "{dom}");
    assert!(
        dom.contains("expected `4`, got `5`"),
        "bob's failing case is shown"
    );
}

#[test]
fn a_run_the_grader_cannot_make_is_that_students_fault_line_not_the_end_of_the_batch() {
    // A language whose run command is its source, which is never executable: every run
    // of that student fails to start (a fault of the setup, not a verdict), in every tier.
    let class = Class::new(&[("bob.py", "ac_rows.py")]);
    fs::write(class.path("class/alice.sh"), "#!/bin/sh\necho 4\n").unwrap();
    let config = class.path("languages.toml");
    fs::write(
        &config,
        "[shell]\nextensions = [\"sh\"]\nrun = [\"{src}\"]\n",
    )
    .unwrap();
    for tier in ["strict", "basic"] {
        let out = format!("out-{tier}");
        let (book, status) = class.batch(
            &out,
            &["--sandbox", tier, "--config", config.to_str().unwrap()],
        );
        assert_eq!(status, 1, "{tier}: {book:#}");
        let alice = student(&book, "alice");
        assert_eq!(alice["verdict"], "--", "{tier}: {alice:#}");
        let error = alice["error"].as_str().unwrap_or_default();
        assert!(
            error.contains("the grader could not run case"),
            "{tier}: {alice:#}"
        );
        assert_eq!(student(&book, "bob")["verdict"], "AC", "{tier}: {book:#}");
    }
}

#[test]
fn links_out_of_the_class_or_to_folders_are_listed_never_followed() {
    let class = Class::new(&[("alice.c", "wa_off_by_one.c")]);
    let secret = class.path("secret.c");
    fs::write(&secret, "int main(void) { return 0; } SECRET-TEXT-1234\n").unwrap();
    let dir = class.path("class");
    std::os::unix::fs::symlink("..", dir.join("up")).unwrap();
    std::os::unix::fs::symlink(".", dir.join("loop")).unwrap();
    std::os::unix::fs::symlink(&secret, dir.join("x.c")).unwrap();
    std::os::unix::fs::symlink("alice.c", dir.join("bob.c")).unwrap();
    let (book, status) = class.batch("out", &[]);
    assert_eq!(status, 1);
    assert_eq!(
        verdicts(&book),
        [
            ("alice".to_owned(), "WA".to_owned(), 1),
            ("bob".to_owned(), "WA".to_owned(), 1),
        ]
    );
    let why = |path: &str| {
        book["skipped"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["path"] == path)
            .unwrap_or_else(|| panic!("{path} not listed: {book:#}"))["why"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    assert!(why("up").contains("a link out of the class folder"));
    assert!(why("loop").contains("a link to a folder"));
    assert!(why("x.c").contains("a link out of the class folder"));
    for name in [
        "gradebook.json",
        "gradebook.csv",
        "gradebook.xml",
        "gradebook.html",
    ] {
        let text = fs::read_to_string(class.path("out").join(name)).unwrap();
        assert!(
            !text.contains("SECRET-TEXT"),
            "{name} holds the linked file"
        );
    }
}

#[test]
fn a_student_found_but_not_gradable_has_a_row_in_every_gradebook_form() {
    // A folder with two entry files, and two submissions for one name.
    let class = Class::new(&[
        ("bob.c", "wa_off_by_one.c"),
        ("hal.c", "wa_off_by_one.c"),
        ("hal.py", "ac_rows.py"),
        ("sam/main.cpp", "ac_rows.cpp"),
        ("sam/main.py", "ac_rows.py"),
    ]);
    let (book, status) = class.batch("out", &[]);
    assert_eq!(status, 1);
    let why = [
        ("hal", "two submissions for `hal`: hal.c, hal.py"),
        (
            "sam",
            "several entry files: main.cpp, main.py (choose one with --entry)",
        ),
    ];
    for (name, said) in why {
        let row = student(&book, name);
        assert_eq!(row["verdict"], "--", "{book:#}");
        assert_eq!(row["error"], said, "{book:#}");
    }
    assert_eq!(book["skipped"], serde_json::json!([]), "{book:#}");
    // Every form has the three students: CSV and --report csv, JUnit, HTML.
    let csv = fs::read_to_string(class.path("out/gradebook.csv")).unwrap();
    let printed = class
        .command()
        .args([
            "batch", "flip", "class", "--out", "out", "--report", "csv", "--cases",
        ])
        .arg(two_cases())
        .output()
        .unwrap();
    let printed = String::from_utf8(printed.stdout).unwrap();
    let xml = fs::read_to_string(class.path("out/gradebook.xml")).unwrap();
    let html = fs::read_to_string(class.path("out/gradebook.html")).unwrap();
    for name in ["bob", "hal", "sam"] {
        for (form, text) in [("gradebook.csv", &csv), ("--report csv", &printed)] {
            assert!(
                Csv::parse(text).students().contains(&name),
                "{form}: {text}"
            );
        }
        assert!(xml.contains(&format!("name=\"{name}\"")), "{xml}");
    }
    assert!(html.contains("3 students"), "the page counts every student");
    // The scores of those graded, and each student's first failure in the table.
    assert!(
        html.contains("Mean 50.0%, median 50.0% over 1 graded student; 2 not graded."),
        "{html}"
    );
    let bob_first = student(&book, "bob")["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["verdict"] != "AC")
        .unwrap()["name"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        html.contains(&format!("<td class=\"first\">WA {bob_first}</td>")),
        "{html}"
    );
    assert!(
        html.contains("several entry files: main.cpp, main.py (choose one with --entry)</td>"),
        "a student not graded says why in the table: {html}"
    );
}

#[test]
fn no_layout_drops_a_student_folder_and_an_entry_that_matches_nothing_warns() {
    let class = Class::new(&[
        ("section-b/dave.c", "wa_off_by_one.c"),
        ("section-b/erin/main.cpp", "ac_rows.cpp"),
        ("gina/a.c", "wa_off_by_one.c"),
        ("gina/b.cpp", "ac_rows.cpp"),
    ]);
    let expected = [
        ("gina/a".to_owned(), "WA".to_owned(), 1),
        ("gina/b".to_owned(), "AC".to_owned(), 2),
        ("section-b/dave".to_owned(), "WA".to_owned(), 1),
        ("section-b/erin".to_owned(), "AC".to_owned(), 2),
    ];
    for layout in ["auto", "folders"] {
        let (book, status) = class.batch(&format!("out-{layout}"), &["--layout", layout]);
        assert_eq!(status, 1, "{layout}");
        assert_eq!(verdicts(&book), expected, "{layout}");
        assert_eq!(book["skipped"], serde_json::json!([]), "{layout}");
    }
    class
        .command()
        .args([
            "batch",
            "flip",
            "class",
            "--out",
            "out",
            "--entry",
            "solution.*",
        ])
        .arg("--cases")
        .arg(two_cases())
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "grader: warning: --entry `solution.*` matches no file in class",
        ));
}

#[test]
fn a_fault_of_the_setup_is_exit_2_and_a_missing_toolchain_leaves_only_its_students_ungraded() {
    let class = Class::new(&[("alice.c", "wa_off_by_one.c"), ("bob.py", "ac_rows.py")]);
    let config = class.path("languages.toml");
    // Exactly one line, naming what is at fault; no gradebook, no journal.
    let refused = |cmd: &mut Command, says: &str| {
        let output = cmd.output().unwrap();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(2), "{says}: {stderr}");
        assert!(stderr.starts_with("grader: error: "), "{stderr}");
        assert!(stderr.contains(says), "{says}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(!class.path("out").exists(), "{says}: something was graded");
    };
    let batch = |extra: &[&str]| {
        let mut cmd = class.command();
        cmd.args(["batch", "flip", "class", "--out", "out", "--cases"])
            .arg(two_cases())
            .args(extra);
        cmd
    };
    let test = |extra: &[&str]| {
        let mut cmd = class.command();
        cmd.args(["test", "flip", "class/alice.c", "--cases"])
            .arg(two_cases())
            .args(extra);
        cmd
    };
    // A compile cache that cannot be made (its parent is a file): batch and test agree.
    fs::write(class.path("file"), "").unwrap();
    let cache = class.path("file/cache");
    let cache = cache.to_str().unwrap();
    refused(&mut batch(&["--cache-dir", cache]), "file");
    refused(test(&[]).env("GRADER_CACHE_DIR", cache), "file");
    // A placeholder typo in the language table, with its line and column.
    fs::write(
        &config,
        "[c]\nextensions = [\"c\"]\ncompile = [\"gcc\", \"-o\", \"{out}\", \"{source}\"]\nrun = [\"{out}\"]\n",
    )
    .unwrap();
    let with_config = ["--config", config.to_str().unwrap()];
    let typo = "languages.toml:3:35: unknown placeholder `{source}` in `c.compile`";
    refused(&mut batch(&with_config), typo);
    refused(&mut test(&with_config), typo);
    // A compiler, or an interpreter, that is not installed: `test` is refused; `batch`
    // grades everyone else, and that language's students are not graded, saying what to
    // install.
    fs::write(
        &config,
        "[c]\nextensions = [\"c\"]\ncompile = [\"no-such-cc\", \"-o\", \"{out}\", \"{src}\"]\nrun = [\"{out}\"]\npackage = \"gcc\"\n",
    )
    .unwrap();
    refused(
        &mut test(&with_config),
        "alice.c: the compiler `no-such-cc`",
    );
    let ungraded = |extra: &[&str], out: &str, who: &str, said: &str| {
        let mut cmd = class.command();
        cmd.args([
            "batch", "flip", "class", "--out", out, "--report", "json", "--cases",
        ])
        .arg(two_cases())
        .args(extra);
        let output = cmd.output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert_eq!(output.status.code(), Some(1), "{said}: {stderr}");
        assert!(
            stderr.contains(&format!(
                "grader: warning: student {who} not graded: {said}"
            )),
            "{stderr}"
        );
        let book: Value = serde_json::from_slice(&output.stdout).unwrap();
        let student = student(&book, who);
        assert_eq!(student["verdict"], "--", "{book:#}");
        assert!(
            student["error"].as_str().unwrap_or_default().contains(said),
            "{book:#}"
        );
        book
    };
    let book = ungraded(
        &with_config,
        "out-no-cc",
        "alice",
        "the compiler `no-such-cc` for c is not installed: install the Debian package `gcc`, or give the student another language with --lang-for",
    );
    assert_eq!(student(&book, "bob")["verdict"], "AC", "{book:#}");
    // And in every gradebook form: the CSV has the student's row.
    let csv = Csv::read(&class.path("out-no-cc"));
    assert!(csv.students().contains(&"alice"), "{:?}", csv.rows());
    fs::write(
        &config,
        "[python]\nextensions = [\"py\"]\nrun = [\"no-such-python\", \"{src}\"]\n",
    )
    .unwrap();
    let book = ungraded(
        &with_config,
        "out-no-python",
        "bob",
        "`no-such-python`: not found",
    );
    assert_eq!(student(&book, "alice")["verdict"], "WA", "{book:#}");
}

#[test]
fn a_class_that_compiles_nothing_needs_no_compile_cache() {
    // Python here without its syntax check, which is a compile; the cache cannot be made
    // (its parent is a file), and nothing asks for it.
    let class = Class::new(&[("bob.py", "ac_rows.py")]);
    fs::write(class.path("file"), "").unwrap();
    let cache = class.path("file/cache");
    let config = class.path("languages.toml");
    fs::write(
        &config,
        "[python]\nextensions = [\"py\"]\nrun = [\"python3\", \"{src}\"]\n",
    )
    .unwrap();
    let (book, status) = class.batch(
        "out",
        &[
            "--cache-dir",
            cache.to_str().unwrap(),
            "--config",
            config.to_str().unwrap(),
        ],
    );
    assert_eq!(status, 0, "{book:#}");
    assert_eq!(verdicts(&book), [("bob".to_owned(), "AC".to_owned(), 2)]);
}

#[test]
fn merge_refuses_a_gradebook_with_any_bad_field_naming_the_file_and_the_field() {
    let class = Class::new(&[("alice.c", "wa_off_by_one.c"), ("bob.cpp", "ce_syntax.cpp")]);
    let (book, _) = class.batch("out", &[]);
    let alice = book["students"]
        .as_array()
        .unwrap()
        .iter()
        .position(|s| s["student"] == "alice")
        .unwrap();
    let refused = |change: &dyn Fn(&mut Value), says: &str| {
        let mut bad = book.clone();
        change(&mut bad);
        fs::write(class.path("bad.json"), bad.to_string()).unwrap();
        class
            .command()
            .args(["merge", "out/gradebook.json", "bad.json", "--out", "merged"])
            .assert()
            .code(2)
            .stderr(
                predicate::str::starts_with("grader: error: bad.json")
                    .and(predicate::str::contains(says))
                    .and(predicate::function(|s: &str| s.lines().count() == 1)),
            );
        assert!(!class.path("merged").exists(), "{says}: merged anyway");
    };
    let at = format!("students[{alice}] (`alice`)");
    refused(
        &|b| b["students"][alice]["passed"] = serde_json::json!(999),
        &format!("{at}.passed: 999 is more than total 2"),
    );
    refused(
        &|b| b["students"][alice]["verdict"] = serde_json::json!("XYZ"),
        &format!("{at}.verdict: `XYZ` is not a verdict"),
    );
    refused(
        &|b| b["students"][alice]["score"] = serde_json::json!(100.0),
        &format!("{at}.score"),
    );
    refused(
        &|b| b["students"][alice]["cases"][0]["verdict"] = serde_json::json!("AC"),
        &format!("{at}.passed: 1, but 2 of its cases are AC"),
    );
    refused(
        &|b| b["problem"] = serde_json::json!("chess"),
        "problem: `chess` is not a problem",
    );
    refused(
        &|b| b["students"][alice]["passed"] = serde_json::json!(-1),
        "bad.json:1:",
    );
    refused(
        &|b| b["students"][alice]["pased"] = serde_json::json!(1),
        "unknown field `pased`",
    );
    // The batch's own gradebook merges as it is.
    class
        .command()
        .args(["merge", "out/gradebook.json", "--out", "merged"])
        .assert()
        .code(1);
}

#[test]
fn a_failed_compile_is_cached_like_a_success_unless_a_limit_or_a_signal_stopped_it() {
    let class = Class::new(&[]);
    for (name, text) in [("bad", "broken"), ("slow", "SLEEP"), ("sig", "SIGNAL")] {
        fs::write(class.path(&format!("class/{name}.fk")), text).unwrap();
    }
    // A compiler that notes each compile, and fails each source in its own way.
    let log = class.path("compiles.log");
    let compiler = script(
        class.scene.root(),
        "toolchain/bin/fakecc",
        format!(
            "#!/bin/sh\n\
             [ \"$1\" = --version ] && {{ echo 'fakecc 1.0'; exit 0; }}\n\
             echo \"$1\" >> {log}\n\
             grep -q SLEEP \"$1\" && sleep 30\n\
             grep -q SIGNAL \"$1\" && {{ echo dying >&2; kill -SEGV $$; }}\n\
             echo \"$1:1:1: error: broken\" >&2\n\
             exit 1\n",
            log = log.display()
        ),
    );
    let config = class.path("languages.toml");
    fs::write(
        &config,
        language_table(
            "fake",
            "fk",
            &compiler,
            "compile_limits = { cpu_secs = 2, wall_secs = 3 }\n",
        ),
    )
    .unwrap();
    let args = ["--sandbox", "none", "--config", config.to_str().unwrap()];
    let compiles = |name: &str| {
        fs::read_to_string(&log)
            .unwrap_or_default()
            .lines()
            .filter(|l| *l == format!("{name}.fk"))
            .count()
    };
    let message = |book: &Value, name: &str| {
        let s = student(book, name);
        assert_eq!(s["verdict"], "CE", "{s:#}");
        s["compile_error"].as_str().unwrap().to_owned()
    };
    let (first, _) = class.batch("out", &args);
    assert_eq!(message(&first, "bad"), "bad.fk:1:1: error: broken");
    assert!(message(&first, "slow").contains("the compiler was stopped"));
    assert!(message(&first, "sig").contains("dying"));
    let (second, _) = class.batch("out", &args);
    assert_eq!(message(&second, "bad"), "bad.fk:1:1: error: broken");
    assert_eq!(compiles("bad"), 1, "bad.fk's failure was cached");
    assert_eq!(
        compiles("slow"),
        2,
        "a compile a limit stopped is not cached"
    );
    assert_eq!(compiles("sig"), 2, "a compile a signal ended is not cached");
    // A cached message is verified like a program: a changed one is compiled again.
    let entries: Vec<PathBuf> = fs::read_dir(class.scene.cache())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("message").is_file())
        .collect();
    assert_eq!(entries.len(), 1, "{entries:?}");
    fs::write(entries[0].join("message"), "planted").unwrap();
    let (third, _) = class.batch("out", &args);
    assert_eq!(message(&third, "bad"), "bad.fk:1:1: error: broken");
    assert_eq!(compiles("bad"), 2);
    // `grader test` replays the cached failure too.
    class
        .command()
        .args(["test", "flip", "class/bad.fk", "--cases"])
        .arg(two_cases())
        .args(args)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("bad.fk:1:1: error: broken"));
    assert_eq!(compiles("bad"), 2);
}

#[test]
fn a_resumed_students_journaled_failure_counts_for_its_progress_line_and_for_fail_fast() {
    // alice fails sample/01 and passes secret/impossible; the journal keeps only her
    // failure, as a batch stopped between her two runs would.
    let class = Class::new(&[("alice.c", "wa_off_by_one.c")]);
    let run = |extra: &[&str]| {
        let output = class
            .command()
            .args(["batch", "flip", "class", "--out", "out", "--cases"])
            .arg(two_cases())
            .args(extra)
            .output()
            .unwrap();
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let journal = class.path("out/journal.jsonl");
    let first = run(&[]);
    assert!(first.contains("[1/1] alice: failing"), "{first}");
    let text = fs::read_to_string(&journal).unwrap();
    let failure: Vec<&str> = text.lines().filter(|l| l.contains("\"WA\"")).collect();
    assert_eq!(failure.len(), 1, "{text}");
    fs::write(&journal, format!("{JOURNAL_HEADER}\n{}\n", failure[0])).unwrap();
    // With --fail-fast-per-submission her earlier failure ends her grading: no run made.
    let stderr = run(&["--fail-fast-per-submission"]);
    assert!(
        stderr.contains("[1/1] alice: failing (graded earlier, journal)"),
        "{stderr}"
    );
    assert_eq!(journal_keys(&journal).len(), 1, "no run made again");
    // Without it her missing run is made, and she is still failing, never "all AC".
    let stderr = run(&[]);
    assert!(stderr.contains("[1/1] alice: failing\n"), "{stderr}");
    assert!(!stderr.contains("all AC"), "{stderr}");
    assert_eq!(journal_keys(&journal).len(), 2);
}

/// Two students and a case folder of two groups (`sample`, `secret/impossible`) whose
/// manifest says what they are worth.
fn points_class() -> Class {
    let class = Class::new(&[("alice.c", "wa_off_by_one.c"), ("bob.cpp", "ac_rows.cpp")]);
    // A case folder of two groups with a manifest that says what they are worth.
    let cases = class.path("cases");
    CaseFolder::at(&cases)
        .copied("sample/01", &two_cases(), "sample/01")
        .copied("secret/impossible/01", &two_cases(), "secret/impossible");
    let sample = fs::read_to_string(cases.join("sample/01.in")).unwrap();
    let impossible = fs::read_to_string(cases.join("secret/impossible/01.in")).unwrap();
    fs::write(
        cases.join("manifest.toml"),
        format!(
            "problem = \"flip\"\nsamples = [{sample:?}]\nsample_points = 5\n\n[[group]]\n\
             name = \"impossible\"\nboards = [{impossible:?}]\npoints = 15\n"
        ),
    )
    .unwrap();
    class
}

#[test]
fn points_per_group_come_from_the_manifest_or_the_flag_and_reach_every_gradebook_form() {
    let class = points_class();
    let batch = |out: &str, extra: &[&str]| {
        let output = class
            .command()
            .args([
                "batch", "flip", "class", "--out", out, "--report", "json", "--cases", "cases",
            ])
            .args(extra)
            .output()
            .unwrap();
        let book: Value = serde_json::from_slice(&output.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&output.stderr)));
        book
    };
    // alice is one too many on every solvable board: right only on the impossible one.
    let book = batch("out", &[]);
    assert_eq!(
        book["points"],
        serde_json::json!({"sample": 5.0, "secret/impossible": 15.0})
    );
    assert_eq!(student(&book, "alice")["points"], 15.0);
    assert_eq!(student(&book, "bob")["points"], 20.0);
    let csv = fs::read_to_string(class.path("out/gradebook.csv")).unwrap();
    let mut lines = csv.lines();
    assert!(
        lines
            .next()
            .unwrap()
            .contains(",suggested_lang,not_run,points (of 20),"),
        "{csv}"
    );
    assert!(
        csv.contains("\nalice,alice.c,c,50.0,WA,1,2,yes,,0,15,"),
        "{csv}"
    );
    let html = fs::read_to_string(class.path("out/gradebook.html")).unwrap();
    assert!(html.contains("Points (of 20)"));
    // The flag wins over the manifest; a group the folder lacks is the call's fault.
    let book = batch("out2", &["--points", "secret/impossible=40"]);
    assert_eq!(student(&book, "alice")["points"], 40.0);
    assert_eq!(student(&book, "bob")["points"], 45.0);
    class
        .command()
        .args([
            "batch", "flip", "class", "--out", "out3", "--cases", "cases",
        ])
        .args(["--points", "secret/nope=3"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("--points secret/nope=3: the cases have no group")
                .and(predicate::function(|s: &str| s.lines().count() == 1)),
        );
    // Shards graded with other points do not merge.
    let other = batch("out4", &["--points", "sample=1"]);
    assert_eq!(other["points"]["sample"], 1.0);
    class
        .command()
        .args([
            "merge",
            "out/gradebook.json",
            "out4/gradebook.json",
            "--out",
            "merged",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("other cases or points"));
}

#[test]
fn a_group_no_points_are_given_to_is_warned_of() {
    let class = points_class();
    // Without the manifest, a flag that prices one group leaves the other worth nothing:
    // said on stderr, by `batch` and `test` alike; `GROUP=0` says it is meant.
    fs::remove_file(class.path("cases/manifest.toml")).unwrap();
    let warning = "grader: warning: no points for `secret/impossible` (1 case): it counts for nothing in the score; give it points with --points GROUP=N, or GROUP=0 to say so";
    for (args, warned) in [
        (vec!["batch", "flip", "class", "--out", "out5"], true),
        (vec!["test", "flip", "class/alice.c"], true),
        (
            vec![
                "test",
                "flip",
                "class/alice.c",
                "--points",
                "secret/impossible=0",
            ],
            false,
        ),
    ] {
        let output = class
            .command()
            .args(&args)
            .args(["--cases", "cases", "--points", "sample=5"])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(stderr.contains(warning), warned, "{args:?}: {stderr}");
    }
}

#[test]
fn a_file_named_like_an_option_compiles_and_a_cached_ce_names_each_students_own_file() {
    // `-1.cpp` would be an option to g++; the same text under two names is two students'
    // own work, each told of its own file.
    let class = Class::new(&[
        ("-1.cpp", "ac_rows.cpp"),
        ("z.cpp", "ac_rows.cpp"),
        ("w.cpp", "ce_syntax.cpp"),
        ("v.cpp", "ce_syntax.cpp"),
    ]);
    let (book, code) = class.batch("out", &[]);
    assert_eq!(code, 1, "{book}");
    for name in ["-1", "z"] {
        assert_eq!(student(&book, name)["verdict"], "AC", "{name}: {book}");
    }
    for name in ["w", "v"] {
        let s = student(&book, name);
        assert_eq!(s["verdict"], "CE", "{name}: {book}");
        let message = s["compile_error"].as_str().unwrap();
        assert!(
            message.contains(&format!("{name}.cpp:")),
            "{name}: {message}"
        );
        let other = if name == "w" { "v.cpp" } else { "w.cpp" };
        assert!(!message.contains(other), "{name}: {message}");
    }
}
