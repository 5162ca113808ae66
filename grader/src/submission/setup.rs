//! The grader's setup a source's language needs (its compiler and a usable compile cache,
//! or its interpreter), checked once before anything is built: a fault here is the setup's
//! (exit 2), never every student's mark.

use std::path::Path;

use super::build::language_of;
use super::compile;
use super::languages::{self, Language};
use super::lookup::{compile_path, resolve, run_path};
use super::program::Options;
use crate::status::Fault;

/// Checks what the grader's setup must give the language of the source `path`, before
/// anything is built: its compiler and a usable compile cache, or its interpreter. A
/// fault here is the setup's (exit 2), found once rather than as every student's error.
pub(crate) fn check_setup(path: &Path, options: &Options<'_>) -> Result<(), Fault> {
    if let Some(missing) = missing_toolchain(path, options)? {
        return Err(Fault::Usage(format!(
            "{}: {}: {}, or choose another language with --lang, or run it with --cmd",
            path.display(),
            missing.what,
            missing.install
        )));
    }
    if let Some((name, language)) = language_of(path, options)?
        && language.compile.is_some()
    {
        compile::check_compiler(path, name, language)?;
    }
    Ok(())
}

/// A program a source's language needs that is not installed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Missing {
    /// What is missing: ``the compiler `fpc` for pascal is not installed``.
    pub(crate) what: String,
    /// How to have it: ``install the Debian package `fp-compiler` ``.
    pub(crate) install: String,
}

/// The first program the language of the source `path` needs that is not installed: its
/// compiler and version probe (on the compile's `PATH`), its interpreter (on the runs').
/// `Err` for what is no missing program: an unusable compile cache, an unknown language.
pub(crate) fn missing_toolchain(
    path: &Path,
    options: &Options<'_>,
) -> Result<Option<Missing>, Fault> {
    let Some((name, language)) = language_of(path, options)? else {
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
        let search = compile_path();
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
    Ok(None)
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
