//! The command a fuzz report prints to find its failure again: built from the parsed
//! arguments, field by field, so that every flag that decides what a run does (the
//! submission and its language table, the limits, the tier, shrinking) is carried, and a
//! flag added later cannot be forgotten (the fields are destructured without `..`).

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::path::{Component, Path};
use std::time::Duration;

use sandbox::tiers::Tier;

use crate::cli::args::{FuzzArgs, LimitArgs, ProblemOrPackage, SubmissionArgs};
use crate::results::finding::Source;

use super::shell_quote::quote;

/// Which inputs find the failure again.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Again<'a> {
    /// The seed's runs up to the failing one (regressions neither replayed nor recorded:
    /// the shrunk input may be in the file by now, and would be found first).
    Seeded {
        /// The seed.
        seed: u64,
        /// The failing run, counted from 1.
        runs: u64,
    },
    /// Every input, in order (regressions not replayed, for the same reason).
    Exhaustive,
    /// The regressions file that held it.
    Regressions(&'a Path),
}

impl<'a> Again<'a> {
    /// The inputs that find a failure from `source` again: run `run` (counted from 1) of
    /// `seed`, every input, or the regressions file `regressions` it was replayed from.
    pub(crate) fn of(source: Source, seed: u64, run: u64, regressions: Option<&'a Path>) -> Self {
        match source {
            Source::Seeded => Again::Seeded { seed, runs: run },
            Source::Exhaustive => Again::Exhaustive,
            Source::Regression(_) => Again::Regressions(regressions.expect("replayed from it")),
        }
    }
}

/// A `grader fuzz` command line, word by word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Replay {
    words: Vec<OsString>,
}

impl Replay {
    /// The command that makes the runs of `args` again on `again`'s inputs, in `tier` (the
    /// tier the runs had, which `auto` might not pick on another machine).
    pub(crate) fn new(args: &FuzzArgs, tier: Tier, again: Again<'_>) -> Replay {
        Replay::with_limits(args, &args.limits, tier, again)
    }

    /// [`Replay::new`] with the limit flags `limits` instead of `args`' own: a package's
    /// limits as they were resolved (its `problem.yaml`'s, the time limit its accepted
    /// submissions set), so that the replay neither depends on them staying the same nor
    /// runs the accepted submissions again.
    pub(crate) fn with_limits(
        args: &FuzzArgs,
        limits: &LimitArgs,
        tier: Tier,
        again: Again<'_>,
    ) -> Replay {
        let FuzzArgs {
            problem,
            submission,
            // Replaced by `again`: where the failure is.
            seed: _,
            runs: _,
            duration: _,
            exhaustive: _,
            regressions: _,
            no_regressions: _,
            // Given apart.
            limits: _,
            // Shrinking runs alone, and the finding is the lowest failing run at any
            // number of workers: `--jobs` changes neither.
            jobs: _,
            shrink_steps,
            // Where things are written, not what is found.
            save: _,
            report: _,
            report_file: _,
        } = args;
        let problem: OsString = match problem {
            ProblemOrPackage::Builtin(problem) => problem.id().into(),
            ProblemOrPackage::Package(path) => path.into(),
        };
        let mut words = Words(vec!["grader".into(), "fuzz".into(), problem]);
        words.submission(submission);
        words.limits(limits, tier);
        words.flag("--shrink-steps", shrink_steps.to_string());
        match again {
            Again::Seeded { seed, runs } => {
                words.flag("--seed", seed.to_string());
                words.flag("--runs", runs.to_string());
                words.0.push("--no-regressions".into());
            }
            Again::Exhaustive => {
                words.0.push("--exhaustive".into());
                words.0.push("--no-regressions".into());
            }
            Again::Regressions(file) => words.flag("--regressions", file),
        }
        Replay { words: words.0 }
    }

    /// The words, the program's name first.
    #[cfg(test)]
    fn words(&self) -> &[OsString] {
        &self.words
    }
}

/// The command as one line for a POSIX shell.
impl fmt::Display for Replay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let quoted: Vec<String> = self.words.iter().map(|w| quote(w)).collect();
        f.write_str(&quoted.join(" "))
    }
}

/// Words being added to a command line.
struct Words(Vec<OsString>);

impl Words {
    /// `--name VALUE`, or `--name=VALUE` when the value starts with `-` (it would be read
    /// as a flag of its own).
    fn flag(&mut self, name: &str, value: impl AsRef<OsStr>) {
        let value = value.as_ref();
        if value.as_encoded_bytes().starts_with(b"-") {
            let mut word = OsString::from(format!("{name}="));
            word.push(value);
            self.0.push(word);
        } else {
            self.0.push(name.into());
            self.0.push(value.to_owned());
        }
    }

