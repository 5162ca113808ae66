//! A class folder, as `grader batch` reads one: a student's submission is a file, or a
//! folder, below it.

use std::fs;
use std::path::{Path, PathBuf};

use crate::files;

/// A class folder being laid out.
pub struct Class {
    dir: PathBuf,
}

impl Class {
    /// The class folder `dir`, made (with its parents) if it is not there.
    pub fn at(dir: impl Into<PathBuf>) -> Class {
        let dir = dir.into();
        fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        Class { dir }
    }

    /// The class folder.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// Adds the file `name` (a path in the class: `sec/carol/main.c`), a copy of `from`.
    pub fn copy(&self, name: impl AsRef<Path>, from: &Path) -> &Class {
        files::copy(from, self.dir.join(name));
        self
    }

    /// Adds the file `name` holding `text`.
    pub fn write(&self, name: impl AsRef<Path>, text: impl AsRef<[u8]>) -> &Class {
        files::write(&self.dir, name, text);
        self
    }

    /// Adds a student of each name, `NAME.EXT`: `source` (C or C++) after a comment naming
    /// the student, so that each is its own program (no student's build is another's
    /// from the compile cache), as in a real class.
    pub fn distinct<N: AsRef<str>>(
        &self,
        names: impl IntoIterator<Item = N>,
        ext: &str,
        source: &str,
    ) -> &Class {
        for name in names {
            let name = name.as_ref();
            // A name holding `*/` would end the comment early.
            let mark = name.replace('*', "-");
            self.write(format!("{name}.{ext}"), format!("/* {mark} */\n{source}"));
        }
        self
    }
}
