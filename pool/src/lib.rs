//! One worker pool for every command that runs many things at once (`grader test`'s cases,
//! `grader batch`'s builds and runs, the fuzzer's runs).
//!
//! Tasks are numbered 0, 1, 2… and each worker thread takes the next number, asks the
//! schedule for that task, and runs it on its own [`Executor`] (its own state: a worker
//! box, a candidate). Nothing is shared between the workers but two counters; everything
//! they find goes as an [`Event`] over a channel to the calling thread, which hands it to
//! the reporter: an `FnMut` on the caller's thread, so a reporter needs no lock and need
//! not be `Sync`.
//!
//! Stopping is decided on the worker, by a pure rule of the finished task's number and
//! output ([`Stop`]), before its event is sent: with one worker, what runs is then the
//! same every time ("the runs up to the first failure"), whatever the reporter is doing.
//! A deadline is asked before a number is taken, never after, so the numbers that ran are
//! 0, 1, 2… without a gap. The first executor error stops the pool (tasks under way still
//! finish and are reported) and is what [`run`] returns.
//!
//! ```
//! use pool::{Event, Executor, Schedule, Stop};
//!
//! /// Squares numbers.
//! struct Square;
//!
//! impl Executor for Square {
//!     type Task = u64;
//!     type Output = u64;
//!     type Error = String;
//!
//!     fn execute(&mut self, _index: u64, task: u64) -> Result<u64, String> {
//!         Ok(task * task)
//!     }
//! }
//!
//! let tasks = |n: u64| (n < 10).then_some(n);
//! // Nothing numbered past the first square over 20 starts.
//! let stop = |n: u64, square: &u64| if *square > 20 { Stop::After(n) } else { Stop::Go };
//! let schedule = Schedule { tasks: &tasks, stop: &stop, deadline: None, announce: false };
//! let mut squares = Vec::new();
//! pool::run(&mut [Square], &schedule, |event| {
//!     if let Event::Finished { output, .. } = event {
//!         squares.push(output);
//!     }
//!     Ok(())
//! })
//! .unwrap();
//! assert_eq!(squares, [0, 1, 4, 9, 16, 25]);
//! ```

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::time::Instant;

/// What one worker runs tasks with: its own state, used by no other thread.
pub trait Executor {
    /// One task, made by the schedule from its number.
    type Task;
    /// What a task gives.
    type Output;
    /// Why a task could not be run at all: the pool stops, and [`run`] returns it.
    type Error;

    /// Runs task number `index`.
    fn execute(&mut self, index: u64, task: Self::Task) -> Result<Self::Output, Self::Error>;

    /// Whether the worker takes its next number before it runs a task, so that the task
    /// may prepare, or even start, the next one while it finishes ([`execute_then`]), as
    /// long as more tasks are left than workers. A number taken ahead runs unless a
    /// stopping rule rules it out, as any number taken. The schedule's `tasks` must then
    /// be a plain function of the number: it is also asked past the next one.
    ///
    /// [`execute_then`]: Executor::execute_then
    const LOOKAHEAD: bool = false;

    /// Runs task number `index`, told which task this worker runs next (`None`: none, or
    /// not known). Only called so with [`Executor::LOOKAHEAD`]; the next task may still be
    /// ruled out by a stopping rule, and then never comes.
    fn execute_then(
        &mut self,
        index: u64,
        task: Self::Task,
        next: Option<&Self::Task>,
    ) -> Result<Self::Output, Self::Error> {
        let _ = next;
        self.execute(index, task)
    }
}

/// What a finished task means for the tasks not yet started.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// Nothing: go on.
    Go,
    /// Start nothing numbered past this one (the tasks before it were all taken already,
    /// so they all finish). Several rules keep the lowest.
    After(u64),
    /// Start nothing numbered below this one: the numbers jumped over that had not
    /// started are reported [`Event::Skipped`] (a task under way still finishes; one a
    /// worker took ahead of its start does not start).
    SkipTo(u64),
}

