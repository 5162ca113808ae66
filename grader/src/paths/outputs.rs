//! The one rule for every path a call writes (`--report-file`, `--save`, `--regressions`,
//! the `--out` folders of `gen`, `batch` and `merge` with their gradebooks and journal),
//! checked before any work: a typo costs nothing, and nothing the user has is lost.
//!
//! - The folder it goes in exists and is writable (a folder output is made when missing,
//!   in a parent that exists; so is the folder of the regressions file).
//! - It is not an input of the call: the submission, a language table, a case file or
//!   folder, the class folder or a student's source, a gradebook being merged. Inputs are
//!   told by device and inode, so a link or a second name for a file is caught too.
//! - A file that exists is replaced only when it is one of ours of the same kind (a
//!   report, a gradebook, a journal, a regressions file, a feedback page), or empty.
//!   The formats are sniffed, not marked: reports keep the shape cli.md gives them.
//!
//! Writing stays atomic (`files::write_atomic`); this module only decides whether to.

use std::fs;
use std::io::ErrorKind;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

use reference::Problem;

use crate::cases::find::Case;
use crate::cli::exit::Fault;
use crate::paths::files;
use crate::results::problem::ProblemId;

/// What a file output holds, which decides what an existing file there may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// The report of `test` or `fuzz`: human, JSON or JUnit.
    Report,
    /// A gradebook file of `batch` or `merge`: JSON, CSV, JUnit or HTML.
    Gradebook,
    /// The journal of `batch` (appended to, to resume).
    Journal,
    /// The regressions file of `fuzz` (read, then added to).
    Regressions,
    /// A student's feedback page of `batch --feedback` or `merge --feedback`.
    Feedback,
}

impl Kind {
    fn noun(self) -> &'static str {
        match self {
            Kind::Report => "a report",
            Kind::Gradebook => "a gradebook",
            Kind::Journal => "a batch journal",
            Kind::Regressions => "a regressions file",
            Kind::Feedback => "a feedback page",
        }
    }
}

/// Whether the folder a file output goes in may be made by the call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Parent {
    /// It must exist (an explicit file path: a missing folder is a typo).
    MustExist,
    /// It is made when missing, in a parent that exists (the default regressions folder).
    MayBeMade,
}

/// The files and folders a call reads: what no output may be.
#[derive(Debug, Default)]
pub(crate) struct Inputs {
    /// Device, inode, and what the input is, for messages.
    known: Vec<(u64, u64, String)>,
}

impl Inputs {
    /// Adds an input (a file or a folder). A path that does not exist is no input yet: it
    /// is refused by the code that reads it.
    pub(crate) fn add(&mut self, path: &Path, what: &str) {
        if let Ok(meta) = fs::metadata(path) {
            self.known
                .push((meta.dev(), meta.ino(), format!("{what} {}", path.display())));
        }
    }

    /// Adds a case's input and answer.
    pub(crate) fn add_case(&mut self, case: &Case) {
        self.add(&case.input, "case file");
        if let Some(answer) = &case.answer {
            self.add(answer, "case file");
        }
    }

    /// What `path` is as an input of the call, if it is one.
    fn find(&self, path: &Path) -> Option<&str> {
        let meta = fs::metadata(path).ok()?;
        self.known
            .iter()
            .find(|(dev, ino, _)| *dev == meta.dev() && *ino == meta.ino())
            .map(|(_, _, what)| what.as_str())
    }
}

