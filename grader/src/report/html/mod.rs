//! The gradebook as one self-contained HTML page (no network, no files beside it), and
//! each student's feedback page, made with maud, which escapes every value for where it
//! stands (text or attribute): no student's name can add an element or an attribute.

pub(crate) mod failures;
pub(crate) mod feedback;
pub(crate) mod gradebook;
pub(crate) mod groups;
pub(crate) mod parts;
mod witness;
