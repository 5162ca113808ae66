//! `grader package verify` on programs as the format's tools take them beyond one source
//! file: a folder of several files compiled or run together (problemtools' rules for the
//! language, a tie between two, the main file and the folders inside), OCaml and Ada
//! folders of several modules or units (skipped outside CI without their toolchains,
//! naming the Debian package), a folder with `build` and `run` scripts (DOMjudge's and
//! BAPCtools'), a shell script without a `#!` line, and BAPCtools' `.disabled`
//! submissions, skipped and said. On copies of the fixture `sum` (`0.5 0.25` is `0.75`).

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use predicates::Predicate as _;
use testkit::files::write;
use testkit::grader::one_error_line;
use testkit::packages::{copy, row, verify};

use super::has_tools;

/// `sum` with its submissions replaced by `files` (`FOLDER/NAME...`, text).
fn package(dir: &Path, files: &[(&str, &str)]) -> PathBuf {
    let package = copy("sum", dir);
    fs::remove_dir_all(package.join("submissions")).unwrap();
    for (name, text) in files {
        write(&package, format!("submissions/{name}"), text);
    }
    package
}

/// Makes `path` executable.
fn executable(path: &Path) {
    fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
}

const ADD_H: &str = "double add(double a, double b);\n";
const ADD_C: &str = "#include \"add.h\"\ndouble add(double a, double b) { return a + b; }\n";
const MAIN_C: &str = "#include <stdio.h>\n#include \"add.h\"\n\
    int main(void) { double a, b; scanf(\"%lf %lf\", &a, &b); printf(\"%.10g\\n\", add(a, b)); return 0; }\n";

/// A C program of two sources and a header, a Python one of two modules (the main file
/// `main.py` though not first by name), a C++ one of two sources that subtracts, a
/// folder built by a `build` script without a `#!` line (not executable: run under
/// `sh`) whose `run` starts what it built, a `.sh` script without `#!` and an executable
/// without `#!` (both run under `sh`), an input validator that is such a script too, and
/// two `.disabled` submissions: every one gets its folder's verdict, the disabled ones
/// are skipped and said.
#[test]
fn folders_scripts_and_disabled_submissions_run_as_the_formats_tools_run_them() {
    let dir = tempfile::tempdir().unwrap();
    let package = package(
        dir.path(),
        &[
            ("accepted/two_c/add.c", ADD_C),
            ("accepted/two_c/add.h", ADD_H),
            ("accepted/two_c/main.c", MAIN_C),
            (
                "accepted/two_py/helper.py",
                "def add(a, b):\n    return a + b\n",
            ),
            (
                "accepted/two_py/main.py",
                "from helper import add\na, b = map(float, input().split())\nprint(add(a, b))\n",
            ),
            ("accepted/two_py/notes.txt", "not a program\n"),
            ("accepted/built/add.c", ADD_C),
            ("accepted/built/add.h", ADD_H),
            ("accepted/built/main.c", MAIN_C),
            ("accepted/built/build", "cc -O2 -o sum main.c add.c\n"),
            ("accepted/built/run", "#!/bin/sh\nexec \"${0%/*}/sum\"\n"),
            (
                "accepted/plain.sh",
                "read a b\nawk -v a=\"$a\" -v b=\"$b\" 'BEGIN { print a + b }'\n",
            ),
            (
                "accepted/bare",
                "read a b\nawk -v a=\"$a\" -v b=\"$b\" 'BEGIN { print a + b }'\n",
            ),
            (
                "wrong_answer/two_cpp/a.cpp",
                "double sub(double a, double b) { return a - b; }\n",
            ),
            (
                "wrong_answer/two_cpp/b.cpp",
                "#include <cstdio>\ndouble sub(double, double);\n\
                 int main() { double a, b; std::scanf(\"%lf %lf\", &a, &b); std::printf(\"%g\\n\", sub(a, b)); }\n",
            ),
            ("accepted/old.py.disabled", "print('never run')\n"),
            ("wrong_answer/multi.java.disabled/A.java", "class A {}\n"),
        ],
    );
    executable(&package.join("submissions/accepted/built/run"));
    executable(&package.join("submissions/accepted/bare"));
    fs::remove_file(package.join("input_validators/validate.py")).unwrap();
    write(
        &package,
        "input_validators/validate.sh",
        "read a b\nexit 42\n",
    );
    let (code, table, stderr) = verify(&package, &[]);
    assert_eq!(code, 0, "{table}{stderr}");
    for accepted in ["two_c", "two_py", "built", "plain.sh", "bare"] {
        let row = row(&table, &format!("accepted/{accepted}"));
        assert_eq!(&row[1..3], ["AC", "AC"], "{accepted}:\n{table}");
    }
    assert_eq!(
        &row(&table, "wrong_answer/two_cpp")[1..3],
        ["WA", "WA"],
        "{table}"
    );
    assert!(
        table.contains("data: input_validators/validate.sh on every input: all accepted"),
        "{table}"
    );
    assert!(
        table.contains(
            "skipped, disabled by their names (`.disabled`): accepted/old.py.disabled, \
             wrong_answer/multi.java.disabled\n"
        ),
        "{table}"
    );
    assert!(
        table.ends_with("every submission got the verdict of its folder; 2 skipped (.disabled)\n"),
        "{table}"
    );
}

