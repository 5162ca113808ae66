//! The benches' arithmetic: medians of timed samples (these machines are noisy) and
//! durations in milliseconds.

use std::time::Duration;

/// The median of `samples` (the upper of the middle two of an even count).
pub fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

/// `d` in milliseconds.
pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}
