//! Recordings of `wgmma.mma_async` on the H100 (docs/WGMMA.md).
//!
//! ```text
//! cargo run -p ptx2hip-verify --bin wgmma_vectors -- gen --out DIR [--sets numerics,layouts,sweep]
//! bash DIR/run.sh DIR                                   # on an H100: results in DIR/out/
//! cargo run -p ptx2hip-verify --bin wgmma_vectors -- import --results DIR/out  # tests/vectors/wgmma/
//! cargo run -p ptx2hip-verify --bin wgmma_vectors -- check [--results DIR/out]  # vs the reference
//! cargo run -p ptx2hip-verify --bin wgmma_vectors -- probe --results DIR/out   # addresses read
//! cargo run -p ptx2hip-verify --bin wgmma_vectors -- diff --results DIR/out --form NAME [--set S] [--all]
//! ```

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use ptx2hip_verify::wgmma::model::{digest, expected, Fit};
use ptx2hip_verify::wgmma::record::{read_out, Recording};
use ptx2hip_verify::wgmma::replay::{all_cases, Recorded};
use ptx2hip_verify::wgmma::{generate, harness, Set};
use serde_json::json;

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

fn dir() -> PathBuf {
    ptx2hip_verify::repo_root().join("tests/vectors/wgmma")
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("gen") => gen(&args),
        Some("import") => import(&args),
        Some("check") => check(&args),
        Some("probe") => probe(&args),
        Some("diff") => diff(&args),
        _ => Err("usage: wgmma_vectors gen|import|check|probe (see the source)".into()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

fn sets(args: &[String]) -> Result<Vec<Set>, String> {
    match arg(args, "--sets") {
        None => Ok(Set::ALL.to_vec()),
        Some(s) => s
            .split(',')
            .map(|n| Set::of_name(n).ok_or(format!("no set {n}")))
            .collect(),
    }
}

fn gen(args: &[String]) -> Result<(), String> {
    let out = arg(args, "--out").ok_or("gen needs --out DIR")?;
    let n = harness::write_programs(Path::new(&out), &sets(args)?)?;
    println!("{n} forms written to {out}");
    Ok(())
}

fn import(args: &[String]) -> Result<(), String> {
    let res = arg(args, "--results").ok_or("import needs --results DIR/out")?;
    let dir = dir();
    let path = dir.join("wgmma.bin.gz");
    let earlier = Recording::read(&path).ok();
    let imported = ptx2hip_verify::wgmma::record::import(Path::new(&res), earlier.as_ref())?;
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    imported.recording.write(&path)?;
    let mut manifest = imported.recording.header.clone();
    manifest["not_recorded"] = json!(imported
        .missing
        .iter()
        .map(|(set, name, why)| json!({"set": set.name(), "form": name, "why": why}))
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
    for (set, name, why) in &imported.missing {
        println!(
            "NOT RECORDED {} {name}: {}",
            set.name(),
            why.lines().next().unwrap_or("")
        );
    }
    Ok(())
}

/// Compares the recording (or a run's raw outputs) with the reference: per form the cases and
/// elements that differ.
fn check(args: &[String]) -> Result<(), String> {
    if let Some(res) = arg(args, "--results") {
        return check_raw(Path::new(&res), &sets(args)?);
    }
    let rec = Recording::read(&dir().join("wgmma.bin.gz"))?;
    let mut bad = 0;
    for r in &rec.forms {
        let mut diffs = 0;
        for case in ptx2hip_verify::wgmma::replay::cases_of(r) {
            let want = expected(&case.form, &case.inputs, &Fit::DEFAULT);
            let same = match (&case.recorded, want) {
                (Recorded::Outputs(o), Some(w)) => *o == w,
                (Recorded::Digest(d), Some(w)) => digest(w.iter().flatten().copied()) == *d,
                (_, None) => false,
            };
            diffs += usize::from(!same);
        }
        if diffs > 0 {
            println!(
                "{} {}: {diffs} of {} cases differ",
                r.set.name(),
                r.name,
                r.cases
            );
        }
        bad += diffs;
    }
    let total = all_cases(&rec).count();
    println!("{} forms, {total} cases, {bad} differ", rec.forms.len());
    if bad == 0 {
        Ok(())
    } else {
        Err(format!("{bad} cases differ from the reference"))
    }
}

/// Element-level comparison of a run's raw `out/` (full outputs) with the reference.
fn check_raw(out: &Path, sets: &[Set]) -> Result<(), String> {
    let tsv = std::fs::read_to_string(out.join("forms.tsv")).map_err(|e| e.to_string())?;
    for line in tsv.lines() {
        let v: Vec<&str> = line.split('\t').collect();
        let (Some(set), Some(name)) = (Set::of_name(v[1]), v.get(3)) else {
            continue;
        };
        if !sets.contains(&set) {
            continue;
        }
        let Some(form) = ptx2hip_verify::wgmma::replay::form_named(set, name) else {
            continue;
        };
        let Some(words) = read_out(out, v[0]) else {
            println!("{} {name}: no outputs", set.name());
            continue;
        };
        let nd = form.d_regs();
        let cases = generate(set, &form);
        let full = words.len() == cases.len() * 128 * nd + 1;
        let (mut elems, mut diffs, mut bad_cases) = (0, 0, 0);
        for (k, case) in cases.iter().enumerate() {
            let Some(want) = expected(&form, case, &Fit::DEFAULT) else {
                bad_cases += 1;
                continue;
            };
            if full {
                let got = &words[k * 128 * nd..(k + 1) * 128 * nd];
                let d = want
                    .iter()
                    .flatten()
                    .zip(got)
                    .filter(|(w, g)| w != g)
                    .count();
                elems += 128 * nd;
                diffs += d;
                bad_cases += usize::from(d > 0);
            } else {
                let d = u64::from(words[2 * k]) | u64::from(words[2 * k + 1]) << 32;
                bad_cases += usize::from(digest(want.iter().flatten().copied()) != d);
            }
        }
        println!(
            "{} {name}: {bad_cases}/{} cases differ, {diffs}/{elems} words",
            set.name(),
            cases.len()
        );
    }
    Ok(())
}

/// The address probes of the layout set in a run's raw outputs: for every probed (row, k), the
/// image offset the H100 paired with it against the address the layout gives under each base
/// rule.
fn probe(args: &[String]) -> Result<(), String> {
    use ptx2hip_verify::wgmma::cases::{layout_kinds, unpack_d, Kind};
    use ptx2hip_verify::wgmma::layout::{address, BaseRule, Descriptor};
    let res = arg(args, "--results").ok_or("probe needs --results DIR/out")?;
    let out = Path::new(&res);
    let tsv = std::fs::read_to_string(out.join("forms.tsv")).map_err(|e| e.to_string())?;
    let rules = [BaseRule::Ignored, BaseRule::RowMinus, BaseRule::RowPlus];
    for line in tsv.lines() {
        let v: Vec<&str> = line.split('\t').collect();
        if v.get(1) != Some(&"layouts") {
            continue;
        }
        let Some(form) = ptx2hip_verify::wgmma::replay::form_named(Set::Layouts, v[3]) else {
            continue;
        };
        let Some(words) = read_out(out, v[0]) else {
            continue;
        };
        let cases = generate(Set::Layouts, &form);
        let kinds = layout_kinds(&form);
        let nd = form.d_regs();
        let d_of = |k: usize| {
            let w = &words[k * 128 * nd..(k + 1) * 128 * nd];
            let threads: Vec<&[u32]> = w.chunks(nd).collect();
            unpack_d(&form, &threads)
        };
        let int = |x: u32| {
            if form.is_integer() {
                x
            } else {
                f32::from_bits(x) as u32
            }
        };
        let shift = if form.esize() == 1 { 8 } else { 10 };
        for (lo, kind) in kinds.iter().enumerate() {
            let (probe_b, mode) = match *kind {
                Kind::ProbeB { mode, high: false } => (true, mode),
                Kind::ProbeA { mode, high: false } => (false, mode),
                _ => continue,
            };
            let Some(hi) = kinds.iter().position(|k| match *k {
                Kind::ProbeB {
                    mode: m,
                    high: true,
                } => probe_b && m == mode,
                Kind::ProbeA {
                    mode: m,
                    high: true,
                } => !probe_b && m == mode,
                _ => false,
            }) else {
                continue;
            };
            let (dl, dh) = (d_of(lo), d_of(hi));
            let case = &cases[lo];
            let desc = if probe_b { case.desc_b } else { case.desc_a };
            let d = Descriptor::decode(desc);
            let trans = if probe_b { form.trans_b } else { form.trans_a };
            let (kk, n) = (form.k(), form.n);
            let mut hits = [0usize; 3];
            let mut total = 0;
            let mut shown = 0;
            let points: Vec<(usize, usize, usize)> = if probe_b {
                // D[k][col] = B[k][col]: row col of B, element k.
                (0..n)
                    .flat_map(|c| (0..kk).map(move |k| (c, k, k * n + c)))
                    .collect()
            } else {
                // D[m][k] = A[m][k] for k < N.
                (0..64)
                    .flat_map(|m| (0..kk.min(n)).map(move |k| (m, k, m * n + k)))
                    .collect()
            };
            for (r, k, at) in points {
                let got = (int(dl[at]) + (int(dh[at]) << shift)) * form.esize() as u32;
                total += 1;
                for (i, rule) in rules.iter().enumerate() {
                    hits[i] += usize::from(
                        address(&d, trans, form.esize() as u32, r as u32, k as u32, *rule) == got,
                    );
                }
                let want = address(
                    &d,
                    trans,
                    form.esize() as u32,
                    r as u32,
                    k as u32,
                    BaseRule::Ignored,
                );
                if want != got && shown < 6 {
                    shown += 1;
                    println!("    row {r} k {k}: read {got:#x}, layout {want:#x}");
                }
            }
            println!(
                "{} {} {mode:?} {d:?}: ignored {}/{total}, row-base {}/{total}, row+base {}/{total}",
                form.name(),
                if probe_b { "B" } else { "A" },
                hits[0],
                hits[1],
                hits[2]
            );
        }
    }
    Ok(())
}

/// Every element of a form's raw outputs that differs from the reference, with its operands:
/// case, (m, n), A's row, B's column, C (hex), the H100's D and the reference's.
fn diff(args: &[String]) -> Result<(), String> {
    use ptx2hip_verify::wgmma::cases::unpack_d;
    use ptx2hip_verify::wgmma::model::{operands, product};
    let res = arg(args, "--results").ok_or("diff needs --results DIR/out")?;
    let name = arg(args, "--form").ok_or("diff needs --form NAME")?;
    let set =
        Set::of_name(&arg(args, "--set").unwrap_or("numerics".into())).ok_or("no such set")?;
    let out = Path::new(&res);
    let tsv = std::fs::read_to_string(out.join("forms.tsv")).map_err(|e| e.to_string())?;
    let f = tsv
        .lines()
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .find(|v| v.get(1) == Some(&set.name()) && v.get(3) == Some(&name.as_str()))
        .map(|v| v[0].to_string())
        .ok_or("form not in the run")?;
    let form = ptx2hip_verify::wgmma::replay::form_named(set, &name).ok_or("no such form")?;
    let words = read_out(out, &f).ok_or("no outputs")?;
    let nd = form.d_regs();
    let (k, n) = (form.k(), form.n);
    let all = args.iter().any(|a| a == "--all");
    for (c, case) in generate(set, &form).iter().enumerate() {
        let w = &words[c * 128 * nd..(c + 1) * 128 * nd];
        let threads: Vec<&[u32]> = w.chunks(nd).collect();
        let got = unpack_d(&form, &threads);
        let ops = operands(&form, case, &Fit::DEFAULT).ok_or("outside the image")?;
        let want = product(&form, &ops, &Fit::DEFAULT);
        for (e, (g, x)) in got.iter().zip(&want).enumerate() {
            if g != x || all {
                let (m, j) = (e / n, e % n);
                let row: Vec<String> = (0..k).map(|i| format!("{:x}", ops.a[m * k + i])).collect();
                let col: Vec<String> = (0..k).map(|i| format!("{:x}", ops.b[i * n + j])).collect();
                println!(
                    "case {c} ({m},{j}) scale_d {} A {} B {} C {:x} H100 {g:x} ref {x:x}",
                    u8::from(case.scale_d),
                    row.join(","),
                    col.join(","),
                    ops.c[e]
                );
            }
        }
    }
    Ok(())
}
