//! What `grader cases regen|check|power` found in each case folder, for the reports to
//! write: the folder, and the domain's own findings (`cases::regen`, `cases::verify`,
//! `cases::power`).

use std::path::PathBuf;

use crate::cases::folder_check::Verified;
use crate::cases::power::Power;
use crate::cases::regen::Drift;

/// One folder of `cases regen`.
#[derive(Debug)]
pub(crate) struct Regenerated {
    /// The problem's folder (`cases/flip`).
    pub(crate) folder: PathBuf,
    /// Its `data/` folder, which the drift's names are below.
    pub(crate) data: PathBuf,
    /// How many cases the manifest makes.
    pub(crate) cases: usize,
    /// What was done.
    pub(crate) outcome: Regen,
}

/// What `cases regen` did with one folder.
#[derive(Debug)]
pub(crate) enum Regen {
    /// `data/` held what the manifest makes.
    UpToDate,
    /// `data/` was rewritten; it had drifted so.
    Rewrote(Drift),
    /// `--check`: `data/` differs from what the manifest makes, and was left as it was.
    Drifted(Drift),
}

/// One folder of `cases check`.
#[derive(Debug)]
pub(crate) struct Checked {
    /// The problem's folder.
    pub(crate) folder: PathBuf,
    /// Its faults and answer histograms.
    pub(crate) verified: Verified,
}

/// The folder of `cases power`.
#[derive(Debug)]
pub(crate) struct Measured {
    /// The problem's folder.
    pub(crate) folder: PathBuf,
    /// Its kill matrix.
    pub(crate) power: Power,
}
