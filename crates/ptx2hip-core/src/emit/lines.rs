//! Where the lines of a file start, found once per file: a rewrite asks for its line's start and
//! ending, and searching from the statement each time would take quadratic time on a file of
//! many statements on one line (minified or generated code).

/// Line starts: after every `\n`, and after a lone `\r` (a line ending for compilers too).
pub struct Lines {
    starts: Vec<usize>,
}

impl Lines {
    pub fn new(source: &[u8]) -> Lines {
        let mut starts = vec![0];
        starts.extend(
            memchr::memchr2_iter(b'\n', b'\r', source)
                .filter(|&i| source[i] == b'\n' || source.get(i + 1) != Some(&b'\n'))
                .map(|i| i + 1),
        );
        Lines { starts }
    }

    /// The start of the line holding `at`.
    pub fn start_of(&self, at: usize) -> usize {
        self.starts[self.starts.partition_point(|&s| s <= at) - 1]
    }

    /// The ending of the line holding `at`: CRLF or LF as that line ends, `default` for the last
    /// line (it has none) and for a lone CR (rewrites never add lone CRs).
    pub fn ending_of<'a>(&self, source: &[u8], at: usize, default: &'a str) -> &'a str
    where
        'static: 'a,
    {
        let next = self.starts.partition_point(|&s| s <= at);
        match self.starts.get(next) {
            Some(&s) if source[..s].ends_with(b"\r\n") => "\r\n",
            Some(&s) if source[s - 1] == b'\n' => "\n",
            _ => default,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_end_at_lf_crlf_and_lone_cr() {
        let src = b"a\nb\r\nc\rd";
        let lines = Lines::new(src);
        assert_eq!(lines.starts, [0, 2, 5, 7]);
        assert_eq!(lines.start_of(3), 2);
        assert_eq!(lines.start_of(4), 2);
        assert_eq!(lines.ending_of(src, 0, "?"), "\n");
        assert_eq!(lines.ending_of(src, 2, "?"), "\r\n");
        assert_eq!(lines.ending_of(src, 5, "?"), "?");
        assert_eq!(lines.ending_of(src, 7, "?"), "?");
    }
}
