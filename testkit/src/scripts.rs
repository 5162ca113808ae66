//! Executable scripts a test writes (fake compilers, wrappers, gated programs), and the
//! language table that makes one of them a language's compiler.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::files::write;

/// Writes `text` to `dir/name` (folders made) as a program anyone may run (mode 755);
/// its path. `text` starts with its `#!` line.
pub fn script(dir: &Path, name: impl AsRef<Path>, text: impl AsRef<[u8]>) -> PathBuf {
    let path = write(dir, name, text);
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755))
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    path
}

/// A language table (`--config`, cli.md's "Languages") of one language, `name`, for the
/// sources ending in `.EXT`: compiled by `compiler SRC OUT`, and run as the program it
/// made. `more` is added to the entry as written (`compile_limits = { ... }\n`).
pub fn language_table(name: &str, ext: &str, compiler: &Path, more: &str) -> String {
    format!(
        "[{name}]\nextensions = [\"{ext}\"]\ncompile = [\"{}\", \"{{src}}\", \"{{out}}\"]\n\
         run = [\"{{out}}\"]\n{more}",
        compiler.display()
    )
}
