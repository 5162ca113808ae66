//! The format's language codes (the table of its appendix "Languages": `cpp`, `python3`,
//! `kotlin`, ...), which `include/` and `submissions.yaml` name languages by, and the
//! grader's languages they are.

use crate::submission::languages::Languages;

/// The language codes of the format's table (its appendix "Languages").
const CODES: [&str; 52] = [
    "ada",
    "algol68",
    "apl",
    "bash",
    "c",
    "cgmp",
    "cobol",
    "cpp",
    "cppgmp",
    "crystal",
    "csharp",
    "d",
    "dart",
    "elixir",
    "erlang",
    "forth",
    "fortran",
    "fsharp",
    "gerbil",
    "go",
    "haskell",
    "java",
    "javaalgs4",
    "javascript",
    "julia",
    "kotlin",
    "lisp",
    "lua",
    "modula2",
    "nim",
    "objectivec",
    "ocaml",
    "octave",
    "odin",
    "pascal",
    "perl",
    "php",
    "prolog",
    "python2",
    "python3",
    "python3numpy",
    "racket",
    "ruby",
    "rust",
    "scala",
    "simula",
    "smalltalk",
    "snobol",
    "swift",
    "typescript",
    "visualbasic",
    "zig",
];

/// The format's code of the grader's language `name`: its own name, or the code of the
/// language it is a form of (`python` and `pypy` are `python3`; the C and C++ profiles
/// are `c` and `cpp`); `None` for one the format's table lacks (`sh`).
pub(crate) fn code_of(name: &str) -> Option<&str> {
    match name {
        "python" | "pypy" => Some("python3"),
        "cpp98" | "poj" => Some("cpp"),
        "c99" | "poj-c" => Some("c"),
        other => CODES.contains(&other).then_some(other),
    }
}

/// The names the format's table gives the entry point of the language `code`, as a file.
pub(crate) fn drivers(code: &str) -> &'static [&'static str] {
    match code {
        "python2" | "python3" | "python3numpy" => &["__main__.py"],
        "javascript" => &["main.js"],
        "php" => &["main.php"],
        "lisp" => &["main.lisp", "main.cl"],
        "java" | "javaalgs4" => &["Main.java"],
        "kotlin" => &["Main.kt"],
        _ => &[],
    }
}

/// Whether `word` is a code of the format's table.
pub(crate) fn is_code(word: &str) -> bool {
    CODES.contains(&word)
}

/// The grader's language the code `code` names, when it runs one: `python3` is
/// `python`, the others their own name.
pub(crate) fn language_named<'a>(code: &str, languages: &'a Languages) -> Option<&'a str> {
    let name = if code == "python3" { "python" } else { code };
    is_code(code)
        .then(|| languages.named(name).ok())
        .flatten()
        .map(|(name, _)| name)
        .filter(|name| code_of(name) == Some(code))
}

/// The format's codes, for a message.
pub(crate) fn listed() -> String {
    CODES.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_of_the_grader_has_its_code_and_drivers_are_the_tables() {
        let languages = Languages::load(None).unwrap();
        // The languages a package's file is told by all have a code of the format's,
        // which names them back.
        for name in languages.names() {
            let (_, language) = languages.named(name).unwrap();
            if !language.extensions.is_empty() && name != "sh" {
                let code = code_of(name).unwrap_or_else(|| panic!("{name}"));
                assert_eq!(language_named(code, &languages), Some(name), "{name}");
            }
        }
        assert_eq!(code_of("python"), Some("python3"));
        assert_eq!(code_of("cpp98"), Some("cpp"));
        assert_eq!(code_of("sh"), None);
        assert_eq!(language_named("fsharp", &languages), None);
        assert_eq!(language_named("python", &languages), None);
        assert_eq!(drivers("python3"), ["__main__.py"]);
        assert!(drivers("cpp").is_empty());
        // The table's codes, in its order, each once.
        assert!(CODES.windows(2).all(|w| w[0] < w[1]), "{CODES:?}");
    }
}
