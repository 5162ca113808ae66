//! The grader's setup a source's language needs (its compiler and a usable compile cache,
//! or its interpreter), checked once per language before a class is built: a fault of the
//! setup is exit 2, never every student's mark, and a program that is not installed is
//! said ([`Missing`]), for `batch` to leave only that language's students ungraded.

use std::path::Path;

use super::languages::{self};
use super::lookup::{resolve, run_path};
use super::program::Options;
use super::{compile, compiler};
use crate::cli::exit::Fault;

/// A program a source's language needs that is not installed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Missing {
    /// What is missing: ``the compiler `fpc` for pascal is not installed``.
    pub(crate) what: String,
    /// How to have it: ``install the Debian package `fp-compiler` ``.
    pub(crate) install: String,
}

/// The first program the language of the source `path` needs that is not installed: its
/// compiler and version probe (where the compile looks), its interpreter (where the runs
/// do); when none is missing, the compiler is probed as a compile will. `Err` for a fault
/// that is no missing program: an unusable compile cache, an unknown language, a probe
/// that fails.
pub(crate) fn check_toolchain(
    path: &Path,
    options: &Options<'_>,
) -> Result<Option<Missing>, Fault> {
    let Some((name, language)) = options.language_of(path)? else {
        return Ok(None);
    };
    let missing = |what: String| {
        Ok(Some(Missing {
            what,
            install: language.install_hint(),
        }))
    };
    if let Some(command) = &language.compile {
        compile::usable_cache(&options.cache)?;
        let search = compiler::search_path(language);
        if resolve(&command[0], &search).is_err() {
            return missing(format!(
                "the compiler `{}` for {name} is not installed",
                command[0]
            ));
        }
        if let Some(probe) = language.version.as_ref().and_then(|v| v.first())
            && resolve(probe, &search).is_err()
        {
            return missing(format!("`{probe}` for {name} is not installed"));
        }
    }
    // The interpreter (a run command's first word that is no placeholder) and the version
    // probe's program must be there.
    let programs = language
        .run
        .first()
        .filter(|w| !languages::has_placeholder(w))
        .into_iter()
        .chain(language.version.iter().filter_map(|v| v.first()));
    for program in programs {
        if let Err(e) = resolve(program, &run_path()) {
            return missing(format!("{e} ({name})"));
        }
    }
    if language.compile.is_some() {
        compile::check_compiler(path, name, language)?;
    }
    Ok(None)
}
