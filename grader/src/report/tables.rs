//! Plain-text tables with aligned columns, for listings, histograms and kill matrices.

/// A table: a header row and body rows, rendered with columns padded to their widest cell.
#[derive(Debug, Default)]
pub(crate) struct Table {
    rows: Vec<Vec<String>>,
    right: Vec<bool>,
}

impl Table {
    /// A table with these column headers; `right` marks right-aligned (numeric) columns.
    pub(crate) fn new(headers: &[&str], right: &[bool]) -> Table {
        Table {
            rows: vec![headers.iter().map(|&h| h.to_owned()).collect()],
            right: right.to_vec(),
        }
    }

    /// Adds a row.
    pub(crate) fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    /// The table as text, each line ended by `\n`, with no trailing spaces.
    pub(crate) fn render(&self) -> String {
        let columns = self.rows.iter().map(Vec::len).max().unwrap_or(0);
        let widths: Vec<usize> = (0..columns)
            .map(|c| {
                self.rows
                    .iter()
                    .filter_map(|r| r.get(c))
                    .map(|s| s.chars().count())
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let mut out = String::new();
        for row in &self.rows {
            let mut line = String::new();
            for (c, cell) in row.iter().enumerate() {
                if c > 0 {
                    line.push_str("  ");
                }
                let pad = widths[c] - cell.chars().count();
                if self.right.get(c).copied().unwrap_or(false) {
                    line.extend(std::iter::repeat_n(' ', pad));
                    line.push_str(cell);
                } else {
                    line.push_str(cell);
                    line.extend(std::iter::repeat_n(' ', pad));
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_align_and_lines_have_no_trailing_spaces() {
        let mut table = Table::new(&["name", "n"], &[false, true]);
        table.row(vec!["a".into(), "10".into()]);
        table.row(vec!["longer".into(), "7".into()]);
        assert_eq!(table.render(), "name     n\na       10\nlonger   7\n");
    }
}