/// Checks a file output: see the module's rule.
pub(crate) fn file(path: &Path, kind: Kind, parent: Parent, inputs: &Inputs) -> Result<(), Fault> {
    let refuse = |why: String| Err(Fault::output(format!("{}: {why}", path.display())));
    let folder = files::parent_or_here(path);
    let ready = match parent {
        Parent::MustExist => existing_folder(folder, inputs),
        Parent::MayBeMade => folder_to_write(folder, inputs),
    };
    if let Err(why) = ready {
        return refuse(format!(
            "cannot write: its folder {} {why}",
            folder.display()
        ));
    }
    if let Some(what) = inputs.find(path) {
        return refuse(format!(
            "is the {what} of this call; it is never overwritten"
        ));
    }
    match fs::metadata(path) {
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(()),
        Err(e) => Err(Fault::output(files::cannot(path, "inspect", &e))),
        Ok(meta) if meta.is_dir() => refuse("is a folder, not a file".to_owned()),
        // A device, a FIFO or a socket is never one of ours, and reading it to find out
        // could block or never end.
        Ok(meta) if !meta.is_file() => Err(Fault::output(
            files::not_regular(path, &meta)
                .unwrap_or_else(|| format!("{}: not a file", path.display())),
        )),
        Ok(_) => {
            // A file is known by its head first: parsing a gradebook of a few thousand
            // students whole as one JSON value, to check what its head shows, was the
            // largest thing in a rerun's memory (28 MB for a 4.7 MB gradebook; a 16 MiB
            // one, cut at the cap, failed at the cut after a twentieth of the rerun).
            // A file there that cannot be read to tell is an output the call cannot use.
            let unusable = |unread: Fault| Fault::output(unread.message());
            let (head, whole) = files::read_head(path, HEAD).map_err(unusable)?;
            let mine = (whole && ours(kind, &head)) || ours_by_its_head(kind, &head) || {
                let (bytes, whole) = files::read_prefix(path).map_err(unusable)?;
                if whole {
                    ours(kind, &bytes)
                } else {
                    ours_by_its_head(kind, &bytes)
                }
            };
            if mine {
                Ok(())
            } else {
                refuse(format!(
                    "exists and is not {} the grader wrote; it is not replaced (move it \
                     away or choose another path)",
                    kind.noun()
                ))
            }
        }
    }
}

/// Checks a folder output and the files the call writes in it (`files`, each of its
/// kind): see the module's rule. A missing folder is made later, in a parent that exists.
pub(crate) fn folder(dir: &Path, files: &[(&str, Kind)], inputs: &Inputs) -> Result<(), Fault> {
    // A file at `dir` or above it is named as every command names one (`folders.rs`).
    if let Some(file) = crate::paths::files::file_in_the_way(dir) {
        return Err(Fault::output(crate::paths::folders::not_a_folder(
            file,
            "write into",
        )));
    }
    folder_to_write(dir, inputs)
        .map_err(|why| Fault::output(format!("{}: {why}", dir.display())))?;
    if !dir.is_dir() {
        // Made by the call: nothing in it yet to lose.
        return Ok(());
    }
    for (name, kind) in files {
        file(&dir.join(name), *kind, Parent::MustExist, inputs)?;
    }
    Ok(())
}

/// Why files cannot go in `dir`, made when missing in a parent that exists.
fn folder_to_write(dir: &Path, inputs: &Inputs) -> Result<(), String> {
    if fs::symlink_metadata(dir).is_ok() {
        return existing_folder(dir, inputs);
    }
    let parent = files::parent_or_here(dir);
    if !parent.is_dir() {
        return Err(format!(
            "cannot make it: {} {}",
            parent.display(),
            if parent.exists() {
                "is not a folder"
            } else {
                "does not exist"
            }
        ));
    }
    writable(parent).map_err(|why| format!("cannot make it in {}: {why}", parent.display()))
}

/// Why files cannot go in `dir`, which must exist.
fn existing_folder(dir: &Path, inputs: &Inputs) -> Result<(), String> {
    match fs::metadata(dir) {
        Err(e) if e.kind() == ErrorKind::NotFound => Err("does not exist".to_owned()),
        Err(e) => Err(e.to_string()),
        Ok(meta) if !meta.is_dir() => Err(format!("is {}, not a folder", files::kind_at(dir))),
        Ok(_) => {
            if let Some(what) = inputs.find(dir) {
                return Err(format!(
                    "is the {what} of this call; nothing is written into it"
                ));
            }
            writable(dir).map_err(|why| format!("cannot be written into: {why}"))
        }
    }
}

