//! End-to-end tests of toolchains wherever the user keeps them (cli.md, "Toolchains on
//! your PATH"): a compiler reached through a folder of links early in `PATH` (a chain of
//! relative links, an installation outside the system folders), a wrapper script that
//! chooses by the user's settings (as pyenv, asdf and mise shims do), one that adds flags
//! and tells by its name what to be, ccache's folder; each compiles in `strict` and in
//! the default tier with a compile cache of its own (a cached compile would hide a
//! compiler the box cannot run), and `examples/flip/ac_bfs.c` is `AC`. The compile
//! cache's key holds the real compiler: another compiler of the same name and version, a
//! changed one, or a wrapper's flags compile again. An interpreter behind a shim runs as
//! what the shim chose.
//!
//! The folders live under the target folder, not in `/tmp`: a box has a `/tmp` of its
//! own and shows nothing of the machine's there, so they stand for a home folder.

use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use assert_cmd::Command;

use testkit::files::write;
use testkit::grader::grader;
use testkit::output::{case_verdicts, json_of};
use testkit::paths::{fixture, repo, two_cases};
use testkit::scripts::script;
use testkit::tools::has_tools;

/// Generous: a loaded machine compiling must not fail a test.
const TIMEOUT: Duration = Duration::from_mins(5);

fn ac_bfs() -> PathBuf {
    repo().join("examples/flip/ac_bfs.c")
}

/// Where home folders are made: the target folder's, unless that is in `/tmp` (a clone
/// made there), which no box shows; then `/var/tmp`.
fn homes() -> PathBuf {
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let real = fs::canonicalize(target).unwrap_or_else(|_| target.to_path_buf());
    if real.starts_with("/tmp") {
        PathBuf::from("/var/tmp")
    } else {
        target.to_path_buf()
    }
}

/// A home folder of the test's own (outside the system folders, and not in `/tmp`),
/// and a temporary folder for the grader.
struct Home {
    home: tempfile::TempDir,
    tmp: tempfile::TempDir,
}

impl Home {
    fn new() -> Home {
        let home = tempfile::tempdir_in(homes()).unwrap();
        // Enterable by the uid a worker's programs run as, as a home often is.
        fs::set_permissions(home.path(), fs::Permissions::from_mode(0o755)).unwrap();
        Home {
            home,
            tmp: tempfile::tempdir().unwrap(),
        }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.home.path().join(name)
    }

    /// A new, empty compile cache.
    fn fresh_cache(&self) -> PathBuf {
        tempfile::Builder::new()
            .prefix("cache-")
            .tempdir_in(self.home.path())
            .unwrap()
            .keep()
    }

    /// An executable script at `name`.
    fn script(&self, name: &str, text: &str) -> PathBuf {
        script(self.home.path(), name, text)
    }

