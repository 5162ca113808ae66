//! A header most sources of a language include (C++'s `bits/stdc++.h`, about 0.6 s of
//! every `g++ -O2` here), compiled once per toolchain, compile command and tier into a
//! precompiled header, kept in the compile cache, and shown to the compiles of the
//! sources that name it.
//!
//! The compiler decides whether to take it, so a source compiles to the same program
//! with it as without: GCC looks for `NAME.gch` in an include folder before `NAME`, and
//! reads it only when it was made by the same compiler with the options that matter and
//! no macro defined before the `#include` changes it; else it goes on down the include
//! path to the header itself (the entry holds no header, only the `.gch`). The tests
//! compare the programs byte for byte.
//!
//! The header is built like any compile: in a worker of the tier, under the language's
//! compile limits with [`HEADER_TIME`] times their time, from a one-line file that
//! includes it (`-x KIND` in place of the source). It is used in `strict`, where the box shows its entry read-only (at
//! `/headers`), and in `none`, where the compiler runs as the grader's user; not in `basic`,
//! where a compile may run as a worker's uid that cannot enter the cache (mode 0700).
//! A header that fails to build leaves the compiles as they were: each source is
//! compiled on its own, as without one.
//!
//! Building one costs several plain compiles (about 5 s of CPU for `bits/stdc++.h`), so a
//! run that compiles a known set of sources (`package verify`) asks for it only once a
//! second of them names it ([`HeaderUse::OnceShared`]): a package with one such source
//! compiles it plainly, and a cold verification does not pay for a header it uses once.
//! A header already in the cache is always used.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use sandbox::tiers::Tier;

use super::cache_entry::{publish, verified};
use super::compiler::{Toolchain, limits, refusal, run_compiler};
use super::languages::{FILES, Language, OUT, Precompiled, SRC};
use crate::cli::exit::Fault;
use sandbox::Locked as _;

/// The file the header is built from: it includes the header, and nothing else.
const WRAPPER: &str = "precompiled.h";

/// How many times a compile's CPU and wall time the header's build may take. It costs
/// several plain compiles (4.4 s of CPU under `gnu++23` here, against a compile limit of
/// 10 s), and a slow machine takes several times that: the project's cgroup-v2 VM ran
/// past 10 s, so every compile there went on without a header. The build compiles the
/// system's header, not a student's source, so the limit only ends a compiler gone wrong.
const HEADER_TIME: u32 = 6;

/// What this process knows of one header: nothing yet, or where it is (`None`: it could
/// not be built).
type Slot = Arc<Mutex<Option<Option<PathBuf>>>>;

/// When a header not yet in the cache is built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum HeaderUse {
    /// For the first source that names it: `test` and `batch`, whose sources are compiled
    /// again and again over a course (a student's every change, the next class).
    OnFirstNeed,
    /// For the second source of this process that names it (the first compiles plainly).
    OnceShared,
}

/// How many sources of this process named each header not yet built, by key.
static NAMED: OnceLock<Mutex<HashMap<String, usize>>> = OnceLock::new();

/// The headers of this process, by key. One build per header at a time: the workers that
/// need it first wait for it rather than each building their own.
static BUILT: OnceLock<Mutex<HashMap<String, Slot>>> = OnceLock::new();

/// The include folder holding the precompiled header for a compile of `bytes` in
/// language `name` (built on first need and kept in `cache`), or `None` when the
/// source does not name the language's header, the tier cannot show it, or it could
/// not be built, or `usage` says not yet.
pub(super) fn folder(
    bytes: &[u8],
    (name, language): (&str, &Language),
    toolchain: &Toolchain,
    (tier, usage): (Tier, HeaderUse),
    cache: &Path,
) -> Result<Option<PathBuf>, Fault> {
    let Some(precompiled) = &language.precompiled else {
        return Ok(None);
    };
    if tier == Tier::Basic || !names(bytes, &precompiled.header) {
        return Ok(None);
    }
    let command = header_command(language, precompiled);
    let key = key(name, &command, toolchain, tier);
    let slot = Arc::clone(
        BUILT
            .get_or_init(Mutex::default)
            .locked()
            .entry(key.clone())
            .or_default(),
    );
    let mut slot = slot.locked();
    if let Some(known) = &*slot {
        return Ok(known.clone());
    }
    let entry = cache.join(format!("precompiled-{key}"));
    let gch = format!("{}.gch", precompiled.header);
    // Verified once per process (the file is about 100 MB): the cache is the grader's
    // user's alone, and the hash guards against a torn or altered entry.
    let found = if verified(&entry, &gch) {
        Some(entry)
    } else if usage == HeaderUse::OnceShared && first_to_name(&key) {
        // Not known yet (`slot` stays empty): the next source that names it builds it.
        return Ok(None);
    } else {
        build(language, toolchain, tier, (&command, &precompiled.header))?.and_then(|mut built| {
            publish(&mut built, cache, &entry, &gch).ok()?;
            Some(entry)
        })
    };
    *slot = Some(found.clone());
    Ok(found)
}

