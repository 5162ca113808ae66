//! The language table (one place for every compiler flag), its built-in entries from
//! `languages.toml`, and a config file's overrides.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use crate::cli::exit::Fault;
use crate::cli::exit::line_column;
use crate::paths::files;

/// The built-in table.
const BUILTIN: &str = include_str!("languages.toml");

/// The source file, in a command.
pub(crate) const SRC: &str = "{src}";
/// Every source of the program, in a compile command, each a word of its own: the one
/// source of a file, or every source of its language in a program given as a folder
/// (C's `.c` files, compiled together); a word of its own in the table.
pub(crate) const FILES: &str = "{files}";
/// The compiled program, in a command.
pub(crate) const OUT: &str = "{out}";
/// The source's public class (Java: see `main_class.rs`), in a command (by its full name)
/// or `source_name` (by its own name, without its package).
pub(crate) const CLASS: &str = "{class}";
/// The run's memory limit in MiB, in a run command (a JVM's `-Xmx`).
pub(crate) const MEMORY: &str = "{memory_mib}";

/// How one language is built and run.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Language {
    /// File extensions that select it (none for a profile chosen with `--lang`).
    #[serde(default)]
    pub(crate) extensions: Vec<String>,
    /// Which language a program given as a folder is in when it has as many files of
    /// this language as of another: the one of higher priority (problemtools' numbers,
    /// for the languages of its table). Two entries never share one.
    #[serde(default)]
    pub(crate) priority: Option<i64>,
    /// The compile command, when it is compiled.
    #[serde(default)]
    pub(crate) compile: Option<Vec<String>>,
    /// The run command.
    pub(crate) run: Vec<String>,
    /// A command that prints the folder of the compiler's own installation (a rustup
    /// toolchain's `--print sysroot`): the box shows it read-only, and the compiler is
    /// run from its `bin/` rather than through a proxy that needs the user's home.
    #[serde(default)]
    pub(crate) sysroot: Option<Vec<String>>,
    /// A command that prints the toolchain's version (its first line, on standard output
    /// or error), part of the compile cache key; its program must be installed. Default:
    /// the compiler's `--version`.
    #[serde(default)]
    pub(crate) version: Option<Vec<String>>,
    /// The Debian package that installs the toolchain, named when it is missing.
    #[serde(default)]
    pub(crate) package: Option<String>,
    /// The name the source is compiled and run under (`{class}.java`: javac wants a public
    /// class in a file of its name). Default: the file's own name.
    #[serde(default)]
    pub(crate) source_name: Option<String>,
    /// Environment of the compile beyond `PATH` and `LANG` (`NAME=value`).
    #[serde(default)]
    pub(crate) compile_env: Vec<String>,
    /// Folders outside the system's that the compile's box shows read-only, where the
    /// toolchain keeps what it reads beside its programs (GHC's package database, which
    /// Debian keeps in `/var/lib/ghc`); absolute. One that does not exist is not shown.
    #[serde(default)]
    pub(crate) compile_shows: Vec<std::path::PathBuf>,
    /// Environment of every run beyond the grader's clean one (`NAME=value`).
    #[serde(default)]
    pub(crate) run_env: Vec<String>,
    /// Whether its runs get the address-space rlimit where no cgroup keeps the memory
    /// limit (a backstop against a runaway allocation). A runtime that reserves far more
    /// address space than it uses, and bounds its own heap by a flag (the JVM), says
    /// `false`: its memory is judged on peak resident memory all the same.
    #[serde(default = "yes")]
    pub(crate) address_space: bool,
    /// The limits of a compile.
    #[serde(default)]
    pub(crate) compile_limits: CompileLimits,
    /// A header most of its sources include, compiled once and shown to their compiles
    /// (`precompiled.rs`).
    #[serde(default)]
    pub(crate) precompiled: Option<Precompiled>,
}

/// A system header compiled once per toolchain and compile command (GCC's precompiled
/// headers), for the sources that include it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Precompiled {
    /// The header as sources name it in `#include <...>`: `bits/stdc++.h`.
    pub(crate) header: String,
    /// The compiler's language for it (its `-x`): `c++-header`.
    pub(crate) kind: String,
}