    /// A link at `name` to `target` (relative targets are relative to its folder).
    fn link(&self, name: &str, target: impl AsRef<Path>) -> PathBuf {
        let path = self.path(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        symlink(target, &path).unwrap();
        path
    }

    /// A copy of this machine's gcc driver at `inst/bin/NAME`, with the compiler proper
    /// reached through `inst/lib/gcc` (a link to the system's): a gcc installed outside
    /// the system folders, as a version manager or a package store installs one.
    fn gcc_installation(&self, name: &str) -> PathBuf {
        let driver = which("gcc");
        let bin = self.path("inst/bin");
        fs::create_dir_all(&bin).unwrap();
        let copy = bin.join(name);
        fs::copy(&driver, &copy).unwrap();
        for (inside, system) in [
            ("lib/gcc", "/usr/lib/gcc"),
            ("libexec/gcc", "/usr/libexec/gcc"),
        ] {
            if Path::new(system).is_dir() && !self.path(&format!("inst/{inside}")).exists() {
                self.link(&format!("inst/{inside}"), system);
            }
        }
        copy
    }

    fn grader(&self, front: &[&Path], cache: &Path) -> Command {
        let path = std::env::join_paths(
            front
                .iter()
                .map(|p| p.to_path_buf())
                .chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
        )
        .unwrap();
        let mut cmd = grader();
        cmd.env("PATH", path)
            .env("HOME", self.home.path())
            .env("TMPDIR", self.tmp.path())
            .env("GRADER_CACHE_DIR", cache)
            .env("CCACHE_DIR", self.path("ccache-dir"))
            .timeout(TIMEOUT);
        cmd
    }

    /// `grader test flip SOURCE` on the two-case folder with `front` leading `PATH`, the
    /// compile cache `cache` and the flags `extra`: the verdicts of the cases (the
    /// compiler's message for `CE`) and the exit status.
    fn verdicts(
        &self,
        source: &Path,
        front: &[&Path],
        cache: &Path,
        extra: &[&str],
    ) -> (Vec<String>, i32) {
        let output = self
            .grader(front, cache)
            .args(["test", "flip"])
            .arg(source)
            .arg("--cases")
            .arg(two_cases())
            .args([
                "--report",
                "json",
                "--time-limit",
                "5",
                "--wall-limit",
                "60",
            ])
            .args(extra)
            .output()
            .unwrap();
        let report = json_of(&output);
        assert!(
            fs::read_dir(self.tmp.path()).unwrap().next().is_none(),
            "files left in TMPDIR"
        );
        let verdicts = match report["compile_error"].as_str() {
            Some(message) => vec![format!("CE: {message}")],
            None => case_verdicts(&report)
                .into_iter()
                .map(str::to_owned)
                .collect(),
        };
        (verdicts, output.status.code().unwrap())
    }

    /// `source` is `AC` on both cases with `front` leading `PATH`, in `strict` and in the
    /// default tier, each with a fresh compile cache.
    fn accepted(&self, source: &Path, front: &[&Path], what: &str) {
        for tier in [&["--sandbox", "strict"][..], &[]] {
            let cache = self.fresh_cache();
            let (verdicts, status) = self.verdicts(source, front, &cache, tier);
            assert_eq!(
                (verdicts, status),
                (vec!["AC".to_owned(), "AC".to_owned()], 0),
                "{what} {tier:?}"
            );
        }
    }

    /// The entries of the compile cache `cache`: one per compile kept.
    fn entries(cache: &Path) -> usize {
        fs::read_dir(cache)
            .unwrap()
            .filter(|e| {
                !e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .starts_with('.')
            })
            .count()
    }
}

/// The real path of `program` on this machine's `PATH`.
fn which(program: &str) -> PathBuf {
    let path = std::env::var_os("PATH").unwrap();
    let found = std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("`{program}` is not on PATH"));
    fs::canonicalize(found).unwrap()
}

// ------------------------------------------------------------------ links

#[test]
fn gcc_through_a_folder_of_links_compiles_in_the_box() {
    let home = Home::new();
    let gcc = which("gcc");
    home.link("bin/gcc", &gcc);
    home.accepted(
        &ac_bfs(),
        &[&home.path("bin")],
        "~/bin/gcc -> the system's gcc",
    );
    // The same folder in `/tmp`, which no box shows.
    let links = tempfile::tempdir().unwrap();
    symlink(&gcc, links.path().join("gcc")).unwrap();
    home.accepted(&ac_bfs(), &[links.path()], "/tmp/…/gcc -> the system's gcc");
}

#[test]
fn gcc_through_a_chain_of_relative_links_to_an_installation_elsewhere() {
    let home = Home::new();
    home.gcc_installation("x86_64-gcc");
    // `path/gcc -> ../links/gcc -> ../inst/bin/x86_64-gcc`: the box makes the links and
    // shows the installation, and gcc runs under its name.
    home.link("links/gcc", "../inst/bin/x86_64-gcc");
    home.link("path/gcc", "../links/gcc");
    home.accepted(
        &ac_bfs(),
        &[&home.path("path")],
        "a chain of relative links",
    );
    // `rel/gcc -> ../hop/cc -> the system's gcc`: the box makes both links, the first one
    // relative, and gcc runs as `rel/gcc`, the last link named `gcc`.
    home.link("hop/cc", which("gcc"));
    home.link("rel/gcc", "../hop/cc");
    home.accepted(&ac_bfs(), &[&home.path("rel")], "links to the system's gcc");
}

