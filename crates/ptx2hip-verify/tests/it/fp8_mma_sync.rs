//! fp8 `mma.sync` on sm_90: every output element of the 16 recorded fp8 forms of the H100
//! recording (`tests/vectors/matrix/mma.bin.gz`; both shapes, e4m3/e5m2 and their mixes, f32
//! and f16 accumulators, every theme: specials, subnormals, overflow, signed zeros) is what
//! `model::dot_fp8_sync` computes, bit for bit.

use ptx2hip_verify::matrix::cases::unpack;
use ptx2hip_verify::matrix::model::{dot_fp8_sync, Accum, Choices, Format};
use ptx2hip_verify::matrix::{all_forms, generate, Elem, Operand};
use ptx2hip_verify::warp::Recording;

fn fp8(e: Elem) -> Option<Format> {
    match e {
        Elem::E4m3 => Some(Format::E4m3),
        Elem::E5m2 => Some(Format::E5m2),
        _ => None,
    }
}

#[test]
fn the_h100_recording_of_every_fp8_form_is_the_model() {
    let path = ptx2hip_verify::repo_root().join("tests/vectors/matrix/mma.bin.gz");
    if !path.exists() {
        eprintln!("note: no mma recording (docs/MATRIX.md)");
        return;
    }
    let rec = Recording::read(&path).unwrap_or_else(|e| panic!("{e}"));
    let mut forms = 0;
    let mut elements = 0;
    for form in all_forms() {
        let (Some(fa), Some(fb)) = (fp8(form.a), fp8(form.b)) else {
            continue;
        };
        let r = rec
            .form(&form.name())
            .unwrap_or_else(|| panic!("{} is not recorded", form.name()));
        let accum = if form.c == Elem::F16 {
            Accum::F16
        } else {
            Accum::F32
        };
        let mut bad = Vec::new();
        for (k, case) in generate(&form).iter().enumerate() {
            let lanes: Vec<&[u32]> = (0..32).map(|l| r.lane(k, l)).collect();
            let got = unpack(&form, Operand::D, &lanes);
            for (e, &g) in got.iter().enumerate() {
                let (i, j) = (e / form.n, e % form.n);
                let row: Vec<u32> = (0..form.k).map(|x| case.a[i * form.k + x] as u32).collect();
                let col: Vec<u32> = (0..form.k).map(|x| case.b[x * form.n + j] as u32).collect();
                let want = dot_fp8_sync(
                    (fa, fb),
                    accum,
                    &row,
                    &col,
                    case.c[e] as u32,
                    &Choices::DEFAULT,
                )
                .expect("an fp8 form");
                if u64::from(want) != g {
                    bad.push(format!("case {k} element {e}: H100 {g:#x} model {want:#x}"));
                }
                elements += 1;
            }
        }
        assert!(
            bad.is_empty(),
            "{}: {} differ, first {:?}",
            form.name(),
            bad.len(),
            &bad[..bad.len().min(8)]
        );
        forms += 1;
    }
    assert_eq!(forms, 16);
    eprintln!("{elements} recorded fp8 elements agree with the model");
}