impl Language {
    /// Whether its commands need the source's main class (`{class}`).
    pub(crate) fn needs_class(&self) -> bool {
        let words = self
            .compile
            .iter()
            .flatten()
            .chain(&self.run)
            .chain(&self.source_name);
        words.into_iter().any(|w| w.contains(CLASS))
    }

    /// What to install when its toolchain is missing, for an error message.
    pub(crate) fn install_hint(&self) -> String {
        match &self.package {
            Some(package) => format!("install the Debian package `{package}`"),
            None => "install it".to_owned(),
        }
    }
}

fn yes() -> bool {
    true
}

/// The limits of one compile: generous for any honest source, and what stops a compiler
/// made to loop, fill memory or print without end.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct CompileLimits {
    /// CPU seconds.
    pub(crate) cpu_secs: u64,
    /// Wall seconds.
    pub(crate) wall_secs: u64,
    /// MiB of memory.
    pub(crate) memory_mib: u64,
    /// Processes and threads at once.
    pub(crate) processes: u64,
    /// MiB of messages (standard output and error together).
    pub(crate) messages_mib: u64,
    /// Whether the compile gets the address-space rlimit where no cgroup keeps the memory
    /// limit (see [`Language::address_space`]): GHC, itself a Haskell program, refuses to
    /// start under less than 9 GiB of address space, which it reserves and never uses.
    pub(crate) address_space: bool,
}

impl Default for CompileLimits {
    fn default() -> CompileLimits {
        CompileLimits {
            cpu_secs: 10,
            wall_secs: 30,
            memory_mib: 1024,
            processes: 1024,
            messages_mib: 64,
            address_space: true,
        }
    }
}

/// The table: language name to entry, in file order for extension lookups.
#[derive(Debug, Clone)]
pub(crate) struct Languages {
    entries: Vec<(String, Language)>,
}

impl Languages {
    /// The built-in table, with `config` applied when given.
    pub(crate) fn load(config: Option<&Path>) -> Result<Languages, Fault> {
        let mut entries = parse(Path::new("languages.toml (built in)"), BUILTIN)?;
        if let Some(path) = config {
            let bytes = files::read_capped(path)?;
            let text = String::from_utf8(bytes)
                .map_err(|_| Fault::input(format!("{}: not valid UTF-8", path.display())))?;
            for (name, language) in parse(path, &text)? {
                // An extension the file lists is its entry's: no entry of the built-in
                // table keeps claiming it ahead of it (lookups take the first entry).
                for (other, entry) in &mut entries {
                    if *other != name {
                        entry
                            .extensions
                            .retain(|e| !language.extensions.contains(e));
                    }
                }
                match entries.iter_mut().find(|(n, _)| *n == name) {
                    Some(entry) => entry.1 = language,
                    None => entries.push((name, language)),
                }
            }
        }
        let shared = entries
            .iter()
            .enumerate()
            .find_map(|(i, (name, language))| {
                let priority = language.priority?;
                let (other, _) = entries[..i]
                    .iter()
                    .find(|(_, l)| l.priority == Some(priority))?;
                Some(format!(
                    "languages `{other}` and `{name}` have the same priority ({priority}): a tie \
                 between them in a folder could not be broken"
                ))
            });
        if let Some(why) = shared {
            let file = config.map_or_else(
                || "languages.toml (built in)".to_owned(),
                |p| p.display().to_string(),
            );
            return Err(Fault::input(format!("{file}: {why}")));
        }
        Ok(Languages { entries })
    }

    /// A table of one entry, for programs that are no submission's language (a
    /// package's checktestdata scripts, `package::programs::checktestdata`).
    pub(crate) fn only(name: &str, language: Language) -> Languages {
        Languages {
            entries: vec![(name.to_owned(), language)],
        }
    }

    /// The entry named `name`.
    pub(crate) fn named(&self, name: &str) -> Result<(&str, &Language), Fault> {
        self.entries
            .iter()
            .find(|(n, _)| n == name)
            .map(|(n, l)| (n.as_str(), l))
            .ok_or_else(|| {
                Fault::call(format!(
                    "--lang {name}: unknown language (known: {})",
                    self.names().join(", ")
                ))
            })
    }

