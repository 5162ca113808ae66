//! `grader gen PROBLEM --seed S`: seeded inputs of a chosen kind, printed or written as
//! `NNN.in`/`NNN.ans` pairs.

use reference::{Problem, Rng};

use crate::cli::args::GenArgs;
use crate::cli::exit::{Fault, Status};
use crate::paths::files;
use crate::paths::outputs;
use crate::report;

pub(crate) fn run(args: &GenArgs) -> Result<Status, Fault> {
    let problem = args.problem;
    problem
        .parse_kind(&args.kind)
        .map_err(|e| Fault::call(format!("--kind {}: {e}", args.kind)))?;
    if let Some(dir) = &args.out {
        // Its files are refused one by one below unless --force.
        outputs::folder(dir, &[], &outputs::Inputs::default())?;
    }
    // One stream per seed, drawn in order: board i of `--count N` is the same board for
    // every N > i, so a longer run extends a shorter one.
    let mut rng = Rng::new(args.seed);
    let boards: Vec<String> = (0..args.count)
        .map(|_| problem.generate(&args.kind, &mut rng))
        .collect::<Result<_, _>>()
        .map_err(|e| Fault::internal(format!("kind `{}` failed: {e}", args.kind)))?;
    match &args.out {
        None => report::out(&boards.join("\n")),
        Some(dir) => write_pairs(problem, dir, &boards, args.force)?,
    }
    Ok(Status::Ok)
}

/// Writes `NNN.in` and `NNN.ans` for every board, refusing to overwrite without `force`.
fn write_pairs(
    problem: Problem,
    dir: &std::path::Path,
    boards: &[String],
    force: bool,
) -> Result<(), Fault> {
    crate::paths::folders::create(dir)?;
    let width = boards.len().to_string().len().max(3);
    let names: Vec<String> = (1..=boards.len()).map(|i| format!("{i:0width$}")).collect();
    if !force {
        for name in &names {
            for ext in ["in", "ans"] {
                let path = dir.join(format!("{name}.{ext}"));
                if path.exists() {
                    return Err(Fault::output(format!(
                        "{}: already exists (use --force to overwrite)",
                        path.display()
                    )));
                }
            }
        }
    }
    for (name, board) in names.iter().zip(boards) {
        let answer = problem
            .solve(board.as_bytes())
            .map_err(|e| Fault::internal(format!("a generated board is invalid: {e}")))?;
        files::write_atomic(&dir.join(format!("{name}.in")), board.as_bytes())?;
        files::write_atomic(&dir.join(format!("{name}.ans")), answer.as_bytes())?;
    }
    report::note(&format!(
        "wrote {} cases to {}",
        boards.len(),
        dir.display()
    ));
    Ok(())
}
