//! Arbitrary bytes as an input of the problem the first byte picks: see `fuzz::targets::parse_input`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz::targets::parse_input(data));
