//! End-to-end tests of grading in shards on the engines users have (README, "Shards on
//! several machines"): `--exit-zero-when-graded`, the status a scheduler reads; `--jobs`
//! by default within a Slurm job's CPUs; and the README's recipes run as written, on a
//! class of 12 (8 `AC`, 3 `WA`, 1 `CE`), each merged gradebook the one a single batch
//! writes: the GitHub Actions block's `grader` lines, GNU parallel here and over
//! `--sshlogin`, and the Slurm block on a real one-node cluster (`.ci/slurm/cluster`),
//! where a shard with a failing student is a `COMPLETED` task and one whose grader
//! faults a `FAILED` one that keeps the merge from running.

use std::collections::BTreeMap;
use std::fs;
use std::io::{BufRead as _, BufReader, Write as _};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

use super::{grader, has_tools, repo, write};

/// Generous: a loaded machine grading a class must not fail a test.
const TIMEOUT: Duration = Duration::from_mins(5);

fn fixture(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(path)
}

fn example(path: &str) -> PathBuf {
    repo().join("examples/flip").join(path)
}

/// The README's block fenced as ` ```INFO `, whole.
fn recipe(info: &str) -> String {
    let readme = fs::read_to_string(repo().join("README.md")).unwrap();
    let fence = format!("```{info}\n");
    let start = readme
        .find(&fence)
        .unwrap_or_else(|| panic!("the README has no block ```{info}"));
    let block = &readme[start + fence.len()..];
    block[..block.find("```").unwrap()].to_owned()
}

/// A folder the recipes run in, as a user's would be: `class/` (8 `AC`, 3 `WA`, 1 `CE`,
/// in C, C++ and Python), a compile cache and a `TMPDIR` of its own, and a `HOME` (GNU
/// parallel writes into `~/.parallel`).
struct Place {
    root: tempfile::TempDir,
}

impl Place {
    fn new() -> Place {
        let root = tempfile::tempdir().unwrap();
        // Open to the workers' uids, as /tmp is.
        fs::set_permissions(root.path(), fs::Permissions::from_mode(0o755)).unwrap();
        let students = [
            ("alice.cpp", fixture("flip/ac_rows.cpp")),
            ("bob.c", fixture("flip/wa_off_by_one.c")),
            ("carol.py", fixture("flip/ac_rows.py")),
            ("dave.cpp", fixture("flip/ce_syntax.cpp")),
            ("erin/main.c", example("ac_bfs.c")),
            ("frank.cpp", fixture("flip/ac_rows.cpp")),
            ("grace.py", example("wa_one_colour.py")),
            ("heidi/solution.py", fixture("flip/ac_rows.py")),
            ("ivan.c", example("ac_bfs.c")),
            ("judy.c", fixture("flip/wa_off_by_one.c")),
            ("section-b/mallory.cpp", fixture("flip/ac_rows.cpp")),
            ("section-b/oscar.c", example("ac_bfs.c")),
        ];
        for (name, from) in students {
            write(
                root.path(),
                format!("class/{name}"),
                fs::read(from).unwrap(),
            );
        }
        for dir in ["tmp", "home", "cache"] {
            fs::create_dir(root.path().join(dir)).unwrap();
        }
        fs::set_permissions(root.path().join("tmp"), fs::Permissions::from_mode(0o1777)).unwrap();
        Place { root }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.root.path().join(rel)
    }

    /// `bash -e -c SCRIPT` in the place, as a user's shell: the built `grader` first on
    /// `PATH`, no Slurm job's variables but `SLURM_CONF`.
    fn shell(&self, script: &str) -> Command {
        let bin = assert_cmd::cargo::cargo_bin("grader");
        let mut path = vec![bin.parent().unwrap().to_path_buf()];
        path.extend(std::env::split_paths(
            &std::env::var_os("PATH").unwrap_or_default(),
        ));
        let mut cmd = Command::new("bash");
        cmd.args(["-e", "-c", script])
            .current_dir(self.root.path())
            .env("PATH", std::env::join_paths(path).unwrap())
            .env("NO_COLOR", "1")
            .env("HOME", self.path("home"))
            .env("TMPDIR", self.path("tmp"))
            .env("GRADER_CACHE_DIR", self.path("cache"))
            .timeout(TIMEOUT);
        for (name, _) in std::env::vars_os() {
            if name.to_string_lossy().starts_with("SLURM_") && name != "SLURM_CONF" {
                cmd.env_remove(name);
            }
        }
        cmd
    }

