//! Faults that are not the student's (issue 37): a package, case data or a machine at
//! fault is exit 2 naming what and why, before anyone is graded, never a mark; data is
//! never skipped unsaid; a student the grader could not grade is not a 0.

use std::fs;
use std::io::Write as _;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::time::Duration;

use testkit::cases::CaseFolder;
use testkit::class::Class;
use testkit::files::write;
use testkit::gradebook::{Csv, read_json, student};
use testkit::grader::grader;
use testkit::output::{assert_refused, said};
use testkit::packages::copy;
use testkit::paths::{fixture, repo, two_cases};
use testkit::tools::{is_root, skip};

/// Wide: the machine is busy, and a package's accepted submissions run first.
const TIMEOUT: Duration = Duration::from_mins(3);

/// `grader ARGS...`: its exit status, stdout and stderr.
fn run(args: &[&std::ffi::OsStr], env: &[(&str, &Path)]) -> (i32, String, String) {
    let mut command = grader();
    command.args(args).timeout(TIMEOUT);
    for (key, value) in env {
        command.env(key, value);
    }
    said(&command.output().unwrap())
}

/// `grader test PKG PKG/submissions/SUBMISSION --time-limit 2`.
fn test_package(package: &Path, submission: &str) -> (i32, String, String) {
    let submission = package.join("submissions").join(submission);
    run(
        &[
            "test".as_ref(),
            package.as_os_str(),
            submission.as_os_str(),
            "--time-limit".as_ref(),
            "2".as_ref(),
        ],
        &[],
    )
}

fn make_fifo(path: &Path) {
    nix::unistd::mkfifo(path, nix::sys::stat::Mode::from_bits_truncate(0o644)).unwrap();
}

// ------------------------------------------------------------- 3a: problem.yaml's values

#[test]
fn a_validation_the_format_does_not_have_is_exit_2_at_its_place_naming_the_allowed_ones() {
    let dir = tempfile::tempdir().unwrap();
    let parity = copy("parity", dir.path());
    let yaml = parity.join("problem.yaml");
    let text = fs::read_to_string(&yaml).unwrap();
    fs::write(
        &yaml,
        text.replace("validation: custom", "validation: costum"),
    )
    .unwrap();
    let line = text
        .lines()
        .position(|l| l.starts_with("validation:"))
        .unwrap()
        + 1;
    let said = test_package(&parity, "accepted/remainder.py");
    assert_refused(
        &said,
        &[
            &format!("{}:{line}:13: validation: `costum`", yaml.display()),
            "expected one of default, custom, custom interactive, custom score",
        ],
    );
    // A misspelled key the grader reads is a fault too; an unknown one is warned of.
    fs::write(
        &yaml,
        text.replace("validation: custom", "validaton: custom"),
    )
    .unwrap();
    let said = test_package(&parity, "accepted/remainder.py");
    assert_refused(
        &said,
        &["unknown key `validaton`: did you mean `validation`?"],
    );
    fs::write(&yaml, format!("{text}colour: blue\n")).unwrap();
    let (code, out, err) = test_package(&parity, "accepted/remainder.py");
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        err.matches("unknown key `colour`, ignored").count(),
        1,
        "{err}"
    );
    // And a limit out of range, at its place.
    fs::write(
        &yaml,
        text.replace("validation_time: 5", "validation_time: 0"),
    )
    .unwrap();
    let said = test_package(&parity, "accepted/remainder.py");
    assert_refused(
        &said,
        &["limits.validation_time: 0 is not a number of seconds"],
    );
}

// ------------------------------------------------------ 3b: testdata.yaml that is not a file

