//! What a manifest makes: every file of `data/`, in memory, computed deterministically
//! (same manifest, same bytes, on every platform).

use std::collections::{BTreeMap, HashMap};

use reference::Rng;

use super::manifest::{Located, Manifest};
use crate::status::Fault;

/// How many draws one board of a kind may take to find a board not yet in the folder
/// before the manifest is judged to ask for more distinct boards than the kind has.
const DRAWS_PER_BOARD: u32 = 2000;

/// The files of a `data/` folder: path below `data/` (with `/`) to contents.
pub(crate) type Tree = BTreeMap<String, Vec<u8>>;

/// Computes the `data/` tree of `manifest`. Boards are unique across the whole folder:
/// a repeated hand-picked board is an error, a repeated draw is drawn again.
pub(crate) fn plan(manifest: &Manifest) -> Result<Tree, Fault> {
    let problem = manifest.problem;
    let mut tree = Tree::new();
    // Board text -> the file that holds it. Only looked up, never iterated, so its
    // random order cannot reach the output.
    let mut seen: HashMap<String, String> = HashMap::new();
    let located = |at: (usize, usize), message: String| {
        Fault::Usage(format!(
            "{}:{}:{}: {message}",
            manifest.path.display(),
            at.0,
            at.1
        ))
    };
    let add = |tree: &mut Tree, dir: &str, index: usize, width: usize, board: String| {
        let name = format!("{dir}/{:0width$}", index + 1);
        let answer = problem
            .solve(board.as_bytes())
            .map_err(|e| Fault::Internal(format!("{name}.in is invalid: {e}")))?;
        tree.insert(format!("{name}.ans"), answer.into_bytes());
        tree.insert(format!("{name}.in"), board.into_bytes());
        Ok::<_, Fault>(name)
    };
    let hand = |tree: &mut Tree,
                seen: &mut HashMap<String, String>,
                dir: &str,
                boards: &[Located<String>],
                width: usize| {
        for (index, board) in boards.iter().enumerate() {
            if let Some(first) = seen.get(&board.value) {
                return Err(located(
                    board.at,
                    format!("this board is already in the folder, as {first}.in"),
                ));
            }
            let name = add(tree, dir, index, width, board.value.clone())?;
            seen.insert(board.value.clone(), name);
        }
        Ok(())
    };

    hand(
        &mut tree,
        &mut seen,
        "sample",
        &manifest.samples,
        width(manifest.samples.len()),
    )?;
    for group in &manifest.groups {
        let dir = format!("secret/{}", group.name);
        let total = group.boards.len() + group.kinds.len() * group.count as usize;
        let width = width(total);
        hand(&mut tree, &mut seen, &dir, &group.boards, width)?;
        let mut index = group.boards.len();
        for (stream, kind) in group.kinds.iter().enumerate() {
            // Each kind draws from its own stream: adding a kind to a group, or changing
            // one kind's count, leaves the boards of the other kinds as they were.
            let mut rng = Rng::with_stream(group.seed, stream as u64);
            for made in 0..group.count {
                let mut draws = 0;
                let board = loop {
                    let board = problem
                        .generate(&kind.value, &mut rng)
                        .map_err(|e| located(kind.at, e))?;
                    if !seen.contains_key(&board) {
                        break board;
                    }
                    draws += 1;
                    if draws == DRAWS_PER_BOARD {
                        return Err(located(
                            group.count_at,
                            format!(
                                "group `{}`: kind `{}` gave only {made} new distinct boards of \
                                 the {} asked for; lower `count`",
                                group.name, kind.value, group.count
                            ),
                        ));
                    }
                };
                let name = add(&mut tree, &dir, index, width, board.clone())?;
                seen.insert(board, name);
                index += 1;
            }
        }
    }
    Ok(tree)
}

/// Digits of the file numbers of a folder of `count` cases: at least two, so that
/// `01 .. 10` sort by name the way they were made.
fn width(count: usize) -> usize {
    count.to_string().len().max(2)
}
