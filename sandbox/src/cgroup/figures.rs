//! A run's figures from its box group: the limits and baselines set before it
//! (`Group::prepare`), samples during it, and its CPU time, peak memory and OOM kills
//! after it (`Group::finish`), or from what the launcher read between two runs.
//!
//! Baselines instead of resets: a group's counters (CPU, OOM kills) only grow, so
//! `Group::prepare` remembers them and the run's figures are differences. Memory is the
//! same: page cache a run left behind stays charged to the group, so the peak is reported
//! above the usage at `prepare`. That difference undercounts a run by whatever left-over
//! cache the kernel evicted during it, so on v2, when more than `RENEW_ABOVE` is left
//! over, the group is removed and made afresh (about 0.15 ms here) instead: reclaiming
//! (`memory.force_empty`, or lowering the limit) measured 0.03 to 100 ms per call on this
//! kernel, 100 ms even for an 8 KiB residue, which is the kernel's no-progress reclaim
//! throttle. On v1 the launcher lives in the group, so it is never remade: the launcher
//! empties a run's working folder (a memory file system, whose pages cannot be evicted)
//! before it reports the run's end, so what stays charged is little and stable.

use std::fs::File;
use std::io;
use std::time::Duration;

use super::files::{Files, Peak};
use super::group::{Baseline, Group};
use super::meter::{self, Boundary, Format, MeterSpec, write_at};

/// Left-over memory above which [`Group::prepare`] renews the memory group rather than
/// subtracting it from the next run's peak.
const RENEW_ABOVE: u64 = 4 << 20;

/// What [`Group::sample`] sees during a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Sample {
    /// CPU time of every process and thread of the run since `prepare`.
    pub(crate) cpu: Duration,
    /// Memory charged to the run now, bytes (page cache and kernel memory included).
    pub(crate) memory: u64,
}

/// What [`Group::finish`] reports after a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Usage {
    /// CPU time of every process and thread of the run.
    pub(crate) cpu: Duration,
    /// The run's peak memory, bytes.
    pub(crate) peak: u64,
    /// Whether the kernel's OOM killer killed a process of the run (the verdict MLE).
    pub(crate) oom_killed: bool,
}

impl Group {
    /// Before each run (no process in the group): sets the memory limit the kernel
    /// enforces (`memory_limit` plus a sixteenth, so page cache and kernel memory do not
    /// OOM-kill a program right at the limit: the verdict compares the peak with the limit)
    /// and the process limit, writing only changes, and remembers the counters the run's
    /// figures start from.
    pub(crate) fn prepare(&mut self, memory_limit: u64, max_processes: u64) -> io::Result<()> {
        let mut usage = self.usage()?;
        let since_creation = matches!(
            self.files,
            Files::V2 {
                peak: Peak::SinceCreation { used: true, .. },
                ..
            }
        );
        let resident = matches!(self.files, Files::V1 { .. });
        let mut carried = self.carried.take();
        if (usage > RENEW_ABOVE && !resident) || since_creation {
            self.renew()?;
            usage = self.usage()?;
            carried = None;
        }
        if self.memory_limit != Some(memory_limit) {
            let with_margin = memory_limit.saturating_add(memory_limit / 16);
            match &self.files {
                Files::V1 { limit, .. } => write_at(limit, &v1_limit(with_margin))?,
                Files::V2 { max, .. } => write_at(max, &v2_limit(with_margin))?,
            }
            self.memory_limit = Some(memory_limit);
        }
        if self.max_processes != Some(max_processes) {
            // On v1 the launcher is one of the group's processes (see `resident`).
            let (cap, pids_max) = match &self.files {
                Files::V1 { pids_max, .. } => (max_processes.saturating_add(1), pids_max),
                Files::V2 { pids_max, .. } => (max_processes, pids_max),
            };
            write_at(pids_max, &v2_limit(cap))?;
            self.max_processes = Some(max_processes);
        }
        match &mut self.files {
            Files::V1 { max_usage, .. } => meter::reset_peak(Format::V1, max_usage)?,
            Files::V2 { peak, .. } => match peak {
                Peak::Resettable(file) => meter::reset_peak(Format::V2, file)?,
                Peak::SinceCreation { used, .. } => *used = true,
                Peak::Sampled { highest } => *highest = usage,
            },
        }
        let (cpu, oom_kills) = match carried {
            Some(counters) => counters,
            None => (self.cpu()?, self.oom_kills()?),
        };
        self.baseline = Baseline {
            cpu,
            memory: usage,
            oom_kills,
        };
        Ok(())
    }

