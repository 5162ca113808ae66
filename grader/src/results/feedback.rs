//! What a student's feedback page (`grader batch --feedback DIR`) may show, and what each
//! page is called. The one rule of visibility: the page writer asks [`Reveal::of`] for
//! every case and draws nothing else, so what the teacher's choice hides is never in
//! the page, not even in its source.

use std::collections::{BTreeMap, BTreeSet};

use reference::Verdict;

use super::case::{Board, CaseResult};

/// How much of the secret cases a feedback page shows (`--reveal`). Sample cases are
/// always shown in full.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Reveal {
    /// Each secret case's name and verdict only (the default: a forgotten flag leaks
    /// nothing of the secret data).
    #[default]
    Verdicts,
    /// Also the secret board, and for a wrong answer the reference's explanation (its
    /// reason and minimum solution, drawn step by step).
    Boards,
    /// Also the expected answer, the program's output and stderr, and the judge's message.
    All,
}

/// What a page shows of one case, beyond its name and verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Shown {
    /// The input board, and the explanation of a wrong answer (drawn from the board).
    pub(crate) board: bool,
    /// The expected answer, the program's output and stderr, and the judge's message
    /// (which may quote the expected answer).
    pub(crate) answer: bool,
}

impl Reveal {
    /// What a page shows of case `name` (`sample/01`, `secret/answers/03`).
    pub(crate) fn of(self, name: &str) -> Shown {
        let full = Shown {
            board: true,
            answer: true,
        };
        if is_sample(name) {
            return full;
        }
        match self {
            Reveal::Verdicts => Shown {
                board: false,
                answer: false,
            },
            Reveal::Boards => Shown {
                board: true,
                answer: false,
            },
            Reveal::All => full,
        }
    }

    /// How a page says what it shows of the secret cases.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Reveal::Verdicts => "secret cases show their verdict only",
            Reveal::Boards => {
                "secret cases show their verdict, their board and why a wrong answer is wrong"
            }
            Reveal::All => "secret cases are shown in full too",
        }
    }
}

/// What kind of mistake a failing case is, as far as its page may tell: a page draws one
/// case of each kind and lists the others by name. A kind finer than the verdict reads the
/// program's output against the expected answer, so it is told only of a case whose page
/// shows both ([`Shown::answer`]: a sample, or any case under `all`); any other case is of
/// its verdict's kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Mistake {
    /// Only the verdict is told (every verdict but `WA` and `PE`, and a `WA` whose answer
    /// the page does not show).
    Verdict(Verdict),
    /// `PE`: the right answer, laid out wrongly.
    Layout,
    /// No output, or only whitespace.
    NoOutput,
    /// The board cannot be solved, and the output does not start with `Impossible`.
    NotImpossible,
    /// `Impossible` (in any letter case) for a board that can be solved.
    SaidImpossible,
    /// The output starts with neither a count nor `Impossible`.
    NotACount,
    /// A count above the minimum.
    Above,
    /// A count below the minimum.
    Below,
    /// The right count (or `Impossible`), and what follows it wrong: swap's rows, or more
    /// after a one-line answer.
    RightStart,
}

impl Mistake {
    /// The kind of failing case `case` (its board `board`), on a page that shows `shown`
    /// of it.
    pub(crate) fn of(case: &CaseResult, board: Option<&Board>, shown: Shown) -> Mistake {
        match (case.verdict, board) {
            (Verdict::Presentation, _) => Mistake::Layout,
            (Verdict::WrongAnswer, Some(board)) if shown.answer => {
                said(&board.answer, &case.output)
            }
            (verdict, _) => Mistake::Verdict(verdict),
        }
    }

    /// The verdict of the cases of this kind.
    pub(crate) fn verdict(self) -> Verdict {
        match self {
            Mistake::Verdict(verdict) => verdict,
            Mistake::Layout => Verdict::Presentation,
            _ => Verdict::WrongAnswer,
        }
    }
}

