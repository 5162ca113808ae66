//! The language table (one place for every compiler flag), its built-in entries from
//! `languages.toml`, and a config file's overrides.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use crate::cases::line_column;
use crate::files;
use crate::status::Fault;

/// The built-in table.
const BUILTIN: &str = include_str!("languages.toml");

/// How one language is built and run.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Language {
    /// File extensions that select it (none for a profile chosen with `--lang`).
    #[serde(default)]
    pub(crate) extensions: Vec<String>,
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
    /// The limits of a compile.
    #[serde(default)]
    pub(crate) compile_limits: CompileLimits,
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
}

impl Default for CompileLimits {
    fn default() -> CompileLimits {
        CompileLimits {
            cpu_secs: 10,
            wall_secs: 30,
            memory_mib: 1024,
            processes: 1024,
            messages_mib: 64,
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
                .map_err(|_| Fault::Usage(format!("{}: not valid UTF-8", path.display())))?;
            for (name, language) in parse(path, &text)? {
                match entries.iter_mut().find(|(n, _)| *n == name) {
                    Some(entry) => entry.1 = language,
                    None => entries.push((name, language)),
                }
            }
        }
        Ok(Languages { entries })
    }

    /// The entry named `name`.
    pub(crate) fn named(&self, name: &str) -> Result<(&str, &Language), Fault> {
        self.entries
            .iter()
            .find(|(n, _)| n == name)
            .map(|(n, l)| (n.as_str(), l))
            .ok_or_else(|| {
                Fault::Usage(format!(
                    "--lang {name}: unknown language (known: {})",
                    self.names().join(", ")
                ))
            })
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
        Fault::Usage(format!(
            "{}:{line}:{column}: {}",
            path.display(),
            e.message().trim_end().replace('\n', " ")
        ))
    })?;
    let order: toml::Table = toml::from_str(text).map_err(|e| Fault::Usage(e.to_string()))?;
    let mut entries = Vec::new();
    for name in order.keys() {
        let language = table[name].clone();
        if language.run.is_empty() {
            return Err(Fault::Usage(format!(
                "{}: language `{name}` has an empty `run`",
                path.display()
            )));
        }
        entries.push((name.clone(), language));
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_table_knows_the_contract_languages() {
        let languages = Languages::load(None).unwrap();
        for (ext, name) in [
            ("c", "c"),
            ("cpp", "cpp"),
            ("cc", "cpp"),
            ("cxx", "cpp"),
            ("py", "python"),
            ("rs", "rust"),
        ] {
            assert_eq!(languages.for_extension(ext).unwrap().0, name);
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
        assert!(languages.for_extension("java").is_none());
        assert!(
            matches!(languages.named("cobol"), Err(Fault::Usage(m)) if m.contains("known: c, cpp"))
        );
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
        std::fs::write(&config, "[cpp]\nrun = 3\n").unwrap();
        assert!(
            matches!(Languages::load(Some(&config)), Err(Fault::Usage(m)) if m.contains("grader.toml:2:7"))
        );
    }
}