    /// During a run: CPU time since `prepare` (every process and thread, exited ones
    /// included) and the memory charged now. Two `pread`s.
    pub(crate) fn sample(&mut self) -> io::Result<Sample> {
        let cpu = self.cpu()?.saturating_sub(self.baseline.cpu);
        let usage = self.usage()?;
        if let Files::V2 {
            peak: Peak::Sampled { highest },
            ..
        } = &mut self.files
        {
            *highest = (*highest).max(usage);
        }
        Ok(Sample {
            cpu,
            memory: usage.saturating_sub(self.baseline.memory),
        })
    }

    /// After the run (every process of it gone): its CPU time, its peak memory and whether
    /// the kernel OOM-killed anything in it.
    pub(crate) fn finish(&mut self) -> io::Result<Usage> {
        let cpu_now = self.cpu()?;
        let cpu = cpu_now.saturating_sub(self.baseline.cpu);
        let peak = match &self.files {
            Files::V1 { max_usage, .. } => meter::number(max_usage, "the peak memory")?,
            Files::V2 { peak, current, .. } => match peak {
                Peak::Resettable(file) | Peak::SinceCreation { file, .. } => {
                    meter::number(file, "the peak memory")?
                }
                Peak::Sampled { highest } => {
                    meter::number(current, "the memory usage")?.max(*highest)
                }
            },
        };
        let oom_kills = self.oom_kills()?;
        self.carried = Some((cpu_now, oom_kills));
        Ok(Usage {
            cpu,
            peak: peak.saturating_sub(self.baseline.memory),
            oom_killed: oom_kills > self.baseline.oom_kills,
        })
    }

    /// Whether the launcher can end a run and prepare the next one itself ([`Group::meter`]):
    /// not with a v2 peak that cannot be reset, which makes the group anew before every run
    /// or samples it.
    pub(crate) fn meters(&self) -> bool {
        !matches!(
            self.files,
            Files::V2 {
                peak: Peak::SinceCreation { .. } | Peak::Sampled { .. },
                ..
            }
        )
    }

    /// What the launcher needs to end a run and prepare the next one itself (see
    /// `meter.rs`): the files' format, the left-over memory above which this group is made
    /// anew, and the files (new descriptors of the same open files, so that a v2 peak reset
    /// through them is this group's). `None` where it cannot ([`Group::meters`]).
    pub(crate) fn meter(&self) -> io::Result<Option<(MeterSpec, Vec<File>)>> {
        let (spec, files) = match &self.files {
            Files::V1 {
                cpu,
                max_usage,
                oom_control,
                usage,
                ..
            } => (
                MeterSpec {
                    format: Format::V1,
                    // The launcher lives in it: never made anew (see `prepare`).
                    renew_above: None,
                },
                [cpu, max_usage, oom_control, usage],
            ),
            Files::V2 {
                cpu_stat,
                peak: Peak::Resettable(peak),
                events,
                current,
                ..
            } => (
                MeterSpec {
                    format: Format::V2,
                    renew_above: Some(RENEW_ABOVE),
                },
                [cpu_stat, peak, events, current],
            ),
            Files::V2 { .. } => return Ok(None),
        };
        let files = files
            .into_iter()
            .map(File::try_clone)
            .collect::<io::Result<_>>()?;
        Ok(Some((spec, files)))
    }

    /// A run ended and the launcher started the next one at once, reading `boundary`
    /// between the two (see [`Group::meter`]): the figures of the run that ended, as
    /// [`Group::finish`] gives them, and the next one's baseline, as [`Group::prepare`]
    /// sets it (same limits; its peak already reset).
    pub(crate) fn finish_between(&mut self, boundary: &Boundary) -> Usage {
        let end = boundary.end;
        let cpu_now = Duration::from_nanos(end.cpu_ns);
        let usage = Usage {
            cpu: cpu_now.saturating_sub(self.baseline.cpu),
            peak: end.peak.saturating_sub(self.baseline.memory),
            oom_killed: end.oom_kills > self.baseline.oom_kills,
        };
        self.carried = None;
        self.baseline = Baseline {
            cpu: cpu_now,
            memory: boundary.usage,
            oom_kills: end.oom_kills,
        };
        usage
    }

    fn usage(&self) -> io::Result<u64> {
        let (Files::V1 { usage: file, .. } | Files::V2 { current: file, .. }) = &self.files;
        meter::number(file, "the memory usage")
    }