/// What the reporter is told, on the calling thread.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event<O> {
    /// Task `index` started on worker `worker` (the executor's place in the slice).
    Started {
        /// The task's number.
        index: u64,
        /// The worker.
        worker: usize,
    },
    /// Task `index` finished with `output`.
    Finished {
        /// The task's number.
        index: u64,
        /// The worker.
        worker: usize,
        /// What it gave.
        output: O,
    },
    /// Task `index` will never start: a [`Stop::SkipTo`] jumped over it.
    Skipped {
        /// The task's number.
        index: u64,
    },
}

/// Which tasks run, and when to stop.
pub struct Schedule<'a, T, O> {
    /// Task number `n`, or `None` past the last (numbers are asked in increasing order;
    /// the first `None` ends the pool).
    pub tasks: &'a (dyn Fn(u64) -> Option<T> + Sync),
    /// The stopping rule, asked on the worker as each task finishes ([`go`]: none).
    pub stop: &'a (dyn Fn(u64, &O) -> Stop + Sync),
    /// No number is taken after this instant.
    pub deadline: Option<Instant>,
    /// Whether [`Event::Started`] is sent. Each event wakes the calling thread, which on a
    /// machine of two cores takes time from the runs themselves: only a reporter that
    /// shows what is under way asks for it.
    pub announce: bool,
}

/// The rule that never stops.
pub fn go<O>(_index: u64, _output: &O) -> Stop {
    Stop::Go
}

/// Runs the schedule's tasks on one worker thread per executor until the tasks end, a
/// stopping rule or the deadline says so, an executor fails, or the reporter does.
/// `reporter` gets every event of every task that started, on this thread, as they come
/// (also after a failure: tasks under way still finish and are reported), except after
/// it has failed itself. The first error (an executor's or the reporter's) is returned.
pub fn run<E, R>(
    executors: &mut [E],
    schedule: &Schedule<'_, E::Task, E::Output>,
    mut reporter: R,
) -> Result<(), E::Error>
where
    E: Executor + Send,
    E::Output: Send,
    E::Error: Send,
    R: FnMut(Event<E::Output>) -> Result<(), E::Error>,
{
    let counters = Counters {
        next: AtomicU64::new(0),
        limit: AtomicU64::new(u64::MAX),
        jumped: AtomicBool::new(false),
        jumps: Mutex::new(Vec::new()),
    };
    let (sender, receiver) = channel();
    std::thread::scope(|scope| {
        let reporter_thread = std::thread::current();
        let workers = executors.len() as u64;
        for (worker, executor) in executors.iter_mut().enumerate() {
            let (sender, counters) = (sender.clone(), &counters);
            let reporter_thread = reporter_thread.clone();
            scope.spawn(move || {
                work((worker, workers), executor, schedule, counters, &sender);
                // The reporter is not woken by events, only by the end: its sender first,
                // so that a woken reporter finds the channel closed when it was the last.
                drop(sender);
                reporter_thread.unpark();
            });
        }
        // The loop below ends when the last worker ends and drops its sender.
        drop(sender);
        let mut error = None;
        let mut reporting = true;
        for message in arrivals(&receiver) {
            match message {
                Message::Event(event) if reporting => {
                    if let Err(e) = reporter(event) {
                        reporting = false;
                        counters.stop_all();
                        error.get_or_insert(e);
                    }
                }
                Message::Event(_) => {}
                Message::Failed(e) => {
                    error.get_or_insert(e);
                }
            }
        }
        error.map_or(Ok(()), Err)
    })
}

/// How often the calling thread looks for events. It is not woken by each one: on a
/// machine of two cores, a wake for every run (two thousand a second in a fuzz run) takes
/// the CPU from the runs themselves (measured: 3-9% of a batch's or a fuzz run's wall
/// time, `cargo bench -p grader --bench against`), and a reporter needs no fresher news
/// than this (stopping is decided on the workers, not here). A worker that ends wakes it.
const TICK: std::time::Duration = std::time::Duration::from_millis(5);

