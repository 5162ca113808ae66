//! What a source is called in its language's commands: the file name it is compiled and
//! run under, its class (`{class}`, Java), and the placeholders of a command filled in.
//! The one place that turns a table's words into a command line.

use std::path::Path;

use super::languages::{CLASS, FILES, Language, MEMORY, OUT, SRC};
use super::main_class::{main_class, simple_name};

/// The file name of a compiled program, in a compile's work folder and in the staging
/// folder: no source may take it.
pub(crate) const PROGRAM: &str = "program";

/// A source's names in its commands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Names {
    /// The source's file name, beside the compiler and in a run's files.
    pub(crate) source: String,
    /// Its class by its full name (with its package), when the language's commands need
    /// one.
    pub(crate) class: Option<String>,
    /// Every source compiled with it (`{files}`), by file name: `source` alone, or the
    /// sources of its language in a program given as a folder, in name order.
    pub(crate) files: Vec<String>,
}

impl Names {
    /// The names of the source `path`, holding `text`, in `language`; `Err` with the `CE`
    /// message when the language needs a class and the source declares none (the
    /// source's fault: the compiler could not build it either).
    pub(crate) fn of(path: &Path, text: &[u8], language: &Language) -> Result<Names, String> {
        let class = if language.needs_class() {
            let class = main_class(&String::from_utf8_lossy(text)).ok_or_else(|| {
                "the source declares no class: it needs a public class with a `main` method"
                    .to_owned()
            })?;
            Some(class)
        } else {
            None
        };
        let own = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .filter(|n| n != PROGRAM && !n.starts_with('.'))
            .unwrap_or_else(|| "source".to_owned());
        // A class in a package lives in a file named for the class alone.
        let source = match &language.source_name {
            Some(name) => name.replace(CLASS, simple_name(class.as_deref().unwrap_or_default())),
            None => own,
        };
        Ok(Names {
            files: vec![source.clone()],
            source,
            class,
        })
    }

    /// The names of a program given as a folder: its main source `main`, holding `text`,
    /// compiled with `files` (every source of its language there, `main` among them),
    /// each under its own name (a folder's Java files are named for their classes by
    /// their authors, and name each other so).
    pub(crate) fn of_folder(
        main: &str,
        text: &[u8],
        files: Vec<String>,
        language: &Language,
    ) -> Result<Names, String> {
        let mut names = Names::of(Path::new(main), text, language)?;
        main.clone_into(&mut names.source);
        names.files = files;
        Ok(names)
    }

    /// The words `word` stands for: `{files}` every source (each a word), any other word
    /// [`Names::fill`]ed.
    pub(crate) fn fill_words(&self, word: &str, src: &str, out: &str) -> Vec<String> {
        if word == FILES {
            self.files
                .iter()
                .map(|file| self.fill(SRC, file, out))
                .collect()
        } else {
            vec![self.fill(word, src, out)]
        }
    }

    /// `word` with `{src}` as `src`, `{out}` as `out` and `{class}` filled in; `{memory_mib}`
    /// stays for the run to fill ([`with_memory`]). A source named like an option
    /// (`-1.c`, a student's file name) is given as `./-1.c`: a compiler or an interpreter
    /// would read it as a flag, and the student would get the grader's `CE`.
    pub(crate) fn fill(&self, word: &str, src: &str, out: &str) -> String {
        let src = if src.starts_with('-') {
            format!("./{src}")
        } else {
            src.to_owned()
        };
        word.replace(SRC, &src)
            .replace(OUT, out)
            .replace(CLASS, self.class.as_deref().unwrap_or_default())
    }
}

/// `word` with `{memory_mib}` as the run's memory limit, `memory` bytes, in whole MiB.
pub(crate) fn with_memory(word: &str, memory: u64) -> String {
    if word.contains(MEMORY) {
        word.replace(MEMORY, &(memory >> 20).max(1).to_string())
    } else {
        word.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::submission::languages::Languages;

    #[test]
    fn a_java_source_is_named_for_its_public_class() {
        let languages = Languages::load(None).unwrap();
        let (_, java) = languages.named("java").unwrap();
        let names = Names::of(
            Path::new("/x/sol.java"),
            b"public class FlipGame { public static void main(String[] a) {} }",
            java,
        )
        .unwrap();
        assert_eq!(names.source, "FlipGame.java");
        assert_eq!(names.class.as_deref(), Some("FlipGame"));
        assert_eq!(
            names.fill("-cp {out} {class}", "s", "/w/p"),
            "-cp /w/p FlipGame"
        );
        let none = Names::of(Path::new("/x/sol.java"), b"// nothing here", java);
        assert!(none.unwrap_err().contains("declares no class"));
    }

    #[test]
    fn other_sources_keep_their_own_name() {
        let languages = Languages::load(None).unwrap();
        let (_, c) = languages.named("c").unwrap();
        let names = Names::of(Path::new("/x/sol.c"), b"int main(){}", c).unwrap();
        assert_eq!(
            names,
            Names {
                source: "sol.c".to_owned(),
                class: None,
                files: vec!["sol.c".to_owned()],
            }
        );
        let odd = Names::of(Path::new("/x/program"), b"", c).unwrap();
        assert_eq!(odd.source, "source");
        // A file named like an option is never read as one.
        let dash = Names::of(Path::new("/x/-1.c"), b"", c).unwrap();
        assert_eq!(dash.source, "-1.c");
        assert_eq!(dash.fill("{src}", &dash.source, "p"), "./-1.c");
        assert_eq!(dash.fill("-o{out}", &dash.source, "-p"), "-o-p");
    }

    #[test]
    fn the_memory_limit_is_filled_in_whole_mebibytes() {
        assert_eq!(with_memory("-Xmx{memory_mib}m", 256 << 20), "-Xmx256m");
        assert_eq!(with_memory("-Xmx{memory_mib}m", 1000), "-Xmx1m");
        assert_eq!(with_memory("{src}", 1 << 30), "{src}");
    }
}