/// A Java program of two classes, the main one not first by name: the class with `main`
/// runs.
#[test]
fn a_java_folder_runs_the_class_that_declares_main() {
    let test = "a_java_folder_runs_the_class_that_declares_main";
    if !has_tools(test, &[("javac", "default-jdk-headless")]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let package = package(
        dir.path(),
        &[
            (
                "accepted/java/Adder.java",
                "public class Adder { static double add(double a, double b) { return a + b; } }\n",
            ),
            (
                "accepted/java/Solve.java",
                "import java.util.Scanner;\npublic class Solve { public static void main(String[] x) {\n\
                 Scanner in = new Scanner(System.in);\n\
                 System.out.println(Adder.add(Double.parseDouble(in.next()), Double.parseDouble(in.next()))); } }\n",
            ),
        ],
    );
    let (code, table, stderr) = verify(&package, &[]);
    assert_eq!(code, 0, "{table}{stderr}");
    assert_eq!(&row(&table, "accepted/java")[1..3], ["AC", "AC"], "{table}");
}

/// What cannot be told or built is said: a submission folder of no known language is
/// listed as not run with why, a build script that fails is the submission's `CE` (with
/// the build's words), and an input validator folder whose language cannot be told is
/// the package's fault, one line, exit 2.
#[test]
fn a_folder_that_cannot_be_told_or_built_is_said() {
    let dir = tempfile::tempdir().unwrap();
    let package = package(
        dir.path(),
        &[
            (
                "accepted/sum.py",
                "a, b = map(float, input().split())\nprint(a + b)\n",
            ),
            ("accepted/notes/a.txt", "x\n"),
            (
                "wrong_answer/broken/build",
                "echo no compiler here >&2\nexit 3\n",
            ),
            ("wrong_answer/broken/run", "#!/bin/sh\n"),
        ],
    );
    let (code, table, stderr) = verify(&package, &[]);
    assert_eq!(code, 1, "{table}{stderr}");
    let notes = row(&table, "accepted/notes");
    assert!(
        notes[2].starts_with("not run: the language cannot be told: no file of a language the grader knows (files: a.txt)"),
        "{table}"
    );
    let broken = row(&table, "wrong_answer/broken");
    assert_eq!(broken[2], "CE <- disagrees", "{table}");
    assert!(
        broken[4].contains("the build script failed (exit status 3)")
            || broken[4].contains("no compiler here"),
        "{table}"
    );
    // A validator's folder of no language, as problemtools refuses one too: the
    // package's fault.
    write(&package, "input_validators/notes/check.txt", "x\n");
    let (code, table, stderr) = verify(&package, &[]);
    assert_eq!((code, table.as_str()), (2, ""), "{stderr}");
    assert!(
        one_error_line(
            "the language cannot be told: no file of a language the grader knows \
             (files: check.txt), and no `build` or `run` script"
        )
        .eval(&stderr),
        "{stderr}"
    );
}

/// A tie between languages in a folder goes to the one of the higher priority, as
/// problemtools breaks it: C++ over C (the `.c` file, no C++, is not compiled), Python
/// over Java (the `.java` file, no Java, is not compiled).
#[test]
fn a_tie_between_languages_in_a_folder_goes_to_the_higher_priority() {
    let dir = tempfile::tempdir().unwrap();
    let package = package(
        dir.path(),
        &[
            ("accepted/c_cpp/a.c", "int class = 1; /* C, not C++ */\n"),
            (
                "accepted/c_cpp/b.cpp",
                "#include <cstdio>\nint main() { double a, b; std::scanf(\"%lf %lf\", &a, &b); \
                 std::printf(\"%.10g\\n\", a + b); }\n",
            ),
            ("accepted/py_java/Sum.java", "not java at all\n"),
            (
                "accepted/py_java/sum.py",
                "a, b = map(float, input().split())\nprint(a + b)\n",
            ),
        ],
    );
    let (code, table, stderr) = verify(&package, &[]);
    assert_eq!(code, 0, "{table}{stderr}");
    for tie in ["c_cpp", "py_java"] {
        let row = row(&table, &format!("accepted/{tie}"));
        assert_eq!(&row[1..3], ["AC", "AC"], "{tie}:\n{table}");
    }
}

/// The folders inside a program's folder are part of it, as problemtools reads one: a C
/// program whose header is in `include/` and one source in `lib/`, a Python one whose
/// module is in `lib/`, and a built one whose `build` compiles `src/` into `bin/`, which
/// its `run` starts. A link to a folder is not followed: the submission is not run, and
/// the row says why.
#[test]
fn folders_inside_a_program_s_folder_are_part_of_it() {
    let dir = tempfile::tempdir().unwrap();
    let nested_main = MAIN_C.replace("\"add.h\"", "\"include/add.h\"");
    let nested_add = ADD_C.replace("\"add.h\"", "\"../include/add.h\"");
    let package = package(
        dir.path(),
        &[
            ("accepted/nested_c/include/add.h", ADD_H),
            ("accepted/nested_c/lib/add.c", &nested_add),
            ("accepted/nested_c/main.c", &nested_main),
            (
                "accepted/nested_py/lib/helper.py",
                "def add(a, b):\n    return a + b\n",
            ),
            (
                "accepted/nested_py/main.py",
                "from lib.helper import add\na, b = map(float, input().split())\nprint(add(a, b))\n",
            ),
            ("accepted/built/src/add.c", ADD_C),
            ("accepted/built/src/add.h", ADD_H),
            ("accepted/built/src/main.c", MAIN_C),
            (
                "accepted/built/build",
                "mkdir bin && cc -O2 -o bin/sum src/main.c src/add.c\n",
            ),
            (
                "accepted/built/run",
                "#!/bin/sh\nexec \"${0%/*}/bin/sum\"\n",
            ),
            ("wrong_answer/linked/main.py", "print(0)\n"),
        ],
    );
    executable(&package.join("submissions/accepted/built/run"));
    let linked = package.join("submissions/wrong_answer/linked");
    std::os::unix::fs::symlink(dir.path(), linked.join("outside")).unwrap();
    let (code, table, stderr) = verify(&package, &[]);
    assert_eq!(code, 0, "{table}{stderr}");
    for nested in ["nested_c", "nested_py", "built"] {
        let row = row(&table, &format!("accepted/{nested}"));
        assert_eq!(&row[1..3], ["AC", "AC"], "{nested}:\n{table}");
    }
    let row = row(&table, "wrong_answer/linked");
    assert!(
        row[2].starts_with("not run: ")
            && row[2].contains("linked/outside: is a link to a folder (not followed)"),
        "{table}"
    );
}

/// An OCaml program of two modules, the main one first by name though it uses the other:
/// every source is compiled, in the order of their dependencies.
#[test]
fn an_ocaml_folder_compiles_every_module() {
    let test = "an_ocaml_folder_compiles_every_module";
    if !has_tools(
        test,
        &[("ocamlopt", "ocaml-nox"), ("ocamldep", "ocaml-nox")],
    ) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let package = package(
        dir.path(),
        &[
            (
                "accepted/ocaml/main.ml",
                "let () = Scanf.scanf \" %f %f\" (fun a b -> Printf.printf \"%.10g\\n\" (Util.add a b))\n",
            ),
            ("accepted/ocaml/util.ml", "let add a b = a +. b\n"),
        ],
    );
    let (code, table, stderr) = verify(&package, &[]);
    assert_eq!(code, 0, "{table}{stderr}");
    assert_eq!(
        &row(&table, "accepted/ocaml")[1..3],
        ["AC", "AC"],
        "{table}"
    );
}

/// An Ada program of a main procedure and a package (its spec and body): gnatmake finds
/// the package beside the main unit.
#[test]
fn an_ada_folder_compiles_its_units() {
    let test = "an_ada_folder_compiles_its_units";
    if !has_tools(test, &[("gnatmake", "gnat")]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let package = package(
        dir.path(),
        &[
            (
                "accepted/ada/adder.ads",
                "package Adder is\n   function Add (A, B : Long_Float) return Long_Float;\nend Adder;\n",
            ),
            (
                "accepted/ada/adder.adb",
                "package body Adder is\n   function Add (A, B : Long_Float) return Long_Float is\n   \
                 begin\n      return A + B;\n   end Add;\nend Adder;\n",
            ),
            (
                "accepted/ada/main.adb",
                "with Ada.Long_Float_Text_IO; use Ada.Long_Float_Text_IO;\nwith Ada.Text_IO;\n\
                 with Adder;\nprocedure Main is\n   A, B : Long_Float;\nbegin\n   Get (A);\n   \
                 Get (B);\n   Put (Adder.Add (A, B), Fore => 1, Aft => 6, Exp => 0);\n   \
                 Ada.Text_IO.New_Line;\nend Main;\n",
            ),
        ],
    );
    let (code, table, stderr) = verify(&package, &[]);
    assert_eq!(code, 0, "{table}{stderr}");
    assert_eq!(&row(&table, "accepted/ada")[1..3], ["AC", "AC"], "{table}");
}

/// 2023-07's `submissions.yaml` says a submission's `language` (a code of the format's
/// table) and `entrypoint` (its main file, or class): a folder is built in that language
/// whatever most of its files are, from that file; a language the grader does not run is
/// said, and a code of no table, or two entries that disagree, is exit 2 at its place.
#[test]
fn submissions_yaml_chooses_a_folders_language_and_main_file() {
    let dir = tempfile::tempdir().unwrap();
    let right = "a, b = map(float, input().split())\nprint(a + b)\n";
    let package = package(
        dir.path(),
        &[
            // By the default rule `main.py` would be the main file: a wrong one.
            ("accepted/pick/main.py", "print(0)\n"),
            ("accepted/pick/solve.py", right),
            // Most of its files are C, which make no program.
            ("accepted/mixed/a.c", "int a;\n"),
            ("accepted/mixed/b.c", "int b;\n"),
            ("accepted/mixed/sum.py", right),
            ("wrong_answer/sharp.py", "print(0)\n"),
        ],
    );
    let yaml = "accepted/pick:\n  entrypoint: solve.py\naccepted/mixed:\n  language: python3\n\
                wrong_answer/sharp.py:\n  language: fsharp\n";
    write(&package, "submissions/submissions.yaml", yaml);
    let (code, table, stderr) = verify(&package, &[]);
    assert_eq!(code, 0, "{table}{stderr}");
    for accepted in ["accepted/pick", "accepted/mixed"] {
        assert_eq!(&row(&table, accepted)[1..3], ["AC", "AC"], "{table}");
    }
    assert!(
        table.contains("language `fsharp` (submissions.yaml): not one the grader runs"),
        "{table}"
    );
    // An entry point that names no file of it: not run, and said.
    write(
        &package,
        "submissions/submissions.yaml",
        yaml.replace("solve.py", "Solve"),
    );
    let (_, table, _) = verify(&package, &[]);
    assert!(
        table.contains("entrypoint `Solve` (submissions.yaml) names no file of it"),
        "{table}"
    );
    // A submissions.yaml refused: exit 2, one line saying `error`.
    let refused = |yaml: &str, error: &str| {
        write(&package, "submissions/submissions.yaml", yaml);
        let (code, _, stderr) = verify(&package, &[]);
        assert_eq!(code, 2, "{stderr}");
        assert!(one_error_line(error).eval(&stderr), "{stderr}");
    };
    // `python` is the grader's name, not the format's code.
    refused(
        "accepted/mixed:\n  language: python\n",
        "submissions.yaml:2:3: `accepted/mixed`: `language`: `python` is not a language code of the format's table",
    );
    // Two entries that give one submission two languages.
    refused(
        "accepted:\n  language: c\naccepted/mixed:\n  language: python3\n",
        "submissions.yaml:4:3: `language` `python3` for accepted/mixed, which 2:3 gives `c`",
    );
}
