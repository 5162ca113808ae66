//! The files of a box group, opened once: every file a run's sampling reads stays open and
//! is read with `pread`, 1 µs a read, against 11 µs to open, read and close it.

use std::fs::{self, File};
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;

use super::access::{Access, context, open, write_path};
use super::meter::write_at;

/// A group's files, open: on v1 in the `memory`, `cpuacct` and `pids` groups; on v2 in
/// its one group.
#[derive(Debug)]
pub(super) enum Files {
    V1 {
        usage: File,
        /// `memory.max_usage_in_bytes`, read and written (`0` resets it).
        max_usage: File,
        oom_control: File,
        limit: File,
        cpu: File,
        pids_max: File,
    },
    V2 {
        current: File,
        peak: Peak,
        events: File,
        cpu_stat: File,
        max: File,
        pids_max: File,
    },
}

/// How a v2 group gives the peak of one run.
#[derive(Debug)]
pub(super) enum Peak {
    /// Linux 6.12 and later: writing `memory.peak` resets it for reads through the same
    /// descriptor.
    Resettable(File),
    /// Linux 5.19 to 6.11: the peak since the group was made, so the group is renewed
    /// before every run but the first.
    SinceCreation { file: File, used: bool },
    /// Older kernels have no `memory.peak`: the highest usage sampled, a lower bound.
    Sampled { highest: u64 },
}

/// Opens the files of a group and sets what is set once: no swapping, which would hide
/// memory from the limit and slow the run.
pub(super) fn set_up(dirs: &[PathBuf]) -> io::Result<Files> {
    let files = open_files(dirs)?;
    if let Files::V1 { .. } = files {
        write_path(&dirs[0].join("memory.swappiness"), "0")?;
    } else if let Ok(swap) = open(&dirs[0].join("memory.swap.max"), Access::Write) {
        write_at(&swap, "0")?;
    }
    Ok(files)
}

/// Opens the files of the group whose directories are `dirs`: three (memory, cpuacct,
/// pids) for v1, one for v2.
fn open_files(dirs: &[PathBuf]) -> io::Result<Files> {
    match dirs {
        [memory, cpuacct, pids] => Ok(Files::V1 {
            usage: open(&memory.join("memory.usage_in_bytes"), Access::Read)?,
            max_usage: open(&memory.join("memory.max_usage_in_bytes"), Access::ReadWrite)?,
            oom_control: open(&memory.join("memory.oom_control"), Access::Read)?,
            limit: open(&memory.join("memory.limit_in_bytes"), Access::Write)?,
            cpu: open(&cpuacct.join("cpuacct.usage"), Access::Read)?,
            pids_max: open(&pids.join("pids.max"), Access::Write)?,
        }),
        [dir] => {
            let peak_path = dir.join("memory.peak");
            let peak = match fs::metadata(&peak_path) {
                // The file became writable with the per-descriptor reset (Linux 6.12).
                Ok(meta) if meta.permissions().mode() & 0o222 != 0 => {
                    Peak::Resettable(open(&peak_path, Access::ReadWrite)?)
                }
                Ok(_) => Peak::SinceCreation {
                    file: open(&peak_path, Access::Read)?,
                    used: false,
                },
                Err(e) if e.kind() == io::ErrorKind::NotFound => Peak::Sampled { highest: 0 },
                Err(e) => return Err(context(&peak_path, &e)),
            };
            Ok(Files::V2 {
                current: open(&dir.join("memory.current"), Access::Read)?,
                peak,
                events: open(&dir.join("memory.events"), Access::Read)?,
                cpu_stat: open(&dir.join("cpu.stat"), Access::Read)?,
                max: open(&dir.join("memory.max"), Access::Write)?,
                pids_max: open(&dir.join("pids.max"), Access::Write)?,
            })
        }
        _ => Err(io::Error::other("a box group has one or three directories")),
    }
}
