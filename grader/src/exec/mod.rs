//! Running one program under limits, for contestant programs and compilers alike. Knows
//! nothing of problems or verdicts: it returns facts ([`Outcome`]); `judge` turns them into
//! a verdict. All `unsafe` of the grader, and every process it starts, live in this module.
//!
//! A [`Worker`] owns a launcher (`launcher.rs`, a small process) that starts each program;
//! in `strict` the launcher is the init of a box (`boxed.rs`), and in `basic` and `strict`
//! the runs are accounted by a cgroup (`cgroup.rs`) and run as the worker's own uid
//! (`uids.rs`); where they share the grader's uid instead, `basic`'s launcher is the init
//! of a PID space of their own (`pidspace.rs`). The grader side (`client.rs`) feeds
//! standard input, reads the output and enforces the limits from outside; a run's standard
//! streams (`streams.rs`) are kept from one of a box's runs to the next, handed on only as
//! new. `trace.rs` runs a toolchain's version probe under `ptrace`, to find where a
//! compiler reached through links or shims really is.

mod boxed;
pub(crate) mod cgroup;
mod client;
mod confine;
mod facts;
pub(crate) mod forking_trial;
pub(crate) mod launcher;
mod meter;
mod pidspace;
mod protocol;
mod rlimits;
pub(crate) mod sandbox;
mod streams;
pub(crate) mod trace;
pub(crate) mod uids;
mod worker;

pub(crate) use client::{Stderr, reap_all, stop_all};
pub(crate) use facts::{Input, Killed, Limits, Outcome, filled as memory_file};
pub(crate) use worker::{
    Config, Files, Job, OpenFiles, Worker, basic_kept_apart, drop_spare, keep_spare, retire,
    side_by_side,
};