/// Whether the call may make files in `dir`: tried, not guessed from mode bits (ACLs,
/// read-only mounts and root all decide otherwise). The probe file goes at once.
fn writable(dir: &Path) -> Result<(), String> {
    tempfile::Builder::new()
        .prefix(".grader-probe-")
        .tempfile_in(dir)
        .map(drop)
        .map_err(|e| match e.kind() {
            ErrorKind::PermissionDenied | ErrorKind::ReadOnlyFilesystem => {
                "permission denied".to_owned()
            }
            _ => e.to_string(),
        })
}

/// Whether `bytes` (a file's start) are a file of `kind` the grader writes, or nothing.
fn ours(kind: Kind, bytes: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return false;
    };
    if text.trim().is_empty() {
        return true;
    }
    match kind {
        Kind::Report => json_with(text, &["problem", "verdict"]) || junit(text) || human(text),
        Kind::Gradebook => {
            json_with(text, &["problem", "students"])
                || junit(text)
                || text.starts_with("student,submission,language,score,verdict,")
                || (text.starts_with("<!DOCTYPE html>") && text.contains(" gradebook</title>"))
        }
        // Its version's line (any version: a newer one is refused when opened, by name),
        // or a run's line, as an older grader's journal began.
        Kind::Journal => text.lines().next().is_some_and(|line| {
            json_with(line, &["journal_version"]) || json_with(line, &["key", "student", "result"])
        }),
        Kind::Regressions => fuzz::regressions::parse(text).is_ok(),
        Kind::Feedback => {
            text.starts_with("<!DOCTYPE html>")
                && text.contains(" feedback</title>")
                && text.contains(": feedback for ")
        }
    }
}

/// How much of a file [`ours_by_its_head`] reads first.
const HEAD: u64 = 64 << 10;

/// [`ours`] for the first bytes of a file too big to read whole (a class of thousands
/// writes a gradebook of tens of megabytes): its text up to the cut, which may fall in a
/// character, and a JSON gradebook by its head, `{"problem": "NAME", ...`, as the grader
/// writes it, with its `students` key among the keys read.
fn ours_by_its_head(kind: Kind, bytes: &[u8]) -> bool {
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        // Cut in a character: the text before it.
        Err(e) if e.error_len().is_none() => {
            std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default()
        }
        Err(_) => return false,
    };
    let json_head = || {
        let Some(rest) = text.trim_start().strip_prefix('{') else {
            return false;
        };
        let Some(rest) = rest.trim_start().strip_prefix("\"problem\"") else {
            return false;
        };
        let Some(rest) = rest.trim_start().strip_prefix(':') else {
            return false;
        };
        let mut values = serde_json::Deserializer::from_str(rest).into_iter::<String>();
        values.next().and_then(Result::ok).is_some_and(|problem| {
            problem.parse::<Problem>().is_ok()
                || (ProblemId::is_name(&problem) && text.contains("\n  \"limits\": "))
        }) && text.contains("\n  \"students\": [")
    };
    match kind {
        Kind::Gradebook => json_head() || ours(kind, text.as_bytes()),
        _ => ours(kind, text.as_bytes()),
    }
}

/// A JSON object whose `problem` (when asked for) names a problem, holding `keys`.
fn json_with(text: &str, keys: &[&str]) -> bool {
    let Ok(serde_json::Value::Object(object)) = serde_json::from_str(text) else {
        return false;
    };
    let problem_ok = object
        .get("problem")
        .map_or(!keys.contains(&"problem"), |p| {
            p.as_str().is_some_and(|p| {
                p.parse::<Problem>().is_ok()
                    // A package's, in the whole shape of the grader's reports.
                    || (ProblemId::is_name(p) && object.contains_key("limits"))
            })
        });
    problem_ok && keys.iter().all(|k| object.contains_key(*k))
}

