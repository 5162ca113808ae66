//! What each group of a case folder is worth in a gradebook: `points` in the folder's
//! manifest (`sample_points` for the samples), or `--points GROUP=N`, which wins. A
//! student earns each group's points in proportion to its cases that are `AC`; a group
//! nobody gave points is worth none.

use std::collections::BTreeMap;
use std::path::Path;

use reference::Problem;

use super::find::Case;
use super::manifest::Manifest;
use crate::cli::exit::Fault;

/// Points by group (the gradebook's group names: `sample`, `secret/answers`).
pub(crate) type Points = BTreeMap<String, f64>;

/// The group of the samples, as the case folder names it.
const SAMPLE: &str = "sample";

/// A `--points GROUP=N` rule.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PointsRule {
    /// The group.
    pub(crate) group: String,
    /// What it is worth.
    pub(crate) points: f64,
}

impl std::str::FromStr for PointsRule {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (group, points) = text.rsplit_once('=').ok_or_else(|| {
            format!("expected GROUP=POINTS such as `secret/answers=40`, got `{text}`")
        })?;
        let points: f64 = points
            .trim()
            .parse()
            .ok()
            .filter(|p: &f64| p.is_finite() && *p >= 0.0)
            .ok_or_else(|| format!("`{text}`: the points must be a number, 0 or more"))?;
        Ok(PointsRule {
            group: group.trim().trim_end_matches('/').to_owned(),
            points,
        })
    }
}

/// The points a manifest gives, by group.
fn of_manifest(manifest: Option<&Manifest>) -> Points {
    let mut points = Points::new();
    if let Some(manifest) = manifest {
        if let Some(p) = manifest.sample_points {
            points.insert(SAMPLE.to_owned(), p);
        }
        for group in &manifest.groups {
            if let Some(p) = group.points {
                points.insert(format!("secret/{}", group.name), p);
            }
        }
    }
    points
}

/// The points `given` (a manifest's or a package's) with `rules` over them, group by
/// group (0 included): only the groups they name. A rule for a group the folder does not
/// have is refused.
fn priced(
    given: Points,
    rules: &[PointsRule],
    groups: &BTreeMap<String, usize>,
) -> Result<Points, Fault> {
    let mut points = given;
    for rule in rules {
        if !groups.contains_key(&rule.group) {
            return Err(Fault::call(format!(
                "--points {}={}: the cases have no group `{}` (their groups: {})",
                rule.group,
                rule.points,
                rule.group,
                groups.keys().cloned().collect::<Vec<_>>().join(", ")
            )));
        }
        points.insert(rule.group.clone(), rule.points);
    }
    Ok(points)
}

/// `priced` with every group of `groups` (those it does not name at 0), so a gradebook
/// says what each is worth; `None` when nothing is priced.
fn every_group(priced: &Points, groups: &BTreeMap<String, usize>) -> Option<Points> {
    (!priced.is_empty()).then(|| {
        groups
            .keys()
            .map(|g| (g.clone(), priced.get(g).copied().unwrap_or(0.0)))
            .collect()
    })
}

/// The points of the case folder `folder` (whose cases are `cases`): its manifest's, when
/// it has one, with `rules` over them ([`priced`], every group listed); and a warning when some groups are
/// given points and others none (a group left out of `--points` silently counting for
/// nothing is a teacher's mistake more often than a choice: `GROUP=0` says it is one).
pub(crate) fn of_folder(
    folder: &Path,
    problem: Problem,
    rules: &[PointsRule],
    cases: &[Case],
) -> Result<(Option<Points>, Option<String>), Fault> {
    let path = folder.join("manifest.toml");
    let manifest = if path.is_file() {
        Some(super::manifest::load(&path, problem)?)
    } else {
        None
    };
    with_rules(of_manifest(manifest.as_ref()), rules, cases)
}

/// The points `given` (a package's groups') with `rules` over them, as [`of_folder`]
/// gives a case folder's.
pub(crate) fn with_rules(
    given: Points,
    rules: &[PointsRule],
    cases: &[Case],
) -> Result<(Option<Points>, Option<String>), Fault> {
    let mut groups: BTreeMap<String, usize> = BTreeMap::new();
    for case in cases {
        *groups.entry(case.group().to_owned()).or_default() += 1;
    }
    let priced = priced(given, rules, &groups)?;
    let warning = if priced.is_empty() {
        None
    } else {
        unpriced(&groups, &priced)
    };
    Ok((every_group(&priced, &groups), warning))
}

/// The warning for the groups of `groups` that `priced` does not name, if any.
fn unpriced(groups: &BTreeMap<String, usize>, priced: &Points) -> Option<String> {
    let left: Vec<String> = groups
        .iter()
        .filter(|(group, _)| !priced.contains_key(*group))
        .map(|(group, cases)| {
            let s = if *cases == 1 { "" } else { "s" };
            format!("`{group}` ({cases} case{s})")
        })
        .collect();
    if left.is_empty() {
        return None;
    }
    let (they, counts, them) = if left.len() == 1 {
        ("it", "counts", "it")
    } else {
        ("they", "count", "them")
    };
    Some(format!(
        "no points for {}: {they} {counts} for nothing in the score; give {them} points with --points GROUP=N, or GROUP=0 to say so",
        left.join(", ")
    ))
}

