//! Files added to a submission before it is built: a problem package's included files
//! (2025-09's `include/`), chosen by the submission's language. The submission is then
//! built as a program of its own files and these (an added file in place of its own of
//! the same name), its main file its own unless an added one is the language's driver,
//! and it runs in its program's folder, where every one of those files is: the format's
//! working directory, read-only as its default (`allow_file_writing: false`) has it.

use std::collections::BTreeMap;

use super::folder::FolderFile;

/// What is added to the submissions of one language.
#[derive(Debug, Clone, Default)]
pub(crate) struct Addition {
    /// The files, by their names in the program's folder.
    pub(crate) files: Vec<FolderFile>,
    /// The one of them that is the program's main file (a driver that calls the
    /// submission's code), when one is.
    pub(crate) driver: Option<String>,
}

/// What is added, by language name (the language table's).
#[derive(Debug, Clone, Default)]
pub(crate) struct Added {
    by_language: BTreeMap<String, Addition>,
}

impl Added {
    /// The additions `by_language` gives (a language it does not name gets nothing).
    pub(crate) fn new(by_language: BTreeMap<String, Addition>) -> Added {
        let by_language = by_language
            .into_iter()
            .filter(|(_, addition)| !addition.files.is_empty())
            .collect();
        Added { by_language }
    }

    /// What the submissions of `language` get, if anything.
    pub(crate) fn of(&self, language: &str) -> Option<&Addition> {
        self.by_language.get(language)
    }
}

/// `own` (a submission's files, by name) with `addition`'s: an added file replaces the
/// submission's of the same name, as the format copies them over it.
pub(crate) fn merged(own: Vec<FolderFile>, addition: &Addition) -> Vec<FolderFile> {
    let mut files: Vec<FolderFile> = own
        .into_iter()
        .filter(|file| !addition.files.iter().any(|a| a.name == file.name))
        .collect();
    files.extend(addition.files.iter().cloned());
    files.sort_by(|a, b| a.name.cmp(&b.name));
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, text: &str) -> FolderFile {
        FolderFile::of_text(name, text)
    }

    #[test]
    fn an_added_file_replaces_the_submissions_of_its_name_and_nothing_else() {
        let addition = Addition {
            files: vec![file("data.txt", "7"), file("lib/util.py", "x = 1")],
            driver: None,
        };
        let files = merged(
            vec![file("sol.py", "print(1)"), file("data.txt", "mine")],
            &addition,
        );
        let seen: Vec<(&str, &[u8])> = files
            .iter()
            .map(|f| (f.name.as_str(), f.bytes.as_slice()))
            .collect();
        assert_eq!(
            seen,
            [
                ("data.txt", b"7".as_slice()),
                ("lib/util.py", b"x = 1".as_slice()),
                ("sol.py", b"print(1)".as_slice()),
            ]
        );
        // A language given no files gets nothing.
        let added = Added::new(BTreeMap::from([
            ("python".to_owned(), addition),
            ("c".to_owned(), Addition::default()),
        ]));
        assert!(added.of("python").is_some());
        assert!(added.of("c").is_none() && added.of("cpp").is_none());
    }
}
