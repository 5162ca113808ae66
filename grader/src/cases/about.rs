//! What each group of a case folder is for: its manifest's `about` lines, by the group's
//! name in a gradebook (`secret/answers`). A student's feedback page shows them beside
//! the groups, so that a verdict-only page still says what a failing group tests.

use std::collections::BTreeMap;
use std::path::Path;

use reference::Problem;

use crate::cli::exit::Fault;

/// The `about` of each group of the case folder `folder` that has one; none when the
/// folder has no manifest (a folder of `*.in` files made by hand).
pub(crate) fn of_folder(
    folder: &Path,
    problem: Problem,
) -> Result<BTreeMap<String, String>, Fault> {
    let path = folder.join("manifest.toml");
    if !path.is_file() {
        return Ok(BTreeMap::new());
    }
    let manifest = super::manifest::load(&path, problem)?;
    Ok(manifest
        .groups
        .into_iter()
        .filter(|g| !g.about.trim().is_empty())
        .map(|g| (format!("secret/{}", g.name), g.about))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_flip_groups_say_what_they_are_for() {
        let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../cases/flip");
        let about = of_folder(&folder, Problem::Flip).unwrap();
        assert_eq!(
            about["secret/impossible"],
            "boards with no solution: `Impossible`, with a capital I"
        );
        assert!(!about.contains_key("sample"));
        let empty = tempfile::tempdir().unwrap();
        assert!(of_folder(empty.path(), Problem::Flip).unwrap().is_empty());
    }
}
