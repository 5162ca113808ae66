//! `grader doctor` on this machine, and the tier `auto` picks as `grader test` reports it.
//!
//! The hostile-program suite (deliberately misbehaving programs whose verdicts are data, in
//! the `basic` and `strict` tiers) tests the box alone, so it is the sandbox's, with the
//! box's other containment tests: `sandbox/tests/containment/hostile.rs`.

use serde_json::Value;

use testkit::grader::grader;
use testkit::paths::two_cases;

#[test]
fn doctor_tells_what_the_machine_has_and_what_auto_picks() {
    let output = grader().arg("doctor").output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8(output.stdout).unwrap();
    for line in [
        "a uid per worker",
        "namespaces",
        "seccomp",
        "cgroups",
        "the box's init kept from the OOM killer",
        "--sandbox auto picks",
    ] {
        assert!(text.contains(line), "{text}");
    }
    // What doctor says auto picks is what `grader test` reports using.
    let picked = text
        .lines()
        .find_map(|l| l.strip_prefix("--sandbox auto picks"))
        .unwrap()
        .trim()
        .to_owned();
    let report = grader()
        .args([
            "test", "flip", "--cmd", "true", "--report", "json", "--cases",
        ])
        .arg(two_cases())
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&report.stdout).unwrap();
    assert_eq!(report["limits"]["sandbox"], picked.as_str());
}
