//! What a compile error says at a glance: its summary (the compiler's first error line,
//! not a context line such as `sol.cpp: In function 'int main()':`), and the profile to
//! try when the message shows a cause an old compiler did not have, as POJ-era code meets
//! a modern gcc: a standard function or macro that old libstdc++ declared through
//! `<iostream>`, a global that C++11 made ambiguous with a new `std` name, a C function that
//! gnu89 compiled and C99 refuses.
//!
//! Every report of a `CE` (`test`'s human, JSON and JUnit reports, `batch`'s progress line
//! and gradebooks) asks these two functions, so they say the same everywhere.

use serde::{Deserialize, Serialize};

use super::compiler::HEAD;

/// The profile that compiles POJ-era C and C++ as POJ did (languages.toml).
pub(crate) const POJ: &str = "poj";

/// The headers the `poj` profile includes up front (its `-include`s in languages.toml; a
/// test keeps the two in step): gcc's note "`X` is defined in header `<cstring>`" names
/// one of them for what the profile would declare.
const POJ_HEADERS: [&str; 8] = [
    "cstdio",
    "cstdlib",
    "cstring",
    "climits",
    "cmath",
    "cctype",
    "algorithm",
    "string",
];

/// What POJ-era C++ most often used without its header, because old libstdc++ declared it
/// through `<iostream>`; all of it is declared by the `poj` profile's headers. (A compiler
/// without gcc's header notes still names these.)
const DECLARED_BY_OLD_IOSTREAM: &[&str] = &[
    // <cstdio>
    "printf",
    "scanf",
    "puts",
    "gets",
    "getchar",
    "putchar",
    "sprintf",
    "sscanf",
    "fprintf",
    "freopen",
    "fopen",
    "fclose",
    "EOF", // <cstring>
    "memset",
    "memcpy",
    "memcmp",
    "memmove",
    "strlen",
    "strcmp",
    "strncmp",
    "strcpy",
    "strncpy",
    "strcat",
    "strchr",
    "strstr", // <cstdlib>
    "malloc",
    "calloc",
    "free",
    "exit",
    "abs",
    "atoi",
    "atof",
    "rand",
    "srand",
    "qsort",
    // <climits>
    "INT_MAX",
    "INT_MIN",
    "UINT_MAX",
    "LONG_MAX",
    "LONG_MIN",
    "LLONG_MAX",
    "SHRT_MAX",
    "CHAR_BIT", // <cmath>
    "sqrt",
    "pow",
    "fabs",
    "floor",
    "ceil", // <cctype>
    "isdigit",
    "isalpha",
    "isspace",
    "isupper",
    "islower",
    "toupper",
    "tolower",
    // <algorithm>
    "sort",
    "stable_sort",
    "reverse",
    "unique",
    "next_permutation",
    "lower_bound",
    "upper_bound",
    "fill",
];

/// Names C++11 and later added to `std` that POJ-era globals are often called, so that
/// `using namespace std` makes them ambiguous; C++98 (the `poj` profile) has none of them.
const ADDED_TO_STD_SINCE_CPP11: &[&str] = &[
    "hash", "next", "prev", "begin", "end", "data", "size", "empty", "move", "rank", "byte", "gcd",
    "lcm", "clamp", "iota", "array", "tuple", "function", "bind", "ref",
];

/// A profile to try, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Suggestion {
    /// The language or profile to compile with (`poj`).
    pub(crate) lang: String,
    /// What in the message shows it (`` `memset` was not declared: ... ``).
    pub(crate) why: String,
}

impl Suggestion {
    /// The advice for `grader test`: `--lang poj (why)`.
    pub(crate) fn for_test(&self) -> String {
        format!("try --lang {} ({})", self.lang, self.why)
    }

    /// The advice for one student of `grader batch`, whose profile is chosen by name: a
    /// rule that matches that student alone (glob characters in the name escaped), quoted
    /// for a shell.
    pub(crate) fn for_student(&self, student: &str) -> String {
        let rule = format!("{}={}", glob::Pattern::escape(student), self.lang);
        format!(
            "try --lang-for '{}' ({})",
            rule.replace('\'', r"'\''"),
            self.why
        )
    }
}

