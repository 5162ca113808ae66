//! What a manifest makes: every file of `data/`, in memory, computed deterministically
//! (same manifest, same bytes, on every platform).

use std::collections::HashMap;

use reference::Rng;

use super::manifest::{Group, Located, Manifest};
use crate::cli::exit::Fault;

/// How many draws one board of a kind may take to find a board not yet in the folder
/// before the manifest is judged to ask for more distinct boards than the kind has.
const DRAWS_PER_BOARD: u32 = 2000;

/// The files of a `data/` folder: path below `data/` (with `/`) to contents.
pub(crate) use crate::paths::files::Tree;

/// Computes the `data/` tree of `manifest`. Boards are unique across the whole folder:
/// a repeated hand-picked board is an error, a repeated draw is drawn again.
pub(crate) fn plan(manifest: &Manifest) -> Result<Tree, Fault> {
    let mut planner = Planner {
        manifest,
        tree: Tree::new(),
        seen: HashMap::new(),
    };
    let samples = &manifest.samples;
    planner.hand("sample", samples, width(samples.len()))?;
    for group in &manifest.groups {
        let dir = format!("secret/{}", group.name);
        let total = group.boards.len() + group.kinds.len() * group.count as usize;
        let width = width(total);
        planner.hand(&dir, &group.boards, width)?;
        let mut index = group.boards.len();
        for (stream, kind) in group.kinds.iter().enumerate() {
            // Each kind draws from its own stream: adding a kind to a group, or changing
            // one kind's count, leaves the boards of the other kinds as they were.
            let mut rng = Rng::with_stream(group.seed, stream as u64);
            for made in 0..group.count {
                let board = planner.draw(group, kind, made, &mut rng)?;
                planner.add(&dir, index, width, board)?;
                index += 1;
            }
        }
    }
    Ok(planner.tree)
}

/// The tree being made, and the boards already in it.
struct Planner<'m> {
    manifest: &'m Manifest,
    tree: Tree,
    /// Board text -> the file that holds it. Only looked up, never iterated, so its
    /// random order cannot reach the output.
    seen: HashMap<String, String>,
}

impl Planner<'_> {
    /// A fault of the manifest at `at`.
    fn located(&self, at: (usize, usize), message: impl std::fmt::Display) -> Fault {
        Fault::input(format!(
            "{}:{}:{}: {message}",
            self.manifest.path.display(),
            at.0,
            at.1
        ))
    }

    /// Adds `board` and its reference answer as case `index` of `dir`.
    fn add(&mut self, dir: &str, index: usize, width: usize, board: String) -> Result<(), Fault> {
        let name = format!("{dir}/{:0width$}", index + 1);
        let answer = self
            .manifest
            .problem
            .solve(board.as_bytes())
            .map_err(|e| Fault::internal(format!("{name}.in is invalid: {e}")))?;
        self.tree.insert(format!("{name}.ans"), answer.into_bytes());
        self.tree
            .insert(format!("{name}.in"), board.clone().into_bytes());
        self.seen.insert(board, name);
        Ok(())
    }

    /// Adds hand-picked `boards` to `dir`: each must be new to the folder.
    fn hand(&mut self, dir: &str, boards: &[Located<String>], width: usize) -> Result<(), Fault> {
        for (index, board) in boards.iter().enumerate() {
            if let Some(first) = self.seen.get(&board.value) {
                return Err(self.located(
                    board.at,
                    format!("this board is already in the folder, as {first}.in"),
                ));
            }
            self.add(dir, index, width, board.value.clone())?;
        }
        Ok(())
    }

    /// Draws a board of `kind` not yet in the folder (the `made`-th of the group's
    /// `count`), or says the kind has too few distinct boards for the count.
    fn draw(
        &self,
        group: &Group,
        kind: &Located<String>,
        made: u32,
        rng: &mut Rng,
    ) -> Result<String, Fault> {
        for _ in 0..DRAWS_PER_BOARD {
            let board = self
                .manifest
                .problem
                .generate(&kind.value, rng)
                .map_err(|e| self.located(kind.at, e))?;
            if !self.seen.contains_key(&board) {
                return Ok(board);
            }
        }
        Err(self.located(
            group.count_at,
            format!(
                "group `{}`: kind `{}` gave only {made} new distinct boards of the {} asked \
                 for; lower `count`",
                group.name, kind.value, group.count
            ),
        ))
    }
}

/// Digits of the file numbers of a folder of `count` cases: at least two, so that
/// `01 .. 10` sort by name the way they were made.
fn width(count: usize) -> usize {
    count.to_string().len().max(2)
}
