//! Plain text tables whose columns widen to fit: a count of ten million
//! frames keeps its column as a count of ten does.

/// A table of text cells: the first column left-aligned, the others
/// right-aligned, each as wide as its widest cell plus one space, and never
/// narrower than its minimum.
#[derive(Clone, Debug, Default)]
pub(crate) struct Table {
    rows: Vec<(Vec<String>, String)>,
    least: Vec<usize>,
}

impl Table {
    /// A table whose columns are at least `least` wide.
    pub(crate) fn new(least: &[usize]) -> Table {
        Table {
            rows: Vec::new(),
            least: least.to_vec(),
        }
    }

    /// Adds a row.
    pub(crate) fn row<S: ToString>(&mut self, cells: impl IntoIterator<Item = S>) {
        self.row_with_note(cells, "");
    }

    /// Adds a row with a note after its last cell (not counted in any
    /// column's width).
    pub(crate) fn row_with_note<S: ToString>(
        &mut self,
        cells: impl IntoIterator<Item = S>,
        note: &str,
    ) {
        let cells = cells.into_iter().map(|cell| cell.to_string()).collect();
        self.rows.push((cells, note.to_owned()));
    }

    /// The table, each line started with `indent` and ended with a newline.
    pub(crate) fn render(&self, indent: &str) -> String {
        let columns = self
            .rows
            .iter()
            .map(|(cells, _)| cells.len())
            .max()
            .unwrap_or(0);
        let widths: Vec<usize> = (0..columns)
            .map(|column| {
                let widest = self
                    .rows
                    .iter()
                    .filter_map(|(cells, _)| cells.get(column))
                    .map(|cell| cell.chars().count() + 1)
                    .max()
                    .unwrap_or(0);
                widest.max(self.least.get(column).copied().unwrap_or(0))
            })
            .collect();
        let mut out = String::new();
        for (cells, note) in &self.rows {
            out.push_str(indent);
            for (column, (cell, &width)) in cells.iter().zip(&widths).enumerate() {
                let pad = width.saturating_sub(cell.chars().count());
                if column == 0 {
                    out.push_str(cell);
                    out.extend(core::iter::repeat_n(' ', pad));
                } else {
                    out.extend(core::iter::repeat_n(' ', pad));
                    out.push_str(cell);
                }
            }
            out.push_str(note);
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::Table;

    #[test]
    fn columns_keep_their_least_width_and_widen_to_fit() {
        let mut table = Table::new(&[6, 5, 5]);
        table.row(["name", "a", "b"]);
        table.row(["x", "1", "22"]);
        table.row(["longer name", "1234567", "3"]);
        let text = table.render("  ");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "  name               a    b");
        assert_eq!(lines[1], "  x                  1   22");
        assert_eq!(lines[2], "  longer name  1234567    3");
    }

    #[test]
    fn a_note_follows_the_last_cell() {
        let mut table = Table::new(&[4, 4]);
        table.row(["a", "1"]);
        table.row_with_note(["b", "2"], "  (note)");
        assert_eq!(table.render(""), "a      1\nb      2  (note)\n");
    }
}