    /// The class graded by one batch, into `whole/`: the gradebook every merge must equal.
    fn whole(&self) -> PathBuf {
        self.shell("grader batch flip class --out whole >/dev/null 2>&1 || [ $? = 1 ]")
            .assert()
            .success();
        self.path("whole")
    }

    /// The gradebooks of the shards the recipe wrote (`shard-K/gradebook.json`), by K.
    fn shards(&self) -> BTreeMap<u32, Value> {
        let mut shards = BTreeMap::new();
        for entry in fs::read_dir(self.root.path()).unwrap() {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            if let Some(k) = name.strip_prefix("shard-").and_then(|k| k.parse().ok())
                && self.path(&name).is_dir()
            {
                let path = self.path(&name).join("gradebook.json");
                shards.insert(k, serde_json::from_slice(&fs::read(path).unwrap()).unwrap());
            }
        }
        shards
    }
}

/// The verdicts of a gradebook's students, by name.
fn verdicts(book: &Value) -> BTreeMap<String, String> {
    book["students"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let verdict = s["verdict"].as_str().unwrap();
            (
                s["student"].as_str().unwrap().to_owned(),
                verdict.to_owned(),
            )
        })
        .collect()
}

/// A gradebook's JSON without what two runs of a program never share (times, memory,
/// stalls).
fn without_figures(dir: &Path) -> Value {
    let mut book: Value =
        serde_json::from_slice(&fs::read(dir.join("gradebook.json")).unwrap()).unwrap();
    for student in book["students"].as_array_mut().unwrap() {
        for case in student["cases"].as_array_mut().unwrap() {
            let case = case.as_object_mut().unwrap();
            for figure in ["cpu_ms", "wall_ms", "memory_kib", "stalls"] {
                case.remove(figure);
            }
        }
    }
    book
}

/// The merged gradebook in `merged` is the whole class's in `whole`: the same students,
/// verdicts and scores; the CSV and the HTML page byte for byte.
fn assert_merged_is_whole(merged: &Path, whole: &Path) {
    let json = without_figures(merged);
    assert_eq!(json, without_figures(whole), "{}", merged.display());
    let marks = verdicts(&json);
    let count = |v: &str| marks.values().filter(|&got| got == v).count();
    assert_eq!(
        (count("AC"), count("WA"), count("CE"), marks.len()),
        (8, 3, 1, 12),
        "{marks:?}"
    );
    for file in ["gradebook.csv", "gradebook.html"] {
        assert!(
            fs::read(merged.join(file)).unwrap() == fs::read(whole.join(file)).unwrap(),
            "{}: {file} differs from one batch's",
            merged.display()
        );
    }
}

/// A test skipped, with a line saying why: never in CI, which has what it needs.
fn skip(message: &str) {
    assert!(
        std::env::var_os("CI").is_none(),
        "{message}: CI must have it"
    );
    let _ = writeln!(std::io::stderr().lock(), "skipped {message}");
}

// ---------------------------------------------------------------- the status

/// A small class on the two-case folder: `alice` AC, `bob` WA, `carol` CE.
fn small_class() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, from) in [
        ("alice.cpp", "ac_rows.cpp"),
        ("bob.c", "wa_off_by_one.c"),
        ("carol.cpp", "ce_syntax.cpp"),
    ] {
        write(
            dir.path(),
            format!("class/{name}"),
            fs::read(fixture("flip").join(from)).unwrap(),
        );
    }
    dir
}

