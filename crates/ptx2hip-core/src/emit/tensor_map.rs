//! The renames of the driver's tensor-map encoder in host code (found by
//! [`crate::scan::tensor_map`]): each call of `cuTensorMapEncodeTiled` calls ptx2hip's encoder
//! helper, `ptx2hip_cuTensorMapEncodeTiled`, instead — with `--emit guarded` through the selection
//! macros, `PTX2HIP_AMD_ONLY(ptx2hip_cuTensorMapEncodeTiled)PTX2HIP_NV_ONLY(cuTensorMapEncodeTiled)`,
//! since the NVIDIA build keeps the original asm, whose copies read the driver's maps. A call an
//! earlier run renamed keeps its helper (and selection macros) in the file's helper block without
//! being a reason to rewrite the file, so a second run changes nothing.

use super::{plain_edit, Edit, EmitMode};
use crate::scan::tensor_map::{EncoderUses, AMD_ONLY, DRIVER, NV_ONLY, OURS};

/// The edits for `uses` in a file rewritten in `mode`.
pub fn edits(uses: &EncoderUses, mode: EmitMode) -> Vec<Edit> {
    let call = match mode {
        EmitMode::Replace => OURS.to_string(),
        EmitMode::Guarded => format!("{AMD_ONLY}({OURS}){NV_ONLY}({DRIVER})"),
    };
    let edit = |span: &std::ops::Range<usize>, text: String, significant: bool, selects: bool| {
        let mut e = plain_edit(span.clone(), text, significant);
        e.helpers.push(OURS.to_string());
        e.selects = selects;
        e
    };
    let renames = uses
        .calls
        .iter()
        .map(|span| edit(span, call.clone(), true, mode == EmitMode::Guarded));
    let kept = uses
        .renamed
        .iter()
        .map(|(span, selected)| edit(span, OURS.to_string(), false, *selected));
    renames.chain(kept).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::tensor_map::find;

    #[test]
    fn calls_take_the_encoder_of_the_mode_and_renamed_ones_keep_their_helper() {
        let src = b"r = cuTensorMapEncodeTiled(&m); q = ptx2hip_cuTensorMapEncodeTiled(&n);";
        let uses = find(src, &[]);
        let replace = edits(&uses, EmitMode::Replace);
        assert_eq!(replace.len(), 2);
        assert_eq!(replace[0].text, OURS);
        assert!(replace[0].significant && !replace[0].selects);
        assert_eq!(replace[0].helpers, [OURS]);
        assert!(!replace[1].significant);
        let guarded = edits(&uses, EmitMode::Guarded);
        assert_eq!(
            guarded[0].text,
            "PTX2HIP_AMD_ONLY(ptx2hip_cuTensorMapEncodeTiled)PTX2HIP_NV_ONLY(cuTensorMapEncodeTiled)"
        );
        assert!(guarded[0].selects);
    }
}
