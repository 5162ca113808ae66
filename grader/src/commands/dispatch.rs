//! Which subcommand runs: each parsed [`Command`] handed to its file's `run`.

use crate::cli::args::{Command, ProblemOrPackage};
use crate::cli::exit::{Fault, Status};

use super::{
    batch, cases, check, doctor, fuzz, fuzz_package, generate, merge, mutant, package, problems,
    solve, test, validate,
};

/// Runs one subcommand.
pub(crate) fn run(command: Command) -> Result<Status, Fault> {
    match command {
        Command::Problems { problem } => Ok(problems::run(problem)),
        Command::Solve {
            problem,
            file,
            strict,
            explain,
            report,
        } => solve::run(problem, file.as_deref(), strict, explain, report),
        Command::Check {
            problem,
            input,
            output,
            answer,
            report,
        } => check::run(problem, &input, &output, answer.as_deref(), report),
        Command::Validate { problem, files } => validate::run(problem, &files),
        Command::Gen(args) => generate::run(&args),
        Command::Cases(command) => cases::run(command),
        Command::Test(args) => {
            // The first worker is made while the cases are read and the submission built.
            super::flags::warm_up(&args.limits);
            test::run(&args)
        }
        Command::Fuzz(args) => match &args.problem {
            ProblemOrPackage::Builtin(problem) => fuzz::builtin(&args, *problem),
            ProblemOrPackage::Package(path) => fuzz_package::run(&args, path),
        },
        Command::Mutant(args) => mutant::run(&args),
        Command::Batch(args) => batch::run(&args),
        Command::Doctor => Ok(doctor::run()),
        Command::Merge(args) => merge::run(&args),
        Command::Package(command) => package::run(command),
    }
}
