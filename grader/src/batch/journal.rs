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
//!
//! **Its version.** The first line says which version of the journal it is,
//! `{"journal_version":2}`: the lines' format and how their keys are made (`keys`). A
//! journal of an older version (version 1 had no such line) keyed its runs another way,
//! so none of them can be found again: its runs are made again, a note says so with how
//! many, and the journal starts anew. A journal of a newer version is refused (exit 2),
//! never overwritten: it belongs to a newer grader.
//!
//! Opening a journal keeps no result in memory, only an index: for each key, where its
//! line is and the two facts the scheduling reads before any result (accepted or not, and
//! asleep at the wall limit or not), 32 bytes a run. A result is read back from its line
//! when the gradebook's files reach its student.
use std::collections::{HashMap, HashSet};
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Seek, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use reference::Verdict;
use serde::{Deserialize, Serialize};

use super::run_keys::{RunKey, ShortKey};
use crate::cli::exit::Fault;
use crate::paths::files;
use crate::results::case::CaseResult;
use crate::run::judge;

/// The hold of one batch on its output folder: a second `batch` into the same `--out`
/// while one runs would make every run again beside it and append its lines to the same
/// journal. An advisory lock on the folder itself (`flock`): no file is left behind, and
/// the kernel lets it go with the process, however it ends.
pub(crate) struct OutputHold {
    _lock: nix::fcntl::Flock<File>,
}

/// Takes the hold on `folder` (made if missing) for as long as the result lives; exit 2
/// when another grader holds it.
pub(crate) fn hold(folder: &Path) -> Result<OutputHold, Fault> {
    crate::paths::folders::create(folder)?;
    let dir = File::open(folder).map_err(|e| Fault::output(files::cannot(folder, "open", &e)))?;
    match nix::fcntl::Flock::lock(dir, nix::fcntl::FlockArg::LockExclusiveNonblock) {
        Ok(lock) => Ok(OutputHold { _lock: lock }),
        Err((_, nix::errno::Errno::EWOULDBLOCK)) => Err(Fault::output(format!(
            "{}: another grader batch is writing into this folder; wait for it to end, or \
             give another --out",
            folder.display()
        ))),
        Err((_, e)) => Err(Fault::output(files::cannot(folder, "lock", &e.into()))),
    }
}

/// The journal's version: what its lines are and how their keys are made. A change to
/// either (`keys`) is a new version.
pub(crate) const VERSION: u32 = 2;

/// The journal's first line.
#[derive(Debug, Serialize, Deserialize)]
struct Header {
    journal_version: u32,
}

/// The first line of a journal of this version, its end included.
pub(super) fn header_line() -> Vec<u8> {
    let mut line = serde_json::to_vec(&Header {
        journal_version: VERSION,
    })
    .expect("a header serialises");
    line.push(b'\n');
    line
}

/// One finished run, as its line holds it.
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

/// What the index reads of a line: its key and its result (the student is not needed).
#[derive(Deserialize)]
struct Indexed<'a> {
    key: &'a str,
    result: CaseResult,
}

/// What a line read back gives: its result.
#[derive(Deserialize)]
struct ReadBack {
    result: CaseResult,
}

/// Where a run's line is in the journal, and what the scheduling reads of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Place {
    /// Its first byte.
    pub(crate) offset: u64,
    /// Its length, the newline included.
    pub(crate) len: u32,
    /// The run's verdict.
    pub(crate) verdict: Verdict,
    /// Whether it is a `TLE` at the wall limit with the program idle
    /// (`CaseResult::slept`), for the sleepers' rule.
    pub(crate) slept: bool,
}

impl Place {
    /// Whether the run is `AC`.
    pub(crate) fn accepted(self) -> bool {
        self.verdict == Verdict::Accepted
    }

    /// One past its last byte.
    fn end(self) -> u64 {
        self.offset + u64::from(self.len)
    }
}

/// The runs a journal holds, by key: where each line is (the last line of a key wins).
/// A sorted list, not a hash table: 32 bytes a run, where a table sized by powers of two
/// took from 37 to 74.
#[derive(Debug, Default)]
pub(crate) struct Known(Vec<(ShortKey, Place)>);