    /// The program and how it is built.
    fn submission(&mut self, args: &SubmissionArgs) {
        let SubmissionArgs {
            submission,
            cmd,
            lang,
            config,
            cache_dir,
        } = args;
        match (cmd, submission) {
            (Some(line), _) => self.flag("--cmd", line),
            (None, Some(path)) => {
                // `./-x.c`, not `-x.c`, which would be read as a flag.
                if path.as_os_str().as_encoded_bytes().starts_with(b"-") {
                    self.0
                        .push(Path::new(Component::CurDir.as_os_str()).join(path).into());
                } else {
                    self.0.push(path.into());
                }
            }
            (None, None) => {}
        }
        if let Some(lang) = lang {
            self.flag("--lang", lang);
        }
        if let Some(config) = config {
            self.flag("--config", config);
        }
        // The cache holds what a compile made, not what a run does; but a cache folder the
        // user chose may be the only one they can write.
        if let Some(dir) = cache_dir {
            self.flag("--cache-dir", dir);
        }
    }

    /// Every limit, defaults included (a later default must not change a replay), and the
    /// tier the runs had.
    fn limits(&mut self, args: &LimitArgs, tier: Tier) {
        let LimitArgs {
            time_limit,
            wall_limit,
            memory_limit,
            output_limit,
            max_processes,
            // What was asked (`auto` perhaps); `tier` is what it gave.
            sandbox: _,
        } = args;
        // Defaults included: a later default must not change a replay.
        self.flag(
            "--time-limit",
            duration(time_limit.unwrap_or(LimitArgs::TIME)),
        );
        // By default the wall limit follows the CPU limit, which is carried.
        if let Some(wall) = wall_limit {
            self.flag("--wall-limit", duration(*wall));
        }
        self.flag(
            "--memory-limit",
            size(memory_limit.unwrap_or(LimitArgs::MEMORY)),
        );
        self.flag(
            "--output-limit",
            size(output_limit.unwrap_or(LimitArgs::OUTPUT)),
        );
        self.flag("--max-processes", max_processes.to_string());
        self.flag("--sandbox", tier.to_string());
    }
}

/// A duration as `crate::cli::values::duration` reads it back exactly: `2s`, `5ms`, `1.5s`,
/// `0.0000015s`.
fn duration(d: Duration) -> String {
    let nanos = d.subsec_nanos();
    if d.as_secs() == 0 && nanos.is_multiple_of(1_000_000) {
        format!("{}ms", nanos / 1_000_000)
    } else if nanos == 0 {
        format!("{}s", d.as_secs())
    } else {
        let fraction = format!("{nanos:09}");
        format!("{}.{}s", d.as_secs(), fraction.trim_end_matches('0'))
    }
}

/// A size in bytes as `crate::cli::values::size` reads it back exactly: `256MiB`, `3KiB`, `5b`.
fn size(bytes: u64) -> String {
    if bytes.is_multiple_of(1 << 20) {
        format!("{}MiB", bytes >> 20)
    } else if bytes.is_multiple_of(1 << 10) {
        format!("{}KiB", bytes >> 10)
    } else {
        format!("{bytes}b")
    }
}

#[cfg(test)]
mod tests {
    use std::os::unix::ffi::{OsStrExt as _, OsStringExt as _};
    use std::path::PathBuf;
    use std::process::Command as Process;

    use clap::Parser as _;

    use super::*;
    use crate::cli::args::{Cli, Command, Sandbox};

    fn parse(words: &[OsString]) -> FuzzArgs {
        match Cli::try_parse_from(words) {
            Ok(Cli {
                command: Command::Fuzz(args),
            }) => *args,
            other => panic!("not a fuzz call: {words:?}: {other:?}"),
        }
    }

    fn words(line: &[&str]) -> Vec<OsString> {
        line.iter().map(OsString::from).collect()
    }

    fn tier_of(sandbox: Option<Sandbox>) -> Option<Tier> {
        match sandbox? {
            Sandbox::Strict => Some(Tier::Strict),
            Sandbox::Basic => Some(Tier::Basic),
            Sandbox::None => Some(Tier::None),
            Sandbox::Auto => None,
        }
    }

    /// Everything that decides what a run does, as a comparable value.
    fn deciding(args: &FuzzArgs) -> impl PartialEq + fmt::Debug + use<> {
        let s = &args.submission;
        let l = &args.limits;
        (
            args.problem.clone(),
            (s.submission.clone(), s.cmd.clone(), s.lang.clone()),
            (s.config.clone(), s.cache_dir.clone()),
            // A default and the same value given decide the same runs.
            (l.time(), l.wall_limit, l.memory(), l.output()),
            l.max_processes,
            args.shrink_steps,
        )
    }

