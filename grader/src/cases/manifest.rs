//! `manifest.toml`: how a shipped case folder is made. Read strictly (unknown keys are
//! errors), and every fault is reported as `FILE:LINE:COL: message`.
//!
//! ```toml
//! problem = "flip"
//! samples = ["bwwb\nbbwb\nbwwb\nbwww\n"]
//! sample_points = 0    # optional: what the samples are worth in a gradebook
//!
//! [[group]]
//! name = "answers"
//! about = "every answer value"
//! kinds = ["answer=0", "answer=1"]
//! seed = 1
//! count = 3            # boards per kind
//! points = 40          # optional: what the group is worth
//!
//! [[group]]
//! name = "hand"
//! boards = ["bbbb\nbbbb\nbbbb\nbbbw\n"]
//! ```

use std::collections::HashSet;
use std::ops::Range;
use std::path::{Path, PathBuf};

use reference::Problem;
use reference::text::tolerate_line_ends;
use serde::Deserialize;
use toml::Spanned;

use crate::cli::exit::Fault;
use crate::cli::exit::line_column;
use crate::paths::files;

/// The most boards one kind of a group may ask for: folders are meant to stay small.
const MAX_COUNT: u32 = 1000;

/// A checked manifest.
#[derive(Debug, Clone)]
pub(crate) struct Manifest {
    /// Where it was read from, for messages.
    pub(crate) path: PathBuf,
    /// The problem of the folder.
    pub(crate) problem: Problem,
    /// The sample boards (clean input text), in order.
    pub(crate) samples: Vec<Located<String>>,
    /// The secret groups, in order.
    pub(crate) groups: Vec<Group>,
    /// What the samples are worth, when the manifest says.
    pub(crate) sample_points: Option<f64>,
}

/// A value with where it was written.
#[derive(Debug, Clone)]
pub(crate) struct Located<T> {
    /// The value.
    pub(crate) value: T,
    /// Its 1-based line and column in the manifest.
    pub(crate) at: (usize, usize),
}

/// A secret group: hand-picked boards first, then `count` boards of each kind.
#[derive(Debug, Clone)]
pub(crate) struct Group {
    /// The folder name under `data/secret/`.
    pub(crate) name: String,
    /// Hand-picked boards (clean input text).
    pub(crate) boards: Vec<Located<String>>,
    /// Generation kinds, each drawn from its own stream of `seed`.
    pub(crate) kinds: Vec<Located<String>>,
    /// The seed of the group.
    pub(crate) seed: u64,
    /// Boards per kind.
    pub(crate) count: u32,
    /// Where `count` was written (or the group, when absent), for messages.
    pub(crate) count_at: (usize, usize),
    /// What the group is for, in a line (`about`): shown to students on their feedback
    /// pages; empty when the manifest says nothing.
    pub(crate) about: String,
    /// What the group is worth, when the manifest says.
    pub(crate) points: Option<f64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawManifest {
    problem: Spanned<String>,
    #[serde(default)]
    samples: Vec<Spanned<String>>,
    #[serde(default, rename = "group")]
    groups: Vec<Spanned<RawGroup>>,
    sample_points: Option<Spanned<f64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGroup {
    name: Spanned<String>,
    /// What the group is for: for readers of the manifest, and for students on their
    /// feedback pages.
    #[serde(default)]
    about: String,
    #[serde(default)]
    boards: Vec<Spanned<String>>,
    #[serde(default)]
    kinds: Vec<Spanned<String>>,
    seed: Option<u64>,
    count: Option<Spanned<u32>>,
    points: Option<Spanned<f64>>,
}

/// Reads and checks the manifest at `path`, for the folder of `expected`.
pub(crate) fn load(path: &Path, expected: Problem) -> Result<Manifest, Fault> {
    let bytes = files::read_capped(path)?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let (line, column) = line_column(
            &String::from_utf8_lossy(&e.as_bytes()[..e.utf8_error().valid_up_to()]),
            usize::MAX,
        );
        Fault::input(format!(
            "{}:{line}:{column}: not valid UTF-8",
            path.display()
        ))
    })?;
    parse(path, &text, expected)
}

/// Parses and checks manifest `text` (read from `path`).
pub(crate) fn parse(path: &Path, text: &str, expected: Problem) -> Result<Manifest, Fault> {
    let mut reader = Reader {
        path,
        text,
        problem: expected,
    };
    let raw: RawManifest = toml::from_str(text).map_err(|e| {
        let message = e.message().trim_end().replace('\n', " ");
        reader.fail(e.span().unwrap_or(0..0), message)
    })?;
    reader.problem = reader.problem_of(&raw.problem, expected)?;
    let samples = raw
        .samples
        .iter()
        .map(|b| reader.board(b))
        .collect::<Result<_, _>>()?;
    let mut names = HashSet::new();
    let mut groups = Vec::new();
    for group in &raw.groups {
        let name = group.get_ref().name.get_ref();
        if !names.insert(name.clone()) {
            return Err(reader.fail(
                group.get_ref().name.span(),
                format!("a second group named `{name}`"),
            ));
        }
        groups.push(reader.group(group)?);
    }
    let sample_points = raw
        .sample_points
        .as_ref()
        .map(|p| reader.points(p))
        .transpose()?;
    Ok(Manifest {
        path: path.to_path_buf(),
        problem: reader.problem,
        samples,
        groups,
        sample_points,
    })
}