fn in_class(dir: &Path, args: &[&str]) -> Command {
    let mut cmd = grader();
    cmd.current_dir(dir)
        .env("GRADER_CACHE_DIR", dir.join("cache"))
        .timeout(TIMEOUT)
        .args(args);
    cmd
}

fn small_batch(dir: &Path, out: &str, extra: &[&str]) -> Command {
    let mut cmd = in_class(dir, &["batch", "flip", "class", "--out", out, "--cases"]);
    cmd.arg(fixture("cases/flip-two")).args(extra);
    cmd
}

#[test]
fn exit_zero_when_graded_passes_failing_students_and_fails_ungraded_ones_and_faults() {
    let dir = small_class();
    let dir = dir.path();
    // Without the flag, a failing student is status 1, as ever.
    small_batch(dir, "plain", &[]).assert().code(1);
    small_batch(dir, "graded", &["--exit-zero-when-graded"])
        .assert()
        .success()
        .stdout(predicate::str::contains("WA 1"));
    // The gradebook is the same either way.
    for file in ["gradebook.csv", "gradebook.html"] {
        assert!(
            fs::read(dir.join("plain").join(file)).unwrap()
                == fs::read(dir.join("graded").join(file)).unwrap(),
            "{file}"
        );
    }
    let merge = |books: &[&str], flag: bool| {
        let mut cmd = in_class(dir, &["merge"]);
        cmd.args(books).args(["--out", "merged"]);
        if flag {
            cmd.arg("--exit-zero-when-graded");
        }
        cmd.assert()
    };
    merge(&["graded/gradebook.json"], false).code(1);
    merge(&["graded/gradebook.json"], true).success();
    // A fault of the call is still 2, with the flag.
    fs::write(dir.join("a-file"), "").unwrap();
    small_batch(dir, "a-file", &["--exit-zero-when-graded"])
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with("grader: error: a-file"));
    merge(&["nothing.json"], true).code(2);
    // A student who could not be graded (two entry files) is no verdict: status 1.
    write(dir, "class/dave/main.c", "int main(void) { return 0; }\n");
    write(dir, "class/dave/main.py", "print(4)\n");
    small_batch(dir, "ungraded", &["--exit-zero-when-graded"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("--   dave"));
    merge(&["ungraded/gradebook.json"], true).code(1);
}

/// A merge of shards counts them: one missing, one given twice, or shards of two splits
/// is exit 2 saying which, never a gradebook of part of the class that looks whole.
#[test]
fn merge_refuses_a_missing_shard_one_given_twice_and_two_splits() {
    let dir = small_class();
    let dir = dir.path();
    for shard in ["1/3", "2/3", "3/3", "1/2"] {
        let out = format!("shard-{}", shard.replace('/', "-of-"));
        small_batch(dir, &out, &["--shard", shard, "--exit-zero-when-graded"])
            .assert()
            .success();
    }
    let book = |name: &str| format!("shard-{name}/gradebook.json");
    let shard = serde_json::from_slice::<Value>(&fs::read(dir.join(book("2-of-3"))).unwrap())
        .unwrap()["shard"]
        .clone();
    assert_eq!(shard, serde_json::json!({"index": 2, "of": 3}));
    let merge = |books: &[String]| {
        let mut cmd = in_class(
            dir,
            &["merge", "--out", "merged", "--exit-zero-when-graded"],
        );
        cmd.args(books);
        cmd.assert()
    };
    let said = |books: &[String]| {
        let output = merge(books).code(2).get_output().clone();
        assert!(output.stdout.is_empty());
        String::from_utf8(output.stderr).unwrap()
    };
    let err = said(&[book("1-of-3"), book("3-of-3")]);
    assert_eq!(
        err,
        "grader: error: shard 2/3 of the class is missing: merge every shard's gradebook (a \
         shard with no student writes one too), or grade the missing ones first\n"
    );
    assert!(!dir.join("merged").exists(), "nothing written");
    let copy = dir.join("copy.json");
    fs::copy(dir.join(book("1-of-3")), &copy).unwrap();
    let err = said(&[
        book("1-of-3"),
        "copy.json".to_owned(),
        book("2-of-3"),
        book("3-of-3"),
    ]);
    assert!(
        err.contains("shard 1/3 is given twice: ") && err.contains("copy.json"),
        "{err}"
    );
    let err = said(&[book("1-of-3"), book("1-of-2")]);
    assert!(err.contains("shards of two splits of the class"), "{err}");
    // Every shard once: the whole class, which records no shard.
    merge(&[book("1-of-3"), book("2-of-3"), book("3-of-3")]).success();
    let merged: Value =
        serde_json::from_slice(&fs::read(dir.join("merged/gradebook.json")).unwrap()).unwrap();
    assert!(merged.get("shard").is_none(), "{merged}");
    assert_eq!(merged["students"].as_array().unwrap().len(), 3);
}

