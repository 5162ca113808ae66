//! 2025-09's included files (`include/`): one folder per language, named by the
//! format's language code (`include/cpp/`, `include/python3/`), and `include/default/`
//! for every language without one of its own, each holding files added to every
//! submission in that language before it is built, the package's constants replaced in
//! them (`submission::added` says how the program is then made and run). A file named as
//! the format's table names a language's entry point (`__main__.py`, `main.js`,
//! `main.php`, `main.lisp`, `Main.java`, `Main.kt`) is a driver: the program's main file.
//!
//! An entry of `include/` that is not a folder, is empty, or is named by no code of the
//! format's table is the package's fault (exit 2 at its path), never a silent nothing.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use super::constants::Constants;
use crate::cli::exit::Fault;
use crate::submission::added::{Added, Addition};
use crate::submission::folder::{self, FolderFile};
use crate::submission::languages::Languages;

/// The folder of files for every language without one of its own.
const DEFAULT: &str = "default";

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
fn code_of(name: &str) -> Option<&str> {
    match name {
        "python" | "pypy" => Some("python3"),
        "cpp98" | "poj" => Some("cpp"),
        "c99" | "poj-c" => Some("c"),
        other => CODES.contains(&other).then_some(other),
    }
}

/// The names the format's table gives the entry point of the language `code`, as a file.
fn drivers(code: &str) -> &'static [&'static str] {
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

/// The files `include/` of the package at `package` adds to the submissions, by the
/// grader's language names (`languages`), with `constants` replaced in them; nothing when
/// it has no `include/`.
pub(crate) fn added(
    package: &Path,
    constants: &Constants,
    languages: &Languages,
) -> Result<Arc<Added>, Fault> {
    let by_code = read(package, constants)?;
    let mut by_language = BTreeMap::new();
    for name in languages.names() {
        let code = code_of(name);
        let Some(files) = code
            .and_then(|code| by_code.get(code))
            .or_else(|| by_code.get(DEFAULT))
        else {
            continue;
        };
        let driver = code.and_then(|code| {
            files
                .iter()
                .find(|file| drivers(code).contains(&file.name.as_str()))
                .map(|file| file.name.clone())
        });
        by_language.insert(
            name.to_owned(),
            Addition {
                files: files.clone(),
                driver,
            },
        );
    }
    Ok(Arc::new(Added::new(by_language)))
}

/// `include/`'s folders, by name (a language code or `default`), their files read with
/// `constants` replaced.
fn read(package: &Path, constants: &Constants) -> Result<BTreeMap<String, Vec<FolderFile>>, Fault> {
    let include = package.join("include");
    let mut by_code = BTreeMap::new();
    let Ok(metadata) = include.symlink_metadata() else {
        return Ok(by_code);
    };
    let fault = |path: &Path, why: &str| Fault::input(format!("{}: {why}", path.display()));
    if !std::fs::metadata(&include).is_ok_and(|m| m.is_dir()) {
        let what = if metadata.is_symlink() {
            "a link to no folder"
        } else {
            "not a folder"
        };
        return Err(fault(
            &include,
            &format!("{what}: include/ holds one folder of files per language"),
        ));
    }
    let entries = std::fs::read_dir(&include)
        .map_err(|e| Fault::input(crate::paths::files::cannot(&include, "list", &e)))?;
    for entry in entries {
        let entry =
            entry.map_err(|e| Fault::input(crate::paths::files::cannot(&include, "list", &e)))?;
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        if name != DEFAULT && !CODES.contains(&name.as_str()) {
            return Err(fault(
                &path,
                &format!(
                    "`{name}` is not a language code of the format's table: expected \
                     `default` or one of {}",
                    codes_listed()
                ),
            ));
        }
        if !std::fs::metadata(&path).is_ok_and(|m| m.is_dir()) {
            return Err(fault(
                &path,
                "not a folder: include/ holds one folder of files per language",
            ));
        }
        let files = folder::files(&path)?;
        if files.is_empty() {
            return Err(fault(
                &path,
                "an empty folder: the format's included files are in non-empty folders",
            ));
        }
        let files = files
            .into_iter()
            .map(|file| match constants.apply(&file.bytes) {
                Some(bytes) => FolderFile { bytes, ..file },
                None => file,
            })
            .collect();
        by_code.insert(name, files);
    }
    Ok(by_code)
}

/// The format's codes, for a message.
fn codes_listed() -> String {
    CODES.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_of_the_grader_has_its_code_and_drivers_are_the_tables() {
        let languages = Languages::load(None).unwrap();
        // The languages a package's file is told by all have a code of the format's.
        for name in languages.names() {
            let (_, language) = languages.named(name).unwrap();
            if !language.extensions.is_empty() && name != "sh" {
                assert!(code_of(name).is_some(), "{name}");
            }
        }
        assert_eq!(code_of("python"), Some("python3"));
        assert_eq!(code_of("cpp98"), Some("cpp"));
        assert_eq!(code_of("sh"), None);
        assert_eq!(drivers("python3"), ["__main__.py"]);
        assert!(drivers("cpp").is_empty());
        // The table's codes, in its order, each once.
        assert!(CODES.windows(2).all(|w| w[0] < w[1]), "{CODES:?}");
    }
}
