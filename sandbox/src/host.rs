//! What the box asks of the program it runs in (its host): a new folder for a box's root,
//! a scratch folder's parent or a trial's files, and whether that program is stopping.
//!
//! Passed in, not kept here: the grader makes every temporary folder inside one locked
//! folder of its own, which it sweeps when a killed grader left one and removes at its
//! end or at a signal, and which holds the grader's own staging folders too; and a stop
//! is a signal the grader's own thread takes. Both are the host's whole-process affairs.
//! The box needs only "a new folder" and "are we stopping", which [`Host`] says, so a
//! program that embeds the box without the grader gets plain folders in the temporary
//! folder ([`std::env::temp_dir`]) and is never stopping until it calls [`set_host`].

use std::fs;
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::sync::OnceLock;

/// What the box asks of the program it runs in. Set once per process with [`set_host`];
/// until then the box uses plain folders in the temporary folder and never stops a probe.
pub trait Host: Sync {
    /// A new, empty folder `NAME-XXXXXX` (its name starting with `name`), mode 0755
    /// (programs running as a worker's own uid must enter the folders below it), removed
    /// when the returned value is dropped.
    fn temp_dir(&self, name: &str) -> io::Result<tempfile::TempDir>;

    /// Whether the program is stopping (a signal came): a toolchain's version probe under
    /// way ([`crate::trace::probe`]) is then killed and says nothing.
    fn stopping(&self) -> bool;
}

/// The host set by [`set_host`].
static HOST: OnceLock<&'static dyn Host> = OnceLock::new();

/// Sets the host of this process's boxes: once, before the first worker starts. `false`
/// (and nothing changed) when one was set already.
pub fn set_host(host: &'static dyn Host) -> bool {
    HOST.set(host).is_ok()
}

/// The host's [`Host::temp_dir`], or a plain folder in the temporary folder.
pub(crate) fn temp_dir(name: &str) -> io::Result<tempfile::TempDir> {
    match HOST.get() {
        Some(host) => host.temp_dir(name),
        None => plain_dir(name),
    }
}

/// The host's [`Host::stopping`], or never.
pub(crate) fn stopping() -> bool {
    HOST.get().is_some_and(|host| host.stopping())
}

/// A new folder `NAME-XXXXXX` in the temporary folder, mode 0755; removed on drop.
fn plain_dir(name: &str) -> io::Result<tempfile::TempDir> {
    let dir = tempfile::Builder::new()
        .prefix(&format!("{name}-"))
        .tempdir()?;
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755))?;
    Ok(dir)
}
