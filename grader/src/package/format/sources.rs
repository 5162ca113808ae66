//! A program of a package given as a folder (a validator's usual form, `validate.cc`
//! beside `validate.h`), turned into the one source file the grader's build takes: a
//! folder of one file is that file; a C or C++ source with headers beside it is that
//! source with each `#include "HEADER"` of the folder written in place, as the
//! preprocessor would, once: a header's second inclusion is left out, as its guard or
//! `#pragma once` would leave it (the pragma itself goes: in one file it only warns).
//! Other folders of several files are not supported yet.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::cli::exit::Fault;
use crate::paths::files;

/// Extensions of C and C++ sources, and of their headers.
const SOURCES: [&str; 5] = ["c", "cc", "cpp", "cxx", "c++"];
const HEADERS: [&str; 4] = ["h", "hh", "hpp", "hxx"];

/// How deep headers may include headers before the folder is refused (a header that
/// includes itself without a guard would never end).
const DEPTH: usize = 16;

/// The one source of a program: a file as it is, or a source with its headers written in.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Source {
    /// A file of the package, as it is.
    File(PathBuf),
    /// A C or C++ source (its name) with its folder's headers written in.
    Merged {
        /// The source file's name (`validate.cc`): the language is told by it.
        name: String,
        /// The text to compile.
        text: Vec<u8>,
    },
}

/// The one source of the program in `dir`, or why there is none.
pub(crate) fn single(dir: &Path) -> Result<Source, String> {
    let mut by_name = BTreeMap::new();
    for entry in std::fs::read_dir(dir).map_err(|e| e.to_string())? {
        let path = entry.map_err(|e| e.to_string())?.path();
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        if name.starts_with('.') {
            continue;
        }
        if path.is_dir() {
            return Err("a program with folders inside it is not supported yet".to_owned());
        }
        by_name.insert(name, path);
    }
    let extension = |name: &str| name.rsplit_once('.').map_or("", |(_, x)| x).to_owned();
    let (sources, others): (Vec<_>, Vec<_>) = by_name
        .keys()
        .partition(|n| SOURCES.contains(&extension(n).as_str()));
    match (by_name.len(), sources.as_slice()) {
        (0, _) => Err("an empty folder".to_owned()),
        (1, _) => Ok(Source::File(
            by_name.into_values().next().unwrap_or_default(),
        )),
        (_, [main])
            if others
                .iter()
                .all(|n| HEADERS.contains(&extension(n).as_str())) =>
        {
            let mut text = Vec::new();
            let mut seen = std::collections::BTreeSet::new();
            merge(&by_name[*main], (&by_name, &mut seen), 0, &mut text)
                .map_err(|f| f.to_string())?;
            Ok(Source::Merged {
                name: (*main).clone(),
                text,
            })
        }
        _ => Err(format!(
            "a program of several files ({}) is not supported yet (one source, with C or \
             C++ headers beside it, is)",
            by_name.keys().cloned().collect::<Vec<_>>().join(", ")
        )),
    }
}

/// Appends `file` to `out`, each `#include "NAME"` of a file of the `folder` replaced by
/// that file, itself merged, unless it is `seen` already.
fn merge(
    file: &Path,
    (folder, seen): (
        &BTreeMap<String, PathBuf>,
        &mut std::collections::BTreeSet<String>,
    ),
    depth: usize,
    out: &mut Vec<u8>,
) -> Result<(), Fault> {
    if depth > DEPTH {
        return Err(Fault::input(format!(
            "{}: headers included more than {DEPTH} deep",
            file.display()
        )));
    }
    let bytes = files::read_capped(file)?;
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        let text = String::from_utf8_lossy(line);
        if depth > 0 && text.split_whitespace().collect::<Vec<_>>() == ["#pragma", "once"] {
            out.push(b'\n');
            continue;
        }
        match local_include(line).filter(|name| folder.contains_key(*name)) {
            Some(name) => {
                if seen.insert(name.to_owned()) {
                    merge(&folder[name], (folder, &mut *seen), depth + 1, out)?;
                }
                out.push(b'\n');
            }
            None => out.extend_from_slice(line),
        }
    }
    Ok(())
}

/// The header a line `#include "NAME"` names, if it is one.
fn local_include(line: &[u8]) -> Option<&str> {
    let text = std::str::from_utf8(line).ok()?.trim();
    let rest = text
        .strip_prefix('#')?
        .trim_start()
        .strip_prefix("include")?
        .trim_start();
    let name = rest.strip_prefix('"')?;
    name.split_once('"').map(|(name, _)| name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_source_gets_its_headers_written_in_and_other_folders_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
        write(
            "validate.cc",
            "#include <cstdio>\n#include \"validate.h\"\nint main() { return f(); }\n",
        );
        write(
            "validate.h",
            "#pragma once\n  # include \"more.h\"\n#include \"more.h\"\nint f() { return g(); }\n",
        );
        write("more.h", "#pragma once\nint g() { return 42; }\n");
        let merged = single(dir.path()).unwrap();
        let Source::Merged { name, text } = merged else {
            panic!("not merged: {merged:?}");
        };
        assert_eq!(name, "validate.cc");
        assert_eq!(
            String::from_utf8(text).unwrap(),
            "#include <cstdio>\n\n\nint g() { return 42; }\n\n\nint f() { return g(); }\n\nint main() { return f(); }\n"
        );
        write("notes.txt", "x");
        assert!(single(dir.path()).unwrap_err().contains("several files"));
        let lone = tempfile::tempdir().unwrap();
        std::fs::write(lone.path().join("check.py"), "print(1)\n").unwrap();
        assert_eq!(
            single(lone.path()).unwrap(),
            Source::File(lone.path().join("check.py"))
        );
    }
}
