//! A test's world: a folder all may enter (its programs, their cases), the folders the box
//! asks of its host, the failures found so far, and the checks every call must pass.
//!
//! Everything lives in this process's own folder of the temporary folder,
//! `sandbox-containment-<pid>`: scenes, and the box's folders (a box's root, a scratch
//! folder's parent), which this binary's [`Host`] makes there so that a test sees whether
//! a worker left one behind. The folder is removed at the end of the binary, and those of
//! binaries that were killed outright are swept at the start of the next one.
//!
//! Programs are the grader's hostile fixtures (`grader/tests/fixtures/hostile`, which its
//! own CLI tests compile too), compiled here with gcc; `@NAME@` in them becomes a value of
//! the test.

use std::collections::HashSet;
use std::fs;
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use sandbox::Host;

use crate::sweep;

/// The flip sample; most fixtures answer it (4) blindly.
pub(crate) const SAMPLE: &str = "bwwb\nbbwb\nbwwb\nbwww\n";

/// How long the processes of a finished call get to disappear.
const GRACE: Duration = Duration::from_secs(3);

/// What this process's folders are called in the temporary folder.
const PREFIX: &str = "sandbox-containment-";

/// How many times slower than this machine the one running the tests is: the cgroup-v2
/// VM (`.ci/vm`) emulates its processor, and may say so in `GRADER_TEST_SLOWDOWN`, as for
/// the grader's box tests. Wall limits and bounds on time are stretched by it; CPU limits
/// are not.
pub(crate) fn slowdown() -> u32 {
    std::env::var("GRADER_TEST_SLOWDOWN")
        .ok()
        .and_then(|s| s.parse().ok())
        .filter(|&n| n >= 1)
        .unwrap_or(1)
}

/// This process's folder (see the module's doc), made at the first call.
fn own_folder() -> &'static Path {
    static FOLDER: OnceLock<PathBuf> = OnceLock::new();
    FOLDER.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("{PREFIX}{}", std::process::id()));
        fs::create_dir_all(dir.join("host")).unwrap();
        for path in [&dir, &dir.join("host")] {
            fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
        }
        dir
    })
}

/// Where the box makes its folders ([`TestHost`]).
fn host_folder() -> PathBuf {
    own_folder().join("host")
}

/// The box's host here: its folders in [`host_folder`], never stopping.
struct TestHost;

impl Host for TestHost {
    fn temp_dir(&self, name: &str) -> io::Result<tempfile::TempDir> {
        let dir = tempfile::Builder::new()
            .prefix(&format!("{name}-"))
            .tempdir_in(host_folder())?;
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755))?;
        Ok(dir)
    }

    fn stopping(&self) -> bool {
        false
    }
}

/// Before the tests: the folders of binaries that were killed outright (no process of
/// that pid runs) go, and the box gets this binary's host.
pub(crate) fn set_up() {
    static HOST: TestHost = TestHost;
    if let Ok(entries) = fs::read_dir(std::env::temp_dir()) {
        for entry in entries.flatten() {
            let name = entry.file_name();
            let dead = name
                .to_str()
                .and_then(|n| n.strip_prefix(PREFIX))
                .and_then(|pid| pid.parse::<u32>().ok())
                .is_some_and(|pid| !Path::new(&format!("/proc/{pid}")).exists());
            if dead {
                let _ = sandbox::remove::remove_tree(&entry.path());
            }
        }
    }
    assert!(sandbox::set_host(&HOST), "the host was set already");
}

/// After the tests: this process's folder goes.
pub(crate) fn tear_down() {
    let _ = sandbox::remove::remove_tree(own_folder());
}

/// The fixture `name` of the grader's hostile programs.
pub(crate) fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../grader/tests/fixtures/hostile")
        .join(name)
}

/// One test's world (see the module's doc).
pub(crate) struct Scene {
    root: PathBuf,
    /// Unique to this test: in the names of the folders it makes, to find its processes.
    pub(crate) nonce: String,
    failures: Vec<String>,
}

impl Scene {
    pub(crate) fn new() -> Scene {
        let root = tempfile::Builder::new()
            .prefix("scene-")
            .tempdir_in(own_folder())
            .unwrap()
            .keep();
        fs::set_permissions(&root, fs::Permissions::from_mode(0o755)).unwrap();
        let nonce = root.file_name().unwrap().to_string_lossy().into_owned();
        Scene {
            root,
            nonce,
            failures: Vec::new(),
        }
    }