/// The kind of a wrong `output` for `answer` (both problems' answers start with a count or
/// `Impossible`: a one-line answer, or swap's count before its rows), read by their first
/// whitespace-separated tokens.
fn said(answer: &str, output: &[u8]) -> Mistake {
    /// A count as answers write it: digits, no leading zero.
    fn count(token: &str) -> Option<u64> {
        let digits = !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit());
        (digits && (token == "0" || !token.starts_with('0')))
            .then(|| token.parse().ok())
            .flatten()
    }
    let output = String::from_utf8_lossy(output);
    let Some(got) = output.split_ascii_whitespace().next() else {
        return Mistake::NoOutput;
    };
    let expected = answer.split_ascii_whitespace().next().unwrap_or_default();
    if expected == "Impossible" {
        return if got == expected {
            Mistake::RightStart
        } else {
            Mistake::NotImpossible
        };
    }
    if got.eq_ignore_ascii_case("impossible") {
        return Mistake::SaidImpossible;
    }
    match (count(expected), count(got)) {
        (Some(m), Some(n)) => match n.cmp(&m) {
            std::cmp::Ordering::Greater => Mistake::Above,
            std::cmp::Ordering::Less => Mistake::Below,
            std::cmp::Ordering::Equal => Mistake::RightStart,
        },
        (Some(_), None) => Mistake::NotACount,
        // An answer file that is neither: nothing finer to tell.
        (None, _) => Mistake::Verdict(Verdict::WrongAnswer),
    }
}

/// A student's failing `cases` (in name order) by [`Mistake`], as a page at `reveal` may
/// tell them apart: the kinds in the order of their first case; in each, first the case
/// the page shows the most of (a sample, else the first such), then the others in order.
pub(crate) fn by_mistake<'a>(
    cases: impl IntoIterator<Item = &'a CaseResult>,
    boards: &BTreeMap<String, Board>,
    reveal: Reveal,
) -> Vec<(Mistake, Vec<&'a CaseResult>)> {
    let mut kinds: Vec<(Mistake, Vec<&CaseResult>)> = Vec::new();
    for case in cases {
        let kind = Mistake::of(case, boards.get(&case.name), reveal.of(&case.name));
        match kinds.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, same)) => same.push(case),
            None => kinds.push((kind, vec![case])),
        }
    }
    for (_, same) in &mut kinds {
        // A sample before a secret case shown as fully: the student has it at hand.
        let shown = |c: &CaseResult| {
            let shown = reveal.of(&c.name);
            (shown.answer, shown.board, is_sample(&c.name))
        };
        if let Some(most) = same.iter().map(|c| shown(c)).max()
            && let Some(at) = same.iter().position(|c| shown(c) == most)
        {
            let first = same.remove(at);
            same.insert(0, first);
        }
    }
    kinds
}

/// Whether case `name` is a sample: in the group `sample` or below it.
fn is_sample(name: &str) -> bool {
    name.strip_prefix("sample/")
        .is_some_and(|rest| !rest.is_empty())
}

/// The longest page name, before `.html` and a number that makes it unique.
const LONGEST: usize = 100;

/// Each student's page file name, in the order given: one flat folder of
/// `<name>.html` (a section's student `section-a/alice` is `section-a--alice.html`: the
/// pages are handed out one by one, so no folder tree is rebuilt). A character that is
/// not a letter, a digit, `-`, `_` or `.` becomes `_`, a leading `.` too (no hidden
/// pages). Names that become equal (ignoring case, for case-blind file systems): the
/// first student by name keeps it, and so does any student whose own name it is; the
/// others get `-2`, `-3`, ... The names do not depend on the order the students are
/// given in (the names checked before grading are the names written after it).
pub(crate) fn page_names<'a>(students: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let students: Vec<&str> = students.into_iter().collect();
    let mut order: Vec<usize> = (0..students.len()).collect();
    order.sort_by_key(|&i| students[i]);
    let bases: Vec<String> = students.iter().map(|s| safe(s)).collect();
    let mut taken = BTreeSet::new();
    let mut names: Vec<Option<String>> = vec![None; students.len()];
    // First every name that is free as it is, then the rest with a number.
    for &i in &order {
        if taken.insert(bases[i].to_lowercase()) {
            names[i] = Some(bases[i].clone());
        }
    }
    for &i in &order {
        let mut n = 1;
        while names[i].is_none() {
            n += 1;
            let name = format!("{}-{n}", bases[i]);
            if taken.insert(name.to_lowercase()) {
                names[i] = Some(name);
            }
        }
    }
    names
        .into_iter()
        .map(|name| format!("{}.html", name.unwrap_or_default()))
        .collect()
}

