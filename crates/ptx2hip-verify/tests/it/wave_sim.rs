//! The AMD path of the warp forms, without AMD hardware: the `--target amd` translation of every
//! recorded warp statement runs on a host model of a 64-lane and of a 32-lane AMD wave
//! (`tests/wave_sim/sim.h`: every lane runs the emitted C++, lanes meet at each cross-lane builtin,
//! which is modelled from the ISA documents), fed with the inputs of the H100 recordings
//! (`tests/vectors/warp/`), and every output PTX defines is compared bit for bit with what the
//! H100 computed. On wave64 the two halves of a wave run two *different* recorded warps at once,
//! so a translation that lets one half see the other is caught. Needs only `g++` (or `$CXX`).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use ptx2hip_core::emit::EmitMode;
use ptx2hip_core::lower::{self, RuleSet, Target};
use ptx2hip_core::pipeline::{self, Options};
use ptx2hip_core::rules::EMBEDDED;
use ptx2hip_core::scan::AsmStatement;
use ptx2hip_verify::warp::reference::expected;
use ptx2hip_verify::warp::{all_forms, generate, Case, Out, Recording, Role, WarpForm, WARP};

fn root() -> PathBuf {
    ptx2hip_verify::repo_root()
}

/// The simulator's C++ files (the model, its check programs), beside this test.
fn sim_header(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/wave_sim")
        .join(name)
}

fn cxx() -> String {
    std::env::var("CXX").unwrap_or_else(|_| "g++".to_string())
}

fn recording() -> Recording {
    Recording::read(&root().join("tests/vectors/warp/warp.bin.gz"))
        .unwrap_or_else(|e| panic!("{e} (record: docs/WARP.md)"))
}

/// One translated form ready for the simulator.
struct Translated {
    form: WarpForm,
    lines: Vec<String>,
    helpers: Vec<String>,
}

fn translate(forms: &[WarpForm], rules: &RuleSet, target: Target) -> Vec<Translated> {
    forms
        .iter()
        .map(|f| {
            let stmt = AsmStatement::synthetic(&f.ptx, &f.constraints);
            let a = lower::analyze(&stmt, rules, target);
            let t = a
                .outcome
                .unwrap_or_else(|u| panic!("{}: not translated: {}", f.name, u.message));
            Translated {
                form: f.clone(),
                lines: lower::render(&t.lines, "  ", "  "),
                helpers: t.helpers,
            }
        })
        .collect()
}

/// `wave_sim_forms.h` of `tests/wave_sim/wave_sim_check.cpp`: the helpers and one function per
/// form, with the tables the driver reads.
fn forms_header(forms: &[Translated], rules: &RuleSet, target: Target, constant_p: bool) -> String {
    let mut s = String::new();
    // Both sides of every `__builtin_constant_p` test run: the constant-pattern code (DPP,
    // ds_swizzle, whose switches are right for any value) and the general code.
    let _ = writeln!(
        s,
        "#define __builtin_constant_p(x) {}",
        u8::from(constant_p)
    );
    let all: Vec<String> = forms.iter().flat_map(|f| f.helpers.clone()).collect();
    s.push_str(&rules.helper_definitions(all.iter(), target));
    for (k, t) in forms.iter().enumerate() {
        let f = &t.form;
        let _ = writeln!(s, "// {}: {}", f.name, f.ptx);
        let _ = writeln!(s, "static void form_{k}(const uint32_t* x, uint32_t* y) {{");
        for (i, o) in f.outputs.iter().enumerate() {
            let ty = if *o == Out::D64 {
                "uint64_t"
            } else {
                "uint32_t"
            };
            let _ = writeln!(s, "  {ty} op{i} = 0;");
        }
        let mut word = 0;
        for (i, r) in f.inputs.iter().enumerate() {
            let op = f.outputs.len() + i;
            if *r == Role::A64 {
                let _ = writeln!(
                    s,
                    "  uint64_t op{op} = (uint64_t)x[{word}] | ((uint64_t)x[{}] << 32);",
                    word + 1
                );
            } else {
                let _ = writeln!(s, "  uint32_t op{op} = x[{word}];");
            }
            word += r.words();
        }
        for l in &t.lines {
            s.push_str(l);
            s.push('\n');
        }
        let mut at = 0;
        for (i, o) in f.outputs.iter().enumerate() {
            if *o == Out::D64 {
                let _ = writeln!(
                    s,
                    "  y[{at}] = (uint32_t)op{i}; y[{}] = (uint32_t)(op{i} >> 32);",
                    at + 1
                );
            } else {
                let _ = writeln!(s, "  y[{at}] = (uint32_t)op{i};");
            }
            at += o.words();
        }
        s.push_str("}\n");
    }
    let _ = writeln!(
        s,
        "typedef void (*form_fn)(const uint32_t*, uint32_t*);\nstatic const form_fn forms[] = {{ {} }};",
        (0..forms.len()).map(|k| format!("form_{k}")).collect::<Vec<_>>().join(", ")
    );
    let _ = writeln!(
        s,
        "static const unsigned in_words[] = {{ {} }};\nstatic const unsigned out_words[] = {{ {} }};",
        forms.iter().map(|f| f.form.in_words().to_string()).collect::<Vec<_>>().join(", "),
        forms.iter().map(|f| f.form.out_words().to_string()).collect::<Vec<_>>().join(", ")
    );
    s
}

