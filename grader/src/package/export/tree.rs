//! Every file of an exported package, by its path inside the package: what `write` puts
//! on disk, and what the tests read without a disk.

use reference::Problem;

use super::{carried, metadata, statement};
use crate::run::grade::SoundCase;

/// The files of a package: path inside it (`/` separators) to bytes.
pub(crate) use crate::paths::files::Tree;

/// The package of `problem`: its `cases` (checked sound by the caller) under `data/`, in
/// the groups they have in the case folder (`secret/answers/01` stays
/// `data/secret/answers/01`), and `section`, the problem's part of docs/problems.md, as
/// the statement.
pub(crate) fn package(problem: Problem, cases: &[SoundCase], section: &str) -> Tree {
    let mut tree = Tree::new();
    let mut put = |path: String, bytes: &[u8]| {
        tree.insert(path, bytes.to_vec());
    };
    put(
        "problem.yaml".to_owned(),
        metadata::problem_yaml(problem).as_bytes(),
    );
    put(
        "problem_statement/problem.en.tex".to_owned(),
        statement::latex(metadata::about(problem).name, section).as_bytes(),
    );
    for sound in cases {
        // The answer file may be a `.out` in a case folder; a package's is always `.ans`.
        put(format!("data/{}.in", sound.case.name), &sound.text.input);
        put(format!("data/{}.ans", sound.case.name), &sound.text.answer);
    }
    let programs = std::iter::once(carried::input_validator(problem))
        .chain(carried::output_validator(problem))
        .chain(carried::submissions(problem));
    for (path, text) in programs {
        put(path, text.as_bytes());
    }
    tree
}
