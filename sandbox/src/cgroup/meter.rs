//! A box group's counters as a run ends, and the reset before the next run: the files of
//! the groups (`files.rs`), read the same way by the grader (between runs it asks for one
//! at a time, `figures.rs`) and by the launcher (between a run and the one it starts the
//! moment the first ends, `Message::Then`: the grader then does not stand between the two).
//!
//! Shared with the `grader-launcher` binary, so it holds only reading and parsing: which
//! files a group has, and when one is made anew, is the rest of the module's.

use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// How a group's files write their figures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Format {
    /// cgroup v1: `cpuacct.usage` (ns), `memory.max_usage_in_bytes` (reset by `0`),
    /// `memory.oom_control`, `memory.usage_in_bytes`.
    V1,
    /// cgroup v2: `cpu.stat` (`usage_usec`), `memory.peak` (reset by writing to the same
    /// descriptor, Linux 6.12), `memory.events`, `memory.current`.
    V2,
}

/// What comes with a run to start at once after the current one: how its group's files
/// (attached last, in [`Meter`]'s order) write their figures, and the memory left over
/// above which the group must be made anew before another run (v2; see `figures.rs`), so
/// that the launcher leaves the next run to the grader instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct MeterSpec {
    /// The files' format.
    pub(crate) format: Format,
    /// Left-over memory that stops the run from starting at once.
    pub(crate) renew_above: Option<u64>,
}

/// A group's counters as a run ended: each as the kernel keeps it (CPU time and OOM kills
/// since the group was made, the peak since its last reset); the run's figures are the
/// differences from the counters it started from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Counters {
    /// CPU time of every process the group ever held.
    pub(crate) cpu_ns: u64,
    /// Peak memory since the last reset, bytes.
    pub(crate) peak: u64,
    /// Processes the OOM killer took.
    pub(crate) oom_kills: u64,
}

/// What the launcher read between a run and the one it started the moment the first
/// ended: the first one's end, and the memory charged as the second started (its peak was
/// reset just before).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Boundary {
    /// The counters as the first run ended.
    pub(crate) end: Counters,
    /// The memory charged to the group as the second one started, bytes.
    pub(crate) usage: u64,
}

/// The four files of a group a run's figures come from, open.
#[derive(Debug)]
pub(crate) struct Meter {
    format: Format,
    cpu: File,
    peak: File,
    oom: File,
    usage: File,
}

impl Meter {
    /// The meter of `format` on `files`: CPU, peak, OOM kills, usage, in that order.
    pub(crate) fn new(format: Format, files: Vec<File>) -> io::Result<Meter> {
        let [cpu, peak, oom, usage]: [File; 4] = files
            .try_into()
            .map_err(|_| io::Error::other("a group's meter takes four files"))?;
        Ok(Meter {
            format,
            cpu,
            peak,
            oom,
            usage,
        })
    }

    /// The counters as a run ends (every process of it gone).
    pub(crate) fn counters(&self) -> io::Result<Counters> {
        Ok(Counters {
            cpu_ns: cpu(self.format, &self.cpu)?.as_nanos() as u64,
            peak: number(&self.peak, "the peak memory")?,
            oom_kills: oom_kills(&self.oom)?,
        })
    }

    /// Between two runs: the first one's counters, then, unless more memory than
    /// `renew_above` is left charged (the group is to be made anew first), the peak reset
    /// and the memory the second starts from. `None` when the second must wait.
    pub(crate) fn between(&self, renew_above: Option<u64>) -> io::Result<Option<Boundary>> {
        let end = self.counters()?;
        let usage = number(&self.usage, "the memory usage")?;
        if renew_above.is_some_and(|above| usage > above) {
            return Ok(None);
        }
        reset_peak(self.format, &self.peak)?;
        Ok(Some(Boundary { end, usage }))
    }
}

/// Starts the peak of `file` afresh.
pub(crate) fn reset_peak(format: Format, file: &File) -> io::Result<()> {
    write_at(
        file,
        match format {
            Format::V1 => "0",
            Format::V2 => "reset",
        },
    )
}

/// The CPU time of every process a group held, from `cpuacct.usage` or `cpu.stat`.
pub(crate) fn cpu(format: Format, file: &File) -> io::Result<Duration> {
    let mut buffer = [0u8; 512];
    let text = read_at(file, &mut buffer)?;
    match format {
        Format::V1 => parse_u64(text).map(Duration::from_nanos),
        Format::V2 => parse_keyed(text, "usage_usec").map(Duration::from_micros),
    }
    .ok_or_else(|| malformed("the CPU usage"))
}

/// The OOM-kill counter of v1 `memory.oom_control` or v2 `memory.events`.
pub(crate) fn oom_kills(file: &File) -> io::Result<u64> {
    let mut buffer = [0u8; 512];
    parse_keyed(read_at(file, &mut buffer)?, "oom_kill")
        .ok_or_else(|| malformed("the oom_kill counter (it needs Linux 4.13)"))
}