    fn cpu(&self) -> io::Result<Duration> {
        match &self.files {
            Files::V1 { cpu, .. } => meter::cpu(Format::V1, cpu),
            Files::V2 { cpu_stat, .. } => meter::cpu(Format::V2, cpu_stat),
        }
    }

    fn oom_kills(&self) -> io::Result<u64> {
        let (Files::V1 {
            oom_control: file, ..
        }
        | Files::V2 { events: file, .. }) = &self.files;
        meter::oom_kills(file)
    }
}

/// A v1 memory limit: `-1` is none.
fn v1_limit(bytes: u64) -> String {
    if bytes >= i64::MAX as u64 {
        "-1".to_owned()
    } else {
        bytes.to_string()
    }
}

/// A v2 limit (and v1 `pids.max`): `max` is none.
fn v2_limit(value: u64) -> String {
    if value >= i64::MAX as u64 {
        "max".to_owned()
    } else {
        value.to_string()
    }
}

#[cfg(test)]
mod tests {
    use std::os::unix::process::ExitStatusExt;
    use std::path::PathBuf;
    use std::time::Duration;

    use super::*;
    use crate::cgroup::fixtures::{
        V2_EVENTS, fake_v1, fake_v2, put, read, real_v1, remove, run_in,
    };
    use crate::cgroup::probe::Hierarchy;

    #[test]
    fn limits_are_written_as_the_kernel_reads_them() {
        assert_eq!(v1_limit(u64::MAX), "-1");
        assert_eq!(v2_limit(u64::MAX), "max");
        assert_eq!(v2_limit(64), "64");
    }

    #[test]
    fn v1_runs_are_figured_from_baselines_and_limits_written_only_when_changed() {
        let t = tempfile::tempdir().unwrap();
        let h = fake_v1(t.path(), "w0");
        let mut group = Group::create(&h, "w0").unwrap();
        let [memory, cpuacct, pids] = <[PathBuf; 3]>::try_from(group.dirs.clone()).unwrap();
        // On v1 the launcher joins every group once; runs join none.
        assert_eq!(group.resident()[2], pids.join("tasks"));
        assert!(group.procs().is_empty());
        assert_eq!(read(&memory, "memory.swappiness"), "0");

        group.prepare(256 << 20, 8).unwrap();
        assert_eq!(read(&memory, "memory.limit_in_bytes"), "285212672");
        // The launcher is one of the group's processes.
        assert_eq!(read(&pids, "pids.max"), "9");
        assert!(read(&memory, "memory.max_usage_in_bytes").starts_with('0'));

        put(&cpuacct, "cpuacct.usage", "5300000000\n");
        put(&memory, "memory.usage_in_bytes", "41943040\n");
        let sample = group.sample().unwrap();
        assert_eq!(sample.cpu, Duration::from_millis(300));
        assert_eq!(sample.memory, 39 << 20);

        put(&memory, "memory.max_usage_in_bytes", "62914560\n");
        put(&memory, "memory.usage_in_bytes", "2097152\n");
        put(
            &memory,
            "memory.oom_control",
            "oom_kill_disable 0\nunder_oom 0\noom_kill 1\n",
        );
        let usage = group.finish().unwrap();
        assert_eq!(
            usage,
            Usage {
                cpu: Duration::from_millis(300),
                peak: 59 << 20,
                oom_killed: true
            }
        );

        // The same limits again: nothing written; the OOM counter is a new baseline.
        put(&memory, "memory.limit_in_bytes", "");
        put(&pids, "pids.max", "");
        group.prepare(256 << 20, 8).unwrap();
        assert_eq!(read(&memory, "memory.limit_in_bytes"), "");
        assert_eq!(read(&pids, "pids.max"), "");
        put(&memory, "memory.max_usage_in_bytes", "3145728\n");
        assert!(!group.finish().unwrap().oom_killed);
        group.prepare(u64::MAX, u64::MAX).unwrap();
        assert_eq!(read(&memory, "memory.limit_in_bytes"), "-1");
        assert_eq!(read(&pids, "pids.max"), "max");
    }

