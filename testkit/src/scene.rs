//! A working folder for calls of the binary that run programs: a temporary folder of its
//! own for the grader (`TMPDIR`) and a compile cache of its own, both gone with the test.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use tempfile::TempDir;

use crate::grader::grader_path;

/// A working folder (the calls' current folder), its `tmp/` (their `TMPDIR`) and a compile
/// cache (`GRADER_CACHE_DIR`), and how long a call may take before it is a hang.
///
/// The folder is open to the workers' uids (755) and `tmp/` is as /tmp is (1777): a
/// grader run as root hands the box uids folders inside it. A grader killed in the middle
/// cannot remove its temporary folders; in `tmp/` they go with the test.
pub struct Scene {
    root: TempDir,
    cache: TempDir,
    timeout: Duration,
}

impl Scene {
    /// A new, empty scene whose calls may take `timeout` each (wide: a loaded machine
    /// compiling must not fail a test).
    pub fn new(timeout: Duration) -> Scene {
        let root = tempfile::tempdir().expect("a temporary folder");
        fs::set_permissions(root.path(), fs::Permissions::from_mode(0o755))
            .expect("chmod the scene");
        let tmp = root.path().join("tmp");
        fs::create_dir(&tmp).expect("the scene's tmp");
        fs::set_permissions(&tmp, fs::Permissions::from_mode(0o1777)).expect("chmod its tmp");
        Scene {
            root,
            cache: tempfile::tempdir().expect("a compile cache"),
            timeout,
        }
    }

    /// The working folder.
    pub fn root(&self) -> &Path {
        self.root.path()
    }

    /// `rel` in the working folder.
    pub fn path(&self, rel: impl AsRef<Path>) -> PathBuf {
        self.root.path().join(rel)
    }

    /// The compile cache.
    pub fn cache(&self) -> &Path {
        self.cache.path()
    }

    /// The grader's temporary folder.
    pub fn tmp(&self) -> PathBuf {
        self.path("tmp")
    }

    /// `grader` in the working folder, with the scene's `TMPDIR` and compile cache and
    /// colours off, as a plain process (whose streams may go anywhere; no timeout).
    pub fn process(&self) -> std::process::Command {
        let mut cmd = std::process::Command::new(grader_path());
        cmd.env("NO_COLOR", "1")
            .env("GRADER_CACHE_DIR", self.cache())
            .env("TMPDIR", self.tmp())
            .current_dir(self.root());
        cmd
    }

    /// [`Scene::process`], to assert on, killed after the scene's timeout.
    pub fn grader(&self) -> assert_cmd::Command {
        let mut cmd = assert_cmd::Command::from_std(self.process());
        cmd.timeout(self.timeout);
        cmd
    }

    /// Asserts that nothing of a run is left in the grader's temporary folder.
    pub fn assert_no_files_left(&self) {
        let left: Vec<_> = fs::read_dir(self.tmp()).expect("the scene's tmp").collect();
        assert!(left.is_empty(), "left behind: {left:?}");
    }
}