    /// The entry `--lang NAME` picks for a file with `extension`: the profile's variant for
    /// the language the extension selects when the table has one (an entry named
    /// `NAME-LANGUAGE`: `poj-c` for a `.c` file), else the entry `name` itself.
    pub(crate) fn chosen(&self, name: &str, extension: &str) -> Result<(&str, &Language), Fault> {
        let variant = self
            .for_extension(extension)
            .and_then(|(language, _)| self.named(&format!("{name}-{language}")).ok());
        variant.map_or_else(|| self.named(name), Ok)
    }

    /// The first entry listing `extension`.
    pub(crate) fn for_extension(&self, extension: &str) -> Option<(&str, &Language)> {
        self.entries
            .iter()
            .find(|(_, l)| l.extensions.iter().any(|e| e == extension))
            .map(|(n, l)| (n.as_str(), l))
    }

    /// Every name, in table order.
    pub(crate) fn names(&self) -> Vec<&str> {
        self.entries.iter().map(|(n, _)| n.as_str()).collect()
    }
}

fn parse(path: &Path, text: &str) -> Result<Vec<(String, Language)>, Fault> {
    // A BTreeMap would lose the file order that extension lookups depend on, so read the
    // names in order from the document and the entries from the map.
    let table: BTreeMap<String, Language> = toml::from_str(text).map_err(|e| {
        let (line, column) = line_column(text, e.span().map_or(0, |s| s.start));
        Fault::input(format!(
            "{}:{line}:{column}: {}",
            path.display(),
            e.message().trim_end().replace('\n', " ")
        ))
    })?;
    let order: toml::Table = toml::from_str(text).map_err(|e| Fault::input(e.to_string()))?;
    let words: BTreeMap<String, Words> =
        toml::from_str(text).map_err(|e| Fault::input(e.to_string()))?;
    let mut entries = Vec::new();
    for name in order.keys() {
        let language = table[name].clone();
        if language.run.is_empty() {
            return Err(Fault::input(format!(
                "{}: language `{name}` has an empty `run`",
                path.display()
            )));
        }
        if let Some(relative) = language.compile_shows.iter().find(|f| !f.is_absolute()) {
            return Err(Fault::input(format!(
                "{}: `{name}.compile_shows`: `{}` is not an absolute path",
                path.display(),
                relative.display()
            )));
        }
        words[name].check(name).map_err(|(offset, why)| {
            let (line, column) = line_column(text, offset);
            Fault::input(format!("{}:{line}:{column}: {why}", path.display()))
        })?;
        entries.push((name.clone(), language));
    }
    Ok(entries)
}

/// An entry's commands with where each word is in the file, to check their placeholders:
/// a typo such as `{source}` would otherwise reach the compiler as it is, and every
/// student would get the setup's fault as a `CE`.
#[derive(Deserialize)]
struct Words {
    #[serde(default)]
    compile: Option<toml::Spanned<Vec<toml::Spanned<String>>>>,
    #[serde(default)]
    run: Vec<toml::Spanned<String>>,
    #[serde(default)]
    sysroot: Option<Vec<toml::Spanned<String>>>,
    #[serde(default)]
    version: Option<Vec<toml::Spanned<String>>>,
    #[serde(default)]
    source_name: Option<toml::Spanned<String>>,
    #[serde(default)]
    precompiled: Option<HeaderWords>,
}

/// The header of an entry's `precompiled`, with where it is in the file.
#[derive(Deserialize)]
struct HeaderWords {
    header: toml::Spanned<String>,
}

