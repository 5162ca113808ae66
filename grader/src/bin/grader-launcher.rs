//! `grader-launcher`: the small process that starts contestant programs and compilers (see
//! `exec/launcher.rs`). A binary of its own, because a program started with
//! `clone(CLONE_VM | CLONE_VFORK)` reports the starter's memory high-water mark as the
//! floor of its own peak (`ru_maxrss`): this binary stays near 2 MiB, the full `grader`
//! binary near 3 MiB in release and 5 MiB in debug builds, and a trivial C program must
//! report under 4 MiB.

#[path = "../exec/boxed.rs"]
mod boxed;
#[path = "../exec/confine.rs"]
mod confine;
#[path = "../exec/launcher.rs"]
#[expect(
    dead_code,
    reason = "`LAUNCHER_ARG` is how the `grader` binary becomes a launcher; this one is one"
)]
mod launcher;
#[path = "../exec/meter.rs"]
mod meter;
#[path = "../exec/pidspace.rs"]
mod pidspace;
#[path = "../exec/protocol.rs"]
mod protocol;
#[path = "../exec/rlimits.rs"]
mod rlimits;

fn main() {
    launcher::serve();
}