/// The points earned with `passed` of `total` cases in each group: each group's share
/// to two decimals, summed (so that a report listing the groups, or the cases, sums to
/// the score exactly).
pub(crate) fn earned(points: &Points, tally: impl Fn(&str) -> (usize, usize)) -> f64 {
    let cents: i64 = points
        .iter()
        .map(|(group, &worth)| {
            let (passed, total) = tally(group);
            if total == 0 {
                0
            } else {
                (worth * 100.0 * passed as f64 / total as f64).round() as i64
            }
        })
        .sum();
    cents as f64 / 100.0
}

/// What a whole folder is worth.
pub(crate) fn most(points: &Points) -> f64 {
    points.values().sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The points of `groups` as [`of_folder`] chooses them, without a folder.
    fn choose(
        manifest: Option<&Manifest>,
        rules: &[PointsRule],
        groups: &BTreeMap<String, usize>,
    ) -> Result<Option<Points>, Fault> {
        Ok(every_group(
            &priced(of_manifest(manifest), rules, groups)?,
            groups,
        ))
    }

    fn groups() -> BTreeMap<String, usize> {
        BTreeMap::from([
            ("sample".to_owned(), 1),
            ("secret/answers".to_owned(), 4),
            ("secret/hard".to_owned(), 2),
        ])
    }

    fn manifest() -> Manifest {
        let text = "problem = \"flip\"\nsamples = [\"bwwb\\nbbwb\\nbwwb\\nbwww\\n\"]\n\
                    sample_points = 0\n[[group]]\nname = \"answers\"\nkinds = [\"answer=1\"]\n\
                    seed = 1\ncount = 4\npoints = 60\n[[group]]\nname = \"hard\"\n\
                    kinds = [\"hardest\"]\nseed = 2\ncount = 2\n";
        super::super::manifest::parse(Path::new("m.toml"), text, reference::Problem::Flip).unwrap()
    }

    #[test]
    fn the_manifest_gives_points_and_flags_win() {
        let from_manifest = choose(Some(&manifest()), &[], &groups()).unwrap().unwrap();
        assert_eq!(from_manifest["secret/answers"].to_string(), "60");
        assert_eq!(from_manifest["secret/hard"].to_string(), "0");
        let rule: PointsRule = "secret/hard=40".parse().unwrap();
        let both = choose(Some(&manifest()), &[rule], &groups())
            .unwrap()
            .unwrap();
        assert_eq!(most(&both).to_string(), "100");
        assert_eq!(choose(None, &[], &groups()).unwrap(), None);
    }

    #[test]
    fn a_student_earns_each_groups_share_of_ac_cases() {
        let points = choose(
            Some(&manifest()),
            &["secret/hard=40".parse().unwrap()],
            &groups(),
        )
        .unwrap()
        .unwrap();
        let tally = |g: &str| match g {
            "secret/answers" => (3, 4),
            "secret/hard" => (1, 2),
            _ => (1, 1),
        };
        assert_eq!(earned(&points, tally).to_string(), "65");
    }

    #[test]
    fn a_group_neither_the_manifest_nor_a_flag_prices_is_warned_of() {
        let rule: PointsRule = "secret/answers=60".parse().unwrap();
        let warning = unpriced(
            &groups(),
            &priced(Points::new(), &[rule], &groups()).unwrap(),
        )
        .unwrap();
        assert_eq!(
            warning,
            "no points for `sample` (1 case), `secret/hard` (2 cases): they count for nothing in the score; give them points with --points GROUP=N, or GROUP=0 to say so"
        );
        // An explicit 0 is a choice; so is the manifest's `sample_points = 0`.
        let rules: Vec<PointsRule> = ["secret/answers=60", "secret/hard=0"]
            .iter()
            .map(|r| r.parse().unwrap())
            .collect();
        let all = priced(of_manifest(Some(&manifest())), &rules, &groups()).unwrap();
        assert_eq!(unpriced(&groups(), &all), None);
    }

    #[test]
    fn bad_rules_are_refused_with_what_was_expected() {
        for bad in ["x", "secret/hard=-1", "secret/hard=lots", "secret/hard=inf"] {
            assert!(bad.parse::<PointsRule>().is_err(), "{bad}");
        }
        let unknown = choose(None, &["secret/nope=3".parse().unwrap()], &groups()).unwrap_err();
        assert_eq!(unknown.cause(), crate::cli::exit::Cause::Call);
        assert!(
            unknown.to_string().contains("the cases have no group `secret/nope` (their groups: sample, secret/answers, secret/hard)"),
            "{unknown}"
        );
    }
}
