//! Unified diffs over raw bytes, so files that are not valid UTF-8 diff exactly (`git apply` takes
//! the bytes as they are).

use similar::{capture_diff_slices, group_diff_ops, Algorithm, DiffOp};

/// Splits into lines that keep their terminators (`\n`, and so `\r\n`).
fn lines(bytes: &[u8]) -> Vec<&[u8]> {
    bytes.split_inclusive(|&b| b == b'\n').collect()
}

/// A `git apply`-compatible unified diff of `old` → `new` for `path` (with `a/` and `b/`
/// prefixes), or nothing when they are equal.
pub fn unified(path: &str, old: &[u8], new: &[u8]) -> Vec<u8> {
    if old == new {
        return Vec::new();
    }
    let a = lines(old);
    let b = lines(new);
    let ops = capture_diff_slices(Algorithm::Myers, &a, &b);
    let mut out = Vec::new();
    out.extend_from_slice(format!("--- a/{path}\n+++ b/{path}\n").as_bytes());
    for group in group_diff_ops(ops, 3) {
        let (Some(first), Some(last)) = (group.first(), group.last()) else { continue };
        let old_start = first.old_range().start;
        let old_len = last.old_range().end - old_start;
        let new_start = first.new_range().start;
        let new_len = last.new_range().end - new_start;
        out.extend_from_slice(
            format!("@@ -{} +{} @@\n", range(old_start, old_len), range(new_start, new_len)).as_bytes(),
        );
        for op in &group {
            let (tag, old_r, new_r) = match *op {
                DiffOp::Equal { old_index, new_index, len } => (b' ', old_index..old_index + len, new_index..new_index + len),
                DiffOp::Delete { old_index, old_len, new_index } => (b'-', old_index..old_index + old_len, new_index..new_index),
                DiffOp::Insert { old_index, new_index, new_len } => (b'+', old_index..old_index, new_index..new_index + new_len),
                DiffOp::Replace { old_index, old_len, new_index, new_len } => {
                    for l in &a[old_index..old_index + old_len] {
                        push_line(&mut out, b'-', l);
                    }
                    for l in &b[new_index..new_index + new_len] {
                        push_line(&mut out, b'+', l);
                    }
                    continue;
                }
            };
            if tag == b'+' {
                for l in &b[new_r] {
                    push_line(&mut out, tag, l);
                }
            } else {
                for l in &a[old_r] {
                    push_line(&mut out, tag, l);
                }
            }
        }
    }
    out
}

/// `start,len` in unified-diff numbering (1-based; an empty range names the line before it).
fn range(start: usize, len: usize) -> String {
    match len {
        0 => format!("{start},0"),
        1 => format!("{}", start + 1),
        _ => format!("{},{len}", start + 1),
    }
}

fn push_line(out: &mut Vec<u8>, tag: u8, line: &[u8]) {
    out.push(tag);
    out.extend_from_slice(line);
    if !line.ends_with(b"\n") {
        out.extend_from_slice(b"\n\\ No newline at end of file\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_of_non_utf8_bytes_keeps_them() {
        let old = b"a\n\xff comment\nb\n";
        let new = b"a\n\xff comment\nc\n";
        let d = unified("x.cu", old, new);
        assert_eq!(d, b"--- a/x.cu\n+++ b/x.cu\n@@ -1,3 +1,3 @@\n a\n \xff comment\n-b\n+c\n".to_vec());
    }

    #[test]
    fn missing_final_newline_is_marked() {
        let d = unified("x", b"a", b"b");
        assert_eq!(String::from_utf8(d).unwrap(), "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file\n");
    }
}
