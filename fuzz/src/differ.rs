//! The differential loop: run `i` draws its input from `(seed, i)`, the candidate runs on
//! it, and the checker judges the output against the reference. The first failure (lowest
//! run number, however many workers ran and in whatever order they finished) is the
//! finding, so one seed always gives the same finding and `--runs i+1` replays it.

use std::time::Instant;

use reference::{Problem, Rng, Verdict};

use crate::candidate::{Candidate, Observed};

/// How much of a failing output a finding keeps.
const OUTPUT_EXCERPT: usize = 4096;

/// One input and the kind it was drawn as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Drawn {
    /// The kind (`answer=3`), or where a listed input came from (`regression`, `all`).
    pub kind: String,
    /// The input text.
    pub input: String,
}

/// Where the inputs come from.
#[derive(Debug, Clone)]
pub enum Inputs {
    /// Drawn from a seed, without end.
    Seeded {
        /// The seed.
        seed: u64,
    },
    /// A fixed list: earlier failures to replay, or every board of an enumerable space.
    Listed(Vec<Drawn>),
}

impl Inputs {
    /// Run `run`'s input, or how to draw it (on the worker that runs it: a package's
    /// generator is a program); `None` past the end of a list.
    fn task(&self, run: u64) -> Option<Task> {
        match self {
            Inputs::Seeded { seed } => Some(Task::Seeded { seed: *seed }),
            Inputs::Listed(all) => usize::try_from(run)
                .ok()
                .and_then(|i| all.get(i))
                .cloned()
                .map(Task::Given),
        }
    }
}

/// A run's input as the pool hands it to a worker.
#[derive(Debug, Clone)]
enum Task {
    /// To be drawn from the seed by the worker.
    Seeded { seed: u64 },
    /// Given.
    Given(Drawn),
}

/// One worker's part of a search: the input of a seeded run, and what the candidate does
/// with an input, judged. [`search`] makes a built-in problem's ([`Judged`]); `grader`
/// makes a problem package's, whose generator, reference and judge are programs.
pub trait Trial {
    /// Why a run could not be made (never that the candidate is wrong).
    type Error;

    /// The input of run `run` of `seed`; the same every time.
    fn draw(&mut self, seed: u64, run: u64) -> Result<Drawn, Self::Error>;

    /// Runs the candidate on `input` and judges it: `None` when it is right.
    fn attempt(&mut self, input: &str) -> Result<Option<Failure>, Self::Error>;
}

/// A built-in problem's trial: inputs drawn by its generators, the candidate's output
/// judged by its checker against its reference, in process.
#[derive(Debug)]
pub struct Judged<'c, C> {
    /// The problem.
    pub problem: Problem,
    /// The candidate.
    pub candidate: &'c mut C,
}

impl<C: Candidate> Trial for Judged<'_, C> {
    type Error = C::Error;

    fn draw(&mut self, seed: u64, run: u64) -> Result<Drawn, C::Error> {
        Ok(draw(self.problem, seed, run))
    }

    fn attempt(&mut self, input: &str) -> Result<Option<Failure>, C::Error> {
        let observed = self.candidate.run(input)?;
        Ok(judge(self.problem, input, observed))
    }
}

/// The input of run `run` of `seed`: the first runs go once through the problem's fuzz
/// mix in order (rare classes first), later ones pick a kind of the mix at random.
pub fn draw(problem: Problem, seed: u64, run: u64) -> Drawn {
    let mix = problem.fuzz_mix();
    let mut rng = Rng::with_stream(seed, run);
    let kind = match usize::try_from(run) {
        Ok(i) if i < mix.len() => mix[i],
        _ => *rng.pick(mix),
    };
    let input = problem
        .generate(kind, &mut rng)
        .expect("the fuzz mix holds only valid kinds (tested in reference)");
    Drawn {
        kind: kind.to_owned(),
        input,
    }
}

/// When to stop.
#[derive(Debug, Clone, Copy, Default)]
pub struct Budget {
    /// At most this many runs.
    pub runs: Option<u64>,
    /// No run starts after this instant.
    pub deadline: Option<Instant>,
}

impl Budget {
    /// At most `runs` runs.
    pub fn runs(runs: u64) -> Budget {
        Budget {
            runs: Some(runs),
            deadline: None,
        }
    }

    /// Whether run number `run` is within `runs`.
    fn counts(&self, run: u64) -> bool {
        self.runs.is_none_or(|n| run < n)
    }
}

/// How a candidate failed on one input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The verdict (never `AC`).
    pub verdict: Verdict,
    /// Why, for a person (the checker's message: expected and got).
    pub message: String,
    /// The start of the candidate's output, when it had one.
    pub output: Vec<u8>,
}

