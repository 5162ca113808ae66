//! End-to-end tests of what the grader writes: it never loses what the user has. Every
//! output path (report files, gradebook and case folders, the journal, the regressions
//! file) is checked before any work, an input of the call is never overwritten, and an
//! existing file is replaced only when it is a report of ours; `cases regen` never moves a
//! file of the user's.

use std::fs;
use std::path::PathBuf;
use std::time::Duration;

use assert_cmd::Command;
use predicates::prelude::*;

use testkit::cases::{CaseFolder, small_manifest};
use testkit::files::{self, write};
use testkit::grader::{grader, one_error_line};
use testkit::paths::{fixture, repo, two_cases};
use testkit::scene::Scene;

#[test]
fn regen_refuses_a_data_file_and_moves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "flip/manifest.toml", small_manifest("flip"));
    write(root, "flip/data", "my notes\n");
    for _ in 0..2 {
        grader()
            .args(["cases", "regen", "--root"])
            .arg(root)
            .assert()
            .code(2)
            .stderr(one_error_line("flip/data: is not a folder"));
        assert_eq!(fs::read(root.join("flip/data")).unwrap(), b"my notes\n");
        let mut names: Vec<_> = fs::read_dir(root.join("flip"))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(names, ["data", "manifest.toml"]);
    }
    grader()
        .args(["cases", "regen", "--check", "--root"])
        .arg(root)
        .assert()
        .code(2)
        .stderr(one_error_line("flip/data: is not a folder"));

    // What an earlier grader left: the user's file moved to `.data.old` beside a new
    // `data/`. It is named, kept, and regen works again once it is moved away.
    fs::rename(root.join("flip/data"), root.join("flip/.data.old")).unwrap();
    write(root, "flip/data/sample/01.in", "bwwb\nbbwb\nbwwb\nbwww\n");
    grader()
        .args(["cases", "regen", "--root"])
        .arg(root)
        .assert()
        .code(2)
        .stderr(one_error_line("flip/.data.old: is not a folder"));
    assert_eq!(
        fs::read(root.join("flip/.data.old")).unwrap(),
        b"my notes\n"
    );
    fs::rename(root.join("flip/.data.old"), root.join("notes")).unwrap();
    grader()
        .args(["cases", "regen", "--root"])
        .arg(root)
        .assert()
        .success()
        .stdout(predicate::str::contains("rewrote data/"));
    assert!(root.join("flip/data/secret/mixed/01.ans").is_file());
}

/// A call of the binary in a scene of its own (working folder, temporary folder and
/// compile cache), whose case folder `cases` holds the flip sample.
struct Call {
    scene: Scene,
}

impl Call {
    fn new() -> Call {
        let call = Call {
            scene: Scene::new(TIMEOUT),
        };
        CaseFolder::at(call.path("cases")).copied("sample/01", &two_cases(), "sample/01");
        call
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.scene.path(rel)
    }

    fn grader(&self, args: &[&str]) -> Command {
        let mut cmd = self.scene.grader();
        cmd.args(args);
        cmd
    }

    /// Copies the fixture submission `flip/FROM` into the working folder, as `name`.
    fn submission(&self, from: &str, name: &str) -> PathBuf {
        files::copy(&fixture("flip").join(from), self.path(name))
    }

