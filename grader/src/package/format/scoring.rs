//! Scoring problems (`type: scoring`): a submission's verdict and score from its cases',
//! group by group, as the format's default grader gives them. Each folder below `data/`
//! is a group; its rules are the nearest `testdata.yaml`'s (`data::rules_for`):
//!
//! - a case scores `accept_score` (default 1) when accepted, `reject_score` (default 0)
//!   when not;
//! - a group's score is the `sum` (default), `min`, `max` or `avg` (`grader_flags`) of its
//!   cases' and subgroups' scores, in name order, stopping after the first rejected one with
//!   `on_reject: break`; `ignore_sample` leaves out the `sample` group; the score is then
//!   kept within `range` (`LOW HIGH`);
//! - its verdict is its first rejected part's with `first_error`, else its worst's (in
//!   judging.md's precedence); with `accept_if_any_accepted`, `AC` when any part is.
//!
//! The 2025-09 version's groups (`max_score`, `score_aggregation`, `require_pass`, read by
//! `format::score_groups`) are rules of the same kind: a group's cases each worth its
//! `max_score` (`min`, `pass-fail`) or a share of it (`sum`), and a group that requires
//! another scoring nothing, as not accepted, unless that one is accepted.

use std::collections::BTreeMap;

use reference::Verdict;
use serde::Deserialize;

/// The scoring keys of a `testdata.yaml`.
#[derive(Debug, Default, Clone, Deserialize)]
pub(crate) struct RawRules {
    on_reject: Option<String>,
    range: Option<String>,
    accept_score: Option<f64>,
    reject_score: Option<f64>,
    grader_flags: Option<String>,
}

/// A group's rules.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Rules {
    accept: f64,
    reject: f64,
    range: (f64, f64),
    aggregate: Aggregate,
    verdict: VerdictOf,
    any_accepted: bool,
    ignore_sample: bool,
    stop_on_reject: bool,
    /// The groups (below `data/`: `sample`, `secret/group1`) that must be accepted for
    /// this one to score (2025-09's `require_pass`).
    require: Vec<String>,
    /// What one case of a 2025-09 group is worth in a gradebook: its equal share of the
    /// group's `max_score`, whatever the aggregation, so that a group whose cases lie in
    /// several folders is worth its `max_score` once across them. `None` in the legacy
    /// rules, whose folders are groups of their own.
    case_worth: Option<f64>,
}

/// Which part's verdict is a group's (when `accept_if_any_accepted` does not make it `AC`).
#[derive(Debug, Clone, Copy, PartialEq)]
enum VerdictOf {
    /// The worst part's, in judging.md's precedence (the default).
    Worst,
    /// The first rejected part's (`first_error`).
    FirstError,
}

/// How a group's score comes from its parts'.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Aggregate {
    Sum,
    Min,
    Max,
    Avg,
    /// The top of its range when every part is accepted, else nothing (2025-09's
    /// `pass-fail`).
    PassFail,
}

/// How a 2025-09 group's score comes from its cases' (`score_aggregation`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Aggregation {
    PassFail,
    Sum,
    Min,
}

impl Rules {
    /// A 2025-09 group's rules (`secret`, a test data group, and the folders inside one,
    /// which are no groups of their own): `max` its `max_score`, `cases` the cases below
    /// it (under `sum` each is worth an equal share), `require` the groups it requires.
    pub(crate) fn of_group(
        max: f64,
        aggregation: Aggregation,
        cases: usize,
        require: Vec<String>,
    ) -> Rules {
        let (aggregate, accept, stop_on_reject) = match aggregation {
            // A rejected case decides the group: nothing, whatever comes after.
            Aggregation::PassFail => (Aggregate::PassFail, max, true),
            Aggregation::Min => (Aggregate::Min, max, true),
            Aggregation::Sum => (Aggregate::Sum, max / cases.max(1) as f64, false),
        };
        Rules {
            accept,
            reject: 0.0,
            range: (0.0, max),
            aggregate,
            verdict: VerdictOf::Worst,
            any_accepted: false,
            ignore_sample: false,
            stop_on_reject,
            require,
            case_worth: Some(max / cases.max(1) as f64),
        }
    }

