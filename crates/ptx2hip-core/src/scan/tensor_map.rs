//! Host code that makes tensor maps with the CUDA driver's encoder.
//!
//! A translated TMA copy (rules/tensor_copy.toml) reads a tensor map in ptx2hip's own layout,
//! which only `ptx2hip_cuTensorMapEncodeTiled` (a helper of rules/helpers/tensor_copy.h, with the
//! driver function's signature) writes: NVIDIA's layout is undocumented. `translate` therefore
//! renames the calls of `cuTensorMapEncodeTiled` in the files it rewrites, and reports the uses
//! it cannot rename: the function taken as a pointer or looked up by name
//! (`cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", ...)`, as DeepGEMM does), and the im2col
//! encoder, whose maps are not emulated. Only identifiers and string literals of code count;
//! comments do not.

use std::ops::Range;

use super::tokens::{spans, Kind};

/// The driver's tiled encoder.
pub const DRIVER: &str = "cuTensorMapEncodeTiled";
/// ptx2hip's encoder, with the driver function's signature.
pub const OURS: &str = "ptx2hip_cuTensorMapEncodeTiled";
/// The selection macros of a `--emit guarded` rewrite (`emit::helpers`): the AMD build calls
/// ptx2hip's encoder, the NVIDIA build, which keeps the original asm, the driver's.
pub const AMD_ONLY: &str = "PTX2HIP_AMD_ONLY";
pub const NV_ONLY: &str = "PTX2HIP_NV_ONLY";
/// The driver's im2col encoder.
const IM2COL: &str = "cuTensorMapEncodeIm2col";

/// What the host code of a file does with the encoders.
#[derive(Debug, Default, PartialEq)]
pub struct EncoderUses {
    /// Calls of the driver's tiled encoder: the name's bytes, to be renamed.
    pub calls: Vec<Range<usize>>,
    /// Calls renamed by an earlier run (their helper is still needed): the new name's bytes, and
    /// whether it stands in the selection of a guarded rewrite
    /// (`PTX2HIP_AMD_ONLY(ptx2hip_cuTensorMapEncodeTiled)PTX2HIP_NV_ONLY(cuTensorMapEncodeTiled)`).
    pub renamed: Vec<(Range<usize>, bool)>,
    /// Uses that cannot be renamed: where, and why.
    pub refused: Vec<(usize, String)>,
}

/// Whether `source` may name an encoder (a cheap test before lexing the whole file).
pub fn may_use_encoder(source: &[u8]) -> bool {
    memchr::memmem::find(source, b"cuTensorMapEncode").is_some()
}

/// The encoder uses of `source` outside `skip` (ptx2hip's helper block, whose code is its own).
pub fn find(source: &[u8], skip: &[Range<usize>]) -> EncoderUses {
    let mut uses = EncoderUses::default();
    if !may_use_encoder(source) {
        return uses;
    }
    let tokens = spans(source, 0..source.len(), skip);
    // Whether token k is the argument of the selection macro `name` (`name ( token )`).
    let selected_by = |k: usize, name: &str| {
        k >= 2
            && tokens[k - 2].text(source) == name.as_bytes()
            && tokens[k - 1].kind == Kind::LParen
            && tokens.get(k + 1).is_some_and(|n| n.kind == Kind::RParen)
    };
    for (k, t) in tokens.iter().enumerate() {
        let called = tokens.get(k + 1).is_some_and(|n| n.kind == Kind::LParen);
        let span = t.at..t.end;
        match (t.kind, t.text(source)) {
            // The NVIDIA side of a guarded rewrite keeps the driver's encoder.
            (Kind::Ident, name) if name == DRIVER.as_bytes() && selected_by(k, NV_ONLY) => {}
            (Kind::Ident, name) if name == DRIVER.as_bytes() && called => uses.calls.push(span),
            (Kind::Ident, name) if name == OURS.as_bytes() => {
                uses.renamed.push((span, selected_by(k, AMD_ONLY)))
            }
            (Kind::Ident, name) if name == DRIVER.as_bytes() => uses.refused.push((
                t.at,
                format!("`{DRIVER}` used other than called by name (a function pointer): the maps it makes have NVIDIA's layout, which the translated tensor copies cannot read; call `{OURS}` (same signature) there"),
            )),
            (Kind::Ident, name) if name == IM2COL.as_bytes() => uses.refused.push((
                t.at,
                format!("`{IM2COL}`: im2col tensor maps are not emulated (their copies, `cp.async.bulk.tensor...im2col`, are not translated either); port the convolution to tiled copies"),
            )),
            (Kind::Str, text) if names(text, DRIVER) => uses.refused.push((
                t.at,
                format!("`{DRIVER}` looked up by name (cudaGetDriverEntryPoint / cuGetProcAddress): the function found makes maps in NVIDIA's layout, which the translated tensor copies cannot read; call `{OURS}` (same signature) instead of the pointer"),
            )),
            _ => {}
        }
    }
    uses
}

/// Whether the string literal `text` (quotes included) is exactly `name`.
fn names(text: &[u8], name: &str) -> bool {
    text.strip_prefix(b"\"")
        .and_then(|t| t.strip_suffix(b"\""))
        .is_some_and(|t| t == name.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_are_renamed_and_other_uses_reported() {
        let src = br#"
// cuTensorMapEncodeTiled(&m, ...) in a comment is no call
CUresult r = cuTensorMapEncodeTiled(&map, t, 2, p, dims, strides, box, es, i, s, l, f);
auto fn = &cuTensorMapEncodeTiled;
cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &ptr, cudaEnableDefault, &status);
cuTensorMapEncodeIm2col(&map, t, 3, p, dims, strides, lo, hi, c, px, es, i, s, l, f);
ptx2hip_cuTensorMapEncodeTiled(&map, t, 2, p, dims, strides, box, es, i, s, l, f);
"#;
        let uses = find(src, &[]);
        assert_eq!(uses.calls.len(), 1);
        assert_eq!(&src[uses.calls[0].clone()], DRIVER.as_bytes());
        assert_eq!(uses.renamed.len(), 1);
        let why: Vec<&str> = uses.refused.iter().map(|(_, w)| w.as_str()).collect();
        assert_eq!(why.len(), 3, "{why:?}");
        assert!(why[0].contains("function pointer"));
        assert!(why[1].contains("looked up by name"));
        assert!(why[2].contains("im2col"));
    }

    #[test]
    fn a_file_without_the_names_is_not_lexed() {
        assert_eq!(
            find(b"int main() { return 0; }", &[]),
            EncoderUses::default()
        );
    }

    #[test]
    fn a_guarded_rewrite_is_recognised_and_the_helper_block_skipped() {
        let src = b"/*block: cuTensorMapEncodeTiled(x) */ r = PTX2HIP_AMD_ONLY(ptx2hip_cuTensorMapEncodeTiled)PTX2HIP_NV_ONLY(cuTensorMapEncodeTiled)(&m);";
        let block = 0..src.iter().position(|&b| b == b'r').unwrap();
        let uses = find(src, &[block]);
        assert!(uses.calls.is_empty() && uses.refused.is_empty(), "{uses:?}");
        assert_eq!(uses.renamed.len(), 1);
        assert!(uses.renamed[0].1);
    }
}
