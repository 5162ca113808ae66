//! The journal's compaction. After cases change or go, after submissions change, the
//! journal still holds the lines of runs that no student, case and limits of the class
//! make any more (and a key's older lines, and lines left out when read): dead lines,
//! which every later batch reads for nothing. When a batch has finished and more than
//! half of the journal's lines are dead, the journal is written again with only the live
//! lines (those of the batch's students on its cases, under its limits), into a temp file
//! beside it that is then renamed over it: a kill at any moment leaves the old journal or
//! the new one, whole.
//!
//! Why more than half: a later batch then reads at most twice the lines it needs, and a
//! compaction copies its live lines only after more dead lines than that were written
//! since the last: spread over the runs whose lines went dead, it costs at most a line
//! copied for each dead line, however often the cases change. A journal that only grows
//! (a case added, a student added) is never written again. Lines, not bytes: the rule
//! does not turn on how long each run's figures happen to print, so the same class and
//! the same changes compact alike.

use std::io::Write;

use super::journal::{Journal, Place, header_line};
use super::places::Places;
use crate::cli::exit::Fault;
use crate::paths::files;

/// A journal's size before and after a compaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Compacted {
    /// Its bytes before.
    pub(crate) before: u64,
    /// Its bytes after: its header's and its live lines'.
    pub(crate) after: u64,
}

/// Whether a journal of `lines` lines, `live` of them live, is compacted.
pub(crate) fn worth_it(lines: u64, live: u64) -> bool {
    lines.saturating_sub(live) > live
}

/// Compacts `journal` down to the lines at `places` when more than half of its lines
/// are dead; what it did, if anything.
pub(crate) fn compact(journal: Journal, places: &Places) -> Result<Option<Compacted>, Fault> {
    let path = journal.path().to_path_buf();
    let live = places.live();
    let live_bytes: u64 = live.iter().map(|p| u64::from(p.len)).sum();
    let meta = journal
        .file()
        .metadata()
        .map_err(|e| Fault::output(files::cannot(&path, "read", &e)))?;
    if !worth_it(journal.line_count(), live.len() as u64) {
        return Ok(None);
    }
    crate::cli::interrupt::check()?;
    let header = header_line();
    let mut atomic = files::Atomic::create(&path, "compact")?;
    atomic
        .out()
        .write_all(&header)
        .map_err(|e| Fault::output(files::cannot(&path, "compact", &e)))?;
    copy(&journal, &live, atomic.out())?;
    // Nothing reads the old journal from now on.
    drop(journal);
    // A stop asked for while the lines were copied: the old journal stays.
    crate::cli::interrupt::check()?;
    atomic.commit()?;
    Ok(Some(Compacted {
        before: meta.len(),
        after: header.len() as u64 + live_bytes,
    }))
}

/// Copies the lines at `live` (in the journal's order) from `journal` to `out`.
fn copy(journal: &Journal, live: &[Place], out: &mut dyn Write) -> Result<(), Fault> {
    let path = journal.path();
    journal.lines(live, |place, line| {
        let line = line
            .filter(|l| l.ends_with(b"\n"))
            .ok_or_else(|| journal.changed(place))?;
        out.write_all(line)
            .map_err(|e| Fault::output(files::cannot(path, "compact", &e)))
    })?;
    out.flush()
        .map_err(|e| Fault::output(files::cannot(path, "compact", &e)))
}

#[cfg(test)]
mod tests {
    use reference::{Judgement, Verdict};

    use super::*;
    use crate::batch::journal::Record;
    use crate::results::case::{CaseResult, Figures};

    const WALL: std::time::Duration = std::time::Duration::from_secs(4);

    fn record(name: &str) -> Record {
        let keys = crate::batch::run_keys::Keys::without_texts(1);
        let judgement = Judgement {
            verdict: Verdict::Accepted,
            message: String::new(),
        };
        Record {
            key: keys.run(name, 0).hex(),
            student: "alice".to_owned(),
            result: CaseResult::new(name, judgement, Figures::default(), Vec::new(), Vec::new()),
        }
    }

