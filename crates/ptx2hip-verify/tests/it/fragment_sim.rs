//! The AMD path of ldmatrix, stmatrix and movmatrix (rules/fragment.toml) without AMD hardware:
//! the `--target amd` translation of every form runs on the lockstep wave model
//! (`tests/wave_sim/sim.h`, driver `tests/wave_sim/fragment_check.cpp`) over every case of
//! `ptx2hip_verify::fragment::cases` — structured, per-lane and random row-address patterns, with
//! repeated rows and rows from any lane — on wave32 and on wave64, where the two halves run two
//! different warps over two different tiles (and, every third case, one half idle). Every output
//! word is compared with the PTX reference and with the H100 recording
//! (`tests/vectors/fragment/fragment.bin.gz`, docs/FRAGMENTS.md), which is itself checked against
//! the reference. Needs only `g++` (or `$CXX`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use ptx2hip_core::lower::{self, RuleSet, Target};
use ptx2hip_core::rules::EMBEDDED;
use ptx2hip_core::scan::AsmStatement;
use ptx2hip_verify::fragment::reference::expected;
use ptx2hip_verify::fragment::{all_forms, generate, inputs_digest, Case, Form, Op, Space, WARP};
use ptx2hip_verify::warp::Recording;

/// Helpers the driver replaces by host shims over its shared-memory buffer.
const SHIMMED: [&str; 6] = [
    "ptx2hip_shared_ptr",
    "ptx2hip_shared_addr",
    "ptx2hip_lds_load_u32",
    "ptx2hip_lds_load_u16",
    "ptx2hip_lds_store_u32",
    "ptx2hip_lds_store_u16",
];

fn sim_file(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/wave_sim")
        .join(name)
}

fn recording_path() -> PathBuf {
    ptx2hip_verify::repo_root().join("tests/vectors/fragment/fragment.bin.gz")
}

fn recording() -> Recording {
    Recording::read(&recording_path()).unwrap_or_else(|e| panic!("{e} (record: docs/FRAGMENTS.md)"))
}

/// `fragment_forms.h`: the helpers of the translations (less the shimmed ones) and one function
/// per form taking the lane's address operand and registers.
fn forms_header(rules: &RuleSet, forms: &[Form]) -> String {
    let mut s = String::new();
    let mut bodies = Vec::new();
    let mut helpers = Vec::new();
    for f in forms {
        let stmt = AsmStatement::synthetic(&f.ptx(), &f.constraints());
        let t = lower::analyze(&stmt, rules, Target::Amd)
            .outcome
            .unwrap_or_else(|u| panic!("{}: not translated: {}", f.ptx(), u.message));
        bodies.push(lower::render(&t.lines, "  ", "  "));
        helpers.extend(t.helpers);
    }
    for name in rules.helper_closure(helpers.iter()) {
        if SHIMMED.contains(&name.as_str()) {
            continue;
        }
        s.push_str(rules.helpers[&name].definition(Target::Amd).trim());
        s.push('\n');
    }
    for (k, (f, body)) in forms.iter().zip(&bodies).enumerate() {
        let _ = writeln!(
            s,
            "// {}\nstatic void form_{k}(const uint64_t* x, uint32_t* y) {{",
            f.ptx()
        );
        let mut reg = 0;
        let mut outs = Vec::new();
        for (i, c) in f.constraints().iter().enumerate() {
            let addr = f.op != Op::Mov && reg == 0 && !c.starts_with('=');
            match c.as_str() {
                c if c.starts_with('=') => {
                    let _ = writeln!(s, "  uint32_t op{i} = 0;");
                    outs.push(i);
                }
                "l" => {
                    let _ = writeln!(s, "  uint64_t op{i} = x[0];");
                    reg = 1;
                }
                _ if addr => {
                    let _ = writeln!(s, "  uint32_t op{i} = (uint32_t)x[0];");
                    reg = 1;
                }
                _ => {
                    let _ = writeln!(s, "  uint32_t op{i} = (uint32_t)x[{}];", reg.max(1));
                    reg = reg.max(1) + 1;
                }
            }
        }
        for l in body {
            s.push_str(l);
            s.push('\n');
        }
        for (w, i) in outs.iter().enumerate() {
            let _ = writeln!(s, "  y[{w}] = op{i};");
        }
        s.push_str("}\n");
    }
    let list = |f: &dyn Fn(&Form) -> String| forms.iter().map(f).collect::<Vec<_>>().join(", ");
    let _ = writeln!(
        s,
        "typedef void (*form_fn)(const uint64_t*, uint32_t*);\nstatic const form_fn forms[] = {{ {} }};",
        (0..forms.len()).map(|k| format!("form_{k}")).collect::<Vec<_>>().join(", ")
    );
    let _ = writeln!(
        s,
        "static const int kind[] = {{ {} }};\nstatic const bool generic[] = {{ {} }};\nstatic const unsigned out_words[] = {{ {} }};",
        list(&|f| (f.op as u8).to_string()),
        list(&|f| (f.space == Space::Generic).to_string()),
        list(&|f| f.out_words().to_string()),
    );
    s
}