    /// A refused call: exit 2, one line naming `contains`, and nothing compiled or run.
    fn refused(&self, args: &[&str], contains: &'static str) {
        self.grader(args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(one_error_line(contains));
        let compiled: Vec<_> = fs::read_dir(self.scene.cache()).unwrap().collect();
        assert!(compiled.is_empty(), "{args:?} compiled first: {compiled:?}");
        self.scene.assert_no_files_left();
    }
}

const TIMEOUT: Duration = Duration::from_mins(3);

#[test]
fn test_never_writes_its_report_over_an_input_or_a_file_of_the_users() {
    let call = Call::new();
    let source = call.submission("ac_rows.cpp", "sol.cpp");
    let before = fs::read(&source).unwrap();
    std::os::unix::fs::symlink(&source, call.path("link.json")).unwrap();
    fs::write(call.path("notes.txt"), "my notes\n").unwrap();
    let test = [
        "test",
        "flip",
        "sol.cpp",
        "--cases",
        "cases",
        "--report-file",
    ];
    for (path, error) in [
        ("sol.cpp", "sol.cpp: is the submission sol.cpp of this call"),
        ("link.json", "link.json: is the submission"),
        ("cases/sample/01.ans", "01.ans: is the case file"),
        (
            "notes.txt",
            "notes.txt: exists and is not a report the grader wrote",
        ),
        ("cases", "cases: is a folder, not a file"),
        (
            "no/such/report.json",
            "cannot write: its folder no/such does not exist",
        ),
    ] {
        call.refused(&[&test[..], &[path]].concat(), error);
    }
    assert_eq!(fs::read(&source).unwrap(), before);
    assert_eq!(fs::read(call.path("notes.txt")).unwrap(), b"my notes\n");
    assert_eq!(fs::read(call.path("cases/sample/01.ans")).unwrap(), b"4\n");
}

#[test]
fn test_replaces_its_own_reports_in_every_format() {
    let call = Call::new();
    call.submission("ac_rows.py", "sol.py");
    fs::write(call.path("report.out"), "").unwrap();
    for (format, starts) in [
        ("json", "{"),
        ("junit", "<?xml"),
        ("human", "flip sol.py"),
        ("json", "{"),
    ] {
        call.grader(&[
            "test",
            "flip",
            "sol.py",
            "--cases",
            "cases",
            "--report",
            format,
            "--report-file",
            "report.out",
        ])
        .assert()
        .success()
        .stdout("");
        let text = fs::read_to_string(call.path("report.out")).unwrap();
        assert!(text.starts_with(starts), "{format}: {text}");
    }
}

#[test]
fn fuzz_checks_every_output_path_before_it_draws_a_seed() {
    let call = Call::new();
    call.submission("wa_off_by_one.c", "wa.c");
    fs::write(call.path("notes.txt"), "my notes\n").unwrap();
    let regressions = "fuzz-regressions/flip.txt";
    let fuzz = ["fuzz", "flip", "wa.c", "--runs", "50"];
    for (extra, error) in [
        (
            &["--report-file", "no/such/x.json"][..],
            "cannot write: its folder no/such does not exist",
        ),
        (&["--report-file", "wa.c"], "wa.c: is the submission"),
        (
            &["--save", "notes.txt"],
            "notes.txt: cannot write into: is a file, not a folder",
        ),
        (
            &["--save", "no/such/found"],
            "no/such/found: cannot make it: no/such does not exist",
        ),
        (
            &["--regressions", "notes.txt/r.txt"],
            "notes.txt/r.txt: cannot write: its folder notes.txt is a file, not a folder",
        ),
    ] {
        call.refused(&[&fuzz[..], extra].concat(), error);
        assert!(!call.path(regressions).exists(), "{extra:?} fuzzed first");
    }
    // The regressions file is read and added to: never a report.
    write(
        call.scene.root(),
        regressions,
        "flip seed=1 run=1 input=\"bbbb\\nbbbb\\nbbbb\\nbbbb\\n\"\n",
    );
    call.refused(
        &[&fuzz[..], &["--report-file", regressions]].concat(),
        "is the regressions file",
    );
    assert_eq!(fs::read(call.path("notes.txt")).unwrap(), b"my notes\n");
}

#[test]
fn batch_merge_and_gen_never_write_over_their_inputs_or_the_users_files() {
    let call = Call::new();
    call.submission("ac_rows.cpp", "class/alice.cpp");
    write(
        call.scene.root(),
        "out/gradebook.csv",
        "name,mark\nalice,20\n",
    );
    write(call.scene.root(), "shard/gradebook.json", "{}");
    let batch = ["batch", "flip", "class", "--cases", "cases", "--out"];
    call.refused(
        &[&batch[..], &["class"]].concat(),
        "class: is the class folder",
    );
    call.refused(
        &[&batch[..], &["cases"]].concat(),
        "cases: is the case folder",
    );
    call.refused(
        &[&batch[..], &["out"]].concat(),
        "out/gradebook.csv: exists and is not a gradebook the grader wrote",
    );
    assert_eq!(
        fs::read(call.path("out/gradebook.csv")).unwrap(),
        b"name,mark\nalice,20\n"
    );
    call.refused(
        &["merge", "shard/gradebook.json", "--out", "shard"],
        "shard/gradebook.json: is the gradebook to merge",
    );
    call.refused(
        &["gen", "flip", "--seed", "1", "--out", "out/gradebook.csv"],
        "out/gradebook.csv: cannot write into: is a file, not a folder",
    );
    assert!(!call.path("out/journal.jsonl").exists());
    // A new folder is made, and a second run replaces its own gradebook and resumes.
    for _ in 0..2 {
        call.grader(&[&batch[..], &["book", "--report", "csv"]].concat())
            .assert()
            .success();
        assert!(call.path("book/gradebook.html").is_file());
    }
}

/// A class of thousands writes a gradebook past the 16 MiB a file is read up to: the
/// grader still knows it for its own by its head, so the same command runs again (a
/// resume, a regrade) instead of refusing the class's own gradebook; the user's big JSON
/// is still refused.
#[test]
fn a_gradebook_too_big_to_read_whole_is_known_by_its_head_and_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let ac = fs::read(repo().join("examples/flip/ac_bfs.c")).unwrap();
    write(root, "class/alice.c", &ac);
    let batch = || {
        let mut cmd = grader();
        cmd.current_dir(root)
            .args(["batch", "flip", "class", "--out", "out", "--jobs", "1"])
            .arg("--cache-dir")
            .arg(root.join("cache"))
            .timeout(Duration::from_mins(5));
        cmd
    };
    batch().assert().success();
    // The class's gradebook, grown past the cap by copies of its one student's entry, as
    // the grader writes it.
    let path = root.join("out/gradebook.json");
    let text = fs::read_to_string(&path).unwrap();
    let open = "\n  \"students\": [\n";
    let start = text.find(open).unwrap() + open.len();
    let end = start + text[start..].find("\n  ]").unwrap();
    let entry = &text[start..end];
    let copies = (17 << 20) / entry.len() + 1;
    let big = format!(
        "{}{}{}",
        &text[..start],
        vec![entry; copies].join(",\n"),
        &text[end..]
    );
    assert!(big.len() > 16 << 20);
    serde_json::from_str::<serde_json::Value>(&big).unwrap();
    fs::write(&path, &big).unwrap();
    batch().assert().success();
    let again: serde_json::Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
    assert_eq!(again["students"].as_array().unwrap().len(), 1);
    // A big JSON of the user's in its place is not replaced.
    let mut theirs = b"{\n  \"notes\": \"".to_vec();
    theirs.extend(std::iter::repeat_n(b'x', 17 << 20));
    theirs.extend(b"\"\n}\n");
    fs::write(&path, &theirs).unwrap();
    batch()
        .assert()
        .code(2)
        .stderr(one_error_line("is not a gradebook the grader wrote"));
    assert_eq!(fs::read(&path).unwrap(), theirs);
}
