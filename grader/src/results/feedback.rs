//! What a student's feedback page (`grader batch --feedback DIR`) may show, and what each
//! page is called. The one rule of visibility: the page writer asks [`Reveal::of`] for
//! every case and draws nothing else, so what the teacher's choice hides is never in
//! the page, not even in its source.

use std::collections::BTreeSet;

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