    #[test]
    fn a_journal_is_compacted_when_more_than_half_of_its_lines_are_dead() {
        assert!(!worth_it(0, 0));
        assert!(!worth_it(100, 100));
        assert!(!worth_it(8, 4), "half dead: kept");
        assert!(worth_it(9, 4));
        assert!(worth_it(100, 0));
    }

    /// A journal of runs `a` to `e`, `a` written twice; the places of `live` in it.
    fn journal(dir: &std::path::Path, live: &[&str]) -> (std::path::PathBuf, Places) {
        let path = dir.join("journal.jsonl");
        let (mut journal, _) = Journal::open(&path, WALL).unwrap();
        let mut places = Places::new(live.len(), 1);
        for name in ["a", "b", "c", "a", "d", "e"] {
            let place = journal.append(&record(name)).unwrap();
            if let Some(student) = live.iter().position(|l| *l == name) {
                places.set(student, 0, place);
            }
        }
        (path, places)
    }

    fn names_in(dir: &std::path::Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_mostly_dead_journal_keeps_only_its_live_lines_in_order_and_reads_back_the_same() {
        let dir = tempfile::tempdir().unwrap();
        let (path, places) = journal(dir.path(), &["e", "a"]);
        let before = std::fs::metadata(&path).unwrap().len();
        let (journal, _) = Journal::open(&path, WALL).unwrap();
        let done = compact(journal, &places).unwrap().expect("compacted");
        let text = std::fs::read_to_string(&path).unwrap();
        // The later line of `a`, then `e`: the journal's order.
        let expected: Vec<String> = ["a", "e"]
            .iter()
            .map(|n| serde_json::to_string(&record(n)).unwrap())
            .collect();
        let header = String::from_utf8(header_line()).unwrap();
        assert_eq!(text, format!("{header}{}\n{}\n", expected[0], expected[1]));
        assert_eq!(done.before, before);
        assert_eq!(done.after, text.len() as u64);
        assert_eq!(names_in(dir.path()), ["journal.jsonl"], "no temp file left");
        // Read again, it holds the same runs.
        let (journal, known) = Journal::open(&path, WALL).unwrap();
        for name in ["a", "e"] {
            let key = crate::batch::run_keys::Keys::without_texts(1).run(name, 0);
            let place = known.get(&key).unwrap();
            assert_eq!(journal.read(&[place]).unwrap(), [record(name).result]);
        }
        assert_eq!(known.len(), 2);
    }

    #[test]
    fn a_mostly_live_journal_is_left_as_it_is() {
        let dir = tempfile::tempdir().unwrap();
        let (path, places) = journal(dir.path(), &["a", "b", "c", "d"]);
        let text = std::fs::read(&path).unwrap();
        let (journal, _) = Journal::open(&path, WALL).unwrap();
        assert_eq!(compact(journal, &places).unwrap(), None);
        assert_eq!(std::fs::read(&path).unwrap(), text);
    }

    #[test]
    fn a_journal_cut_under_the_batch_is_not_compacted_and_not_lost() {
        let dir = tempfile::tempdir().unwrap();
        let (path, places) = journal(dir.path(), &["e"]);
        let (journal, _) = Journal::open(&path, WALL).unwrap();
        let text = std::fs::read(&path).unwrap();
        // Cut inside `e`'s line: the compaction cannot copy it.
        std::fs::write(&path, &text[..text.len() - 5]).unwrap();
        let fault = compact(journal, &places).unwrap_err();
        assert!(
            fault
                .to_string()
                .contains("changed while the batch read it"),
            "{fault}"
        );
        assert_eq!(std::fs::read(&path).unwrap(), &text[..text.len() - 5]);
        assert_eq!(names_in(dir.path()), ["journal.jsonl"], "no temp file left");
    }
}
