//! wgmma.mma_async on AMD without AMD hardware: the `--target amd` translation of each recorded
//! wgmma statement (rules/warpgroup.toml, rules/helpers/warpgroup.h) runs on the host for the
//! 128 threads of a warpgroup, as 2 waves of 64 and as 4 waves of 32 on the lockstep wave model
//! (`tests/wave_sim/sim.h`; driver `tests/wave_sim/wgmma_check.cpp`, shared memory emulated by
//! `wgmma_check.h`), over the H100 recording's cases (`tests/vectors/wgmma/wgmma.bin.gz`,
//! docs/WGMMA.md): every D word of every thread must be what the H100 left there, or, for the
//! cases recorded as a digest, hash to the H100's digest. Bit-exact, every element.
//!
//! `cargo test` replays every case of the numerics and layouts sets and the sweep at N = 24, 48
//! and 256 (every type combination, A from registers and from a descriptor: every unrolling of
//! the accumulator loop); `--ignored` the whole sweep. Each case puts its warpgroup at threads 0
//! or 128 of the block and its image at 1, 2 or 3 KiB into shared memory. Needs `g++` (or
//! `$CXX`).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use ptx2hip_core::emit::EmitMode;
use ptx2hip_core::lower::{self, RuleSet, Target};
use ptx2hip_core::pipeline::{self, Options};
use ptx2hip_core::scan::AsmStatement;
use ptx2hip_verify::matrix::Elem;
use ptx2hip_verify::wgmma::harness::case_words;
use ptx2hip_verify::wgmma::model::digest;
use ptx2hip_verify::wgmma::record::{RecordedForm, Recording};
use ptx2hip_verify::wgmma::replay::{cases_of, form_named, Recorded, RecordedCase};
use ptx2hip_verify::wgmma::{Set, Source, WgmmaForm};
use rayon::prelude::*;

/// Helpers the checker defines over its shared-memory buffer (wgmma_check.h).
const SHIMMED: [&str; 3] = [
    "ptx2hip_lds_load_u16",
    "ptx2hip_lds_load_u32",
    "ptx2hip_lds_load_u32x4",
];

/// The sweep's N that `cargo test` replays: 3, 6 and 32 column blocks, which the accumulator loop
/// (ptx2hip_wgmma_each) takes one, two and four at a time.
const CI_SWEEP_N: [usize; 3] = [24, 48, 256];

/// Translation units the entries are compiled in, side by side.
const UNITS: usize = 4;

fn sim_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/wave_sim")
}

fn cxx() -> String {
    std::env::var("CXX").unwrap_or_else(|_| "g++".to_string())
}

fn recording() -> Recording {
    let path = ptx2hip_verify::repo_root().join("tests/vectors/wgmma/wgmma.bin.gz");
    Recording::read(&path).unwrap_or_else(|e| panic!("{e} (record: docs/WGMMA.md)"))
}

/// The recorded cases of the forms `keep` selects, in recording order.
fn recorded_cases(rec: &Recording, keep: &dyn Fn(Set, &WgmmaForm) -> bool) -> Vec<RecordedCase> {
    let forms: Vec<&RecordedForm> = rec
        .forms
        .iter()
        .filter(|r| form_named(r.set, &r.name).is_some_and(|f| keep(r.set, &f)))
        .collect();
    forms.par_iter().flat_map_iter(|r| cases_of(r)).collect()
}

/// A statement the checker runs: the C++ function that holds it (a `wgmma_entry`) and its form.
struct Entry {
    function: String,
    form: WgmmaForm,
}

/// The statement of a form as the recording harness wrote it (harness.rs): D `"+f"` (f32) or
/// `"+r"`, A's descriptor `"l"` or its registers `"r"`, B's descriptor `"l"`, scale-d a predicate
/// set from an `"r"` operand, the immediates literal.
fn statement(form: &WgmmaForm) -> (String, Vec<String>) {
    let nd = form.d_regs();
    let mut constraints = vec![if form.d == Elem::F32 { "+f" } else { "+r" }.to_string(); nd];
    let d: Vec<String> = (0..nd).map(|r| format!("%{r}")).collect();
    let a = match form.a_source {
        Source::Desc => {
            constraints.push("l".into());
            format!("%{nd}")
        }
        Source::Regs => {
            constraints.extend(["r"; 4].map(String::from));
            format!("{{%{nd}, %{}, %{}, %{}}}", nd + 1, nd + 2, nd + 3)
        }
    };
    let b = constraints.len();
    constraints.extend(["l", "r"].map(String::from));
    let mut args = vec![
        format!("{{{}}}", d.join(", ")),
        a,
        format!("%{b}"),
        "p".into(),
    ];
    args.extend(form.immediates().iter().map(i32::to_string));
    let ptx = format!(
        "{{ .reg .pred p; setp.ne.b32 p, %{}, 0; {} {}; }}",
        b + 1,
        form.opcode(),
        args.join(", ")
    );
    (ptx, constraints)
}

