//! The journal of a batch: one JSON line per finished run, appended as it finishes, so a
//! batch killed at any moment (even by SIGKILL) resumes where it stopped. A run's key is a
//! hash of the program, the case (input and answer) and the limits: a result is reused
//! exactly when all three are unchanged.
//!
//! Each line goes out in one `write` on a file opened for appending; a line cut short by a
//! kill is dropped when the journal is opened again, and a key seen twice counts once.
//!
//! A line is judged again when read, by the rule of the grader reading it: a `TLE` at the
//! wall limit keeps the scheduling figures of the runs it was judged from, and stands
//! only when they show the program's own stall (`judge::upheld`). A line that does not
//! (one written before the figures were kept holds none) is left out, and its run is made
//! again.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::files;
use crate::judge;
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
    /// Lines left out when it was opened: verdicts the rule did not uphold.
    rejudged: usize,
}

impl Journal {
    /// Opens (or creates) the journal and reads the runs it holds, by key: those whose
    /// verdict stands under the wall limit `wall_limit` (see the module's notes).
    pub(crate) fn open(
        path: &Path,
        wall_limit: std::time::Duration,
    ) -> Result<(Journal, HashMap<String, Record>), Fault> {
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            crate::folders::create(parent)?;
        }
        // Read a line at a time: the journal of a large class is tens of megabytes, and
        // its text held whole beside the records it holds was a rerun's peak memory.
        let (known, whole, length) = match File::open(path) {
            Ok(file) => read_lines(file).map_err(|e| files::cannot(path, "read", &e))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => (HashMap::new(), 0, 0),
            Err(e) => return Err(files::cannot(path, "read", &e)),
        };
        let mut known = known;
        // After the last line of each key is known: a line judged again and left out
        // leaves its run to be made again, and the line that run appends wins.
        let before = known.len();
        known.retain(|_, record: &mut Record| judge::upheld(&record.result, wall_limit));
        let rejudged = before - known.len();
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| files::cannot(path, "open", &e))?;
        if whole < length {
            file.set_len(whole)
                .map_err(|e| files::cannot(path, "repair", &e))?;
        }
        Ok((
            Journal {
                path: path.to_path_buf(),
                file,
                rejudged,
            },
            known,
        ))
    }

    /// How many lines were left out when it was opened, their verdicts not upheld by the
    /// rule of this grader: their runs are made again.
    pub(crate) fn rejudged(&self) -> usize {
        self.rejudged
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

/// The records of a journal's lines, by key (the last line of a key wins), how many bytes
/// its whole lines take, and its length: a line without its end was cut short by a kill,
/// and is dropped.
fn read_lines(file: File) -> std::io::Result<(HashMap<String, Record>, u64, u64)> {
    let mut reader = BufReader::with_capacity(1 << 16, file);
    let mut known = HashMap::new();
    let (mut whole, mut length) = (0u64, 0u64);
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = reader.read_until(b'\n', &mut line)?;
        if n == 0 {
            break;
        }
        length += n as u64;
        if line.last() != Some(&b'\n') {
            break;
        }
        whole = length;
        if let Ok(record) = serde_json::from_slice::<Record>(&line[..n - 1]) {
            known.insert(record.key.clone(), record);
        }
    }
    Ok((known, whole, length))
}

#[cfg(test)]
mod tests {
    use super::*;

    const WALL: std::time::Duration = std::time::Duration::from_secs(4);

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
        let (mut journal, known) = Journal::open(&path, WALL).unwrap();
        assert!(known.is_empty());
        journal.append(&record("a")).unwrap();
        journal.append(&record("b")).unwrap();
        journal.append(&record("a")).unwrap();
        drop(journal);
        // A kill in the middle of a write.
        let mut text = std::fs::read(&path).unwrap();
        text.extend_from_slice(b"{\"key\":\"c\",\"stud");
        std::fs::write(&path, &text).unwrap();
        let (mut journal, known) = Journal::open(&path, WALL).unwrap();
        assert_eq!(known.len(), 2);
        journal.append(&record("c")).unwrap();
        drop(journal);
        let (_, known) = Journal::open(&path, WALL).unwrap();
        assert_eq!(known.len(), 3);
        assert_eq!(known["c"], record("c"));
    }

    /// A `TLE` at the wall limit of key `key`, keeping the figures of `runs` runs that
    /// slept through the whole 4 s limit.
    fn asleep(key: &str, runs: usize) -> Record {
        let mut tle = record(key);
        tle.result.verdict = reference::Verdict::TimeLimit;
        tle.result.message =
            "wall time over the 4 s limit with 3 ms of CPU: the program slept or waited".to_owned();
        tle.result.stalls = vec![
            crate::results::case::Stalled {
                cpu_ms: 3.0,
                wall_ms: 4001.0,
                waited_ms: 0.2,
                threads: 1,
                cpus: 2,
            };
            runs
        ];
        tle
    }

    #[test]
    fn a_line_is_judged_again_when_read_and_one_the_rule_does_not_uphold_is_made_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        // A line as an older grader wrote it: a `TLE` at the wall limit without the
        // figures of its runs.
        let old = r#"{"key":"old","student":"alice","result":{"name":"secret/01","verdict":"TLE","cpu_ms":13.2,"wall_ms":316.1,"memory_kib":9000,"message":"wall time over the 200 ms limit with 13 ms of CPU: the program slept or waited"}}"#;
        let cpu = r#"{"key":"cpu","student":"alice","result":{"name":"secret/02","verdict":"TLE","cpu_ms":1003.0,"wall_ms":1010.0,"memory_kib":9000,"message":"CPU time 1.003 s over the 1 s limit"}}"#;
        std::fs::write(&path, format!("{old}\n{cpu}\n")).unwrap();
        let (mut journal, known) = Journal::open(&path, WALL).unwrap();
        assert_eq!(journal.rejudged(), 1);
        assert_eq!(known.keys().collect::<Vec<_>>(), ["cpu"]);
        // Shown twice in a row: a mark, kept. Shown once: made again.
        journal.append(&asleep("twice", 2)).unwrap();
        journal.append(&asleep("once", 1)).unwrap();
        // The old line's run made again, and journaled.
        journal.append(&record("old")).unwrap();
        drop(journal);
        let (journal, known) = Journal::open(&path, WALL).unwrap();
        assert_eq!(journal.rejudged(), 1);
        let mut keys: Vec<_> = known.keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(keys, ["cpu", "old", "twice"]);
        assert_eq!(known["old"], record("old"));
        assert_eq!(known["twice"], asleep("twice", 2));
    }
}