#[test]
fn a_testdata_yaml_that_is_not_a_file_is_exit_2_naming_it_never_flags_lost() {
    let dir = tempfile::tempdir().unwrap();
    let sum = copy("sum", dir.path());
    // The float tolerance moves to data/testdata.yaml, which is then a link to nothing,
    // to a device, to a folder, or a FIFO: without the tolerance the accepted
    // submission's `0.75` against `.75`-style answers would be judged wrong.
    let yaml = sum.join("problem.yaml");
    let text = fs::read_to_string(&yaml).unwrap();
    fs::write(
        &yaml,
        text.replace("validator_flags: float_tolerance 1e-6\n", ""),
    )
    .unwrap();
    let real = write(
        dir.path(),
        "flags.yaml",
        "output_validator_flags: float_tolerance 1e-6\n",
    );
    let testdata = sum.join("data/testdata.yaml");
    symlink(&real, &testdata).unwrap();
    let (code, out, err) = test_package(&sum, "accepted/sum.py");
    assert_eq!(code, 0, "a link to a file is read: {out}{err}");
    for (target, what) in [
        (dir.path().join("gone.yaml"), "is a broken link, not a file"),
        (
            PathBuf::from("/dev/null"),
            "is a link to a character device, not a file",
        ),
        (
            dir.path().to_path_buf(),
            "is a link to a folder, not a file",
        ),
    ] {
        fs::remove_file(&testdata).unwrap();
        symlink(&target, &testdata).unwrap();
        let said = test_package(&sum, "accepted/sum.py");
        assert_refused(&said, &[&format!("{}: {what}", testdata.display())]);
    }
    fs::remove_file(&testdata).unwrap();
    make_fifo(&testdata);
    let said = test_package(&sum, "accepted/sum.py");
    assert_refused(
        &said,
        &[&format!(
            "{}: is a FIFO (a named pipe), not a file",
            testdata.display()
        )],
    );
}

#[test]
fn a_package_folder_that_is_a_broken_link_is_exit_2_never_no_validators() {
    let dir = tempfile::tempdir().unwrap();
    let sum = copy("sum", dir.path());
    let validators = sum.join("input_validators");
    fs::remove_dir_all(&validators).unwrap();
    symlink(dir.path().join("moved"), &validators).unwrap();
    let said = test_package(&sum, "accepted/sum.py");
    assert_refused(
        &said,
        &[&format!(
            "{}: is a broken link, not a folder",
            validators.display()
        )],
    );
}

// ------------------------------------------------- 5: case data that is not a regular file

/// A case folder of four flip cases, `001` to `004`, from the shipped ones.
fn four_cases(dir: &Path) -> PathBuf {
    let cases = CaseFolder::at(dir.join("cases"));
    let from = repo().join("cases/flip/data/secret/answers");
    for n in 1..=4 {
        cases.copied(&format!("{n:03}"), &from, &format!("{n:02}"));
    }
    cases.path().to_path_buf()
}

/// `grader test flip --cmd true --cases CASES`: the cases are read before anything runs.
fn test_cases(cases: &Path) -> (i32, String, String) {
    run(
        &[
            "test".as_ref(),
            "flip".as_ref(),
            "--cmd".as_ref(),
            "true".as_ref(),
            "--cases".as_ref(),
            cases.as_os_str(),
        ],
        &[],
    )
}

#[test]
fn a_case_input_that_is_not_a_file_is_exit_2_naming_it_and_what_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let cases = four_cases(dir.path());
    let input = cases.join("003.in");
    let (code, out, _) = test_cases(&cases);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("0/4"), "all four cases count: {out}");
    fs::remove_file(&input).unwrap();
    fs::create_dir(&input).unwrap();
    assert_refused(
        &test_cases(&cases),
        &[&format!(
            "{}: is a folder, not a file: a case's input must be one",
            input.display()
        )],
    );
    fs::remove_dir(&input).unwrap();
    make_fifo(&input);
    assert_refused(
        &test_cases(&cases),
        &[&format!(
            "{}: is a FIFO (a named pipe), not a file",
            input.display()
        )],
    );
    fs::remove_file(&input).unwrap();
    symlink("/dev/zero", &input).unwrap();
    assert_refused(
        &test_cases(&cases),
        &[&format!(
            "{}: is a link to a character device, not a file",
            input.display()
        )],
    );
    // A link to a file is that file: the case counts.
    fs::remove_file(&input).unwrap();
    let elsewhere = write(
        dir.path(),
        "kept.in",
        fs::read(cases.join("001.in")).unwrap(),
    );
    symlink(&elsewhere, &input).unwrap();
    let (code, out, _) = test_cases(&cases);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("0/4"), "{out}");
}

#[test]
fn a_case_answer_that_is_not_a_file_is_named_not_called_missing() {
    let dir = tempfile::tempdir().unwrap();
    let cases = four_cases(dir.path());
    let answer = cases.join("001.ans");
    fs::remove_file(&answer).unwrap();
    symlink("/dev/zero", &answer).unwrap();
    assert_refused(
        &test_cases(&cases),
        &[&format!(
            "{}: is a link to a character device, not a file: a case's answer must be one",
            answer.display()
        )],
    );
    fs::remove_file(&answer).unwrap();
    symlink(dir.path().join("gone"), &answer).unwrap();
    assert_refused(
        &test_cases(&cases),
        &[&format!("{}: is a broken link", answer.display())],
    );
}

