//! The exported `problem.yaml`: the problem's name and origin, the grader's default limits
//! (docs/judging.md), and how outputs are judged.

use reference::Problem;

/// What a package says about its problem beyond the statement.
pub(crate) struct About {
    /// The name the package gives the problem.
    pub(crate) name: &'static str,
    /// Where the problem comes from, for the `source` key.
    pub(crate) source: &'static str,
    /// A fixed id per problem, so that a package exported twice is the same problem to a
    /// judge that keys problems by it.
    pub(crate) uuid: &'static str,
}

/// The name, origin and id of `problem` in its package. The names are plain ASCII: a
/// statement's title must render without the CJK fonts a judge may not have.
pub(crate) fn about(problem: Problem) -> About {
    match problem {
        Problem::Flip => About {
            name: "Flip Game",
            source: "POJ 1753",
            uuid: "6f1c2a57-0d3e-4b8a-9a31-5c0f9e6b1a01",
        },
        Problem::FourInRow => About {
            name: "Four in a Row",
            source: "WikiOI/Codevs 1004",
            uuid: "6f1c2a57-0d3e-4b8a-9a31-5c0f9e6b1a02",
        },
        Problem::Swap => About {
            name: "Black and White Swap",
            source: "the black-and-white swap puzzle, generalised",
            uuid: "6f1c2a57-0d3e-4b8a-9a31-5c0f9e6b1a03",
        },
    }
}

/// The text of `problem.yaml` (the package format's legacy version, which every tool of
/// the format reads).
pub(crate) fn problem_yaml(problem: Problem) -> String {
    let about = about(problem);
    // judging.md: one answer is compared exactly, so the default validator must not
    // forgive `impossible` for `Impossible`; swap's many answers need its checker.
    let validation = if problem.needs_checker() {
        "validation: custom\n"
    } else {
        "validator_flags: case_sensitive\n"
    };
    format!(
        "# Exported by `grader package export {id}` from the grader's own problem.\n\
         name: {name}\n\
         source: {source}\n\
         license: educational\n\
         rights_owner: the grader's authors\n\
         uuid: {uuid}\n\
         {validation}\
         # The grader's defaults (docs/judging.md): 256 MiB of memory, 64 MiB of output.\n\
         limits:\n  memory: 256\n  output: 64\n",
        id = problem.id(),
        name = about.name,
        source = about.source,
        uuid = about.uuid,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swap_is_judged_by_its_checker_and_the_others_case_sensitively() {
        assert!(problem_yaml(Problem::Swap).contains("\nvalidation: custom\n"));
        for problem in [Problem::Flip, Problem::FourInRow] {
            let yaml = problem_yaml(problem);
            assert!(
                yaml.contains("\nvalidator_flags: case_sensitive\n"),
                "{yaml}"
            );
            assert!(!yaml.contains("validation:"), "{yaml}");
        }
        let ids: std::collections::BTreeSet<_> =
            Problem::ALL.iter().map(|&p| about(p).uuid).collect();
        assert_eq!(ids.len(), 3);
    }
}
