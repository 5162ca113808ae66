//! Readers of what `grader batch` and `grader merge` write: the gradebook as JSON and as
//! CSV (docs/cli.md's columns), and the journal's lines.

use std::collections::HashMap;
use std::fs;
use std::path::Path;

use serde_json::Value;

/// The JSON file at `path`.
pub fn read_json(path: &Path) -> Value {
    let text = fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_slice(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The object of the student `name` in a gradebook.
pub fn student<'a>(book: &'a Value, name: &str) -> &'a Value {
    students(book)
        .iter()
        .find(|s| s["student"] == name)
        .unwrap_or_else(|| panic!("no {name} in {book:#}"))
}

/// What a gradebook says of each student, without the run figures: name, verdict, cases
/// passed.
pub fn verdicts(book: &Value) -> Vec<(String, String, u64)> {
    students(book)
        .iter()
        .map(|s| {
            let text = |key: &str| {
                s[key]
                    .as_str()
                    .unwrap_or_else(|| panic!("no {key}: {s:#}"))
                    .to_owned()
            };
            let passed = s["passed"].as_u64().unwrap_or_else(|| panic!("{s:#}"));
            (text("student"), text("verdict"), passed)
        })
        .collect()
}

/// The journal's first line: its version (docs/cli.md, "Resuming").
pub const JOURNAL_HEADER: &str = r#"{"journal_version":2}"#;

/// The keys of the runs of the journal at `path`, in order; it must start with its
/// version's line.
pub fn journal_keys(path: &Path) -> Vec<String> {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(JOURNAL_HEADER), "{}", path.display());
    lines
        .map(|line| {
            let value: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
            value["key"]
                .as_str()
                .unwrap_or_else(|| panic!("no key: {line}"))
                .to_owned()
        })
        .collect()
}

fn students(book: &Value) -> &Vec<Value> {
    book["students"]
        .as_array()
        .unwrap_or_else(|| panic!("no students: {book:#}"))
}

/// A gradebook in CSV, read as a spreadsheet reads it (quotes and all): its header and
/// its rows, one per student, the student's name first.
pub struct Csv {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Csv {
    /// The CSV `text`.
    pub fn parse(text: &str) -> Csv {
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let header = reader
            .headers()
            .unwrap_or_else(|e| panic!("{e}: {text}"))
            .iter()
            .map(str::to_owned)
            .collect();
        let rows = reader
            .records()
            .map(|row| {
                row.unwrap_or_else(|e| panic!("{e}: {text}"))
                    .iter()
                    .map(str::to_owned)
                    .collect()
            })
            .collect();
        Csv { header, rows }
    }

    /// The file `OUT/gradebook.csv`.
    pub fn read(out: &Path) -> Csv {
        let path = out.join("gradebook.csv");
        Csv::parse(&fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
    }

    /// The rows, cell by cell.
    pub fn rows(&self) -> &[Vec<String>] {
        &self.rows
    }

    /// The students, one per row, in order.
    pub fn students(&self) -> Vec<&str> {
        self.rows.iter().map(|row| row[0].as_str()).collect()
    }

    /// The row of `student`, by the header's column names.
    pub fn row(&self, student: &str) -> HashMap<String, String> {
        let row = self
            .rows
            .iter()
            .find(|row| row[0] == student)
            .unwrap_or_else(|| panic!("no {student} in {:?}", self.rows));
        self.header
            .iter()
            .cloned()
            .zip(row.iter().cloned())
            .collect()
    }
}