/// A translation unit defining `entries`: each form's `--target amd` translation (as
/// `lower::analyze` gives it to `translate`) in a `wgmma_entry`, over the helpers it calls.
fn entries_unit(rules: &RuleSet, entries: &[Entry]) -> String {
    let mut helpers = Vec::new();
    let mut functions = String::new();
    for e in entries {
        let (ptx, constraints) = statement(&e.form);
        let t = lower::analyze(
            &AsmStatement::synthetic(&ptx, &constraints),
            rules,
            Target::Amd,
        )
        .outcome
        .unwrap_or_else(|u| panic!("{}: not translated: {}", e.form.name(), u.message));
        helpers.extend(t.helpers);
        let _ = writeln!(
            functions,
            "// {}\nvoid {}(uint64_t desc_a, uint64_t desc_b, uint32_t scale_d, const uint32_t* a, uint32_t* d) {{",
            e.form.name(),
            e.function
        );
        let nd = e.form.d_regs();
        let ty = match e.form.d {
            Elem::F32 => "float",
            Elem::S32 => "int32_t",
            _ => "uint32_t",
        };
        for r in 0..nd {
            let _ = writeln!(functions, "  {ty} op{r}; memcpy(&op{r}, d + {r}, 4);");
        }
        let mut op = nd;
        match e.form.a_source {
            Source::Desc => {
                let _ = writeln!(functions, "  uint64_t op{op} = desc_a;");
                op += 1;
            }
            Source::Regs => {
                for i in 0..4 {
                    let _ = writeln!(functions, "  uint32_t op{op} = a[{i}];");
                    op += 1;
                }
            }
        }
        let _ = writeln!(
            functions,
            "  uint64_t op{op} = desc_b;\n  uint32_t op{} = scale_d;\n  (void)a; (void)desc_a;",
            op + 1
        );
        for l in lower::render(&t.lines, "  ", "  ") {
            functions.push_str(&l);
            functions.push('\n');
        }
        for r in 0..nd {
            let _ = writeln!(functions, "  memcpy(d + {r}, &op{r}, 4);");
        }
        functions.push_str("}\n");
    }
    let mut s = String::from("#include \"wgmma_check.h\"\n");
    for name in rules.helper_closure(helpers.iter()) {
        if !SHIMMED.contains(&name.as_str()) {
            s.push_str(rules.helpers[&name].definition(Target::Amd).trim());
            s.push('\n');
        }
    }
    s + &functions
}

/// `wgmma_table.h`: the entries and their register counts, in job order.
fn table(entries: &[Entry]) -> String {
    let mut s = String::new();
    for e in entries {
        let _ = writeln!(
            s,
            "void {}(uint64_t, uint64_t, uint32_t, const uint32_t*, uint32_t*);",
            e.function
        );
    }
    let list = |f: &dyn Fn(&Entry) -> String| entries.iter().map(f).collect::<Vec<_>>().join(", ");
    let _ = writeln!(
        s,
        "static const wgmma_entry entries[] = {{ {} }};\nstatic const uint32_t a_regs[] = {{ {} }};\nstatic const uint32_t d_regs[] = {{ {} }};",
        list(&|e| e.function.clone()),
        list(&|e| e.form.a_regs().to_string()),
        list(&|e| e.form.d_regs().to_string()),
    );
    s
}

/// Compiles the driver and `units` (C++ sources, compiled side by side) in `dir` into the checker.
fn build(dir: &Path, entries: &[Entry], units: &[String]) -> PathBuf {
    std::fs::write(dir.join("wgmma_table.h"), table(entries)).unwrap();
    let mut sources = vec![sim_dir().join("wgmma_check.cpp")];
    for (k, u) in units.iter().enumerate() {
        let path = dir.join(format!("wgmma_entries_{k}.cpp"));
        std::fs::write(&path, u).unwrap();
        sources.push(path);
    }
    let objects: Vec<PathBuf> = sources
        .par_iter()
        .enumerate()
        .map(|(k, src)| {
            let obj = dir.join(format!("unit_{k}.o"));
            let out = Command::new(cxx())
                .args(["-std=c++17", "-O1", "-w", "-ffp-contract=off", "-c"])
                .args(["-include", "cstring", "-I"])
                .arg(sim_dir())
                .arg("-I")
                .arg(dir)
                .arg("-o")
                .arg(&obj)
                .arg(src)
                .output()
                .expect("run the C++ compiler");
            assert!(
                out.status.success(),
                "{} does not compile:\n{}",
                src.display(),
                String::from_utf8_lossy(&out.stderr)
            );
            obj
        })
        .collect();
    let bin = dir.join("wgmma_check");
    let out = Command::new(cxx())
        .arg("-o")
        .arg(&bin)
        .args(&objects)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "the checker does not link:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    bin
}

