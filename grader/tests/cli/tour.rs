//! The bad-input tour (issue 37): a table of wrong calls, broken files, odd setups and
//! failing devices, each with the contract's answer (docs/cli.md): the exit status and
//! what the one line on stderr must say. Every row runs the real binary in one shared
//! world of fixtures (built once, below); the rows that could read without end run under
//! an address-space cap, so that a regression fails the row instead of eating the
//! machine.
//!
//! A row is a promise a new user relies on: when the grader cannot do what was asked, it
//! says so in one line and exits 2 (the call's or the setup's fault), never a silent
//! default, a skipped file, a panic or a success.

use std::fs;
use std::io::Write as _;
use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::{Command, Stdio};

use testkit::boards::{FLIP_SAMPLE, FOURINROW_SAMPLE};
use testkit::class::Class;
use testkit::files::{copy, copy_tree, write};
use testkit::grader::grader_path;
use testkit::packages;
use testkit::paths::{repo, two_cases};

/// What a row feeds the grader on standard input.
#[derive(Clone, Copy)]
enum Input {
    /// Nothing (`/dev/null`).
    Null,
    /// These bytes.
    Bytes(&'static str),
    /// This file of the world (or a device).
    File(&'static str),
}

/// Where a row's standard output goes.
#[derive(Clone, Copy, PartialEq)]
enum Output {
    /// A pipe, read whole.
    Pipe,
    /// A full device: every write fails with ENOSPC.
    Full,
}

/// One row of the tour.
struct Row {
    /// What is tried, for the failure message.
    what: &'static str,
    /// The call, run in the world's folder.
    args: &'static [&'static str],
    stdin: Input,
    stdout: Output,
    /// Variables set for the call (`TMPDIR`, `GRADER_CACHE_DIR`, ...), over the world's.
    env: &'static [(&'static str, &'static str)],
    /// The resource limit the call runs under (`prlimit`'s flag): [`CAP`] for a row that
    /// reads what could be endless, or a shell's `ulimit` a user may have.
    limit: Option<&'static str>,
    /// The exit status the contract gives.
    code: i32,
    /// What stderr must say (for exit 2: its one line `grader: error: ...`).
    says: &'static str,
}

/// The address space a capped row's grader may take: far above what any of its calls
/// needs, far below what an endless read reaches before it is noticed.
const CAP: &str = "--as=2147483648";

/// The longest a row may take (the slowest compiles a C program and runs two cases, on a
/// busy machine): past it, the row is a hang.
const ROW_TIMEOUT: std::time::Duration = std::time::Duration::from_mins(2);

/// A row of a wrong call or a bad file: exit 2, one line saying `says`.
const fn usage(what: &'static str, args: &'static [&'static str], says: &'static str) -> Row {
    Row {
        what,
        args,
        stdin: Input::Null,
        stdout: Output::Pipe,
        env: &[],
        limit: None,
        code: 2,
        says,
    }
}

impl Row {
    const fn capped(self) -> Row {
        self.under(CAP)
    }

    const fn under(mut self, limit: &'static str) -> Row {
        self.limit = Some(limit);
        self
    }

    const fn stdin(mut self, input: Input) -> Row {
        self.stdin = input;
        self
    }

    const fn full(mut self) -> Row {
        self.stdout = Output::Full;
        self
    }

    const fn env(mut self, env: &'static [(&'static str, &'static str)]) -> Row {
        self.env = env;
        self
    }
}

/// A call that works: exit `code`, whatever stderr says.
const fn works(what: &'static str, args: &'static [&'static str], code: i32) -> Row {
    Row {
        code,
        says: "",
        ..usage(what, args, "")
    }
}

/// The flip board the world's files are made from, with one byte wrong.
const BAD_FLIP: &str = "bwwb\nbbxb\nbwwb\nbwww\n";

/// The world: every file the rows name, relative to its root.
fn world(root: &Path) {
    let flip = repo().join("examples/flip");
    write(root, "board.txt", FLIP_SAMPLE);
    write(root, "four.txt", FOURINROW_SAMPLE);
    write(root, "bad.txt", BAD_FLIP);
    write(root, "short.txt", "bwwb\nbbwb\n");
    write(root, "empty.txt", "");
    write(root, "wide.txt", "bwwbb\nbbwb\nbwwb\nbwww\n");
    write(root, "nul.txt", "bwwb\nbb\0b\nbwwb\nbwww\n");
    write(root, "latin1.txt", b"bwwb\nbb\xe9b\nbwwb\nbwww\n");
    write(root, "crlf.txt", FLIP_SAMPLE.replace('\n', "\r\n"));
    write(root, "out-4.txt", "4\n");
    write(root, "out-junk.txt", "four\n");
    copy(&flip.join("ac_bfs.c"), root.join("ac.c"));
    copy(&flip.join("wa_one_colour.py"), root.join("wa.py"));
    write(root, "sol.intercal", "DO READ OUT #1\n");
    write(root, "afile", "not a folder\n");
    write(root, "junk.toml", "this is = = not toml [\n");
    write(root, "junk.json", "{\"students\": [oops\n");
    write(root, "list.json", "[1, 2, 3]\n");
    write(root, "escape\x1b[31m.txt", BAD_FLIP);
    write(root, "new\nline.txt", BAD_FLIP);
    write(
        root,
        "regressions-junk.txt",
        "\x1b]0;owned\x07\u{9b}2J not a board\n",
    );
    fs::create_dir_all(root.join("nothing")).unwrap();
    fs::create_dir_all(root.join("class-empty")).unwrap();
    symlink("/dev/zero", root.join("zero.json")).unwrap();
    symlink("/dev/urandom", root.join("random.json")).unwrap();
    symlink("/dev/zero", root.join("zero.txt")).unwrap();
    symlink("missing-target", root.join("dangling.txt")).unwrap();
    symlink("/dev/zero", root.join("zero.toml")).unwrap();

    world_cases(root);
    world_packages(root);
}

/// The world's case folders: a good one, and one fault each beside its two good cases.
fn world_cases(root: &Path) {
    let two = two_cases();
    for name in [
        "cases",
        "c-fifo",
        "c-dir",
        "c-zero",
        "c-ans-zero",
        "c-dangling",
        "c-no-ans",
        "c-bad-board",
        "c-bad-answer",
        "c-ans-dir",
        "c-stray-ans",
        "c-folder-link",
    ] {
        copy_tree(&two, &root.join(name));
    }
    let added = |case: &str| root.join(case).join("secret");
    nix::unistd::mkfifo(
        &added("c-fifo").join("02.in"),
        nix::sys::stat::Mode::S_IRWXU,
    )
    .unwrap();
    write(&added("c-fifo"), "02.ans", "4\n");
    fs::create_dir_all(added("c-dir").join("02.in")).unwrap();
    write(&added("c-dir"), "02.ans", "4\n");
    symlink("/dev/zero", added("c-zero").join("02.in")).unwrap();
    write(&added("c-zero"), "02.ans", "4\n");
    write(&added("c-ans-zero"), "02.in", FLIP_SAMPLE);
    symlink("/dev/zero", added("c-ans-zero").join("02.ans")).unwrap();
    symlink("nowhere.in", added("c-dangling").join("02.in")).unwrap();
    write(&added("c-dangling"), "02.ans", "4\n");
    write(&added("c-no-ans"), "02.in", FLIP_SAMPLE);
    write(&added("c-bad-board"), "02.in", BAD_FLIP);
    write(&added("c-bad-board"), "02.ans", "4\n");
    write(&added("c-bad-answer"), "02.in", FLIP_SAMPLE);
    write(&added("c-bad-answer"), "02.ans", "5\n");
    write(&added("c-stray-ans"), "03.ans", "4\n");
    symlink("../../cases/secret", added("c-folder-link").join("more")).unwrap();
    write(&added("c-ans-dir"), "02.in", FLIP_SAMPLE);
    fs::create_dir_all(added("c-ans-dir").join("02.ans")).unwrap();
}

/// The world's classes and problem packages: the test fixture `halves`, and one fault
/// each.
fn world_packages(root: &Path) {
    let flip = repo().join("examples/flip");
    Class::at(root.join("class"))
        .copy("alice.c", &flip.join("ac_bfs.c"))
        .copy("bob.py", &flip.join("wa_one_colour.py"));
    write(root, "class-notes/readme.txt", "no submissions here\n");

    let halves = packages::fixture("halves");
    for name in [
        "pkg",
        "p-costum",
        "p-type",
        "p-testdata-dangling",
        "p-testdata-zero",
        "p-testdata-dir",
        "p-yaml-junk",
        "p-no-data",
        "p-in-fifo",
        "p-limits",
        "p-yaml-dangling",
        "p-yaml-dir",
        "p-stray-ans",
        "p-validaton",
    ] {
        copy_tree(&halves, &root.join(name));
    }
    let yaml = |name: &str| root.join(name).join("problem.yaml");
    let append = |name: &str, text: &str| {
        let mut file = fs::OpenOptions::new()
            .append(true)
            .open(yaml(name))
            .unwrap();
        file.write_all(text.as_bytes()).unwrap();
    };
    append("p-costum", "validation: costum\n");
    let text = fs::read_to_string(yaml("p-type")).unwrap();
    fs::write(
        yaml("p-type"),
        text.replace("type: scoring", "type: scorign"),
    )
    .unwrap();
    append(
        "p-limits",
        "limits:\n  time_multipliers:\n    ac_to_time_limit: fast\n",
    );
    let testdata = |name: &str| root.join(name).join("data/testdata.yaml");
    fs::remove_file(testdata("p-testdata-dangling")).unwrap();
    symlink("gone.yaml", testdata("p-testdata-dangling")).unwrap();
    fs::remove_file(testdata("p-testdata-zero")).unwrap();
    symlink("/dev/zero", testdata("p-testdata-zero")).unwrap();
    fs::remove_file(testdata("p-testdata-dir")).unwrap();
    fs::create_dir_all(testdata("p-testdata-dir")).unwrap();
    fs::write(yaml("p-yaml-junk"), "name: [unclosed\n").unwrap();
    fs::remove_file(yaml("p-yaml-dangling")).unwrap();
    symlink("problem.yml", yaml("p-yaml-dangling")).unwrap();
    fs::remove_file(yaml("p-yaml-dir")).unwrap();
    fs::create_dir_all(yaml("p-yaml-dir")).unwrap();
    write(&root.join("p-stray-ans/data/secret/small"), "3.ans", "1\n");
    append("p-validaton", "validaton: custom\n");
    fs::remove_dir_all(root.join("p-no-data/data")).unwrap();
    let small = root.join("p-in-fifo/data/secret/small");
    fs::remove_file(small.join("2.in")).unwrap();
    nix::unistd::mkfifo(&small.join("2.in"), nix::sys::stat::Mode::S_IRWXU).unwrap();

    fs::create_dir_all(root.join("tmp")).unwrap();
    fs::create_dir_all(root.join("cache")).unwrap();
}

/// The rows, a function a kind. Paths are the world's (`world`); `tmp` and `cache` are the
/// calls' own temporary and cache folders unless a row says otherwise.
fn rows() -> Vec<Row> {
    [
        time_and_size_flags(),
        whole_number_flags(),
        choices(),
        boards(),
        submissions_and_options_files(),
        case_folders(),
        classes(),
        gradebooks(),
        problem_packages(),
        the_machine_s_setup(),
        standard_output_on_a_full_disk(),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// The rows of time and size flags.
#[rustfmt::skip]
fn time_and_size_flags() -> Vec<Row> {
    vec![
        usage("a negative time", &["test", "flip", "ac.c", "--time-limit", "-3s"], "--time-limit"),
        usage("a zero time", &["test", "flip", "ac.c", "--time-limit", "0"], "--time-limit"),
        usage("a time in words", &["test", "flip", "ac.c", "--time-limit", "one"], "--time-limit"),
        usage("a time with a wrong unit", &["test", "flip", "ac.c", "--time-limit", "2h"], "--time-limit"),
        usage("NaN seconds", &["test", "flip", "ac.c", "--time-limit", "NaN"], "--time-limit"),
        usage("infinite seconds", &["test", "flip", "ac.c", "--time-limit", "inf"], "--time-limit"),
        usage("a negative wall time", &["test", "flip", "ac.c", "--wall-limit", "-1"], "--wall-limit"),
        usage("an empty time", &["test", "flip", "ac.c", "--time-limit", ""], "--time-limit"),
        usage("a negative size", &["test", "flip", "ac.c", "--memory-limit", "-1"], "--memory-limit"),
        usage("a zero size", &["test", "flip", "ac.c", "--memory-limit", "0"], "--memory-limit"),
        usage("a size in words", &["test", "flip", "ac.c", "--memory-limit", "lots"], "--memory-limit"),
        usage("a size past u64", &["test", "flip", "ac.c", "--memory-limit", "99999999999999999999999"], "--memory-limit"),
        usage("a negative output size", &["test", "flip", "ac.c", "--output-limit", "-5"], "--output-limit"),
        usage("a batch's negative time", &["batch", "flip", "class", "--time-limit", "-1"], "--time-limit"),
        usage("a fuzz's negative duration", &["fuzz", "flip", "ac.c", "--duration", "-1"], "--duration"),
    ]
}

/// The rows of whole-number flags.
#[rustfmt::skip]
fn whole_number_flags() -> Vec<Row> {
    vec![
        usage("--jobs -1", &["test", "flip", "ac.c", "--jobs", "-1"], "--jobs"),
        usage("--jobs 0", &["test", "flip", "ac.c", "--jobs", "0"], "--jobs"),
        usage("--jobs in words", &["test", "flip", "ac.c", "--jobs", "two"], "--jobs"),
        usage("--jobs past its range", &["test", "flip", "ac.c", "--jobs", "100000"], "--jobs"),
        usage("--max-processes -1", &["test", "flip", "ac.c", "--max-processes", "-1"], "--max-processes"),
        usage("--max-processes 0", &["test", "flip", "ac.c", "--max-processes", "0"], "--max-processes"),
        usage("--seed -1", &["gen", "flip", "--seed", "-1"], "--seed"),
        usage("--seed in words", &["gen", "flip", "--seed", "one"], "--seed"),
        usage("--seed past u64", &["gen", "flip", "--seed", "18446744073709551616"], "--seed"),
        usage("--count -1", &["gen", "flip", "--seed", "1", "--count", "-1"], "--count"),
        usage("--count 0", &["gen", "flip", "--seed", "1", "--count", "0"], "--count"),
        usage("--runs -1", &["fuzz", "flip", "ac.c", "--runs", "-1"], "--runs"),
        usage("fuzz --seed -5", &["fuzz", "flip", "ac.c", "--seed", "-5"], "--seed"),
        usage("--shrink-steps -1", &["fuzz", "flip", "ac.c", "--shrink-steps", "-1"], "--shrink-steps"),
        usage("--stop-after-wall-tles -1", &["batch", "flip", "class", "--stop-after-wall-tles", "-1"], "--stop-after-wall-tles"),
        usage("--jobs -1 on batch", &["batch", "flip", "class", "--jobs", "-1"], "--jobs"),
        usage("--shard -1/4", &["batch", "flip", "class", "--shard", "-1/4"], "--shard"),
        usage("--shard 0/4", &["batch", "flip", "class", "--shard", "0/4"], "--shard"),
        usage("--shard 5/4", &["batch", "flip", "class", "--shard", "5/4"], "--shard"),
        usage("--shard 1/0", &["batch", "flip", "class", "--shard", "1/0"], "--shard"),
        usage("--shard without a slash", &["batch", "flip", "class", "--shard", "2"], "--shard"),
        usage("--shard in words", &["batch", "flip", "class", "--shard", "one/two"], "--shard"),
    ]
}

/// The rows of choices.
#[rustfmt::skip]
fn choices() -> Vec<Row> {
    vec![
        usage("an unknown problem", &["test", "flop", "ac.c"], "flop"),
        usage("an unknown problem for problems", &["problems", "flop"], "flop"),
        usage("an unknown mutant", &["mutant", "flip", "nope"], "nope"),
        usage("an unknown kind", &["gen", "flip", "--seed", "1", "--kind", "nope"], "--kind"),
        usage("an unknown tier", &["test", "flip", "ac.c", "--sandbox", "paranoid"], "--sandbox paranoid"),
        usage("an unknown report", &["test", "flip", "ac.c", "--report", "xml"], "--report xml"),
        usage("a batch's unknown report", &["batch", "flip", "class", "--report", "pdf"], "--report pdf"),
        usage("an unknown language", &["test", "flip", "ac.c", "--lang", "intercal"], "intercal"),
        usage("an unknown extension", &["test", "flip", "sol.intercal"], "sol.intercal"),
        usage("an unknown layout", &["batch", "flip", "class", "--layout", "weird"], "--layout weird"),
        usage("an unknown reveal", &["batch", "flip", "class", "--reveal", "everything"], "--reveal"),
        usage("an unknown visibility", &["test", "flip", "ac.c", "--gradescope-visibility", "sometimes"], "--gradescope-visibility"),
        usage("a bad entry pattern", &["batch", "flip", "class", "--entry", "[x"], "--entry"),
        usage("a --lang-for without =", &["batch", "flip", "class", "--lang-for", "python"], "--lang-for"),
        usage("a --lang-for with an unknown language", &["batch", "flip", "class", "--lang-for", "*.py=intercal"], "intercal"),
        usage("--points without =", &["test", "flip", "ac.c", "--points", "secret"], "--points"),
        usage("--points negative", &["test", "flip", "ac.c", "--points", "secret=-1"], "--points"),
        usage("--points in words", &["test", "flip", "ac.c", "--points", "secret=lots"], "--points"),
        usage("--points of a group that is not there", &["test", "flip", "ac.c", "--points", "nosuch=10"], "nosuch"),
        usage("an unknown flag", &["test", "flip", "ac.c", "--tiem-limit", "2"], "--tiem-limit"),
        usage("an unknown command", &["tset"], "tset"),
        usage("no command", &[], "needs a command"),
        usage("a missing submission", &["test", "flip"], "<SUBMISSION>"),
        usage("--cmd and a file", &["test", "flip", "ac.c", "--cmd", "true"], ""),
        usage("--report-file without a report", &["solve", "flip", "board.txt", "--report", "xml"], "--report xml"),
        usage("a repeated flag", &["test", "flip", "ac.c", "--jobs", "1", "--jobs", "2"], "--jobs"),
    ]
}

/// The rows of boards.
#[rustfmt::skip]
fn boards() -> Vec<Row> {
    use Input::{Bytes, File};
    vec![
        usage("solve: a missing board", &["solve", "flip", "missing.txt"], "missing.txt"),
        usage("solve: a folder as a board", &["solve", "flip", "nothing"], "nothing: is a folder"),
        usage("solve: a bad byte", &["solve", "flip", "bad.txt"], "bad.txt:2:3"),
        usage("solve: a short board", &["solve", "flip", "short.txt"], "short.txt:3"),
        usage("solve: an empty board", &["solve", "flip", "empty.txt"], "empty.txt"),
        usage("solve: a wide row", &["solve", "flip", "wide.txt"], "wide.txt:1:5"),
        usage("solve: a NUL byte", &["solve", "flip", "nul.txt"], "nul.txt:2:3"),
        usage("solve: a byte that is not UTF-8", &["solve", "flip", "latin1.txt"], "latin1.txt:2:3"),
        usage("solve: a strict board with CRLF", &["solve", "flip", "crlf.txt", "--strict"], "crlf.txt:1:5"),
        works("solve: CRLF tolerated", &["solve", "flip", "crlf.txt"], 0),
        usage("solve: a fourinrow board as flip", &["solve", "flip", "four.txt"], "four.txt:1:"),
        usage("solve: a board on stdin with a bad byte", &["solve", "flip"], "<stdin>:2:3").stdin(Bytes(BAD_FLIP)),
        usage("solve: an empty stdin", &["solve", "flip"], "<stdin>"),
        usage("solve: /dev/zero", &["solve", "flip", "/dev/zero"], "/dev/zero").capped(),
        usage("solve: a link to /dev/zero", &["solve", "flip", "zero.txt"], "zero.txt").capped(),
        usage("solve: endless stdin", &["solve", "flip"], "<stdin>").stdin(File("/dev/zero")).capped(),
        usage("solve: random stdin", &["solve", "flip"], "<stdin>").stdin(File("/dev/urandom")).capped(),
        usage("solve: a dangling link", &["solve", "flip", "dangling.txt"], "dangling.txt"),
        usage("solve: a name with ESC is escaped", &["solve", "flip", "escape\x1b[31m.txt"], "escape\\x1b[31m.txt"),
        usage("solve: a name with a newline is escaped", &["solve", "flip", "new\nline.txt"], "new\\nline.txt"),
        usage("validate: a missing file", &["validate", "flip", "missing.txt"], "missing.txt"),
        works("validate: a bad board is exit 1", &["validate", "flip", "bad.txt"], 1),
        works("validate: a good board", &["validate", "flip", "board.txt"], 0),
        usage("validate: endless stdin", &["validate", "flip"], "<stdin>").stdin(File("/dev/zero")).capped(),
        usage("check: a missing output", &["check", "flip", "board.txt", "missing.out"], "missing.out"),
        usage("check: a bad input", &["check", "flip", "bad.txt", "out-4.txt"], "bad.txt:2:3"),
        usage("check: an answer from /dev/urandom", &["check", "flip", "board.txt", "out-4.txt", "--answer", "random.json"], "random.json").capped(),
        usage("check: an input from /dev/zero", &["check", "flip", "zero.txt", "out-4.txt"], "zero.txt").capped(),
        works("check: an endless output is no AC", &["check", "flip", "board.txt", "/dev/zero"], 1).capped(),
        works("check: a right output", &["check", "flip", "board.txt", "out-4.txt"], 0),
        works("check: junk output", &["check", "flip", "board.txt", "out-junk.txt"], 1),
    ]
}

/// The rows of submissions and options files.
#[rustfmt::skip]
fn submissions_and_options_files() -> Vec<Row> {
    vec![
        usage("test: a missing submission", &["test", "flip", "missing.c"], "missing.c"),
        usage("test: a folder as a submission", &["test", "flip", "nothing"], "nothing"),
        usage("test: /dev/zero as a submission", &["test", "flip", "/dev/zero", "--lang", "c"], "/dev/zero").capped(),
        usage("test: a missing language table", &["test", "flip", "ac.c", "--config", "missing.toml"], "missing.toml"),
        usage("test: a junk language table", &["test", "flip", "ac.c", "--config", "junk.toml"], "junk.toml:1:"),
        usage("test: an endless language table", &["test", "flip", "ac.c", "--config", "zero.toml"], "zero.toml").capped(),
        usage("test: a cache that is a file", &["test", "flip", "ac.c", "--cache-dir", "afile"], "afile"),
        usage("test: a report file in a missing folder", &["test", "flip", "ac.c", "--report-file", "no/such/r.json"], "no/such"),
        usage("test: a report file over the submission", &["test", "flip", "ac.c", "--report-file", "ac.c"], "ac.c"),
        usage("test: a report file over a folder", &["test", "flip", "ac.c", "--report-file", "nothing"], "nothing"),
        usage("test: a report file below a file", &["test", "flip", "ac.c", "--report-file", "afile/r.json"], "afile"),
        usage("test: a report file over a case", &["test", "flip", "ac.c", "--cases", "cases", "--report-file", "cases/sample/01.in"], "01.in"),
    ]
}

/// The rows of case folders.
#[rustfmt::skip]
fn case_folders() -> Vec<Row> {
    vec![
        usage("cases: missing", &["test", "flip", "ac.c", "--cases", "missing"], "missing"),
        usage("cases: a file", &["test", "flip", "ac.c", "--cases", "afile"], "afile"),
        usage("cases: none in the folder", &["test", "flip", "ac.c", "--cases", "nothing"], "nothing"),
        usage("cases: a FIFO as an input", &["test", "flip", "ac.c", "--cases", "c-fifo"], "02.in"),
        usage("cases: a folder as an input", &["test", "flip", "ac.c", "--cases", "c-dir"], "02.in"),
        usage("cases: an input linked to /dev/zero", &["test", "flip", "ac.c", "--cases", "c-zero"], "02.in").capped(),
        usage("cases: an answer linked to /dev/zero", &["test", "flip", "ac.c", "--cases", "c-ans-zero"], "02.ans").capped(),
        usage("cases: an input that is a dangling link", &["test", "flip", "ac.c", "--cases", "c-dangling"], "02.in"),
        usage("cases: an input with no answer", &["test", "flip", "ac.c", "--cases", "c-no-ans"], "02.in"),
        usage("cases: a folder as an answer", &["test", "flip", "ac.c", "--cases", "c-ans-dir"], "02.ans"),
        usage("cases: a malformed board", &["test", "flip", "ac.c", "--cases", "c-bad-board"], "02.in:2:3"),
        usage("cases: an answer with no input", &["test", "flip", "ac.c", "--cases", "c-stray-ans"], "03.ans: is an answer with no input beside it"),
        usage("cases: a link to a folder", &["test", "flip", "ac.c", "--cases", "c-folder-link"], "more: is a link to a folder"),
        usage("cases: a wrong answer", &["test", "flip", "ac.c", "--cases", "c-bad-answer"], "02.ans"),
        usage("batch: a FIFO case", &["batch", "flip", "class", "--cases", "c-fifo", "--out", "out-fifo"], "02.in"),
        usage("cases check: a FIFO case", &["cases", "check", "flip", "--root", "c-fifo-root"], "c-fifo-root"),
        usage("cases regen: a missing root", &["cases", "regen", "--root", "missing"], "missing"),
        usage("cases power: a missing root", &["cases", "power", "flip", "--root", "missing"], "missing"),
    ]
}

/// The rows of classes.
#[rustfmt::skip]
fn classes() -> Vec<Row> {
    vec![
        usage("batch: a missing class", &["batch", "flip", "missing"], "missing"),
        usage("batch: a file as a class", &["batch", "flip", "afile"], "afile"),
        usage("batch: a device as a class", &["batch", "flip", "/dev/null"], "/dev/null: cannot list submissions in: is a character device, not a folder"),
        usage("test: a device as the cases", &["test", "flip", "ac.c", "--cases", "/dev/null"], "is a character device, not a folder"),
        usage("gen: a device as --out", &["gen", "flip", "--seed", "1", "--out", "/dev/full"], "is a character device, not a folder"),
        usage("test: a device as --report-file", &["test", "flip", "ac.c", "--report-file", "/dev/full"], "/dev/full: is a character device, expected a file"),
        usage("a name too long", &["solve", "flip", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"], "File name too long"),
        usage("batch: an empty class", &["batch", "flip", "class-empty"], "class-empty: no submissions"),
        usage("batch: a class of notes", &["batch", "flip", "class-notes"], "class-notes: no submissions"),
        usage("batch: --out is the class", &["batch", "flip", "class", "--out", "class"], "class"),
        usage("batch: --out is a file", &["batch", "flip", "class", "--out", "afile"], "afile"),
        usage("batch: --out below a file", &["batch", "flip", "class", "--out", "afile/out"], "afile"),
        usage("batch: --feedback is a file", &["batch", "flip", "class", "--feedback", "afile"], "afile"),
        usage("batch: --cache-dir is a file", &["batch", "flip", "class", "--cache-dir", "afile"], "afile"),
        usage("batch: a junk language table", &["batch", "flip", "class", "--config", "junk.toml"], "junk.toml:1:"),
    ]
}

/// The rows of gradebooks.
#[rustfmt::skip]
fn gradebooks() -> Vec<Row> {
    vec![
        usage("merge: nothing", &["merge"], "GRADEBOOK"),
        usage("merge: a missing gradebook", &["merge", "missing.json"], "missing.json"),
        usage("merge: a folder", &["merge", "nothing"], "nothing"),
        usage("merge: /dev/zero", &["merge", "/dev/zero"], "/dev/zero").capped(),
        usage("merge: a link to /dev/zero", &["merge", "zero.json"], "zero.json").capped(),
        usage("merge: a link to /dev/urandom", &["merge", "random.json"], "random.json").capped(),
        usage("merge: a FIFO", &["merge", "c-fifo/secret/02.in"], "02.in").capped(),
        usage("merge: junk", &["merge", "junk.json"], "junk.json:1:"),
        usage("merge: a list", &["merge", "list.json"], "list.json"),
        usage("merge: an empty file", &["merge", "empty.txt"], "empty.txt"),
        usage("merge: a board", &["merge", "board.txt"], "board.txt:1:1"),
        usage("merge: --out is a file", &["merge", "junk.json", "--out", "afile"], "afile"),
    ]
}

/// The rows of problem packages.
#[rustfmt::skip]
fn problem_packages() -> Vec<Row> {
    vec![
        usage("package: an unknown validation", &["test", "p-costum", "--cmd", "true"], "problem.yaml:"),
        usage("package: an unknown type", &["test", "p-type", "--cmd", "true"], "problem.yaml:"),
        usage("package: a word for a number", &["test", "p-limits", "--cmd", "true"], "problem.yaml:"),
        usage("package: junk yaml", &["test", "p-yaml-junk", "--cmd", "true"], "problem.yaml:2:1"),
        usage("package: testdata.yaml a dangling link", &["test", "p-testdata-dangling", "--cmd", "true"], "testdata.yaml"),
        usage("package: testdata.yaml a link to /dev/zero", &["test", "p-testdata-zero", "--cmd", "true", "--sandbox", "none"], "testdata.yaml").capped(),
        usage("package: testdata.yaml a folder", &["test", "p-testdata-dir", "--cmd", "true"], "testdata.yaml"),
        usage("package: problem.yaml a dangling link", &["test", "p-yaml-dangling", "--cmd", "true"], "problem.yaml: is a broken link"),
        usage("package: problem.yaml a folder", &["test", "p-yaml-dir", "--cmd", "true"], "problem.yaml: is a folder"),
        usage("package: an answer with no input", &["test", "p-stray-ans", "--cmd", "true"], "3.ans"),
        usage("package: a misspelt key", &["test", "p-validaton", "--cmd", "true"], "validaton"),
        usage("package: no data", &["test", "p-no-data", "--cmd", "true"], "p-no-data"),
        usage("package: a FIFO input", &["test", "p-in-fifo", "--cmd", "true"], "2.in"),
        usage("package verify: an unknown validation", &["package", "verify", "p-costum"], "problem.yaml:"),
        usage("package verify: a missing package", &["package", "verify", "missing"], "missing"),
        usage("package verify: a file", &["package", "verify", "afile"], "afile"),
        usage("package export: --out is a file", &["package", "export", "flip", "--out", "afile"], "afile"),
        usage("package export: over a folder that is no package", &["package", "export", "flip", "--out", "class", "--force"], "class"),
        usage("fuzz: a package without a generator", &["fuzz", "pkg", "--cmd", "true"], "generator"),
    ]
}

/// The rows of the machine's setup.
#[rustfmt::skip]
fn the_machine_s_setup() -> Vec<Row> {
    vec![
        usage("TMPDIR missing", &["test", "flip", "ac.c", "--cases", "cases"], "TMPDIR").env(&[("TMPDIR", "no-such-tmp")]),
        usage("TMPDIR a file", &["test", "flip", "ac.c", "--cases", "cases"], "TMPDIR").env(&[("TMPDIR", "afile")]),
        usage("batch: TMPDIR missing", &["batch", "flip", "class", "--cases", "cases", "--out", "out-tmp"], "TMPDIR").env(&[("TMPDIR", "no-such-tmp")]),
        usage("a shell's ulimit -v below a run's needs", &["test", "flip", "ac.c", "--cases", "cases"], "ulimit -v").under("--as=209715200"),
        usage("strict under a small ulimit -v", &["test", "flip", "ac.c", "--cases", "cases", "--sandbox", "strict"], "ulimit -v").under("--as=209715200"),
        usage("batch under a small ulimit -v", &["batch", "flip", "class", "--cases", "cases", "--out", "out-ulimit"], "ulimit -v").under("--as=209715200"),
        works("doctor under a small ulimit -v says so", &["doctor"], 0).under("--as=209715200"),
        works("the box under a large ulimit -v", &["test", "flip", "ac.c", "--cases", "cases"], 0).under("--as=17179869184"),
        usage("a shell's ulimit -f below the output limit", &["test", "flip", "ac.c", "--cases", "cases"], "file-size").under("--fsize=1048576"),
        works("none, asked for by name, under a small ulimit -v", &["test", "flip", "ac.c", "--cases", "cases", "--sandbox", "none"], 0).under("--as=209715200"),
        usage("cases check of a package under a small ulimit -v", &["cases", "check", "pkg"], "--sandbox none").under("--as=209715200"),
        works("cases check of a package, --sandbox none by name", &["cases", "check", "pkg", "--sandbox", "none"], 0).under("--as=209715200"),
        usage("a package whose memory limit needs more than the shell's ulimit -v", &["test", "pkg", "--cmd", "true"], "4 × the 1 GiB memory limit").under("--as=2147483648"),
        usage("GRADER_CACHE_DIR a file", &["test", "flip", "ac.c", "--cases", "cases"], "afile").env(&[("GRADER_CACHE_DIR", "afile")]),
    ]
}

/// The rows of standard output on a full disk.
#[rustfmt::skip]
fn standard_output_on_a_full_disk() -> Vec<Row> {
    vec![
        usage("problems > /dev/full", &["problems"], "standard output").full(),
        usage("problems flip > /dev/full", &["problems", "flip"], "standard output").full(),
        usage("solve > /dev/full", &["solve", "flip", "board.txt"], "standard output").full(),
        usage("solve --explain > /dev/full", &["solve", "flip", "board.txt", "--explain"], "standard output").full(),
        usage("solve json > /dev/full", &["solve", "flip", "board.txt", "--report", "json"], "standard output").full(),
        usage("gen > /dev/full", &["gen", "flip", "--seed", "1", "--count", "3"], "standard output").full(),
        usage("check > /dev/full", &["check", "flip", "board.txt", "out-4.txt"], "standard output").full(),
        usage("validate > /dev/full", &["validate", "flip", "board.txt"], "standard output").full(),
        usage("doctor > /dev/full", &["doctor"], "standard output").full(),
        usage("mutant > /dev/full", &["mutant", "flip", "one-colour", "board.txt"], "standard output").full(),
        usage("test > /dev/full", &["test", "flip", "ac.c", "--cases", "cases"], "standard output").full(),
        usage("test json > /dev/full", &["test", "flip", "ac.c", "--cases", "cases", "--report", "json"], "standard output").full(),
        usage("batch csv > /dev/full", &["batch", "flip", "class", "--cases", "cases", "--out", "out-full", "--report", "csv"], "standard output").full(),
        usage("--help > /dev/full", &["--help"], "standard output").full(),
    ]
}

#[test]
fn every_row_of_the_bad_input_tour_gets_the_contracts_answer() {
    let root = tempfile::tempdir().unwrap();
    world(root.path());
    // `cases check --root` takes a tree of problem folders: one whose flip data holds a FIFO.
    let data = root.path().join("c-fifo-root/flip/data");
    copy_tree(&root.path().join("cases"), &data);
    nix::unistd::mkfifo(&data.join("secret/02.in"), nix::sys::stat::Mode::S_IRWXU).unwrap();
    write(&data, "secret/02.ans", "4\n");
    let rows = rows();
    assert!(rows.len() >= 150, "{} rows", rows.len());
    let mut failed = Vec::new();
    for row in &rows {
        if let Err(why) = run(root.path(), row) {
            failed.push(format!("{}: {why}", row.what));
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {} rows failed:\n{}",
        failed.len(),
        rows.len(),
        failed.join("\n")
    );
}

/// Runs `row` in `root`; why it does not get the contract's answer, if it does not.
fn run(root: &Path, row: &Row) -> Result<(), String> {
    let grader = grader_path();
    let mut command = if let Some(limit) = row.limit {
        let mut prlimit = Command::new("prlimit");
        prlimit.arg(limit).arg("--").arg(grader);
        prlimit
    } else {
        Command::new(grader)
    };
    command
        .args(row.args)
        .current_dir(root)
        .env("NO_COLOR", "1")
        .env("TMPDIR", root.join("tmp"))
        .env("GRADER_CACHE_DIR", root.join("cache"))
        .envs(row.env.iter().map(|(k, v)| (k, v)));
    command.stdin(match row.stdin {
        Input::Null | Input::Bytes(_) => Stdio::piped(),
        Input::File(path) => Stdio::from(fs::File::open(root.join(path)).unwrap()),
    });
    command.stdout(match row.stdout {
        Output::Pipe => Stdio::piped(),
        Output::Full => Stdio::from(
            fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap(),
        ),
    });
    command.stderr(Stdio::piped());
    let mut child = command.spawn().map_err(|e| e.to_string())?;
    if let (Some(mut stdin), Input::Bytes(bytes)) = (child.stdin.take(), row.stdin) {
        let _ = stdin.write_all(bytes.as_bytes());
    }
    // A row that hangs (a read of a FIFO no one writes) fails, and is killed.
    let pid = child.id();
    let (done, waited) = std::sync::mpsc::channel();
    let watchdog = std::thread::spawn(move || {
        if waited.recv_timeout(ROW_TIMEOUT).is_err() {
            let _ = Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .status();
        }
    });
    let started = std::time::Instant::now();
    let output = child.wait_with_output().map_err(|e| e.to_string());
    let _ = done.send(());
    watchdog.join().unwrap();
    let output = output?;
    if started.elapsed() >= ROW_TIMEOUT {
        return Err(format!("still running after {ROW_TIMEOUT:?}: killed"));
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    let shown = || format!("exit {:?}, stderr {stderr:?}", output.status.code());
    if stderr.contains("panicked") {
        return Err(format!("a panic: {}", shown()));
    }
    if output.status.code() != Some(row.code) {
        return Err(format!("expected exit {}, got {}", row.code, shown()));
    }
    if row.code == 2 {
        // The one error line ends what stderr says; before it, only the progress lines
        // of work done before the failing write (a batch's students).
        let errors = stderr
            .lines()
            .filter(|l| l.starts_with("grader: error: "))
            .count();
        let last = stderr.lines().last().unwrap_or_default();
        let alone = stderr.lines().count() == 1 || row.stdout == Output::Full;
        if errors != 1 || !last.starts_with("grader: error: ") || !alone {
            return Err(format!("expected one error line: {}", shown()));
        }
        if row.stdout == Output::Pipe && !output.stdout.is_empty() {
            return Err(format!(
                "standard output with an error: {:?}",
                String::from_utf8_lossy(&output.stdout)
            ));
        }
    }
    if !stderr.contains(row.says) {
        return Err(format!(
            "expected stderr to say {:?}: {}",
            row.says,
            shown()
        ));
    }
    // No raw terminal control byte reaches the terminal.
    if stderr.bytes().any(|b| b == 0x1b || b == 0x07) || stderr.contains('\u{9b}') {
        return Err(format!("raw control bytes on stderr: {}", shown()));
    }
    Ok(())
}
