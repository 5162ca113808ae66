//! Reading a problem package: `problem.yaml` (`config`), the test data (`data`), the
//! submissions and the verdicts their folders ask for (`submissions`), and the two ways
//! outputs are judged: the format's default validator in process (`default_validator`)
//! and the package's own, run in the box (`validator`); the input validators
//! (`input_validators`); the generator `grader fuzz` draws inputs from (`generator`); how a package's programs run in the box (`boxed`), and how a
//! program given as a folder becomes one source (`sources`); the verdict and score of a
//! scoring problem's groups (`scoring`).

pub(crate) mod boxed;
pub(crate) mod config;
pub(crate) mod data;
pub(crate) mod default_validator;
pub(crate) mod generator;
pub(crate) mod input_validators;
pub(crate) mod scoring;
pub(crate) mod sources;
pub(crate) mod submissions;
pub(crate) mod validator;