/// Judges what a candidate did with `input`: `None` when it is right.
pub fn judge(problem: Problem, input: &str, observed: Observed) -> Option<Failure> {
    match observed {
        Observed::Failed { verdict, message } => Some(Failure {
            verdict,
            message,
            output: Vec::new(),
        }),
        Observed::Output(mut output) => {
            let judgement = match problem.check(input.as_bytes(), None, &output) {
                Ok(judgement) => judgement,
                Err(e) => reference::Judgement::wrong(format!("the input is malformed: {e}")),
            };
            (judgement.verdict != Verdict::Accepted).then(|| {
                output.truncate(OUTPUT_EXCERPT);
                Failure {
                    verdict: judgement.verdict,
                    message: judgement.message,
                    output,
                }
            })
        }
    }
}

/// A failing run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The run number (from 0).
    pub run: u64,
    /// How its input was drawn.
    pub kind: String,
    /// The input.
    pub input: String,
    /// How the candidate failed.
    pub failure: Failure,
}

impl Finding {
    /// The run's number as a person reads it, counted from 1: `--runs` with it makes the
    /// runs up to this one.
    pub fn number(&self) -> u64 {
        self.run + 1
    }
}

/// What a search found.
#[derive(Debug, Clone, Default)]
pub struct Search {
    /// Runs made (with several workers, runs numbered past the finding that were already
    /// under way are counted too).
    pub runs: u64,
    /// The failing run with the lowest number, if any: the same at any number of workers.
    pub finding: Option<Finding>,
}

/// Runs `candidates` (one per worker thread) on `inputs` until a failure, the end of the
/// inputs or the budget. `progress` is told the number of runs made after each run (on
/// this thread).
pub fn search<C>(
    problem: Problem,
    inputs: &Inputs,
    candidates: &mut [C],
    budget: &Budget,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Search, C::Error>
where
    C: Candidate + Send,
    C::Error: Send,
{
    let mut trials: Vec<Judged<'_, C>> = candidates
        .iter_mut()
        .map(|candidate| Judged { problem, candidate })
        .collect();
    search_trials(inputs, &mut trials, budget, progress)
}

/// [`search`] with each worker's [`Trial`]: the same runs, the same finding.
pub fn search_trials<T>(
    inputs: &Inputs,
    trials: &mut [T],
    budget: &Budget,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Search, T::Error>
where
    T: Trial + Send,
    T::Error: Send,
{
    let tasks = |run: u64| budget.counts(run).then(|| inputs.task(run))?;
    // Runs numbered past a failure are not started; runs before it still finish, so the
    // finding is the lowest failing run whatever the scheduling.
    let stop = |run: u64, found: &Option<Finding>| match found {
        Some(_) => pool::Stop::After(run),
        None => pool::Stop::Go,
    };
    let schedule = pool::Schedule {
        tasks: &tasks,
        stop: &stop,
        deadline: budget.deadline,
        announce: false,
    };
    let mut runs = trials
        .iter_mut()
        .map(|trial| Run { trial })
        .collect::<Vec<_>>();
    let mut found = Search::default();
    pool::run(&mut runs, &schedule, |event| {
        if let pool::Event::Finished { output, .. } = event {
            found.runs += 1;
            progress(found.runs);
            if let Some(failure) = output {
                keep_lowest(&mut found.finding, failure);
            }
        }
        Ok(())
    })?;
    Ok(found)
}

/// One worker of [`search_trials`]: its trial draws (when seeded) and runs an input.
struct Run<'t, T> {
    trial: &'t mut T,
}

impl<T: Trial> pool::Executor for Run<'_, T> {
    type Task = Task;
    type Output = Option<Finding>;
    type Error = T::Error;

    fn execute(&mut self, run: u64, task: Task) -> Result<Option<Finding>, T::Error> {
        let drawn = match task {
            Task::Seeded { seed } => self.trial.draw(seed, run)?,
            Task::Given(drawn) => drawn,
        };
        Ok(self.trial.attempt(&drawn.input)?.map(|failure| Finding {
            run,
            kind: drawn.kind,
            input: drawn.input,
            failure,
        }))
    }
}

