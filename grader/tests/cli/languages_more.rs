//! End-to-end tests of the languages of the package format's table beyond those of
//! languages.rs: Kotlin, Scala, C# (Mono), Haskell, OCaml, Ruby, PHP, Common Lisp (SBCL),
//! Prolog (SWI), Fortran, Ada, Objective-C (GNUstep) and COBOL (GnuCOBOL). Each through
//! `grader test` in `strict` on flip: a correct solution gets `AC`, a wrong one `WA`, a
//! crash `RE` with the runtime's own words, a source that does not compile `CE` in the
//! compiler's; the runtimes whose memory is their own (a heap flag, a lifted limit) still
//! get `MLE` and `TLE`; the format's other C++ and Python extensions are read; and a
//! package with a submission in each language verifies by their extensions. A test whose
//! toolchain this machine lacks fails in CI and is skipped elsewhere, naming the package
//! (`has_tools`); `.ci/run` installs them. (That a missing toolchain is exit 2 naming the
//! table's package is languages.rs's test; the package of each language is checked in the
//! table's own unit tests.)

use std::fs;

use testkit::packages::fixture as package;
use testkit::paths::fixture;
use testkit::tools::has_tools;

use crate::languages::Lab;

/// One language's three flip programs: `ac_every_set.EXT`, `wa_one_more.EXT` and the
/// crash `CRASH.EXT`, whose `RE` message holds `says`.
struct Flips {
    language: &'static str,
    extension: &'static str,
    /// The programs it needs, each with the Debian package that installs it.
    tools: &'static [(&'static str, &'static str)],
    crash: &'static str,
    says: &'static str,
}

impl Flips {
    /// Grades the three programs, unless the toolchain is missing (outside CI).
    fn judged(&self, test: &str) {
        if !has_tools(test, self.tools) {
            return;
        }
        let lab = Lab::new();
        let name = |stem: &str| format!("{stem}.{}", self.extension);
        lab.expect(&name("ac_every_set"), &[], self.language, ["AC", "AC"], "");
        lab.expect(
            &name("wa_one_more"),
            &[],
            self.language,
            ["WA", "AC"],
            "expected `4`, got `5`",
        );
        lab.expect(
            &name(self.crash),
            &[],
            self.language,
            ["RE", "RE"],
            self.says,
        );
    }
}

const KOTLIN: &[(&str, &str)] = &[("kotlinc", "kotlin"), ("java", "kotlin")];
const SCALA: &[(&str, &str)] = &[("scalac", "scala"), ("java", "scala")];
const CSHARP: &[(&str, &str)] = &[("mcs", "mono-mcs"), ("mono", "mono-mcs")];
const HASKELL: &[(&str, &str)] = &[("ghc", "ghc")];
const OCAML: &[(&str, &str)] = &[("ocamlopt", "ocaml-nox")];
const RUBY: &[(&str, &str)] = &[("ruby", "ruby")];
const PHP: &[(&str, &str)] = &[("php", "php-cli")];
const LISP: &[(&str, &str)] = &[("sbcl", "sbcl")];
const PROLOG: &[(&str, &str)] = &[("swipl", "swi-prolog-nox")];
const FORTRAN: &[(&str, &str)] = &[("gfortran", "gfortran")];
const ADA: &[(&str, &str)] = &[("gnatmake", "gnat")];
const OBJECTIVE_C: &[(&str, &str)] = &[("gnustep-config", "libgnustep-base-dev")];
const COBOL: &[(&str, &str)] = &[("cobc", "gnucobol3")];

#[test]
fn kotlin_compiled_to_a_jar_run_by_its_main_class() {
    // `fun main` in re_fifth_row.kt is the class Re_fifth_rowKt: the jar names it.
    Flips {
        language: "kotlin",
        extension: "kt",
        tools: KOTLIN,
        crash: "re_fifth_row",
        says: "exit status 1: java.lang.IndexOutOfBoundsException: Index 4 out of bounds",
    }
    .judged("kotlin_compiled_to_a_jar_run_by_its_main_class");
}

#[test]
fn kotlin_of_later_versions_calls_what_they_added() {
    if !has_tools("kotlin_of_later_versions_calls_what_they_added", KOTLIN) {
        return;
    }
    let lab = Lab::new();
    // `readln()`, `Char.code`, `lowercase()` and `lowercaseChar()`, which Debian 12's
    // Kotlin 1.3 lacks.
    lab.expect("ac_later_kotlin.kt", &[], "kotlin", ["AC", "AC"], "");
    // A source's own `readln` is the one it calls, beside those of later versions.
    let dir = tempfile::tempdir().unwrap();
    let own = dir.path().join("own.kt");
    fs::write(
        &own,
        "private fun readln() = readLine()!!.trim() + \"!\"\n\nfun main() {\n    println(readln() + 'a'.code)\n}\n",
    )
    .unwrap();
    let (report, _) = lab.test(&own, &[]);
    assert_eq!(report["verdict"], "WA", "{report:#}");
    assert_eq!(
        report["cases"][0]["message"], "expected `4`, got `bwwb!97`",
        "{report:#}"
    );
}

