//! The typed results model: what judging found, as data every exporter in `report/`
//! writes from and `grader merge` reads back. Verdicts stay [`reference::Verdict`]s from
//! the judge to the exporter; figures are rounded once, here.

pub(crate) mod case;
pub(crate) mod cases;
pub(crate) mod check;
pub(crate) mod feedback;
pub(crate) mod finding;
pub(crate) mod gradebook;
pub(crate) mod layout_mistake;
pub(crate) mod limits;
pub(crate) mod mark;
pub(crate) mod problem;
pub(crate) mod solved;
pub(crate) mod submission;
