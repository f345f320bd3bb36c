//! Golden-vector tooling (developer use; see docs/VECTORS.md).
//!
//! `cargo run --release -p ptx2hip-verify --bin vectors -- gen --out DIR [--rule CODE]... [--group N]`
//!     writes, for every canonical form of every value-checkable rule (or only the named rules),
//!     `iN.bin` (input records), `fN.cu` (a CUDA program running form N alone), `pK.cu` (one
//!     program per group of at most N forms (default 48) of one rule), `groups.tsv`, `forms.tsv`
//!     (N, rule, family, form) and `run.sh` (compiles and runs everything on a GPU machine,
//!     writing the outputs `fN.out`, the compiler errors `fN.err` and the hardware description to
//!     `$RES`).
//! `cargo run --release -p ptx2hip-verify --bin vectors -- import --gen DIR --results DIR [--vectors tests/vectors] [--rule CODE]...`
//!     joins inputs and GPU outputs into `tests/vectors/<family>.bin.gz` (full records of the
//!     edge cases, digests of the rest); forms ptxas rejected are listed and left out (and added to
//!     `rejected_by_ptxas` in `tests/vectors/manifest.json`).
//! `cargo run --release -p ptx2hip-verify --bin vectors -- convert [--vectors tests/vectors]`
//!     re-encodes `P2HV1` files (full records of every vector) in the current format, checking
//!     that the recorded inputs are exactly the generated ones.
//! `cargo run --release -p ptx2hip-verify --bin vectors -- evidence [--vectors tests/vectors] [--evidence FILE]`
//!     rewrites the product's evidence table (`crates/ptx2hip-core/src/rules/evidence/table.rs`: per rule, the vector file,
//!     forms, vectors and recording hardware) from all the vector files; run it after `import`,
//!     `convert` or `graft` (the golden test fails until the table matches the vectors).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use ptx2hip_core::lower::RuleSet;
use ptx2hip_verify::evidence;
use ptx2hip_verify::forms::{recorded_forms, CanonicalForm};
use ptx2hip_verify::golden::{cuda_program, cuda_program_multi, FormVectors, GoldenFile};
use ptx2hip_verify::inputs;
use serde_json::{json, Value};

const RUN_SH: &str = r#"#!/bin/bash
# Compiles and runs every generated form on the GPU; outputs and hardware description in $RES.
cd "$(dirname "$0")"
R=${RES:?set RES to the results directory}
mkdir -p "$R" /tmp/p2h/bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
nvcc --version > "$R/nvcc.txt"
date -u +%Y-%m-%d > "$R/date.txt"
cut -f1 groups.tsv | xargs -P 16 -I{} sh -c 'nvcc -arch=sm_90 -O2 -o /tmp/p2h/bin/p{} p{}.cu 2> /tmp/p2h/p{}.err || echo "group p{} did not compile"'
echo "compiled groups: $(ls /tmp/p2h/bin | wc -l) of $(wc -l < groups.tsv)"
: > /tmp/p2h/retry
while IFS=$'\t' read -r g ids; do
  if [ -x /tmp/p2h/bin/p$g ] && /tmp/p2h/bin/p$g "$R" 2>> /tmp/p2h/p$g.err; then :; else
    echo "group p$g failed; per-form fallback"; echo "$ids" | tr ',' '\n' >> /tmp/p2h/retry
  fi
done < groups.tsv
while read -r n; do [ -n "$n" ] && [ ! -f "$R/f$n.out" ] && echo "$n"; done < /tmp/p2h/retry > /tmp/p2h/retry2
xargs -r -P 16 -I{} sh -c "nvcc -arch=sm_90 -O2 -o /tmp/p2h/bin/f{} f{}.cu 2> '$R/f{}.err' || true" < /tmp/p2h/retry2
while read -r n; do
  if [ -x /tmp/p2h/bin/f$n ]; then /tmp/p2h/bin/f$n "$R" 2>> "$R/f$n.err" || echo "f$n failed at run time"; fi
done < /tmp/p2h/retry2
echo "outputs: $(ls "$R" | grep -c '\.out$') of $(wc -l < forms.tsv) forms"
"#;

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

fn selected(rules: &RuleSet, args: &[String]) -> Vec<CanonicalForm> {
    let wanted: Vec<&String> = args
        .windows(2)
        .filter(|w| w[0] == "--rule")
        .map(|w| &w[1])
        .collect();
    recorded_forms(rules)
        .into_iter()
        .filter(|f| wanted.is_empty() || wanted.iter().any(|w| w.eq_ignore_ascii_case(&f.rule)))
        .collect()
}

