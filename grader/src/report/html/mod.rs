//! The gradebook as one self-contained HTML page (no network, no files beside it), made
//! with maud, which escapes every value for where it stands (text or attribute): no
//! student's name can add an element or an attribute.

mod failures;
pub(crate) mod gradebook;
mod groups;
