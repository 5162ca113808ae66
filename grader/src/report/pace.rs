//! The pace of a batch's runs and the time left at it, from the runs of the last half
//! minute: not from the start, where a resumed batch's journaled runs, a cold compile
//! cache and the first workers' start-up say nothing of the pace to come (an ETA from the
//! start read 40 min, then 22, for a batch that took 5). Fed with times, no clock of its
//! own: what it says is tested on recorded times.

use std::collections::VecDeque;
use std::time::Duration;

/// How far back the pace looks.
const WINDOW: Duration = Duration::from_secs(30);
/// The fewest runs a pace is told from.
const FEWEST: usize = 8;
/// The most finishes kept (a fast batch finishes thousands of runs in the window).
const KEPT: usize = 4096;

/// Recent finishes.
#[derive(Debug, Default)]
pub(crate) struct Pace {
    /// When each recent run finished, since the batch started, oldest first.
    finished: VecDeque<Duration>,
}

impl Pace {
    /// A run finished at `at` (since the batch started).
    pub(crate) fn done(&mut self, at: Duration) {
        self.finished.push_back(at);
        while self.finished.len() > KEPT
            || self
                .finished
                .front()
                .is_some_and(|&first| at.saturating_sub(first) > WINDOW)
        {
            self.finished.pop_front();
        }
    }

    /// Runs a second, over the window; `None` until enough runs say.
    pub(crate) fn rate(&self) -> Option<f64> {
        let (first, last) = (self.finished.front()?, self.finished.back()?);
        let span = last.saturating_sub(*first).as_secs_f64();
        (self.finished.len() >= FEWEST && span > 0.0)
            .then(|| (self.finished.len() - 1) as f64 / span)
    }

    /// The time `left` runs take at the current rate.
    pub(crate) fn time_left(&self, left: u64) -> Option<Duration> {
        let rate = self.rate()?;
        Some(Duration::from_secs_f64(left as f64 / rate))
    }
}

/// A rate as people read it: `412 runs/s`, `3.4 runs/s`, `0.25 runs/s`.
pub(crate) fn rate(per_second: f64) -> String {
    if per_second >= 10.0 {
        format!("{per_second:.0} runs/s")
    } else if per_second >= 1.0 {
        format!("{per_second:.1} runs/s")
    } else {
        format!("{per_second:.2} runs/s")
    }
}

/// A time left as people read it: `45s`, `4m 53s`, `1h 02m`.
pub(crate) fn left(time: Duration) -> String {
    let secs = time.as_secs();
    match secs {
        0..60 => format!("{secs}s"),
        60..3600 => format!("{}m {:02}s", secs / 60, secs % 60),
        _ => format!("{}h {:02}m", secs / 3600, secs % 3600 / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn the_pace_is_the_last_half_minutes_not_the_starts() {
        let mut pace = Pace::default();
        assert_eq!(pace.rate(), None);
        // A slow start: a run every 2 s for a minute (compiles, a sleeping student).
        for i in 0..30 {
            pace.done(ms(i * 2000));
        }
        let slow = pace.rate().unwrap();
        assert!((slow - 0.5).abs() < 0.01, "{slow}");
        // Then 100 runs a second for a minute: the window forgets the start.
        for i in 0..6000 {
            pace.done(ms(60_000 + i * 10));
        }
        let fast = pace.rate().unwrap();
        assert!((fast - 100.0).abs() < 1.0, "{fast}");
        assert_eq!(pace.time_left(3000).unwrap().as_secs(), 30);
    }

    #[test]
    fn too_few_runs_say_nothing() {
        let mut pace = Pace::default();
        for i in 0..(FEWEST as u64 - 1) {
            pace.done(ms(i * 100));
        }
        assert_eq!(pace.rate(), None);
        assert_eq!(pace.time_left(10), None);
    }

    #[test]
    fn rates_and_times_are_written_as_people_read_them() {
        assert_eq!(rate(412.345_6), "412 runs/s");
        assert_eq!(rate(3.456), "3.5 runs/s");
        assert_eq!(rate(0.254), "0.25 runs/s");
        assert_eq!(left(Duration::from_secs(45)), "45s");
        assert_eq!(left(Duration::from_secs(293)), "4m 53s");
        assert_eq!(left(Duration::from_mins(62)), "1h 02m");
    }
}