/// The messages of `receiver` as they arrive, read every [`TICK`] rather than on each
/// send; the last ones as soon as every worker has ended (each unparks this thread).
fn arrivals<M>(receiver: &std::sync::mpsc::Receiver<M>) -> impl Iterator<Item = M> + '_ {
    let mut waiting: std::collections::VecDeque<M> = std::collections::VecDeque::new();
    let mut ended = false;
    std::iter::from_fn(move || {
        loop {
            if let Some(message) = waiting.pop_front() {
                return Some(message);
            }
            if ended {
                return None;
            }
            loop {
                match receiver.try_recv() {
                    Ok(message) => waiting.push_back(message),
                    Err(std::sync::mpsc::TryRecvError::Empty) => break,
                    Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                        ended = true;
                        break;
                    }
                }
            }
            if waiting.is_empty() && !ended {
                std::thread::park_timeout(TICK);
            }
        }
    })
}

/// What the workers share.
struct Counters {
    /// The next number to take.
    next: AtomicU64,
    /// Numbers from this one on are not started.
    limit: AtomicU64,
    /// Whether [`Counters::jumps`] holds any: read before every number taken ahead, and
    /// written only by a [`Stop::SkipTo`], so it costs nothing shared in the common case.
    jumped: AtomicBool,
    /// The numbers each [`Stop::SkipTo`] jumped over: after the task that asked, up to
    /// the one it named (a number taken ahead of its start in there does not start).
    jumps: Mutex<Vec<std::ops::Range<u64>>>,
}

impl Counters {
    fn stop_all(&self) {
        self.limit.store(0, Ordering::SeqCst);
    }

    /// Records that the numbers of `range` must not start.
    fn jump(&self, range: std::ops::Range<u64>) {
        self.jumps
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(range);
        self.jumped.store(true, Ordering::SeqCst);
    }

    /// Whether a [`Stop::SkipTo`] jumped over `index`.
    fn jumped_over(&self, index: u64) -> bool {
        self.jumped.load(Ordering::SeqCst)
            && self
                .jumps
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .iter()
                .any(|range| range.contains(&index))
    }
}

/// What a worker sends to the calling thread.
enum Message<O, E> {
    Event(Event<O>),
    Failed(E),
}

