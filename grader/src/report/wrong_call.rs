//! A wrong call, as clap reports it, turned into the one line of cli.md.
//!
//! clap spreads what matters over several lines (the names of the missing arguments, the
//! valid values, "a similar argument exists"), and the first line alone names none of it.
//! The line is rebuilt here from the error's context, for every command and flag alike.
//! Help and version are printed as clap writes them.

use std::fmt::Write as _;
use std::process::ExitCode;

use clap::CommandFactory as _;
use clap::error::{ContextKind, ContextValue, ErrorKind};

use super::terminal;

/// Prints what clap has to say: help and version to stdout (exit 0), a wrong call as one
/// line on stderr with a pointer to `--help` (exit 2).
pub(crate) fn clap_error(error: &clap::Error) -> ExitCode {
    match error.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            terminal::out(&error.render().to_string());
            match terminal::finish() {
                Ok(()) => ExitCode::SUCCESS,
                Err(fault) => {
                    terminal::error(&fault.to_string());
                    fault.exit_code()
                }
            }
        }
        _ => {
            let command = command_path(std::env::args_os().skip(1));
            terminal::error(&one_line(error, &command));
            ExitCode::from(2)
        }
    }
}

/// The one line (without the `grader: error: ` prefix) that says what is wrong with the
/// call, what was expected, and where the help is.
///
/// `command` is the command the call was for (see [`command_path`]).
pub(crate) fn one_line(error: &clap::Error, command: &str) -> String {
    let mut line = fact(error, command);
    for (kind, what) in [
        (ContextKind::SuggestedArg, "argument"),
        (ContextKind::SuggestedSubcommand, "command"),
        (ContextKind::SuggestedValue, "value"),
    ] {
        if let Some(names) = strings(error, kind) {
            let _ = write!(line, "; a similar {what} exists: {}", names.join(", "));
        }
    }
    if let Some(ContextValue::StyledStrs(tips)) = error.get(ContextKind::Suggested) {
        for tip in tips {
            let _ = write!(line, "; tip: {tip}");
        }
    }
    let _ = write!(line, " (see `{command} --help`)");
    line
}

/// What is wrong, with what was expected when clap knows it.
fn fact(error: &clap::Error, command: &str) -> String {
    let arg = text(error, ContextKind::InvalidArg);
    let value = text(error, ContextKind::InvalidValue);
    match error.kind() {
        ErrorKind::MissingRequiredArgument => {
            let names = strings(error, ContextKind::InvalidArg).unwrap_or_default();
            let noun = if names.len() == 1 {
                "argument"
            } else {
                "arguments"
            };
            format!("missing required {noun}: {}", names.join(", "))
        }
        ErrorKind::InvalidValue => {
            let valid = strings(error, ContextKind::ValidValue).unwrap_or_default();
            let expected = if valid.is_empty() {
                String::new()
            } else {
                format!("expected one of {}", valid.join(", "))
            };
            match (arg, value) {
                (Some(arg), Some(value)) if value.is_empty() => {
                    let mut line = format!("{}: a value is required", flag(&arg));
                    if !expected.is_empty() {
                        let _ = write!(line, " ({expected})");
                    }
                    line
                }
                (Some(arg), Some(value)) if !expected.is_empty() => {
                    format!("{} {value}: {expected}", flag(&arg))
                }
                _ => first_line(error),
            }
        }
        // A value a flag's own parser refused (`--jobs -1`, `--time-limit 0`): the flag,
        // the value and what the parser expected, as for a value not among the valid ones.
        ErrorKind::ValueValidation => {
            let why = std::error::Error::source(error).map(ToString::to_string);
            match (arg, value, why) {
                (Some(arg), Some(value), Some(why)) if value.is_empty() => {
                    format!("{}: {why}", flag(&arg))
                }
                (Some(arg), Some(value), Some(why)) => format!("{} {value}: {why}", flag(&arg)),
                _ => first_line(error),
            }
        }
        // `grader` or `grader cases` alone: clap would print the whole help; one line
        // that lists the commands keeps cli.md's promise.
        ErrorKind::MissingSubcommand | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            format!(
                "`{command}` needs a command: one of {}",
                subcommands(command).join(", ")
            )
        }
        ErrorKind::InvalidSubcommand => format!(
            "{}: expected one of {}",
            first_line(error),
            subcommands(command).join(", ")
        ),
        _ => first_line(error),
    }
}

/// An option without its placeholder (`--layout`, not `--layout <LAYOUT>`); a positional
/// argument as it is (`<PROBLEM>`).
fn flag(arg: &str) -> &str {
    if arg.starts_with('-') {
        arg.split_whitespace().next().unwrap_or(arg)
    } else {
        arg
    }
}

/// The first line of clap's own rendering, without its `error: ` prefix: the fallback for
/// kinds whose first line already says it all (`invalid value 'x' for '--seed <SEED>':
/// invalid digit found in string`).
fn first_line(error: &clap::Error) -> String {
    let rendered = error.render().to_string();
    let first = rendered
        .lines()
        .find(|line| !line.trim().is_empty())
        .unwrap_or("invalid arguments");
    first.strip_prefix("error: ").unwrap_or(first).to_owned()
}

