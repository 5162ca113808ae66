//! Reading a problem package: `problem.yaml` (`config`), the test data (`data`), the
//! submissions and the verdicts their folders ask for (`submissions`), and the two ways
//! outputs are judged: the format's default validator in process (`default_validator`)
//! and the package's own, run in the box (`validator`).

pub(crate) mod config;
pub(crate) mod data;
pub(crate) mod default_validator;
pub(crate) mod submissions;
pub(crate) mod validator;