/// One wave to simulate: a form and, per 32-lane half, a case index (or an idle half).
#[derive(Clone, Copy)]
struct Job {
    form: usize,
    wave: usize,
    halves: [Option<usize>; 2],
}

/// Wave32: each case alone. Wave64: case i beside case (i + n/2) mod n of the same form (two
/// different warps in one wave), and every third case beside an idle half.
fn jobs(forms: &[(WarpForm, Vec<Case>)]) -> Vec<Job> {
    let mut v = Vec::new();
    for (k, (_, cases)) in forms.iter().enumerate() {
        let n = cases.len();
        for i in 0..n {
            v.push(Job {
                form: k,
                wave: 32,
                halves: [Some(i), None],
            });
            v.push(Job {
                form: k,
                wave: 64,
                halves: [Some(i), Some((i + n / 2 + 1) % n)],
            });
            if i % 3 == 0 {
                v.push(Job {
                    form: k,
                    wave: 64,
                    halves: [None, Some(i)],
                });
            }
        }
    }
    v
}

/// Whether the shuffle operands `b` and `c` are the same in every lane that runs the job.
fn constant_operands_uniform((form, cases): &(WarpForm, Vec<Case>), j: &Job) -> bool {
    let mut seen: [Option<u64>; 2] = [None, None];
    for h in 0..j.wave / 32 {
        let Some(c) = j.halves[h] else { continue };
        let case = &cases[c];
        for (i, role) in form.inputs.iter().enumerate() {
            let slot = match role {
                Role::B => 0,
                Role::C => 1,
                _ => continue,
            };
            for lane in (0..WARP).filter(|l| (case.active >> l) & 1 == 1) {
                let v = case.values[i][lane];
                if *seen[slot].get_or_insert(v) != v {
                    return false;
                }
            }
        }
    }
    true
}

fn job_file(forms: &[(WarpForm, Vec<Case>)], jobs: &[Job]) -> Vec<u8> {
    let mut b = Vec::new();
    let put = |w: u32, b: &mut Vec<u8>| b.extend_from_slice(&w.to_le_bytes());
    put(jobs.len() as u32, &mut b);
    for j in jobs {
        let (form, cases) = &forms[j.form];
        put(j.form as u32, &mut b);
        put(j.wave as u32, &mut b);
        for h in 0..j.wave / 32 {
            match j.halves[h] {
                Some(c) => {
                    let words = cases[c].words(form);
                    put(1, &mut b);
                    put(words[0], &mut b);
                    for w in &words[2..] {
                        put(*w, &mut b);
                    }
                }
                None => {
                    put(0, &mut b);
                    put(0, &mut b);
                }
            }
        }
    }
    b
}

/// Outcome of one simulation run.
#[derive(Default)]
struct Report {
    compared: usize,
    mismatches: usize,
    /// Mismatches per wave size.
    by_wave: HashMap<usize, usize>,
    examples: Vec<String>,
}

/// The recorded outputs of a form's cases (per case, per lane), or, for a form the GPU cannot
/// run, the PTX reference (checked against the GPU on every recorded form).
fn truth(form: &WarpForm, cases: &[Case], rec: &Recording) -> (Vec<Vec<Vec<u32>>>, bool) {
    match rec.form(&form.name) {
        Some(r) => (
            (0..cases.len())
                .map(|k| (0..WARP).map(|l| r.lane(k, l).to_vec()).collect())
                .collect(),
            true,
        ),
        None => (
            cases.iter().map(|c| expected(form, c).words).collect(),
            false,
        ),
    }
}

