//! Golden-vector tooling (developer use; see docs/VECTORS.md).
//!
//! `cargo run --release --example vectors -- gen --out DIR [--rule CODE]...`
//!     writes, for every canonical form of every value-checkable rule (or only the named rules),
//!     `fN.cu` (a CUDA program running the form's inline asm), `iN.bin` (input records),
//!     `forms.tsv` (N, rule, family, form) and `run.sh` (compiles and runs everything on a GPU
//!     machine, writing `$OUT/results.tar.gz.*` (split in 15 MB parts) and the hardware description).
//! `cargo run --release --example vectors -- import --gen DIR --results DIR [--vectors tests/vectors]`
//!     joins inputs and GPU outputs into `tests/vectors/<family>.bin.gz` and updates
//!     `tests/vectors/manifest.json`; forms ptxas rejected are listed and left out.

use std::collections::BTreeMap;
use std::path::PathBuf;

use ptx2hip::lower::RuleSet;
use ptx2hip::verify::forms::{all_forms, CanonicalForm};
use ptx2hip::verify::golden::{cuda_program, FormVectors, GoldenFile};
use ptx2hip::verify::inputs;
use serde_json::{json, Value};

const RUN_SH: &str = r#"#!/bin/bash
# Compiles and runs every generated form on the GPU; results in $OUT.
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
nvcc --version > $OUT/nvcc.txt
date -u +%Y-%m-%d > $OUT/date.txt
mkdir -p /tmp/p2h/bin /tmp/p2h/o
ls f*.cu | sed 's/\.cu$//' | xargs -P 16 -I{} sh -c 'nvcc -arch=sm_90 -O2 -o /tmp/p2h/bin/{} {}.cu 2> /tmp/p2h/o/{}.err || echo "{} rejected"'
for cu in f*.cu; do
  n=${cu%.cu}; i=i${n#f}.bin
  if [ -x /tmp/p2h/bin/$n ]; then /tmp/p2h/bin/$n $i /tmp/p2h/o/$n.out 2>> /tmp/p2h/o/$n.err || echo "$n failed"; fi
done
tar czf /tmp/p2h/results.tar.gz -C /tmp/p2h/o . && split -b 15M /tmp/p2h/results.tar.gz $OUT/results.tar.gz.
ls /tmp/p2h/o | wc -l
"#;

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1).cloned())
}

