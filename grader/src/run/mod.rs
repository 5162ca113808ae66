//! Running and judging one program: `runner` (a worker's means of running programs in
//! the box), `grade` (one submission on every case of a folder), `alone` (runs the machine
//! held back, made again with nothing beside them), `judge` (the facts of one run and its
//! limits turned into a verdict, purely) and `runtime_error` (a runtime's own account of
//! why a program died).

pub(crate) mod alone;
pub(crate) mod grade;
pub(crate) mod judge;
pub(crate) mod runner;
pub(crate) mod runtime_error;