    /// These rules for a folder inside a 2025-09 group, which is no group of its own: its
    /// cases are worth what the group's are, its score counts toward the group's (not kept
    /// within the group's top: under `sum` a folder's worth is its cases' share), and
    /// the group's requirements are the group's alone.
    pub(crate) fn inside(self) -> Rules {
        Rules {
            range: (0.0, f64::INFINITY),
            require: Vec::new(),
            ..self
        }
    }

    /// 2025-09's `data/`: its score is `secret`'s, at most `max`; every case's verdict,
    /// the samples' too, makes its verdict.
    pub(crate) fn of_data(max: f64) -> Rules {
        Rules {
            range: (0.0, max),
            stop_on_reject: false,
            ..Rules::of_samples()
        }
    }

    /// 2025-09's `sample`: it scores nothing, and its verdicts count.
    pub(crate) fn of_samples() -> Rules {
        Rules {
            accept: 0.0,
            reject: 0.0,
            range: (0.0, 0.0),
            aggregate: Aggregate::Sum,
            verdict: VerdictOf::Worst,
            any_accepted: false,
            ignore_sample: false,
            stop_on_reject: false,
            require: Vec::new(),
            case_worth: None,
        }
    }
}

impl RawRules {
    /// The rules these keys give, or why they are wrong.
    pub(crate) fn rules(&self) -> Result<Rules, String> {
        let range = match &self.range {
            None => (f64::NEG_INFINITY, f64::INFINITY),
            Some(text) => {
                let bounds: Vec<f64> = text
                    .split_whitespace()
                    .map(|w| {
                        w.parse::<f64>()
                            .map_err(|_| format!("range: `{w}` is not a number"))
                    })
                    .collect::<Result<_, _>>()?;
                match bounds.as_slice() {
                    [low, high] if low <= high => (*low, *high),
                    _ => return Err(format!("range: `{text}` is not `LOW HIGH`")),
                }
            }
        };
        let mut rules = Rules {
            accept: self.accept_score.unwrap_or(1.0),
            reject: self.reject_score.unwrap_or(0.0),
            range,
            aggregate: Aggregate::Sum,
            verdict: VerdictOf::Worst,
            any_accepted: false,
            ignore_sample: false,
            require: Vec::new(),
            case_worth: None,
            stop_on_reject: match self.on_reject.as_deref() {
                None | Some("break") => true,
                Some("continue") => false,
                Some(other) => {
                    return Err(format!(
                        "on_reject: `{other}` is neither break nor continue"
                    ));
                }
            },
        };
        for flag in self
            .grader_flags
            .as_deref()
            .unwrap_or("")
            .split_whitespace()
        {
            match flag {
                "sum" => rules.aggregate = Aggregate::Sum,
                "min" => rules.aggregate = Aggregate::Min,
                "max" => rules.aggregate = Aggregate::Max,
                "avg" => rules.aggregate = Aggregate::Avg,
                "first_error" => rules.verdict = VerdictOf::FirstError,
                "worst_error" => rules.verdict = VerdictOf::Worst,
                "accept_if_any_accepted" => rules.any_accepted = true,
                "ignore_sample" => rules.ignore_sample = true,
                other => return Err(format!("grader_flags: `{other}` is not supported")),
            }
        }
        Ok(rules)
    }
}

/// The verdict and score of the cases `results` (name below `data/`, verdict), each
/// group ruled by `rules_of(group)` (`""` for `data/` itself).
pub(crate) fn grade(
    results: &[(String, Verdict)],
    rules_of: &dyn Fn(&str) -> Rules,
) -> (Verdict, f64) {
    let by_name: BTreeMap<&str, Verdict> = results.iter().map(|(n, v)| (n.as_str(), *v)).collect();
    group("", &by_name, rules_of)
}

/// Whether the case `case` can change the verdict or score of the cases before it,
/// `results` (every case before it in name order, none after): not when a group it is in
/// stops at its first rejected part (`on_reject: break`) and an earlier part of that group
/// was rejected, since [`grade`] then never looks at it. A verification leaves such cases
/// unrun: the group is decided.
pub(crate) fn needed(
    case: &str,
    results: &[(String, Verdict)],
    rules_of: &dyn Fn(&str) -> Rules,
) -> bool {
    let by_name: BTreeMap<&str, Verdict> = results.iter().map(|(n, v)| (n.as_str(), *v)).collect();
    let mut folder = String::new();
    let mut rest = case;
    while let Some((part, below)) = rest.split_once('/') {
        if decided(&folder, part, &by_name, rules_of) {
            return false;
        }
        folder = if folder.is_empty() {
            part.to_owned()
        } else {
            format!("{folder}/{part}")
        };
        if unmet(&folder, &by_name, rules_of).is_some() {
            return false;
        }
        rest = below;
    }
    !decided(&folder, rest, &by_name, rules_of)
}

