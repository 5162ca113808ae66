//! Isolation tiers: what this machine can give, what `auto` picks, and what each tier
//! asks of a worker.
//!
//! - `none`: a session of its own and the whole tree killed; the CPU limit's backstop; the
//!   program runs as the grader's user. For trusted code and debugging.
//! - `basic`: adds the rlimits (address space backstop, stack, file size, open files),
//!   and, when the grader is root, a uid of the worker's own; CPU, memory and a process cap
//!   by cgroup where the machine has them.
//! - `strict`: adds the box (namespaces and a root file system of its own, `boxed.rs`) and
//!   the seccomp filters (`confine.rs`).
//!
//! What the kernel offers is probed from files and flags ([`Machine`]), but a tier is
//! only claimed once it has worked: [`tried`] starts a real worker of the tier and runs
//! `true` in it (a few milliseconds, once per process). Containers refuse things no
//! probe sees (a mount option naming an unmapped uid, a cgroup that holds other
//! processes), and finding that out at the first compile would turn every student into
//! a grader fault.
//!
//! The files: `tier.rs` names the tiers (and the system's folders every box shows),
//! `machine.rs` probes what the machine offers and picks or checks a tier, `trial.rs`
//! tries a tier with a real worker. Their arrows point one way: a worker (`worker.rs`)
//! reads the machine and the tier, and a trial starts a worker.

pub(crate) mod machine;
pub(crate) mod tier;
mod trial;

pub use machine::Machine;
pub use tier::{SYSTEM_READ, Tier, in_system_folders};
pub use trial::{Needs, oom_shield, settle, tried, try_ahead};
