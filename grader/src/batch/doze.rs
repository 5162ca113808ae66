//! The doze lane: the runs of students whose program slept (`sleepers`), handed over by
//! the workers as each such student is found, taken by the lane's own workers beside the
//! pool ([`workers`] of them, each with its box). A program asleep uses no CPU, so its
//! wall limit, twice a case, is spent there rather than on one of the `--jobs` workers the
//! class shares; and the lane's workers sleep through a row of cases at once, so a sleeper
//! is stopped about two wall limits after it is found rather than twice the row's length.

use std::collections::VecDeque;
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

/// The runs (by number) handed to the doze lane, in the order handed.
#[derive(Debug, Default)]
pub(crate) struct DozeQueue {
    state: Mutex<State>,
    /// Wakes the lane's workers when a run is handed or the queue closes.
    ready: Condvar,
}

#[derive(Debug, Default)]
struct State {
    runs: VecDeque<u64>,
    /// No run will be handed any more.
    closed: bool,
}

impl DozeQueue {
    /// Hands the runs numbered `runs` over.
    pub(crate) fn push(&self, runs: impl IntoIterator<Item = u64>) {
        let mut state = self.state.locked();
        state.runs.extend(runs);
        self.ready.notify_all();
    }

    /// No run will be handed any more: the lane ends once it has taken those handed.
    pub(crate) fn close(&self) {
        self.state.locked().closed = true;
        self.ready.notify_all();
    }

    /// The next run handed, waiting for one; `None` once the queue is closed and empty.
    pub(crate) fn pop(&self) -> Option<u64> {
        let mut state = self.state.locked();
        loop {
            if let Some(run) = state.runs.pop_front() {
                return Some(run);
            }
            if state.closed {
                return None;
            }
            // A poisoned lock is taken as it is, as `Locked` does.
            state = self
                .ready
                .wait(state)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
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

    #[test]
    fn runs_come_out_in_the_order_handed_and_the_lane_ends_when_closed() {
        let queue = DozeQueue::default();
        std::thread::scope(|scope| {
            let lane = scope.spawn(|| std::iter::from_fn(|| queue.pop()).collect::<Vec<_>>());
            queue.push([3, 4]);
            queue.push([0]);
            queue.close();
            assert_eq!(lane.join().unwrap(), [3, 4, 0]);
        });
        assert_eq!(queue.pop(), None, "closed and empty");
    }
}