/// The command a call was for (`grader test`, `grader cases check`): the subcommand
/// names at the start of `args` (the arguments after the program's name), walked down
/// the command tree. clap attaches a usage to some errors only, so the call itself is
/// read.
pub(crate) fn command_path<S: AsRef<std::ffi::OsStr>>(args: impl IntoIterator<Item = S>) -> String {
    let mut command = crate::cli::args::Cli::command();
    let mut path = vec![command.get_name().to_owned()];
    for arg in args {
        let Some(arg) = arg.as_ref().to_str() else {
            break;
        };
        let Some(sub) = command.find_subcommand(arg).cloned() else {
            break;
        };
        path.push(sub.get_name().to_owned());
        command = sub;
    }
    path.join(" ")
}

/// The names of the subcommands of `command` (a path such as `grader cases`).
fn subcommands(command: &str) -> Vec<String> {
    let mut at = crate::cli::args::Cli::command();
    for name in command.split_whitespace().skip(1) {
        match at.find_subcommand(name).cloned() {
            Some(sub) => at = sub,
            None => return Vec::new(),
        }
    }
    at.get_subcommands()
        .filter(|sub| !sub.is_hide_set() && sub.get_name() != "help")
        .map(|sub| sub.get_name().to_owned())
        .collect()
}

/// A piece of context as plain text (styles dropped).
fn text(error: &clap::Error, kind: ContextKind) -> Option<String> {
    match error.get(kind)? {
        ContextValue::String(s) => Some(s.clone()),
        ContextValue::StyledStr(s) => Some(s.to_string()),
        ContextValue::Strings(list) => Some(list.join(", ")),
        _ => None,
    }
}

/// A piece of context that is a list of names.
fn strings(error: &clap::Error, kind: ContextKind) -> Option<Vec<String>> {
    match error.get(kind)? {
        ContextValue::Strings(list) => Some(list.clone()),
        ContextValue::String(s) => Some(vec![s.clone()]),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser as _;

    use super::*;
    use crate::cli::args::Cli;

    fn line(args: &[&str]) -> String {
        let error = Cli::try_parse_from(std::iter::once("grader").chain(args.iter().copied()))
            .expect_err("a wrong call");
        one_line(&error, &command_path(args))
    }

    #[test]
    fn missing_arguments_are_named() {
        assert_eq!(
            line(&["test"]),
            "missing required arguments: <PROBLEM>, <SUBMISSION> \
             (see `grader test --help`)"
        );
        assert_eq!(
            line(&["check", "flip", "in"]),
            "missing required argument: <OUTPUT> (see `grader check --help`)"
        );
    }

    #[test]
    fn invalid_values_list_the_valid_ones() {
        assert_eq!(
            line(&["batch", "flip", "class", "--layout", "weird"]),
            "--layout weird: expected one of auto, folders, files \
             (see `grader batch --help`)"
        );
    }

    #[test]
    fn a_missing_or_unknown_command_lists_the_commands() {
        assert_eq!(
            line(&["cases"]),
            "`grader cases` needs a command: one of regen, check, power \
             (see `grader cases --help`)"
        );
        let top = line(&[]);
        assert!(
            top.starts_with("`grader` needs a command: one of problems, solve, check, "),
            "{top}"
        );
        assert!(line(&["nosuch"]).starts_with(
            "unrecognized subcommand 'nosuch': expected one of problems, solve, check, "
        ));
    }

    #[test]
    fn a_refused_value_names_its_flag_and_what_was_expected() {
        assert_eq!(
            line(&["test", "flip", "a.c", "--jobs", "-1"]),
            "--jobs -1: expected a whole number from 1 to 256, got `-1` \
             (see `grader test --help`)"
        );
        assert_eq!(
            line(&["test", "flip", "a.c", "--time-limit", "-1"]),
            "--time-limit -1: expected a positive duration, got `-1` (see `grader test --help`)"
        );
    }

    #[test]
    fn a_missing_value_lists_the_valid_ones_too() {
        assert_eq!(
            line(&["test", "flip", "a.c", "--report"]),
            "--report: a value is required (expected one of human, json, junit, gradescope) \
             (see `grader test --help`)"
        );
    }

    #[test]
    fn the_help_pointed_to_is_the_commands() {
        assert_eq!(
            command_path(["cases", "check", "flip"]),
            "grader cases check"
        );
        assert_eq!(command_path(["nosuch", "test"]), "grader");
        assert_eq!(command_path(["solve", "test"]), "grader solve");
        assert_eq!(command_path(Vec::<String>::new()), "grader");
    }

    #[test]
    fn suggestions_are_kept() {
        let typo = line(&["test", "flip", "a.c", "--time-limt", "1"]);
        assert!(
            typo.contains("a similar argument exists: --time-limit"),
            "{typo}"
        );
    }

    #[test]
    fn every_line_is_one_line() {
        for args in [
            &["nosuch"][..],
            &["gen", "flip"],
            &["gen", "flip", "--seed", "x"],
            &["merge"],
            &["test", "flip", "a.c", "--jobs", "0"],
            &["test", "flip", "a.c", "--report"],
            &["fuzz", "flip", "a.c", "--exhaustive", "--seed", "1"],
        ] {
            let text = line(args);
            assert!(!text.contains('\n'), "{args:?}: {text}");
            assert!(text.ends_with("--help`)"), "{args:?}: {text}");
        }
    }
}