#[test]
fn a_package_case_that_is_not_a_file_is_exit_2_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let sum = copy("sum", dir.path());
    let input = sum.join("data/secret/2.in");
    fs::remove_file(&input).unwrap();
    make_fifo(&input);
    assert_refused(
        &test_package(&sum, "accepted/sum.py"),
        &[&format!(
            "{}: is a FIFO (a named pipe), not a file",
            input.display()
        )],
    );
    fs::remove_file(&input).unwrap();
    fs::write(&input, "1 2\n").unwrap();
    let answer = sum.join("data/secret/2.ans");
    fs::remove_file(&answer).unwrap();
    symlink("/dev/zero", &answer).unwrap();
    assert_refused(
        &test_package(&sum, "accepted/sum.py"),
        &[&format!(
            "{}: is a link to a character device",
            answer.display()
        )],
    );
}

// --------------------------------------------------------------- 3c: an unusable TMPDIR

#[test]
fn an_unusable_tmpdir_is_exit_2_naming_it_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing");
    let file = write(dir.path(), "a-file", "x");
    let submission = repo().join("examples/flip/ac_bfs.c");
    let class = dir.path().join("class");
    Class::at(&class).copy("alice.c", &submission);
    let out = dir.path().join("gradebook");
    for (tmpdir, why) in [
        (&missing, "no such folder"),
        (&file, "is a file, not a folder"),
    ] {
        let said = run(
            &["test".as_ref(), "flip".as_ref(), submission.as_os_str()],
            &[("TMPDIR", tmpdir)],
        );
        assert_refused(
            &said,
            &[&format!(
                "TMPDIR {}: {why}: the grader keeps its temporary files there",
                tmpdir.display()
            )],
        );
        assert!(!said.2.contains("sandbox"), "{}", said.2);
        let said = run(
            &[
                "batch".as_ref(),
                "flip".as_ref(),
                class.as_os_str(),
                "--out".as_ref(),
                out.as_os_str(),
            ],
            &[("TMPDIR", tmpdir)],
        );
        assert_refused(&said, &[&format!("TMPDIR {}: {why}", tmpdir.display())]);
        assert!(!out.join("journal.jsonl").exists(), "no one was graded");
    }
}

/// A small file system of its own, mounted (as root) for a test and gone with it.
struct Mounted {
    dir: tempfile::TempDir,
}

impl Mounted {
    /// A tmpfs of `size` with `options`; `None` (the test skipped, with a line) where this
    /// user may not mount one. CI runs as root: there it must work.
    fn tmpfs(size: &str, options: &str) -> Option<Mounted> {
        let dir = tempfile::tempdir().unwrap();
        let mounted = is_root()
            && std::process::Command::new("mount")
                .args([
                    "-t",
                    "tmpfs",
                    "-o",
                    &format!("size={size},{options}"),
                    "tmpfs",
                ])
                .arg(dir.path())
                .status()
                .is_ok_and(|s| s.success());
        if !mounted {
            skip("a full or read-only TMPDIR: needs root to mount a tmpfs");
            return None;
        }
        Some(Mounted { dir })
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }
}

impl Drop for Mounted {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount")
            .arg(self.dir.path())
            .status();
    }
}

