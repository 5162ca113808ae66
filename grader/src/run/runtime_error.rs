//! A runtime's own account of why a program died, found in what it printed: a Java
//! exception, a Python or Node error (or V8 giving up), a Go panic, a Free Pascal runtime error, a Rust
//! panic, a C++ exception that ended in `terminate`; a Ruby, PHP, OCaml, Haskell, Common
//! Lisp (SBCL), Prolog (SWI), Fortran, Ada, Objective-C (GNUstep) or COBOL (GnuCOBOL) one. The `RE` message shows it beside the
//! exit status, so a report says `java.lang.ArrayIndexOutOfBoundsException: Index 5 out of
//! bounds for length 4` where it would say only `exit status 1`.
//!
//! Runtimes do not agree on where they write: the JVM reports its own start-up failures on
//! standard output, so standard error is searched first, then the end of standard output.
//! Pure: text in, a line out.

use reference::visible;

/// How much of the end of standard output is searched: a runtime's last words come last.
const STDOUT_TAIL: usize = 4096;
/// The longest account kept, in characters: one line of a report.
const LONGEST: usize = 200;

/// The runtime's own account of the crash in `stderr` or, failing that, at the end of
/// `stdout`; `None` when neither holds one.
pub(crate) fn account(stderr: &[u8], stdout: &[u8]) -> Option<String> {
    let tail = &stdout[stdout.len().saturating_sub(STDOUT_TAIL)..];
    [stderr, tail].into_iter().find_map(|text| {
        let text = String::from_utf8_lossy(text);
        let lines: Vec<&str> = text.lines().collect();
        found(&lines).map(|line| shortened(&visible::escape(line.trim().as_bytes())))
    })
}

/// One runtime's form of account: its words found in the lines, or `None`.
type Form = fn(&[&str]) -> Option<String>;

/// The first account any runtime's form finds in `lines`, most specific forms first.
fn found(lines: &[&str]) -> Option<String> {
    let forms: [Form; 19] = [
        java,
        jvm_start,
        go,
        v8,
        rust,
        cpp,
        pascal,
        traceback,
        ruby,
        node,
        fatal,
        ghc,
        sbcl,
        prolog,
        fortran,
        ada,
        objective_c,
        cobol,
        named_error_or_none,
    ];
    forms.iter().find_map(|form| form(lines))
}

/// [`named_error`], the last form: the least specific.
fn named_error_or_none(lines: &[&str]) -> Option<String> {
    named_error(lines)
}

/// The first non-empty line after line `i`.
fn next_said<'a>(lines: &[&'a str], i: usize) -> Option<&'a str> {
    lines[i + 1..]
        .iter()
        .find(|l| !l.trim().is_empty())
        .copied()
}

/// Java: `Exception in thread "main" java.lang.X: why`.
fn java(lines: &[&str]) -> Option<String> {
    lines.iter().find_map(|line| {
        let rest = line.strip_prefix("Exception in thread \"")?;
        let (_, exception) = rest.split_once("\" ")?;
        Some(exception.to_owned())
    })
}

/// The JVM's own failure to start (on standard output): the line below says why. Or its
/// launcher's: no such class, or no `main` in it.
fn jvm_start(lines: &[&str]) -> Option<String> {
    let launcher = lines.iter().find(|l| {
        l.starts_with("Error: Could not find or load main class ")
            || l.starts_with("Error: Main method not found in class ")
    });
    if let Some(line) = launcher {
        return Some(line.trim_start_matches("Error: ").to_owned());
    }
    let i = lines
        .iter()
        .position(|l| l.starts_with("Error occurred during initialization of VM"))?;
    Some(match next_said(lines, i) {
        Some(why) => format!("the JVM did not start: {}", why.trim()),
        None => "the JVM did not start".to_owned(),
    })
}

/// Go: `panic: why` or `fatal error: why`.
fn go(lines: &[&str]) -> Option<String> {
    lines
        .iter()
        .find(|l| l.starts_with("panic: ") || l.starts_with("fatal error: "))
        .map(|l| (*l).to_owned())
}