/// A file holding one number (`memory.usage_in_bytes`, `memory.peak`, ...); `what` names
/// it in the error.
pub(crate) fn number(file: &File, what: &str) -> io::Result<u64> {
    let mut buffer = [0u8; 64];
    parse_u64(read_at(file, &mut buffer)?).ok_or_else(|| malformed(what))
}

/// Reads a whole small cgroup file in one `pread`: the kernel hands it over whole.
pub(crate) fn read_at<'b>(file: &File, buffer: &'b mut [u8]) -> io::Result<&'b str> {
    let n = file.read_at(buffer, 0)?;
    if n == buffer.len() {
        return Err(malformed("a cgroup file longer than expected"));
    }
    std::str::from_utf8(&buffer[..n]).map_err(|_| malformed("a cgroup file not in UTF-8"))
}

/// Writes a value to a cgroup file: the kernel takes one write as one value.
pub(crate) fn write_at(file: &File, value: &str) -> io::Result<()> {
    file.write_all_at(value.as_bytes(), 0)
}

fn malformed(what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("cgroup: cannot read {what}"),
    )
}

/// A file holding one number.
pub(crate) fn parse_u64(text: &str) -> Option<u64> {
    text.trim().parse().ok()
}

/// The value of `key` in a flat keyed file of `key value` lines (`cpu.stat`,
/// `memory.events`, v1 `memory.oom_control`).
pub(crate) fn parse_keyed(text: &str, key: &str) -> Option<u64> {
    text.lines().find_map(|line| {
        let (k, value) = line.split_once(' ')?;
        (k == key).then(|| value.trim().parse().ok())?
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cgroup::fixtures::{V1_OOM_CONTROL, V2_CPU_STAT, V2_EVENTS};

    #[test]
    fn files_parse_as_the_kernel_writes_them() {
        let oom_kill = |text| parse_keyed(text, "oom_kill");
        assert_eq!(oom_kill(V1_OOM_CONTROL), Some(0));
        assert_eq!(oom_kill(V2_EVENTS), Some(1));
        assert_eq!(oom_kill("oom_kill_disable 0\nunder_oom 0\n"), None);
        assert_eq!(parse_keyed(V2_CPU_STAT, "usage_usec"), Some(2500));
        assert_eq!(parse_u64("253541361469\n"), Some(253_541_361_469));
        assert_eq!(parse_u64("max\n"), None);
    }

    fn file(dir: &std::path::Path, name: &str, content: &str) -> File {
        let path = dir.join(name);
        std::fs::write(&path, content).unwrap();
        File::options().read(true).write(true).open(path).unwrap()
    }

    fn v1(dir: &std::path::Path, usage: &str) -> Meter {
        let files = vec![
            file(dir, "cpuacct.usage", "2500000\n"),
            file(dir, "memory.max_usage_in_bytes", "9437184\n"),
            file(
                dir,
                "memory.oom_control",
                "oom_kill_disable 0\nunder_oom 0\noom_kill 2\n",
            ),
            file(dir, "memory.usage_in_bytes", usage),
        ];
        Meter::new(Format::V1, files).unwrap()
    }

    #[test]
    fn between_two_runs_the_end_is_read_and_the_peak_reset() {
        let dir = tempfile::tempdir().unwrap();
        let meter = v1(dir.path(), "1048576\n");
        let boundary = meter.between(None).unwrap().unwrap();
        assert_eq!(
            boundary,
            Boundary {
                end: Counters {
                    cpu_ns: 2_500_000,
                    peak: 9_437_184,
                    oom_kills: 2,
                },
                usage: 1_048_576,
            }
        );
        // A file of the kernel takes `0` as the new value.
        let peak = std::fs::read_to_string(dir.path().join("memory.max_usage_in_bytes")).unwrap();
        assert!(peak.starts_with('0'), "{peak}");
    }

    #[test]
    fn too_much_left_over_leaves_the_next_run_to_the_grader_and_the_peak_alone() {
        let dir = tempfile::tempdir().unwrap();
        let meter = v1(dir.path(), "8388608\n");
        assert_eq!(meter.between(Some(4 << 20)).unwrap(), None);
        let peak = std::fs::read_to_string(dir.path().join("memory.max_usage_in_bytes")).unwrap();
        assert_eq!(peak, "9437184\n");
        assert!(meter.between(Some(16 << 20)).unwrap().is_some());
    }

    #[test]
    fn v2_files_parse_as_the_kernel_writes_them() {
        let dir = tempfile::tempdir().unwrap();
        let stat = file(
            dir.path(),
            "cpu.stat",
            "usage_usec 1500\nuser_usec 1000\nsystem_usec 500\n",
        );
        assert_eq!(cpu(Format::V2, &stat).unwrap(), Duration::from_micros(1500));
        let events = file(
            dir.path(),
            "memory.events",
            "low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\noom_group_kill 0\n",
        );
        assert_eq!(oom_kills(&events).unwrap(), 1);
        assert!(Meter::new(Format::V2, vec![stat]).is_err());
    }
}
