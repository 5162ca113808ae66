//! Shrinking a failing input: greedily move to the smallest simpler neighbour (by the
//! problem's own size: the answer first, for flip and fourinrow) that still fails the same
//! way (the same verdict), until none does or the budget runs out, as proptest does.

use std::time::Instant;

use reference::Problem;

use crate::candidate::Candidate;
use crate::differ::{Failure, Finding, Trial, judge};

/// When to stop shrinking.
#[derive(Debug, Clone, Copy)]
pub struct ShrinkBudget {
    /// At most this many candidate runs.
    pub steps: u32,
    /// No run starts after this instant.
    pub deadline: Option<Instant>,
}

/// A shrunk failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shrunk {
    /// The smallest failing input found.
    pub input: String,
    /// How it fails.
    pub failure: Failure,
    /// Candidate runs spent.
    pub steps: u32,
    /// Accepted simplifications.
    pub simplified: u32,
}

/// Shrinks `input`, which fails as `failure`, with `candidate`.
pub fn shrink<C: Candidate>(
    problem: Problem,
    candidate: &mut C,
    input: &str,
    failure: &Failure,
    budget: &ShrinkBudget,
) -> Result<Shrunk, C::Error> {
    let mut best = Shrunk {
        input: input.to_owned(),
        failure: failure.clone(),
        steps: 0,
        simplified: 0,
    };
    let Ok(mut size) = problem.size(input.as_bytes()) else {
        return Ok(best);
    };
    'simpler: loop {
        let Ok(neighbours) = problem.shrink(best.input.as_bytes()) else {
            return Ok(best);
        };
        let mut smaller: Vec<((u64, u64), String)> = neighbours
            .into_iter()
            .filter_map(|n| Some((problem.size(n.as_bytes()).ok()?, n)))
            .filter(|(s, _)| *s < size)
            .collect();
        // Smallest first: the first that still fails is the smallest failing neighbour.
        smaller.sort();
        smaller.dedup();
        for (neighbour_size, neighbour) in smaller {
            if best.steps >= budget.steps || budget.deadline.is_some_and(|d| Instant::now() >= d) {
                return Ok(best);
            }
            best.steps += 1;
            let observed = candidate.run(&neighbour)?;
            if let Some(f) = judge(problem, &neighbour, observed)
                && f.verdict == failure.verdict
            {
                best.input = neighbour;
                best.failure = f;
                best.simplified += 1;
                size = neighbour_size;
                continue 'simpler;
            }
        }
        return Ok(best);
    }
}

