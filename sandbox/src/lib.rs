//! The box: running one program under limits, in an isolation tier, and reporting the
//! facts of its end. Contestant programs and compilers alike run here. It knows nothing
//! of problems or verdicts: a run gives back facts ([`Outcome`]); the grader's `judge`
//! turns them into a verdict. Every `unsafe` block of the project, and every process the
//! grader starts, live in this crate.
//!
//! # Running a program in a box
//!
//! A [`Worker`] is made for a [`Tier`] ([`Config`]) and runs [`Job`]s, one at a time,
//! each under its [`Limits`], returning its [`Outcome`]: exit status or signal, CPU and
//! wall time, peak memory, standard output and the end of standard error, and which limit
//! killed it, if one did. The program's files are shown read-only in
//! [`Worker::files_dir`]; it starts in [`Worker::work_dir`], emptied before every run.
//!
//! What a program of yours needs, in order:
//!
//! 1. `main` calls [`launcher::serve_if_asked`] first: a worker starts its launcher from
//!    the running executable where no `grader-launcher` binary is beside it.
//! 2. A tier: the strongest this machine gives ([`tiers::Machine::resolve`] with
//!    [`tiers::tried`]), or one you name.
//! 3. A worker of it, and for each run a [`Job`] (the command line naming the program's
//!    files where [`Worker::files_dir`] shows them, its environment, standard input) and
//!    its [`Limits`].
//! 4. The [`Outcome`] of each run: facts, which you judge.
//! 5. At the end, [`drop_spare`]: the workers kept for later (a tier's trial keeps one)
//!    end, and with them their launchers.
//!
//! ```rust,standalone_crate
//! use std::fs;
//! use std::os::unix::fs::PermissionsExt;
//! use std::time::Duration;
//!
//! use sandbox::tiers::{self, Machine, Needs};
//! use sandbox::{Config, Files, Input, Job, Limits, Stderr, Tier, Worker};
//!
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     // A worker's launcher is the `grader-launcher` binary beside this program's
//!     // executable or, where there is none, this program itself, which becomes one here.
//!     sandbox::launcher::serve_if_asked();
//!     let needs = Needs {
//!         cpu: Duration::from_secs(1),
//!         memory: 256 << 20,
//!         output: 1 << 20,
//!         processes: 16,
//!     };
//!     // The strongest box this machine gives (`Err` says why none works: then ask for
//!     // `Tier::None`, which runs the program unboxed, as your own user).
//!     let tier = match Machine::get().resolve(None, |tier| tiers::tried(tier, needs)) {
//!         Ok((tier, _passed_over)) => tier,
//!         Err(why) => {
//!             eprintln!("{why}");
//!             Tier::None
//!         }
//!     };
//!     let mut worker = Worker::start(&Config {
//!         tier,
//!         memory: needs.memory,
//!         toolchain: Vec::new(),
//!         headers: None,
//!     })?;
//!     // The program's own files: a folder, copied into a box (`strict`), or shown where
//!     // it is; there its runs may be of a uid of their own (`basic` as root), so all may
//!     // read it.
//!     let files = tempfile::tempdir()?;
//!     fs::write(files.path().join("double.sh"), "read x; echo $((x * 2))\n")?;
//!     fs::set_permissions(files.path(), fs::Permissions::from_mode(0o755))?;
//!     let script = worker.files_dir(files.path()).join("double.sh");
//!     let job = Job {
//!         // `/bin/sh` is one of the system's folders, which every box shows.
//!         argv: vec!["/bin/sh".into(), script.to_string_lossy().into_owned()],
//!         files: Files::Folder(files.path()),
//!         in_files: false,
//!         env: vec!["PATH=/usr/bin:/bin".into()],
//!         stdin: Input::Bytes(b"21\n".to_vec()),
//!         keep: &[],
//!         stderr: Stderr::Tail(4096),
//!         address_space: true,
//!     };
//!     let limits = Limits {
//!         cpu: needs.cpu,
//!         wall: Duration::from_secs(10),
//!         memory: needs.memory,
//!         output: needs.output,
//!         processes: needs.processes,
//!         sandbox: tier,
//!     };
//!     let (outcome, _kept) = worker.run(&job, &limits)?;
//!     assert_eq!(outcome.code, Some(0));
//!     assert_eq!(outcome.stdout, b"42\n");
//!     assert_eq!(outcome.killed, None);
//!     // The launchers end with their workers; those kept for later (a tier's trial keeps
//!     // its worker for the first of the same config) end here.
//!     drop(worker);
//!     sandbox::drop_spare();
//!     Ok(())
//! }
//! ```
//!
//! The crate's containment tests (`tests/containment`) are such a program too, running
//! hostile programs in workers of each tier.
//!
//! # The tiers
//!
//! - `none`: a session of its own and the whole run killed at its end; the CPU limit's
//!   backstop; the program runs as the caller's user. For trusted code and debugging.
//! - `basic`: adds the rlimits, a uid of the worker's own when the caller is root (or, where
//!   programs would share the caller's uid, a PID space of their own), and CPU, memory and
//!   a process cap by cgroup where the machine has them.
//! - `strict`: adds the box itself (namespaces and a root file system of its own) and the
//!   seccomp filters.
//!
//! What the machine offers is probed once ([`tiers::Machine`]), and a tier is claimed only
//! once a worker of it ran `true` ([`tiers::tried`]). [`tiers::Machine::resolve`] picks
//! `auto`'s tier or checks the one asked for, refusing with an [`Error`] that says why.
//!
//! # What `grader doctor` probes
//!
//! [`tiers::Machine`] (root, user namespaces, seccomp, Landlock, [`cgroup::probe`]'s
//! hierarchy), [`tiers::tried`] for each tier, [`forking_trial::children_counted`] (a
//! run's children counted by its cgroup), [`tiers::oom_shield`] and [`basic_kept_apart`].
//!
//! # The launcher
//!
//! A worker owns a launcher (`launcher.rs`, a small process) that starts each program:
//! in `strict` the launcher is the init of a box (`boxed.rs`), and in `basic` and
//! `strict` the runs are accounted by a cgroup ([`cgroup`]) and run as the worker's own
//! uid ([`uids`]); where they share the caller's uid instead, `basic`'s launcher is the
//! init of a PID space of their own (`pidspace.rs`). The launcher is a process of its own
//! because a program started by `clone(CLONE_VM | CLONE_VFORK)` reports the starter's
//! memory high-water mark as the floor of its own peak: a small `grader-launcher` binary
//! (whose `main` is [`launcher::serve`]) keeps that floor near 2 MiB. A worker starts the
//! `grader-launcher` beside the running executable (a program of yours gets the same
//! floor with a binary of that name whose `main` calls [`launcher::serve`]); where there
//! is none (`cargo run` builds one binary only), it starts the running executable itself
//! with a hidden argument, and [`launcher::serve_if_asked`] makes that process a launcher
//! copying memory at each start.
//!
//! The caller's side (`client.rs`) feeds standard input, reads the output and enforces
//! the limits from outside; a run's standard streams (`streams.rs`) are kept from one of a
//! box's runs to the next, handed on only as new. [`trace`] runs a toolchain's version
//! probe under `ptrace`, to find where a compiler reached through links or shims really
//! is. [`remove`] removes the trees a hostile program leaves, which the box's scratch
//! folders (`scratch.rs`) need and the grader uses too. [`bare`] runs a program with no
//! box at all: the floor the grader's benches measure a box's run against.
//!
//! # What the box asks of its host
//!
//! New folders (a box's root, a scratch folder's parent, a trial's files) and whether the
//! process is stopping: a [`Host`], set once with [`set_host`]; without one, plain folders
//! in the temporary folder, and never stopping. They are passed in rather than kept here
//! because both are whole-process affairs of the program that embeds the box: the grader
//! makes every temporary folder inside one locked folder of its own, swept when a killed
//! grader left one and removed at its end or at a signal, beside folders that are not
//! the box's; and it takes signals on a thread of its own. The box needs only "a new
//! folder" and "are we stopping" of them. A caller that is stopping calls [`stop_all`]
//! (every launcher ends, taking its runs with it) and then [`reap_all`].
//!
//! # Unsafe code
//!
//! The workspace denies `unsafe_code`, here too: each module or item that needs it
//! (`launcher.rs`, `boxed.rs`, `pidspace.rs`, `namespace.rs`, [`trace`], [`bare`] whole; a
//! few items of `protocol.rs`, `streams.rs` and [`tiers`]'s `machine.rs`) says so with an
//! `expect` naming why, so that the reason stands beside the code and one that stops
//! needing it is told. No blanket allowance is needed: the crate adds none.

pub mod bare;
mod boxed;
pub mod cgroup;
mod client;
mod confine;
mod error;
mod facts;
pub mod forking_trial;
mod host;
pub mod launcher;
mod lock;
mod namespace;
mod pidspace;
mod protocol;
pub mod remove;
mod rlimits;
mod scratch;
mod streams;
pub mod tiers;
pub mod trace;
pub mod uids;
mod worker;

pub use client::{Ran, Stderr, reap_all, stop_all};
pub use error::Error;
pub use facts::{Input, Joined, Killed, Limits, Outcome, filled as memory_file};
pub use host::{Host, set_host};
pub use lock::Locked;
pub use tiers::Tier;
pub use worker::{
    Config, Files, Job, MOST_KEPT, OpenFiles, Worker, basic_kept_apart, drop_spare, keep_spare,
    retire, side_by_side,
};