// ---------------------------------------------------------------- --jobs in a Slurm job

/// A student whose program notes, in `shared/overlap`, that another run of the class was
/// going at the same time: each run holds a file in `shared/running` for 0.8 s, or until
/// it sees another's. Well under the hand-over point (1.5 s at the default limits), so
/// that its runs stay on the class's workers: a run still going there that slept is
/// made on the doze lane, beside `--jobs` (cli.md, `--stop-after-wall-tles`).
fn overlap_probe(shared: &Path) -> String {
    format!(
        r#"import os, time
running = "{running}"
me = os.path.join(running, str(os.getpid()))
open(me, "w").close()
end = time.time() + 0.8
while time.time() < end:
    if len(os.listdir(running)) > 1:
        open("{overlap}", "w").close()
        break
    time.sleep(0.01)
os.remove(me)
print(4)
"#,
        running = shared.join("running").display(),
        overlap = shared.join("overlap").display(),
    )
}

#[test]
fn jobs_defaults_to_no_more_than_the_cpus_a_slurm_job_was_given() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let shared = dir.join("shared");
    fs::create_dir_all(shared.join("running")).unwrap();
    for path in [&shared, &shared.join("running")] {
        fs::set_permissions(path, fs::Permissions::from_mode(0o777)).unwrap();
    }
    write(dir, "class/probe.py", overlap_probe(&shared));
    // Whether the two cases of `probe` ran at the same time, with these variables and
    // flags (the box `none`: the runs see the machine's files).
    let overlapped = |out: &str, vars: &[(&str, &str)], extra: &[&str]| {
        let _ = fs::remove_file(shared.join("overlap"));
        let mut cmd = small_batch(dir, out, &["--sandbox", "none", "--exit-zero-when-graded"]);
        cmd.env_remove("SLURM_CPUS_PER_TASK")
            .env_remove("SLURM_CPUS_ON_NODE")
            .envs(vars.iter().copied())
            .args(extra);
        cmd.assert().success();
        shared.join("overlap").exists()
    };
    // The probe sees two runs at once, when there are.
    assert!(overlapped(
        "two",
        &[("SLURM_CPUS_ON_NODE", "1")],
        &["--jobs", "2"]
    ));
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    if cores >= 2 {
        assert!(
            overlapped("cores", &[], &[]),
            "--jobs is by default the cores"
        );
    }
    // A job given one CPU, by --cpus-per-task or by default, runs one program at a time.
    assert!(!overlapped("on-node", &[("SLURM_CPUS_ON_NODE", "1")], &[]));
    let per_task = [("SLURM_CPUS_PER_TASK", "1"), ("SLURM_CPUS_ON_NODE", "2")];
    assert!(!overlapped("per-task", &per_task, &[]));
    // What is not a number of CPUs is no limit.
    if cores >= 2 {
        assert!(overlapped(
            "nonsense",
            &[("SLURM_CPUS_ON_NODE", "many")],
            &[]
        ));
    }
}

// ---------------------------------------------------------------- the recipes