/// One wave: a form and, per 32-lane half, a case index (or an idle half).
struct Job {
    form: usize,
    wave: usize,
    halves: [Option<usize>; 2],
}

/// Wave32: each case alone. Wave64: case i beside case (i + n/2 + 1) mod n of the same form,
/// and every third case beside an idle lower half.
fn jobs(cases: &[Vec<Case>]) -> Vec<Job> {
    let mut v = Vec::new();
    for (form, cs) in cases.iter().enumerate() {
        let n = cs.len();
        for i in 0..n {
            v.push(Job {
                form,
                wave: 32,
                halves: [Some(i), None],
            });
            v.push(Job {
                form,
                wave: 64,
                halves: [Some(i), Some((i + n / 2 + 1) % n)],
            });
            if i % 3 == 0 {
                v.push(Job {
                    form,
                    wave: 64,
                    halves: [None, Some(i)],
                });
            }
        }
    }
    v
}

/// Runs every job on the simulator; returns, per job and present half, each lane's output words.
fn simulate(
    rules: &RuleSet,
    forms: &[Form],
    cases: &[Vec<Case>],
    jobs: &[Job],
    dir: &Path,
) -> Vec<Vec<Vec<u32>>> {
    std::fs::write(dir.join("fragment_forms.h"), forms_header(rules, forms)).unwrap();
    std::fs::copy(sim_file("sim.h"), dir.join("sim.h")).unwrap();
    let bin = dir.join("sim");
    let out = Command::new(std::env::var("CXX").unwrap_or_else(|_| "g++".into()))
        .args(["-std=c++17", "-O0", "-w", "-I"])
        .arg(dir)
        .arg("-o")
        .arg(&bin)
        .arg(sim_file("fragment_check.cpp"))
        .output()
        .expect("run the C++ compiler");
    assert!(
        out.status.success(),
        "simulator does not compile:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut b = Vec::new();
    let mut put = |w: u32| b.extend_from_slice(&w.to_le_bytes());
    put(jobs.len() as u32);
    for j in jobs {
        put(j.form as u32);
        put(j.wave as u32);
        for h in 0..j.wave / 32 {
            match j.halves[h] {
                Some(c) => {
                    put(1);
                    cases[j.form][c].words().into_iter().for_each(&mut put);
                }
                None => put(0),
            }
        }
    }
    let (jin, jout) = (dir.join("jobs.bin"), dir.join("out.bin"));
    std::fs::write(&jin, b).unwrap();
    let run = Command::new(&bin).arg(&jin).arg(&jout).output().unwrap();
    assert!(
        run.status.success(),
        "simulator failed: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    eprint!("{}", String::from_utf8_lossy(&run.stderr));
    let words: Vec<u32> = std::fs::read(&jout)
        .unwrap()
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let mut at = 0;
    let mut results = Vec::new();
    for j in jobs {
        let ow = forms[j.form].out_words();
        for h in 0..j.wave / 32 {
            if j.halves[h].is_some() {
                results.push(
                    (0..WARP)
                        .map(|l| words[at + l * ow..at + (l + 1) * ow].to_vec())
                        .collect(),
                );
                at += WARP * ow;
            }
        }
    }
    assert_eq!(at, words.len(), "simulator output has the wrong length");
    results
}

/// Mismatches of the simulated outputs against `truth(form, case)`, per wave size, with examples.
fn compare(
    forms: &[Form],
    jobs: &[Job],
    got: &[Vec<Vec<u32>>],
    truth: &dyn Fn(usize, usize) -> Vec<Vec<u32>>,
) -> (usize, [usize; 2], Vec<String>) {
    let (mut compared, mut wrong, mut examples) = (0, [0, 0], Vec::new());
    let mut k = 0;
    for j in jobs {
        for h in 0..j.wave / 32 {
            let Some(c) = j.halves[h] else { continue };
            let want = truth(j.form, c);
            for lane in 0..WARP {
                for (w, x) in want[lane].iter().enumerate() {
                    compared += 1;
                    if got[k][lane][w] != *x {
                        wrong[j.wave / 64] += 1;
                        if examples.len() < 8 {
                            examples.push(format!(
                                "{} (wave{}, half {h}, case {c}, lane {lane}, word {w}): want {x:#x}, simulated {:#x}",
                                forms[j.form].ptx(), j.wave, got[k][lane][w]
                            ));
                        }
                    }
                }
            }
            k += 1;
        }
    }
    (compared, wrong, examples)
}

fn check_all(rules: &RuleSet, truth_from_recording: bool) {
    let forms = all_forms();
    let cases: Vec<Vec<Case>> = forms.iter().map(generate).collect();
    let jobs = jobs(&cases);
    let dir = tempfile::tempdir().unwrap();
    let got = simulate(rules, &forms, &cases, &jobs, dir.path());
    let rec = truth_from_recording.then(recording);
    let truth = |f: usize, c: usize| match &rec {
        Some(r) => {
            let rf = r.form(&forms[f].name()).expect("recorded");
            (0..WARP).map(|l| rf.lane(c, l).to_vec()).collect()
        }
        None => expected(&forms[f], &cases[f][c]),
    };
    let (compared, wrong, examples) = compare(&forms, &jobs, &got, &truth);
    for e in &examples {
        eprintln!("MISMATCH {e}");
    }
    assert_eq!(wrong, [0, 0], "of {compared} words, wave32/wave64 differ");
    eprintln!("{compared} words compared, 0 differ");
}

#[test]
fn amd_translation_matches_the_ptx_reference_on_wave64_and_wave32() {
    check_all(&RuleSet::embedded().unwrap(), false);
}

#[test]
fn amd_translation_matches_the_h100_on_wave64_and_wave32() {
    check_all(&RuleSet::embedded().unwrap(), true);
}

/// Every form is recorded, from the current cases, and the H100 agrees with the PTX reference
/// on every word.
#[test]
fn recording_is_complete_and_agrees_with_the_ptx_reference() {
    let rec = recording();
    for key in ["gpu", "driver", "nvcc", "date"] {
        assert!(
            rec.header[key].as_str().is_some_and(|s| !s.is_empty()),
            "header lacks {key}"
        );
    }
    for form in all_forms() {
        let r = rec
            .form(&form.name())
            .unwrap_or_else(|| panic!("{}: not recorded", form.name()));
        let cases = generate(&form);
        assert_eq!(r.ptx, form.ptx());
        assert_eq!(
            r.inputs_digest,
            inputs_digest(&cases),
            "{}: recorded with other inputs",
            form.name()
        );
        for (k, c) in cases.iter().enumerate() {
            for (lane, want) in expected(&form, c).iter().enumerate() {
                assert_eq!(
                    r.lane(k, lane),
                    want.as_slice(),
                    "{} case {k} lane {lane}",
                    form.name()
                );
            }
        }
    }
}

/// The simulator has teeth: a helper that reads row addresses across the whole wave (the usual
/// wave64 porting bug) passes on wave32 and fails on wave64, where two warps share a wave.
#[test]
fn whole_wave_row_addresses_are_caught_on_wave64_only() {
    let sources = EMBEDDED.iter().map(|(n, s)| {
        let mut s = s.to_string();
        if *n == "helpers/warp.h" {
            let from = "((j + ptx2hip_warp_base()) << 2)";
            assert!(
                s.contains(from),
                "helpers/warp.h no longer contains `{from}`"
            );
            s = s.replace(from, "(j << 2)");
        }
        (n.to_string(), s)
    });
    let rules = RuleSet::from_sources(sources).unwrap();
    let forms: Vec<Form> = all_forms()
        .into_iter()
        .filter(|f| f.space == Space::Shared)
        .collect();
    let cases: Vec<Vec<Case>> = forms.iter().map(generate).collect();
    let jobs = jobs(&cases);
    let dir = tempfile::tempdir().unwrap();
    let got = simulate(&rules, &forms, &cases, &jobs, dir.path());
    let (_, wrong, _) = compare(&forms, &jobs, &got, &|f, c| {
        expected(&forms[f], &cases[f][c])
    });
    assert_eq!(wrong[0], 0);
    assert!(
        wrong[1] > 1000,
        "whole-wave reads not caught: {} wave64 mismatches",
        wrong[1]
    );
}