impl Words {
    /// The first fault of the entry `name`'s placeholders: where it is (a byte offset in
    /// the file) and what.
    fn check(&self, name: &str) -> Result<(), (usize, String)> {
        // `{out}` is what a compile writes: without a compile there is none. A probe runs
        // without any source, so it has no placeholder at all.
        let compiled = self.compile.is_some();
        let known = |key: &str| -> Vec<&'static str> {
            let mut known = match key {
                "compile" => vec![SRC, FILES, OUT, CLASS],
                "run" => vec![SRC, OUT, CLASS, MEMORY],
                "source_name" => vec![CLASS],
                _ => vec![],
            };
            if !compiled {
                known.retain(|p| *p != OUT);
            }
            known
        };
        let commands = [
            (
                "compile",
                self.compile.as_ref().map(|c| c.get_ref().as_slice()),
            ),
            ("run", Some(self.run.as_slice())),
            ("sysroot", self.sysroot.as_deref()),
            ("version", self.version.as_deref()),
            (
                "source_name",
                self.source_name.as_ref().map(std::slice::from_ref),
            ),
        ];
        for (key, words) in commands {
            let known = known(key);
            for word in words.unwrap_or_default() {
                // The word's text starts after its opening quote.
                let start = word.span().start + 1;
                for (at, placeholder) in placeholders(word.get_ref()) {
                    if !known.contains(&placeholder) {
                        let also = if placeholder == OUT && !compiled {
                            format!(" (`{name}` has no `compile`, so there is no {OUT})")
                        } else {
                            String::new()
                        };
                        let known = if known.is_empty() {
                            "none".to_owned()
                        } else {
                            known.join(", ")
                        };
                        return Err((
                            start + at,
                            format!(
                                "unknown placeholder `{placeholder}` in `{name}.{key}`{also}; known: {known}"
                            ),
                        ));
                    }
                }
            }
        }
        if let Some(header) = self.precompiled.as_ref().map(|p| &p.header) {
            // The header names a file of the cache entry the compiles are shown: a path
            // that climbs out of it, or is absolute, would name another.
            let plain = !header.get_ref().is_empty()
                && Path::new(header.get_ref())
                    .components()
                    .all(|c| matches!(c, std::path::Component::Normal(_)));
            if !plain {
                return Err((
                    header.span().start + 1,
                    format!(
                        "`{name}.precompiled.header` must be a header as `#include <...>` names it, such as bits/stdc++.h"
                    ),
                ));
            }
            if self.compile.is_none() {
                return Err((
                    header.span().start + 1,
                    format!("`{name}.precompiled` needs a `compile`"),
                ));
            }
        }
        if let Some(compile) = &self.compile {
            check_compile(name, compile)?;
        }
        Ok(())
    }
}

/// Whether `word` holds a placeholder (`{src}`, `{out}`, ...): a word filled in for each
/// source, not a program of the machine to look for.
pub(crate) fn has_placeholder(word: &str) -> bool {
    !placeholders(word).is_empty()
}

/// The first fault of the compile command `compile` of the entry `name`: it names the
/// source (`{src}` or `{files}`) and the program (`{out}`), and `{files}` only as a word
/// of its own.
fn check_compile(
    name: &str,
    compile: &toml::Spanned<Vec<toml::Spanned<String>>>,
) -> Result<(), (usize, String)> {
    let names = |needed: &str| {
        compile
            .get_ref()
            .iter()
            .any(|w| w.get_ref().contains(needed))
    };
    for (needed, or) in [(SRC, FILES), (OUT, OUT)] {
        if !names(needed) && !names(or) {
            let either = if or == needed {
                needed.to_owned()
            } else {
                format!("{needed} or {or}")
            };
            return Err((
                compile.span().start,
                format!("`{name}.compile` does not name {either}"),
            ));
        }
    }
    // `{files}` is as many words as there are sources: it cannot be part of one.
    if let Some(word) = compile
        .get_ref()
        .iter()
        .find(|w| w.get_ref().contains(FILES) && w.get_ref() != FILES)
    {
        return Err((
            word.span().start + 1,
            format!("`{name}.compile`: {FILES} must be a word of its own"),
        ));
    }
    Ok(())
}

/// Every `{name}` in `word` (a letter, digit or `_` name between braces), with its byte
/// offset.
fn placeholders(word: &str) -> Vec<(usize, &str)> {
    let mut found = Vec::new();
    for (at, _) in word.match_indices('{') {
        let rest = &word[at + 1..];
        if let Some(end) = rest.find('}') {
            let inner = &rest[..end];
            if !inner.is_empty() && inner.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                found.push((at, &word[at..at + end + 2]));
            }
        }
    }
    found
}