#[test]
fn the_readmes_github_actions_recipe_exits_0_with_failing_students_and_merges_into_one_run() {
    let yaml = recipe("yaml github-actions");
    let matrix = yaml
        .lines()
        .find_map(|l| l.split_once("shard: [").map(|(_, rest)| rest))
        .and_then(|rest| rest.split_once(']'))
        .expect("a matrix of shards")
        .0
        .split(',')
        .map(|k| k.trim().to_owned())
        .collect::<Vec<_>>();
    let runs: Vec<&str> = yaml
        .lines()
        .filter_map(|l| l.trim().strip_prefix("- run: grader "))
        .collect();
    let [grade, merge] = runs.as_slice() else {
        panic!("expected a grading and a merging line: {runs:?}")
    };
    let place = Place::new();
    for k in &matrix {
        // Each on a machine of its own: this one, in turn.
        let line = format!("grader {}", grade.replace("${{ matrix.shard }}", k));
        place.shell(&line).assert().success();
    }
    assert!(
        place
            .shards()
            .values()
            .any(|book| verdicts(book).values().any(|v| v == "WA")),
        "some shard has a failing student"
    );
    place.shell(&format!("grader {merge}")).assert().success();
    assert_merged_is_whole(&place.path("gradebook"), &place.whole());
}

