//! `wgmma.mma_async` on the H100 (docs/WGMMA.md): every recorded case of
//! `tests/vectors/wgmma/wgmma.bin.gz` (numerics, layouts and the sweep of every form of the
//! census) is replayed through the reference, `ptx2hip_verify::wgmma::model`, bit for bit.

use ptx2hip_verify::wgmma::model::{digest, expected, Fit};
use ptx2hip_verify::wgmma::record::{inputs_digest, Recording};
use ptx2hip_verify::wgmma::replay::{all_cases, Recorded};
use ptx2hip_verify::wgmma::{generate, Set};
use rayon::prelude::*;

#[test]
fn every_case_reads_only_inside_its_image() {
    for set in Set::ALL {
        let forms = set.forms();
        let bad: Vec<String> = forms
            .par_iter()
            .flat_map_iter(|f| {
                generate(set, f)
                    .into_iter()
                    .enumerate()
                    .filter(|(_, c)| expected(f, c, &Fit::DEFAULT).is_none())
                    .map(|(k, c)| format!("{} case {k}: image {} bytes", f.name(), c.image.len()))
                    .collect::<Vec<_>>()
            })
            .collect();
        assert!(bad.is_empty(), "{set:?}: {bad:#?}");
    }
}

#[test]
fn every_recorded_case_is_reproduced_bit_for_bit() {
    let path = ptx2hip_verify::repo_root().join("tests/vectors/wgmma/wgmma.bin.gz");
    let rec = Recording::read(&path).expect("the wgmma recording");
    let cases: Vec<_> = all_cases(&rec).collect();
    assert!(!cases.is_empty());
    let bad: Vec<String> = cases
        .par_iter()
        .filter_map(|case| {
            let want = expected(&case.form, &case.inputs, &Fit::DEFAULT)?;
            let same = match &case.recorded {
                Recorded::Outputs(o) => *o == want,
                Recorded::Digest(d) => digest(want.iter().flatten().copied()) == *d,
            };
            (!same).then(|| format!("{} {} case {}", case.set.name(), case.form.name(), case.index))
        })
        .collect();
    assert!(bad.is_empty(), "{} of {} cases differ: {bad:#?}", bad.len(), cases.len());
}

#[test]
fn the_inputs_regenerate_as_recorded() {
    let path = ptx2hip_verify::repo_root().join("tests/vectors/wgmma/wgmma.bin.gz");
    let rec = Recording::read(&path).expect("the wgmma recording");
    let drifted: Vec<&str> = rec
        .forms
        .par_iter()
        .filter(|f| {
            ptx2hip_verify::wgmma::replay::form_named(f.set, &f.name)
                .is_none_or(|form| inputs_digest(f.set, &form) != f.inputs_digest)
        })
        .map(|f| f.name.as_str())
        .collect();
    assert!(drifted.is_empty(), "inputs differ from the recording's: {drifted:#?}");
}
