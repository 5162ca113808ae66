//! Runs made alone: a run the machine held back is made again with no other run of this
//! grader under way (`judge::next`), while every other run goes on beside the others.
//!
//! Every run asks whether it may start, so the question must cost nothing shared: a
//! lock, even a reader's, writes one word all workers share on every run, which on a
//! machine of many cores bounces between them. Here a run writes only its own worker's
//! flag ([`Lane`]) and reads one word that changes only while a run waits to go alone
//! ([`WANTED`], almost never). The rare run made alone raises [`WANTED`], takes
//! [`ALONE`], and waits until every lane is idle; a run that finds [`WANTED`] raised
//! steps back and waits for it to end. (Each side writes its own word, then reads the
//! other's, both sequentially consistent: one of the two always sees the other.)

use sandbox::Locked as _;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

/// How many runs wait to go alone, or go.
static WANTED: AtomicUsize = AtomicUsize::new(0);
/// Held by the run made alone, for its whole length.
static ALONE: Mutex<()> = Mutex::new(());
/// Every worker's lane, to wait for.
static LANES: Mutex<Vec<Weak<AtomicBool>>> = Mutex::new(Vec::new());
/// How often a run made alone looks at the lanes again while it waits for the runs under
/// way (each ends within its wall limit).
const POLL: Duration = Duration::from_millis(1);

/// One worker's flag: whether it has a run under way.
#[derive(Debug)]
pub(crate) struct Lane {
    busy: Arc<AtomicBool>,
}

impl Lane {
    /// A lane for a new worker.
    pub(crate) fn new() -> Lane {
        let busy = Arc::new(AtomicBool::new(false));
        let mut lanes = LANES.locked();
        lanes.retain(|lane| lane.strong_count() > 0);
        lanes.push(Arc::downgrade(&busy));
        Lane { busy }
    }

    /// Marks the lane busy, once no run waits to go alone: its runs go beside the others
    /// until [`Lane::leave`]. A run started ahead of the next call (see `runner.rs`) keeps
    /// it busy across calls.
    pub(crate) fn enter(&self) {
        loop {
            self.busy.store(true, Ordering::SeqCst);
            if !Lane::wanted() {
                return;
            }
            // A run goes alone: step back, and wait until it has gone.
            self.busy.store(false, Ordering::SeqCst);
            drop(ALONE.locked());
            std::thread::sleep(POLL);
        }
    }

    /// Marks the lane idle: its runs have ended.
    pub(crate) fn leave(&self) {
        self.busy.store(false, Ordering::SeqCst);
    }

    /// Whether a run waits to go alone: a busy lane starts no run ahead then. (Read after
    /// the lane was marked busy, as [`Lane::enter`] does.)
    pub(crate) fn wanted() -> bool {
        WANTED.load(Ordering::SeqCst) != 0
    }

    /// Runs `run` with no other run of this grader under way.
    pub(crate) fn alone<T>(&self, run: impl FnOnce() -> T) -> T {
        WANTED.fetch_add(1, Ordering::SeqCst);
        let _wanted = Wanted;
        let _alone = ALONE.locked();
        while others_busy(&self.busy) {
            std::thread::sleep(POLL);
        }
        run()
    }
}

/// Whether a lane other than `own` has a run under way.
fn others_busy(own: &Arc<AtomicBool>) -> bool {
    LANES
        .locked()
        .iter()
        .filter_map(Weak::upgrade)
        .any(|lane| !Arc::ptr_eq(&lane, own) && lane.load(Ordering::SeqCst))
}

/// Lowers [`WANTED`] when a run made alone ends, however it ends.
struct Wanted;

impl Drop for Wanted {
    fn drop(&mut self) {
        WANTED.fetch_sub(1, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    #[test]
    fn a_run_made_alone_never_overlaps_another() {
        // Many runs beside each other, some started ahead of the next call (under way
        // across it), and some alone: at no moment does a run made alone see another under
        // way, nor another start while it goes.
        let under_way = AtomicUsize::new(0);
        let overlaps = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for worker in 0..4 {
                let (under_way, overlaps) = (&under_way, &overlaps);
                scope.spawn(move || {
                    let lane = Lane::new();
                    // Whether a run started ahead is under way.
                    let mut ahead = false;
                    for i in 0..200 {
                        if (i + worker) % 50 == 0 {
                            if std::mem::take(&mut ahead) {
                                under_way.fetch_sub(1, Ordering::SeqCst);
                            }
                            lane.leave();
                            lane.alone(|| {
                                if under_way.fetch_add(1, Ordering::SeqCst) != 0 {
                                    overlaps.fetch_add(1, Ordering::SeqCst);
                                }
                                std::thread::yield_now();
                                if under_way.fetch_sub(1, Ordering::SeqCst) != 1 {
                                    overlaps.fetch_add(1, Ordering::SeqCst);
                                }
                            });
                        } else {
                            if !ahead {
                                lane.enter();
                                under_way.fetch_add(1, Ordering::SeqCst);
                            }
                            std::thread::yield_now();
                            // It ends; the next one starts at once, unless a run waits to
                            // go alone (and one in three does not, as after a TLE).
                            if i % 3 != 0 && !Lane::wanted() {
                                ahead = true;
                            } else {
                                ahead = false;
                                under_way.fetch_sub(1, Ordering::SeqCst);
                                lane.leave();
                            }
                        }
                    }
                    if ahead {
                        under_way.fetch_sub(1, Ordering::SeqCst);
                        lane.leave();
                    }
                });
            }
        });
        assert_eq!(overlaps.load(Ordering::SeqCst), 0);
    }
}
