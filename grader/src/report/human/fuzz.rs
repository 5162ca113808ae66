//! The human report of `grader fuzz`: the original and the shrunk input side by side with
//! expected and got, and the command that replays it.

use std::io::{self, Write};

use anstyle::{AnsiColor, Style};

use super::{compile_error, explanation};
use crate::report::style::paint;
use crate::results::finding::{FuzzResult, Source};
use crate::run::judge::{mebibytes, seconds};
use crate::submission::diagnosis;

/// One line: what a fuzz run did.
pub(crate) trait Summary {
    /// One line: what happened.
    fn summary(&self) -> String;
}

impl Summary for FuzzResult {
    fn summary(&self) -> String {
        match (&self.compile_error, &self.found) {
            (Some(_), _) => "CE: the submission did not compile".to_owned(),
            (None, Some(found)) => format!(
                "{} found after {}, shrunk in {} steps",
                found.shrunk.failure.verdict.code(),
                runs(self.runs),
                found.shrunk.steps
            ),
            (None, None) => format!(
                "no difference in {}{} ({}{:.0} runs/s)",
                runs(self.runs - self.replayed),
                if self.replayed > 0 {
                    format!(" and {} earlier failures replayed", self.replayed)
                } else {
                    String::new()
                },
                if self.exhaustive {
                    "every input, ".to_owned()
                } else {
                    format!("seed {}, ", self.seed)
                },
                self.rate()
            ),
        }
    }
}

/// `1 run`, `12 runs`.
fn runs(n: u64) -> String {
    if n == 1 {
        "1 run".to_owned()
    } else {
        format!("{n} runs")
    }
}

/// The whole report.
pub(crate) fn report(result: &FuzzResult, out: &mut dyn Write) -> io::Result<()> {
    out.write_all(header(result).as_bytes())?;
    after_header(result, out)
}

/// The report's first line: what is fuzzed, from which seed, under which limits. Known
/// before anything is built, so printed first.
pub(crate) fn header(result: &FuzzResult) -> String {
    let what = if result.exhaustive {
        "every input".to_owned()
    } else {
        format!("seed {}", result.seed)
    };
    let facts = format!(
        "({}; {what}; limits {} CPU, {}; sandbox {})",
        result.language,
        seconds(result.limits.cpu()),
        mebibytes(result.limits.memory()),
        result.limits.tier()
    );
    format!(
        "{} {} {} {}\n",
        paint(Style::new().bold(), "fuzz"),
        paint(Style::new().bold(), result.problem.id()),
        result.submission,
        paint(Style::new().dimmed(), &facts)
    )
}

/// The report after its header: the compiler's refusal, or what was found.
pub(crate) fn after_header(result: &FuzzResult, out: &mut dyn Write) -> io::Result<()> {
    let dim = Style::new().dimmed();
    let bad = Style::new().fg_color(Some(AnsiColor::Red.into())).bold();
    let good = Style::new().fg_color(Some(AnsiColor::Green.into())).bold();
    if let Some(message) = &result.compile_error {
        compile_error::body(out, message, result.suggestion().as_ref())?;
        return writeln!(
            out,
            "\n{} the submission did not compile: {}",
            paint(bad, "CE"),
            diagnosis::summary(message)
        );
    }
    let Some(found) = &result.found else {
        return writeln!(out, "\n{} {}", paint(good, "OK"), result.summary());
    };
    let f = &found.finding;
    let s = &found.shrunk;
    let origin = match found.source {
        Source::Regression(i) => format!("regression {} of the regressions file", i + 1),
        Source::Seeded => format!("run {} of seed {} ({})", f.number(), result.seed, f.kind),
        Source::Exhaustive => format!("input {} of every input", f.number()),
    };
    writeln!(
        out,
        "\n{} at {origin}, after {} in {}",
        paint(bad, f.failure.verdict.code()),
        runs(result.runs),
        seconds(result.elapsed)
    )?;
    writeln!(out, "  {}", f.failure.message)?;
    writeln!(
        out,
        "\n{} {}",
        paint(
            dim,
            &format!(
                "  shrunk in {} steps ({} simpler inputs that still fail):",
                s.steps, s.simplified
            )
        ),
        s.failure.message
    )?;
    side_by_side(out, ("input", &s.input), ("original", &f.input))?;
    let expected = result.expected(&s.input);
    let got = reference::visible::escape_lines(&s.failure.output);
    side_by_side(out, ("expected", &expected), ("got", &got))?;
    if s.failure.verdict == reference::Verdict::Presentation {
        // A layout mistake is said in words: a minimum solution has nothing to do with it.
        let mistake = crate::results::layout_mistake::Layout::of(&expected, &s.failure.output);
        writeln!(out, "\n  why: {}", mistake.says())?;
    } else if let (Some(problem), Some(explained)) =
        (result.problem.builtin(), result.explanation(found))
    {
        writeln!(out)?;
        explanation::write(out, problem, &s.input, &s.failure.output, &explained)?;
    }
    writeln!(out, "\n  replay: {}", found.replay)?;
    if let Some(path) = &found.recorded {
        writeln!(
            out,
            "  recorded in {} (replayed first next time)",
            path.display()
        )?;
    }
    if let Some(first) = found.saved.first() {
        writeln!(out, "  saved as {} and its .ans", first.display())?;
    }
    writeln!(out, "\n{} {}", paint(bad, "FAILED"), result.summary())
}

/// Two texts in two columns under their titles (long texts are cut at 12 lines).
fn side_by_side(
    out: &mut dyn Write,
    (left_title, left): (&str, &str),
    (right_title, right): (&str, &str),
) -> io::Result<()> {
    let left: Vec<&str> = left.lines().take(12).collect();
    let right: Vec<&str> = right.lines().take(12).collect();
    let width = left
        .iter()
        .map(|l| l.chars().count())
        .chain([left_title.len()])
        .max()
        .unwrap_or(0)
        .max(12);
    writeln!(out, "    {left_title:<width$}    {right_title}")?;
    // An empty side says so on its first line.
    let cell = |lines: &[&'_ str], i: usize| -> String {
        match lines.get(i) {
            Some(line) => (*line).to_owned(),
            None if i == 0 => "(nothing)".to_owned(),
            None => String::new(),
        }
    };
    for i in 0..left.len().max(right.len()).max(1) {
        writeln!(out, "    {:<width$}    {}", cell(&left, i), cell(&right, i))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{after_header, header, report};
    use crate::report::samples;

    #[test]
    fn the_header_and_the_rest_make_the_whole_report() {
        for result in [samples::fuzz_seeded(), samples::fuzz_compile_error()] {
            let mut whole = Vec::new();
            report(&result, &mut whole).expect("in memory");
            let mut parts = header(&result).into_bytes();
            after_header(&result, &mut parts).expect("in memory");
            assert_eq!(parts, whole);
        }
    }
}