impl Known {
    /// Where the run of `key` is, if the journal holds it.
    pub(crate) fn get(&self, key: &RunKey) -> Option<Place> {
        let key = key.short();
        let at = self.0.binary_search_by_key(&key, |(k, _)| *k).ok()?;
        Some(self.0[at].1)
    }

    /// How many runs it holds.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }
}

/// Reads into `bytes` from `offset` until it is full or the file ends; how many bytes.
fn read_at(file: &File, bytes: &mut [u8], offset: u64) -> std::io::Result<usize> {
    let mut read = 0;
    while read < bytes.len() {
        match file.read_at(&mut bytes[read..], offset + read as u64) {
            Ok(0) => break,
            Ok(n) => read += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(read)
}

/// An open journal.
#[derive(Debug)]
pub(crate) struct Journal {
    path: PathBuf,
    /// Written by one thread only: the batch's reporter; read by offset.
    file: File,
    /// Lines left out when it was opened: verdicts the rule did not uphold.
    rejudged: usize,
    /// The runs of an older version's journal found when it was opened, none of which
    /// could be read: the journal started anew.
    older: Option<u64>,
    /// Its whole lines: those it was opened with, and those appended since.
    lines: u64,
}

/// Reads of lines close together are one read, up to this many bytes: a student's lines
/// sit near each other (its runs finish one after another), and one `pread` a line was a
/// syscall per run.
const SPAN: u64 = 1 << 20;

/// Lines further apart than this are read apart: what lies between them is read for
/// nothing.
const GAP: u64 = 64 << 10;

impl Journal {
    /// Opens (or creates) the journal and indexes the runs it holds, by key: those whose
    /// verdict stands under the wall limit `wall_limit` (see the module's notes).
    pub(crate) fn open(
        path: &Path,
        wall_limit: std::time::Duration,
    ) -> Result<(Journal, Known), Fault> {
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            crate::paths::folders::create(parent)?;
        }
        // Read a line at a time: the journal of a large class is tens of megabytes.
        let index = match File::open(path) {
            Ok(file) => index(file, wall_limit)
                .map_err(|e| Fault::output(files::cannot(path, "read", &e)))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Index::default(),
            Err(e) => return Err(Fault::output(files::cannot(path, "read", &e))),
        };
        let Index {
            mut known,
            not_upheld,
            whole,
            length,
            lines,
            version,
        } = index;
        if let Some(newer) = version.filter(|v| *v > VERSION) {
            return Err(Fault::output(format!(
                "{}: written by a newer grader (journal version {newer}; this grader reads \
                 version {VERSION}): run that grader, or give another --out",
                path.display()
            )));
        }
        // No header of this version: a new journal, a header cut short by a kill, or an
        // older grader's journal, whose runs are keyed another way and cannot be found.
        let start_anew = version != Some(VERSION);
        let older = (start_anew && lines > 0).then_some(lines);
        let file = OpenOptions::new()
            .create(true)
            .read(true)
            .append(true)
            .open(path)
            .map_err(|e| Fault::output(files::cannot(path, "open", &e)))?;
        let (known, rejudged, lines) = if start_anew {
            // Nothing of it can be found again: not even sorted, only its lines counted.
            file.set_len(0)
                .and_then(|()| (&file).write_all(&header_line()))
                .map_err(|e| Fault::output(files::cannot(path, "write", &e)))?;
            (Vec::new(), 0, 0)
        } else {
            if whole < length {
                file.set_len(whole)
                    .map_err(|e| Fault::output(files::cannot(path, "repair", &e)))?;
            }
            // The last line of each key, once the lines are in key order (the later line
            // first); then a line judged again and left out leaves its run to be made
            // again, and the line that run appends wins.
            known.sort_unstable_by_key(|(key, place)| (*key, std::cmp::Reverse(place.offset)));
            known.dedup_by_key(|(key, _)| *key);
            known.retain(|(key, _)| !not_upheld.contains(key));
            (known, not_upheld.len(), lines)
        };
        let journal = Journal {
            path: path.to_path_buf(),
            file,
            rejudged,
            older,
            lines,
        };
        Ok((journal, Known(known)))
    }

    /// How many lines were left out when it was opened, their verdicts not upheld by the
    /// rule of this grader: their runs are made again.
    pub(crate) fn rejudged(&self) -> usize {
        self.rejudged
    }

    /// How many runs an older version's journal held when it was opened: none was read,
    /// and the journal started anew (`None` when it was of this version, or new).
    pub(crate) fn older(&self) -> Option<u64> {
        self.older
    }

    /// The journal's path.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// How many whole lines it holds (live or not).
    pub(crate) fn line_count(&self) -> u64 {
        self.lines
    }

    /// Appends one run, in a single write; where its line went.
    pub(crate) fn append(&mut self, record: &Record) -> Result<Place, Fault> {
        let mut line = serde_json::to_vec(record).expect("records serialise");
        line.push(b'\n');
        let len = u32::try_from(line.len())
            .map_err(|_| Fault::internal("a journal line over 4 GiB".to_owned()))?;
        let cannot = |e: std::io::Error| Fault::output(files::cannot(&self.path, "write", &e));
        self.file.write_all(&line).map_err(cannot)?;
        self.lines += 1;
        // Where the line went, asked of the file: appended at its end, wherever that was.
        let end = self.file.stream_position().map_err(cannot)?;
        Ok(Place {
            offset: end - u64::from(len),
            len,
            verdict: record.result.verdict,
            slept: record.result.slept(),
        })
    }

    /// The results at `places`, in their order: a student's runs, read back together.
    pub(crate) fn read(&self, places: &[Place]) -> Result<Vec<CaseResult>, Fault> {
        let mut order: Vec<Place> = places.to_vec();
        order.sort_unstable_by_key(|p| p.offset);
        let mut results: HashMap<u64, CaseResult> = HashMap::with_capacity(places.len());
        self.lines(&order, |place, line| {
            results.insert(place.offset, self.parse(line, place)?);
            Ok(())
        })?;
        places
            .iter()
            .map(|place| {
                results
                    .remove(&place.offset)
                    .map_or_else(|| Err(self.changed(*place)), Ok)
            })
            .collect()
    }

    /// Calls `each` with every place of `sorted` (in the journal's order) and its line
    /// (`None` when the file ends before it). Lines close together are read in one read.
    pub(super) fn lines(
        &self,
        sorted: &[Place],
        mut each: impl FnMut(Place, Option<&[u8]>) -> Result<(), Fault>,
    ) -> Result<(), Fault> {
        let mut bytes = Vec::new();
        let mut at = 0;
        while let Some(&first) = sorted.get(at) {
            // The lines from `at` that one read covers.
            let mut end = first.end();
            let mut last = at + 1;
            while let Some(&next) = sorted.get(last) {
                if next.offset > end + GAP || next.end().max(end) - first.offset > SPAN {
                    break;
                }
                end = end.max(next.end());
                last += 1;
            }
            let span = usize::try_from(end - first.offset).unwrap_or(usize::MAX);
            bytes.clear();
            bytes.resize(span, 0);
            let read = read_at(&self.file, &mut bytes, first.offset)
                .map_err(|e| Fault::output(files::cannot(&self.path, "read", &e)))?;
            bytes.truncate(read);
            for &place in &sorted[at..last] {
                let from = usize::try_from(place.offset - first.offset).unwrap_or(usize::MAX);
                let to = from.saturating_add(place.len as usize);
                each(place, bytes.get(from..to))?;
            }
            at = last;
        }
        Ok(())
    }

    /// The fault of a line not found where the index saw it.
    pub(super) fn changed(&self, place: Place) -> Fault {
        Fault::output(format!(
            "{}: changed while the batch read it (no line the batch wrote at byte {}): run the \
             batch again",
            self.path.display(),
            place.offset
        ))
    }

    /// The result of the line `line` read at `place`: the one the index saw there, or the
    /// journal was changed under the batch.
    fn parse(&self, line: Option<&[u8]>, place: Place) -> Result<CaseResult, Fault> {
        line.and_then(|line| line.strip_suffix(b"\n"))
            .and_then(|line| serde_json::from_slice::<ReadBack>(line).ok())
            .map(|read| read.result)
            .filter(|result| result.verdict == place.verdict)
            .ok_or_else(|| self.changed(place))
    }

    /// The file, for the compaction to copy lines from.
    pub(super) fn file(&self) -> &File {
        &self.file
    }
}

/// What indexing a journal found.
#[derive(Default)]
struct Index {
    /// Each line's key and place, in the journal's order.
    known: Vec<(ShortKey, Place)>,
    /// The keys whose last line's verdict does not stand under the wall limit.
    not_upheld: HashSet<ShortKey>,
    /// How many bytes the journal's whole lines take.
    whole: u64,
    /// How many whole lines it has.
    lines: u64,
    /// Its length: a line without its end was cut short by a kill, and is dropped.
    length: u64,
    /// The version its first line says, if that line is a header.
    version: Option<u32>,
}

/// Indexes a journal's lines, judging each under the wall limit `wall_limit`.
fn index(file: File, wall_limit: std::time::Duration) -> std::io::Result<Index> {
    let size = file.metadata()?.len();
    let mut reader = BufReader::with_capacity(1 << 16, file);
    // Sized once for a few more lines than the file likely holds (some 195 bytes a run):
    // growing by doubling held the old list and the new one at once.
    let mut index = Index {
        known: Vec::with_capacity(usize::try_from(size / 160).unwrap_or(0)),
        ..Index::default()
    };
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = reader.read_until(b'\n', &mut line)?;
        if n == 0 {
            break;
        }
        let offset = index.length;
        index.length += n as u64;
        if line.last() != Some(&b'\n') {
            break;
        }
        index.whole = index.length;
        if offset == 0
            && let Ok(header) = serde_json::from_slice::<Header>(&line[..n - 1])
        {
            index.version = Some(header.journal_version);
            continue;
        }
        index.lines += 1;
        let Ok(indexed) = serde_json::from_slice::<Indexed<'_>>(&line[..n - 1]) else {
            continue;
        };
        let (Some(key), Ok(len)) = (ShortKey::of_hex(indexed.key), u32::try_from(n)) else {
            continue;
        };
        let place = Place {
            offset,
            len,
            verdict: indexed.result.verdict,
            slept: indexed.result.slept(),
        };
        index.known.push((key, place));
        if judge::upheld(&indexed.result, wall_limit) {
            index.not_upheld.remove(&key);
        } else {
            index.not_upheld.insert(key);
        }
    }
    Ok(index)
}

