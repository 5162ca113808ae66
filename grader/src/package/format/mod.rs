//! Reading a problem package, purely: files in, values out, no program run.
//! `problem.yaml` and DOMjudge's `.timelimit` (`config`), the test data (`data`), the
//! submissions and the verdicts their folders or comments allow (`submissions`; 2023-07's
//! `submissions.yaml`, `expectations`), the format's default output validator, in
//! process (`default_validator`), the verdict and score of a scoring problem's groups
//! (`scoring`, with 2025-09's groups read by `score_groups`), the `constants` replaced in
//! its programs and configurations (`constants`), the files added to its submissions
//! (`included`, by the format's language `codes`), and the generator `grader fuzz` draws inputs from (`generator`).

pub(crate) mod codes;
pub(crate) mod config;
pub(crate) mod constants;
pub(crate) mod data;
pub(crate) mod default_validator;
pub(crate) mod expectations;
pub(crate) mod generator;
pub(crate) mod included;
pub(crate) mod score_groups;
pub(crate) mod scoring;
pub(crate) mod submissions;