/// Node's engine, V8, giving up (`FATAL ERROR: Reached heap limit ...`).
fn v8(lines: &[&str]) -> Option<String> {
    lines
        .iter()
        .find(|l| l.starts_with("FATAL ERROR: "))
        .map(|l| (*l).to_owned())
}

/// Rust: `thread 'main' panicked at src/main.rs:3:5:` and the message below it (or on
/// the same line, before Rust 1.73).
fn rust(lines: &[&str]) -> Option<String> {
    let i = lines
        .iter()
        .position(|l| l.starts_with("thread '") && l.contains("' panicked at "))?;
    let (_, at) = lines[i].split_once("' panicked at ")?;
    match at.strip_suffix(':') {
        Some(place) => Some(format!(
            "panicked at {place}: {}",
            next_said(lines, i).unwrap_or_default().trim()
        )),
        None => Some(format!("panicked at {at}")),
    }
}

/// C++: `terminate called after throwing an instance of 'std::out_of_range'` and its
/// `what():` line.
fn cpp(lines: &[&str]) -> Option<String> {
    let i = lines
        .iter()
        .position(|l| l.starts_with("terminate called after throwing an instance of "))?;
    let kind = lines[i]
        .trim_start_matches("terminate called after throwing an instance of ")
        .trim_matches('\'');
    let what = lines
        .get(i + 1)
        .and_then(|l| l.trim_start().strip_prefix("what():"))
        .map(str::trim);
    Some(match what {
        Some(what) => format!("{kind}: {what}"),
        None => kind.to_owned(),
    })
}

/// Free Pascal: an exception of `sysutils` (`An unhandled exception occurred at $...:` and
/// `EDivByZero: Division by zero` below), else `Runtime error 200 at $...`, named.
fn pascal(lines: &[&str]) -> Option<String> {
    if let Some(i) = lines
        .iter()
        .position(|l| l.starts_with("An unhandled exception occurred at "))
        && let Some(what) = next_said(lines, i)
    {
        return Some(what.trim().to_owned());
    }
    lines.iter().find_map(|line| {
        let rest = line.strip_prefix("Runtime error ")?;
        let (code, _) = rest.split_once(" at ").unwrap_or((rest, ""));
        let code: u32 = code.trim().parse().ok()?;
        Some(match pascal_error(code) {
            Some(name) => format!("Runtime error {code} ({name})"),
            None => format!("Runtime error {code}"),
        })
    })
}

/// The names of Free Pascal's common run-time errors.
fn pascal_error(code: u32) -> Option<&'static str> {
    Some(match code {
        200 => "division by zero",
        201 => "range check error",
        202 => "stack overflow",
        203 => "heap overflow",
        204 => "invalid pointer operation",
        205 => "floating point overflow",
        206 => "floating point underflow",
        207 => "invalid floating point operation",
        215 => "arithmetic overflow",
        216 => "general protection fault",
        _ => return None,
    })
}

/// Python: `Traceback (most recent call last):`, then the last line at the left margin.
fn traceback(lines: &[&str]) -> Option<String> {
    let i = lines
        .iter()
        .rposition(|l| l.starts_with("Traceback (most recent call last)"))?;
    lines[i + 1..]
        .iter()
        .rev()
        .find(|l| !l.trim().is_empty() && !l.starts_with(char::is_whitespace))
        .map(|l| (*l).to_owned())
}

/// Ruby: ``file.rb:4:in `block in <main>': undefined method ... (NoMethodError)``, its
/// first line (the carets Ruby draws under the source come after it).
fn ruby(lines: &[&str]) -> Option<String> {
    lines.iter().find_map(|line| {
        let (_, rest) = line.split_once(":in `")?;
        let (_, said) = rest.split_once("': ")?;
        let (message, class) = said.strip_suffix(')')?.rsplit_once(" (")?;
        let named = !class.is_empty()
            && class.starts_with(|c: char| c.is_ascii_uppercase())
            && class.chars().all(|c| c.is_ascii_alphanumeric() || c == ':');
        named.then(|| format!("{class}: {message}"))
    })
}

