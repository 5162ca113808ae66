//! The doze lane's queue: the runs of students whose program slept (`sleepers`), handed
//! over by the workers as each such student is found, taken one at a time by the lane's
//! own worker beside the pool. A program asleep uses no CPU, so its wall limit, twice a
//! case, is spent there rather than on one of the `--jobs` workers the class shares.

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex};

use sandbox::Locked as _;

/// The runs (by number) handed to the doze lane, in the order handed.
#[derive(Debug, Default)]
pub(crate) struct DozeQueue {
    state: Mutex<State>,
    /// Wakes the lane when a run is handed or the queue closes.
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
        self.ready.notify_one();
    }

    /// No run will be handed any more: the lane ends once it has taken those handed.
    pub(crate) fn close(&self) {
        self.state.locked().closed = true;
        self.ready.notify_one();
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