fn simulate(
    rules: &RuleSet,
    target: Target,
    forms: &[WarpForm],
    constant_p: bool,
    dir: &Path,
) -> Report {
    let rec = recording();
    let with_cases: Vec<(WarpForm, Vec<Case>)> =
        forms.iter().map(|f| (f.clone(), generate(f))).collect();
    for (f, cases) in &with_cases {
        if let Some(r) = rec.form(&f.name) {
            assert_eq!(r.ptx, f.ptx, "{}: recorded from another statement", f.name);
            assert_eq!(r.cases, cases.len(), "{}: stale recording", f.name);
            assert_eq!(
                r.inputs_digest,
                ptx2hip_verify::warp::cases::inputs_digest(f, cases),
                "{}: recorded with other inputs (stale)",
                f.name
            );
        }
    }
    let translated = translate(forms, rules, target);
    std::fs::write(
        dir.join("wave_sim_forms.h"),
        forms_header(&translated, rules, target, constant_p),
    )
    .unwrap();
    let bin = dir.join("sim");
    let out = Command::new(cxx())
        .args(["-std=c++17", "-O0", "-w", "-I"])
        .arg(dir)
        .arg("-o")
        .arg(&bin)
        .arg(sim_header("wave_sim_check.cpp"))
        .output()
        .expect("run the C++ compiler");
    assert!(
        out.status.success(),
        "simulator does not compile:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut jobs = jobs(&with_cases);
    if constant_p {
        // `__builtin_constant_p` is true for compile-time constants only, which every lane
        // holds alike: the constant-pattern code runs on waves whose b and c are uniform.
        jobs.retain(|j| constant_operands_uniform(&with_cases[j.form], j));
    }
    let jin = dir.join("jobs.bin");
    let jout = dir.join("out.bin");
    std::fs::write(&jin, job_file(&with_cases, &jobs)).unwrap();
    let run = Command::new(&bin).arg(&jin).arg(&jout).output().unwrap();
    assert!(
        run.status.success(),
        "simulator failed: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    eprint!("{}", String::from_utf8_lossy(&run.stderr));
    let bytes = std::fs::read(&jout).unwrap();
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let truths: Vec<_> = with_cases.iter().map(|(f, c)| truth(f, c, &rec)).collect();
    let mut report = Report::default();
    let mut at = 0;
    for j in &jobs {
        let (form, cases) = &with_cases[j.form];
        let ow = form.out_words();
        for h in 0..j.wave / 32 {
            let Some(c) = j.halves[h] else { continue };
            let e = expected(form, &cases[c]);
            let (want, _) = &truths[j.form];
            for lane in 0..WARP {
                let got = &words[at + lane * ow..at + (lane + 1) * ow];
                for (w, &def) in e.defined[lane].iter().enumerate() {
                    if !def {
                        continue;
                    }
                    report.compared += 1;
                    if got[w] != want[c][lane][w] {
                        report.mismatches += 1;
                        *report.by_wave.entry(j.wave).or_default() += 1;
                        if report.examples.len() < 12 {
                            report.examples.push(format!(
                                "{} (wave{}, half {h}, case {c}, lane {lane}, word {w}): GPU {:#x}, simulated {:#x}",
                                form.name, j.wave, want[c][lane][w], got[w]
                            ));
                        }
                    }
                }
            }
            at += WARP * ow;
        }
    }
    assert_eq!(at, words.len(), "simulator output has the wrong length");
    report
}

fn assert_clean(what: &str, r: &Report) {
    for e in &r.examples {
        eprintln!("MISMATCH {e}");
    }
    assert!(r.compared > 0);
    assert_eq!(
        r.mismatches, 0,
        "{what}: {} of {} outputs differ",
        r.mismatches, r.compared
    );
    eprintln!("{what}: {} outputs compared, 0 differ", r.compared);
}

fn warp_forms() -> Vec<WarpForm> {
    all_forms()
}

#[test]
fn amd_translation_matches_the_h100_on_wave64_and_wave32() {
    let rules = RuleSet::embedded().unwrap();
    for constant_p in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let r = simulate(&rules, Target::Amd, &warp_forms(), constant_p, dir.path());
        assert_clean(
            &format!("--target amd, __builtin_constant_p = {constant_p}"),
            &r,
        );
    }
}

#[test]
fn portable_lane_registers_match_the_h100() {
    let rules = RuleSet::embedded().unwrap();
    let forms: Vec<WarpForm> = all_forms()
        .into_iter()
        .filter(|f| f.name.starts_with("mov.u32 %lane"))
        .collect();
    assert_eq!(forms.len(), 6);
    let dir = tempfile::tempdir().unwrap();
    let r = simulate(&rules, Target::Portable, &forms, false, dir.path());
    assert_clean("--target portable lane registers", &r);
}

/// Every recorded form agrees with the PTX reference on every defined output, and the forms the
/// H100 cannot run are exactly the deprecated unsynchronised ones.
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
        let Some(r) = rec.form(&form.name) else {
            assert!(form.deprecated(), "{}: not recorded", form.name);
            continue;
        };
        let cases = generate(&form);
        for (k, c) in cases.iter().enumerate() {
            let e = expected(&form, c);
            for lane in 0..WARP {
                for (w, &x) in e.words[lane].iter().enumerate() {
                    if e.defined[lane][w] {
                        assert_eq!(
                            r.lane(k, lane)[w],
                            x,
                            "{} case {k} lane {lane} word {w}",
                            form.name
                        );
                    }
                }
            }
        }
    }
}