#[test]
fn scala_with_its_library_beside_the_jar() {
    Flips {
        language: "scala",
        extension: "scala",
        tools: SCALA,
        crash: "re_fifth_row",
        says: "exit status 1: java.lang.ArrayIndexOutOfBoundsException: Index 4 out of bounds",
    }
    .judged("scala_with_its_library_beside_the_jar");
}

#[test]
fn csharp_on_mono() {
    Flips {
        language: "csharp",
        extension: "cs",
        tools: CSHARP,
        crash: "re_fifth_row",
        says: "exit status 1: System.IndexOutOfRangeException: Index was outside the bounds",
    }
    .judged("csharp_on_mono");
}

#[test]
fn haskell_compiled_by_ghc() {
    Flips {
        language: "haskell",
        extension: "hs",
        tools: HASKELL,
        crash: "re_fifth_row",
        says: "exit status 1: Prelude.!!: index too large",
    }
    .judged("haskell_compiled_by_ghc");
}

#[test]
fn ocaml_native() {
    Flips {
        language: "ocaml",
        extension: "ml",
        tools: OCAML,
        crash: "re_fifth_row",
        says: "exit status 2: exception Invalid_argument(\"index out of bounds\")",
    }
    .judged("ocaml_native");
}

#[test]
fn ruby() {
    Flips {
        language: "ruby",
        extension: "rb",
        tools: RUBY,
        crash: "re_fifth_row",
        says: "exit status 1: NoMethodError: undefined method `[]' for nil:NilClass",
    }
    .judged("ruby");
}

#[test]
fn php() {
    Flips {
        language: "php",
        extension: "php",
        tools: PHP,
        crash: "re_div_zero",
        says: "exit status 255: Uncaught DivisionByZeroError: Division by zero",
    }
    .judged("php");
}

#[test]
fn common_lisp_on_sbcl() {
    // A read past the input is an error that ends the run with status 1 (SBCL's
    // `--script` would end it in silence with status 0, a `WA`).
    Flips {
        language: "lisp",
        extension: "lisp",
        tools: LISP,
        crash: "re_fifth_row",
        says: "exit status 1: END-OF-FILE: end of file on",
    }
    .judged("common_lisp_on_sbcl");
}

#[test]
fn prolog_on_swi() {
    Flips {
        language: "prolog",
        extension: "pl",
        tools: PROLOG,
        crash: "re_div_zero",
        says: "exit status 2: Arithmetic: evaluation error: `zero_divisor'",
    }
    .judged("prolog_on_swi");
}

#[test]
fn fortran() {
    Flips {
        language: "fortran",
        extension: "f90",
        tools: FORTRAN,
        crash: "re_fifth_row",
        says: "exit status 2: Fortran runtime error: End of file",
    }
    .judged("fortran");
}

#[test]
fn ada_whatever_the_file_is_called() {
    // ac_every_set.adb holds `procedure Flip`: GNAT warns of the name, and builds it.
    Flips {
        language: "ada",
        extension: "adb",
        tools: ADA,
        crash: "re_fifth_row",
        says: "exit status 1: raised ADA.IO_EXCEPTIONS.END_ERROR",
    }
    .judged("ada_whatever_the_file_is_called");
}

#[test]
fn objective_c_with_foundation() {
    Flips {
        language: "objectivec",
        extension: "m",
        tools: OBJECTIVE_C,
        crash: "re_fifth_row",
        says: "exit status 1: Uncaught exception NSRangeException",
    }
    .judged("objective_c_with_foundation");
}

#[test]
fn cobol() {
    Flips {
        language: "cobol",
        extension: "cob",
        tools: COBOL,
        crash: "re_no_such_program",
        says: "exit status 1: libcob: error: module 'NOSUCHPROGRAM' not found",
    }
    .judged("cobol");
}

#[test]
fn a_source_that_does_not_compile_is_ce_in_the_compiler_s_words() {
    let all: Vec<(&str, &str)> = [KOTLIN, RUBY, PHP, LISP, HASKELL].concat();
    if !has_tools(
        "a_source_that_does_not_compile_is_ce_in_the_compiler_s_words",
        &all,
    ) {
        return;
    }
    let lab = Lab::new();
    let dir = tempfile::tempdir().unwrap();
    // The message starts with the compiler's own words (no JVM warning ahead of
    // kotlinc's), naming the source by its name; Ruby's and PHP's syntax checks and
    // SBCL's reader are compiles too: one `CE`, not an `RE` on every case.
    for (file, text, starts) in [
        (
            "typo.kt",
            "fun main() {\n    val x: Int = \"a\"\n}\n",
            "typo.kt:2:18: error: type mismatch",
        ),
        ("typo.rb", "puts (1 +\n", "typo.rb:1: syntax error"),
        (
            "typo.php",
            "<?php\necho 1 +;\n",
            "Parse error: syntax error, unexpected token \";\" in typo.php on line 2",
        ),
        (
            "typo.lisp",
            "(defun f (x)\n",
            "; \n; caught ERROR:\n;   READ error",
        ),
        ("typo.hs", "main = putStrLn 1\n", "\ntypo.hs:1:17: error:"),
    ] {
        let source = dir.path().join(file);
        fs::write(&source, text).unwrap();
        let (report, status) = lab.test(&source, &[]);
        assert_eq!(
            (report["verdict"].as_str(), status),
            (Some("CE"), 1),
            "{file}"
        );
        let said = report["compile_error"].as_str().unwrap();
        assert!(said.starts_with(starts), "{file}: {said}");
    }
}

