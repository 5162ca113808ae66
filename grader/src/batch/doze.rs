//! The doze lane: the runs of students whose program slept (`sleepers`), handed over by
//! the workers as each such student is found, taken by the lane's own workers beside the
//! pool ([`workers`] of them, each with its box). A program asleep uses no CPU, so its
//! wall limit, a case's, is spent there rather than on one of the `--jobs` workers the
//! class shares; and the lane's workers sleep through a row of cases at once, so a sleeper
//! is stopped about one wall limit after it is found rather than the row's length.

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Condvar, Mutex};

use sandbox::Locked as _;

/// The most workers of the doze lane, whatever `--stop-after-wall-tles`: each is a box
/// (a process, its memory) kept for the whole batch, and a run that computes there goes
/// beside the `--jobs` ones. The default row of three sleeps at once on three.
pub(crate) const MOST_WORKERS: usize = 4;

/// How many workers the doze lane has when `in_a_row` cases that slept stop a student
/// (0: the rule is off, and there is no lane): one per case of the row, so that the row
/// sleeps at once, at most [`MOST_WORKERS`].
pub(crate) fn workers(in_a_row: usize) -> usize {
    in_a_row.min(MOST_WORKERS)
}

/// The runs handed to the doze lane, in the order handed, and the waves under way.
#[derive(Debug, Default)]
pub(crate) struct DozeQueue {
    state: Mutex<State>,
    /// Wakes the lane's workers when a run is handed, a wave ends, or the queue closes.
    ready: Condvar,
}

/// One run handed to the lane: its number, its student's and its case's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Handed {
    /// The run's number.
    pub(crate) run: u64,
    /// Its student.
    pub(crate) student: usize,
    /// Its case.
    pub(crate) case: usize,
}

#[derive(Debug, Default)]
struct State {
    runs: VecDeque<Handed>,
    /// Each student's runs under way.
    waves: Waves,
    /// No run will be handed any more.
    closed: bool,
}

/// The lane's runs go in *waves*, student by student: a student's runs start side by side
/// while they may join the wave (`Sleepers::joins`: not beyond the cases that, should they
/// all sleep, stop it; not past a case still under way elsewhere) and until the first of
/// them ends; then none of its runs starts until all of that wave have ended and were
/// noted. So a wave that slept stops the student before another of its runs starts, and
/// no worker sleeps through a run the stop makes useless (a worker free a moment before
/// the others of its wave end; a run beyond the row a journal left short; a case past
/// one a worker of the pool still tries, which could make no row with the wave).
#[derive(Debug, Default)]
struct Waves {
    /// Per student with runs under way: its wave.
    under_way: BTreeMap<usize, Wave>,
}

/// Whether a run of student `.0` on case `.2` may start beside its runs of cases `.1`
/// (`Sleepers::joins`).
pub(crate) type Joins<'a> = &'a dyn Fn(usize, &[usize], usize) -> bool;

/// One student's runs under way on the lane.
#[derive(Debug, Default)]
struct Wave {
    /// How many.
    runs: usize,
    /// Whether one of them ended.
    ending: bool,
    /// The cases of its runs.
    cases: Vec<usize>,
}

impl Waves {
    /// Whether `handed` may start now; `joins`: whether a student's run on a case may
    /// start beside its runs of the cases under way.
    fn may_start(&self, handed: Handed, joins: Joins<'_>) -> bool {
        self.under_way
            .get(&handed.student)
            .is_none_or(|wave| !wave.ending && joins(handed.student, &wave.cases, handed.case))
    }

    /// `handed` starts.
    fn start(&mut self, handed: Handed) {
        let wave = self.under_way.entry(handed.student).or_default();
        wave.runs += 1;
        wave.cases.push(handed.case);
    }

    /// A run of `student` ended (and was noted).
    fn end(&mut self, student: usize) {
        if let Some(wave) = self.under_way.get_mut(&student) {
            wave.runs = wave.runs.saturating_sub(1);
            wave.ending = true;
            if wave.runs == 0 {
                self.under_way.remove(&student);
            }
        }
    }
}

impl DozeQueue {
    /// Hands `runs` over.
    pub(crate) fn push(&self, runs: impl IntoIterator<Item = Handed>) {
        let mut state = self.state.locked();
        state.runs.extend(runs);
        self.ready.notify_all();
    }

    /// No run will be handed any more: the lane ends once it has taken those handed.
    pub(crate) fn close(&self) {
        self.state.locked().closed = true;
        self.ready.notify_all();
    }

    /// No run will be handed, and those handed are not made: the batch is stopping.
    pub(crate) fn clear(&self) {
        let mut state = self.state.locked();
        state.runs.clear();
        state.closed = true;
        self.ready.notify_all();
    }

