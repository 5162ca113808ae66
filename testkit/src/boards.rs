//! Boards the tests and benches feed the grader, with the answers they have.

/// The flip sample of problems.md: answer 4.
pub const FLIP_SAMPLE: &str = "bwwb\nbbwb\nbwwb\nbwww\n";

/// A solved flip board: answer 0 (a program printing `4` fails it).
pub const FLIP_SOLVED: &str = "bbbb\nbbbb\nbbbb\nbbbb\n";

/// The fourinrow sample of problems.md: answer 5.
pub const FOURINROW_SAMPLE: &str = "BWBO\nWBWB\nBWBW\nWBWO\n";
