//! Finds the cases below a folder: every `*.in`, recursively, with its answer beside it as
//! `*.ans` (or `*.out`), listed in name order (cli.md).

use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use crate::files;
use crate::status::Fault;

/// One case: an input and, when present, its answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Case {
    /// The path below the case folder, without `.in`, with `/` separators
    /// (`secret/answers/03`): the name in reports.
    pub(crate) name: String,
    /// The input file.
    pub(crate) input: PathBuf,
    /// The answer file, `None` when neither `.ans` nor `.out` exists.
    pub(crate) answer: Option<PathBuf>,
}

impl Case {
    /// The group: the folder part of the name (`secret/answers`), `.` at the top.
    pub(crate) fn group(&self) -> &str {
        self.name.rsplit_once('/').map_or(".", |(group, _)| group)
    }
}

/// Every case below `dir` in name order. Hidden files and folders (`.data.new-*` of an
/// interrupted regeneration, `.git`) are skipped.
pub(crate) fn discover(dir: &Path) -> Result<Vec<Case>, Fault> {
    crate::folders::existing(dir, "list cases in")?;
    let mut cases = Vec::new();
    let walker = WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.'));
    for entry in walker {
        let entry = entry.map_err(|e| {
            let path = e.path().unwrap_or(dir).to_path_buf();
            files::cannot(&path, "list", &std::io::Error::other(e.to_string()))
        })?;
        let path = entry.path();
        if !entry.file_type().is_file() || path.extension().is_none_or(|x| x != "in") {
            continue;
        }
        let relative = path.strip_prefix(dir).unwrap_or(path).with_extension("");
        let name = relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/");
        let answer = ["ans", "out"]
            .into_iter()
            .map(|ext| path.with_extension(ext))
            .find(|p| p.is_file());
        cases.push(Case {
            name,
            input: path.to_path_buf(),
            answer,
        });
    }
    cases.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(cases)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn finds_inputs_recursively_with_answers_in_name_order() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("secret/b")).unwrap();
        fs::create_dir_all(root.join(".data.new-x")).unwrap();
        for file in [
            "secret/b/02.in",
            "secret/b/02.ans",
            "secret/b/01.in",
            "secret/b/01.out",
            "a.in",
            "notes.txt",
            ".data.new-x/01.in",
        ] {
            fs::write(root.join(file), "x").unwrap();
        }
        let cases = discover(root).unwrap();
        let names: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["a", "secret/b/01", "secret/b/02"]);
        assert_eq!(cases[0].answer, None);
        assert_eq!(cases[0].group(), ".");
        assert_eq!(cases[1].answer, Some(root.join("secret/b/01.out")));
        assert_eq!(cases[2].group(), "secret/b");
    }

    #[test]
    fn a_missing_folder_is_a_usage_fault() {
        let fault = discover(Path::new("/nonexistent/cases")).unwrap_err();
        assert!(matches!(fault, Fault::Usage(m) if m.contains("/nonexistent/cases")));
    }
}
