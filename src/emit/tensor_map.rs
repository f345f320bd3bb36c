//! The renames of the driver's tensor-map encoder in host code (found by
//! [`crate::scan::tensor_map`]): each call of `cuTensorMapEncodeTiled` calls ptx2hip's encoder
//! helper instead, `ptx2hip_cuTensorMapEncodeTiled` where every build runs the translated copies
//! (`--emit replace`), `ptx2hip_cuTensorMapEncodeTiled_guarded` where the NVIDIA build keeps the
//! original asm (`--emit guarded`). A call an earlier run renamed keeps its helper in the file's
//! helper block without being a reason to rewrite the file, so a second run changes nothing.

use super::{plain_edit, Edit, EmitMode};
use crate::scan::tensor_map::{EncoderUses, GUARDED, OURS};

/// The edits for `uses` in a file rewritten in `mode`.
pub fn edits(uses: &EncoderUses, mode: EmitMode) -> Vec<Edit> {
    let name = match mode {
        EmitMode::Replace => OURS,
        EmitMode::Guarded => GUARDED,
    };
    let with_helper = |mut e: Edit, helper: &str| {
        e.helpers.push(helper.to_string());
        e
    };
    let renames = uses
        .calls
        .iter()
        .map(|span| with_helper(plain_edit(span.clone(), name.to_string(), true), name));
    let kept = uses.renamed.iter().map(|(span, helper)| {
        with_helper(plain_edit(span.clone(), helper.to_string(), false), helper)
    });
    renames.chain(kept).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::tensor_map::find;

    #[test]
    fn calls_take_the_encoder_of_the_mode_and_renamed_ones_keep_their_helper() {
        let src = b"r = cuTensorMapEncodeTiled(&m); q = ptx2hip_cuTensorMapEncodeTiled(&n);";
        let uses = find(src);
        let replace = edits(&uses, EmitMode::Replace);
        assert_eq!(replace.len(), 2);
        assert_eq!(replace[0].text, OURS);
        assert!(replace[0].significant);
        assert_eq!(replace[0].helpers, [OURS]);
        assert!(!replace[1].significant);
        let guarded = edits(&uses, EmitMode::Guarded);
        assert_eq!(guarded[0].text, GUARDED);
        assert_eq!(guarded[0].helpers, [GUARDED]);
    }
}
