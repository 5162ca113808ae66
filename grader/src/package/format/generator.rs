//! A package's generator, for `grader fuzz PKG` (docs/packages.md). The format names a
//! `generators/` folder but no way to call what is in it, so the grader's convention is
//! the simplest a contest's generators already follow: the generator is called as
//! `GENERATOR SEED` (a decimal number), reads nothing, and prints one input on standard
//! output, the same input for the same seed. It is `generators/fuzz` (a file of any
//! language, `fuzz.py`, or a folder, as a validator may be), else the one program in
//! `generators/`; files that are not programs (`generators.yaml`, notes) are passed over.

use std::fs;
use std::path::{Path, PathBuf};

use crate::cli::exit::Fault;

/// The name that picks the generator among several.
const CHOSEN: &str = "fuzz";

/// Extensions of files in `generators/` that are not programs.
const NOT_PROGRAMS: [&str; 5] = ["yaml", "yml", "md", "txt", "json"];

/// Where the package's generator is; exit 2 saying why when there is none, or several
/// and none named `fuzz`.
pub(crate) fn source(package: &Path) -> Result<PathBuf, Fault> {
    let dir = package.join("generators");
    if !crate::paths::files::folder_if_any(&dir)? {
        return Err(Fault::input(format!(
            "{}: no generators/ folder, so nothing to draw inputs from: `grader fuzz` on a package needs a generator (`generators/fuzz.py SEED` printing one input; docs/packages.md)",
            package.display()
        )));
    }
    let mut programs: Vec<PathBuf> = fs::read_dir(&dir)
        .map_err(|e| Fault::input(crate::paths::files::cannot(&dir, "list", &e)))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| is_program(p))
        .collect();
    programs.sort();
    if let Some(chosen) = programs.iter().find(|p| stem(p) == CHOSEN) {
        return Ok(chosen.clone());
    }
    match programs.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(Fault::input(format!(
            "{}: no generator in it (`fuzz.py SEED` printing one input; docs/packages.md)",
            dir.display()
        ))),
        several => Err(Fault::input(format!(
            "{}: several generators ({}); name the one to fuzz with `fuzz` (`fuzz.py`, or a folder `fuzz/`)",
            dir.display(),
            several
                .iter()
                .map(|p| p.file_name().unwrap_or_default().to_string_lossy())
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

/// Whether `path` in `generators/` may be a program: not hidden, and not a file of
/// settings or notes.
fn is_program(path: &Path) -> bool {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    if name.starts_with('.') {
        return false;
    }
    path.is_dir()
        || !path
            .extension()
            .is_some_and(|e| NOT_PROGRAMS.contains(&e.to_string_lossy().as_ref()))
}

/// A program's name without its extension.
fn stem(path: &Path) -> String {
    path.file_stem()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn package(files: &[&str]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for file in files {
            let path = dir.path().join(file);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, "").unwrap();
        }
        dir
    }

    fn found(files: &[&str]) -> Result<String, String> {
        let dir = package(files);
        source(dir.path())
            .map(|p| {
                p.strip_prefix(dir.path())
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .map_err(|e| e.to_string())
    }

    #[test]
    fn the_generator_is_the_one_program_or_the_one_named_fuzz() {
        assert_eq!(
            found(&["generators/gen.py", "generators/generators.yaml"]),
            Ok("generators/gen.py".to_owned())
        );
        assert_eq!(
            found(&["generators/a.py", "generators/fuzz.cpp", "generators/z.py"]),
            Ok("generators/fuzz.cpp".to_owned())
        );
        assert_eq!(
            found(&["generators/fuzz/main.py", "generators/b.py"]),
            Ok("generators/fuzz".to_owned())
        );
        let several = found(&["generators/a.py", "generators/b.py"]).unwrap_err();
        assert!(
            several.contains("several generators (a.py, b.py)"),
            "{several}"
        );
        let none = found(&["problem.yaml"]).unwrap_err();
        assert!(none.contains("no generators/ folder"), "{none}");
        let empty = found(&["generators/README.md"]).unwrap_err();
        assert!(empty.contains("no generator in it"), "{empty}");
    }
}