// ------------------------------------------------------------------ wrappers and shims

#[test]
fn gcc_through_a_wrapper_script_that_chooses_by_the_user_s_settings() {
    let home = Home::new();
    let real = home.gcc_installation("gcc-real");
    // As asdf's and pyenv's shims do: the choice is in the home folder, which the box
    // does not show; the compile runs the chosen compiler itself.
    write(home.home.path(), ".compiler", real.to_str().unwrap());
    home.script(
        "shims/gcc",
        "#!/usr/bin/env bash\nexec \"$(cat \"$HOME/.compiler\")\" \"$@\"\n",
    );
    home.accepted(&ac_bfs(), &[&home.path("shims")], "a shim");
    // A plain `exec` of the system's compiler.
    home.script(
        "wrapper/gcc",
        &format!("#!/bin/sh\nexec {} \"$@\"\n", which("gcc").display()),
    );
    home.accepted(&ac_bfs(), &[&home.path("wrapper")], "a wrapper script");
}

#[test]
fn a_wrapper_that_adds_flags_runs_by_its_name_from_a_folder_shown_read_only() {
    let home = Home::new();
    // A multi-call script (it tells by its name what to be, as busybox and ccache do),
    // reached through a link, that adds a flag: it runs itself, by the link. It tries to
    // write into its own folder, which anyone may write but the box shows read-only.
    home.script(
        "tools/multi",
        "#!/bin/sh\n\
         case \"${0##*/}\" in gcc) ;; *) echo \"called as ${0##*/}\" >&2; exit 1;; esac\n\
         [ \"$1\" = --version ] || touch \"$(dirname \"$(readlink -f \"$0\")\")/written\" 2>/dev/null\n\
         exec /usr/bin/gcc -DFLIP_WRAPPED \"$@\"\n",
    );
    fs::set_permissions(home.path("tools"), fs::Permissions::from_mode(0o777)).unwrap();
    home.link("bin/gcc", "../tools/multi");
    let source = write(
        home.home.path(),
        "src/ac_bfs.c",
        format!(
            "#ifndef FLIP_WRAPPED\n#error compiled without the wrapper's flag\n#endif\n{}",
            fs::read_to_string(ac_bfs()).unwrap()
        ),
    );
    let bin = home.path("bin");
    let (verdicts, status) = home.verdicts(
        &source,
        &[&bin],
        &home.fresh_cache(),
        &["--sandbox", "strict"],
    );
    assert_eq!(
        (verdicts, status),
        (vec!["AC".to_owned(), "AC".to_owned()], 0)
    );
    assert!(
        !home.path("tools/written").exists(),
        "the box let the compiler write into its installation"
    );
    let (verdicts, status) = home.verdicts(&source, &[&bin], &home.fresh_cache(), &[]);
    assert_eq!(
        (verdicts, status),
        (vec!["AC".to_owned(), "AC".to_owned()], 0)
    );
}

// ------------------------------------------------------------------ ccache

#[test]
fn gcc_through_ccache_compiles_without_a_cache_of_ccache_s_own() {
    if !has_tools(
        "gcc_through_ccache_compiles_without_a_cache_of_ccache_s_own",
        &[("ccache", "ccache")],
    ) {
        return;
    }
    let home = Home::new();
    // A link named like the compiler, to ccache: ccache's own masquerade folder, where
    // the machine has one, and one of the user's.
    home.link("ccache/gcc", which("ccache"));
    let masquerade = Path::new("/usr/lib/ccache");
    let mut fronts = vec![home.path("ccache")];
    if masquerade.join("gcc").exists() {
        fronts.push(masquerade.to_path_buf());
    }
    for front in &fronts {
        home.accepted(
            &ac_bfs(),
            &[front],
            &format!("ccache in {}", front.display()),
        );
    }
    // ccache's own cache stayed untouched: the grader keeps its own.
    assert!(!home.path("ccache-dir").exists(), "ccache made a cache");
}

