//! One file per subcommand: each turns parsed arguments into domain calls and a [`Status`].

mod cases;
mod check;
mod generate;
mod problems;
mod solve;
mod test;
mod validate;

use crate::cli::Command;
use crate::status::{Fault, Status};

/// Runs one subcommand.
pub(crate) fn run(command: Command) -> Result<Status, Fault> {
    match command {
        Command::Problems => Ok(problems::run()),
        Command::Solve {
            problem,
            file,
            strict,
        } => solve::run(problem, file.as_deref(), strict),
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
        Command::Test(args) => test::run(&args),
    }
}

/// How a path is named in messages: the path, or `<stdin>`.
fn display_name(path: Option<&std::path::Path>) -> std::path::PathBuf {
    path.map_or_else(|| "<stdin>".into(), std::path::Path::to_path_buf)
}