    #[test]
    fn a_run_the_launcher_started_at_once_is_figured_from_what_it_read_between_the_two() {
        let t = tempfile::tempdir().unwrap();
        let h = fake_v1(t.path(), "w0");
        let mut group = Group::create(&h, "w0").unwrap();
        let [memory, cpuacct, _] = <[PathBuf; 3]>::try_from(group.dirs.clone()).unwrap();
        group.prepare(256 << 20, 8).unwrap();
        assert!(group.meters());
        let (spec, files) = group.meter().unwrap().unwrap();
        assert_eq!(spec.renew_above, None);
        // The launcher's side: the first run ends, the next starts.
        let launcher = meter::Meter::new(spec.format, files).unwrap();
        put(&cpuacct, "cpuacct.usage", "5200000000\n");
        put(&memory, "memory.max_usage_in_bytes", "9437184\n");
        put(&memory, "memory.usage_in_bytes", "2097152\n");
        let boundary = launcher.between(spec.renew_above).unwrap().unwrap();
        assert!(read(&memory, "memory.max_usage_in_bytes").starts_with('0'));
        let first = group.finish_between(&boundary);
        assert_eq!(
            first,
            Usage {
                cpu: Duration::from_millis(200),
                peak: 8 << 20,
                oom_killed: false
            }
        );
        // The second run counts from there, as if the grader had prepared it.
        put(&cpuacct, "cpuacct.usage", "5250000000\n");
        put(&memory, "memory.usage_in_bytes", "6291456\n");
        let sample = group.sample().unwrap();
        assert_eq!(sample.cpu, Duration::from_millis(50));
        assert_eq!(sample.memory, 4 << 20);
        put(&memory, "memory.max_usage_in_bytes", "7340032\n");
        put(
            &memory,
            "memory.oom_control",
            "oom_kill_disable 0\nunder_oom 0\noom_kill 1\n",
        );
        let second = group.finish().unwrap();
        assert_eq!(second.peak, 5 << 20);
        assert!(second.oom_killed);
        assert_eq!(group.made(), 0);
    }

    #[test]
    fn v2_enables_its_controllers_and_figures_runs_through_the_peak_descriptor() {
        let t = tempfile::tempdir().unwrap();
        let dir = fake_v2(t.path(), "w1", Some(0o644));
        let h = Hierarchy::V2 {
            parent: t.path().to_owned(),
        };
        let mut group = Group::create(&h, "w1").unwrap();
        assert!(matches!(
            group.files,
            Files::V2 {
                peak: Peak::Resettable(_),
                ..
            }
        ));
        assert_eq!(group.procs(), [dir.join("cgroup.procs")]);
        let grader = dir.parent().unwrap();
        assert_eq!(read(t.path(), "cgroup.subtree_control"), "+memory +pids");
        assert_eq!(read(grader, "cgroup.subtree_control"), "+memory +pids");
        assert_eq!(read(&dir, "memory.swap.max"), "0");

        group.prepare(64 << 20, 16).unwrap();
        assert_eq!(read(&dir, "memory.max"), "71303168");
        assert_eq!(read(&dir, "pids.max"), "16");
        assert!(read(&dir, "memory.peak").starts_with("reset"));

        put(
            &dir,
            "cpu.stat",
            "usage_usec 252500\nuser_usec 2000\nsystem_usec 500\n",
        );
        put(&dir, "memory.current", "9437184\n");
        let sample = group.sample().unwrap();
        assert_eq!(sample.cpu, Duration::from_millis(250));
        assert_eq!(sample.memory, 8 << 20);

        put(&dir, "memory.peak", "52428800\n");
        put(&dir, "memory.events", V2_EVENTS);
        let usage = group.finish().unwrap();
        assert_eq!(
            usage,
            Usage {
                cpu: Duration::from_millis(250),
                peak: 49 << 20,
                oom_killed: true
            }
        );
        group.kill_all();
        assert_eq!(read(&dir, "cgroup.kill"), "1");
    }

    #[test]
    fn v2_without_a_resettable_peak_renews_the_group_or_samples() {
        let t = tempfile::tempdir().unwrap();
        let h = Hierarchy::V2 {
            parent: t.path().to_owned(),
        };
        fake_v2(t.path(), "old", Some(0o444));
        let group = Group::create(&h, "old").unwrap();
        assert!(matches!(
            group.files,
            Files::V2 {
                peak: Peak::SinceCreation { used: false, .. },
                ..
            }
        ));
        // Made anew before every run: never between two runs by the launcher alone.
        assert!(!group.meters());
        assert!(group.meter().unwrap().is_none());

        let dir = fake_v2(t.path(), "older", None);
        let mut group = Group::create(&h, "older").unwrap();
        assert!(!group.meters());
        group.prepare(64 << 20, 16).unwrap();
        put(&dir, "memory.current", "20971520\n");
        group.sample().unwrap();
        put(&dir, "memory.current", "3145728\n");
        group.sample().unwrap();
        let usage = group.finish().unwrap();
        assert_eq!(usage.peak, 19 << 20);
    }

