//! The grader's test support, shared by its integration tests (`grader/tests/cli`) and its
//! benches (`grader/benches`): each scene they build is written once here.
//!
//! - where things are: the repository, the test fixtures, the sample boards
//!   ([`paths`], [`boards`]);
//! - what a test lays out: files and executable scripts ([`files`], [`scripts`]), a class
//!   of student sources ([`class::Class`]), a case folder ([`cases::CaseFolder`]), a copy
//!   of a test problem package ([`packages`]), a working folder with its own temporary
//!   folder and compile cache ([`scene::Scene`]);
//! - how the binary is called and what it gave ([`grader`], [`output`]), and readers of
//!   the gradebooks and journals it writes ([`gradebook`]);
//! - the problems' rules written again, to replay the witnesses the grader prints
//!   ([`rules`]);
//! - the machine: tools a test needs ([`tools`]), processes left behind ([`processes`]),
//!   the lock of the tests whose marks are machine-wide ([`serial`]);
//! - for the benches: medians, bare runs and compiled helpers ([`measure`], [`programs`],
//!   [`mutants`]).
//!
//! Everything here panics on failure, naming what failed: it serves tests, where a
//! failure is a failed test.

pub mod boards;
pub mod cases;
pub mod class;
pub mod files;
pub mod gradebook;
pub mod grader;
pub mod measure;
pub mod mutants;
pub mod output;
pub mod packages;
pub mod paths;
pub mod processes;
pub mod programs;
pub mod rules;
pub mod scene;
pub mod scripts;
pub mod serial;
pub mod tools;