/// PHP (`PHP Fatal error:  Uncaught DivisionByZeroError: ...`) and OCaml (`Fatal error:
/// exception Not_found`): what follows `Fatal error:`.
fn fatal(lines: &[&str]) -> Option<String> {
    lines.iter().find_map(|line| {
        let rest = line
            .strip_prefix("PHP Fatal error:")
            .or_else(|| line.strip_prefix("Fatal error:"))?;
        Some(rest.trim().to_owned())
    })
}

/// Haskell (GHC's runtime): `program: Prelude.head: empty list`, by the name the grader
/// gives every compiled program.
fn ghc(lines: &[&str]) -> Option<String> {
    lines
        .iter()
        .find_map(|line| line.strip_prefix("program: "))
        .map(|said| said.trim().to_owned())
}

/// Common Lisp (SBCL): `Unhandled END-OF-FILE in thread #<...>:` and, below, what the
/// condition says.
fn sbcl(lines: &[&str]) -> Option<String> {
    let i = lines
        .iter()
        .position(|l| l.starts_with("Unhandled ") && l.contains(" in thread "))?;
    let (kind, _) = lines[i]["Unhandled ".len()..].split_once(" in thread ")?;
    // The thread's name may go on over the next lines, up to the one ending in `>:`.
    let end = (i..lines.len()).find(|&j| lines[j].trim_end().ends_with(">:"))?;
    Some(match next_said(lines, end) {
        Some(what) => format!("{kind}: {}", what.trim()),
        None => kind.to_owned(),
    })
}

/// Prolog (SWI): `ERROR: -g main: Arithmetic: evaluation error: zero_divisor`, without the
/// goal that raised it; or the warning that the goal failed.
fn prolog(lines: &[&str]) -> Option<String> {
    lines.iter().find_map(|line| {
        let said = line.strip_prefix("ERROR: ").or_else(|| {
            line.strip_prefix("Warning: ")
                .filter(|l| l.to_ascii_lowercase().contains("goal ("))
        })?;
        let said = said.strip_prefix("-g main: ").unwrap_or(said);
        Some(said.trim().to_owned())
    })
}

/// Fortran (gfortran): `Fortran runtime error: End of file`.
fn fortran(lines: &[&str]) -> Option<String> {
    lines
        .iter()
        .find(|l| l.starts_with("Fortran runtime error: "))
        .map(|l| (*l).to_owned())
}

/// Ada (GNAT): `raised ADA.IO_EXCEPTIONS.END_ERROR : a-tigeli.adb:96`.
fn ada(lines: &[&str]) -> Option<String> {
    lines
        .iter()
        .find(|l| l.starts_with("raised ") && l.contains(" : "))
        .map(|l| (*l).to_owned())
}

/// Objective-C (GNUstep): `...: Uncaught exception NSRangeException, reason: ...`.
fn objective_c(lines: &[&str]) -> Option<String> {
    lines.iter().find_map(|line| {
        let at = line.find("Uncaught exception ")?;
        Some(line[at..].trim().to_owned())
    })
}

/// COBOL (GnuCOBOL's runtime): `libcob: error: module 'X' not found`, after the place
/// in the source when it knows it.
fn cobol(lines: &[&str]) -> Option<String> {
    lines.iter().find_map(|line| {
        let at = line.find("libcob: ")?;
        Some(line[at..].trim().to_owned())
    })
}

/// Node: the source line, a line of carets under it, then the error (`TypeError: ...`, or
/// whatever value was thrown).
fn node(lines: &[&str]) -> Option<String> {
    let i = lines
        .iter()
        .position(|l| !l.trim().is_empty() && l.trim().chars().all(|c| c == '^'))?;
    next_said(lines, i).map(|l| l.trim().to_owned())
}