// ------------------------------------------------------------------ the compile cache's key

#[test]
fn another_compiler_of_the_same_name_and_version_compiles_again() {
    let home = Home::new();
    let cache = home.fresh_cache();
    // The system's gcc, and a copy of it elsewhere: the same name, the same version line.
    home.link("plain/gcc", which("gcc"));
    let copy = home.gcc_installation("gcc");
    home.link("other/gcc", "../inst/bin/gcc");
    let (plain, other) = (home.path("plain"), home.path("other"));
    let run = |front: &Path| {
        let (verdicts, status) = home.verdicts(&ac_bfs(), &[front], &cache, &[]);
        assert_eq!(
            (verdicts, status),
            (vec!["AC".to_owned(), "AC".to_owned()], 0)
        );
        Home::entries(&cache)
    };
    assert_eq!(run(&plain), 1);
    assert_eq!(
        run(&other),
        2,
        "the other gcc used the system gcc's compile"
    );
    assert_eq!(run(&plain), 2, "the system gcc's compile is cached");
    assert_eq!(run(&other), 2, "the other gcc's compile is cached");
    // The other gcc upgraded in place: a new compile.
    let file = fs::File::options().write(true).open(&copy).unwrap();
    file.set_modified(SystemTime::now() - Duration::from_hours(1))
        .unwrap();
    drop(file);
    assert_eq!(run(&other), 3, "a changed compiler used its old compile");
}

#[test]
fn a_wrapper_s_flags_are_never_served_from_the_plain_compiler_s_cache() {
    let home = Home::new();
    let cache = home.fresh_cache();
    // A source whose answers are wrong when compiled with -DFLIP_WRONG.
    let source = write(
        home.home.path(),
        "src/ac_bfs.c",
        format!(
            "#ifdef FLIP_WRONG\n#include <stdio.h>\nint main(void) {{ puts(\"0\"); return 0; }}\n#define main flip_main\n#endif\n{}",
            fs::read_to_string(ac_bfs()).unwrap()
        ),
    );
    home.link("plain/gcc", which("gcc"));
    home.script(
        "wrong/gcc",
        "#!/bin/sh\nexec /usr/bin/gcc -DFLIP_WRONG \"$@\"\n",
    );
    let (plain, wrong) = (home.path("plain"), home.path("wrong"));
    let verdicts = |front: &Path| home.verdicts(&source, &[front], &cache, &[]).0;
    assert_eq!(verdicts(&plain), ["AC", "AC"]);
    assert_eq!(verdicts(&wrong), ["WA", "WA"]);
    assert_eq!(verdicts(&plain), ["AC", "AC"]);
    assert_eq!(Home::entries(&cache), 2);
}

// ------------------------------------------------------------------ interpreters

#[test]
fn an_interpreter_behind_a_shim_runs_as_what_the_shim_chose() {
    let home = Home::new();
    // A language whose interpreter only the user's PATH has: a shim that reads its choice
    // in the home folder, which the box does not show.
    write(
        home.home.path(),
        ".python",
        which("python3").to_str().unwrap(),
    );
    home.script(
        "shims/flip-python",
        "#!/usr/bin/env bash\nexec \"$(cat \"$HOME/.python\")\" \"$@\"\n",
    );
    let config = write(
        home.home.path(),
        "languages.toml",
        "[shimmed]\nextensions = []\nrun = [\"flip-python\", \"{src}\"]\n",
    );
    let source = fixture("languages/ac_bfs_pypy.py");
    let shims = home.path("shims");
    for tier in [&["--sandbox", "strict"][..], &[]] {
        let mut extra = vec!["--config", config.to_str().unwrap(), "--lang", "shimmed"];
        extra.extend(tier);
        let (verdicts, status) = home.verdicts(&source, &[&shims], &home.fresh_cache(), &extra);
        assert_eq!(
            (verdicts, status),
            (vec!["AC".to_owned(), "AC".to_owned()], 0),
            "{tier:?}"
        );
    }
}