    /// The first run handed that may start ([`Waves`], [`Joins`]), waiting for one;
    /// `None` once the queue is closed and empty. The taker tells [`DozeQueue::ended`]
    /// when it has ended.
    pub(crate) fn pop(&self, joins: Joins<'_>) -> Option<Handed> {
        let mut state = self.state.locked();
        loop {
            let first = state
                .runs
                .iter()
                .position(|&h| state.waves.may_start(h, joins));
            if let Some(handed) = first.and_then(|at| state.runs.remove(at)) {
                state.waves.start(handed);
                return Some(handed);
            }
            if state.closed && state.runs.is_empty() {
                return None;
            }
            // A poisoned lock is taken as it is, as `Locked` does.
            state = self
                .ready
                .wait(state)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
    }

    /// The run `handed` (from [`DozeQueue::pop`]) ended, and what it showed was noted.
    pub(crate) fn ended(&self, handed: Handed) {
        self.state.locked().waves.end(handed.student);
        self.ready.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lane_has_a_worker_per_case_of_the_row_bounded() {
        assert_eq!(workers(0), 0, "the rule off: no lane");
        assert_eq!(workers(1), 1);
        assert_eq!(workers(3), 3, "the default row sleeps at once");
        assert_eq!(workers(MOST_WORKERS + 1), MOST_WORKERS);
        assert_eq!(workers(usize::MAX), MOST_WORKERS);
    }

    fn handed(run: u64, student: usize) -> Handed {
        Handed {
            run,
            student,
            case: run as usize,
        }
    }

    /// Any run joins a wave.
    fn never(_: usize, _: &[usize], _: usize) -> bool {
        true
    }

    #[test]
    fn runs_come_out_in_the_order_handed_and_the_lane_ends_when_closed() {
        let queue = DozeQueue::default();
        std::thread::scope(|scope| {
            let lane = scope.spawn(|| {
                std::iter::from_fn(|| {
                    let h = queue.pop(&never)?;
                    queue.ended(h);
                    Some(h.run)
                })
                .collect::<Vec<_>>()
            });
            queue.push([handed(3, 0), handed(4, 0)]);
            queue.push([handed(0, 1)]);
            queue.close();
            assert_eq!(lane.join().unwrap(), [3, 4, 0]);
        });
        assert_eq!(queue.pop(&never), None, "closed and empty");
    }

    #[test]
    fn a_students_runs_start_side_by_side_until_one_ends_then_wait_for_the_wave() {
        let mut waves = Waves::default();
        // A wave of three starts.
        for case in 0..3 {
            assert!(waves.may_start(handed(case, 7), &never));
            waves.start(handed(case, 7));
        }
        // One ends: no more of that student until the other two have.
        waves.end(7);
        assert!(!waves.may_start(handed(3, 7), &never));
        assert!(
            waves.may_start(handed(3, 8), &never),
            "another student's runs go on"
        );
        waves.end(7);
        assert!(!waves.may_start(handed(3, 7), &never));
        waves.end(7);
        assert!(
            waves.may_start(handed(3, 7), &never),
            "the wave is over: the next may start"
        );
        // The queue passes over a run that must wait for one that may start.
        let queue = DozeQueue::default();
        queue.push([handed(0, 7), handed(1, 7), handed(2, 8)]);
        let a = queue.pop(&never).unwrap();
        let b = queue.pop(&never).unwrap();
        assert_eq!((a.run, b.run), (0, 1));
        queue.ended(a);
        assert_eq!(queue.pop(&never), Some(handed(2, 8)), "7's wave is ending");
        queue.clear();
        assert_eq!(queue.pop(&never), None, "cleared: nothing more is made");
    }

    #[test]
    fn a_run_that_may_not_join_its_students_wave_is_passed_over() {
        // Student 7's wave holds two at most, and student 8's run goes.
        let two = |student: usize, cases: &[usize], _| student != 7 || cases.len() < 2;
        let queue = DozeQueue::default();
        queue.push([handed(0, 7), handed(1, 7), handed(2, 7), handed(3, 8)]);
        let first: Vec<u64> = (0..3).map(|_| queue.pop(&two).unwrap().run).collect();
        assert_eq!(first, [0, 1, 3]);
        // A case handed late joins ahead of those queued before it that may not.
        let after = |_, cases: &[usize], case| cases.iter().all(|&c| c + 1 == case);
        let queue = DozeQueue::default();
        queue.push([handed(4, 7), handed(6, 7)]);
        assert_eq!(queue.pop(&after).unwrap().run, 4);
        queue.push([handed(5, 7)]);
        assert_eq!(queue.pop(&after).unwrap().run, 5);
    }
}