#[test]
fn the_format_s_other_extensions_of_cpp_and_python() {
    // `.C` and `.c++` are C++, `.py3` Python 3, as the format's table says.
    let lab = Lab::new();
    let dir = tempfile::tempdir().unwrap();
    for (from, to, language) in [
        ("ac_rows.cpp", "rows.C", "cpp"),
        ("ac_rows.cpp", "rows.c++", "cpp"),
        ("ac_rows.py", "rows.py3", "python"),
    ] {
        let source = dir.path().join(to);
        fs::copy(fixture("flip").join(from), &source).unwrap();
        let (report, status) = lab.test(&source, &[]);
        assert_eq!(report["language"], language, "{to}: {report:#}");
        assert_eq!(
            (report["verdict"].as_str(), status),
            (Some("AC"), 0),
            "{to}"
        );
    }
}

#[test]
fn runtimes_that_keep_their_own_memory_still_get_mle_and_tle() {
    let all: Vec<(&str, &str)> = [HASKELL, PHP, LISP, CSHARP, PROLOG].concat();
    if !has_tools(
        "runtimes_that_keep_their_own_memory_still_get_mle_and_tle",
        &all,
    ) {
        return;
    }
    let lab = Lab::new();
    let limits = ["--memory-limit", "128", "--time-limit", "2"];
    // GHC's heap is bounded by the limit (+RTS -M), PHP's own limit is lifted, SBCL's and
    // Mono's heaps grow: the box sees each pass the limit.
    for (name, language) in [
        ("mle_hog.hs", "haskell"),
        ("mle_hog.php", "php"),
        ("mle_hog.lisp", "lisp"),
        ("mle_hog.cs", "csharp"),
    ] {
        lab.expect(
            name,
            &limits,
            language,
            ["MLE", "MLE"],
            "over the 128 MiB limit",
        );
    }
    for (name, language) in [
        ("tle_spin.hs", "haskell"),
        ("tle_spin.lisp", "lisp"),
        ("tle_spin.pl", "prolog"),
    ] {
        lab.expect(
            name,
            &limits,
            language,
            ["TLE", "TLE"],
            "over the 2 s limit",
        );
    }
}

#[test]
fn a_package_finds_each_language_by_its_extension() {
    let all: Vec<(&str, &str)> = [
        KOTLIN,
        SCALA,
        CSHARP,
        HASKELL,
        OCAML,
        RUBY,
        PHP,
        LISP,
        PROLOG,
        FORTRAN,
        ADA,
        OBJECTIVE_C,
        COBOL,
    ]
    .concat();
    if !has_tools("a_package_finds_each_language_by_its_extension", &all) {
        return;
    }
    // `greetings` has an accepted submission in each language, and wrong and crashing
    // ones in Kotlin, Haskell and Ruby.
    let lab = Lab::new();
    let output = lab
        .grader()
        .args(["package", "verify", "--jobs", "2"])
        .arg(package("greetings"))
        .output()
        .unwrap();
    let table = String::from_utf8(output.stdout).unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{table}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(!table.contains("not supported"), "{table}");
    for file in [
        "Greet.scala",
        "greet.adb",
        "greet.cob",
        "greet.cs",
        "greet.f90",
        "greet.hs",
        "greet.kt",
        "greet.lisp",
        "greet.m",
        "greet.ml",
        "greet.php",
        "greet.pl",
        "greet.rb",
    ] {
        let row = format!("accepted/{file} ");
        let line = table.lines().find(|l| l.starts_with(&row));
        let cells: Vec<&str> = line
            .unwrap_or_else(|| panic!("no row for {file}:\n{table}"))
            .split_whitespace()
            .collect();
        assert_eq!(cells[1..3], ["AC", "AC"], "{table}");
    }
    for (file, verdict, says) in [
        (
            "wrong_answer/no_comma.kt",
            "WA",
            "expected `Hello,`, got `Hello`",
        ),
        (
            "wrong_answer/says_hi.hs",
            "WA",
            "expected `Hello,`, got `Hi,`",
        ),
        (
            "run_time_error/no_second_line.kt",
            "RTE",
            "kotlin.KotlinNullPointerException",
        ),
        (
            "run_time_error/no_second_line.rb",
            "RTE",
            "NoMethodError: undefined method `strip' for nil:NilClass",
        ),
    ] {
        let line = table
            .lines()
            .find(|l| l.starts_with(&format!("{file} ")))
            .unwrap_or_else(|| panic!("no row for {file}:\n{table}"));
        let cells: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(cells[1..3], [verdict, verdict], "{table}");
        assert!(line.contains(says), "{line}");
    }
    assert!(table.contains("every submission got the verdict of its folder"));
}
