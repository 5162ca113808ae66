//! ANSI styles of the human reports: how a verdict is coloured, and text with its styles
//! taken out (for files and for snapshot tests).

use reference::Verdict;

use crate::results::mark::Mark;

/// `text` in `style` (the ANSI codes are stripped by the writers when not wanted).
pub(crate) fn paint(style: anstyle::Style, text: &str) -> String {
    format!("{style}{text}{style:#}")
}

/// How a verdict or mark is shown: `AC` green, `--` (not graded) yellow, any other red;
/// bold.
pub(crate) fn verdict_style(mark: impl Into<Mark>) -> anstyle::Style {
    let colour = match mark.into() {
        Mark::Graded(Verdict::Accepted) => anstyle::AnsiColor::Green,
        Mark::NotGraded => anstyle::AnsiColor::Yellow,
        Mark::Graded(_) => anstyle::AnsiColor::Red,
    };
    anstyle::Style::new().fg_color(Some(colour.into())).bold()
}

/// `text` without ANSI styles (for files).
pub(crate) fn plain(text: &str) -> String {
    anstream::adapter::strip_str(text).to_string()
}
