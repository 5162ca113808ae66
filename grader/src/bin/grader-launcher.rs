//! `grader-launcher`: the small process that starts contestant programs and compilers (see
//! the `sandbox` crate's `launcher` module). A binary of its own, because a program
//! started with `clone(CLONE_VM | CLONE_VFORK)` reports the starter's memory high-water
//! mark as the floor of its own peak (`ru_maxrss`): this binary stays near 2 MiB, the full
//! `grader` binary near 3 MiB in release and 5 MiB in debug builds, and a trivial C
//! program must report under 4 MiB. A binary of the `grader` package, so that building
//! the grader (`cargo build -p grader`, and the binaries its tests run) builds it beside
//! `grader`, where the grader looks for it.
#![forbid(unsafe_code)]

fn main() {
    sandbox::launcher::serve();
}
