//! The isolation tiers by name, and the machine's folders a box shows without being told.

use std::fmt;

/// An isolation tier (written by its name, as on the command line).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Tier {
    /// A session of its own and the whole run killed, only.
    None,
    /// rlimits, cgroup accounting, and a uid per worker when the grader is root.
    Basic,
    /// The box (namespaces, its own root file system) and seccomp on top.
    Strict,
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Tier::None => "none",
            Tier::Basic => "basic",
            Tier::Strict => "strict",
        })
    }
}

/// Whether `path` lies in [`SYSTEM_READ`]: a box shows it without being told.
pub fn in_system_folders(path: &std::path::Path) -> bool {
    SYSTEM_READ.iter().any(|root| path.starts_with(root))
}

/// The machine's folders a box shows, read-only: the system's, whatever of them exists.
pub const SYSTEM_READ: [&str; 9] = [
    "/usr",
    "/lib",
    "/lib64",
    "/lib32",
    "/bin",
    "/sbin",
    "/etc",
    "/opt",
    // Runtimes count the processors here.
    "/sys/devices/system/cpu",
];