/// The line that sums up a compile error: the grader's own words when it stopped the
/// compiler, else the first line that reports an error (`sol.cpp:5:3: error: ...`, rustc's
/// `error[E0308]: ...`, the linker's `undefined reference`), else the first line. What
/// cannot be seen in it is escaped: the compiler quotes the student's source.
pub(crate) fn summary(message: &str) -> String {
    let first = message.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let line = if first.starts_with(HEAD) {
        first
    } else {
        message
            .lines()
            .find(|line| is_error_line(line))
            .unwrap_or(first)
    };
    reference::visible::escape(line.trim().as_bytes())
}

/// Whether a compiler's line reports an error (not a context line, a note or a warning).
fn is_error_line(line: &str) -> bool {
    let line = line.trim_start();
    line.starts_with("error")
        || line.contains(": error")
        || line.contains(": fatal error")
        || line.contains("undefined reference to")
}

/// The profile the message of a failed compile in `language` points to, when it shows a
/// cause that POJ's compilers did not have; `None` otherwise, and when it was compiled
/// with that profile already.
pub(crate) fn suggestion(language: &str, message: &str) -> Option<Suggestion> {
    if language == POJ || language.starts_with(&format!("{POJ}-")) {
        return None;
    }
    // gcc quotes names as ‘x’ in a UTF-8 locale and as 'x' or `x' otherwise.
    let message = message.replace(['‘', '’', '`'], "'");
    let why = message.lines().find_map(|line| cause(line, &message))?;
    Some(Suggestion {
        lang: POJ.to_owned(),
        why,
    })
}

/// The old-compiler cause one line of `message` shows, in words.
fn cause(line: &str, message: &str) -> Option<String> {
    if let Some(name) = quoted_before(line, "' was not declared in this scope")
        .or_else(|| quoted_after(line, "use of undeclared identifier '"))
    {
        let old_header = POJ_HEADERS
            .iter()
            .any(|h| message.contains(&format!("'{name}' is defined in header '<{h}>'")));
        if old_header || DECLARED_BY_OLD_IOSTREAM.contains(&name) {
            return Some(format!(
                "`{name}` was not declared: POJ's old g++ declared it through <iostream>"
            ));
        }
    }
    if let Some(name) = quoted_after(line, "reference to '")
        .filter(|_| line.contains("' is ambiguous"))
        .filter(|name| ADDED_TO_STD_SINCE_CPP11.contains(name))
    {
        return Some(format!(
            "a global `{name}` is ambiguous with std::{name}, which C++11 added; POJ's g++ was C++98"
        ));
    }
    if line.contains("error: implicit declaration of function '") {
        let name = quoted_after(line, "implicit declaration of function '")?;
        return Some(format!(
            "`{name}` is used undeclared: POJ's gcc compiled C as gnu89, which allowed it"
        ));
    }
    // A C object's undefined reference to a function the source never left undeclared: a
    // plain `inline` definition, which C99 and later do not emit as a function.
    if line.contains(".c:(") {
        let name = quoted_after(line, "undefined reference to '")?;
        if !message.contains(&format!("implicit declaration of function '{name}'")) {
            return Some(format!(
                "`{name}` is undefined: if it is a plain `inline` function, POJ's gcc (C as gnu89) compiled it"
            ));
        }
    }
    None
}

/// The name quoted right after `opening` (which ends with the opening quote) in `line`.
fn quoted_after<'l>(line: &'l str, opening: &str) -> Option<&'l str> {
    let rest = &line[line.find(opening)? + opening.len()..];
    let name = &rest[..rest.find('\'')?];
    is_name(name).then_some(name)
}

/// The name quoted right before `closing` (which starts with the closing quote) in `line`.
fn quoted_before<'l>(line: &'l str, closing: &str) -> Option<&'l str> {
    let before = &line[..line.find(closing)?];
    let name = &before[before.rfind('\'')? + 1..];
    is_name(name).then_some(name)
}

