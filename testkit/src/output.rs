//! What a call of the binary gave: its exit status and streams as text, and its JSON
//! report read back.

use std::process::Output;

use predicates::Predicate as _;
use serde_json::Value;

use crate::grader::one_error_line;

/// The exit status (-1 when a signal ended the call), stdout and stderr of `output`.
pub fn said(output: &Output) -> (i32, String, String) {
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Asserts that a call, as [`said`] gives it, was refused as the contract says: exit 2,
/// and stderr one `grader: error: ` line holding every piece of `says`.
pub fn assert_refused((code, out, err): &(i32, String, String), says: &[&str]) {
    assert_eq!(*code, 2, "{out}{err}");
    for piece in says {
        assert!(
            one_error_line(*piece).eval(err),
            "not one error line holding {piece:?}: {err}"
        );
    }
}

/// `text` read as JSON; panics showing it when it is not.
pub fn json(text: impl AsRef<[u8]>) -> Value {
    let text = text.as_ref();
    serde_json::from_slice(text)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(text)))
}

/// The JSON report a call printed on stdout; panics showing stdout and stderr when it is
/// not JSON.
pub fn json_of(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

/// The verdict of each case of a `grader test` report, in its order.
pub fn case_verdicts(report: &Value) -> Vec<&str> {
    report["cases"]
        .as_array()
        .unwrap_or_else(|| panic!("no cases: {report:#}"))
        .iter()
        .map(|c| c["verdict"].as_str().unwrap_or_else(|| panic!("{c:#}")))
        .collect()
}
