//! The only code that writes reports and talks to the terminal: one exporter per format
//! (`human`, `json`, `junit`, `csv`, `html`, `gradescope`), each writing from the results
//! model (`crate::results`); a gradebook as its writers read it, a student at a time
//! (`book`); the list of a gradebook folder's files and their exporters
//! (`gradebook_files`); and the writers of stdout and stderr.

pub(crate) mod book;
pub(crate) mod csv;
pub(crate) mod exporter;
mod folded_json;
pub(crate) mod gradebook_files;
pub(crate) mod gradescope;
pub(crate) mod html;
pub(crate) mod human;
pub(crate) mod json;
pub(crate) mod junit;
pub(crate) mod junit_suite;
pub(crate) mod pace;
pub(crate) mod progress;
pub(crate) mod reasons;
pub(crate) mod style;
pub(crate) mod tables;
pub(crate) mod terminal;
mod wrong_call;

#[cfg(test)]
mod samples;
#[cfg(test)]
mod snapshots;

// The paths the rest of the crate calls these by (`report::out`, `report::note`, ...).
pub(crate) use style::paint;
pub(crate) use terminal::{error, finish as finish_stdout, note, out, out_styled};
pub(crate) use wrong_call::clap_error;