    pub(crate) fn path(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    pub(crate) fn fail(&mut self, message: String) {
        self.failures.push(message);
    }

    /// Asserts that nothing failed.
    pub(crate) fn finish(self) {
        assert!(self.failures.is_empty(), "{}", self.failures.join("\n"));
    }

    /// A folder all may read, holding `text` at `rel` for each `(rel, text)`: every folder
    /// 0755 and file 0644, whatever the umask (only a box keeps a program out).
    pub(crate) fn folder(&self, name: &str, files: &[(&str, &str)]) -> PathBuf {
        let dir = self.path(name);
        fs::create_dir_all(&dir).unwrap();
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
        for (rel, text) in files {
            let path = dir.join(rel);
            fs::write(&path, text).unwrap();
            fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).unwrap();
        }
        dir
    }

    /// `count` cases of the flip sample (answer 4), as `name/01.in` ...; their inputs.
    pub(crate) fn sample_cases(&self, name: &str, count: usize) -> Vec<PathBuf> {
        let files: Vec<(String, &str)> = (1..=count)
            .flat_map(|i| {
                [
                    (format!("{i:02}.in"), SAMPLE),
                    (format!("{i:02}.ans"), "4\n"),
                ]
            })
            .collect();
        let refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), *t)).collect();
        let dir = self.folder(name, &refs);
        (1..=count)
            .map(|i| dir.join(format!("{i:02}.in")))
            .collect()
    }

    /// Fixture `name` with `@NAME@` replaced by each `(NAME, value)`.
    pub(crate) fn render(name: &str, vars: &[(&str, String)]) -> String {
        let mut text = fs::read_to_string(fixture(name)).unwrap();
        for (key, value) in vars {
            text = text.replace(&format!("@{key}@"), value);
        }
        let rest: Vec<&str> = text
            .split('@')
            .skip(1)
            .step_by(2)
            .filter(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_uppercase() || c == '_'))
            .collect();
        assert!(rest.is_empty(), "{name}: no value for {rest:?}");
        text
    }

    /// Fixture `name` rendered with `vars` and compiled with gcc (`-O2 -pthread`, and
    /// `flags`), alone in a folder of its own (a program's files are its folder's).
    pub(crate) fn gcc(&self, name: &str, vars: &[(&str, String)], flags: &[String]) -> PathBuf {
        let stem = name.trim_end_matches(".c");
        let source = self
            .folder("src", &[(name, &Scene::render(name, vars))])
            .join(name);
        let dir = self.folder(&format!("prog-{stem}"), &[]);
        let binary = dir.join(stem);
        let built = Command::new("gcc")
            .args(["-O2", "-pthread"])
            .args(flags)
            .arg("-o")
            .arg(&binary)
            .arg(&source)
            .status()
            .unwrap();
        assert!(built.success(), "{name}: gcc failed");
        binary
    }

    /// Runs `call`, which starts its workers and ends them, and checks what every call
    /// must hold, as the grader's box tests check each call of the grader: it took at most
    /// `bound` (stretched by [`slowdown`]); once every worker ended, no process of it is
    /// left (those found are killed), nothing new is outside (`grader-hostile*` in /tmp
    /// or /dev/shm), and the box's host folder is empty.
    pub(crate) fn call<T>(&mut self, label: &str, bound: Duration, call: impl FnOnce() -> T) -> T {
        let before: HashSet<i32> = sweep::pids().into_iter().collect();
        let marks = sweep::marks_outside();
        let start = Instant::now();
        let result = call();
        let elapsed = start.elapsed();
        sandbox::drop_spare();
        if elapsed > bound * slowdown() {
            self.fail(format!("{label}: took {elapsed:.1?}, more than {bound:?}"));
        }
        self.check_left(label, &before, &marks);
        result
    }

    /// No process of the call left (those found are killed), nothing new outside, the
    /// host's folder empty.
    fn check_left(&mut self, label: &str, before: &HashSet<i32>, marks: &HashSet<PathBuf>) {
        let markers = [self.root.to_string_lossy().into_owned(), self.nonce.clone()];
        let start = Instant::now();
        let left = loop {
            let left = sweep::leftovers(before, &markers);
            if left.is_empty() || start.elapsed() > GRACE {
                break left;
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        for p in &left {
            self.fail(format!(
                "{label}: process {} `{}` (uid {}, parent {}) outlived the run: {}",
                p.pid, p.comm, p.uid, p.ppid, p.cmdline
            ));
            sweep::kill(p, &markers);
        }
        for mark in sweep::marks_outside().difference(marks) {
            self.fail(format!("{label}: wrote {} outside the box", mark.display()));
            let _ = fs::remove_file(mark);
        }
        let in_host: Vec<PathBuf> = fs::read_dir(host_folder())
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect();
        if !in_host.is_empty() {
            self.fail(format!(
                "{label}: left {in_host:?} in the box's host folder"
            ));
            for path in in_host {
                let _ = sandbox::remove::remove_tree(&path);
            }
        }
    }
}

impl Drop for Scene {
    fn drop(&mut self) {
        let _ = sandbox::remove::remove_tree(&self.root);
    }
}