    const BURN: &str = "
import os, time
def burn(seconds):
    start = time.process_time()
    while time.process_time() - start < seconds:
        pass
";

    #[test]
    fn real_v1_counts_the_cpu_of_every_process_and_the_peak_memory() {
        let Some(h) = real_v1() else { return };
        let mut group = Group::create(&h, "test-count").unwrap();
        group.prepare(512 << 20, 16).unwrap();
        let script = format!(
            "{BURN}
child = os.fork()
if child == 0:
    burn(0.2)
    os._exit(0)
block = b'x' * (50 << 20)
burn(0.2)
os.waitpid(child, 0)
"
        );
        assert!(run_in(&group, &script).wait().unwrap().success());
        let sample = group.sample().unwrap();
        let usage = group.finish().unwrap();
        // 0.4 s burned by two processes, judged by CPU with a wide margin.
        assert!(
            usage.cpu >= Duration::from_millis(350) && usage.cpu < Duration::from_secs(30),
            "{usage:?}"
        );
        assert_eq!(sample.cpu, usage.cpu);
        assert!(
            usage.peak >= 50 << 20 && usage.peak < 400 << 20,
            "{usage:?}"
        );
        assert!(sample.memory < 40 << 20, "{sample:?}");
        assert!(!usage.oom_killed);
        remove(group);
    }

    #[test]
    fn real_v1_the_kernel_oom_kills_past_the_limit_and_finish_says_so() {
        let Some(h) = real_v1() else { return };
        let mut group = Group::create(&h, "test-oom").unwrap();
        group.prepare(32 << 20, 16).unwrap();
        let status = run_in(&group, "block = b'x' * (200 << 20)").wait().unwrap();
        assert_eq!(status.signal(), Some(9), "{status:?}");
        let usage = group.finish().unwrap();
        assert!(usage.oom_killed, "{usage:?}");
        assert!(usage.peak >= 32 << 20, "{usage:?}");
        // The counter is a baseline: the next run, within the limit, was not killed.
        group.prepare(32 << 20, 16).unwrap();
        assert!(run_in(&group, "pass").wait().unwrap().success());
        let usage = group.finish().unwrap();
        assert!(!usage.oom_killed && usage.peak < 32 << 20, "{usage:?}");
        remove(group);
    }

    #[test]
    fn real_v1_pids_max_makes_a_fork_past_the_cap_fail() {
        let Some(h) = real_v1() else { return };
        let mut group = Group::create(&h, "test-pids").unwrap();
        group.prepare(256 << 20, 4).unwrap();
        let script = "
import os
r, w = os.pipe()
made = 0
for _ in range(10):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        os.close(w)
        os.read(r, 1)
        os._exit(0)
    made += 1
os.close(w)
for _ in range(made):
    os.wait()
print(made)
";
        let output = run_in(&group, script).wait_with_output().unwrap();
        assert!(output.status.success());
        // The cap is four plus the launcher (which this test does not have): Python
        // itself and four children make five.
        assert_eq!(String::from_utf8_lossy(&output.stdout).trim(), "4");
        remove(group);
    }

    #[test]
    fn real_v1_left_over_page_cache_stays_in_the_baseline() {
        // v1 never remakes the group (the launcher lives in it): what a run left charged
        // is the next run's baseline, and the next run's peak is figured above it.
        let Some(h) = real_v1() else { return };
        let scratch = tempfile::tempdir().unwrap();
        let mut group = Group::create(&h, "test-baseline").unwrap();
        group.prepare(256 << 20, 16).unwrap();
        let script = format!(
            "open('{}', 'wb').write(b'x' * (16 << 20))",
            scratch.path().join("out").display()
        );
        assert!(run_in(&group, &script).wait().unwrap().success());
        assert!(group.finish().unwrap().peak >= 16 << 20);
        let left = group.sample().unwrap().memory;
        assert!(left > RENEW_ABOVE, "the page cache was not charged: {left}");
        group.prepare(256 << 20, 16).unwrap();
        assert!(!group.take_renewed());
        assert!(group.baseline.memory >= left / 2, "{:?}", group.baseline);
        assert!(run_in(&group, "pass").wait().unwrap().success());
        let usage = group.finish().unwrap();
        assert!(usage.peak < 16 << 20, "{usage:?}");
        remove(group);
    }
}
