//! Per-warp recordings of the `mma` forms (docs/MATRIX.md).
//!
//! ```text
//! cargo run -p ptx2hip-verify --bin matrix_vectors -- gen --out DIR [--only S]  # CUDA programs + inputs + run.sh (forms named *S*)
//! RES=DIR/res bash DIR/run.sh                                                  # on a machine with an NVIDIA GPU
//! cargo run -p ptx2hip-verify --bin matrix_vectors -- import --results DIR/res # writes tests/vectors/matrix/
//! cargo run -p ptx2hip-verify --bin matrix_vectors -- check                    # recording vs the reference
//! cargo run -p ptx2hip-verify --bin matrix_vectors -- retag                    # forms' rules as the table now says
//! cargo run -p ptx2hip-verify --bin matrix_vectors -- dump --form NAME --case K --element E
//! cargo run -p ptx2hip-verify --bin matrix_vectors -- export --form NAME     # every element, one line
//! ```

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use ptx2hip_verify::matrix::cases::unpack;
use ptx2hip_verify::matrix::reference::expected;
use ptx2hip_verify::matrix::{all_forms, generate, harness, Operand};
use ptx2hip_verify::warp::Recording;
use serde_json::json;

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

fn dir() -> PathBuf {
    ptx2hip_verify::repo_root().join("tests/vectors/matrix")
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("gen") => gen(&args),
        Some("import") => import(&args),
        Some("check") => check(),
        Some("retag") => retag(),
        Some("dump") => dump(&args),
        Some("export") => export(&args),
        _ => {
            Err("usage: matrix_vectors gen|import|check|retag|dump|export (see the source)".into())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

fn gen(args: &[String]) -> Result<(), String> {
    let out = arg(args, "--out").ok_or("gen needs --out DIR")?;
    let only = arg(args, "--only").unwrap_or_default();
    let n = harness::write_programs(Path::new(&out), &only)?;
    println!("{n} forms written to {out}");
    Ok(())
}

fn import(args: &[String]) -> Result<(), String> {
    let res = arg(args, "--results").ok_or("import needs --results DIR")?;
    let dir = dir();
    let earlier = Recording::read(&dir.join("mma.bin.gz")).ok();
    let imported = harness::import(Path::new(&res), earlier.as_ref())?;
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    imported.recording.write(&dir.join("mma.bin.gz"))?;
    let mut manifest = imported.recording.header.clone();
    manifest["rejected_by_ptxas"] = json!(imported
        .missing
        .iter()
        .map(|(name, why)| json!({"form": name, "why": why}))
        .collect::<Vec<_>>());
    std::fs::write(
        dir.join("manifest.json"),
        serde_json::to_string_pretty(&manifest).map_err(|e| e.to_string())? + "\n",
    )
    .map_err(|e| e.to_string())?;
    println!(
        "{} forms recorded, {} without outputs",
        imported.recording.forms.len(),
        imported.missing.len()
    );
    for (name, why) in &imported.missing {
        println!("NOT RECORDED {name}: {}", why.lines().next().unwrap_or(""));
    }
    Ok(())
}

/// Rewrites the recording with each form's rule as the rule table now gives it (a form translated
/// after it was recorded), its outputs unchanged.
fn retag() -> Result<(), String> {
    let path = dir().join("mma.bin.gz");
    let mut rec = Recording::read(&path)?;
    let changed = harness::retag(&mut rec)?;
    rec.write(&path)?;
    for c in &changed {
        println!("{c}");
    }
    println!("{} forms retagged", changed.len());
    Ok(())
}

/// Compares the recorded D of every form with its reference.
fn check() -> Result<(), String> {
    let rec = Recording::read(&dir().join("mma.bin.gz"))?;
    let mut bad = 0usize;
    for form in all_forms() {
        let Some(r) = rec.form(&form.name()) else {
            println!("{}: not recorded", form.name());
            continue;
        };
        let mut diffs = 0;
        let cases = generate(&form);
        if expected(&form, &cases[0].a, &cases[0].b, &cases[0].c).is_none() {
            println!("{}: no reference", form.name());
            continue;
        }
        for (k, case) in cases.iter().enumerate() {
            let Some(want) = expected(&form, &case.a, &case.b, &case.c) else {
                break;
            };
            let lanes: Vec<&[u32]> = (0..32).map(|l| r.lane(k, l)).collect();
            let got = unpack(&form, Operand::D, &lanes);
            for (e, (g, w)) in got.iter().zip(&want).enumerate() {
                if g != w {
                    if diffs < 4 {
                        println!(
                            "{} case {k} element {e}: GPU {g:#x} reference {w:#x}",
                            form.name()
                        );
                    }
                    diffs += 1;
                }
            }
        }
        println!(
            "{}: {} warps, {diffs} differences",
            form.name(),
            cases.len()
        );
        bad += diffs;
    }
    if bad == 0 {
        Ok(())
    } else {
        Err(format!("{bad} outputs differ from the reference"))
    }
}

/// One output element with its inputs: A's row, B's column, C, the recorded D and the reference.
fn dump(args: &[String]) -> Result<(), String> {
    let name = arg(args, "--form").ok_or("dump needs --form NAME")?;
    let k: usize = arg(args, "--case")
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let e: usize = arg(args, "--element")
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let form = all_forms()
        .into_iter()
        .find(|f| f.name() == name)
        .ok_or("no such form")?;
    let case = generate(&form).into_iter().nth(k).ok_or("no such case")?;
    let (i, j) = (e / form.n, e % form.n);
    let row: Vec<String> = (0..form.k)
        .map(|x| format!("{:#x}", case.a[i * form.k + x]))
        .collect();
    let col: Vec<String> = (0..form.k)
        .map(|x| format!("{:#x}", case.b[(i / form.m * form.k + x) * form.n + j]))
        .collect();
    println!(
        "A[{i}]: {}\nB[:,{j}]: {}\nC: {:#x}",
        row.join(" "),
        col.join(" "),
        case.c[e]
    );
    if let Ok(rec) = Recording::read(&dir().join("mma.bin.gz")) {
        if let Some(r) = rec.form(&name) {
            let lanes: Vec<&[u32]> = (0..32).map(|l| r.lane(k, l)).collect();
            println!("GPU: {:#x}", unpack(&form, Operand::D, &lanes)[e]);
        }
    }
    if let Some(d) = expected(&form, &case.a, &case.b, &case.c) {
        println!("reference: {:#x}", d[e]);
    }
    Ok(())
}

/// Every output element of a recorded form, one line each: the row of A, the column of B, C and
/// the recorded D, in hex (for fitting a model outside Rust).
fn export(args: &[String]) -> Result<(), String> {
    let name = arg(args, "--form").ok_or("export needs --form NAME")?;
    let form = all_forms()
        .into_iter()
        .find(|f| f.name() == name)
        .ok_or("no such form")?;
    let rec = Recording::read(&dir().join("mma.bin.gz"))?;
    let r = rec.form(&name).ok_or("not recorded")?;
    for (k, case) in generate(&form).iter().enumerate() {
        let lanes: Vec<&[u32]> = (0..32).map(|l| r.lane(k, l)).collect();
        let d = unpack(&form, Operand::D, &lanes);
        for (e, de) in d.iter().enumerate() {
            let (i, j) = (e / form.n, e % form.n);
            // The rows of B of this element's product (m8n8k4 f16: four per warp, stacked).
            let b = &case.b[i / form.m * form.k * form.n..];
            let row: Vec<String> = (0..form.k)
                .map(|x| format!("{:x}", case.a[i * form.k + x]))
                .collect();
            let col: Vec<String> = (0..form.k)
                .map(|x| format!("{:x}", b[x * form.n + j]))
                .collect();
            println!(
                "{k} {} {} {:x} {:x}",
                row.join(","),
                col.join(","),
                case.c[e],
                de
            );
        }
    }
    Ok(())
}