#[test]
fn a_full_or_read_only_tmpdir_is_exit_2_naming_it_before_any_work() {
    let Some(full) = Mounted::tmpfs("128k", "mode=1777") else {
        return;
    };
    // Filled to its last block.
    let mut filler = fs::File::create(full.path().join("filler")).unwrap();
    while filler.write_all(&[0; 4096]).is_ok() {}
    drop(filler);
    let Some(read_only) = Mounted::tmpfs("1m", "ro") else {
        return;
    };
    let submission = repo().join("examples/flip/ac_bfs.c");
    for (tmpdir, why) in [
        (full.path(), "is full: no space left"),
        (read_only.path(), "cannot be written"),
    ] {
        let said = run(
            &["test".as_ref(), "flip".as_ref(), submission.as_os_str()],
            &[("TMPDIR", tmpdir)],
        );
        assert_refused(&said, &[&format!("TMPDIR {}: {why}", tmpdir.display())]);
    }
    // Outputs on the full file system: each a one-line exit 2 in the OS's words, with no
    // temp file's name the user never gave.
    let class = tempfile::tempdir().unwrap();
    Class::at(class.path()).copy("alice.c", &submission);
    let cases = two_cases();
    let on_full = |name: &str| full.path().join(name);
    let calls: [Vec<&std::ffi::OsStr>; 3] = [
        vec![
            "gen".as_ref(),
            "flip".as_ref(),
            "--seed".as_ref(),
            "1".as_ref(),
            "--out".as_ref(),
            on_full("gen").into_os_string().leak(),
        ],
        vec![
            "test".as_ref(),
            "flip".as_ref(),
            submission.as_os_str(),
            "--cases".as_ref(),
            cases.as_os_str(),
            "--report".as_ref(),
            "json".as_ref(),
            "--report-file".as_ref(),
            on_full("r.json").into_os_string().leak(),
        ],
        vec![
            "batch".as_ref(),
            "flip".as_ref(),
            class.path().as_os_str(),
            "--cases".as_ref(),
            cases.as_os_str(),
            "--out".as_ref(),
            on_full("out").into_os_string().leak(),
        ],
    ];
    for call in &calls {
        let said = run(call, &[]);
        assert_refused(&said, &["No space left on device"]);
        assert!(!said.2.contains(".grader-"), "{}", said.2);
    }
}

// ------------------------------------------------------- 3d: a student not graded is no 0

/// `grader batch flip class --out OUT ARGS...` in `root`, on the two-case fixture folder,
/// with points (so that a student not graded is seen to earn none).
fn batch(root: &Path, out: &str, args: &[&str]) -> (i32, String, String) {
    let cases = two_cases();
    let mut all: Vec<&std::ffi::OsStr> = vec![
        "batch".as_ref(),
        "flip".as_ref(),
        "class".as_ref(),
        "--out".as_ref(),
        out.as_ref(),
        "--cases".as_ref(),
        cases.as_os_str(),
        "--points".as_ref(),
        "sample=0".as_ref(),
        "--points".as_ref(),
        "secret=10".as_ref(),
    ];
    all.extend(args.iter().map(std::ffi::OsStr::new));
    let mut command = grader();
    command
        .args(all)
        .current_dir(root)
        .env("GRADER_CACHE_DIR", root.join("cache"))
        .timeout(TIMEOUT);
    said(&command.output().unwrap())
}

/// The CSV row of `student` in `OUT/gradebook.csv`, by the header's column names.
fn csv_row(out: &Path, student: &str) -> std::collections::HashMap<String, String> {
    Csv::read(out).row(student)
}

/// `student`'s object in `OUT/gradebook.json`.
fn json_student(out: &Path, name: &str) -> serde_json::Value {
    student(&read_json(&out.join("gradebook.json")), name).clone()
}

/// Asserts that `carol` is not graded and has no mark in the gradebook in `out`, and that
/// `alice`'s is kept.
fn assert_no_mark_for_carol(out: &Path) {
    let carol = csv_row(out, "carol");
    assert_eq!(carol["verdict"], "--", "{carol:?}");
    assert_eq!(carol["score"], "", "no score, not 0: {carol:?}");
    assert_eq!(carol["points (of 10)"], "", "no points, not 0: {carol:?}");
    assert_eq!(carol["compiled"], "not-graded", "{carol:?}");
    let alice = csv_row(out, "alice");
    assert_eq!(
        (alice["score"].as_str(), alice["compiled"].as_str()),
        ("100.0", "yes")
    );
    let carol = json_student(out, "carol");
    assert!(carol["score"].is_null(), "{carol}");
    assert!(carol["points"].is_null(), "{carol}");
    assert!(
        carol["error"]
            .as_str()
            .unwrap()
            .contains("several entry files"),
        "{carol}"
    );
    assert_eq!(json_student(out, "alice")["score"], 100.0);
    let page = fs::read_to_string(out.join("gradebook.html")).unwrap();
    let row = page
        .lines()
        .find(|l| l.contains(">carol</a>"))
        .unwrap_or_else(|| panic!("no carol in the page"));
    assert!(!row.contains("0.0%"), "{row}");
}

