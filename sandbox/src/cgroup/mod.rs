//! Per-worker cgroups ("box groups"): the kernel's accounting and limits for everything a
//! run starts, on cgroup v1 or v2 behind one interface.
//!
//! Why cgroups: `wait4` counts only reaped descendants (a `setsid` fork bomb hides its CPU
//! time), `ru_maxrss` inherits the spawner's high-water mark, and `RLIMIT_NPROC` does not
//! bind root. A cgroup sees every process and thread of a run, exited ones included, its
//! memory limit is enforced by the kernel's OOM killer, and `pids.max` binds root too.
//!
//! The parts, in the order a worker meets them:
//!
//! - what the machine has: [`probe`] (`probe.rs`) finds the hierarchy from what the
//!   kernel says of this process (`proc_self.rs`), v1 or v2, where v2's rules place the
//!   groups (`v2.rs`: no internal processes, delegation);
//! - setting a worker's group up: `group.rs` makes it where `layout.rs` says
//!   (`grader-<pid>/<name>`), joins it, kills what is in it and removes it; `files.rs`
//!   opens its files once, through `access.rs`;
//! - each run's figures: `figures.rs` sets the limits and baselines before a run and
//!   figures its CPU time, peak memory and OOM kills after it, from the counters
//!   `meter.rs` reads, which the launcher reads too between two runs it starts itself.

mod access;
mod figures;
mod files;
#[cfg(test)]
mod fixtures;
mod group;
mod layout;
pub(crate) mod meter;
mod probe;
mod proc_self;
mod v2;

pub(crate) use figures::Usage;
pub(crate) use group::Group;
pub use probe::{Hierarchy, probe};
