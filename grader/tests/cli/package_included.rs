//! 2025-09's included files (`include/`), end to end: a package whose submissions are
//! incomplete without them (a Python module they import, a data file a C program opens
//! from its working folder, a C++ driver that calls the function a submission defines),
//! verified with the files added by language (`include/python3/` over `default/`) and the
//! package's constants replaced in them; the same for a student's submission in `test`,
//! `batch` and `fuzz` (and for `fuzz`'s reference); and a folder of `include/` the format does not allow is exit 2.

use std::path::{Path, PathBuf};

use testkit::class::Class;
use testkit::files::write;
use testkit::grader::{grader, one_error_line};
use testkit::output::{json, said};
use testkit::packages::{row, verify};

use predicates::Predicate as _;

/// `twice` (print twice the input's number) in 2025-09, at `dir/included`, its factor a
/// constant, with included files and submissions that need them.
fn package(dir: &Path) -> PathBuf {
    let package = dir.join("included");
    write(
        &package,
        "problem.yaml",
        "problem_format_version: 2025-09\nname: Twice\nconstants:\n  factor: 2\n",
    );
    for (case, n) in [("sample/1", 3), ("secret/1", 50), ("secret/2", 7)] {
        write(&package, format!("data/{case}.in"), format!("{n}\n"));
        write(&package, format!("data/{case}.ans"), format!("{}\n", 2 * n));
    }
    write(
        &package,
        "include/python3/helper.py",
        "FACTOR = {{factor}}\n",
    );
    write(&package, "include/default/factor.txt", "{{factor}}\n");
    write(
        &package,
        "include/cpp/driver.cpp",
        "#include <cstdio>\nlong twice(long n);\nint main() { long n; if (std::scanf(\"%ld\", &n) != 1) return 1; std::printf(\"%ld\\n\", twice(n)); }\n",
    );
    write(
        &package,
        "submissions/accepted/imports.py",
        "import helper\nprint(helper.FACTOR * int(input()))\n",
    );
    write(
        &package,
        "submissions/accepted/opens.c",
        "#include <stdio.h>\nint main(void) { FILE *f = fopen(\"factor.txt\", \"r\"); int k, n; \
         if (!f || fscanf(f, \"%d\", &k) != 1 || scanf(\"%d\", &n) != 1) return 1; \
         printf(\"%d\\n\", k * n); return 0; }\n",
    );
    write(
        &package,
        "submissions/accepted/function.cpp",
        "long twice(long n) { return 2 * n; }\n",
    );
    // Python has a folder of its own: default/'s file is not added to it.
    write(
        &package,
        "submissions/run_time_error/opens.py",
        "print(int(open('factor.txt').read()) * int(input()))\n",
    );
    package
}

#[test]
fn included_files_are_added_by_language_with_constants_and_found_where_they_run() {
    if !super::has_tools("included files", &[("gcc", "gcc"), ("g++", "g++")]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let package = package(dir.path());
    let (code, table, stderr) = verify(&package, &[]);
    assert_eq!(code, 0, "{table}{stderr}");
    for accepted in ["imports.py", "opens.c", "function.cpp"] {
        assert_eq!(
            &row(&table, &format!("accepted/{accepted}"))[1..3],
            ["AC", "AC"],
            "{table}"
        );
    }
    assert_eq!(
        &row(&table, "run_time_error/opens.py")[1..3],
        ["RTE", "RTE"],
        "{table}"
    );
    assert!(!stderr.contains("include"), "{stderr}");
    // The package's files are as they were written.
    let written = std::fs::read_to_string(package.join("include/default/factor.txt")).unwrap();
    assert_eq!(written, "{{factor}}\n");

    // A student's submission gets them too, in `test` and in `batch`.
    let student = write(
        dir.path(),
        "student/opens.c",
        std::fs::read_to_string(package.join("submissions/accepted/opens.c")).unwrap(),
    );
    let output = grader()
        .arg("test")
        .arg(&package)
        .arg(&student)
        .timeout(std::time::Duration::from_mins(3))
        .output()
        .unwrap();
    let (code, out, err) = said(&output);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("AC 3/3 passed"), "{out}");
    let class = Class::at(dir.path().join("class"));
    class.write("alice.cpp", "long twice(long n) { return n + n; }\n");
    class.write(
        "bob.py",
        "import helper\nprint(helper.FACTOR + int(input()))\n",
    );
    let output = grader()
        .arg("batch")
        .arg(&package)
        .arg(class.path())
        .arg("--out")
        .arg(dir.path().join("book"))
        .args(["--report", "json"])
        .timeout(std::time::Duration::from_mins(3))
        .output()
        .unwrap();
    let (code, out, err) = said(&output);
    // Bob added where he should have multiplied: not every student is AC, exit 1.
    assert_eq!(code, 1, "{out}{err}");
    let book = json(&out);
    let verdicts: Vec<(&str, &str)> = book["students"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["student"].as_str().unwrap(),
                s["verdict"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(verdicts, [("alice", "AC"), ("bob", "WA")], "{book}");

    // And in `fuzz`, both the candidate and the reference (the first accepted
    // submission, `function.cpp`, which is nothing without its driver).
    write(
        &package,
        "generators/fuzz.py",
        "import random, sys\nrandom.seed(int(sys.argv[1]))\nprint(random.randint(1, 1000))\n",
    );
    let output = grader()
        .arg("fuzz")
        .arg(&package)
        .arg(&student)
        .args(["--runs", "20", "--seed", "3", "--report", "json"])
        .timeout(std::time::Duration::from_mins(3))
        .output()
        .unwrap();
    let (code, out, err) = said(&output);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(json(&out)["runs"], 20, "{out}");
}

#[test]
fn an_include_folder_the_format_does_not_allow_is_exit_2_at_its_path() {
    let dir = tempfile::tempdir().unwrap();
    let package = package(dir.path());
    // `python` is the grader's name; the format's code is `python3`.
    std::fs::rename(
        package.join("include/python3"),
        package.join("include/python"),
    )
    .unwrap();
    let (code, _, stderr) = verify(&package, &[]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        one_error_line("include/python: `python` is not a language code of the format's table: expected `default` or one of ada, ")
            .eval(&stderr),
        "{stderr}"
    );
    std::fs::remove_dir_all(package.join("include/python")).unwrap();
    std::fs::create_dir(package.join("include/cpp/../java")).unwrap();
    let (code, _, stderr) = verify(&package, &[]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        one_error_line(
            "include/java: an empty folder: the format's included files are in non-empty folders"
        )
        .eval(&stderr),
        "{stderr}"
    );
}
