//! The grader's setup a source's language needs (its compiler and a usable compile cache,
//! or its interpreter), checked once before anything is built: a fault here is the setup's
//! (exit 2), never every student's mark.

use std::path::Path;

use super::build::language_of;
use super::compile;
use super::languages::{self, Language};
use super::lookup::{resolve, run_path};
use super::program::Options;
use crate::status::Fault;

/// Checks what the grader's setup must give the language of the source `path`, before
/// anything is built: its compiler and a usable compile cache, or its interpreter. A
/// fault here is the setup's (exit 2), found once rather than as every student's error.
pub(crate) fn check_setup(path: &Path, options: &Options<'_>) -> Result<(), Fault> {
    let Some((name, language)) = language_of(path, options)? else {
        return Ok(());
    };
    if language.compile.is_some() {
        compile::usable_cache(&options.cache)?;
        compile::check_compiler(path, name, language)?;
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
        resolve(program, &run_path())
            .map_err(|e| not_installed(path, &format!("{e} ({name})"), language))?;
    }
    Ok(())
}

/// The fault of a toolchain that is missing (`what`, of the source `source`): the
/// setup's, exit 2, saying what to install.
pub(super) fn not_installed(source: &Path, what: &str, language: &Language) -> Fault {
    Fault::Usage(format!(
        "{}: {what}: {}, or choose another language with --lang, or run it with --cmd",
        source.display(),
        language.install_hint()
    ))
}
