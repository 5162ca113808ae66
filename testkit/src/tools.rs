//! What a test needs of the machine beyond Rust, gcc and python3 (a toolchain, a browser,
//! root): missing, the test fails under CI (`.ci/run` installs everything, and runs as
//! root) and is skipped elsewhere with a line naming what is missing, so that a
//! newcomer's `cargo test` passes on a machine with only the basics.

use std::fs;
use std::io::Write as _;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

/// Says that a test is skipped because the machine lacks what `message` names (`TEST:
/// needs ...`); fails instead under CI, which must have it. Returns `false`, for
/// `return skip(...)` in a check of the machine.
pub fn skip(message: &str) -> bool {
    assert!(
        std::env::var_os("CI").is_none(),
        "{message}: CI must have it"
    );
    // Past the test harness's capture (which keeps a passing test's output): the line
    // must reach whoever ran the suite.
    let _ = writeln!(std::io::stderr().lock(), "skipped {message}");
    false
}

/// Whether every `(command, Debian package)` of `tools` is on this machine's `PATH`;
/// [`skip`] naming the missing ones and their packages when not.
pub fn has_tools(test: &str, tools: &[(&str, &str)]) -> bool {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let missing: Vec<String> = tools
        .iter()
        .filter(|(command, _)| {
            !std::env::split_paths(&path).any(|dir| {
                fs::metadata(dir.join(command))
                    .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
            })
        })
        .map(|(command, package)| format!("`{command}` (Debian package `{package}`)"))
        .collect();
    missing.is_empty() || skip(&format!("{test}: needs {}", missing.join(" and ")))
}

/// A browser, when this machine has one (CI must: `.ci/run` installs Debian's chromium).
pub fn chromium() -> Option<&'static str> {
    let found = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|b| {
            Command::new(b)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        });
    if found.is_none() {
        has_tools("a browser test", &[("chromium", "chromium")]);
    }
    found
}

/// The DOM of `page` as headless `browser` built it (its profile in `profile`); no
/// console message on the way.
pub fn rendered(browser: &str, profile: &Path, page: &Path) -> String {
    let output = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap_or_else(|e| panic!("{browser}: {e}"));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let console: Vec<&str> = stderr.lines().filter(|l| l.contains(":CONSOLE")).collect();
    assert!(
        console.is_empty(),
        "{}: console: {console:?}",
        page.display()
    );
    String::from_utf8(output.stdout).expect("a page in UTF-8")
}

/// Whether this process runs as root (its effective uid is 0): what a test of the
/// grader's own users (the box's uids, `nobody`) or of mounts needs.
pub fn is_root() -> bool {
    fs::read_to_string("/proc/self/status")
        .expect("/proc/self/status")
        .lines()
        .find(|l| l.starts_with("Uid:"))
        .is_some_and(|l| l.split_whitespace().nth(2) == Some("0"))
}