#[cfg(test)]
mod tests {
    use super::*;

    const WALL: std::time::Duration = std::time::Duration::from_secs(4);

    /// A key as a journal line writes it, made from `name`.
    fn key(name: &str) -> String {
        let keys = crate::batch::run_keys::Keys::without_texts(1);
        keys.run(name, 0).hex()
    }

    /// Where `name`'s run is, if `known` holds it.
    fn find(known: &Known, name: &str) -> Option<Place> {
        let keys = crate::batch::run_keys::Keys::without_texts(1);
        known.get(&keys.run(name, 0))
    }

    fn record(name: &str, output: &str) -> Record {
        let figures = crate::results::case::Figures {
            memory_kib: 1500,
            ..Default::default()
        };
        Record {
            key: key(name),
            student: "alice".to_owned(),
            result: CaseResult::new(
                "sample/01",
                reference::Judgement::wrong("expected `4`, got `5`"),
                figures,
                output.as_bytes().to_vec(),
                Vec::new(),
            ),
        }
    }

    /// The result the journal holds for `name`.
    fn result_of(journal: &Journal, known: &Known, name: &str) -> CaseResult {
        let mut read = journal.read(&[find(known, name).unwrap()]).unwrap();
        read.pop().unwrap()
    }

    #[test]
    fn a_torn_last_line_is_dropped_and_the_last_line_of_a_key_wins() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out/journal.jsonl");
        let (mut journal, known) = Journal::open(&path, WALL).unwrap();
        assert_eq!(known.len(), 0);
        journal.append(&record("a", "1\n")).unwrap();
        journal.append(&record("b", "2\n")).unwrap();
        journal.append(&record("a", "3\n")).unwrap();
        drop(journal);
        // A kill in the middle of a write.
        let mut text = std::fs::read(&path).unwrap();
        text.extend_from_slice(b"{\"key\":\"c\",\"stud");
        std::fs::write(&path, &text).unwrap();
        let (mut journal, known) = Journal::open(&path, WALL).unwrap();
        assert_eq!(known.len(), 2);
        assert_eq!(result_of(&journal, &known, "a"), record("a", "3\n").result);
        // The torn line is cut off: the next line starts where it did.
        let place = journal.append(&record("c", "4\n")).unwrap();
        assert_eq!(place.offset, text.len() as u64 - 16);
        drop(journal);
        let (journal, known) = Journal::open(&path, WALL).unwrap();
        assert_eq!(known.len(), 3);
        assert_eq!(find(&known, "c"), Some(place));
        assert_eq!(result_of(&journal, &known, "c"), record("c", "4\n").result);
    }

    #[test]
    fn a_line_is_read_back_where_it_was_appended_even_after_another_writer() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let (mut journal, _) = Journal::open(&path, WALL).unwrap();
        let first = journal.append(&record("a", "1\n")).unwrap();
        // Another grader appended a line meanwhile.
        let mut other = OpenOptions::new().append(true).open(&path).unwrap();
        other.write_all(b"{\"not\":\"ours\"}\n").unwrap();
        let second = journal.append(&record("b", "2\n")).unwrap();
        assert_eq!(second.offset, first.end() + 15);
        assert_eq!(second.verdict, Verdict::WrongAnswer);
        assert!(!second.slept);
        // Read in any order, the results come back in the order asked for.
        let read = journal.read(&[second, first]).unwrap();
        assert_eq!(read, [record("b", "2\n").result, record("a", "1\n").result]);
    }

    #[test]
    fn lines_far_apart_are_read_apart_and_each_comes_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let (mut journal, _) = Journal::open(&path, WALL).unwrap();
        let big = "x".repeat(40 << 10);
        let mut places = Vec::new();
        for i in 0..40 {
            let place = journal.append(&record(&format!("{i}"), &big)).unwrap();
            if i % 3 == 0 {
                places.push((i, place));
            }
        }
        let read = journal.read(&places.iter().map(|p| p.1).collect::<Vec<_>>());
        assert_eq!(read.unwrap().len(), places.len());
        let mut spans = 0;
        let sorted: Vec<Place> = places.iter().map(|p| p.1).collect();
        let mut last_end = None;
        journal
            .lines(&sorted, |place, line| {
                assert_eq!(line.map(<[u8]>::len), Some(place.len as usize));
                if last_end.is_none_or(|end| end != place.offset) {
                    spans += 1;
                }
                last_end = Some(place.end());
                Ok(())
            })
            .unwrap();
        assert_eq!(spans, places.len(), "no two lines are next to each other");
    }

    #[test]
    fn a_journal_changed_under_the_batch_is_a_fault_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let (mut journal, _) = Journal::open(&path, WALL).unwrap();
        let place = journal.append(&record("a", "1\n")).unwrap();
        drop(journal);
        let (journal, _) = Journal::open(&path, WALL).unwrap();
        std::fs::File::create(&path).unwrap();
        let fault = journal.read(&[place]).unwrap_err();
        assert_eq!(fault.cause(), crate::cli::exit::Cause::Output);
        assert!(
            fault
                .message()
                .starts_with(&format!("{}: changed", path.display())),
            "{fault}"
        );
    }

    /// A `TLE` at the wall limit of key `name`, keeping the figures of `runs` runs that
    /// slept through the whole 4 s limit.
    fn asleep(name: &str, runs: usize) -> Record {
        let mut tle = record(name, "");
        tle.result.verdict = reference::Verdict::TimeLimit;
        tle.result.message =
            "wall time over the 4 s limit with 3 ms of CPU: the program slept or waited".to_owned();
        tle.result.stalls = vec![
            crate::results::case::Stalled {
                cpu_ms: 3.0,
                wall_ms: 4001.0,
                waited_ms: 0.2,
                threads: 1,
                runnable: None,
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
        let old = format!(
            r#"{{"key":"{}","student":"alice","result":{{"name":"secret/01","verdict":"TLE","cpu_ms":13.2,"wall_ms":316.1,"memory_kib":9000,"message":"wall time over the 200 ms limit with 13 ms of CPU: the program slept or waited"}}}}"#,
            key("old")
        );
        let cpu = format!(
            r#"{{"key":"{}","student":"alice","result":{{"name":"secret/02","verdict":"TLE","cpu_ms":1003.0,"wall_ms":1010.0,"memory_kib":9000,"message":"CPU time 1.003 s over the 1 s limit"}}}}"#,
            key("cpu")
        );
        let header = String::from_utf8(header_line()).unwrap();
        std::fs::write(&path, format!("{header}{old}\n{cpu}\n")).unwrap();
        let (mut journal, known) = Journal::open(&path, WALL).unwrap();
        assert_eq!(journal.rejudged(), 1);
        assert_eq!(known.len(), 1);
        assert!(find(&known, "cpu").is_some());
        // Shown twice in a row: a mark, kept. Shown once: made again.
        journal.append(&asleep("twice", 2)).unwrap();
        let once = journal.append(&asleep("once", 1)).unwrap();
        assert!(once.slept, "its verdict is a sleeper's, upheld or not");
        // The old line's run made again, and journaled.
        journal.append(&record("old", "5\n")).unwrap();
        drop(journal);
        let (journal, known) = Journal::open(&path, WALL).unwrap();
        assert_eq!(journal.rejudged(), 1);
        assert_eq!(known.len(), 3);
        assert!(find(&known, "once").is_none());
        assert_eq!(
            result_of(&journal, &known, "old"),
            record("old", "5\n").result
        );
        assert_eq!(
            result_of(&journal, &known, "twice"),
            asleep("twice", 2).result
        );
        // A key judged again and then upheld by its later line counts as upheld.
        let mut journal = journal;
        journal.append(&asleep("once", 2)).unwrap();
        drop(journal);
        let (journal, known) = Journal::open(&path, WALL).unwrap();
        assert_eq!(journal.rejudged(), 0);
        assert!(find(&known, "once").is_some());
    }

    #[test]
    fn a_journal_starts_with_its_version_and_a_newer_one_is_refused_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let (mut journal, _) = Journal::open(&path, WALL).unwrap();
        journal.append(&record("a", "1\n")).unwrap();
        drop(journal);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("{\"journal_version\":2}\n"), "{text}");
        let (journal, known) = Journal::open(&path, WALL).unwrap();
        assert_eq!(
            (known.len(), journal.older(), journal.line_count()),
            (1, None, 1)
        );
        drop(journal);
        let newer = "{\"journal_version\":3}\n{\"key\":\"x\"}\n";
        std::fs::write(&path, newer).unwrap();
        let fault = Journal::open(&path, WALL).unwrap_err();
        assert!(
            fault.to_string().contains(
                "written by a newer grader (journal version 3; this grader reads version 2)"
            ),
            "{fault}"
        );
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            newer,
            "left as it was"
        );
    }

    #[test]
    fn an_older_graders_journal_is_counted_then_started_anew() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        // Version 1: no header, runs keyed another way.
        let line = serde_json::to_string(&record("a", "1\n")).unwrap();
        std::fs::write(&path, format!("{line}\n{line}\n")).unwrap();
        let (journal, known) = Journal::open(&path, WALL).unwrap();
        assert_eq!(
            (known.len(), journal.older(), journal.line_count()),
            (0, Some(2), 0)
        );
        drop(journal);
        assert_eq!(std::fs::read(&path).unwrap(), header_line());
        // A header cut short by a kill is no older journal: started anew, nothing to say.
        std::fs::write(&path, b"{\"journal_ver").unwrap();
        let (journal, known) = Journal::open(&path, WALL).unwrap();
        assert_eq!((known.len(), journal.older()), (0, None));
        drop(journal);
        assert_eq!(std::fs::read(&path).unwrap(), header_line());
    }
}