/// The rule table with some text replacements in the warp helpers.
fn mutated(replacements: &[(&str, &str)]) -> RuleSet {
    let sources = EMBEDDED.iter().map(|(n, s)| {
        let mut s = s.to_string();
        if *n == "helpers/warp.h" {
            for (from, to) in replacements {
                assert!(
                    s.contains(from),
                    "helpers/warp.h no longer contains `{from}`"
                );
                s = s.replace(from, to);
            }
        }
        (n.to_string(), s)
    });
    RuleSet::from_sources(sources).unwrap()
}

/// The simulator has teeth: a translation that treats the whole wave as the warp (the usual
/// wave64 porting bug) passes on wave32 and fails on wave64, where two warps share a wave.
#[test]
fn whole_wave_as_a_warp_is_caught_on_wave64_only() {
    let rules = mutated(&[
        (
            "(uint32_t)(__builtin_amdgcn_ballot_w64(p) >> ptx2hip_warp_base())",
            "(uint32_t)__builtin_amdgcn_ballot_w64(p)",
        ),
        ("((j + ptx2hip_warp_base()) << 2)", "(j << 2)"),
    ]);
    let forms: Vec<WarpForm> = all_forms()
        .into_iter()
        .filter(|f| {
            f.name == "vote.sync.ballot.b32 a"
                || f.name == "shfl.sync.idx.b32 d|p"
                || f.name == "match.all.sync.b32 d|p"
        })
        .collect();
    assert_eq!(forms.len(), 3);
    let dir = tempfile::tempdir().unwrap();
    let r = simulate(&rules, Target::Amd, &forms, false, dir.path());
    assert_eq!(r.by_wave.get(&32).copied().unwrap_or(0), 0);
    assert!(
        r.by_wave.get(&64).copied().unwrap_or(0) > 100,
        "whole-wave warps not caught: {} mismatches",
        r.mismatches
    );
}

/// A cross-lane call from divergent control flow is reported instead of given a made-up result.
#[test]
fn divergent_cross_lane_calls_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let src = sim_header("wave_sim_divergent.cpp");
    let bin = dir.path().join("div");
    let out = Command::new(cxx())
        .args(["-std=c++17", "-O0", "-o"])
        .arg(&bin)
        .arg(&src)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(&bin).output().unwrap();
    assert!(run.status.success(), "divergent calls not reported");
    assert!(String::from_utf8_lossy(&run.stdout).contains("different cross-lane calls"));
}

/// Counted barriers (rules/sync.toml S030-S033) on one wave of the model: the `--target amd`
/// translation of `barrier.sync id, count` arrives for 32 threads per 32-lane half with an active
/// lane, on wave64 and wave32 (tests/wave_sim/named_barrier_check.cpp).
#[test]
fn counted_barrier_arrivals_count_one_warp_per_active_half() {
    let rules = RuleSet::embedded().unwrap();
    let stmt = AsmStatement::synthetic("barrier.sync %0, %1;", &["r".into(), "r".into()]);
    let t = lower::analyze(&stmt, &rules, Target::Amd)
        .outcome
        .unwrap_or_else(|u| panic!("not translated: {}", u.message));
    let stand_ins = "#define __HIP_MEMORY_SCOPE_WORKGROUP 2\n\
        #define __hip_atomic_load(p, order, scope) (*(p))\n\
        #define __hip_atomic_compare_exchange_weak(p, expected, desired, ok, fail, scope) \\\n\
        (*(p) == *(expected) ? (*(p) = (desired), true) : (*(expected) = *(p), false))\n\
        #define __builtin_amdgcn_s_sleep(n) ((void)0)\n\
        #define __builtin_readsteadycounter() 0ull\n\
        #define __trap() abort()\n";
    let mut prog = format!(
        "#include \"{}\"\n{stand_ins}",
        sim_header("kernel.h").display()
    );
    prog.push_str(&rules.helper_definitions(t.helpers.iter(), Target::Amd));
    prog.push_str("static void bar_sync(uint32_t op0, uint32_t op1) {\n");
    for line in lower::render(&t.lines, "  ", "  ") {
        prog.push_str(&line);
        prog.push('\n');
    }
    prog.push_str("}\n");
    prog.push_str(&format!(
        "#include \"{}\"\n",
        sim_header("named_barrier_check.cpp").display()
    ));
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("named_barrier.cpp");
    std::fs::write(&src, prog).unwrap();
    let bin = dir.path().join("named_barrier");
    let c = Command::new(cxx())
        .args(["-std=c++17", "-O0", "-w", "-o"])
        .arg(&bin)
        .arg(&src)
        .output()
        .unwrap();
    assert!(c.status.success(), "{}", String::from_utf8_lossy(&c.stderr));
    let r = Command::new(&bin).output().unwrap();
    assert!(
        r.status.success(),
        "{}{}",
        String::from_utf8_lossy(&r.stdout),
        String::from_utf8_lossy(&r.stderr)
    );
}

