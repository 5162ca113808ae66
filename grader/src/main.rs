//! `grader`: judges contestant programs for classic board-search problems and for problem
//! packages.
//!
//! A thin binary over the `reference` crate (the problems) and the `sandbox` crate (the
//! box, which holds every `unsafe` block of the project: none here). The command line is
//! read and its exit status decided in `cli/`; each command is a file of `commands/`; a
//! run is boxed and judged in `run/`; sources become programs in `submission/`; case
//! folders are `cases/`, packages `package/`, classes `batch/`, fuzz findings `fuzzing/`;
//! results are held in `results/` and written only by `report/`; paths and the files at
//! them are `paths/`, and every key kept on disk is framed by `keys.rs`. The exit
//! statuses are cli.md's: 0 all good, 1 the submission or the data failed, 2 the call is
//! wrong, 3 the grader is broken.
#![forbid(unsafe_code)]

mod batch;
mod cases;
mod cli;
pub(crate) mod commands;
mod fuzzing;
mod keys;
mod package;
mod paths;
mod report;
mod results;
mod run;
mod submission;

use std::process::ExitCode;

use clap::Parser as _;

use crate::cli::exit::Fault;

fn main() -> ExitCode {
    // The box's launcher is this binary too (where no `grader-launcher` is beside it); it
    // must stay small, so it branches off before anything else is set up.
    sandbox::launcher::serve_if_asked();
    sandbox::set_host(&BoxHost);
    cli::interrupt::install();
    install_panic_hook();
    let cli = match cli::args::Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return report::clap_error(&error),
    };
    let result = commands::run(cli.command);
    // What the command printed must have reached stdout: a write that failed there (a
    // full disk) is the call's failure, unless the command failed first.
    let printed = report::finish_stdout();
    let result = result.and_then(|status| printed.map(|()| status));
    sandbox::tiers::settle();
    sandbox::drop_spare();
    paths::temp::remove_own();
    // Once a signal arrived, whatever the command returned (its work done, or an error
    // the stopping caused) the grader says it was stopped.
    let result = cli::interrupt::check().and(result);
    match result {
        Ok(status) => status.exit_code(),
        Err(fault) => {
            report::error(&fault.to_string());
            fault.exit_code()
        }
    }
}

/// What the box asks of the grader: its folders are made in this process's temporary
/// folder (`paths/temp.rs`), removed with it; and a version probe under way stops once a signal
/// came (`cli/interrupt.rs`).
struct BoxHost;

impl sandbox::Host for BoxHost {
    fn temp_dir(&self, name: &str) -> std::io::Result<tempfile::TempDir> {
        paths::temp::dir(name)
    }

    fn stopping(&self) -> bool {
        cli::interrupt::received().is_some()
    }
}

/// A panic is a bug in the grader: say so in one line and exit 3, never 101 (which a
/// script could mistake for a verdict).
fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let place = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".to_owned());
        report::error(&Fault::internal(format!("{what}{place} (please report this)")).to_string());
        paths::temp::remove_own_now();
        std::process::exit(Fault::INTERNAL_EXIT);
    }));
}
