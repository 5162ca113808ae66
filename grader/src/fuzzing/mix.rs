//! The fuzz mix of every problem as `grader fuzz --help` prints it (issue 24): each kind of
//! input the fuzzer draws and its share of the runs, read from the problem's one mix table
//! (`reference::puzzle::Share`, in each problem's `fuzzing.rs`), and the floor every
//! documented kind keeps.

use std::fmt::Write as _;

use reference::Problem;

/// The width the lists are wrapped to.
const WIDTH: usize = 80;

/// `runs` of `cycle` as a percentage to the nearest tenth: `16%`, `8.3%`.
fn percent(runs: u64, cycle: u64) -> String {
    tenths((runs * 1000 + cycle / 2) / cycle)
}

/// `num / den` as a percentage rounded down to a tenth, for a floor: `6.2%` for 1/16.
fn percent_down(num: u64, den: u64) -> String {
    tenths(num * 1000 / den)
}

fn tenths(tenths: u64) -> String {
    if tenths.is_multiple_of(10) {
        format!("{}%", tenths / 10)
    } else {
        format!("{}.{}%", tenths / 10, tenths % 10)
    }
}

/// `items` joined by `, ` into lines of at most [`WIDTH`] columns, each starting with
/// `indent`.
fn wrap(items: &[String], indent: &str) -> String {
    let mut out = String::new();
    let mut line = String::from(indent);
    for (i, item) in items.iter().enumerate() {
        let piece = if i + 1 < items.len() {
            format!("{item},")
        } else {
            item.clone()
        };
        if line.len() > indent.len() && line.len() + 1 + piece.len() > WIDTH {
            out.push_str(line.trim_end());
            out.push('\n');
            line = String::from(indent);
        }
        if line.len() > indent.len() {
            line.push(' ');
        }
        line.push_str(&piece);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// The text after `grader fuzz --help`: every problem's mix.
pub(crate) fn help() -> String {
    let mut out = String::from(
        "Fuzz mix: the share of the runs each kind of input gets. The first runs go once\n\
         through a cycle of the mix, each kind as often as its share and spread out, the\n\
         rarest classes first; later runs draw kinds at random in the same shares. Every\n\
         documented kind (as for `grader gen --kind`) keeps at least half of an even split.\n",
    );
    for problem in Problem::ALL {
        let cycle = problem.fuzz_mix().len() as u64;
        let (num, den) = problem.fuzz_floor();
        let _ = writeln!(
            out,
            "  {problem} (a cycle of {cycle} runs; every documented kind at least {}):",
            percent_down(num, den)
        );
        let kinds: Vec<String> = problem
            .fuzz_shares()
            .into_iter()
            .map(|(kind, runs)| format!("{kind} {}", percent(runs as u64, cycle)))
            .collect();
        out.push_str(&wrap(&kinds, "    "));
        // The kinds with a parameter, summed: what the floor is checked on.
        let families: Vec<String> = problem
            .fuzz_shares_by_kind()
            .into_iter()
            .filter(|(doc, _)| {
                problem
                    .fuzz_shares()
                    .iter()
                    .filter(|(kind, _)| doc.covers(kind))
                    .count()
                    > 1
            })
            .map(|(doc, runs)| format!("{} {}", doc.name, percent(runs as u64, cycle)))
            .collect();
        if !families.is_empty() {
            out.push_str(&wrap(&families, "    in all: "));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_round_to_a_tenth_and_drop_a_zero_tenth() {
        assert_eq!(percent(4, 25), "16%");
        assert_eq!(percent(1, 12), "8.3%");
        assert_eq!(percent(2, 15), "13.3%");
        assert_eq!(percent(1, 14), "7.1%");
        assert_eq!(percent(1, 16), "6.3%");
        assert_eq!(percent_down(1, 16), "6.2%");
    }

    #[test]
    fn lists_wrap_within_the_width_and_keep_every_item() {
        let items: Vec<String> = (0..40).map(|i| format!("kind-{i} 2.5%")).collect();
        let text = wrap(&items, "    ");
        assert!(
            text.lines()
                .all(|l| l.len() <= WIDTH && l.starts_with("    "))
        );
        assert_eq!(text.matches("kind-").count(), 40);
        assert_eq!(wrap(&["a 1%".to_owned()], "  "), "  a 1%\n");
    }

    #[test]
    fn the_help_gives_every_kind_of_every_mix_its_share() {
        let text = help();
        for problem in Problem::ALL {
            assert!(text.contains(&format!("  {problem} (a cycle of ")));
            let cycle = problem.fuzz_mix().len() as u64;
            for (kind, runs) in problem.fuzz_shares() {
                let shown = format!("{kind} {}", percent(runs as u64, cycle));
                assert!(text.contains(&shown), "{problem}: {shown} missing");
            }
        }
        assert!(text.contains("hardest 16%"), "{text}");
        // No line reads as a flag of `--help` (docs.rs checks those against cli.md).
        assert!(text.lines().all(|l| !l.trim_start().starts_with('-')));
        assert!(text.contains("answer=N 40%"), "{text}");
    }

    /// The runs the fuzzer really draws (`fuzz::draw`, random kinds after the first
    /// cycle) give every documented kind at least its floor, over seeds from anywhere in
    /// the range of seeds.
    #[test]
    fn every_documented_kind_gets_its_floor_of_the_runs_drawn_for_any_seed_range() {
        for seeds in [1..=20, 1 << 40..=(1 << 40) + 19, u64::MAX - 19..=u64::MAX] {
            for problem in Problem::ALL {
                let kinds = problem.kinds();
                let mut counts = vec![0_u64; kinds.len()];
                let mut total = 0_u64;
                for seed in seeds.clone() {
                    for run in 0..1000 {
                        let drawn = fuzz::draw(problem, seed, run);
                        let owner = kinds
                            .iter()
                            .position(|doc| doc.covers(&drawn.kind))
                            .expect("a documented kind");
                        counts[owner] += 1;
                        total += 1;
                    }
                }
                let (num, den) = problem.fuzz_floor();
                for (doc, count) in kinds.iter().zip(counts) {
                    assert!(
                        count * den >= num * total,
                        "{problem}, seeds {seeds:?}: {} drew {count} of {total} runs",
                        doc.name
                    );
                }
            }
        }
    }
}