/// Whether `text` is an identifier.
fn is_name(text: &str) -> bool {
    !text.is_empty() && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    const MEMSET: &str = "sol.cpp: In function 'int main()':\n\
        sol.cpp:31:5: error: 'memset' was not declared in this scope\n   31 |     memset(hash, 0, sizeof(hash));\n\
        sol.cpp:5:1: note: 'memset' is defined in header '<cstring>'; did you forget to '#include <cstring>'?\n";

    #[test]
    fn the_summary_is_the_first_error_line() {
        assert_eq!(
            summary(MEMSET),
            "sol.cpp:31:5: error: 'memset' was not declared in this scope"
        );
        assert_eq!(
            summary("warning: unused\nerror[E0308]: mismatched types\n --> a.rs:1:1\n"),
            "error[E0308]: mismatched types"
        );
        assert_eq!(
            summary(
                "/usr/bin/ld: /tmp/cc.o: in function `main':\nsol.c:(.text+0x9): undefined reference to `dfs'\ncollect2: error: ld returned 1 exit status\n"
            ),
            "sol.c:(.text+0x9): undefined reference to `dfs'"
        );
        assert_eq!(
            summary("sol.cpp:1:10: fatal error: /dev/zero: not a file\n"),
            "sol.cpp:1:10: fatal error: /dev/zero: not a file"
        );
        // The grader's own words come first when it stopped the compiler.
        let stopped = format!("{HEAD} was stopped: over 10 s of CPU\nsol.cpp:1:1: error: x\n");
        assert!(summary(&stopped).starts_with(HEAD), "{stopped}");
        // Nothing that looks like an error: the first line, whatever it is, escaped.
        assert_eq!(
            summary("\nsomething\u{1b}[2J odd\nmore\n"),
            "something\\x1b[2J odd"
        );
        assert_eq!(summary(""), "");
    }

    #[test]
    fn old_compiler_causes_suggest_the_poj_profile_in_every_quoting() {
        for message in [
            MEMSET.to_owned(),
            MEMSET.replace('\'', "‘"),
            "a.cpp:2:9: error: ‘INT_MAX’ was not declared in this scope\n".to_owned(),
            "a.cpp:2:9: error: `printf' was not declared in this scope\n".to_owned(),
            "a.cpp:2:9: error: use of undeclared identifier 'strlen'\n".to_owned(),
            // Not in the list, but gcc says which of the profile's headers declares it.
            "a.cpp:2:9: error: 'strtol' was not declared in this scope\na.cpp:1:1: note: 'strtol' is defined in header '<cstdlib>'\n".to_owned(),
            "a.cpp:8:5: error: reference to ‘hash’ is ambiguous\n".to_owned(),
            "a.cpp:8:5: error: reference to 'next' is ambiguous\n".to_owned(),
            "a.c:8:5: error: implicit declaration of function 'memset' [-Wimplicit-function-declaration]\n".to_owned(),
            "/usr/bin/ld: /tmp/x.o: in function `main':\na.c:(.text.startup+0x9): undefined reference to `dfs'\n".to_owned(),
        ] {
            let s = suggestion("cpp", &message).unwrap_or_else(|| panic!("{message}"));
            assert_eq!(s.lang, "poj");
            assert!(s.for_test().starts_with("try --lang poj ("), "{s:?}");
            assert!(
                s.for_student("sec/alice").starts_with("try --lang-for 'sec/alice=poj' ("),
                "{s:?}"
            );
            // A name that is no plain word still makes a rule for that student alone.
            assert!(
                s.for_student("o'hara[2]")
                    .starts_with(r"try --lang-for 'o'\''hara[[]2[]]=poj' ("),
                "{s:?}"
            );
        }
    }

    #[test]
    fn other_errors_and_the_profile_itself_suggest_nothing() {
        for message in [
            "a.cpp:4:1: error: expected ';' before '}' token\n",
            "a.cpp:2:9: error: 'flips' was not declared in this scope\n",
            "a.cpp:8:5: error: reference to 'count' is ambiguous\n",
            // A C function that is undefined because it was never declared: a typo.
            "a.c:3:5: warning: implicit declaration of function 'slove'\n/usr/bin/ld: a.o: in function `main':\na.c:(.text+0x5): undefined reference to `slove'\n",
            // A C++ object's undefined reference is no gnu89 matter.
            "a.cpp:(.text+0x5): undefined reference to `solve()'\n",
            "error[E0425]: cannot find value `memset` in this scope\n",
        ] {
            assert_eq!(suggestion("cpp", message), None, "{message}");
        }
        assert_eq!(suggestion("poj", MEMSET), None);
        assert_eq!(suggestion("poj-c", MEMSET), None);
    }

    #[test]
    fn the_headers_are_the_profiles_includes() {
        let languages = super::super::languages::Languages::load(None).unwrap();
        let compile = languages.named(POJ).unwrap().1.compile.clone().unwrap();
        let included: Vec<&str> = compile
            .windows(2)
            .filter(|w| w[0] == "-include")
            .map(|w| w[1].as_str())
            .collect();
        assert_eq!(included, POJ_HEADERS);
    }
}