/// Keeps the failing run with the lower number: workers finish in any order, and a failure
/// numbered past the lowest is not the finding, however much simpler its input.
fn keep_lowest(lowest: &mut Option<Finding>, failure: Finding) {
    if lowest.as_ref().is_none_or(|l| failure.run < l.run) {
        *lowest = Some(failure);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::candidate::Mutant;

    #[test]
    fn a_seed_draws_the_same_inputs_every_time_and_goes_through_the_mix_first() {
        for problem in Problem::ALL {
            let mix = problem.fuzz_mix();
            for run in 0..40 {
                let a = draw(problem, 7, run);
                assert_eq!(a, draw(problem, 7, run));
                assert_eq!(problem.validate(a.input.as_bytes()), Ok(()));
                if let Ok(i) = usize::try_from(run)
                    && i < mix.len()
                {
                    assert_eq!(a.kind, mix[i]);
                }
            }
        }
    }

    /// Runs to the first finding for a mutant and a seed.
    fn runs_to_finding(problem: Problem, index: usize, seed: u64, jobs: usize) -> Option<u64> {
        let mut candidates = vec![Mutant::new(problem, index); jobs];
        let found = search(
            problem,
            &Inputs::Seeded { seed },
            &mut candidates,
            &Budget::runs(1000),
            &|_| {},
        )
        .unwrap_or_else(|e| match e {});
        found.finding.map(|f| f.number())
    }

    #[test]
    fn every_mutant_is_found_within_20_runs_at_the_median_and_200_at_worst() {
        // Issue 5's target, over seeds 1..=20.
        for problem in Problem::ALL {
            for (index, (name, _)) in problem.mutants().iter().enumerate() {
                let mut runs: Vec<u64> = (1..=20)
                    .map(|seed| {
                        runs_to_finding(problem, index, seed, 1)
                            .unwrap_or_else(|| panic!("{problem} {name}: not found, seed {seed}"))
                    })
                    .collect();
                runs.sort_unstable();
                let (median, worst) = (runs[runs.len() / 2], runs[runs.len() - 1]);
                assert!(median <= 20 && worst <= 200, "{problem} {name}: {runs:?}");
            }
        }
    }

    /// A mutant that is slow on one input, so that failures numbered past it finish first.
    #[derive(Clone)]
    struct SlowOn {
        mutant: Mutant,
        slow: String,
    }

    impl Candidate for SlowOn {
        type Error = std::convert::Infallible;

        fn run(&mut self, input: &str) -> Result<Observed, Self::Error> {
            if input == self.slow {
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
            self.mutant.run(input)
        }
    }

    #[test]
    fn the_lowest_failing_run_is_the_finding_even_when_it_finishes_last() {
        // Wrapping neighbours fails on most flip boards: several failures are in flight.
        let problem = Problem::Flip;
        let index = problem
            .mutants()
            .iter()
            .position(|m| m.0 == "wrapping-neighbours")
            .unwrap();
        for seed in 1..=5 {
            let search_with = |jobs: usize, slow: &str| {
                let mut candidates = vec![
                    SlowOn {
                        mutant: Mutant::new(problem, index),
                        slow: slow.to_owned(),
                    };
                    jobs
                ];
                search(
                    problem,
                    &Inputs::Seeded { seed },
                    &mut candidates,
                    &Budget::runs(100),
                    &|_| {},
                )
                .unwrap_or_else(|e| match e {})
            };
            let one = search_with(1, "").finding.expect("found");
            let four = search_with(4, &one.input);
            assert_eq!(four.finding, Some(one), "seed {seed}");
        }
    }

    #[test]
    fn a_search_past_its_deadline_starts_no_run() {
        let mut candidates = [Mutant::new(Problem::Swap, 0), Mutant::new(Problem::Swap, 0)];
        let budget = Budget {
            runs: None,
            deadline: Some(Instant::now()),
        };
        let found = search(
            Problem::Swap,
            &Inputs::Seeded { seed: 1 },
            &mut candidates,
            &budget,
            &|_| {},
        )
        .unwrap_or_else(|e| match e {});
        assert_eq!((found.runs, found.finding), (0, None));
    }

    #[test]
    fn one_worker_stops_at_the_first_failure_and_progress_counts_every_run() {
        let problem = Problem::Flip;
        let index = problem
            .mutants()
            .iter()
            .position(|m| m.0 == "wrapping-neighbours")
            .unwrap();
        let told = std::sync::Mutex::new(Vec::new());
        let found = search(
            problem,
            &Inputs::Seeded { seed: 2 },
            &mut [Mutant::new(problem, index)],
            &Budget::runs(100),
            &|runs| told.lock().unwrap().push(runs),
        )
        .unwrap_or_else(|e| match e {});
        let number = found.finding.expect("found").number();
        assert_eq!(found.runs, number);
        assert_eq!(told.into_inner().unwrap(), (1..=number).collect::<Vec<_>>());
    }

    /// A right candidate whose runs cannot be made from its third on.
    struct Broken(u32);

    impl Candidate for Broken {
        type Error = String;

        fn run(&mut self, input: &str) -> Result<Observed, String> {
            self.0 += 1;
            if self.0 >= 3 {
                return Err("no launcher".to_owned());
            }
            let answer = Problem::Flip.solve(input.as_bytes()).unwrap();
            Ok(Observed::Output(answer.into_bytes()))
        }
    }

    #[test]
    fn a_run_that_cannot_be_made_ends_the_search_with_its_error() {
        let result = search(
            Problem::Flip,
            &Inputs::Seeded { seed: 1 },
            &mut [Broken(0), Broken(0)],
            &Budget::runs(1000),
            &|_| {},
        );
        assert_eq!(result.map(|s| s.runs).err(), Some("no launcher".to_owned()));
    }

    #[test]
    fn the_finding_does_not_depend_on_the_number_of_workers() {
        for problem in Problem::ALL {
            for index in 0..problem.mutants().len() {
                let one = runs_to_finding(problem, index, 3, 1);
                assert_eq!(
                    one,
                    runs_to_finding(problem, index, 3, 4),
                    "{problem} {index}"
                );
            }
        }
    }
}
