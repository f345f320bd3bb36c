//! Colour for a terminal: the human `check` report in rustc's and Ruff's colours, and the
//! `translate` diff in git's. Whether to colour is the command line's decision (`--color`, the
//! terminal, `NO_COLOR`, `CLICOLOR_FORCE`); colour never changes a character of the text around
//! it.

use std::borrow::Cow;

use annotate_snippets::renderer::{
    AnsiColor, Effects, Renderer, Style, DEFAULT_ERROR_STYLE, DEFAULT_LINE_NUM_STYLE,
    DEFAULT_WARNING_STYLE,
};

use crate::codes::Level;

/// Whether text is coloured.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Paint {
    pub colour: bool,
}

impl Paint {
    /// `text` in `style`, or as it is without colour.
    fn styled<'t>(self, style: Style, text: &'t str) -> Cow<'t, str> {
        if self.colour {
            Cow::Owned(format!("{style}{text}{style:#}"))
        } else {
            Cow::Borrowed(text)
        }
    }

    /// The renderer of source snippets.
    pub(super) fn renderer(self) -> Renderer {
        if self.colour {
            Renderer::styled()
        } else {
            Renderer::plain()
        }
    }

    /// The `-->` before a location, in the colour of the snippet's margin.
    pub(super) fn arrow(self) -> Cow<'static, str> {
        self.styled(DEFAULT_LINE_NUM_STYLE, "-->")
    }

    /// A header's `error[U001]` or `warning[T001]`.
    pub(super) fn level(self, level: Level, code: &str) -> String {
        let style = match level {
            Level::Error => DEFAULT_ERROR_STYLE,
            Level::Warning => DEFAULT_WARNING_STYLE,
        };
        self.styled(style, &format!("{}[{code}]", level.as_str()))
            .into_owned()
    }

    /// A header's message, in bold as annotate-snippets writes a title.
    pub(super) fn title(self, text: &str) -> Cow<'_, str> {
        self.styled(Style::new().effects(Effects::BOLD), text)
    }

    /// A unified diff with its file headers in bold, hunk headers in cyan, removed lines in red
    /// and added ones in green, as `git diff` colours them. The hunk headers' line counts tell a
    /// removed line `-- x` (written `--- x`) from a file header.
    pub fn diff(self, diff: &[u8]) -> Cow<'_, [u8]> {
        if !self.colour || diff.is_empty() {
            return Cow::Borrowed(diff);
        }
        let mut out = Vec::with_capacity(diff.len() + diff.len() / 8);
        // Lines of the current hunk still to come: (old, new).
        let mut left = (0usize, 0usize);
        for line in diff.split_inclusive(|&b| b == b'\n') {
            let in_hunk = left != (0, 0);
            let style = match line.first() {
                Some(b'-') if in_hunk => {
                    left.0 = left.0.saturating_sub(1);
                    AnsiColor::Red.on_default()
                }
                Some(b'+') if in_hunk => {
                    left.1 = left.1.saturating_sub(1);
                    AnsiColor::Green.on_default()
                }
                Some(b' ') if in_hunk => {
                    left = (left.0.saturating_sub(1), left.1.saturating_sub(1));
                    Style::new()
                }
                Some(b'@') => {
                    left = hunk_lengths(line);
                    AnsiColor::Cyan.on_default()
                }
                Some(b'-' | b'+') => Style::new().effects(Effects::BOLD),
                _ => Style::new(),
            };
            if style == Style::new() {
                out.extend_from_slice(line);
                continue;
            }
            let (text, newline) = match line.strip_suffix(b"\n") {
                Some(text) => (text, &b"\n"[..]),
                None => (line, &b""[..]),
            };
            out.extend_from_slice(format!("{style}").as_bytes());
            out.extend_from_slice(text);
            out.extend_from_slice(format!("{style:#}").as_bytes());
            out.extend_from_slice(newline);
        }
        Cow::Owned(out)
    }
}

/// The old and new line counts of a hunk header, `@@ -1,2 +1,3 @@` (a count left out is 1).
fn hunk_lengths(header: &[u8]) -> (usize, usize) {
    let text = String::from_utf8_lossy(header);
    let mut ranges = text.split(' ').skip(1);
    let length = |range: Option<&str>| {
        range.map_or(0, |r| match r.split_once(',') {
            Some((_, n)) => n.parse().unwrap_or(0),
            None => 1,
        })
    };
    (length(ranges.next()), length(ranges.next()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `text` without its ANSI escape sequences.
    fn plain(text: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < text.len() {
            if text[i] == 0x1b {
                while i < text.len() && text[i] != b'm' {
                    i += 1;
                }
            } else {
                out.push(text[i]);
            }
            i += 1;
        }
        out
    }

    const DIFF: &[u8] = b"--- a/k.cu\n+++ b/k.cu\n@@ -1,3 +1,3 @@\n x\n-old\n--- x;\n+new\n+++ y;\n\\ No newline at end of file\n--- a/l.cu\n+++ b/l.cu\n";

    #[test]
    fn without_colour_the_text_is_as_it_is() {
        let paint = Paint::default();
        assert_eq!(paint.diff(DIFF), DIFF);
        assert_eq!(paint.level(Level::Error, "U001"), "error[U001]");
        assert_eq!(paint.arrow(), "-->");
    }

    #[test]
    fn colour_changes_no_character_and_marks_each_kind_of_diff_line() {
        let paint = Paint { colour: true };
        let coloured = paint.diff(DIFF);
        assert_eq!(plain(&coloured), DIFF);
        let text = String::from_utf8(coloured.into_owned()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("\x1b[1m--- a/k.cu"), "{text}");
        assert!(lines[2].starts_with("\x1b[36m@@"), "{text}");
        assert_eq!(lines[3], " x");
        assert!(lines[4].starts_with("\x1b[31m-old") && lines[5].starts_with("\x1b[31m--- x;"));
        assert!(lines[6].starts_with("\x1b[32m+new") && lines[7].starts_with("\x1b[32m+++ y;"));
        assert!(lines[9].starts_with("\x1b[1m--- a/l.cu"), "{text}");
        let header = paint.level(Level::Warning, "T001");
        assert_eq!(plain(header.as_bytes()), b"warning[T001]");
        assert_ne!(header, "warning[T001]");
    }
}
