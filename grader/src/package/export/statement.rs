//! The exported statement, `problem_statement/problem.en.tex`: a problem's section of
//! docs/problems.md (its rules, input and output) turned into the LaTeX that the package
//! format's tools render. The examples of that section are left out: the package's
//! `data/sample/` holds them, and the tools print the samples under the statement.
//!
//! Only what the page uses is converted: paragraphs, `- ` and `1. ` lists, `**bold**`,
//! `*emphasis*`, `` `code` `` and `[links](...)` (their text). Everything else is text,
//! with LaTeX's special characters escaped, so no line of the page can break the document.

use std::fmt::Write as _;

/// The LaTeX statement of the problem whose docs/problems.md section is `section`, under
/// the name `name`.
pub(crate) fn latex(name: &str, section: &str) -> String {
    let mut out = format!("\\problemname{{{}}}\n", escape(name));
    let body = section
        .lines()
        .skip(1) // The `## ` heading: the name above says it.
        .take_while(|line| !line.starts_with("**Examples.**"));
    // The markdown of the paragraph or list item being gathered (spans may cross lines),
    // and the list it is an item of.
    let mut block = String::new();
    let mut list: Option<&'static str> = None;
    for line in body {
        if line.trim().is_empty() {
            emit(&mut out, &mut block, list);
            close(&mut out, &mut list);
        } else if let Some((kind, text)) = list_item(line) {
            emit(&mut out, &mut block, list);
            if list != Some(kind) {
                close(&mut out, &mut list);
                let _ = writeln!(out, "\\begin{{{kind}}}");
                list = Some(kind);
            }
            block.push_str(text);
        } else {
            if list.is_some() && !line.starts_with("  ") {
                // A line not indented under an item ends the list.
                emit(&mut out, &mut block, list);
                close(&mut out, &mut list);
            }
            if !block.is_empty() {
                block.push(' ');
            }
            block.push_str(line.trim());
        }
    }
    emit(&mut out, &mut block, list);
    close(&mut out, &mut list);
    out
}

/// Writes the gathered block, if any: an item of `list`, or a paragraph.
fn emit(out: &mut String, block: &mut String, list: Option<&str>) {
    if block.is_empty() {
        return;
    }
    let text = if list.is_some() {
        format!("\\item {}", inline(block))
    } else {
        heading_or_text(block)
    };
    out.push('\n');
    out.push_str(&text);
    out.push('\n');
    block.clear();
}

/// A paragraph's first line: `**Input.** text` opens the format's Input (or Output)
/// section; `**Rules.**` is the statement's body, which needs no heading.
fn heading_or_text(line: &str) -> String {
    for (label, section) in [("**Input.**", "Input"), ("**Output.**", "Output")] {
        if let Some(rest) = line.strip_prefix(label) {
            return format!("\\section*{{{section}}}\n\n{}", inline(rest.trim()));
        }
    }
    let line = line.strip_prefix("**Rules.**").unwrap_or(line);
    inline(line.trim())
}

/// The list kind and text of a list item line (`- a`, `1. a`), if it is one.
fn list_item(line: &str) -> Option<(&'static str, &str)> {
    if let Some(text) = line.strip_prefix("- ") {
        return Some(("itemize", text));
    }
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    let text = line.get(digits..)?.strip_prefix(". ")?;
    (digits > 0).then_some(("enumerate", text))
}

/// Ends the list being written, if any.
fn close(out: &mut String, list: &mut Option<&str>) {
    if let Some(kind) = list.take() {
        let _ = writeln!(out, "\\end{{{kind}}}");
    }
}

/// One line of markdown text as LaTeX: code, bold, emphasis and link text; the rest
/// escaped. A marker with no closing one is text.
fn inline(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let taken = span(rest, "`", "\\texttt{", &mut out)
            .or_else(|| span(rest, "**", "\\textbf{", &mut out))
            .or_else(|| span(rest, "*", "\\emph{", &mut out))
            .or_else(|| link(rest, &mut out));
        rest = if let Some(after) = taken {
            after
        } else {
            out.push_str(&escape(&c.to_string()));
            &rest[c.len_utf8()..]
        };
    }
    out
}

/// A span `marker text marker` at the start of `text`, written as `open text }`; the text
/// after it. Code is escaped as it is; other spans are read as markdown again.
fn span<'t>(text: &'t str, marker: &str, open: &str, out: &mut String) -> Option<&'t str> {
    let inner = text.strip_prefix(marker)?;
    let end = inner.find(marker).filter(|&end| end > 0)?;
    let content = &inner[..end];
    out.push_str(open);
    if marker == "`" {
        out.push_str(&escape(content));
    } else {
        out.push_str(&inline(content));
    }
    out.push('}');
    Some(&inner[end + marker.len()..])
}

/// A link `[text](target)` at the start of `text`, written as its text; the text after it.
fn link<'t>(text: &'t str, out: &mut String) -> Option<&'t str> {
    let inner = text.strip_prefix('[')?;
    let close = inner.find("](")?;
    let after = &inner[close + 2..];
    let end = after.find(')')?;
    out.push_str(&inline(&inner[..close]));
    Some(&after[end + 1..])
}

/// `text` with every character LaTeX gives a meaning written so that it prints itself,
/// and the typographic characters of the page as LaTeX spells them.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\textbackslash{}"),
            '{' | '}' | '$' | '&' | '#' | '_' | '%' => {
                out.push('\\');
                out.push(c);
            }
            '^' => out.push_str("\\textasciicircum{}"),
            '~' => out.push_str("\\textasciitilde{}"),
            '<' => out.push_str("\\textless{}"),
            '>' => out.push_str("\\textgreater{}"),
            '…' => out.push_str("\\ldots{}"),
            '—' => out.push_str("---"),
            '–' => out.push_str("--"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_lists_and_spans_become_latex() {
        let section = "## `x` — X\n\n**Rules.** Turn `b` **over\nit**, *once*;\nsee [the page](p.md).\n\n\
                       **Input.** Lines:\n\n- one\n  `b`\n- two\n\n**Output.** Either:\n\n1. `k`, then\n   rows\n2. `Impossible`\n\n\
                       **Examples.** Not copied.\n";
        assert_eq!(
            latex("Flip & Game", section),
            "\\problemname{Flip \\& Game}\n\n\
             Turn \\texttt{b} \\textbf{over it}, \\emph{once}; see the page.\n\n\
             \\section*{Input}\n\nLines:\n\\begin{itemize}\n\n\\item one \\texttt{b}\n\n\\item two\n\\end{itemize}\n\n\
             \\section*{Output}\n\nEither:\n\\begin{enumerate}\n\n\\item \\texttt{k}, then rows\n\n\\item \\texttt{Impossible}\n\\end{enumerate}\n"
        );
    }

    #[test]
    fn special_characters_and_open_markers_are_text() {
        assert_eq!(
            inline("a_b 50% #1 {x} ~ ^ \\n"),
            "a\\_b 50\\% \\#1 \\{x\\} \\textasciitilde{} \\textasciicircum{} \\textbackslash{}n"
        );
        assert_eq!(
            inline("`\\r\\n` and B…B"),
            "\\texttt{\\textbackslash{}r\\textbackslash{}n} and B\\ldots{}B"
        );
        assert_eq!(inline("2 * 3 and `open"), "2 * 3 and `open");
    }
}