/// The verdict of the first group `folder` requires (`require_pass`) that was not
/// accepted, if one was not: `folder` then scores nothing, its cases as not accepted.
/// A required group comes before `folder` in name order, so its cases are judged first.
fn unmet(
    folder: &str,
    results: &BTreeMap<&str, Verdict>,
    rules_of: &dyn Fn(&str) -> Rules,
) -> Option<Verdict> {
    rules_of(folder)
        .require
        .iter()
        .map(|required| group(required, results, rules_of).0)
        .find(|verdict| *verdict != Verdict::Accepted)
}

/// Whether the group `folder` stops before its part `part` (a case or subfolder name):
/// it stops at its first rejected part and one of the parts before `part` was rejected.
fn decided(
    folder: &str,
    part: &str,
    results: &BTreeMap<&str, Verdict>,
    rules_of: &dyn Fn(&str) -> Rules,
) -> bool {
    let rules = rules_of(folder);
    if !rules.stop_on_reject {
        return false;
    }
    let prefix = if folder.is_empty() {
        String::new()
    } else {
        format!("{folder}/")
    };
    let mut earlier: Vec<&str> = results
        .keys()
        .filter_map(|name| name.strip_prefix(prefix.as_str()))
        .map(|rest| rest.split('/').next().unwrap_or(rest))
        .filter(|p| *p != part)
        .collect();
    earlier.dedup();
    earlier.into_iter().any(|earlier| {
        if rules.ignore_sample && folder.is_empty() && earlier == "sample" {
            return false;
        }
        let name = format!("{prefix}{earlier}");
        let verdict = match results.get(name.as_str()) {
            Some(&verdict) => verdict,
            None => group(&name, results, rules_of).0,
        };
        verdict != Verdict::Accepted
    })
}

/// The verdict and score of the group `folder`.
fn group(
    folder: &str,
    results: &BTreeMap<&str, Verdict>,
    rules_of: &dyn Fn(&str) -> Rules,
) -> (Verdict, f64) {
    let rules = rules_of(folder);
    if let Some(verdict) = unmet(folder, results, rules_of) {
        return (verdict, 0.0);
    }
    let prefix = if folder.is_empty() {
        String::new()
    } else {
        format!("{folder}/")
    };
    // The parts: the cases right in the folder and its subfolders, in name order.
    let mut parts: Vec<String> = results
        .keys()
        .filter_map(|name| name.strip_prefix(prefix.as_str()))
        .map(|rest| rest.split('/').next().unwrap_or(rest).to_owned())
        .collect();
    parts.dedup();
    let mut judged = Vec::new();
    for part in parts {
        if rules.ignore_sample && folder.is_empty() && part == "sample" {
            continue;
        }
        let name = format!("{prefix}{part}");
        let (verdict, score) = match results.get(name.as_str()) {
            Some(&verdict) if verdict == Verdict::Accepted => (verdict, rules.accept),
            Some(&verdict) => (verdict, rules.reject),
            None => group(&name, results, rules_of),
        };
        judged.push((verdict, score));
        if verdict != Verdict::Accepted && rules.stop_on_reject {
            break;
        }
    }
    let verdict = if rules.any_accepted && judged.iter().any(|(v, _)| *v == Verdict::Accepted) {
        Verdict::Accepted
    } else if rules.verdict == VerdictOf::FirstError {
        judged
            .iter()
            .map(|(v, _)| *v)
            .find(|v| *v != Verdict::Accepted)
            .unwrap_or(Verdict::Accepted)
    } else {
        judged
            .iter()
            .map(|(v, _)| *v)
            .min_by_key(|v| Verdict::ALL.iter().position(|w| w == v))
            .unwrap_or(Verdict::Accepted)
    };
    let scores = judged.iter().map(|(_, s)| *s);
    let score = match rules.aggregate {
        Aggregate::Sum => scores.sum(),
        Aggregate::Min => scores.fold(f64::INFINITY, f64::min),
        Aggregate::Max => scores.fold(f64::NEG_INFINITY, f64::max),
        Aggregate::Avg => scores.sum::<f64>() / judged.len().max(1) as f64,
        Aggregate::PassFail if judged.iter().all(|(v, _)| *v == Verdict::Accepted) => rules.range.1,
        Aggregate::PassFail => 0.0,
    };
    let score = if score.is_finite() { score } else { 0.0 };
    (verdict, score.clamp(rules.range.0, rules.range.1))
}