/// Shrinks a finding where the problem knows no simpler neighbours of an input (a
/// package's generator is a program): the runs after the finding's, drawn from the same
/// `seed` by `trial`, are tried in order, and the shortest input (in bytes) that fails the
/// same way (the same verdict) is kept. Only inputs shorter than the best so far are run.
/// Each draw counts as a step.
pub fn shrink_by_seed<T: Trial>(
    trial: &mut T,
    seed: u64,
    finding: &Finding,
    budget: &ShrinkBudget,
) -> Result<Shrunk, T::Error> {
    let mut best = Shrunk {
        input: finding.input.clone(),
        failure: finding.failure.clone(),
        steps: 0,
        simplified: 0,
    };
    let mut run = finding.run;
    while best.steps < budget.steps && budget.deadline.is_none_or(|d| Instant::now() < d) {
        best.steps += 1;
        run += 1;
        let drawn = trial.draw(seed, run)?;
        if drawn.input.len() >= best.input.len() {
            continue;
        }
        if let Some(f) = trial.attempt(&drawn.input)?
            && f.verdict == finding.failure.verdict
        {
            best.input = drawn.input;
            best.failure = f;
            best.simplified += 1;
        }
    }
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::candidate::Mutant;
    use crate::differ::{Budget, Inputs, search};

    fn mutant(problem: Problem, name: &str) -> Mutant {
        let index = problem.mutants().iter().position(|m| m.0 == name).unwrap();
        Mutant::new(problem, index)
    }

    fn shrunk(problem: Problem, name: &str, seed: u64) -> (String, Shrunk) {
        let mut candidates = [mutant(problem, name)];
        let found = search(
            problem,
            &Inputs::Seeded { seed },
            &mut candidates,
            &Budget::runs(500),
            &|_| {},
        )
        .unwrap_or_else(|e| match e {});
        let finding = found.finding.expect("a finding");
        let budget = ShrinkBudget {
            steps: 2000,
            deadline: None,
        };
        let shrunk = shrink(
            problem,
            &mut candidates[0],
            &finding.input,
            &finding.failure,
            &budget,
        )
        .unwrap_or_else(|e| match e {});
        (finding.input, shrunk)
    }

    #[test]
    fn a_shrunk_failure_still_fails_the_same_way_and_is_no_bigger() {
        for problem in Problem::ALL {
            for (name, _) in problem.mutants() {
                for seed in 1..=3 {
                    let (original, s) = shrunk(problem, name, seed);
                    let before = problem.size(original.as_bytes()).unwrap();
                    assert!(problem.size(s.input.as_bytes()).unwrap() <= before);
                    let mut again = mutant(problem, name);
                    let observed = again.run(&s.input).unwrap_or_else(|e| match e {});
                    assert_eq!(
                        judge(problem, &s.input, observed).map(|f| f.verdict),
                        Some(s.failure.verdict),
                        "{problem} {name}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_wrong_flip_or_fourinrow_answer_shrinks_to_the_smallest_failing_answer() {
        // depth-cap-5 fails only at answer 6; no-zero only at 0; a wrong-neighbours
        // mutant fails at small answers: the shrunk board has the smallest failing answer
        // of all boards (which the exhaustive list gives).
        for (problem, name) in [
            (Problem::Flip, "depth-cap-5"),
            (Problem::Flip, "wrapping-neighbours"),
            (Problem::Flip, "linear-neighbours"),
            (Problem::FourInRow, "no-diagonals"),
            (Problem::FourInRow, "one-empty"),
        ] {
            let (_, s) = shrunk(problem, name, 1);
            let got = problem.size(s.input.as_bytes()).unwrap().0;
            let mut m = mutant(problem, name);
            let smallest = problem
                .enumerate()
                .unwrap()
                .step_by(if problem == Problem::Flip { 1 } else { 13 })
                .filter(|input| {
                    let observed = m.run(input).unwrap_or_else(|e| match e {});
                    judge(problem, input, observed).is_some_and(|f| f.verdict == s.failure.verdict)
                })
                .map(|input| problem.size(input.as_bytes()).unwrap().0)
                .min()
                .unwrap();
            assert_eq!(got, smallest, "{problem} {name}: shrunk to {:?}", s.input);
        }
    }

    /// A generator of `a`s, run `r` printing `(r * 7) % 11 + 1` of them, and a candidate
    /// wrong (`WA`) on odd lengths, crashing (`RE`) on a length of 1.
    struct Lengths {
        drawn: Vec<u64>,
        attempted: usize,
    }

    impl Trial for Lengths {
        type Error = std::convert::Infallible;

        fn draw(&mut self, _seed: u64, run: u64) -> Result<crate::differ::Drawn, Self::Error> {
            self.drawn.push(run);
            let input = "a".repeat(usize::try_from(run * 7 % 11 + 1).unwrap());
            Ok(crate::differ::Drawn {
                kind: "generator".to_owned(),
                input,
            })
        }

        fn attempt(&mut self, input: &str) -> Result<Option<Failure>, Self::Error> {
            self.attempted += 1;
            let verdict = match input.len() {
                1 => reference::Verdict::RuntimeError,
                n if n % 2 == 1 => reference::Verdict::WrongAnswer,
                _ => return Ok(None),
            };
            Ok(Some(Failure {
                verdict,
                message: String::new(),
                output: Vec::new(),
            }))
        }
    }

    #[test]
    fn shrinking_by_seed_keeps_the_shortest_later_input_that_fails_the_same_way() {
        let mut trial = Lengths {
            drawn: Vec::new(),
            attempted: 0,
        };
        // Run 2 prints 15 % 11 + 1 = 5 `a`s: a WA.
        let finding = Finding {
            run: 2,
            kind: "generator".to_owned(),
            input: "aaaaa".to_owned(),
            failure: trial.attempt("aaaaa").unwrap().unwrap(),
        };
        let budget = ShrinkBudget {
            steps: 8,
            deadline: None,
        };
        let shrunk = shrink_by_seed(&mut trial, 9, &finding, &budget).unwrap();
        // Runs 3..=10 are drawn: lengths 11, 7, 3, 10, 6, 2, 9, 5. Only those shorter
        // than the best so far run: 3 (a WA, kept), then 2 (right).
        assert_eq!(trial.drawn, (3..=10).collect::<Vec<_>>());
        assert_eq!(shrunk.input, "aaa");
        assert_eq!((shrunk.steps, shrunk.simplified), (8, 1));
        assert_eq!(trial.attempted, 1 + 2);
        // A shorter input that fails another way (run 11's single `a`, a crash) is never
        // the shrunk finding.
        let finding = Finding { run: 10, ..finding };
        let shrunk = shrink_by_seed(&mut trial, 9, &finding, &budget).unwrap();
        assert_eq!(shrunk.failure.verdict, reference::Verdict::WrongAnswer);
    }
}
