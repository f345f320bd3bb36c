//! `wgmma.mma_async` on the H100 (docs/WGMMA.md): every recorded case of
//! `tests/vectors/wgmma/wgmma.bin.gz` (numerics, layouts and the sweep of every form of the
//! census) is regenerated from its seed and replayed through the reference,
//! `ptx2hip_verify::wgmma::model`, bit for bit.

use ptx2hip_verify::wgmma::model::{digest, expected, Fit};
use ptx2hip_verify::wgmma::record::{inputs_digest, Recording};
use ptx2hip_verify::wgmma::replay::{cases_of, form_named, Recorded};
use ptx2hip_verify::wgmma::Set;
use rayon::prelude::*;

fn recording() -> Recording {
    let path = ptx2hip_verify::repo_root().join("tests/vectors/wgmma/wgmma.bin.gz");
    Recording::read(&path).expect("the wgmma recording")
}

#[test]
fn every_form_of_every_set_is_recorded() {
    let rec = recording();
    for set in Set::ALL {
        let missing: Vec<String> = set
            .forms()
            .iter()
            .map(|f| f.name())
            .filter(|n| rec.form(set, n).is_none())
            .collect();
        assert!(missing.is_empty(), "{set:?}: {missing:#?}");
    }
}

#[test]
fn every_recorded_case_is_reproduced_bit_for_bit() {
    let rec = recording();
    let bad: Vec<String> = rec
        .forms
        .par_iter()
        .flat_map_iter(|r| {
            let cases = cases_of(r);
            let drifted = form_named(r.set, &r.name).is_none_or(|form| {
                inputs_digest(r.set, &form, cases.iter().map(|c| &c.inputs)) != r.inputs_digest
            });
            let inputs = drifted.then(|| format!("{} {}: inputs differ", r.set.name(), r.name));
            let cases = cases.into_iter().filter_map(|case| {
                let want = expected(&case.form, &case.inputs, &Fit::DEFAULT);
                let same = match (&case.recorded, want) {
                    (Recorded::Outputs(o), Some(w)) => *o == w,
                    (Recorded::Digest(d), Some(w)) => digest(w.iter().flatten().copied()) == *d,
                    (_, None) => false,
                };
                (!same).then(|| {
                    format!(
                        "{} {} case {}",
                        case.set.name(),
                        case.form.name(),
                        case.index
                    )
                })
            });
            inputs.into_iter().chain(cases).collect::<Vec<_>>()
        })
        .collect();
    assert!(bad.is_empty(), "{} differ: {bad:#?}", bad.len());
}
