//! Replays the committed libFuzzer corpus (`fuzz/libfuzzer/corpus/<target>/`) through the
//! matching `fuzz::targets` function on stable, so every seed stays panic-free without
//! cargo-fuzz or a nightly toolchain.

use std::fs;
use std::path::PathBuf;

/// Calls `target` on every file in `corpus/<name>/`, which must hold at least one file.
fn replay(name: &str, target: fn(&[u8])) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("libfuzzer")
        .join("corpus")
        .join(name);
    let mut paths: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|entry| {
            entry
                .unwrap_or_else(|e| panic!("listing {}: {e}", dir.display()))
                .path()
        })
        .filter(|path| path.is_file())
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "{} holds no corpus files", dir.display());
    for path in paths {
        let data = fs::read(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
        // A panic names the file, so a failing seed can be replayed with the fuzz target.
        let result = std::panic::catch_unwind(|| target(&data));
        assert!(result.is_ok(), "{name} panicked on {}", path.display());
    }
}

#[test]
fn parse_input_corpus() {
    replay("parse_input", fuzz::targets::parse_input);
}

#[test]
fn compare_outputs_corpus() {
    replay("compare_outputs", fuzz::targets::compare_outputs);
}

#[test]
fn check_output_corpus() {
    replay("check_output", fuzz::targets::check_output);
}