/// Where a case runs: its entry, its warpgroup's place in the block and its image's in LDS.
struct Job<'a> {
    entry: usize,
    case: &'a RecordedCase,
    warpgroup: u32,
    lds_at: u32,
}

/// What each job left in every thread's D registers, on wave64 and on wave32 (128 × d_regs
/// words each). The jobs are shared between two checker processes.
fn run(bin: &Path, dir: &Path, jobs: &[Job]) -> Vec<[Vec<u32>; 2]> {
    let halves: Vec<Vec<&Job>> = (0..2)
        .map(|h| jobs.iter().skip(h).step_by(2).collect())
        .collect();
    let results: Vec<Vec<[Vec<u32>; 2]>> = halves
        .par_iter()
        .enumerate()
        .map(|(h, part)| {
            let mut b = Vec::new();
            let put = |w: u32, b: &mut Vec<u8>| b.extend_from_slice(&w.to_le_bytes());
            put(part.len() as u32, &mut b);
            for j in part {
                let inputs = &j.case.inputs;
                for w in [
                    j.entry as u32,
                    j.warpgroup,
                    j.lds_at,
                    inputs.image.len() as u32,
                ] {
                    put(w, &mut b);
                }
                b.extend_from_slice(&inputs.image);
                for w in case_words(&j.case.form, inputs) {
                    put(w, &mut b);
                }
            }
            let (jin, jout) = (
                dir.join(format!("jobs_{h}.bin")),
                dir.join(format!("out_{h}.bin")),
            );
            std::fs::write(&jin, b).unwrap();
            let out = Command::new(bin).arg(&jin).arg(&jout).output().unwrap();
            assert!(
                out.status.success(),
                "the checker failed: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            eprint!("{}", String::from_utf8_lossy(&out.stderr));
            let words: Vec<u32> = std::fs::read(&jout)
                .unwrap()
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
            let mut at = 0;
            let mut take = |n: usize| {
                at += n;
                words[at - n..at].to_vec()
            };
            let got: Vec<[Vec<u32>; 2]> = part
                .iter()
                .map(|j| {
                    let n = 128 * j.case.form.d_regs();
                    [take(n), take(n)]
                })
                .collect();
            assert_eq!(at, words.len(), "the checker's output has the wrong length");
            got
        })
        .collect();
    (0..jobs.len())
        .map(|k| results[k % 2][k / 2].clone())
        .collect()
}

/// Elements of D (64 × N) that differ between two sets of every thread's D registers.
fn differing_elements(form: &WgmmaForm, got: &[u32], want: &[u32]) -> usize {
    let half = |w: u32, h: u32| (w >> (16 * h)) & 0xffff;
    got.iter()
        .zip(want)
        .map(|(&g, &w)| match form.d {
            Elem::F16 => (0..2).filter(|&h| half(g, h) != half(w, h)).count(),
            _ => usize::from(g != w),
        })
        .sum()
}

/// A case that differs from the H100 on one wave size.
struct Difference {
    set: Set,
    form: String,
    case: usize,
    wave: u32,
    what: String,
}

impl std::fmt::Display for Difference {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        let (set, form, case, wave) = (self.set.name(), &self.form, self.case, self.wave);
        write!(f, "{set} {form} case {case} on wave{wave}: {}", self.what)
    }
}

/// What a replay found: the differences and, per set, the cases and D elements compared.
struct Replayed {
    differ: Vec<Difference>,
    compared: HashMap<Set, (usize, usize)>,
}

impl Replayed {
    /// Panics with the differences; else prints what was compared.
    fn assert_bit_exact(&self) {
        let lines: Vec<String> = self.differ.iter().map(Difference::to_string).collect();
        assert!(
            lines.is_empty(),
            "{} differ:\n{}",
            lines.len(),
            lines.join("\n")
        );
        for set in Set::ALL {
            if let Some((cases, elements)) = self.compared.get(&set) {
                eprintln!(
                    "{}: {cases} cases, {elements} elements of D, bit-exact on wave64 and on wave32",
                    set.name()
                );
            }
        }
    }
}

