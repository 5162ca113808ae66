//! JSON laid out for a person and for its size: objects and arrays indented as
//! `serde_json`'s pretty printer does down to a depth, and every value below it on one
//! line. A gradebook then reads as it did (the class, then each student's fields one per
//! line), but each case is one line: at 3,000 students of 150 cases, the pretty layout
//! spent 354 bytes a run, most of them indentation, and a run is about 190 bytes on one
//! line. Parsers see the same JSON.

use std::io::{self, Write};

use serde::Serialize;
use serde_json::ser::Formatter;

/// Writes `value` to `out`, indented down to `depth` levels of nesting (the outermost
/// object is level 1), then a newline.
pub(crate) fn write(value: &impl Serialize, depth: usize, out: &mut dyn Write) -> io::Result<()> {
    let mut serializer = serde_json::Serializer::with_formatter(
        &mut *out,
        Folded {
            depth,
            level: 0,
            has_value: false,
        },
    );
    value.serialize(&mut serializer)?;
    writeln!(out)
}

/// The formatter: where it is, and where it stops indenting.
struct Folded {
    /// The deepest level laid out on lines of its own.
    depth: usize,
    /// The nesting level of the value being written.
    level: usize,
    /// Whether the container being written holds a value yet.
    has_value: bool,
}

impl Folded {
    /// Whether the current container is laid out on lines of its own.
    fn indented(&self) -> bool {
        self.level <= self.depth
    }

    fn begin<W: ?Sized + Write>(&mut self, out: &mut W, open: &[u8]) -> io::Result<()> {
        self.level += 1;
        self.has_value = false;
        out.write_all(open)
    }

    fn end<W: ?Sized + Write>(&mut self, out: &mut W, close: &[u8]) -> io::Result<()> {
        let indented = self.indented();
        self.level -= 1;
        if indented && self.has_value {
            out.write_all(b"\n")?;
            indent(out, self.level)?;
        }
        out.write_all(close)
    }

    fn member<W: ?Sized + Write>(&mut self, out: &mut W, first: bool) -> io::Result<()> {
        if self.indented() {
            out.write_all(if first { b"\n" } else { b",\n" })?;
            indent(out, self.level)
        } else if first {
            Ok(())
        } else {
            out.write_all(b",")
        }
    }
}

fn indent<W: ?Sized + Write>(out: &mut W, level: usize) -> io::Result<()> {
    for _ in 0..level {
        out.write_all(b"  ")?;
    }
    Ok(())
}

impl Formatter for Folded {
    fn begin_array<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.begin(out, b"[")
    }

    fn end_array<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.end(out, b"]")
    }

    fn begin_array_value<W: ?Sized + Write>(&mut self, out: &mut W, first: bool) -> io::Result<()> {
        self.member(out, first)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, _out: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.begin(out, b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.end(out, b"}")
    }

    fn begin_object_key<W: ?Sized + Write>(&mut self, out: &mut W, first: bool) -> io::Result<()> {
        self.member(out, first)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        out.write_all(if self.indented() { b": " } else { b":" })
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, _out: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folded(value: &serde_json::Value, depth: usize) -> String {
        let mut out = Vec::new();
        write(value, depth, &mut out).expect("in memory");
        String::from_utf8(out).expect("UTF-8")
    }

    #[test]
    fn indented_to_the_depth_and_one_line_below_it() {
        let value = serde_json::json!({
            "problem": "flip",
            "empty": [],
            "students": [
                { "student": "a", "cases": [ { "name": "x", "ms": [1, 2] }, {} ] }
            ]
        });
        let text = folded(&value, 3);
        assert_eq!(
            text,
            "{\n  \"empty\": [],\n  \"problem\": \"flip\",\n  \"students\": [\n    {\n      \"cases\": [{\"ms\":[1,2],\"name\":\"x\"},{}],\n      \"student\": \"a\"\n    }\n  ]\n}\n"
        );
        let parsed: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(parsed, value);
        // Deep enough, the layout is serde_json's own.
        let pretty = serde_json::to_string_pretty(&value).expect("JSON") + "\n";
        assert_eq!(folded(&value, 10), pretty);
    }
}