fn gen(rules: &RuleSet, args: &[String]) {
    let out = PathBuf::from(arg(args, "--out").expect("--out DIR"));
    let group: usize = arg(args, "--group").map_or(48, |g| g.parse().expect("--group N"));
    std::fs::create_dir_all(&out).unwrap();
    let forms = selected(rules, args);
    let mut tsv = String::new();
    let mut groups = String::new();
    let mut total = 0;
    let mut by_rule: BTreeMap<&str, Vec<(usize, &CanonicalForm)>> = BTreeMap::new();
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let numbered: Vec<(usize, &CanonicalForm)> = forms.iter().enumerate().collect();
    let per = numbered.len().div_ceil(jobs).max(1);
    total += std::thread::scope(|s| {
        let handles: Vec<_> = numbered
            .chunks(per)
            .map(|part| {
                let out = &out;
                s.spawn(move || {
                    let mut total = 0;
                    for &(n, f) in part {
                        let v = inputs::vectors(f);
                        total += v.len();
                        std::fs::write(out.join(format!("f{n}.cu")), cuda_program(n, f)).unwrap();
                        std::fs::write(out.join(format!("i{n}.bin")), inputs::pack(f, &v)).unwrap();
                    }
                    total
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap())
            .sum::<usize>()
    });
    for (n, f) in forms.iter().enumerate() {
        tsv.push_str(&format!("{n}\t{}\t{}\t{}\n", f.rule, f.family, f.form));
        by_rule.entry(f.rule.as_str()).or_default().push((n, f));
    }
    let mut k = 0;
    for members in by_rule.values() {
        for g in members.chunks(group) {
            std::fs::write(out.join(format!("p{k}.cu")), cuda_program_multi(g)).unwrap();
            let ids: Vec<String> = g.iter().map(|(n, _)| n.to_string()).collect();
            groups.push_str(&format!("{k}\t{}\n", ids.join(",")));
            k += 1;
        }
    }
    std::fs::write(out.join("forms.tsv"), tsv).unwrap();
    std::fs::write(out.join("groups.tsv"), groups).unwrap();
    std::fs::write(out.join("run.sh"), RUN_SH).unwrap();
    eprintln!(
        "{} forms in {k} programs, {total} vectors in {}",
        forms.len(),
        out.display()
    );
}

fn write_family(vecdir: &std::path::Path, family: &str, header: Value, fv: Vec<FormVectors>) {
    let path = vecdir.join(format!("{family}.bin.gz"));
    GoldenFile { header, forms: fv }.write(&path).unwrap();
    eprintln!(
        "wrote {} ({} bytes)",
        path.display(),
        std::fs::metadata(&path).unwrap().len()
    );
}

fn import(rules: &RuleSet, args: &[String]) {
    let gen = PathBuf::from(arg(args, "--gen").expect("--gen DIR"));
    let res = PathBuf::from(arg(args, "--results").expect("--results DIR"));
    let vecdir = PathBuf::from(arg(args, "--vectors").unwrap_or("tests/vectors".into()));
    std::fs::create_dir_all(&vecdir).unwrap();
    let read = |p: &str| std::fs::read_to_string(res.join(p)).unwrap_or_default();
    let gpu_line = read("gpu.txt");
    let (gpu, driver) = gpu_line
        .lines()
        .next()
        .unwrap_or("")
        .split_once(',')
        .map(|(a, b)| (a.trim().to_string(), b.trim().to_string()))
        .unwrap_or_default();
    let nvcc = read("nvcc.txt")
        .lines()
        .filter(|l| l.contains("release"))
        .map(|l| l.trim().to_string())
        .next()
        .unwrap_or_default();
    let date = read("date.txt").trim().to_string();
    let forms = selected(rules, args);
    let by_key: BTreeMap<(String, String), &CanonicalForm> = forms
        .iter()
        .map(|f| ((f.rule.clone(), f.form.clone()), f))
        .collect();
    let mut families: BTreeMap<String, Vec<FormVectors>> = BTreeMap::new();
    let mut rejected = Vec::new();
    let mut todo: Vec<(String, &CanonicalForm, Vec<u8>)> = Vec::new();
    for line in std::fs::read_to_string(gen.join("forms.tsv"))
        .unwrap()
        .lines()
    {
        let cols: Vec<&str> = line.split('\t').collect();
        let (n, rule, family, form) = (cols[0], cols[1], cols[2], cols[3]);
        let Ok(outs) = std::fs::read(res.join(format!("f{n}.out"))) else {
            let err = std::fs::read_to_string(res.join(format!("f{n}.err"))).unwrap_or_default();
            let first = err
                .lines()
                .find(|l| l.contains("error"))
                .unwrap_or("no output");
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
        let _ = n;
        todo.push((family.to_string(), f, outs));
    }
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let per = todo.len().div_ceil(jobs).max(1);
    let built: Vec<(String, FormVectors)> = std::thread::scope(|s| {
        let handles: Vec<_> = todo
            .chunks(per)
            .map(|part| {
                s.spawn(move || {
                    part.iter()
                        .map(|(family, f, outs)| {
                            let (v, marks) = inputs::vectors_marked(f);
                            let ins = inputs::pack(f, &v);
                            (
                                family.clone(),
                                FormVectors::from_outputs(f, &f.ptx, &ins, &marks, outs),
                            )
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    for (family, fv) in built {
        families.entry(family).or_default().push(fv);
    }
    for (family, fv) in families {
        let header =
            json!({ "family": family, "gpu": gpu, "driver": driver, "nvcc": nvcc, "date": date });
        write_family(&vecdir, &family, header, fv);
    }
    if !rejected.is_empty() {
        let path = vecdir.join("manifest.json");
        let mut manifest: Value = std::fs::read_to_string(&path)
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or(json!({}));
        let mut all: Vec<Value> = manifest
            .get("rejected_by_ptxas")
            .and_then(|v| v.as_array().cloned())
            .unwrap_or_default();
        all.extend(rejected.iter().map(|r| json!(r)));
        manifest["rejected_by_ptxas"] = json!(all);
        std::fs::write(
            path,
            serde_json::to_string_pretty(&manifest).unwrap() + "\n",
        )
        .unwrap();
    }
    eprintln!("{}", evidence::UPDATE_HINT);
    for r in &rejected {
        eprintln!("REJECTED {r}");
    }
}

fn convert(rules: &RuleSet, args: &[String]) {
    let vecdir = PathBuf::from(arg(args, "--vectors").unwrap_or("tests/vectors".into()));
    let forms = recorded_forms(rules);
    let by_key: BTreeMap<(String, String), &CanonicalForm> = forms
        .iter()
        .map(|f| ((f.rule.clone(), f.form.clone()), f))
        .collect();
    for entry in std::fs::read_dir(&vecdir).unwrap() {
        let path = entry.unwrap().path();
        if !path.to_string_lossy().ends_with(".bin.gz") {
            continue;
        }
        let file = GoldenFile::read(&path).unwrap();
        if file
            .forms
            .iter()
            .all(|f| f.chunk > 0 || f.full_index.len() != f.count)
        {
            continue; // already in the current format
        }
        let mut out = Vec::new();
        for g in &file.forms {
            let f = by_key
                .get(&(g.rule.clone(), g.form.clone()))
                .unwrap_or_else(|| panic!("{} {}: not claimed", g.rule, g.form));
            assert_eq!(f.ptx, g.ptx, "{}: statement changed", g.form);
            let (v, marks) = inputs::vectors_marked(f);
            let ins = inputs::pack(f, &v);
            assert_eq!(v.len(), g.count, "{}: vector count changed", g.form);
            let mut outs = Vec::with_capacity(g.count * g.out_bytes);
            for k in 0..g.count {
                let (i, x, y) = g.record(k);
                assert_eq!(i, k);
                assert_eq!(
                    x,
                    &ins[i * g.in_bytes..(i + 1) * g.in_bytes],
                    "{}: inputs changed",
                    g.form
                );
                outs.extend_from_slice(y);
            }
            out.push(FormVectors::from_outputs(f, &g.ptx, &ins, &marks, &outs));
        }
        let family = file.header["family"].as_str().unwrap().to_string();
        write_family(&vecdir, &family, file.header.clone(), out);
    }
    eprintln!("{}", evidence::UPDATE_HINT);
}

/// Rebuilds a family's vector file from recordings already made: for every form the rules claim,
/// the vectors of the current file, or else those of an older file (`--from`, repeatable, e.g. a
/// file from git history recorded before a rule was narrowed) when the canonical statement and the
/// regenerated inputs are identical to what was recorded. The rule code is the current one. Forms
/// found nowhere are listed: they need a GPU run. This makes re-enabling a form whose hardware
/// behaviour has been understood a check against the complete recording, not only its edge records.
fn graft(rules: &RuleSet, args: &[String]) {
    let family = arg(args, "--family").expect("--family NAME");
    let vecdir = PathBuf::from(arg(args, "--vectors").unwrap_or("tests/vectors".into()));
    let current = vecdir.join(format!("{family}.bin.gz"));
    let mut sources: Vec<GoldenFile> = Vec::new();
    if current.exists() {
        sources.push(GoldenFile::read(&current).unwrap());
    }
    for w in args.windows(2).filter(|w| w[0] == "--from") {
        sources
            .push(GoldenFile::read(Path::new(&w[1])).unwrap_or_else(|e| panic!("{}: {e}", w[1])));
    }
    let header = sources
        .first()
        .expect("no vector file to graft from")
        .header
        .clone();
    let mut out = Vec::new();
    let mut missing = Vec::new();
    for f in recorded_forms(rules).iter().filter(|f| f.family == family) {
        let found = sources
            .iter()
            .flat_map(|s| &s.forms)
            .find(|g| g.form == f.form && g.ptx == f.ptx && recorded_inputs_match(f, g));
        match found {
            Some(g) => out.push(FormVectors {
                rule: f.rule.clone(),
                ..g.clone()
            }),
            None => missing.push(format!("{} {}", f.rule, f.form)),
        }
    }
    write_family(&vecdir, &family, header, out);
    eprintln!("{}", evidence::UPDATE_HINT);
    for m in &missing {
        eprintln!("NOT RECORDED {m}");
    }
}

/// Rewrites the product's evidence table (`--evidence`, default `crates/ptx2hip-core/src/rules/evidence/table.rs`) from the
/// vector files in `vecdir`.
fn write_evidence(vecdir: &Path, args: &[String]) {
    let path = PathBuf::from(arg(args, "--evidence").unwrap_or(evidence::TABLE_PATH.into()));
    let source = evidence::table_source(vecdir).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(&path, source).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    eprintln!("wrote {}", path.display());
}

/// Whether a recording was made from the inputs the form generates today (count and every fully
/// recorded input; digests cover only outputs, so the count and the full records are the check).
fn recorded_inputs_match(form: &CanonicalForm, g: &FormVectors) -> bool {
    let v = inputs::vectors(form);
    if v.len() != g.count || g.in_bytes != form.in_bytes() || g.out_bytes != form.out_bytes() {
        return false;
    }
    let ins = inputs::pack(form, &v);
    (0..g.full_index.len()).all(|k| {
        let (i, x, _) = g.record(k);
        x == &ins[i * g.in_bytes..(i + 1) * g.in_bytes]
    })
}

/// Prints the fully recorded vectors of the forms whose statement contains `--form` text, as
/// hexadecimal words (8 bytes when the record width allows, else 4), inputs `->` outputs: the way to
/// read what the hardware did when a translation and a golden file disagree.
fn dump(args: &[String]) {
    let file = arg(args, "--file").expect("--file PATH");
    let pattern = arg(args, "--form").unwrap_or_default();
    let golden = GoldenFile::read(Path::new(&file)).unwrap_or_else(|e| panic!("{file}: {e}"));
    let words = |bytes: &[u8]| {
        let w = if bytes.len().is_multiple_of(8) { 8 } else { 4 };
        let hex: Vec<String> = bytes
            .chunks(w)
            .map(|c| c.iter().rev().map(|b| format!("{b:02x}")).collect())
            .collect();
        hex.join(" ")
    };
    for form in golden.forms.iter().filter(|f| f.ptx.contains(&pattern)) {
        println!("## {} {}\n{}", form.rule, form.form, form.ptx);
        for k in 0..form.full_index.len() {
            let (i, x, y) = form.record(k);
            println!("{i}: {} -> {}", words(x), words(y));
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rules = RuleSet::embedded().expect("rules");
    match args.first().map(String::as_str) {
        Some("gen") => gen(&rules, &args),
        Some("import") => import(&rules, &args),
        Some("convert") => convert(&rules, &args),
        Some("dump") => dump(&args),
        Some("graft") => graft(&rules, &args),
        Some("evidence") => {
            let vecdir = PathBuf::from(arg(&args, "--vectors").unwrap_or("tests/vectors".into()));
            write_evidence(&vecdir, &args)
        }
        _ => {
            eprintln!("usage: vectors gen --out DIR [--rule CODE]... | import --gen DIR --results DIR [--vectors DIR] | convert [--vectors DIR] | dump --file F.bin.gz [--form TEXT] | graft --family NAME [--from OLD.bin.gz]... [--vectors DIR] | evidence [--vectors DIR] [--evidence FILE]");
            std::process::exit(2);
        }
    }
}