/// Whether this is the first source of the process to name the header `key`.
fn first_to_name(key: &str) -> bool {
    let mut named = NAMED.get_or_init(Mutex::default).locked();
    let count = named.entry(key.to_owned()).or_default();
    *count += 1;
    *count == 1
}

/// Whether `bytes` (a source) names `header` (a cheap look: the compiler decides whether
/// the header is really included, and whether it can use the precompiled one).
fn names(bytes: &[u8], header: &str) -> bool {
    let header = header.as_bytes();
    bytes.windows(header.len()).any(|w| w == header)
}

/// The header's compile: the language's, with `-x KIND` and the wrapper in place of the
/// source, and no libraries (nothing is linked). `{out}` stays for the worker's path.
fn header_command(language: &Language, precompiled: &Precompiled) -> Vec<String> {
    let command = language
        .compile
        .as_ref()
        .expect("a precompiled header belongs to a compiled language");
    let mut words = Vec::new();
    for word in &command[1..] {
        if word == SRC || word == FILES {
            words.extend([
                "-x".to_owned(),
                precompiled.kind.clone(),
                WRAPPER.to_owned(),
            ]);
        } else if !word.starts_with("-l") {
            words.push(word.replace(SRC, WRAPPER));
        }
    }
    words
}

/// The name of the header's cache entry: a hash of the language, the header's command,
/// the compiler's version and real files, and the tier.
fn key(name: &str, command: &[String], toolchain: &Toolchain, tier: Tier) -> String {
    toolchain
        .key("precompiled header", name, command, tier)
        .hex()
}

/// Builds the header in a worker of `tier`: the precompiled file, or `None` when the
/// compile failed or was stopped.
fn build(
    language: &Language,
    toolchain: &Toolchain,
    tier: Tier,
    (command, header): (&[String], &str),
) -> Result<Option<std::fs::File>, Fault> {
    let mut limits = limits(&language.compile_limits, tier);
    limits.cpu *= HEADER_TIME;
    limits.wall *= HEADER_TIME;
    // The output limit is also the size of a file the compile may write: a compiled
    // header is about 100 MB (a program, a few), and lives in the worker's memory.
    limits.output = limits.output.max(limits.memory);
    let wrapper = format!("#include <{header}>\n");
    let (outcome, built) = run_compiler(
        Path::new(header),
        (WRAPPER, wrapper.as_bytes(), &[]),
        (language, toolchain),
        None,
        &limits,
        |out, _| command.iter().map(|w| w.replace(OUT, out)).collect(),
    )?;
    Ok(built.filter(|_| refusal(&outcome, &limits).is_none()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::submission::languages::Languages;

    #[test]
    fn the_header_compiles_with_the_languages_own_words() {
        let languages = Languages::load(None).expect("the built-in table");
        let (_, cpp) = languages.named("cpp").expect("cpp");
        let precompiled = cpp.precompiled.as_ref().expect("cpp precompiles a header");
        assert_eq!(
            header_command(cpp, precompiled),
            [
                "-O2",
                "-std=gnu++23",
                "-pipe",
                "-o",
                "{out}",
                "-x",
                "c++-header",
                WRAPPER
            ]
        );
    }

    #[test]
    fn only_sources_naming_the_header_want_it() {
        assert!(names(
            b"#include <bits/stdc++.h>\nint main(){}",
            "bits/stdc++.h"
        ));
        assert!(!names(
            b"#include <iostream>\nint main(){}",
            "bits/stdc++.h"
        ));
        assert!(!names(b"", "bits/stdc++.h"));
    }
}