/// One worker: takes numbers until the schedule ends or something stops it.
fn work<E: Executor>(
    (worker, workers): (usize, u64),
    executor: &mut E,
    schedule: &Schedule<'_, E::Task, E::Output>,
    counters: &Counters,
    sender: &Sender<Message<E::Output, E::Error>>,
) {
    let send = |message| sender.send(message).is_ok();
    // Asked before a number is taken: every number taken is run (unless a stop rule
    // ruled it out), so the numbers run are 0, 1, 2… without a gap.
    let take = || {
        if schedule.deadline.is_some_and(|d| Instant::now() >= d) {
            return None;
        }
        let index = counters.next.fetch_add(1, Ordering::SeqCst);
        Some((index, (schedule.tasks)(index)?))
    };
    let mut ahead = None;
    loop {
        let (index, task) = match ahead.take() {
            // Taken ahead, it has not started: a stop that jumped over it since keeps it
            // from starting, as it would have kept it from being taken.
            Some((index, _)) if counters.jumped_over(index) => {
                if !send(Message::Event(Event::Skipped { index })) {
                    return;
                }
                continue;
            }
            Some(taken) => taken,
            None => match take() {
                Some(taken) => taken,
                None => return,
            },
        };
        // Asked after the task is made, the last moment before it starts: a stop that took
        // effect while it was being made (a fuzz input drawn), or while it waited as the
        // next one, keeps it from starting.
        if index >= counters.limit.load(Ordering::SeqCst) {
            return;
        }
        if schedule.announce && !send(Message::Event(Event::Started { index, worker })) {
            return;
        }
        let output = if E::LOOKAHEAD {
            // Only while every other worker has a task left besides: a worker that holds
            // the next task must never leave another idle (two cases on two workers run
            // side by side).
            let next = counters.next.load(Ordering::SeqCst);
            ahead = (schedule.tasks)(next.saturating_add(workers - 1))
                .is_some()
                .then(take)
                .flatten();
            executor.execute_then(index, task, ahead.as_ref().map(|(_, task)| task))
        } else {
            executor.execute(index, task)
        };
        let output = match output {
            Ok(output) => output,
            Err(e) => {
                counters.stop_all();
                send(Message::Failed(e));
                return;
            }
        };
        // The rule takes effect before the event leaves: a reporter that sees a task that
        // stops the pool knows that nothing it ruled out will start.
        let skipped = match (schedule.stop)(index, &output) {
            Stop::Go => 0..0,
            Stop::After(last) => {
                counters
                    .limit
                    .fetch_min(last.saturating_add(1), Ordering::SeqCst);
                0..0
            }
            Stop::SkipTo(first) => {
                counters.jump(index.saturating_add(1)..first);
                counters.next.fetch_max(first, Ordering::SeqCst)..first
            }
        };
        if !send(Message::Event(Event::Finished {
            index,
            worker,
            output,
        })) {
            return;
        }
        for index in skipped {
            send(Message::Event(Event::Skipped { index }));
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::sync::{Condvar, Mutex};
    use std::time::Duration;

    use super::*;

    /// Doubles its task; fails on `fails`; waits at `waits` until the reporter has been told
    /// that the number it names finished (so that one task finishes after a later one, by
    /// order, not by time).
    #[derive(Default)]
    struct Fake<'a> {
        fails: Option<u64>,
        waits: Option<(u64, u64)>,
        finished: Option<&'a Finished>,
    }

    /// The numbers the reporter has been told of, for a fake that waits for one.
    #[derive(Default)]
    struct Finished {
        numbers: Mutex<BTreeSet<u64>>,
        changed: Condvar,
    }

    impl Finished {
        fn add(&self, index: u64) {
            self.numbers.lock().unwrap().insert(index);
            self.changed.notify_all();
        }

        /// Waits for `index` (a test that would hang fails instead).
        fn wait_for(&self, index: u64) {
            let numbers = self.numbers.lock().unwrap();
            let (_numbers, timeout) = self
                .changed
                .wait_timeout_while(numbers, Duration::from_mins(2), |n| !n.contains(&index))
                .unwrap();
            assert!(!timeout.timed_out(), "task {index} never finished");
        }
    }

    impl Executor for Fake<'_> {
        type Task = u64;
        type Output = u64;
        type Error = String;

        fn execute(&mut self, index: u64, task: u64) -> Result<u64, String> {
            if let (Some((at, until)), Some(finished)) = (self.waits, self.finished)
                && at == index
            {
                finished.wait_for(until);
            }
            if self.fails == Some(index) {
                return Err(format!("cannot run {index}"));
            }
            Ok(task * 2)
        }
    }

    fn fakes(n: usize) -> Vec<Fake<'static>> {
        (0..n).map(|_| Fake::default()).collect()
    }

    fn up_to(end: u64) -> impl Fn(u64) -> Option<u64> + Sync {
        move |n| (n < end).then_some(n)
    }

    /// What a pool run said, and every event it sent.
    type Heard<E> = (
        Result<(), <E as Executor>::Error>,
        Vec<Event<<E as Executor>::Output>>,
    );

    /// Runs the pool and keeps every event.
    fn events<E>(executors: &mut [E], schedule: &Schedule<'_, E::Task, E::Output>) -> Heard<E>
    where
        E: Executor + Send,
        E::Output: Send,
        E::Error: Send,
    {
        let mut seen = Vec::new();
        let result = run(executors, schedule, |event| {
            seen.push(event);
            Ok(())
        });
        (result, seen)
    }

    fn finished<O: Copy>(events: &[Event<O>]) -> Vec<(u64, O)> {
        events
            .iter()
            .filter_map(|e| match e {
                Event::Finished { index, output, .. } => Some((*index, *output)),
                _ => None,
            })
            .collect()
    }

    fn numbers<O>(events: &[Event<O>], started: bool) -> BTreeSet<u64> {
        events
            .iter()
            .filter_map(|e| match e {
                Event::Started { index, .. } if started => Some(*index),
                Event::Finished { index, .. } if !started => Some(*index),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn one_worker_runs_every_task_in_order_and_reports_each_start_before_its_end() {
        let tasks = up_to(5);
        let schedule = Schedule {
            tasks: &tasks,
            stop: &go,
            deadline: None,
            announce: true,
        };
        let (result, seen) = events(&mut fakes(1), &schedule);
        assert_eq!(result, Ok(()));
        let mut expected = Vec::new();
        for index in 0..5 {
            expected.push(Event::Started { index, worker: 0 });
            expected.push(Event::Finished {
                index,
                worker: 0,
                output: index * 2,
            });
        }
        assert_eq!(seen, expected);
    }

    #[test]
    fn many_workers_run_every_task_once_each_start_reported_before_its_end() {
        let tasks = up_to(200);
        let schedule = Schedule {
            tasks: &tasks,
            stop: &go,
            deadline: None,
            announce: true,
        };
        let (result, seen) = events(&mut fakes(4), &schedule);
        assert_eq!(result, Ok(()));
        let mut done = finished(&seen);
        assert_eq!(done.len(), 200, "each task finished once");
        done.sort_unstable();
        assert_eq!(done, (0..200).map(|n| (n, n * 2)).collect::<Vec<_>>());
        for index in 0..200 {
            let at = |started: bool| {
                seen.iter().position(|e| match e {
                    Event::Started { index: i, .. } => started && *i == index,
                    Event::Finished { index: i, .. } => !started && *i == index,
                    Event::Skipped { .. } => false,
                })
            };
            assert!(at(true) < at(false), "task {index}");
        }
    }

    #[test]
    fn the_workers_are_told_apart_in_the_events() {
        let tasks = up_to(50);
        let schedule = Schedule {
            tasks: &tasks,
            stop: &go,
            deadline: None,
            announce: true,
        };
        let (_, seen) = events(&mut fakes(3), &schedule);
        for event in &seen {
            if let Event::Started { worker, .. } | Event::Finished { worker, .. } = event {
                assert!(*worker < 3);
            }
        }
    }

    #[test]
    fn stop_after_at_one_worker_runs_exactly_up_to_the_first_task_that_says_so() {
        let tasks = up_to(100);
        let stop = |n: u64, _: &u64| if n == 6 { Stop::After(n) } else { Stop::Go };
        let schedule = Schedule {
            tasks: &tasks,
            stop: &stop,
            deadline: None,
            announce: true,
        };
        let (result, seen) = events(&mut fakes(1), &schedule);
        assert_eq!(result, Ok(()));
        assert_eq!(numbers(&seen, true), (0..=6).collect());
        assert_eq!(numbers(&seen, false), (0..=6).collect());
    }

    #[test]
    fn the_lowest_stop_wins_and_every_task_below_it_finishes_even_when_it_finishes_last() {
        // Task 5 waits until the reporter has heard of task 9: 9 says stop first, then 5
        // lowers it.
        let done = Finished::default();
        let mut executors: Vec<Fake<'_>> = (0..4)
            .map(|_| Fake {
                waits: Some((5, 9)),
                finished: Some(&done),
                ..Fake::default()
            })
            .collect();
        // A number past 9 is made only once the reporter has heard of 9: by then 9's stop
        // has taken effect (a rule does before its event leaves), so it does not start.
        let tasks = |n: u64| {
            if n > 9 {
                done.wait_for(9);
            }
            (n < 1000).then_some(n)
        };
        let stop = |n: u64, _: &u64| {
            if n == 5 || n == 9 {
                Stop::After(n)
            } else {
                Stop::Go
            }
        };
        let schedule = Schedule {
            tasks: &tasks,
            stop: &stop,
            deadline: None,
            announce: true,
        };
        let mut seen = Vec::new();
        let result = run(&mut executors, &schedule, |event| {
            if let Event::Finished { index, .. } = event {
                done.add(index);
            }
            seen.push(event);
            Ok(())
        });
        assert_eq!(result, Ok(()));
        let ran = numbers(&seen, false);
        assert!((0..=9).all(|n| ran.contains(&n)), "{ran:?}");
        // After 9's stop nothing past 9 starts.
        assert!(ran.iter().all(|&n| n <= 9), "{ran:?}");
        let at = |index: u64| {
            seen.iter()
                .position(|e| matches!(e, Event::Finished { index: i, .. } if *i == index))
        };
        assert!(at(9) < at(5), "9 finished first");
    }

    #[test]
    fn skip_to_jumps_over_tasks_not_taken_and_reports_them_skipped() {
        let tasks = up_to(10);
        let stop = |n: u64, _: &u64| if n == 2 { Stop::SkipTo(6) } else { Stop::Go };
        let schedule = Schedule {
            tasks: &tasks,
            stop: &stop,
            deadline: None,
            announce: true,
        };
        let (result, seen) = events(&mut fakes(1), &schedule);
        assert_eq!(result, Ok(()));
        assert_eq!(numbers(&seen, false), [0, 1, 2, 6, 7, 8, 9].into());
        let skipped: Vec<u64> = seen
            .iter()
            .filter_map(|e| match e {
                Event::Skipped { index } => Some(*index),
                _ => None,
            })
            .collect();
        assert_eq!(skipped, [3, 4, 5]);
        // Reported after the task that skipped them.
        let two = seen
            .iter()
            .position(|e| matches!(e, Event::Finished { index: 2, .. }))
            .unwrap();
        assert!(
            seen[two + 1..]
                .iter()
                .take(3)
                .all(|e| matches!(e, Event::Skipped { .. }))
        );
    }

    /// Groups of ten: a task ending in 3 skips the rest of its group.
    #[expect(
        clippy::trivially_copy_pass_by_ref,
        reason = "a stopping rule is told of its task's output by reference"
    )]
    fn skip_the_rest_of_each_ten(n: u64, _: &u64) -> Stop {
        if n % 10 == 3 {
            Stop::SkipTo(n / 10 * 10 + 10)
        } else {
            Stop::Go
        }
    }

    #[test]
    fn with_many_workers_every_task_is_either_finished_or_skipped_exactly_once() {
        let tasks = up_to(300);
        let schedule = Schedule {
            tasks: &tasks,
            stop: &skip_the_rest_of_each_ten,
            deadline: None,
            announce: true,
        };
        let (result, seen) = events(&mut fakes(4), &schedule);
        assert_eq!(result, Ok(()));
        let mut accounted: Vec<u64> = seen
            .iter()
            .filter_map(|e| match e {
                Event::Finished { index, .. } | Event::Skipped { index } => Some(*index),
                Event::Started { .. } => None,
            })
            .collect();
        accounted.sort_unstable();
        assert_eq!(accounted, (0..300).collect::<Vec<_>>());
        // Every group's first four always run: they are numbered before the skip.
        let ran = numbers(&seen, false);
        assert!((0..300).filter(|n| n % 10 <= 3).all(|n| ran.contains(&n)));
    }

    #[test]
    fn a_pool_past_its_deadline_starts_nothing() {
        let tasks = up_to(10);
        let schedule = Schedule {
            tasks: &tasks,
            stop: &go,
            deadline: Some(Instant::now()),
            announce: true,
        };
        let (result, seen) = events(&mut fakes(3), &schedule);
        assert_eq!(result, Ok(()));
        assert!(seen.is_empty(), "{seen:?}");
    }

    /// Waits past the deadline on every task from 3 on.
    struct Slow {
        deadline: Instant,
    }

    impl Executor for Slow {
        type Task = ();
        type Output = ();
        type Error = String;

        fn execute(&mut self, index: u64, (): ()) -> Result<(), String> {
            while index >= 3 && Instant::now() < self.deadline {
                std::thread::sleep(Duration::from_millis(5));
            }
            Ok(())
        }
    }

    #[test]
    fn the_tasks_run_before_a_deadline_are_numbered_without_a_gap() {
        for workers in [1, 4] {
            let deadline = Instant::now() + Duration::from_millis(300);
            let mut executors: Vec<Slow> = (0..workers).map(|_| Slow { deadline }).collect();
            let tasks = |_| Some(());
            let schedule = Schedule {
                tasks: &tasks,
                stop: &go,
                deadline: Some(deadline),
                announce: true,
            };
            let (result, seen) = events(&mut executors, &schedule);
            assert_eq!(result, Ok(()));
            let ran = numbers(&seen, false);
            assert_eq!(ran, numbers(&seen, true), "every start finished");
            let count = ran.len() as u64;
            assert_eq!(ran, (0..count).collect(), "{workers} workers");
        }
    }

    #[test]
    fn the_first_executor_error_stops_the_pool_and_is_returned() {
        let tasks = up_to(100);
        let schedule = Schedule {
            tasks: &tasks,
            stop: &go,
            deadline: None,
            announce: true,
        };
        let mut one = [Fake {
            fails: Some(3),
            ..Fake::default()
        }];
        let (result, seen) = events(&mut one, &schedule);
        assert_eq!(result, Err("cannot run 3".to_owned()));
        assert_eq!(numbers(&seen, false), (0..3).collect());
        assert_eq!(numbers(&seen, true), (0..=3).collect());
        // With several workers the error still comes back, and the pool ends.
        let mut many: Vec<Fake<'_>> = (0..4)
            .map(|_| Fake {
                fails: Some(3),
                ..Fake::default()
            })
            .collect();
        let (result, seen) = events(&mut many, &schedule);
        assert_eq!(result, Err("cannot run 3".to_owned()));
        assert!(numbers(&seen, true).len() < 100);
    }

    #[test]
    fn a_reporter_error_stops_the_pool_and_the_reporter_hears_nothing_more() {
        let tasks = up_to(100);
        let schedule = Schedule {
            tasks: &tasks,
            stop: &go,
            deadline: None,
            announce: true,
        };
        let mut calls = 0;
        let result = run(&mut fakes(1), &schedule, |event| {
            calls += 1;
            match event {
                Event::Finished { index: 1, .. } => Err("the journal is full".to_owned()),
                _ => Ok(()),
            }
        });
        assert_eq!(result, Err("the journal is full".to_owned()));
        // Started 0, Finished 0, Started 1, Finished 1: then the pool stopped.
        assert_eq!(calls, 4);
    }

    #[test]
    fn no_executor_runs_nothing() {
        let tasks = up_to(10);
        let schedule = Schedule {
            tasks: &tasks,
            stop: &go,
            deadline: None,
            announce: true,
        };
        let (result, seen) = events(&mut fakes(0), &schedule);
        assert_eq!((result, seen.len()), (Ok(()), 0));
    }

    #[test]
    fn a_schedule_that_does_not_announce_sends_no_started_event() {
        let tasks = |n: u64| (n < 5).then_some(n);
        let schedule = Schedule {
            tasks: &tasks,
            stop: &go,
            deadline: None,
            announce: false,
        };
        let mut events = Vec::new();
        run(
            &mut [Fake::default(), Fake::default()],
            &schedule,
            |event| {
                events.push(event);
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(events.len(), 5);
        assert!(events.iter().all(|e| matches!(e, Event::Finished { .. })));
    }

    /// Records each task it runs with the next one it is told of.
    #[derive(Default)]
    struct Peeker {
        told: Vec<(u64, Option<u64>)>,
    }

    impl Executor for Peeker {
        type Task = u64;
        type Output = u64;
        type Error = String;

        const LOOKAHEAD: bool = true;

        fn execute(&mut self, index: u64, task: u64) -> Result<u64, String> {
            self.execute_then(index, task, None)
        }

        fn execute_then(&mut self, _: u64, task: u64, next: Option<&u64>) -> Result<u64, String> {
            self.told.push((task, next.copied()));
            Ok(task)
        }
    }

    fn skipped<O>(events: &[Event<O>]) -> BTreeSet<u64> {
        events
            .iter()
            .filter_map(|e| match e {
                Event::Skipped { index } => Some(*index),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_worker_that_looks_ahead_is_told_each_next_task_and_runs_it_next() {
        let tasks = up_to(4);
        let schedule = Schedule {
            tasks: &tasks,
            stop: &go,
            deadline: None,
            announce: false,
        };
        let mut peekers = [Peeker::default()];
        let (result, _) = events(&mut peekers, &schedule);
        assert_eq!(result, Ok(()));
        assert_eq!(
            peekers[0].told,
            [(0, Some(1)), (1, Some(2)), (2, Some(3)), (3, None)]
        );
        // Two tasks on two workers: neither takes the other's ahead, so both may go at
        // once.
        let tasks = up_to(2);
        let schedule = Schedule {
            tasks: &tasks,
            ..schedule
        };
        let mut peekers = [Peeker::default(), Peeker::default()];
        let (result, _) = events(&mut peekers, &schedule);
        assert_eq!(result, Ok(()));
        let told: Vec<_> = peekers.iter().flat_map(|p| p.told.clone()).collect();
        assert_eq!(told.len(), 2);
        assert!(told.iter().all(|(_, next)| next.is_none()), "{told:?}");
    }

    #[test]
    fn a_task_taken_ahead_starts_not_past_a_stop_nor_where_a_skip_jumped() {
        let tasks = up_to(10);
        let after = |n: u64, _: &u64| if n == 2 { Stop::After(2) } else { Stop::Go };
        let schedule = Schedule {
            tasks: &tasks,
            stop: &after,
            deadline: None,
            announce: false,
        };
        let mut peekers = [Peeker::default()];
        let (result, seen) = events(&mut peekers, &schedule);
        assert_eq!(result, Ok(()));
        assert_eq!(numbers(&seen, false), [0, 1, 2].into());
        // Told of 3, which never started.
        assert_eq!(peekers[0].told.last(), Some(&(2, Some(3))));

        let skip = |n: u64, _: &u64| if n == 2 { Stop::SkipTo(6) } else { Stop::Go };
        let schedule = Schedule {
            stop: &skip,
            ..schedule
        };
        let mut peekers = [Peeker::default()];
        let (result, seen) = events(&mut peekers, &schedule);
        assert_eq!(result, Ok(()));
        assert_eq!(numbers(&seen, false), [0, 1, 2, 6, 7, 8, 9].into());
        // 3 was taken ahead when 2 jumped over it: skipped, as the others.
        assert_eq!(skipped(&seen), [3, 4, 5].into());
    }

    #[test]
    fn workers_that_look_ahead_finish_or_skip_every_task_exactly_once() {
        let tasks = up_to(300);
        let schedule = Schedule {
            tasks: &tasks,
            stop: &skip_the_rest_of_each_ten,
            deadline: None,
            announce: false,
        };
        let mut peekers: Vec<Peeker> = (0..4).map(|_| Peeker::default()).collect();
        let (result, seen) = events(&mut peekers, &schedule);
        assert_eq!(result, Ok(()));
        let mut accounted: Vec<u64> = seen
            .iter()
            .filter_map(|e| match e {
                Event::Finished { index, .. } | Event::Skipped { index } => Some(*index),
                Event::Started { .. } => None,
            })
            .collect();
        accounted.sort_unstable();
        assert_eq!(accounted, (0..300).collect::<Vec<_>>());
        // Nothing a skip jumped over ran after the skip: every group's tasks past its 3
        // either ran before it was known or were skipped, and none ran twice.
        let ran: Vec<u64> = peekers
            .iter()
            .flat_map(|p| p.told.iter().map(|(task, _)| *task))
            .collect();
        assert_eq!(ran.len(), numbers(&seen, false).len());
    }
}