/// Runs a README GNU parallel block in a new place, `ssh` a stand-in when given; checks
/// its status and its merged gradebook.
fn run_parallel_recipe(info: &str, ssh: bool) {
    let script = recipe(info);
    let place = Place::new();
    let mut cmd = place.shell(&script);
    if ssh {
        // ssh as a node would run the command: from the home folder, in the user's shell,
        // the words joined by spaces, with SHELL set to the login shell as sshd sets it (GNU
        // parallel's worker runs each job with $SHELL, and a CI job may have none).
        let stand_in = write(
            &place.path("bin"),
            "ssh",
            "#!/bin/sh\n\
             while [ $# -gt 0 ]; do case $1 in -[lopiSFJ]) shift 2;; -*) shift;; *) break;; esac; done\n\
             shift\n\
             [ \"$1\" = -- ] && shift\n\
             cd\n\
             SHELL=$(getent passwd \"$(id -u)\" | cut -d: -f7)\n\
             export SHELL=${SHELL:-/bin/sh}\n\
             exec sh -c \"$*\"\n",
        );
        fs::set_permissions(&stand_in, fs::Permissions::from_mode(0o755)).unwrap();
        cmd.env("PARALLEL_SSH", &stand_in);
    }
    let output = cmd.output().unwrap();
    assert!(
        output.status.success(),
        "{info}: {:?}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    let shards = place.shards();
    assert_eq!(shards.len(), 16, "{info}: {:?}", shards.keys());
    assert!(
        shards.values().any(|b| verdicts(b).is_empty()),
        "{info}: some shard of 16 holds no student"
    );
    assert_merged_is_whole(&place.path("gradebook"), &place.whole());
}

#[test]
fn the_readmes_gnu_parallel_recipes_run_as_written_and_merge_into_one_run() {
    let test = "the README's GNU parallel recipes";
    if !has_tools(test, &[("parallel", "parallel")]) {
        return;
    }
    // moreutils has a `parallel` of its own, of other options.
    let version = std::process::Command::new("parallel")
        .arg("--version")
        .stdin(Stdio::null())
        .output();
    if !version.is_ok_and(|o| o.stdout.starts_with(b"GNU parallel")) {
        skip(&format!(
            "{test}: needs GNU parallel (Debian package `parallel`), not moreutils'"
        ));
        return;
    }
    run_parallel_recipe("sh parallel", false);
    run_parallel_recipe("sh parallel-ssh", true);
}

// ---------------------------------------------------------------- Slurm

/// A job as `scontrol show job` shows it: `JobState`, `ExitCode`, `ArrayTaskId`, ...
type Job = BTreeMap<String, String>;

/// A one-node Slurm cluster of the test's own (`.ci/slurm/cluster`), stopped when dropped
/// however the test ends: the script stops it when its standard input closes.
struct Cluster {
    script: Child,
    dir: tempfile::TempDir,
}

impl Cluster {
    /// Up, or `None` where the test is skipped (outside CI, no Slurm or not root).
    fn start() -> Option<Cluster> {
        let test = "the README's Slurm recipe";
        let tools = [
            ("munged", "munge"),
            ("slurmctld", "slurm-wlm"),
            ("slurmd", "slurm-wlm"),
            ("sbatch", "slurm-wlm"),
        ];
        if !has_tools(test, &tools) {
            return None;
        }
        if !nix::unistd::Uid::effective().is_root() {
            skip(&format!("{test}: needs root, to start slurmd"));
            return None;
        }
        let dir = tempfile::tempdir().unwrap();
        let log = fs::File::create(dir.path().join("cluster.log")).unwrap();
        let mut script = std::process::Command::new(repo().join(".ci/slurm/cluster"))
            .arg(dir.path().join("cluster"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(log)
            .spawn()
            .unwrap();
        let stdout = script.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let cluster = Cluster { script, dir };
        // It says how long it waited, and why it gave up, within 60 s.
        let said = rx.recv_timeout(Duration::from_mins(2)).unwrap_or_default();
        assert!(
            said == "up\n",
            "the one-node Slurm cluster did not come up (.ci/slurm/cluster):\n{}",
            fs::read_to_string(cluster.dir.path().join("cluster.log")).unwrap_or_default()
        );
        Some(cluster)
    }

    fn conf(&self) -> PathBuf {
        self.dir.path().join("cluster/slurm.conf")
    }

    /// A Slurm client command on this cluster.
    fn client(&self, program: &str) -> std::process::Command {
        let mut cmd = std::process::Command::new(program);
        cmd.env("SLURM_CONF", self.conf());
        cmd
    }

    /// Runs the README's Slurm block in `place`, waits for every job it made to end, and
    /// returns them by job id, each as `scontrol show job` says (`JobState`, `ExitCode`,
    /// `ArrayTaskId`, ...).
    fn run_recipe(&self, place: &Place) -> BTreeMap<u64, Job> {
        let before: Vec<u64> = self.jobs().into_keys().collect();
        let output = place
            .shell(&recipe("sh slurm"))
            .env("SLURM_CONF", self.conf())
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "the recipe: {:?}\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
        // Every job ends: 8 tasks on this machine's CPUs, then the merge, each wave after
        // a scheduler's pass of some 3 s.
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let queue = self
                .client("squeue")
                .args(["-h", "-o", "%i %T %r"])
                .output();
            let queue = String::from_utf8_lossy(&queue.unwrap().stdout).into_owned();
            if queue.trim().is_empty() {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "jobs still queued after {TIMEOUT:?}:\n{queue}"
            );
            std::thread::sleep(Duration::from_millis(200));
        }
        let mut jobs = self.jobs();
        jobs.retain(|id, _| !before.contains(id));
        jobs
    }

    /// Every job the controller remembers, by id.
    fn jobs(&self) -> BTreeMap<u64, Job> {
        let output = self
            .client("scontrol")
            .args(["show", "job", "-o"])
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        String::from_utf8_lossy(&output.stdout)
            .lines()
            .filter(|l| l.starts_with("JobId="))
            .map(|line| {
                let fields: BTreeMap<String, String> = line
                    .split_whitespace()
                    .filter_map(|w| w.split_once('='))
                    .map(|(k, v)| (k.to_owned(), v.to_owned()))
                    .collect();
                (fields["JobId"].parse().unwrap(), fields)
            })
            .collect()
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        // Its standard input closed, the script cancels the jobs and stops the daemons
        // (SIGKILL after 20 s).
        drop(self.script.stdin.take());
        let deadline = Instant::now() + Duration::from_mins(2);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.script.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = self.script.kill();
        let _ = self.script.wait();
        let _ = writeln!(
            std::io::stderr().lock(),
            ".ci/slurm/cluster did not stop within 2 minutes: its daemons may be left"
        );
    }
}

/// The jobs of a run of the recipe: its array's tasks by task id, and the merge job.
fn tasks_and_merge(jobs: &BTreeMap<u64, Job>) -> (BTreeMap<u32, &Job>, &Job) {
    let mut tasks = BTreeMap::new();
    let mut merges = Vec::new();
    for job in jobs.values() {
        match job.get("ArrayTaskId") {
            Some(k) => {
                tasks.insert(k.parse().unwrap(), job);
            }
            None => merges.push(job),
        }
    }
    assert_eq!(tasks.len(), 8, "{jobs:#?}");
    let [merge] = merges.as_slice() else {
        panic!("one merge job: {jobs:#?}")
    };
    (tasks, merge)
}

fn state(job: &Job) -> (&str, &str) {
    (job["JobState"].as_str(), job["ExitCode"].as_str())
}

#[test]
fn the_readmes_slurm_recipe_runs_as_written_where_a_fault_fails_its_task_and_a_wa_does_not() {
    let Some(cluster) = Cluster::start() else {
        return;
    };

    // From scratch: every task COMPLETED, those with failing students too, each on the
    // one CPU it asked for; the merge job ran, and its gradebook is one batch's.
    let place = Place::new();
    let jobs = cluster.run_recipe(&place);
    let (tasks, merge) = tasks_and_merge(&jobs);
    for (k, task) in &tasks {
        assert_eq!(state(task), ("COMPLETED", "0:0"), "task {k}: {task:#?}");
        assert_eq!(task["NumCPUs"], "1", "task {k}");
    }
    assert_eq!(state(merge), ("COMPLETED", "0:0"), "{merge:#?}");
    let shards = place.shards();
    let failing: Vec<u32> = shards
        .iter()
        .filter(|(_, book)| verdicts(book).values().any(|v| v == "WA" || v == "CE"))
        .map(|(k, _)| *k)
        .collect();
    assert!(!failing.is_empty(), "a shard has a WA or CE student");
    let whole = place.whole();
    assert_merged_is_whole(&place.path("gradebook"), &whole);

    // A shard whose grader faults (its --out is a file: exit 2) is a FAILED task, the
    // others, with their WA students, COMPLETED, and the merge never runs.
    let place = Place::new();
    let blocked = failing[0];
    fs::write(place.path(&format!("shard-{blocked}")), "").unwrap();
    let jobs = cluster.run_recipe(&place);
    let (tasks, merge) = tasks_and_merge(&jobs);
    for (k, task) in &tasks {
        let want = if *k == blocked {
            ("FAILED", "2:0")
        } else {
            ("COMPLETED", "0:0")
        };
        assert_eq!(state(task), want, "task {k}: {task:#?}");
    }
    assert_eq!(state(merge).0, "CANCELLED", "{merge:#?}");
    assert_eq!(merge["Reason"], "DependencyNeverSatisfied");
    assert!(!place.path("gradebook").exists(), "the merge ran");
    let array = &tasks[&blocked]["ArrayJobId"];
    let said = fs::read_to_string(place.path(&format!("slurm-{array}_{blocked}.out"))).unwrap();
    assert!(
        said.ends_with(&format!(
            "grader: error: shard-{blocked}: cannot write into: is a file, not a folder\n"
        )),
        "{said}"
    );

    // As the README says: the fault fixed, the same two commands again finish the class,
    // the shards already done running nothing.
    fs::remove_file(place.path(&format!("shard-{blocked}"))).unwrap();
    let journals = || {
        (1..=8)
            .filter(|&k| k != blocked)
            .map(|k| fs::read(place.path(&format!("shard-{k}/journal.jsonl"))).unwrap())
            .collect::<Vec<_>>()
    };
    let done = journals();
    let jobs = cluster.run_recipe(&place);
    let (tasks, merge) = tasks_and_merge(&jobs);
    for (k, task) in &tasks {
        assert_eq!(state(task), ("COMPLETED", "0:0"), "task {k}: {task:#?}");
    }
    assert_eq!(state(merge), ("COMPLETED", "0:0"), "{merge:#?}");
    assert!(journals() == done, "a shard already done ran again");
    assert_merged_is_whole(&place.path("gradebook"), &whole);
}
