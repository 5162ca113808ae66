//! The fuzzer's power, the measure of issues 5 and 17: for a mutant and a seed, the run
//! number of the first finding (fresh fuzzing, no regressions, in process). The figure
//! depends on the seed and the mutant alone, so a mutant run as a program gives the same.

use reference::Problem;

use crate::candidate::Mutant;
use crate::differ::{Budget, Inputs, search};

/// The seeds the targets are stated over: 1 to 20.
pub const SEEDS: std::ops::RangeInclusive<u64> = 1..=20;

/// The targets over [`SEEDS`]: the median at most 20 runs, the worst at most 200.
pub const TARGET: Spread = Spread {
    median: 20,
    worst: 200,
};

/// The median and the worst of the runs to the first finding over a set of seeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spread {
    /// The median (the upper one of an even count).
    pub median: u64,
    /// The largest.
    pub worst: u64,
}

impl Spread {
    /// The spread of `runs`, where `None` (nothing found) counts as `u64::MAX`; `None`
    /// for no runs at all.
    pub fn of(runs: &[Option<u64>]) -> Option<Spread> {
        let mut sorted: Vec<u64> = runs.iter().map(|r| r.unwrap_or(u64::MAX)).collect();
        sorted.sort_unstable();
        Some(Spread {
            median: *sorted.get(sorted.len() / 2)?,
            worst: *sorted.last()?,
        })
    }

    /// Whether both figures are within `target`'s.
    pub fn within(self, target: Spread) -> bool {
        self.median <= target.median && self.worst <= target.worst
    }
}

/// The number (counted from 1) of the first failing run of mutant `index` of `problem`
/// with `seed`, within `runs` runs.
pub fn runs_to_finding(problem: Problem, index: usize, seed: u64, runs: u64) -> Option<u64> {
    let mut candidates = [Mutant::new(problem, index)];
    let found = search(
        problem,
        &Inputs::Seeded { seed },
        &mut candidates,
        &Budget::runs(runs),
        &|_| {},
    )
    .unwrap_or_else(|e| match e {});
    found.finding.map(|f| f.number())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spread_is_the_upper_median_and_the_largest_with_misses_last() {
        let s = Spread::of(&[Some(3), Some(1), None, Some(2)]).unwrap();
        assert_eq!((s.median, s.worst), (3, u64::MAX));
        assert!(!s.within(TARGET));
        assert_eq!(Spread::of(&[]), None);
        assert!(
            Spread::of(&[Some(20), Some(200), Some(1)])
                .unwrap()
                .within(TARGET)
        );
    }

    #[test]
    fn every_held_apart_mutant_is_found_within_the_target() {
        for problem in Problem::ALL {
            for (index, (name, _)) in problem.mutants().iter().enumerate() {
                if !problem.is_held_apart(index) {
                    continue;
                }
                let runs: Vec<Option<u64>> = SEEDS
                    .map(|seed| runs_to_finding(problem, index, seed, 1000))
                    .collect();
                let spread = Spread::of(&runs).expect("seeds");
                eprintln!("{problem} {name}: {spread:?} {runs:?}");
                assert!(spread.within(TARGET), "{problem} {name}: {runs:?}");
            }
        }
    }
}
