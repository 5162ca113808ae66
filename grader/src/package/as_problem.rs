//! A package where a command takes a problem's name (`test`, `batch`): its cases, read
//! and checked by its own validators before anything compiles or runs (a case they refuse
//! is the call's fault, exit 2, as a broken case folder is); its judge; the time limit
//! (`problem.yaml`'s, else set from its accepted submissions as `package verify` sets
//! it); and, for a scoring problem, what each group of cases is worth.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use crate::cases::points::Points;
use crate::cli::exit::Fault;
use crate::package::checks::data_check;
use crate::package::checks::verify;
use crate::package::format::config::{self, Config};
use crate::package::format::data::{self, TestCase};
use crate::package::format::included;
use crate::package::format::scoring;
use crate::package::programs::building::Setup;
use crate::package::programs::output_judge::PackageJudge;
use crate::run::grade::{CaseText, SoundCase};
use crate::submission::added::Added;

/// A package, read and checked, ready to grade on.
#[derive(Debug)]
pub(crate) struct PackageProblem {
    /// Its short name: its folder's.
    pub(crate) id: String,
    /// What `problem.yaml` says.
    pub(crate) config: Config,
    /// Its cases, in name order, with the flags their folders give.
    pub(crate) tests: Vec<TestCase>,
    /// The same cases, their files read.
    pub(crate) cases: Vec<SoundCase>,
    /// How an output is judged.
    pub(crate) judge: PackageJudge,
    /// The files its `include/` adds to every submission (`format::included`).
    pub(crate) added: Arc<Added>,
}

/// Reads the package at `package` and checks its data by its validators, built and run as
/// `setup` says. The validators' refusals are the call's fault: the first one named, with
/// how many there are.
pub(crate) fn load(package: &Path, setup: &Setup<'_>) -> Result<PackageProblem, Fault> {
    crate::paths::folders::existing(package, "read a package in")?;
    let config = config::load(package)?;
    let tests = data::load(package, &config.constants)?;
    let (checked, judge) = data_check::checked_and_judge(package, &config, &tests, setup)?;
    if let Some(first) = checked.faults.first() {
        let more = match checked.faults.len() {
            1 => String::new(),
            n => format!(" (and {} more; `grader cases check` lists them)", n - 1),
        };
        return Err(Fault::input(format!(
            "{}: {first}{more}: the package's data is at fault",
            package.display()
        )));
    }
    unchecked(package, &checked)?;
    let cases = tests
        .iter()
        .map(|test| {
            let mut case = test.case.clone();
            case.answer = Some(test.answer.clone());
            let text = CaseText::load(&case)?;
            Ok(SoundCase { case, text })
        })
        .collect::<Result<_, Fault>>()?;
    let id = package
        .canonicalize()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| config.name.clone());
    let added = included::added(package, &config.constants, setup.options.languages)?;
    Ok(PackageProblem {
        id,
        config,
        tests,
        cases,
        judge,
        added,
    })
}

/// Says which input validators could not run (a language the grader has no entry for, a
/// compiler this machine lacks, a checktestdata script without `pyctd`): the data is not checked by them,
/// and a grade must not rest on it unsaid. None run at all, with some there: exit 2, the
/// data would go unchecked; some run: a warning naming the others and what checked the data.
fn unchecked(package: &Path, checked: &data_check::Checked) -> Result<(), Fault> {
    if checked.skipped.is_empty() {
        return Ok(());
    }
    if checked.ran.is_empty() {
        return Err(Fault::input(format!(
            "{}: no input validator of the package could run ({}), so its data would go \
             unchecked (docs/packages.md)",
            package.display(),
            checked.skipped.join("; ")
        )));
    }
    for skipped in &checked.skipped {
        crate::report::note(&format!(
            "grader: warning: {}: {skipped}; the data is checked by {} only",
            package.display(),
            checked.ran.join(", ")
        ));
    }
    Ok(())
}

impl PackageProblem {
    /// The time limit `problem.yaml` fixes, or, when it fixes none, the one its accepted
    /// submissions set (they run first, as `package verify` runs them).
    pub(crate) fn time_limit(&self, package: &Path, setup: &Setup<'_>) -> Result<Duration, Fault> {
        match self.config.limits.time {
            Some(fixed) => Ok(fixed),
            None => verify::limit_from_accepted(
                package,
                (&self.config, &self.tests, &self.judge),
                &setup.with_added(Arc::clone(&self.added)),
            ),
        }
    }

    /// What each group of cases is worth: for a scoring problem, the most each can score
    /// by its `testdata.yaml` (`scoring::worth`); a pass-fail problem's groups are worth
    /// nothing in particular (`None`: a point a case, as a case folder without points).
    pub(crate) fn points(&self, package: &Path) -> Result<Option<Points>, Fault> {
        if !self.config.scoring {
            return Ok(None);
        }
        let (rules, _) = verify::group_rules(package, &self.tests, &self.config)?;
        let mut groups: BTreeMap<&str, usize> = BTreeMap::new();
        for case in &self.cases {
            *groups.entry(case.case.group()).or_default() += 1;
        }
        // Every folder a case is in has its rules (`group_rules`); a case right in
        // `data/` (the group `.`) is ruled by `data/`'s.
        let rules_of = |group: &str| rules.get(group).unwrap_or(&rules[""]).clone();
        Ok(Some(
            groups
                .into_iter()
                .map(|(group, count)| (group.to_owned(), scoring::worth(group, count, &rules_of)))
                .collect(),
        ))
    }
}