/// The highest score `rules` allow: what an accepted submission of a scoring problem
/// must reach.
pub(crate) fn full(rules: &Rules) -> f64 {
    rules.range.1
}

/// What the group `group` (a folder holding `cases` cases) is worth in a gradebook: the
/// most it can score (its `range`'s top, else its cases' `accept_score` as its
/// aggregate takes them), and nothing for the samples `data/`'s `ignore_sample` leaves
/// out.
pub(crate) fn worth(group: &str, cases: usize, rules_of: &dyn Fn(&str) -> Rules) -> f64 {
    if group == "sample" && rules_of("").ignore_sample {
        return 0.0;
    }
    let rules = rules_of(group);
    if rules.range.1.is_finite() {
        return rules.range.1.max(0.0);
    }
    if let Some(each) = rules.case_worth {
        return each * cases as f64;
    }
    let most = match rules.aggregate {
        Aggregate::Sum => rules.accept * cases as f64,
        Aggregate::Min | Aggregate::Max | Aggregate::Avg | Aggregate::PassFail => rules.accept,
    };
    most.max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// problemtools' `oddecho` example: its testdata.yaml files, by group.
    fn oddecho(folder: &str) -> Rules {
        let text = match folder {
            "" => "on_reject: continue\nrange: 0 100\ngrader_flags: ignore_sample\n",
            "sample" => {
                "on_reject: continue\nrange: 0 0\naccept_score: 0\ngrader_flags: first_error\n"
            }
            "secret" => {
                "on_reject: continue\nrange: 0 100\ngrader_flags: first_error accept_if_any_accepted\n"
            }
            _ => "on_reject: break\naccept_score: 50\nrange: 0 50\ngrader_flags: min\n",
        };
        serde_yaml_ng::from_str::<RawRules>(text)
            .unwrap()
            .rules()
            .unwrap()
    }

    /// The cases `names`, each accepted but those `failing` gives a verdict.
    fn judged(
        names: impl Iterator<Item = String>,
        failing: &[(&str, Verdict)],
    ) -> Vec<(String, Verdict)> {
        let mut all: Vec<(String, Verdict)> = names.map(|name| (name, Verdict::Accepted)).collect();
        for (name, verdict) in failing {
            all.iter_mut().find(|(n, _)| n == name).unwrap().1 = *verdict;
        }
        all
    }

    fn results(failing: &[(&str, Verdict)]) -> Vec<(String, Verdict)> {
        let names = ["sample/1", "sample/2"]
            .into_iter()
            .map(str::to_owned)
            .chain((1..=3).map(|i| format!("secret/subtask1/{i}")))
            .chain((1..=10).map(|i| format!("secret/subtask2/{i:02}")));
        judged(names, failing)
    }

    #[test]
    fn oddechos_groups_score_as_problemtools_scores_them() {
        assert_eq!(grade(&results(&[]), &oddecho), (Verdict::Accepted, 100.0));
        // Its partially accepted submission: a wrong sample, subtask 1 right, subtask 2
        // crashing: AC with 50, the samples ignored and one subtask enough for AC.
        let partial = results(&[
            ("sample/2", Verdict::WrongAnswer),
            ("secret/subtask2/01", Verdict::RuntimeError),
        ]);
        assert_eq!(grade(&partial, &oddecho), (Verdict::Accepted, 50.0));
        let none = results(&[
            ("secret/subtask1/2", Verdict::WrongAnswer),
            ("secret/subtask2/03", Verdict::TimeLimit),
        ]);
        assert_eq!(grade(&none, &oddecho), (Verdict::WrongAnswer, 0.0));
        assert_eq!(oddecho("").range, (0.0, 100.0));
        assert_eq!(full(&oddecho("")).to_string(), "100");
    }

    /// Every case of `all` in order, run only when [`needed`]: the results a verification
    /// gets, which must grade as `all` does.
    fn as_verified(all: &[(String, Verdict)], rules_of: &dyn Fn(&str) -> Rules) -> Vec<String> {
        let mut ran: Vec<(String, Verdict)> = Vec::new();
        for (name, verdict) in all {
            if needed(name, &ran, rules_of) {
                ran.push((name.clone(), *verdict));
            }
        }
        assert_eq!(grade(&ran, rules_of), grade(all, rules_of), "{all:?}");
        ran.into_iter().map(|(n, _)| n).collect()
    }

    #[test]
    fn a_group_that_breaks_on_reject_runs_no_case_after_its_first_rejected_one() {
        // oddecho's subtasks break; its samples, `secret` and `data` continue.
        let partial = results(&[
            ("sample/1", Verdict::WrongAnswer),
            ("secret/subtask1/2", Verdict::WrongAnswer),
            ("secret/subtask2/01", Verdict::RuntimeError),
        ]);
        let ran = as_verified(&partial, &oddecho);
        assert_eq!(
            ran,
            [
                "sample/1",
                "sample/2",
                "secret/subtask1/1",
                "secret/subtask1/2",
                "secret/subtask2/01"
            ]
        );
        // Every case runs when none is rejected.
        assert_eq!(as_verified(&results(&[]), &oddecho).len(), 15);
        // The defaults break everywhere: after the first rejected case nothing runs, the
        // samples' groups included (a rejected `sample` part stops `data/`).
        let plain = |_: &str| RawRules::default().rules().unwrap();
        let ran = as_verified(&results(&[("sample/2", Verdict::TimeLimit)]), &plain);
        assert_eq!(ran, ["sample/1", "sample/2"]);
        // ignore_sample: a rejected sample does not stop `data/`, its own group still does.
        let ignoring = |folder: &str| {
            let text = if folder.is_empty() {
                "grader_flags: ignore_sample\n"
            } else {
                ""
            };
            serde_yaml_ng::from_str::<RawRules>(text)
                .unwrap()
                .rules()
                .unwrap()
        };
        let ran = as_verified(
            &results(&[
                ("sample/1", Verdict::WrongAnswer),
                ("secret/subtask2/02", Verdict::WrongAnswer),
            ]),
            &ignoring,
        );
        assert_eq!(ran.len(), 1 + 3 + 2);
        assert!(ran.contains(&"secret/subtask1/3".to_owned()));
    }

    #[test]
    fn a_groups_worth_is_the_most_it_can_score() {
        let plain = |_: &str| RawRules::default().rules().unwrap();
        let worths = [
            worth("secret/subtask1", 3, &oddecho),
            // ignore_sample
            worth("sample", 2, &oddecho),
            // a point a case, summed
            worth("secret", 4, &plain),
            // samples count unless ignored
            worth("sample", 2, &plain),
        ];
        assert_eq!(worths.map(|w| w.to_string()), ["50", "0", "4", "2"]);
    }

    /// A 2025-09 package: `secret` (100, `sum`) of `secret/a` (30, `pass-fail`),
    /// `secret/b` (20, `min`, requiring `secret/a`) and `secret/c` (50, `sum` of its ten
    /// cases, inside a folder of its own that is no group).
    fn of_2025(folder: &str) -> Rules {
        match folder {
            "" => Rules::of_data(100.0),
            "sample" => Rules::of_samples(),
            "secret" => Rules::of_group(100.0, Aggregation::Sum, 15, Vec::new()),
            "secret/a" => Rules::of_group(30.0, Aggregation::PassFail, 3, Vec::new()),
            "secret/b" => Rules::of_group(20.0, Aggregation::Min, 2, vec!["secret/a".to_owned()]),
            "secret/c" => Rules::of_group(50.0, Aggregation::Sum, 10, Vec::new()),
            _ => Rules::of_group(50.0, Aggregation::Sum, 10, Vec::new()).inside(),
        }
    }

    fn results_2025(failing: &[(&str, Verdict)]) -> Vec<(String, Verdict)> {
        let names = ["sample/1".to_owned()]
            .into_iter()
            .chain((1..=3).map(|i| format!("secret/a/{i}")))
            .chain((1..=2).map(|i| format!("secret/b/{i}")))
            .chain((1..=10).map(|i| format!("secret/c/big/{i:02}")));
        judged(names, failing)
    }

    #[test]
    fn groups_of_2025_09_score_by_their_max_score_aggregation_and_requirements() {
        assert_eq!(
            grade(&results_2025(&[]), &of_2025),
            (Verdict::Accepted, 100.0)
        );
        assert_eq!(full(&of_2025("")).to_string(), "100");
        // A wrong sample scores nothing less, and its verdict is the submission's.
        let sample = results_2025(&[("sample/1", Verdict::WrongAnswer)]);
        assert_eq!(grade(&sample, &of_2025), (Verdict::WrongAnswer, 100.0));
        // `sum`: each case of `secret/c` (inside a folder that is no group) worth 5.
        let two = results_2025(&[
            ("secret/c/big/03", Verdict::TimeLimit),
            ("secret/c/big/09", Verdict::WrongAnswer),
        ]);
        assert_eq!(grade(&two, &of_2025), (Verdict::TimeLimit, 90.0));
        // `min` and `pass-fail`: one rejected case, nothing for the group.
        let b = results_2025(&[("secret/b/2", Verdict::RuntimeError)]);
        assert_eq!(grade(&b, &of_2025), (Verdict::RuntimeError, 80.0));
        // `secret/a` rejected: `secret/b`, which requires it, scores nothing too.
        let a = results_2025(&[("secret/a/3", Verdict::WrongAnswer)]);
        assert_eq!(grade(&a, &of_2025), (Verdict::WrongAnswer, 50.0));
        // A verification leaves unrun what cannot count: the rest of `secret/a` after its
        // rejected case, and `secret/b`, whose requirement failed; every case of the `sum`
        // group runs.
        let a = results_2025(&[("secret/a/1", Verdict::WrongAnswer)]);
        let ran = as_verified(&a, &of_2025);
        assert!(!ran.iter().any(|n| n.starts_with("secret/b/")), "{ran:?}");
        assert_eq!(ran.len(), 1 + 1 + 10, "{ran:?}");
        assert_eq!(as_verified(&two, &of_2025).len(), 16);
        // What each group is worth in a gradebook.
        // A folder inside a `sum` group is worth its cases' share.
        let worths = [
            worth("sample", 1, &of_2025),
            worth("secret/a", 3, &of_2025),
            worth("secret/c/big", 10, &of_2025),
            worth("secret/c/big", 4, &of_2025),
        ];
        assert_eq!(worths.map(|w| w.to_string()), ["0", "30", "50", "20"]);
        // So is one inside a `pass-fail` or `min` group: split over two folders, the
        // group is worth its max_score once, not once a folder.
        let split = |folder: &str| match folder {
            "secret/d/x" | "secret/d/y" => {
                Rules::of_group(40.0, Aggregation::PassFail, 4, Vec::new()).inside()
            }
            "secret/e/x" => Rules::of_group(30.0, Aggregation::Min, 3, Vec::new()).inside(),
            _ => of_2025(folder),
        };
        let worths = [
            worth("secret/d/x", 1, &split),
            worth("secret/d/y", 3, &split),
            worth("secret/e/x", 3, &split),
        ];
        assert_eq!(worths.map(|w| w.to_string()), ["10", "30", "30"]);
    }

    #[test]
    fn defaults_sum_cases_and_report_the_worst_verdict() {
        let plain = |_: &str| RawRules::default().rules().unwrap();
        let mixed = vec![
            ("secret/1".to_owned(), Verdict::Accepted),
            ("secret/2".to_owned(), Verdict::WrongAnswer),
            ("secret/3".to_owned(), Verdict::TimeLimit),
        ];
        // on_reject defaults to break: the third case is not counted.
        assert_eq!(grade(&mixed, &plain), (Verdict::WrongAnswer, 1.0));
        let raw: RawRules = serde_yaml_ng::from_str("grader_flags: fastest\n").unwrap();
        assert!(raw.rules().unwrap_err().contains("fastest"));
        let raw: RawRules = serde_yaml_ng::from_str("range: 5 1\n").unwrap();
        assert!(raw.rules().is_err());
    }
}
