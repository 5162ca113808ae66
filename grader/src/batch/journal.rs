//! The journal of a batch: one JSON line per finished run, appended as it finishes, so a
//! batch killed at any moment (even by SIGKILL) resumes where it stopped. A run's key is a
//! hash of the program, the case (input and answer) and the limits: a result is reused
//! exactly when all three are unchanged.
//!
//! Each line goes out in one `write` on a file opened for appending; a line cut short by a
//! kill is dropped when the journal is opened again, and a key seen twice counts once.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::files;
use crate::results::case::CaseResult;
use crate::status::Fault;

/// One finished run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Record {
    /// The hash of program, case and limits.
    pub(crate) key: String,
    /// The student.
    pub(crate) student: String,
    /// The case's result (the start of the output and the end of stderr of a failing
    /// run, for the gradebook's diffs).
    pub(crate) result: CaseResult,
}

/// An open journal.
#[derive(Debug)]
pub(crate) struct Journal {
    path: PathBuf,
    /// Written by one thread only: the batch's reporter.
    file: File,
}

impl Journal {
    /// Opens (or creates) the journal and reads the runs it holds, by key.
    pub(crate) fn open(path: &Path) -> Result<(Journal, HashMap<String, Record>), Fault> {
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            crate::folders::create(parent)?;
        }
        let text = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(files::cannot(path, "read", &e)),
        };
        // A line without its end was cut short by a kill: drop it before appending.
        let whole = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let mut known = HashMap::new();
        for line in text[..whole].split(|&b| b == b'\n') {
            if let Ok(record) = serde_json::from_slice::<Record>(line) {
                known.insert(record.key.clone(), record);
            }
        }
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| files::cannot(path, "open", &e))?;
        if whole < text.len() {
            file.set_len(whole as u64)
                .map_err(|e| files::cannot(path, "repair", &e))?;
        }
        Ok((
            Journal {
                path: path.to_path_buf(),
                file,
            },
            known,
        ))
    }

    /// Appends one run, in a single write.
    pub(crate) fn append(&mut self, record: &Record) -> Result<(), Fault> {
        let mut line = serde_json::to_vec(record).expect("records serialise");
        line.push(b'\n');
        self.file
            .write_all(&line)
            .map_err(|e| files::cannot(&self.path, "write", &e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(key: &str) -> Record {
        let figures = crate::results::case::Figures {
            memory_kib: 1500,
            ..Default::default()
        };
        Record {
            key: key.to_owned(),
            student: "alice".to_owned(),
            result: CaseResult::new(
                "sample/01",
                reference::Judgement::wrong("expected `4`, got `5`"),
                figures,
                b"5\n".to_vec(),
                Vec::new(),
            ),
        }
    }

    #[test]
    fn a_torn_last_line_is_dropped_and_duplicates_count_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out/journal.jsonl");
        let (mut journal, known) = Journal::open(&path).unwrap();
        assert!(known.is_empty());
        journal.append(&record("a")).unwrap();
        journal.append(&record("b")).unwrap();
        journal.append(&record("a")).unwrap();
        drop(journal);
        // A kill in the middle of a write.
        let mut text = std::fs::read(&path).unwrap();
        text.extend_from_slice(b"{\"key\":\"c\",\"stud");
        std::fs::write(&path, &text).unwrap();
        let (mut journal, known) = Journal::open(&path).unwrap();
        assert_eq!(known.len(), 2);
        journal.append(&record("c")).unwrap();
        drop(journal);
        let (_, known) = Journal::open(&path).unwrap();
        assert_eq!(known.len(), 3);
        assert_eq!(known["c"], record("c"));
    }
}
