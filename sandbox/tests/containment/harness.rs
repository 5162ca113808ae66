//! The runner of this test binary: libtest's command line and report, for tests that
//! start workers. A worker's launcher is the running executable itself where no
//! `grader-launcher` is beside it (a test binary has none), so `main` must call
//! `sandbox::launcher::serve_if_asked` before anything else, which libtest's own `main`
//! cannot; hence `harness = false` and this.
//!
//! Tests run one at a time on the main thread: their marks (processes named
//! `grader-hostile`, box uids, files in /tmp) are the machine's, and two at once would see
//! each other's programs as left over. `--test-threads` is taken and has nothing to
//! choose. A test that cannot run here (no root, no tier) passes after saying why on a
//! line of its own, or fails where `CI` is set (see `skip`).

#![expect(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a test runner reports on its output, and says why a test does not run"
)]

use std::io::Write as _;
use std::panic::{self, AssertUnwindSafe};
use std::process::ExitCode;
use std::time::Instant;

/// One test: its name (`module::function`, as libtest names them) and its body.
pub(crate) struct Test {
    pub(crate) name: &'static str,
    pub(crate) run: fn(),
}

/// `Test`s of the functions named, each `module::function`.
#[macro_export]
macro_rules! tests {
    ($($module:ident :: $test:ident),* $(,)?) => {
        &[$($crate::harness::Test {
            name: concat!(stringify!($module), "::", stringify!($test)),
            run: $module::$test,
        }),*]
    };
}

/// What the command line asks.
#[derive(Debug, Default)]
struct Asked {
    filters: Vec<String>,
    skips: Vec<String>,
    exact: bool,
    list: bool,
}

impl Asked {
    /// libtest's arguments, those that mean something here; `Err` names one that does not.
    fn parse(args: impl IntoIterator<Item = String>) -> Result<Asked, String> {
        let mut asked = Asked::default();
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--skip" => asked
                    .skips
                    .push(args.next().ok_or("--skip needs a filter")?),
                "--exact" => asked.exact = true,
                "--list" => asked.list = true,
                // One test at a time whatever is asked (see the module's doc); output is
                // never captured; no test is ignored.
                "--test-threads" | "--color" | "--format" => {
                    args.next().ok_or(format!("{arg} needs a value"))?;
                }
                "--nocapture" | "--show-output" | "--quiet" | "-q" | "--include-ignored"
                | "--ignored" => {}
                _ if arg.starts_with("--test-threads=")
                    || arg.starts_with("--color=")
                    || arg.starts_with("--format=") => {}
                _ if arg.starts_with("--skip=") => asked.skips.push(arg[7..].to_owned()),
                _ if arg.starts_with('-') => return Err(format!("unknown option {arg}")),
                _ => asked.filters.push(arg),
            }
        }
        Ok(asked)
    }

    /// Whether `name` is selected: any filter matches (all when none), no skip does.
    fn selects(&self, name: &str) -> bool {
        let matches = |filter: &String| {
            if self.exact {
                name == filter
            } else {
                name.contains(filter.as_str())
            }
        };
        (self.filters.is_empty() || self.filters.iter().any(matches))
            && !self.skips.iter().any(matches)
    }
}

/// Runs the tests the command line selects, reporting as libtest does.
pub(crate) fn run(tests: &[Test]) -> ExitCode {
    let asked = match Asked::parse(std::env::args().skip(1)) {
        Ok(asked) => asked,
        Err(why) => {
            eprintln!("error: {why}");
            return ExitCode::from(101);
        }
    };
    let selected: Vec<&Test> = tests.iter().filter(|t| asked.selects(t.name)).collect();
    if asked.list {
        for test in &selected {
            println!("{}: test", test.name);
        }
        println!("\n{} tests, 0 benchmarks", selected.len());
        return ExitCode::SUCCESS;
    }
    let start = Instant::now();
    println!("\nrunning {} tests", selected.len());
    let mut failed = Vec::new();
    for test in &selected {
        print!("test {} ... ", test.name);
        let _ = std::io::stdout().flush();
        let ok = panic::catch_unwind(AssertUnwindSafe(test.run)).is_ok();
        // What a test left kept for later (a tier's trial keeps its worker) ends with it:
        // no launcher of one test lives on into the next.
        sandbox::drop_spare();
        println!("{}", if ok { "ok" } else { "FAILED" });
        if !ok {
            failed.push(test.name);
        }
    }
    if !failed.is_empty() {
        println!("\nfailures:");
        for name in &failed {
            println!("    {name}");
        }
    }
    println!(
        "\ntest result: {}. {} passed; {} failed; 0 ignored; 0 measured; {} filtered out; \
         finished in {:.2}s\n",
        if failed.is_empty() { "ok" } else { "FAILED" },
        selected.len() - failed.len(),
        failed.len(),
        tests.len() - selected.len(),
        start.elapsed().as_secs_f64()
    );
    if failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(101)
    }
}

/// Says why a test does not run here, and lets it pass; where `CI` is set, fails instead:
/// CI's machines have what these tests need, and a test that skipped there would hide it.
pub(crate) fn skip(test: &str, why: &str) {
    assert!(
        std::env::var_os("CI").is_none(),
        "{test}: CI must run this test: {why}"
    );
    eprintln!("{test}: skipped: {why}");
}
