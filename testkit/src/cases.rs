//! Case folders, as `grader test` and `grader batch` read them (`NAME.in` with `NAME.ans`,
//! in group folders), and the manifests `grader cases regen` makes them from.

use std::fs;
use std::path::{Path, PathBuf};

use crate::boards::{FLIP_SAMPLE, FOURINROW_SAMPLE};
use crate::files;

/// A case folder being laid out.
pub struct CaseFolder {
    dir: PathBuf,
}

impl CaseFolder {
    /// The case folder `dir`, made (with its parents) if it is not there.
    pub fn at(dir: impl Into<PathBuf>) -> CaseFolder {
        let dir = dir.into();
        fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        CaseFolder { dir }
    }

    /// The case folder.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// Adds the case `name` (with its groups: `secret/a/01`): `NAME.in` holding `input`
    /// and `NAME.ans` holding `answer`.
    pub fn case(
        &self,
        name: &str,
        input: impl AsRef<[u8]>,
        answer: impl AsRef<[u8]>,
    ) -> &CaseFolder {
        files::write(&self.dir, format!("{name}.in"), input);
        files::write(&self.dir, format!("{name}.ans"), answer);
        self
    }

    /// Adds the case `name`, a copy of the case `from` of the case folder `source` (its
    /// `.in` and its `.ans`).
    pub fn copied(&self, name: &str, source: &Path, from: &str) -> &CaseFolder {
        for ext in ["in", "ans"] {
            files::copy(
                &source.join(format!("{from}.{ext}")),
                self.dir.join(format!("{name}.{ext}")),
            );
        }
        self
    }

    /// Adds `count` cases, `0000` on, each `input` with `answer`; their inputs' paths.
    pub fn repeated(
        &self,
        count: usize,
        input: impl AsRef<[u8]>,
        answer: impl AsRef<[u8]>,
    ) -> Vec<PathBuf> {
        (0..count)
            .map(|i| {
                let name = format!("{i:04}");
                self.case(&name, &input, &answer);
                self.dir.join(format!("{name}.in"))
            })
            .collect()
    }
}

/// A small manifest for `problem` (`grader cases regen`): its sample, and one group of
/// four random boards.
pub fn small_manifest(problem: &str) -> String {
    let (sample, kind) = match problem {
        "flip" => (FLIP_SAMPLE, "random"),
        "fourinrow" => (FOURINROW_SAMPLE, "random"),
        _ => ("WWOBB\n", "random"),
    };
    format!(
        "problem = \"{problem}\"\nsamples = [\"{}\"]\n\n[[group]]\nname = \"mixed\"\nkinds = [\"{kind}\"]\nseed = 5\ncount = 4\n",
        sample.replace('\n', "\\n")
    )
}