fn selected(rules: &RuleSet, args: &[String]) -> Vec<CanonicalForm> {
    let wanted: Vec<&String> = args.windows(2).filter(|w| w[0] == "--rule").map(|w| &w[1]).collect();
    all_forms(rules).into_iter().filter(|f| wanted.is_empty() || wanted.iter().any(|w| w.eq_ignore_ascii_case(&f.rule))).collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rules = RuleSet::embedded().expect("rules");
    match args.first().map(String::as_str) {
        Some("gen") => {
            let out = PathBuf::from(arg(&args, "--out").expect("--out DIR"));
            std::fs::create_dir_all(&out).unwrap();
            let mut tsv = String::new();
            let mut total = 0;
            for (n, f) in selected(&rules, &args).iter().enumerate() {
                let v = inputs::vectors(f);
                total += v.len();
                std::fs::write(out.join(format!("f{n}.cu")), cuda_program(f)).unwrap();
                std::fs::write(out.join(format!("i{n}.bin")), inputs::pack(f, &v)).unwrap();
                tsv.push_str(&format!("{n}\t{}\t{}\t{}\n", f.rule, f.family, f.form));
            }
            std::fs::write(out.join("forms.tsv"), tsv).unwrap();
            std::fs::write(out.join("run.sh"), RUN_SH).unwrap();
            eprintln!("{} forms, {total} vectors in {}", out.join("forms.tsv").display(), out.display());
        }
        Some("import") => {
            let gen = PathBuf::from(arg(&args, "--gen").expect("--gen DIR"));
            let res = PathBuf::from(arg(&args, "--results").expect("--results DIR"));
            let vecdir = PathBuf::from(arg(&args, "--vectors").unwrap_or("tests/vectors".into()));
            let read = |p: &str| std::fs::read_to_string(res.join(p)).unwrap_or_default();
            let gpu_line = read("gpu.txt");
            let (gpu, driver) = gpu_line.lines().next().unwrap_or("").split_once(',').map(|(a, b)| (a.trim().to_string(), b.trim().to_string())).unwrap_or_default();
            let nvcc = read("nvcc.txt").lines().filter(|l| l.contains("release")).map(|l| l.trim().to_string()).next().unwrap_or_default();
            let date = read("date.txt").trim().to_string();
            let forms = selected(&rules, &args);
            let by_key: BTreeMap<(String, String), &CanonicalForm> = forms.iter().map(|f| ((f.rule.clone(), f.form.clone()), f)).collect();
            let mut families: BTreeMap<String, Vec<FormVectors>> = BTreeMap::new();
            let mut rejected = Vec::new();
            for line in std::fs::read_to_string(gen.join("forms.tsv")).unwrap().lines() {
                let cols: Vec<&str> = line.split('\t').collect();
                let (n, rule, family, form) = (cols[0], cols[1], cols[2], cols[3]);
                let Ok(outs) = std::fs::read(res.join(format!("f{n}.out"))) else {
                    let err = std::fs::read_to_string(res.join(format!("f{n}.err"))).unwrap_or_default();
                    let first = err.lines().find(|l| l.contains("error")).unwrap_or("no output");
                    // Drop the temporary file name: `ptxas /tmp/x.ptx, line 5; error   : msg`.
                    let first = match first.split_once("error") {
                        Some((_, msg)) => format!("ptxas: {}", msg.trim_start_matches([' ', ':'])),
                        None => first.to_string(),
                    };
                    rejected.push(format!("{rule} {form}: {first}"));
                    continue;
                };
                let Some(f) = by_key.get(&(rule.to_string(), form.to_string())) else {
                    eprintln!("skipping {rule} {form}: the rules no longer claim it");
                    continue;
                };
                let ins = std::fs::read(gen.join(format!("i{n}.bin"))).unwrap();
                let (ib, ob) = (f.in_bytes(), f.out_bytes());
                let count = ins.len().checked_div(ib).unwrap_or(1);
                assert_eq!(outs.len(), count * ob, "{form}: output size");
                let mut records = Vec::with_capacity(count * (ib + ob));
                for i in 0..count {
                    records.extend_from_slice(&ins[i * ib..(i + 1) * ib]);
                    records.extend_from_slice(&outs[i * ob..(i + 1) * ob]);
                }
                families.entry(family.to_string()).or_default().push(FormVectors {
                    form: form.to_string(), rule: rule.to_string(), ptx: f.ptx.clone(), in_bytes: ib, out_bytes: ob, records,
                });
            }
            let manifest_path = vecdir.join("manifest.json");
            let mut manifest: Value = std::fs::read_to_string(&manifest_path).ok().and_then(|t| serde_json::from_str(&t).ok()).unwrap_or(json!({}));
            if manifest.get("rules").is_none() {
                manifest["rules"] = json!({});
            }
            for (family, fv) in families {
                let mut per_rule: BTreeMap<String, (usize, usize)> = BTreeMap::new();
                for f in &fv {
                    let e = per_rule.entry(f.rule.clone()).or_default();
                    e.0 += 1;
                    e.1 += f.count();
                }
                let header = json!({ "family": family, "gpu": gpu, "driver": driver, "nvcc": nvcc, "date": date });
                let path = vecdir.join(format!("{family}.bin.gz"));
                GoldenFile { header, forms: fv }.write(&path).unwrap();
                for (rule, (nf, nv)) in per_rule {
                    manifest["rules"][&rule] = json!({
                        "forms": nf, "vectors": nv, "gpu": gpu, "driver": driver, "nvcc": nvcc, "date": date,
                        "file": format!("{family}.bin.gz"),
                    });
                }
                eprintln!("wrote {}", path.display());
            }
            if !rejected.is_empty() {
                manifest["rejected_by_ptxas"] = json!(rejected);
            }
            std::fs::write(&manifest_path, serde_json::to_string_pretty(&manifest).unwrap() + "\n").unwrap();
            for r in &rejected {
                eprintln!("REJECTED {r}");
            }
        }
        _ => {
            eprintln!("usage: vectors gen --out DIR [--rule CODE]... | vectors import --gen DIR --results DIR [--vectors DIR]");
            std::process::exit(2);
        }
    }
}