/// JUnit XML as `report::junit` writes it: the report is named for the grader.
fn junit(text: &str) -> bool {
    text.starts_with("<?xml") && text.contains("<testsuites name=\"grader")
}

/// The human report of `test` (`flip sol.c (...; limits ...; sandbox strict)`) or of
/// `fuzz` (`fuzz flip sol.c (...; limits ...; sandbox strict)`), as written without
/// colours.
fn human(text: &str) -> bool {
    let first = text.lines().next().unwrap_or_default();
    let rest = first.strip_prefix("fuzz ").unwrap_or(first);
    let names_a_problem = rest
        .split_once(' ')
        .is_some_and(|(problem, _)| problem.parse::<Problem>().is_ok());
    let tiers = ["none", "basic", "strict"];
    names_a_problem
        && first.contains("; limits ")
        && tiers
            .iter()
            .any(|tier| first.ends_with(&format!("; sandbox {tier})")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::exit::Cause;

    #[test]
    fn our_formats_are_told_from_the_users_files() {
        let report = [
            "{\n  \"problem\": \"flip\",\n  \"submission\": \"a.c\",\n  \"verdict\": \"AC\"\n}\n",
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"grader\" tests=\"2\">",
            "flip sol.c (C, compiled; 2 cases; limits 1 s CPU, 4 s wall; sandbox strict)\n\nAC",
            "fuzz swap sol.py (python; seed 7; limits 1 s CPU, 256 MiB; sandbox basic)\n",
            "",
            "\n",
        ];
        for text in report {
            assert!(ours(Kind::Report, text.as_bytes()), "{text}");
        }
        let users = [
            "#include <stdio.h>\nint main() { return 0; }\n",
            "{\"name\": \"my-package\", \"version\": \"1.0\"}",
            "{\"problem\": \"chess\", \"verdict\": \"AC\"}",
            "bwwb\nbbwb\nbwwb\nbwww\n",
            "flip is a game (my notes; sandbox ideas)",
        ];
        for text in users {
            assert!(!ours(Kind::Report, text.as_bytes()), "{text}");
            assert!(!ours(Kind::Gradebook, text.as_bytes()), "{text}");
            assert!(!ours(Kind::Journal, text.as_bytes()), "{text}");
        }
        assert!(!ours(Kind::Report, b"\xff\xfe"));
        assert!(ours(
            Kind::Gradebook,
            b"student,submission,language,score,verdict,passed,total,compiled\n"
        ));
        assert!(ours(
            Kind::Gradebook,
            b"{\"problem\": \"flip\", \"students\": []}"
        ));
        // A package's gradebook and report, in their whole shape; not without it.
        assert!(ours(
            Kind::Gradebook,
            b"{\"problem\": \"oddecho\", \"limits\": {}, \"students\": []}"
        ));
        assert!(ours(
            Kind::Report,
            b"{\"problem\": \"oddecho\", \"limits\": {}, \"verdict\": \"AC\"}"
        ));
        assert!(!ours(
            Kind::Gradebook,
            b"{\"problem\": \"../x\", \"limits\": {}, \"students\": []}"
        ));
        // A report is not a gradebook, and a gradebook is not a report.
        assert!(!ours(Kind::Gradebook, report[0].as_bytes()));
        assert!(!ours(
            Kind::Report,
            b"{\"problem\": \"flip\", \"students\": []}"
        ));
        assert!(ours(
            Kind::Journal,
            b"{\"key\":\"ab\",\"student\":\"alice\",\"result\":{\"name\":\"sample/01\"}}\n{\"key\""
        ));
        assert!(ours(
            Kind::Journal,
            b"{\"journal_version\":2}\n{\"key\":\"ab\",\"student\":\"alice\",\"result\":{}}\n"
        ));
        assert!(ours(Kind::Journal, b"{\"journal_version\":2}\n"));
        assert!(ours(
            Kind::Regressions,
            b"# comment\nflip seed=1 run=2 input=\"bwwb\\nbbwb\\nbwwb\\nbwww\\n\"\n"
        ));
        assert!(!ours(Kind::Regressions, b"int main() {}\n"));
        // The head of a gradebook too big to read whole, cut anywhere (in a character
        // too); the user's big JSON or text is still not ours.
        let head = "{\n  \"problem\": \"flip\",\n  \"limits\": {},\n  \"students\": [\n    {\"student\": \"é";
        let cut = &head.as_bytes()[..head.len() - 1];
        assert!(!ours(Kind::Gradebook, cut));
        assert!(ours_by_its_head(Kind::Gradebook, cut));
        for theirs in [
            "{\n  \"problem\": \"chess\",\n  \"students\": [",
            "{\n  \"name\": \"flip\",\n  \"students\": [",
            "{\n  \"problem\": \"flip\",\n  \"notes\": [",
            "[1, 2, 3",
        ] {
            assert!(
                !ours_by_its_head(Kind::Gradebook, theirs.as_bytes()),
                "{theirs}"
            );
        }
        assert!(ours_by_its_head(
            Kind::Gradebook,
            b"student,submission,language,score,verdict,passed\nalice,a.c,c,100"
        ));
        let page = "<!DOCTYPE html><html><head><title>flip: alice feedback</title></head>\
                    <body><h1>flip: feedback for alice</h1>";
        assert!(ours(Kind::Feedback, page.as_bytes()));
        // A gradebook page, or the user's own page, is not a feedback page.
        assert!(!ours(
            Kind::Feedback,
            b"<!DOCTYPE html><html><head><title>flip gradebook</title>"
        ));
        assert!(!ours(
            Kind::Feedback,
            b"<!DOCTYPE html><title>Course feedback</title><h1>Notes</h1>"
        ));
    }

    #[test]
    fn an_input_is_never_an_output_even_under_another_name() {
        let dir = tempfile::tempdir().unwrap();
        let source = dir.path().join("sol.c");
        fs::write(&source, "int main() {}\n").unwrap();
        let link = dir.path().join("link.json");
        std::os::unix::fs::symlink(&source, &link).unwrap();
        let mut inputs = Inputs::default();
        inputs.add(&source, "submission");
        for path in [&source, &link] {
            let fault = file(path, Kind::Report, Parent::MustExist, &inputs).unwrap_err();
            assert_eq!(fault.cause(), Cause::Output);
            assert!(fault.message().contains("is the submission"), "{fault:?}");
        }
        inputs.add(dir.path(), "class folder");
        assert!(folder(dir.path(), &[], &inputs).is_err());
    }

    #[test]
    fn missing_folders_and_folders_for_files_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let none = Inputs::default();
        let deep = dir.path().join("no/such/report.json");
        let fault = file(&deep, Kind::Report, Parent::MustExist, &none).unwrap_err();
        assert_eq!(fault.cause(), Cause::Output);
        assert!(fault.message().contains("does not exist"), "{fault:?}");
        // One missing level may be made for a folder output, not two.
        let files = [("gradebook.json", Kind::Gradebook)];
        assert_eq!(folder(&dir.path().join("new"), &files, &none), Ok(()));
        assert!(folder(&dir.path().join("new/deeper"), &[], &none).is_err());
        assert!(file(dir.path(), Kind::Report, Parent::MustExist, &none).is_err());
        let a_file = dir.path().join("notes.txt");
        fs::write(&a_file, "mine").unwrap();
        let fault = folder(&a_file, &[], &none).unwrap_err();
        assert_eq!(fault.cause(), Cause::Output);
        assert!(
            fault.message().contains("is a file, not a folder"),
            "{fault:?}"
        );
        // Nothing of the checks is left behind.
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
