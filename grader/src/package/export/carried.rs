//! The programs an exported package carries, built into the binary so that an installed
//! grader exports the same package as a checkout: the input validators and swap's output
//! validator (programs/, written for the package format's interface), and the project's
//! example submissions (examples/), the reference as accepted and the classic wrong
//! solution as a wrong answer.

use reference::Problem;

/// One file of a package: its path inside the package and its text.
pub(crate) type File = (String, &'static str);

/// The input validator of `problem`, as `input_validators/...`.
pub(crate) fn input_validator(problem: Problem) -> File {
    let text = match problem {
        Problem::Flip => include_str!("carried/flip_input.py"),
        Problem::FourInRow => include_str!("carried/fourinrow_input.py"),
        Problem::Swap => include_str!("carried/swap_input.py"),
    };
    (format!("input_validators/{}_input.py", problem.id()), text)
}

/// The output validator of `problem`, when it needs one (`swap`: many correct outputs).
pub(crate) fn output_validator(problem: Problem) -> Option<File> {
    problem.needs_checker().then(|| {
        (
            // A folder per validator: the format's tools build every file in it as one
            // program.
            "output_validators/swap_checker/swap_output.py".to_owned(),
            include_str!("carried/swap_output.py"),
        )
    })
}

/// The submissions of `problem`, each under the verdict folder it must get.
pub(crate) fn submissions(problem: Problem) -> Vec<File> {
    let (accepted, wrong) = match problem {
        Problem::Flip => (
            (
                "ac_bfs.c",
                include_str!("../../../../examples/flip/ac_bfs.c"),
            ),
            (
                "wa_one_colour.py",
                include_str!("../../../../examples/flip/wa_one_colour.py"),
            ),
        ),
        Problem::FourInRow => (
            (
                "ac_bfs.cpp",
                include_str!("../../../../examples/fourinrow/ac_bfs.cpp"),
            ),
            (
                "wa_one_mover.py",
                include_str!("../../../../examples/fourinrow/wa_one_mover.py"),
            ),
        ),
        Problem::Swap => (
            (
                "ac_bfs.c",
                include_str!("../../../../examples/swap/ac_bfs.c"),
            ),
            (
                "wa_greedy.py",
                include_str!("../../../../examples/swap/wa_greedy.py"),
            ),
        ),
    };
    vec![
        (format!("submissions/accepted/{}", accepted.0), accepted.1),
        (format!("submissions/wrong_answer/{}", wrong.0), wrong.1),
    ]
}
