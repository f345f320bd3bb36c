//! Warp-level golden recordings (docs/WARP.md).
//!
//! ```text
//! cargo run --example warp_vectors -- gen --out DIR            # CUDA programs + inputs + run.sh
//! RES=DIR/res bash DIR/run.sh                                  # on a machine with an NVIDIA GPU
//! cargo run --example warp_vectors -- import --results DIR/res # writes tests/vectors/warp/
//! cargo run --example warp_vectors -- check                    # recording vs the PTX reference
//! cargo run --example warp_vectors -- dump --form NAME [--case N]
//! cargo run --example warp_vectors -- kernels-gen --out DIR    # corpus kernels: CUDA harnesses
//! RES=DIR/res bash DIR/run.sh                                  # on the GPU machine
//! cargo run --example warp_vectors -- kernels-import --results DIR/res
//! ```

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use ptx2hip::verify::warp::reference::expected;
use ptx2hip::verify::warp::{all_forms, generate, harness, kernels, Recording};
use serde_json::json;

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/warp")
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("gen") => gen(&args),
        Some("import") => import(&args),
        Some("check") => check(),
        Some("dump") => dump(&args),
        Some("kernels-gen") => kernels_gen(&args),
        Some("kernels-import") => kernels_import(&args),
        _ => Err("usage: warp_vectors gen|import|check|dump (see the source)".into()),
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
    let n = harness::write_programs(Path::new(&out))?;
    println!("{n} forms written to {out}");
    Ok(())
}

fn import(args: &[String]) -> Result<(), String> {
    let res = arg(args, "--results").ok_or("import needs --results DIR")?;
    let imported = harness::import(Path::new(&res))?;
    let dir = dir();
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    imported.recording.write(&dir.join("warp.bin.gz"))?;
    let mut rules = serde_json::Map::new();
    for f in &imported.recording.forms {
        let e = rules
            .entry(f.rule.clone())
            .or_insert_with(|| json!({"forms": 0, "cases": 0}));
        e["forms"] = json!(e["forms"].as_u64().unwrap_or(0) + 1);
        e["cases"] = json!(e["cases"].as_u64().unwrap_or(0) + f.cases as u64);
    }
    let mut manifest = imported.recording.header.clone();
    manifest["rules"] = serde_json::Value::Object(rules);
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

/// Compares every defined output of the recording with the PTX reference model.
fn check() -> Result<(), String> {
    let rec = Recording::read(&dir().join("warp.bin.gz"))?;
    let mut bad = 0usize;
    for form in all_forms() {
        let Some(r) = rec.form(&form.name) else {
            println!("{}: not recorded", form.name);
            continue;
        };
        let cases = generate(&form);
        let mut diffs = 0;
        for (k, case) in cases.iter().enumerate() {
            let e = expected(&form, case);
            for lane in 0..32 {
                let got = r.lane(k, lane);
                for (w, &x) in e.words[lane].iter().enumerate() {
                    if e.defined[lane][w] && got[w] != x {
                        if diffs < 4 {
                            println!(
                                "{} case {k} lane {lane} word {w}: GPU {:#x} reference {x:#x}",
                                form.name, got[w]
                            );
                        }
                        diffs += 1;
                    }
                }
            }
        }
        println!("{}: {} cases, {diffs} differences", form.name, cases.len());
        bad += diffs;
    }
    if bad == 0 {
        Ok(())
    } else {
        Err(format!("{bad} outputs differ from the reference"))
    }
}

fn dump(args: &[String]) -> Result<(), String> {
    let name = arg(args, "--form").ok_or("dump needs --form NAME")?;
    let rec = Recording::read(&dir().join("warp.bin.gz"))?;
    let form = all_forms()
        .into_iter()
        .find(|f| f.name == name)
        .ok_or("no such form")?;
    let r = rec.form(&name).ok_or("not recorded")?;
    let cases = generate(&form);
    let only: Option<usize> = arg(args, "--case").and_then(|c| c.parse().ok());
    for (k, case) in cases.iter().enumerate() {
        if only.is_some_and(|o| o != k) {
            continue;
        }
        println!(
            "case {k}: active {:#010x} {}",
            case.active,
            if case.exited { "exited" } else { "branched" }
        );
        for lane in 0..32 {
            if (case.active >> lane) & 1 == 0 {
                continue;
            }
            let ins: Vec<String> = case
                .values
                .iter()
                .map(|v| format!("{:#x}", v[lane]))
                .collect();
            let outs: Vec<String> = r.lane(k, lane).iter().map(|x| format!("{x:#x}")).collect();
            println!(
                "  lane {lane:2}: [{}] -> [{}]",
                ins.join(" "),
                outs.join(" ")
            );
        }
    }
    Ok(())
}

const KERNELS_RUN_SH: &str = r#"#!/bin/bash
# Runs each corpus kernel harness on the local NVIDIA GPU: RES=<dir> bash run.sh
set -u
cd "$(dirname "$0")"
RES=${RES:-res}
mkdir -p "$RES"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$RES/gpu.txt" 2>&1
nvcc --version | grep -E "release|Build" | tr '\n' ' ' > "$RES/nvcc.txt"
date -u +%Y-%m-%d > "$RES/date.txt"
for h in harness_*.cu; do
  b=${h%.cu}; name=${b#harness_}
  nvcc -O2 -arch=sm_90 -o "$b" "$h" 2> "$RES/$name.cerr" && timeout 30 "./$b" "$RES/$name.dump" 2> "$RES/$name.err"
done
"#;

fn kernels_gen(args: &[String]) -> Result<(), String> {
    let out = PathBuf::from(arg(args, "--out").ok_or("kernels-gen needs --out DIR")?);
    std::fs::create_dir_all(&out).map_err(|e| e.to_string())?;
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus");
    for file in kernels::FILES {
        let src = std::fs::read_to_string(corpus.join(file)).map_err(|e| e.to_string())?;
        std::fs::write(out.join(file), &src).map_err(|e| e.to_string())?;
        let h = kernels::gpu_harness(file, &src).ok_or(format!("{file}: no kernel"))?;
        let stem = file.split('.').next().unwrap_or(file);
        std::fs::write(out.join(format!("harness_{stem}.cu")), h).map_err(|e| e.to_string())?;
    }
    std::fs::write(out.join("run.sh"), KERNELS_RUN_SH).map_err(|e| e.to_string())?;
    println!(
        "{} kernel harnesses written to {}",
        kernels::FILES.len(),
        out.display()
    );
    Ok(())
}

fn kernels_import(args: &[String]) -> Result<(), String> {
    let res = PathBuf::from(arg(args, "--results").ok_or("kernels-import needs --results DIR")?);
    let read = |n: &str| {
        std::fs::read_to_string(res.join(n))
            .map(|s| s.trim().to_string())
            .unwrap_or_default()
    };
    let gpu = read("gpu.txt");
    let (name, driver) = gpu.split_once(',').unwrap_or((gpu.as_str(), ""));
    let header = json!({"gpu": name.trim(), "driver": driver.trim(), "nvcc": read("nvcc.txt"), "date": read("date.txt")});
    let mut dumps = Vec::new();
    for file in kernels::FILES {
        let stem = file.split('.').next().unwrap_or(file);
        let bytes = std::fs::read(res.join(format!("{stem}.dump")))
            .map_err(|e| format!("{file}: {e}: {}", read(&format!("{stem}.cerr"))))?;
        dumps.push((file.to_string(), bytes));
    }
    kernels::write_dumps(&dir().join("kernels.bin.gz"), &header, &dumps)?;
    println!("{} kernel dumps recorded", dumps.len());
    Ok(())
}