    #[test]
    fn the_replay_parses_back_to_the_same_runs_and_the_failing_seeded_run() {
        let original = parse(&words(&[
            "grader",
            "fuzz",
            "poj1753",
            "my sol",
            "--lang",
            "mypy",
            "--config=-odd/langs.toml",
            "--cache-dir",
            "cache dir",
            "--time-limit",
            "5ms",
            "--wall-limit",
            "1.25",
            "--memory-limit",
            "300",
            "--output-limit",
            "1536k",
            "--max-processes",
            "3",
            "--sandbox",
            "auto",
            "--shrink-steps",
            "7",
            "--duration",
            "60",
            "--jobs",
            "3",
            "--save",
            "found",
            "--report",
            "json",
        ]));
        let replay = Replay::new(&original, Tier::Basic, Again::Seeded { seed: 42, runs: 9 });
        let again = parse(replay.words());
        assert_eq!(deciding(&again), deciding(&original), "{replay}");
        assert_eq!(tier_of(again.limits.sandbox), Some(Tier::Basic));
        assert_eq!((again.seed, again.runs), (Some(42), Some(9)));
        assert!(again.no_regressions && again.duration.is_none() && again.save.is_none());
        assert!(
            replay
                .to_string()
                .starts_with("grader fuzz flip 'my sol' --lang mypy")
        );
    }

    #[test]
    fn a_command_line_exhaustive_and_regression_findings_replay_their_inputs() {
        let original = parse(&words(&[
            "grader",
            "fuzz",
            "flip",
            "--cmd=-x 'a b'",
            "--exhaustive",
            "--no-regressions",
        ]));
        let replay = Replay::new(&original, Tier::Strict, Again::Exhaustive);
        let again = parse(replay.words());
        assert_eq!(deciding(&again), deciding(&original), "{replay}");
        assert!(again.exhaustive && again.no_regressions && again.seed.is_none());
        let file = PathBuf::from("fuzz-regressions/flip.txt");
        let replay = Replay::new(&original, Tier::None, Again::Regressions(&file));
        let again = parse(replay.words());
        assert_eq!(again.regressions, Some(file));
        assert!(!again.exhaustive && !again.no_regressions && again.runs.is_none());
        assert_eq!(tier_of(again.limits.sandbox), Some(Tier::None));
    }

    #[test]
    fn a_submission_path_that_starts_with_a_dash_is_not_read_as_a_flag() {
        let original = parse(&words(&["grader", "fuzz", "flip", "--", "-sol.c"]));
        let replay = Replay::new(&original, Tier::Basic, Again::Exhaustive);
        let again = parse(replay.words());
        assert_eq!(again.submission.submission, Some(PathBuf::from("./-sol.c")));
    }

    #[test]
    fn sh_splits_the_printed_line_into_the_words_even_when_a_path_is_not_utf8() {
        let mut original = parse(&words(&["grader", "fuzz", "swap", "x"]));
        original.submission.submission = Some(PathBuf::from(OsString::from_vec(
            b"\xe9l\xe8ve's sol.py".to_vec(),
        )));
        original.submission.config = Some(PathBuf::from("tab\there.toml"));
        let replay = Replay::new(&original, Tier::Basic, Again::Seeded { seed: 1, runs: 2 });
        let line = replay.to_string();
        assert!(line.is_ascii(), "{line}");
        let output = Process::new("sh")
            .arg("-c")
            .arg(format!("printf '%s\\0' {line}"))
            .output()
            .expect("sh runs");
        let split: Vec<&[u8]> = output.stdout.split(|&b| b == 0).collect();
        let expected: Vec<&[u8]> = replay.words().iter().map(|w| w.as_bytes()).collect();
        assert_eq!(split[..split.len() - 1], expected[..], "{line}");
    }

    #[test]
    fn limits_are_spelled_so_that_they_read_back_exactly() {
        for d in [
            Duration::from_secs(1),
            Duration::from_millis(5),
            Duration::from_millis(1500),
            Duration::from_nanos(1_500),
            Duration::from_nanos(3_599_999_999_999),
            Duration::from_secs_f64(0.1),
        ] {
            assert_eq!(crate::cli::values::duration(&duration(d)), Ok(d), "{d:?}");
        }
        assert_eq!(duration(Duration::from_millis(5)), "5ms");
        assert_eq!(duration(Duration::from_millis(1500)), "1.5s");
        assert_eq!(duration(Duration::from_secs(2)), "2s");
        for bytes in [
            1,
            1000,
            1 << 10,
            1536 << 10,
            256 << 20,
            1 << 40,
            (1 << 40) - 1,
        ] {
            assert_eq!(crate::cli::values::size(&size(bytes)), Ok(bytes), "{bytes}");
        }
        assert_eq!(size(256 << 20), "256MiB");
    }
}
