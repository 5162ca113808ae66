//! Programs the benches build and run outside the grader: a trivial C solution, `gcc`,
//! and the bare run every grader's run is measured against.

use std::path::Path;
use std::process::Command;

/// A C program that reads a flip board and prints 4 (the sample's answer), whatever the
/// board: the least a submission can cost.
pub const TRIVIAL_C: &str = "#include <stdio.h>\n\
    int main(void) { char b[4][8]; for (int i = 0; i < 4; i++) if (scanf(\"%7s\", b[i]) != 1) return 1;\n\
    puts(\"4\"); return 0; }\n";

/// Compiles the C file `source` into `out` with `gcc -O2` and `flags`.
pub fn gcc(source: &Path, out: &Path, flags: &[&str]) {
    let status = Command::new("gcc")
        .arg("-O2")
        .args(flags)
        .arg("-o")
        .arg(out)
        .arg(source)
        .status()
        .expect("gcc");
    assert!(status.success(), "gcc {}", source.display());
}

/// Runs `program` bare on `input` (`sandbox::bare`: spawn through std's `posix_spawn`
/// with the input file as stdin and two pipes, read both, reap with `wait4`; the least
/// any grader must do); its standard output.
pub fn bare_run(program: &Path, input: &Path) -> Vec<u8> {
    sandbox::bare::run(program, input).expect("a bare run")
}
