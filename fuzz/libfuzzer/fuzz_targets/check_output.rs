//! Arbitrary bytes as a contestant's output for a drawn input: see `fuzz::targets::check_output`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz::targets::check_output(data));