/// A student's name as one file name (see [`page_names`]).
fn safe(student: &str) -> String {
    let parts: Vec<String> = student
        .split('/')
        .filter(|part| !part.is_empty())
        .map(|part| {
            part.chars()
                .enumerate()
                .map(|(i, c)| match c {
                    '.' if i == 0 => '_',
                    c if c.is_alphanumeric() || matches!(c, '-' | '_' | '.') => c,
                    _ => '_',
                })
                .collect()
        })
        .collect();
    let joined: String = parts.join("--").chars().take(LONGEST).collect();
    if joined.is_empty() {
        "student".to_owned()
    } else {
        joined
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_are_always_shown_in_full_and_secrets_as_the_teacher_chose() {
        let full = Shown {
            board: true,
            answer: true,
        };
        for reveal in [Reveal::Verdicts, Reveal::Boards, Reveal::All] {
            assert_eq!(reveal.of("sample/01"), full);
            assert_eq!(reveal.of("sample/deep/01"), full);
        }
        assert_eq!(
            Reveal::Verdicts.of("secret/01"),
            Shown {
                board: false,
                answer: false
            }
        );
        // A group named like the sample group is not it.
        assert!(!Reveal::Verdicts.of("samples/01").board);
        assert!(!Reveal::Verdicts.of("secret/sample/01").board);
        assert_eq!(
            Reveal::Boards.of("secret/01"),
            Shown {
                board: true,
                answer: false
            }
        );
        assert_eq!(Reveal::All.of("secret/01"), full);
        assert_eq!(Reveal::default(), Reveal::Verdicts);
    }

    /// A failing case of `verdict` whose program printed `output`.
    fn failing(name: &str, verdict: Verdict, output: &str) -> CaseResult {
        CaseResult::new(
            name,
            reference::Judgement {
                verdict,
                message: "m".to_owned(),
            },
            crate::results::case::Figures::default(),
            output.as_bytes().to_vec(),
            Vec::new(),
        )
    }

    fn board(answer: &str) -> Board {
        Board {
            input: "bwwb\nbbwb\nbwwb\nbwww\n".to_owned(),
            answer: answer.to_owned(),
            interaction: None,
        }
    }

    #[test]
    fn a_wrong_answer_is_of_the_kind_its_first_token_says_against_the_answer() {
        use Mistake::{
            Above, Below, Layout, NoOutput, NotACount, NotImpossible, RightStart, SaidImpossible,
        };
        let full = Reveal::All.of("secret/01");
        let table: [(&str, &str, Mistake); 16] = [
            ("4\n", "5\n", Above),
            ("4\n", "17\n", Above),
            ("4\n", "3\n", Below),
            ("4\n", "0\n", Below),
            ("0\n", "2\n", Above),
            ("4\n", "", NoOutput),
            ("4\n", " \n\n", NoOutput),
            ("4\n", "Impossible\n", SaidImpossible),
            ("4\n", "impossible\n", SaidImpossible),
            ("4\n", "-1\n", NotACount),
            ("4\n", "04\n", NotACount),
            ("4\n", "4 4\n", RightStart),
            ("Impossible\n", "impossible\n", NotImpossible),
            ("Impossible\n", "-1\n", NotImpossible),
            ("Impossible\n", "17\n", NotImpossible),
            // swap: the count, then rows.
            ("Impossible\n", "Impossible\nOWB\n", RightStart),
        ];
        for (answer, output, kind) in table {
            let case = failing("secret/01", Verdict::WrongAnswer, output);
            assert_eq!(
                Mistake::of(&case, Some(&board(answer)), full),
                kind,
                "{answer:?} {output:?}"
            );
        }
        let swap = failing("secret/01", Verdict::WrongAnswer, "3\nOWB\nOBW\nBWO\n");
        assert_eq!(
            Mistake::of(&swap, Some(&board("3\nOWB\nOBW\nBOW\n")), full),
            RightStart
        );
        // Every verdict but WA and PE is its own kind; PE is a layout mistake.
        for verdict in [
            Verdict::TimeLimit,
            Verdict::RuntimeError,
            Verdict::OutputLimit,
        ] {
            let case = failing("secret/01", verdict, "5\n");
            assert_eq!(
                Mistake::of(&case, Some(&board("4\n")), full),
                Mistake::Verdict(verdict)
            );
        }
        let pe = failing("secret/01", Verdict::Presentation, "\n4\n");
        assert_eq!(Mistake::of(&pe, Some(&board("4\n")), full), Layout);
        assert_eq!(
            Mistake::of(&pe, None, Reveal::Verdicts.of("secret/01")),
            Layout
        );
    }

    #[test]
    fn a_secret_case_is_of_its_verdicts_kind_unless_the_page_shows_its_answer() {
        // The kind reads the output against the answer: told only where both are shown.
        let case = failing("secret/01", Verdict::WrongAnswer, "impossible\n");
        let answer = board("Impossible\n");
        for reveal in [Reveal::Verdicts, Reveal::Boards] {
            assert_eq!(
                Mistake::of(&case, Some(&answer), reveal.of(&case.name)),
                Mistake::Verdict(Verdict::WrongAnswer),
                "{reveal:?}"
            );
        }
        let sample = failing("sample/01", Verdict::WrongAnswer, "impossible\n");
        for reveal in [Reveal::Verdicts, Reveal::Boards, Reveal::All] {
            assert_eq!(
                Mistake::of(&sample, Some(&answer), reveal.of(&sample.name)),
                Mistake::NotImpossible
            );
        }
        // No board kept: nothing finer than the verdict.
        assert_eq!(
            Mistake::of(&case, None, Reveal::All.of(&case.name)),
            Mistake::Verdict(Verdict::WrongAnswer)
        );
    }

    #[test]
    fn failing_cases_are_grouped_by_kind_with_the_most_shown_case_first() {
        let cases = [
            failing("secret/a/01", Verdict::WrongAnswer, "5\n"),
            failing("secret/a/02", Verdict::TimeLimit, ""),
            failing("sample/01", Verdict::WrongAnswer, "5\n"),
            failing("secret/b/01", Verdict::WrongAnswer, "6\n"),
            failing("secret/b/02", Verdict::WrongAnswer, "3\n"),
        ];
        let boards: BTreeMap<String, Board> = cases
            .iter()
            .map(|c| (c.name.clone(), board("4\n")))
            .collect();
        let names = |kinds: Vec<(Mistake, Vec<&CaseResult>)>| -> Vec<(Mistake, Vec<String>)> {
            kinds
                .into_iter()
                .map(|(k, cases)| (k, cases.iter().map(|c| c.name.clone()).collect()))
                .collect()
        };
        let wa = Mistake::Verdict(Verdict::WrongAnswer);
        let tle = Mistake::Verdict(Verdict::TimeLimit);
        assert_eq!(
            names(by_mistake(&cases, &boards, Reveal::Verdicts)),
            [
                (
                    wa,
                    vec![
                        "secret/a/01".into(),
                        "secret/b/01".into(),
                        "secret/b/02".into()
                    ]
                ),
                (tle, vec!["secret/a/02".into()]),
                (Mistake::Above, vec!["sample/01".into()]),
            ]
        );
        assert_eq!(
            names(by_mistake(&cases, &boards, Reveal::All)),
            [
                // The sample first: a page shows it in full whatever the level.
                (
                    Mistake::Above,
                    vec![
                        "sample/01".into(),
                        "secret/a/01".into(),
                        "secret/b/01".into()
                    ]
                ),
                (tle, vec!["secret/a/02".into()]),
                (Mistake::Below, vec!["secret/b/02".into()]),
            ]
        );
    }

    #[test]
    fn page_names_are_flat_safe_and_unique() {
        assert_eq!(
            page_names([
                "alice",
                "section-a/alice",
                "../etc",
                "Alice",
                "carol<script>",
                "José",
                ".hidden",
                "a b/c"
            ]),
            [
                "alice-2.html",
                "section-a--alice.html",
                "_.--etc.html",
                "Alice.html",
                "carol_script_.html",
                "José.html",
                "_hidden.html",
                "a_b--c.html"
            ]
        );
        // The same names whatever the order.
        assert_eq!(
            page_names(["a", "a-2", "A"]),
            ["a-3.html", "a-2.html", "A.html"]
        );
        assert_eq!(
            page_names(["A", "a-2", "a"]),
            ["A.html", "a-2.html", "a-3.html"]
        );
        let long = "x".repeat(300);
        assert_eq!(page_names([long.as_str()])[0].len(), LONGEST + 5);
        assert_eq!(page_names(["/"]), ["student.html"]);
    }
}
