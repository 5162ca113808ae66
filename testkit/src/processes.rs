//! The machine's processes, as `/proc` shows them: for tests that a command leaves none
//! of its programs behind, and for waiting on one that runs in the background.

use std::fs;
use std::time::{Duration, Instant};

/// How many processes, machine-wide, are named `name` (their `comm`: a test's program
/// names itself so that a survivor can be found).
pub fn named(name: &str) -> usize {
    fs::read_dir("/proc")
        .expect("/proc")
        .flatten()
        .filter_map(|e| fs::read_to_string(e.path().join("comm")).ok())
        .filter(|comm| comm.trim() == name)
        .count()
}

/// The pids whose parent is `parent`.
pub fn children_of(parent: u32) -> Vec<u32> {
    fs::read_dir("/proc")
        .expect("/proc")
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
                stat.rsplit_once(')')
                    .and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<u32>().ok())
                    == Some(parent)
            })
        })
        .collect()
}

/// Waits until `ready` holds, asking every 20 ms; fails naming `what` after `within`
/// (wide: a busy machine is slow, not wrong).
pub fn wait_until(what: &str, within: Duration, mut ready: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ready() {
        assert!(start.elapsed() < within, "never: {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// How many processes, machine-wide, have an argument that ends with `tail` (a program's
/// file name: a test names its program so that its runs are counted apart from other
/// tests' while they run).
pub fn with_argument(tail: &str) -> usize {
    fs::read_dir("/proc")
        .expect("/proc")
        .flatten()
        .filter_map(|e| fs::read(e.path().join("cmdline")).ok())
        .filter(|cmdline| {
            cmdline
                .split(|&b| b == 0)
                .any(|arg| arg.ends_with(tail.as_bytes()))
        })
        .count()
}