/// Any runtime: the last line at the left margin that names an error
/// (`ZeroDivisionError: division by zero`, `RangeError: ...`).
fn named_error(lines: &[&str]) -> Option<String> {
    lines
        .iter()
        .rev()
        .find(|line| {
            let name = line.split(':').next().unwrap_or_default();
            let name = name.rsplit('.').next().unwrap_or_default();
            (name.ends_with("Error") || name.ends_with("Exception"))
                && name.len() > "Error".len()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && line.starts_with(|c: char| c.is_ascii_alphabetic())
        })
        .map(|l| (*l).to_owned())
}

/// `line`, cut to [`LONGEST`] characters.
fn shortened(line: &str) -> String {
    if line.chars().count() <= LONGEST {
        return line.to_owned();
    }
    let mut cut: String = line.chars().take(LONGEST).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(stderr: &str) -> Option<String> {
        account(stderr.as_bytes(), b"")
    }

    #[test]
    fn each_runtimes_own_words() {
        let table = [
            (
                "Exception in thread \"main\" java.lang.ArrayIndexOutOfBoundsException: Index 5 out of bounds for length 2\n\tat Boom.main(Boom.java:1)\n",
                "java.lang.ArrayIndexOutOfBoundsException: Index 5 out of bounds for length 2",
            ),
            (
                "/box/prog/re.js:2\nconsole.log(a.b);\n              ^\n\nTypeError: Cannot read properties of null (reading 'b')\n    at Object.<anonymous> (/box/prog/re.js:2:15)\n\nNode.js v20.20.2\n",
                "TypeError: Cannot read properties of null (reading 'b')",
            ),
            (
                "Traceback (most recent call last):\n  File \"re.py\", line 2, in <module>\n    print(x[3])\nIndexError: list index out of range\n",
                "IndexError: list index out of range",
            ),
            (
                "panic: runtime error: index out of range [5] with length 1\n\ngoroutine 1 [running]:\nmain.main()\n\t/tmp/re.go:3 +0x1d\n",
                "panic: runtime error: index out of range [5] with length 1",
            ),
            (
                "Runtime error 200 at $00000000004010D2\n  $00000000004010D2\n",
                "Runtime error 200 (division by zero)",
            ),
            (
                "An unhandled exception occurred at $00000000004010D2:\nEDivByZero: Division by zero\n  $00000000004010D2\n",
                "EDivByZero: Division by zero",
            ),
            (
                "thread 'main' panicked at src/main.rs:3:5:\nindex out of bounds: the len is 1 but the index is 5\nnote: run with `RUST_BACKTRACE=1`\n",
                "panicked at src/main.rs:3:5: index out of bounds: the len is 1 but the index is 5",
            ),
            (
                "terminate called after throwing an instance of 'std::out_of_range'\n  what():  vector::_M_range_check\n",
                "std::out_of_range: vector::_M_range_check",
            ),
            (
                "ZeroDivisionError: division by zero\n",
                "ZeroDivisionError: division by zero",
            ),
            (
                "/prog/re.rb:4:in `block (2 levels) in <main>': undefined method `[]' for nil:NilClass (NoMethodError)\n\n5.times { |r| rows[r][c] }\n                   ^^^\n\tfrom /prog/re.rb:4:in `times'\n",
                "NoMethodError: undefined method `[]' for nil:NilClass",
            ),
            (
                "PHP Fatal error:  Uncaught DivisionByZeroError: Division by zero in /prog/re.php:6\nStack trace:\n#0 {main}\n",
                "Uncaught DivisionByZeroError: Division by zero in /prog/re.php:6",
            ),
            (
                "Fatal error: exception Invalid_argument(\"index out of bounds\")\n",
                "exception Invalid_argument(\"index out of bounds\")",
            ),
            (
                "program: Prelude.!!: index too large\n",
                "Prelude.!!: index too large",
            ),
            (
                "Unhandled END-OF-FILE in thread #<SB-THREAD:THREAD \"main thread\" RUNNING\n                                   {1001348003}>:\n  end of file on #<SYNONYM-STREAM :SYMBOL SB-SYS:*STDIN* {100001B4F3}>\n\nBacktrace for: #<SB-THREAD:THREAD>\n0: (SB-IMPL::READ-LINE)\n",
                "END-OF-FILE: end of file on #<SYNONYM-STREAM :SYMBOL SB-SYS:*STDIN* {100001B4F3}>",
            ),
            (
                "ERROR: -g main: Arithmetic: evaluation error: `zero_divisor'\nERROR: In:\nERROR:    [9] main\n",
                "Arithmetic: evaluation error: `zero_divisor'",
            ),
            (
                "Warning: /prog/re.pl:1:\nWarning:    Goal (initialization) raised exception:\n",
                "Goal (initialization) raised exception:",
            ),
            (
                "At line 7 of file re.f90 (unit = 5, file = 'stdin')\nFortran runtime error: End of file\n\nError termination. Backtrace:\n#0  0x7f in ???\n",
                "Fortran runtime error: End of file",
            ),
            (
                "\nraised ADA.IO_EXCEPTIONS.END_ERROR : a-tigeli.adb:96\n",
                "raised ADA.IO_EXCEPTIONS.END_ERROR : a-tigeli.adb:96",
            ),
            (
                "2026-11-28 02:30:00.000 program[7:7] : Uncaught exception NSRangeException, reason: Index 4 is out of range 4 (in 'objectAtIndex:')\n",
                "Uncaught exception NSRangeException, reason: Index 4 is out of range 4 (in 'objectAtIndex:')",
            ),
            (
                "libcob: error: module 'NOSUCHPROGRAM' not found\n",
                "libcob: error: module 'NOSUCHPROGRAM' not found",
            ),
            (
                "\nUnhandled Exception:\nSystem.IndexOutOfRangeException: Index was outside the bounds of the array.\n  at Flip.Main () [0x00022] in <9659>:0 \n",
                "System.IndexOutOfRangeException: Index was outside the bounds of the array.",
            ),
        ];
        for (stderr, says) in table {
            assert_eq!(of(stderr).as_deref(), Some(says), "{stderr}");
        }
    }

    #[test]
    fn the_jvm_start_failure_is_found_on_standard_output() {
        let stdout = b"Error occurred during initialization of VM\nCould not reserve enough space for object heap\n";
        assert_eq!(
            account(b"", stdout).as_deref(),
            Some("the JVM did not start: Could not reserve enough space for object heap")
        );
    }

    #[test]
    fn the_java_launcher_s_own_errors() {
        assert_eq!(
            of("Error: Could not find or load main class Main\nCaused by: java.lang.ClassNotFoundException: Main\n").as_deref(),
            Some("Could not find or load main class Main")
        );
        assert_eq!(
            of("Error: Main method not found in class Colour, please define the main method as:\n   public static void main(String[] args)\n").as_deref(),
            Some("Main method not found in class Colour, please define the main method as:")
        );
        // Node's thrown `Error` is Node's, not the JVM's.
        assert_eq!(
            of("/p/a.js:1\nthrow new Error(\"boom\");\n^\n\nError: boom\n    at x\n").as_deref(),
            Some("Error: boom")
        );
    }

    #[test]
    fn plain_output_or_a_program_s_own_words_are_no_account() {
        assert_eq!(of(""), None);
        assert_eq!(of("debug: i = 3\nError\nsomething failed\n"), None);
        assert_eq!(account(b"", b"4\n"), None);
        // Standard error wins over standard output.
        assert_eq!(
            account(b"panic: boom\n", b"Exception in thread \"main\" X\n").as_deref(),
            Some("panic: boom")
        );
    }

    #[test]
    fn an_account_is_one_visible_line_of_bounded_length() {
        let long = format!("panic: {}\n", "x".repeat(1000));
        let said = of(&long).unwrap();
        assert_eq!(said.chars().count(), LONGEST + 1);
        assert_eq!(
            of("panic: a\u{200b}b\r\n").as_deref(),
            Some("panic: a\\u{200b}b")
        );
    }
}
