//! Which problem a result is of, as every report names it: a built-in problem (whose
//! reference also explains a wrong answer and draws it), or a problem package (named by
//! its folder, the format's short name for a problem; its validator's message is all a
//! report says of a wrong answer).

use std::fmt;

use reference::Problem;

/// The problem a result is of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ProblemId {
    /// flip, fourinrow or swap.
    Builtin(Problem),
    /// A problem package, by its folder's name (`oddecho`).
    Package(String),
}

impl ProblemId {
    /// The name reports give it (a built-in problem's id, never an alias).
    pub(crate) fn id(&self) -> &str {
        match self {
            ProblemId::Builtin(problem) => problem.id(),
            ProblemId::Package(name) => name,
        }
    }

    /// Whether `name`, read back from a report or a gradebook, names a problem the grader
    /// writes them for: a built-in problem's id, or a package's (its folder's name, one
    /// path component).
    pub(crate) fn is_name(name: &str) -> bool {
        name.parse::<Problem>().is_ok_and(|p| p.id() == name)
            || (!name.is_empty()
                && !name.contains(['/', '\\', '\0'])
                && name != "."
                && name != "..")
    }

    /// The built-in problem, whose reference explains wrong answers; `None` for a
    /// package.
    pub(crate) fn builtin(&self) -> Option<Problem> {
        match self {
            ProblemId::Builtin(problem) => Some(*problem),
            ProblemId::Package(_) => None,
        }
    }
}

impl fmt::Display for ProblemId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}
