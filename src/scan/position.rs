//! Byte positions: line/column lookup in the file, and the mapping from a re-parsed buffer (a
//! `#define` body with its continuations joined and a wrapper around it) back to file offsets.

use super::Origin;

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

/// Maps offsets of a parse buffer back to the file. The buffer is a concatenation of contiguous
/// file segments (plus wrapper text before and after, which maps to the nearest segment edge).
pub struct OffsetMap {
    /// `(buffer_start, file_start)` of each segment, sorted by both.
    segments: Vec<(usize, usize)>,
    /// Buffer range that came from the file.
    body: std::ops::Range<usize>,
}

impl OffsetMap {
    /// The buffer is the file itself.
    pub fn identity(len: usize) -> Self {
        OffsetMap {
            segments: vec![(0, 0)],
            body: 0..len,
        }
    }

    pub fn new(segments: Vec<(usize, usize)>, body: std::ops::Range<usize>) -> Self {
        OffsetMap { segments, body }
    }

    pub fn to_file(&self, offset: usize) -> usize {
        let offset = offset.clamp(self.body.start, self.body.end);
        let i = self.segments.partition_point(|&(b, _)| b <= offset).max(1) - 1;
        let (b, f) = self.segments[i];
        f + offset.saturating_sub(b)
    }

    /// Maps a buffer range; an end offset maps as the end of the byte before it, so a range that
    /// ends just before a removed `\`-newline does not swallow it.
    pub fn range_to_file(&self, r: std::ops::Range<usize>) -> std::ops::Range<usize> {
        let clamp = |o: usize| o.clamp(self.body.start, self.body.end);
        let r = clamp(r.start)..clamp(r.end);
        let start = self.to_file(r.start);
        let end = if r.end > r.start {
            self.to_file(r.end - 1) + 1
        } else {
            start
        };
        start..end
    }

    /// Maps template origins, adding an entry wherever a run crosses into another segment.
    pub fn origins_to_file(&self, origins: &[Origin], text_len: usize) -> Vec<Origin> {
        let mut out = Vec::with_capacity(origins.len());
        for (i, o) in origins.iter().enumerate() {
            let run_end = origins.get(i + 1).map_or(text_len, |n| n.text_offset);
            let len = run_end.saturating_sub(o.text_offset);
            out.push(Origin {
                text_offset: o.text_offset,
                file_offset: self.to_file(o.file_offset),
            });
            let first = self.segments.partition_point(|&(b, _)| b <= o.file_offset);
            for &(b, f) in self.segments[first..]
                .iter()
                .take_while(|&&(b, _)| b < o.file_offset + len)
            {
                out.push(Origin {
                    text_offset: o.text_offset + (b - o.file_offset),
                    file_offset: f,
                });
            }
        }
        out
    }
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

    #[test]
    fn maps_buffer_offsets_across_removed_continuations() {
        // File `AB\\\nCD` with the continuation removed: buffer `__AB` + `CD` after a 2-byte wrapper.
        let map = OffsetMap::new(vec![(2, 0), (4, 4)], 2..6);
        assert_eq!(map.to_file(3), 1);
        assert_eq!(map.to_file(4), 4);
        assert_eq!(map.range_to_file(2..4), 0..2);
        let origins = [Origin {
            text_offset: 0,
            file_offset: 2,
        }];
        assert_eq!(
            map.origins_to_file(&origins, 4),
            vec![
                Origin {
                    text_offset: 0,
                    file_offset: 0
                },
                Origin {
                    text_offset: 2,
                    file_offset: 4
                }
            ]
        );
    }
}