/// Runs every case of `cases` through the entry of its form (`units` define `entries`; in `dir`)
/// on wave64 and on wave32 and compares every D word with the recording.
fn replay(dir: &Path, entries: &[Entry], units: &[String], cases: &[RecordedCase]) -> Replayed {
    let index: HashMap<String, usize> = entries
        .iter()
        .enumerate()
        .map(|(k, e)| (e.form.name(), k))
        .collect();
    let started = std::time::Instant::now();
    let bin = build(dir, entries, units);
    eprintln!(
        "{} statements compiled in {:.1} s",
        entries.len(),
        started.elapsed().as_secs_f64()
    );
    let jobs: Vec<Job> = cases
        .iter()
        .enumerate()
        .map(|(k, case)| Job {
            entry: index[&case.form.name()],
            case,
            warpgroup: (k % 2) as u32,
            lds_at: 1024 * (1 + (k % 3) as u32),
        })
        .collect();
    let started = std::time::Instant::now();
    let got = run(&bin, dir, &jobs);
    eprintln!("simulated in {:.1} s", started.elapsed().as_secs_f64());
    let mut r = Replayed {
        differ: Vec::new(),
        compared: HashMap::new(),
    };
    for (j, waves) in jobs.iter().zip(&got) {
        let c = j.case;
        let n = r.compared.entry(c.set).or_default();
        n.0 += 1;
        n.1 += 64 * c.form.n;
        for (&wave, words) in [64, 32].iter().zip(waves) {
            let same = match &c.recorded {
                Recorded::Outputs(o) => o.concat() == *words,
                Recorded::Digest(d) => digest(words.iter().copied()) == *d,
            };
            if same {
                continue;
            }
            let what = match c.outputs() {
                Some(want) => format!(
                    "{} elements differ",
                    differing_elements(&c.form, words, &want.concat())
                ),
                None => "the digest differs (and no reference reproduces it)".to_string(),
            };
            r.differ.push(Difference {
                set: c.set,
                form: c.form.name(),
                case: c.index,
                wave,
                what,
            });
        }
    }
    r
}

/// Replays `cases` through the translation of their forms' statements under `rules`.
fn replay_translations(rules: &RuleSet, cases: &[RecordedCase]) -> Replayed {
    let mut entries: Vec<Entry> = Vec::new();
    for c in cases {
        if !entries.iter().any(|e| e.form == c.form) {
            entries.push(Entry {
                function: format!("wgmma_entry_{}", entries.len()),
                form: c.form,
            });
        }
    }
    let units: Vec<String> = entries
        .chunks(entries.len().div_ceil(UNITS))
        .collect::<Vec<_>>()
        .par_iter()
        .map(|chunk| entries_unit(rules, chunk))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    replay(dir.path(), &entries, &units, cases)
}

#[test]
fn amd_translation_replays_the_h100_recording_on_wave64_and_wave32() {
    let rules = RuleSet::embedded().unwrap();
    let cases = recorded_cases(&recording(), &|set, form| {
        set != Set::Sweep || CI_SWEEP_N.contains(&form.n)
    });
    replay_translations(&rules, &cases).assert_bit_exact();
}

#[test]
#[ignore = "the whole sweep: 1,056 statements, minutes of host compilation"]
fn amd_translation_replays_the_whole_sweep_on_wave64_and_wave32() {
    let rules = RuleSet::embedded().unwrap();
    let cases = recorded_cases(&recording(), &|set, _| set == Set::Sweep);
    replay_translations(&rules, &cases).assert_bit_exact();
}