/// The corpus kernels (`corpus/`, every statement translated): the `--target amd` translation of
/// each whole file runs on the wave model, all blocks and waves of the recorded launch, and every
/// buffer must equal, byte for byte, what the original kernel left in it on the H100
/// (`tests/vectors/warp/kernels.bin.gz`), on wave64 and on wave32.
#[test]
fn corpus_kernels_match_the_h100_on_wave64_and_wave32() {
    use ptx2hip_verify::warp::kernels;
    let (header, dumps) = kernels::read_dumps(&root().join("tests/vectors/warp/kernels.bin.gz"))
        .unwrap_or_else(|e| panic!("{e} (record: docs/WARP.md)"));
    assert!(header["gpu"].as_str().is_some_and(|g| !g.is_empty()));
    let rules = RuleSet::embedded().unwrap();
    let dir = tempfile::tempdir().unwrap();
    for file in kernels::FILES {
        let src = std::fs::read_to_string(root().join("corpus").join(file)).unwrap();
        // What `ptx2hip translate --emit replace --target amd` writes for the file.
        let outcome = pipeline::process(
            src.as_bytes(),
            &rules,
            Options {
                target: Target::Amd,
                emit: Some(EmitMode::Replace),
                provenance: true,
                tensor_model: Default::default(),
                fast: false,
                evidence: Default::default(),
            },
        );
        assert!(
            outcome.diagnostics.is_empty(),
            "{file}: {:?}",
            outcome.diagnostics
        );
        for f in &outcome.findings {
            if let Err(e) = &f.outcome {
                panic!("{file}:{}: not translated: {}", f.line, e.message);
            }
        }
        let translated = dir.path().join(file);
        std::fs::write(&translated, &outcome.rewritten.expect("translated").bytes).unwrap();
        let want = &dumps
            .iter()
            .find(|(f, _)| f == file)
            .unwrap_or_else(|| panic!("{file}: not recorded"))
            .1;
        for wave in [64, 32] {
            let prog = dir.path().join(format!("run_{wave}.cpp"));
            std::fs::write(
                &prog,
                format!(
                    "#include \"{}\"\n#include \"{}\"\n{}",
                    sim_header("kernel.h").display(),
                    translated.display(),
                    kernels::host_driver(&src, wave).unwrap()
                ),
            )
            .unwrap();
            let bin = dir.path().join(format!("run_{wave}"));
            let c = Command::new(cxx())
                .args(["-std=c++17", "-O0", "-w", "-ffp-contract=off", "-o"])
                .arg(&bin)
                .arg(&prog)
                .output()
                .unwrap();
            assert!(
                c.status.success(),
                "{file}: {}",
                String::from_utf8_lossy(&c.stderr)
            );
            let dump = dir.path().join(format!("dump_{wave}"));
            let r = Command::new(&bin).arg(&dump).output().unwrap();
            assert!(
                r.status.success(),
                "{file} wave{wave}: {}",
                String::from_utf8_lossy(&r.stderr)
            );
            let got = std::fs::read(&dump).unwrap();
            assert_eq!(got.len(), want.len(), "{file}: dump sizes differ");
            let differ = got.iter().zip(want.iter()).filter(|(a, b)| a != b).count();
            let first = got.iter().zip(want.iter()).position(|(a, b)| a != b);
            assert_eq!(
                differ, 0,
                "{file} wave{wave}: {differ} of {} bytes differ from the H100 (first at byte {first:?})",
                want.len()
            );
            eprintln!("{file} wave{wave}: {} bytes equal the H100's", want.len());
        }
    }
}