/// What checking one manifest needs: where it is, its text (to turn spans into lines and
/// columns), and its problem.
struct Reader<'a> {
    path: &'a Path,
    text: &'a str,
    problem: Problem,
}

impl Reader<'_> {
    /// A fault at `span`: `FILE:LINE:COL: message`.
    fn fail(&self, span: Range<usize>, message: impl std::fmt::Display) -> Fault {
        let (line, column) = self.at(span);
        Fault::input(format!(
            "{}:{line}:{column}: {message}",
            self.path.display()
        ))
    }

    /// The line and column of `span`'s start.
    fn at(&self, span: Range<usize>) -> (usize, usize) {
        line_column(self.text, span.start)
    }

    /// The `problem` key: a known problem, the folder's own.
    fn problem_of(&self, raw: &Spanned<String>, expected: Problem) -> Result<Problem, Fault> {
        let problem: Problem = raw
            .get_ref()
            .parse()
            .map_err(|e: reference::UnknownProblem| self.fail(raw.span(), e.to_string()))?;
        if problem != expected {
            return Err(self.fail(
                raw.span(),
                format!("this is the folder of `{expected}`, but the manifest says `{problem}`"),
            ));
        }
        Ok(problem)
    }

    /// A hand-picked board: a valid input once its line ends are made clean.
    fn board(&self, spanned: &Spanned<String>) -> Result<Located<String>, Fault> {
        let clean = tolerate_line_ends(spanned.get_ref().as_bytes()).into_owned();
        self.problem.validate(&clean).map_err(|e| {
            self.fail(
                spanned.span(),
                format!("board: line {}, column {}: {}", e.line, e.column, e.message),
            )
        })?;
        Ok(Located {
            value: String::from_utf8(clean).expect("a valid board is ASCII"),
            at: self.at(spanned.span()),
        })
    }

    /// A group: a good name, valid boards and kinds, and a seed and a count when it
    /// draws boards.
    fn group(&self, spanned: &Spanned<RawGroup>) -> Result<Group, Fault> {
        let group = spanned.get_ref();
        let name = group.name.get_ref();
        let name_ok = !name.is_empty()
            && name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_');
        if !name_ok {
            return Err(self.fail(
                group.name.span(),
                format!("group name `{name}`: use lowercase letters, digits, `-` and `_`"),
            ));
        }
        let boards = group
            .boards
            .iter()
            .map(|b| self.board(b))
            .collect::<Result<Vec<_>, _>>()?;
        let mut kinds = Vec::new();
        for kind in &group.kinds {
            self.problem
                .parse_kind(kind.get_ref())
                .map_err(|e| self.fail(kind.span(), format!("kind `{}`: {e}", kind.get_ref())))?;
            kinds.push(Located {
                value: kind.get_ref().clone(),
                at: self.at(kind.span()),
            });
        }
        let (seed, count, count_at) = if kinds.is_empty() {
            if boards.is_empty() {
                return Err(self.fail(
                    spanned.span(),
                    format!("group `{name}` has neither `boards` nor `kinds`"),
                ));
            }
            (0, 0, self.at(spanned.span()))
        } else {
            self.draws(spanned)?
        };
        Ok(Group {
            name: name.clone(),
            boards,
            kinds,
            seed,
            count,
            count_at,
            about: group.about.clone(),
            points: group.points.as_ref().map(|p| self.points(p)).transpose()?,
        })
    }

    /// What a group is worth: a number of points, zero or more.
    fn points(&self, spanned: &Spanned<f64>) -> Result<f64, Fault> {
        let points = *spanned.get_ref();
        if points.is_finite() && points >= 0.0 {
            Ok(points)
        } else {
            Err(self.fail(
                spanned.span(),
                format!("points must be a number, 0 or more, got {points}"),
            ))
        }
    }

    /// The seed, the count and where the count is, of a group that draws boards.
    fn draws(&self, spanned: &Spanned<RawGroup>) -> Result<(u64, u32, (usize, usize)), Fault> {
        let group = spanned.get_ref();
        let name = group.name.get_ref();
        let Some(seed) = group.seed else {
            return Err(self.fail(
                spanned.span(),
                format!("group `{name}` has `kinds` but no `seed`"),
            ));
        };
        let Some(count) = &group.count else {
            return Err(self.fail(
                spanned.span(),
                format!("group `{name}` has `kinds` but no `count`"),
            ));
        };
        if !(1..=MAX_COUNT).contains(count.get_ref()) {
            return Err(self.fail(
                count.span(),
                format!("count must be 1 to {MAX_COUNT}, got {}", count.get_ref()),
            ));
        }
        Ok((seed, *count.get_ref(), self.at(count.span())))
    }
}
