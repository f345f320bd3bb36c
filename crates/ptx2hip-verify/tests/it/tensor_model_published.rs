//! The model (`ptx2hip_verify::matrix::model`) replays a sample of the published tensor-core
//! recordings bit for bit: H100 and A100 `mma`/`wgmma` results from Khattak & Mikaitis, *Accurate
//! Models of NVIDIA Tensor Cores* (github `north-numerical-computing/MATLAB-tensor-core`,
//! `model_validation/`), converted to raw bits (`tests/vectors-published/README.md`).
//! `PTX2HIP_TC_PUBLISHED=DIR` replays every `*.txt` of DIR instead (the full 5,000-case sets).

use std::path::{Path, PathBuf};

use ptx2hip_verify::matrix::model::{dot, Accum, Arch, Format};

/// One line: `ARCH FORMAT ACCUM C D A0,A1,… B0,B1,…`, every number hexadecimal raw bits.
fn replay(path: &Path) -> (usize, Vec<String>) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut failures = Vec::new();
    let mut cases = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let w: Vec<&str> = line.split_whitespace().collect();
        let hex = |s: &str| u32::from_str_radix(s, 16).unwrap();
        let list = |s: &str| s.split(',').map(hex).collect::<Vec<u32>>();
        let arch = match w[0] {
            "sm90" => Arch::Sm90,
            "sm80" => Arch::Sm80,
            other => panic!("arch {other}"),
        };
        let format = match w[1] {
            "f16" => Format::F16,
            "bf16" => Format::Bf16,
            "tf32" => Format::Tf32,
            "e4m3" => Format::E4m3,
            "e5m2" => Format::E5m2,
            other => panic!("format {other}"),
        };
        let accum = if w[2] == "f16" {
            Accum::F16
        } else {
            Accum::F32
        };
        let (c, want, a, b) = (hex(w[3]), hex(w[4]), list(w[5]), list(w[6]));
        let got = dot(arch, format, accum, &a, &b, c).expect("a modelled form");
        cases += 1;
        if got != want {
            failures.push(format!("{line}: model {got:x}"));
        }
    }
    (cases, failures)
}

fn files() -> Vec<PathBuf> {
    let dir = std::env::var_os("PTX2HIP_TC_PUBLISHED").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/vectors-published"),
        PathBuf::from,
    );
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    files
}

#[test]
fn the_model_reproduces_the_published_h100_and_a100_recordings() {
    let mut report = Vec::new();
    let mut total = 0;
    for f in files() {
        let (cases, failures) = replay(&f);
        total += cases;
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        eprintln!("{name}: {}/{cases}", cases - failures.len());
        report.extend(failures.into_iter().take(3).map(|x| format!("{name}: {x}")));
    }
    assert!(total > 0, "no published cases found");
    assert!(report.is_empty(), "mismatches:\n{}", report.join("\n"));
}
