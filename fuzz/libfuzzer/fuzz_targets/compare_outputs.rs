//! Arbitrary bytes as an answer and an output split at NUL: see `fuzz::targets::compare_outputs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz::targets::compare_outputs(data));