/// The functions of `tests/wave_sim/wgmma_statements.cu`, one per rule, and the recorded form of
/// the numerics set each statement is.
const STATEMENTS: [(&str, &str); 10] = [
    ("y001_f16_desc", "m64n8k16.f16.f16.f16 a=desc imm=[1,1,0,1]"),
    ("y002_f16_regs", "m64n8k16.f32.f16.f16 a=regs imm=[-1,1,0]"),
    (
        "y003_bf16_desc",
        "m64n8k16.f32.bf16.bf16 a=desc imm=[1,1,1,0]",
    ),
    (
        "y004_bf16_regs",
        "m64n16k16.f32.bf16.bf16 a=regs imm=[1,1,0]",
    ),
    ("y005_tf32_desc", "m64n8k8.f32.tf32.tf32 a=desc imm=[1,-1]"),
    ("y006_tf32_regs", "m64n16k8.f32.tf32.tf32 a=regs imm=[1,1]"),
    ("y007_fp8_desc", "m64n8k32.f16.e5m2.e4m3 a=desc imm=[-1,-1]"),
    ("y008_fp8_regs", "m64n16k32.f32.e4m3.e5m2 a=regs imm=[1,1]"),
    (
        "y009_int_desc",
        "m64n16k32.s32.u8.s8.satfinite a=desc imm=[]",
    ),
    ("y010_int_regs", "m64n8k32.s32.s8.u8 a=regs imm=[]"),
];

/// What `ptx2hip translate --target amd --emit replace` writes for a file of wgmma statements as
/// CUTLASS spells them (one per rule, Y001–Y013) is what the checker runs: the translated file,
/// its helper block included (less the LDS helpers, whose guards the checker defines), compiled
/// for the host, gives every recorded case of each statement's form bit for bit on wave64 and
/// wave32.
#[test]
fn translated_cutlass_statements_replay_the_h100_recording() {
    let rules = RuleSet::embedded().unwrap();
    let src = std::fs::read_to_string(sim_dir().join("wgmma_statements.cu")).unwrap();
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
    assert!(outcome.diagnostics.is_empty(), "{:?}", outcome.diagnostics);
    let mut codes: Vec<String> = outcome
        .findings
        .iter()
        .flat_map(|f| match &f.outcome {
            Ok(codes) => codes.clone(),
            Err(e) => panic!("line {}: not translated: {}", f.line, e.message),
        })
        .collect();
    // The statements' own setp is an ordinary rule; the wgmma rules are every Y rule.
    codes.retain(|c| c.starts_with('Y'));
    codes.sort();
    codes.dedup();
    let every_rule: Vec<String> = (1..=13).map(|k| format!("Y{k:03}")).collect();
    assert_eq!(codes, every_rule);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("wgmma_statements.hip"),
        outcome.rewritten.expect("translated").bytes,
    )
    .unwrap();
    let entries: Vec<Entry> = STATEMENTS
        .iter()
        .map(|(function, form)| Entry {
            function: function.to_string(),
            form: form_named(
                Set::Numerics,
                &format!("wgmma.mma_async.sync.aligned.{form}"),
            )
            .unwrap_or_else(|| panic!("{form}: not a form of the numerics set")),
        })
        .collect();
    let cases = recorded_cases(&recording(), &|set, form| {
        set == Set::Numerics && entries.iter().any(|e| e.form == *form)
    });
    let unit = "#include \"wgmma_check.h\"\n#include \"wgmma_statements.hip\"\n".to_string();
    replay(dir.path(), &entries, &[unit], &cases).assert_bit_exact();
}

/// The replay has teeth: with the descriptor's base offset ignored (the helper before the H100
/// recording), the layout cases at N = 8 whose descriptors carry a base offset differ, and only
/// those.
#[test]
fn ignoring_the_base_offset_fails_the_cases_that_set_it() {
    let from = "(((a >> 7) - base) & ((1u << s) - 1u)) << 4";
    let sources = ptx2hip_core::rules::EMBEDDED.iter().map(|(n, s)| {
        let mut s = s.to_string();
        if *n == "helpers/warpgroup.h" {
            assert!(
                s.contains(from),
                "helpers/warpgroup.h no longer contains `{from}`"
            );
            s = s.replace(from, "((a >> 7) & ((1u << s) - 1u)) << 4");
        }
        (n.to_string(), s)
    });
    let rules = RuleSet::from_sources(sources).unwrap();
    let cases = recorded_cases(&recording(), &|set, form| {
        set == Set::Layouts && form.n == 8
    });
    let r = replay_translations(&rules, &cases);
    let based = |c: &RecordedCase| (c.inputs.desc_a | c.inputs.desc_b) >> 49 & 7 != 0;
    let failing: Vec<&RecordedCase> = cases
        .iter()
        .filter(|c| {
            r.differ
                .iter()
                .any(|d| d.form == c.form.name() && d.case == c.index)
        })
        .collect();
    assert!(failing.len() >= 10, "{} cases differ", failing.len());
    assert!(failing.iter().all(|c| based(c)));
    eprintln!(
        "{} of {} layout cases with a base offset differ",
        failing.len(),
        cases.iter().filter(|c| based(c)).count()
    );
}
