//! The `--cuda-arch` rewrite: the `__CUDA_ARCH__` tokens of the conditions the scanner decides
//! by the chosen architecture become [`MACRO`], and a generated definition, before the first of
//! them, gives it its value (see [`crate::scan::cuda_arch`] for why).
//!
//! The definition is found again by its exact shape: a second run with the same architecture
//! keeps it, one with another architecture replaces it (the conditions already test [`MACRO`],
//! so the definition is what decides), and that alone is a reason to rewrite the file.

use std::ops::Range;

use super::helpers::insertion_point;
use super::Edit;
use crate::scan::cuda_arch::{CudaArch, MACRO};

const HEAD: &str = "// ---- ptx2hip: AMD device code takes the arms of ";
const VALUE: &str = "#define PTX2HIP_CUDA_ARCH ";

/// The definition's lines for `arch`.
fn definition(arch: CudaArch) -> [String; 8] {
    [
        // Under 80 columns: a formatter keeps it on one line.
        format!("{HEAD}{arch} (--cuda-arch) ----"),
        format!("#ifndef {MACRO}"),
        "#if defined(__CUDA_ARCH__)".into(),
        format!("#define {MACRO} __CUDA_ARCH__"),
        "#elif defined(__HIP_DEVICE_COMPILE__)".into(),
        format!("{VALUE}{}", arch.value()),
        "#endif".into(),
        "#endif".into(),
    ]
}

/// A definition in the file: its bytes (through its last line's ending) and its value.
fn find(source: &[u8]) -> Option<(Range<usize>, u32)> {
    let mut from = 0;
    while let Some(p) = memchr::memmem::find(&source[from..], HEAD.as_bytes()) {
        let start = from + p;
        from = start + HEAD.len();
        if start > 0 && source[start - 1] != b'\n' {
            continue;
        }
        let mut end = start;
        let mut lines = Vec::new();
        for _ in 0..8 {
            let len = memchr::memchr(b'\n', &source[end..]).map_or(source.len() - end, |n| n + 1);
            let line = &source[end..end + len];
            lines.push(line.strip_suffix(b"\n").unwrap_or(line));
            end += len;
        }
        let lines: Vec<&[u8]> = lines
            .iter()
            .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
            .collect();
        let Some(value) = lines[5]
            .strip_prefix(VALUE.as_bytes())
            .and_then(|v| std::str::from_utf8(v).ok())
            .and_then(|v| v.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(arch) = CudaArch::parse(&(value / 10).to_string()) else {
            continue;
        };
        if arch.value() == value
            && definition(arch)
                .iter()
                .zip(&lines)
                .all(|(want, got)| want.as_bytes() == *got)
        {
            return Some((start..end, value));
        }
    }
    None
}

/// The edits for `--cuda-arch` `arch`: `tokens` (the scanner's) renamed, and the definition put
/// before `first_use` (the first rewritten condition or translation testing [`MACRO`]) or brought
/// up to date. An out-of-date definition is a reason to rewrite the file, and so are the tokens
/// of a file `translated` by an earlier run (which translated every arm and left the conditions
/// as written); otherwise they go along with the file's new translations.
pub fn edits(
    source: &[u8],
    tokens: &[Range<usize>],
    first_use: Option<usize>,
    arch: CudaArch,
    translated: bool,
    nl: &str,
) -> Vec<Edit> {
    let edit = super::plain_edit;
    let mut out = Vec::with_capacity(tokens.len() + 1);
    let block = |nl: &str| definition(arch).join(nl) + nl;
    match find(source) {
        Some((_, value)) if value == arch.value() => {}
        Some((range, _)) => {
            let ending = if source[..range.end].ends_with(b"\r\n") {
                "\r\n"
            } else {
                nl
            };
            let mut text = block(ending);
            if !source[..range.end].ends_with(b"\n") {
                text.truncate(text.len() - ending.len());
            }
            out.push(edit(range, text, true));
        }
        None => {
            if let Some(first) = first_use {
                let at = insertion_point(source, first);
                let text = if at == 0 || source[at - 1] == b'\n' {
                    block(nl)
                } else {
                    format!("{nl}{}", block(nl))
                };
                out.push(edit(at..at, text, translated && !tokens.is_empty()));
            }
        }
    }
    out.extend(
        tokens
            .iter()
            .map(|t| edit(t.clone(), MACRO.to_string(), translated)),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arch(sm: &str) -> CudaArch {
        CudaArch::parse(sm).unwrap()
    }

    fn applied(source: &str, edits: &[Edit]) -> String {
        let mut edits = edits.to_vec();
        edits.sort_by_key(|e| e.span.start);
        let mut out = String::new();
        let mut at = 0;
        for e in &edits {
            out.push_str(&source[at..e.span.start]);
            out.push_str(&e.text);
            at = e.span.end;
        }
        out + &source[at..]
    }

    #[test]
    fn the_definition_goes_after_the_includes_and_before_the_first_condition() {
        let src = "#include <cuda.h>\nint x;\n#if __CUDA_ARCH__ >= 800\nasm(\"a;\");\n#endif\n";
        let at = src.find("__CUDA").unwrap();
        let first = edits(
            src.as_bytes(),
            &[at..at + 13],
            Some(at - 4),
            arch("80"),
            false,
            "\n",
        );
        assert!(first.iter().all(|e| !e.significant));
        // In a file an earlier run translated, the rewrite alone is a reason to write it.
        let upgrade = edits(
            src.as_bytes(),
            &[at..at + 13],
            Some(at - 4),
            arch("80"),
            true,
            "\n",
        );
        assert!(upgrade.iter().all(|e| e.significant));
        let out = applied(src, &first);
        assert_eq!(
            out,
            "#include <cuda.h>\n\
             // ---- ptx2hip: AMD device code takes the arms of sm_80 (--cuda-arch) ----\n\
             #ifndef PTX2HIP_CUDA_ARCH\n\
             #if defined(__CUDA_ARCH__)\n\
             #define PTX2HIP_CUDA_ARCH __CUDA_ARCH__\n\
             #elif defined(__HIP_DEVICE_COMPILE__)\n\
             #define PTX2HIP_CUDA_ARCH 800\n\
             #endif\n\
             #endif\n\
             int x;\n#if PTX2HIP_CUDA_ARCH >= 800\nasm(\"a;\");\n#endif\n"
        );
        assert_eq!(find(out.as_bytes()).map(|(_, v)| v), Some(800));
        assert!(edits(out.as_bytes(), &[], None, arch("80"), true, "\n").is_empty());
    }

    #[test]
    fn another_architecture_updates_the_definition_and_is_a_reason_to_rewrite() {
        let src = format!("{}\r\nint x;\r\n", definition(arch("70")).join("\r\n"));
        let update = edits(src.as_bytes(), &[], None, arch("90"), false, "\n");
        assert_eq!(update.len(), 1);
        assert!(update[0].significant);
        let out = applied(&src, &update);
        assert_eq!(
            out,
            format!("{}\r\nint x;\r\n", definition(arch("90")).join("\r\n"))
        );
    }

    #[test]
    fn a_definition_edited_by_hand_is_user_code() {
        let mut lines = definition(arch("90"));
        lines[3] = "#define PTX2HIP_CUDA_ARCH 800".into();
        let src = lines.join("\n") + "\n";
        assert_eq!(find(src.as_bytes()), None);
        assert!(find(b"x // ---- ptx2hip: AMD device code takes the arms of sm_90").is_none());
    }
}