#[test]
fn a_student_not_graded_has_no_score_in_any_gradebook_form_nor_after_merge_or_resume() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let from = fixture("flip");
    // Two entry files: carol cannot be graded, which is no mark of hers.
    Class::at(root.join("class"))
        .copy("alice.py", &from.join("ac_rows.py"))
        .copy("carol/main.py", &from.join("ac_rows.py"))
        .copy("carol/main.c", &from.join("wa_off_by_one.c"));
    let (code, out, err) = batch(root, "whole", &[]);
    assert_eq!(code, 1, "{out}{err}");
    assert_no_mark_for_carol(&root.join("whole"));
    // Resumed from its journal: the same.
    let (code, out, err) = batch(root, "whole", &[]);
    assert_eq!(code, 1, "{out}{err}");
    assert_no_mark_for_carol(&root.join("whole"));
    // Shards merged: the same.
    for shard in ["1/2", "2/2"] {
        let out = format!("shard{}", &shard[..1]);
        let (code, _, err) = batch(root, &out, &["--shard", shard]);
        assert!(code == 0 || code == 1, "{err}");
    }
    let merged = grader()
        .args([
            "merge",
            "shard1/gradebook.json",
            "shard2/gradebook.json",
            "--out",
            "merged",
        ])
        .current_dir(root)
        .timeout(TIMEOUT)
        .output()
        .unwrap();
    assert_eq!(
        merged.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&merged.stderr)
    );
    assert_no_mark_for_carol(&root.join("merged"));
    // A shard of an older grader, which wrote 0 for a student not graded, is read as
    // this one writes it (no score); any other score of such a student is refused.
    let path = root.join("shard1/gradebook.json");
    let mut book: serde_json::Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
    let shard = if book["students"]
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s["student"] == "carol")
    {
        path.clone()
    } else {
        root.join("shard2/gradebook.json")
    };
    let other = if shard == path {
        root.join("shard2/gradebook.json")
    } else {
        path.clone()
    };
    book = serde_json::from_slice(&fs::read(&shard).unwrap()).unwrap();
    for (score, name) in [(0.0, "zero"), (12.5, "some")] {
        for s in book["students"].as_array_mut().unwrap() {
            if s["student"] == "carol" {
                s["score"] = serde_json::json!(score);
            }
        }
        fs::write(root.join(format!("{name}.json")), book.to_string()).unwrap();
    }
    let legacy = run(
        &[
            "merge".as_ref(),
            root.join("zero.json").as_os_str(),
            other.as_os_str(),
            "--out".as_ref(),
            root.join("zero").as_os_str(),
        ],
        &[],
    );
    assert_ne!(legacy.0, 2, "{legacy:?}");
    assert_no_mark_for_carol(&root.join("zero"));
    let said = run(
        &[
            "merge".as_ref(),
            root.join("some.json").as_os_str(),
            "--out".as_ref(),
            root.join("some").as_os_str(),
        ],
        &[],
    );
    assert_refused(
        &said,
        &["score: 12.5, but a student not graded (`--`) has none (null)"],
    );
}

// ------------------------------------- 5: an input validator the grader cannot build

#[test]
fn an_input_validator_that_cannot_run_is_said_and_with_none_run_the_data_is_not_called_checked() {
    let dir = tempfile::tempdir().unwrap();
    let sum = copy("sum", dir.path());
    // F#: no language of the grader's table (Debian 12 has no toolchain for it).
    write(
        &sum.join("input_validators"),
        "check.fs",
        "printfn \"%d\" 42\n",
    );
    let (code, out, err) = test_package(&sum, "accepted/sum.py");
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        err.contains("input_validators/check.fs: not run: unknown extension `.fs`")
            && err.contains("the data is checked by input_validators/validate.py only"),
        "{err}"
    );
    // `verify` lists it, advising no flag it does not take.
    let verified = run(
        &["package".as_ref(), "verify".as_ref(), sum.as_os_str()],
        &[],
    );
    assert!(
        verified
            .1
            .contains("input_validators/check.fs: not run: unknown extension `.fs`"),
        "{verified:?}"
    );
    assert!(
        !verified.1.contains("--lang") && !verified.1.contains("--cmd"),
        "{}",
        verified.1
    );
    // With no validator that runs, the data would go unchecked: exit 2.
    fs::remove_file(sum.join("input_validators/validate.py")).unwrap();
    assert_refused(
        &test_package(&sum, "accepted/sum.py"),
        &[
            "no input validator of the package could run",
            "input_validators/check.fs: not run",
            "its data would go unchecked",
        ],
    );
}
