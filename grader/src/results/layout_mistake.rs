//! What is wrong with a right answer's layout (a `PE`), in words that do not depend on the
//! case: so that a student who prints one blank line too many is told that once, over
//! every case it spoils, not once per case with that case's numbers.
//!
//! The judge's message names the first line that differs (`line 1: expected `4`, got
//! ``), which is exact but different in every case; the mistake behind it is one of a
//! few, read from the output's lines against the expected answer's.

use reference::Verdict;
use reference::compare::normalized_lines;

use super::case::CaseResult;

/// A layout mistake.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Layout {
    /// The output starts with an empty line (or one of spaces only).
    BlankFirst,
    /// A line starts with a space or a tab.
    Indented,
    /// An empty line between lines of the answer.
    BlankBetween,
    /// A character that cannot be seen, other than a space or a tab: a carriage return
    /// that ends no line, a form feed, a vertical tab.
    Invisible,
    /// The answer's parts on other lines than the statement puts them: joined on one
    /// line, or one split over several.
    Lines,
    /// The spaces between the parts of a line: two where one belongs, a tab.
    Spacing,
}

impl Layout {
    /// The mistake of `output`, a right answer laid out otherwise than `expected` (a `PE`).
    pub(crate) fn of(expected: &str, output: &[u8]) -> Layout {
        let output = String::from_utf8_lossy(output);
        let got = normalized_lines(&output);
        let want = normalized_lines(expected);
        let first = got.iter().position(|line| !line.trim().is_empty());
        if first.is_some_and(|at| at > 0) {
            return Layout::BlankFirst;
        }
        if got.iter().any(|line| line.starts_with([' ', '\t'])) {
            return Layout::Indented;
        }
        if got.iter().any(|line| line.is_empty()) {
            return Layout::BlankBetween;
        }
        let unseen = |c: char| c.is_whitespace() && c != ' ' && c != '\t';
        if got.iter().any(|line| line.contains(unseen)) {
            return Layout::Invisible;
        }
        let shape = |lines: &[&str]| -> Vec<usize> {
            lines
                .iter()
                .map(|l| l.split_ascii_whitespace().count())
                .collect()
        };
        if shape(&got) != shape(&want) {
            return Layout::Lines;
        }
        Layout::Spacing
    }

    /// What the student is told, once for every case of this mistake.
    pub(crate) fn says(self) -> &'static str {
        match self {
            Layout::BlankFirst => {
                "your output starts with an empty line: print the answer from the first line"
            }
            Layout::Indented => "a line of your output starts with a space or a tab: remove it",
            Layout::BlankBetween => {
                "your output has an empty line inside the answer: print no empty line"
            }
            Layout::Invisible => {
                "your output holds a character that cannot be seen (a carriage return, a form \
                 feed): print only the answer's characters"
            }
            Layout::Lines => {
                "your answer is on other lines than the statement puts it: one line per part, \
                 as the expected output shows"
            }
            Layout::Spacing => {
                "the spaces between the parts of a line differ: one space between them, as \
                 the expected output shows"
            }
        }
    }
}

/// Failing cases as a report shows them: each alone, but the `PE` cases of one layout
/// mistake together, under their first.
#[derive(Debug)]
pub(crate) struct Block<'a> {
    /// The layout mistake of its `PE` cases; `None` for a case shown alone.
    pub(crate) layout: Option<Layout>,
    /// Its cases, in the order given; never empty.
    pub(crate) cases: Vec<&'a CaseResult>,
}

/// `failures` in blocks, in the order of each block's first case. `expected` gives a
/// case's expected answer by name; a `PE` whose answer is not known is shown alone.
pub(crate) fn blocks<'a, 'b>(
    failures: impl IntoIterator<Item = &'a CaseResult>,
    expected: impl Fn(&str) -> Option<&'b str>,
) -> Vec<Block<'a>> {
    let mut blocks: Vec<Block<'a>> = Vec::new();
    for case in failures {
        let layout = (case.verdict == Verdict::Presentation)
            .then(|| expected(&case.name))
            .flatten()
            .map(|answer| Layout::of(answer, &case.output));
        match blocks
            .iter_mut()
            .find(|b| layout.is_some() && b.layout == layout)
        {
            Some(block) => block.cases.push(case),
            None => blocks.push(Block {
                layout,
                cases: vec![case],
            }),
        }
    }
    blocks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_mistake_is_told_from_the_lines_whatever_the_numbers() {
        let of = |expected: &str, output: &str| Layout::of(expected, output.as_bytes());
        assert_eq!(of("4\n", "\n4\n"), Layout::BlankFirst);
        assert_eq!(of("Impossible\n", "  \nImpossible\n"), Layout::BlankFirst);
        assert_eq!(of("4\n", " 4\n"), Layout::Indented);
        assert_eq!(of("2\nab\n", "2\n\tab\n"), Layout::Indented);
        assert_eq!(of("2\nab\n", "2\n\nab\n"), Layout::BlankBetween);
        assert_eq!(of("4\n", "4\r\r\n"), Layout::Invisible);
        assert_eq!(of("4\n", "4\x0c\n"), Layout::Invisible);
        assert_eq!(of("2\nab\ncd\n", "2 ab cd\n"), Layout::Lines);
        assert_eq!(of("1 2\n", "1\n2\n"), Layout::Lines);
        assert_eq!(of("1 2\n", "1  2\n"), Layout::Spacing);
        // The same mistake on other numbers is the same mistake.
        assert_eq!(of("7\n", "\n7\n"), of("Impossible\n", "\nImpossible\n"));
    }

    #[test]
    fn the_pe_cases_of_one_mistake_make_one_block_and_other_failures_their_own() {
        let case = |name: &str, verdict: Verdict, output: &str| {
            let mut case = crate::run::grade::fake::result(0, verdict);
            case.name = name.to_owned();
            case.output = output.as_bytes().to_vec();
            case
        };
        let cases = [
            case("a", Verdict::Presentation, "\n4\n"),
            case("b", Verdict::WrongAnswer, "5\n"),
            case("c", Verdict::Presentation, " 4\n"),
            case("d", Verdict::Presentation, "\nImpossible\n"),
            case("e", Verdict::WrongAnswer, "5\n"),
            case("f", Verdict::Presentation, "\n4\n"),
        ];
        let blocks = blocks(&cases, |name| {
            (name != "f").then_some(if name == "d" { "Impossible\n" } else { "4\n" })
        });
        let shown: Vec<(Option<Layout>, Vec<&str>)> = blocks
            .iter()
            .map(|b| (b.layout, b.cases.iter().map(|c| c.name.as_str()).collect()))
            .collect();
        assert_eq!(
            shown,
            [
                (Some(Layout::BlankFirst), vec!["a", "d"]),
                (None, vec!["b"]),
                (Some(Layout::Indented), vec!["c"]),
                (None, vec!["e"]),
                (None, vec!["f"]),
            ]
        );
    }
}
