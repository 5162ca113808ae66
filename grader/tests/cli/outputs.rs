//! End-to-end tests of what the grader writes: it never loses what the user has. Every
//! output path (report files, gradebook and case folders, the journal, the regressions
//! file) is checked before any work, an input of the call is never overwritten, and an
//! existing file is replaced only when it is a report of ours; `cases regen` never moves a
//! file of the user's.

use std::fs;

use predicates::prelude::*;

use super::{grader, one_error_line, small_manifest, write};

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