/// The fault of a toolchain that is missing (`what`, of the source `source`): the
/// setup's, exit 2, saying what to install.
pub(crate) fn not_installed(source: &Path, what: &str, language: &Language) -> Fault {
    Fault::setup(format!(
        "{}: {what}: {}{ANOTHER_LANGUAGE}",
        source.display(),
        language.install_hint()
    ))
}

/// The ends of a fault of building a source that name the flags choosing another way to
/// run it, which `test`, `fuzz` and `batch` take. A package's programs (its submissions
/// and validators, in `package verify` as in `test PKG`) are built by no such flag, so
/// their faults are told without them ([`without_flag_advice`]).
pub(crate) const ANOTHER_LANGUAGE: &str =
    ", or choose another language with --lang, or run it with --cmd";
/// See [`ANOTHER_LANGUAGE`]: the end of an unknown extension's fault.
pub(crate) const ONE_LANGUAGE: &str = "; choose one with --lang, or run it with --cmd";

/// `why`, a fault of building a source, without the advice of flags that choose another
/// way to run it: for a package's programs, which no flag chooses.
pub(crate) fn without_flag_advice(why: &str) -> String {
    why.replace(ANOTHER_LANGUAGE, "").replace(ONE_LANGUAGE, "")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::exit::Cause;

    #[test]
    fn the_builtin_table_knows_the_contract_languages() {
        let languages = Languages::load(None).unwrap();
        for (ext, name) in [
            ("c", "c"),
            ("cpp", "cpp"),
            ("cc", "cpp"),
            ("cxx", "cpp"),
            ("c++", "cpp"),
            ("C", "cpp"),
            ("py", "python"),
            ("py3", "python"),
            ("rs", "rust"),
            ("java", "java"),
            ("pas", "pascal"),
            ("go", "go"),
            ("js", "javascript"),
        ] {
            assert_eq!(languages.for_extension(ext).unwrap().0, name);
        }
        // Only the JVM's languages go without the address-space backstop; only GHC's
        // compiles.
        for name in languages.names() {
            let (_, language) = languages.named(name).unwrap();
            let jvm = ["java", "kotlin", "scala"].contains(&name);
            assert_eq!(language.address_space, !jvm, "{name}");
            assert_eq!(
                language.compile_limits.address_space,
                name != "haskell",
                "{name}"
            );
        }
        // Every language a file's extension selects can win a tie in a folder.
        for name in languages.names() {
            let (_, language) = languages.named(name).unwrap();
            assert_eq!(
                language.priority.is_some(),
                !language.extensions.is_empty(),
                "{name}"
            );
        }
        // Go's processors are few, whatever the machine's.
        assert_eq!(languages.named("go").unwrap().1.run_env, ["GOMAXPROCS=2"]);
        // PyPy only by name: `.py` stays CPython.
        assert_eq!(languages.named("pypy").unwrap().1.run[0], "pypy3");
        // Every language says what to install; those outside C and C++'s profiles also
        // how to ask the toolchain its version.
        for name in languages.names() {
            let (_, language) = languages.named(name).unwrap();
            assert!(language.package.is_some(), "{name}");
        }
        for name in ["java", "pascal", "go", "javascript", "pypy"] {
            let (_, language) = languages.named(name).unwrap();
            assert!(language.version.is_some(), "{name}");
        }
        // The languages of the package format's table that Debian packages: each by its
        // extensions, with the Debian package that brings its toolchain.
        for (name, extensions, package) in [
            ("kotlin", &["kt"][..], "kotlin"),
            ("scala", &["scala", "sc"], "scala"),
            ("csharp", &["cs"], "mono-mcs"),
            ("haskell", &["hs"], "ghc"),
            ("ocaml", &["ml"], "ocaml-nox"),
            ("ruby", &["rb"], "ruby"),
            ("php", &["php"], "php-cli"),
            ("lisp", &["lisp", "cl"], "sbcl"),
            ("prolog", &["pl"], "swi-prolog-nox"),
            (
                "fortran",
                &["f90", "f95", "f03", "f08", "f", "for"],
                "gfortran",
            ),
            ("ada", &["adb", "ada"], "gnat"),
            ("objectivec", &["m"], "libgnustep-base-dev"),
            ("cobol", &["cob", "cbl"], "gnucobol3"),
        ] {
            for extension in extensions {
                assert_eq!(languages.for_extension(extension).unwrap().0, name);
            }
            let (_, language) = languages.named(name).unwrap();
            assert_eq!(language.package.as_deref(), Some(package), "{name}");
            assert_eq!(
                language.install_hint(),
                format!("install the Debian package `{package}`")
            );
        }
        assert!(
            languages
                .named("cpp98")
                .unwrap()
                .1
                .compile
                .as_ref()
                .unwrap()
                .contains(&"-std=gnu++98".to_owned())
        );
        assert!(languages.for_extension("icl").is_none());
        let unknown = languages.named("intercal").unwrap_err();
        assert_eq!(unknown.cause(), Cause::Call);
        assert!(unknown.message().contains("known: c, cpp"), "{unknown}");
    }

    #[test]
    fn a_profile_picks_its_variant_for_the_language_of_the_extension() {
        let languages = Languages::load(None).unwrap();
        for (name, extension, chosen) in [
            ("poj", "c", "poj-c"),
            ("poj", "cpp", "poj"),
            ("poj", "cc", "poj"),
            ("poj", "", "poj"),
            ("cpp98", "c", "cpp98"),
            ("poj-c", "cpp", "poj-c"),
        ] {
            assert_eq!(languages.chosen(name, extension).unwrap().0, chosen);
        }
        let unknown = languages.chosen("intercal", "c").unwrap_err();
        assert_eq!(unknown.cause(), Cause::Call);
        assert!(unknown.message().contains("--lang intercal"), "{unknown}");
    }

    #[test]
    fn a_config_overrides_and_adds_entries() {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("grader.toml");
        std::fs::write(&config, "[cpp]\nextensions = [\"cpp\"]\ncompile = [\"clang++\", \"-o\", \"{out}\", \"{src}\"]\nrun = [\"{out}\"]\n\n[pypy]\nextensions = []\nrun = [\"pypy3\", \"{src}\"]\n").unwrap();
        let languages = Languages::load(Some(&config)).unwrap();
        assert_eq!(
            languages.named("cpp").unwrap().1.compile.as_ref().unwrap()[0],
            "clang++"
        );
        assert_eq!(languages.named("pypy").unwrap().1.run[0], "pypy3");
        // A new entry for an extension of the table takes it: the table's entry no longer
        // claims it ahead of the new one, whatever their order.
        std::fs::write(
            &config,
            "[shell]\nextensions = [\"sh\"]\nrun = [\"{src}\"]\n",
        )
        .unwrap();
        let languages = Languages::load(Some(&config)).unwrap();
        assert_eq!(languages.for_extension("sh").unwrap().0, "shell");
        assert_eq!(languages.for_extension("bash").unwrap().0, "bash");
        // Folders shown to a compile are named absolute.
        std::fs::write(&config, "[hs]\ncompile = [\"ghc\", \"-o\", \"{out}\", \"{src}\"]\ncompile_shows = [\"var/lib/ghc\"]\nrun = [\"{out}\"]\n").unwrap();
        let relative = Languages::load(Some(&config)).unwrap_err();
        assert_eq!(relative.cause(), Cause::Input);
        assert!(
            relative.message().ends_with(
                "grader.toml: `hs.compile_shows`: `var/lib/ghc` is not an absolute path"
            ),
            "{relative}"
        );
        // Two entries of one priority could not break a tie between them in a folder.
        std::fs::write(
            &config,
            "[zig]\nextensions = [\"zig\"]\npriority = 950\nrun = [\"{src}\"]\n",
        )
        .unwrap();
        let shared = Languages::load(Some(&config)).unwrap_err();
        assert_eq!(shared.cause(), Cause::Input);
        assert!(
            shared.message().ends_with(
                "grader.toml: languages `c` and `zig` have the same priority (950): a tie \
                 between them in a folder could not be broken"
            ),
            "{shared}"
        );
        std::fs::write(&config, "[cpp]\nrun = 3\n").unwrap();
        let malformed = Languages::load(Some(&config)).unwrap_err();
        assert_eq!(malformed.cause(), Cause::Input);
        assert!(
            malformed.message().contains("grader.toml:2:7"),
            "{malformed}"
        );
    }

    #[test]
    fn a_placeholder_typo_is_refused_with_its_line_and_column() {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("grader.toml");
        let refused = |text: &str| {
            std::fs::write(&config, text).unwrap();
            match Languages::load(Some(&config)) {
                Err(fault) if fault.cause() == Cause::Input => fault.message().to_owned(),
                other => panic!("{text}: {other:?}"),
            }
        };
        let m = refused(
            "[c]\nextensions = [\"c\"]\ncompile = [\"gcc\", \"-o\", \"{out}\", \"{source}\"]\nrun = [\"{out}\"]\n",
        );
        assert!(m.ends_with("grader.toml:3:35: unknown placeholder `{source}` in `c.compile`; known: {src}, {files}, {out}, {class}"), "{m}");
        // `{files}` is a word of its own, and stands in for `{src}`.
        let m = refused(
            "[c]\ncompile = [\"gcc\", \"-o\", \"{out}\", \"-I{files}\"]\nrun = [\"{out}\"]\n",
        );
        assert!(
            m.contains("grader.toml:2:35: `c.compile`: {files} must be a word of its own"),
            "{m}"
        );
        let m = refused("[c]\ncompile = [\"gcc\", \"-o\", \"{out}\"]\nrun = [\"{out}\"]\n");
        assert!(
            m.contains("`c.compile` does not name {src} or {files}"),
            "{m}"
        );
        let m = refused("[py]\nrun = [\"python3\", \"{out}\"]\n");
        assert!(
            m.contains(
                "grader.toml:2:20: unknown placeholder `{out}` in `py.run` (`py` has no `compile`"
            ),
            "{m}"
        );
        let m = refused("[c]\ncompile = [\"gcc\", \"{src}\"]\nrun = [\"{out}\"]\n");
        assert!(
            m.contains("grader.toml:2:11: `c.compile` does not name {out}"),
            "{m}"
        );
        let m = refused(
            "[c]\ncompile = [\"gcc\", \"-o\", \"{out}\", \"{src}\"]\nrun = [\"{out}\", \"--x={srcc}\"]\n",
        );
        assert!(
            m.contains("grader.toml:3:22: unknown placeholder `{srcc}` in `c.run`"),
            "{m}"
        );
        let m = refused(
            "[c]\ncompile = [\"gcc\", \"-o\", \"{out}\", \"{src}\", \"-DM={memory_mib}\"]\nrun = [\"{out}\"]\n",
        );
        assert!(
            m.contains("grader.toml:2:48: unknown placeholder `{memory_mib}` in `c.compile`"),
            "{m}"
        );
        let m = refused("[j]\nsource_name = \"{src}.java\"\nrun = [\"java\", \"{class}\"]\n");
        assert!(
            m.contains(
                "grader.toml:2:16: unknown placeholder `{src}` in `j.source_name`; known: {class}"
            ),
            "{m}"
        );
        let m = refused("[j]\nrun = [\"java\", \"{class}\"]\nversion = [\"java\", \"{class}\"]\n");
        assert!(
            m.contains(
                "grader.toml:3:21: unknown placeholder `{class}` in `j.version`; known: none"
            ),
            "{m}"
        );
        // Braces that are no placeholder pass, and so does the built-in table.
        std::fs::write(&config, "[c]\ncompile = [\"gcc\", \"-o\", \"{out}\", \"{src}\", \"-D{}\", \"-DX={ 1 }\"]\nrun = [\"{out}\"]\n").unwrap();
        Languages::load(Some(&config)).unwrap();
    }
}
