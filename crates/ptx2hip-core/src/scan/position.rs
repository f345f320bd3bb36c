//! Byte positions: line/column lookup in the file.

/// Start offsets of all lines of a file, built once per file that has asm in it.
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(src: &[u8]) -> Self {
        let mut starts = vec![0];
        starts.extend(memchr::memchr_iter(b'\n', src).map(|i| i + 1));
        LineIndex { starts }
    }

    /// 1-based line and 1-based byte column of `offset`.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let line = self.starts.partition_point(|&s| s <= offset);
        (line, offset - self.starts[line - 1] + 1)
    }

    pub fn line_start(&self, offset: usize) -> usize {
        self.starts[self.starts.partition_point(|&s| s <= offset) - 1]
    }
}

/// Spaces and tabs at the start of the line containing `offset`.
pub fn indent_at(src: &[u8], lines: &LineIndex, offset: usize) -> String {
    let start = lines.line_start(offset);
    let len = src[start..]
        .iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    String::from_utf8_lossy(&src[start..start + len]).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_byte_column_are_one_based_and_crlf_safe() {
        let src = b"ab\r\n\tcd\nx";
        let lines = LineIndex::new(src);
        assert_eq!(lines.line_col(0), (1, 1));
        assert_eq!(lines.line_col(5), (2, 2));
        assert_eq!(lines.line_col(8), (3, 1));
        assert_eq!(indent_at(src, &lines, 6), "\t");
    }
}
