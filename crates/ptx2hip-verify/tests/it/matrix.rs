//! mma.sync, checked per warp: every form the rule table claims is a form of the recording
//! harness (same statement, same fragment widths); the H100 recording
//! (`tests/vectors/matrix/mma.bin.gz`) agrees with the reference of every form (integer and f64:
//! the PTX semantics; f16, bf16, tf32: the sm_90 tensor-core model; fp8: the H100's own fp8
//! path, `model::dot_fp8_sync`); and the `--target amd` translation of every form, run on the
//! lockstep wave model (`tests/wave_sim/sim.h`) on wave32 and on wave64 — two different recorded
//! warps in the two halves, and an idle lower half — gives every output register bit for bit as
//! recorded. Until a form is recorded its reference stands in (and says so). Needs only `g++`
//! (or `$CXX`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use ptx2hip_core::lower::{self, RuleSet, Target, TensorModel};
use ptx2hip_core::scan::AsmStatement;
use ptx2hip_verify::matrix::amd;
use ptx2hip_verify::matrix::cases::{inputs_digest, unpack};
use ptx2hip_verify::matrix::reference::expected;
use ptx2hip_verify::matrix::{all_forms, generate, Case, Elem, MmaForm, Operand};
use ptx2hip_verify::warp::Recording;

fn recording() -> Option<Recording> {
    let path = ptx2hip_verify::repo_root().join("tests/vectors/matrix/mma.bin.gz");
    path.exists()
        .then(|| Recording::read(&path).unwrap_or_else(|e| panic!("{e}")))
}

fn cxx() -> String {
    std::env::var("CXX").unwrap_or_else(|_| "g++".to_string())
}

fn sim_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/wave_sim")
}

fn translated_forms(rules: &RuleSet) -> Vec<MmaForm> {
    ptx2hip_verify::matrix::amd::translated_forms(rules).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_translated_form_is_recorded_with_the_rules_fragment_widths() {
    let rules = RuleSet::embedded().unwrap();
    let forms = translated_forms(&rules);
    assert!(forms.len() >= 74, "{} forms", forms.len());
    for f in forms {
        // The canonical statement has the harness's register counts; the rule table accepts it
        // only if its fragment table gives the same widths.
        let stmt = AsmStatement::synthetic(&f.ptx(), &f.constraints());
        let a = lower::analyze(&stmt, &rules, Target::Amd);
        assert!(a.outcome.is_ok(), "{}: {:?}", f.name(), a.outcome.err());
    }
}

/// The D matrix of each case: recorded when the recording has the form, else the reference.
fn truth(form: &MmaForm, cases: &[Case], rec: Option<&Recording>) -> Option<(Vec<Vec<u64>>, bool)> {
    if let Some(r) = rec.and_then(|r| r.form(&form.name())) {
        assert_eq!(
            r.ptx,
            form.ptx(),
            "{}: recorded from another statement",
            form.name()
        );
        assert_eq!(r.cases, cases.len(), "{}: stale recording", form.name());
        assert_eq!(
            r.inputs_digest,
            inputs_digest(form, cases),
            "{}: other inputs",
            form.name()
        );
        let d = (0..cases.len())
            .map(|k| {
                let lanes: Vec<&[u32]> = (0..32).map(|l| r.lane(k, l)).collect();
                unpack(form, Operand::D, &lanes)
            })
            .collect();
        return Some((d, true));
    }
    let d: Option<Vec<Vec<u64>>> = cases
        .iter()
        .map(|c| expected(form, &c.a, &c.b, &c.c))
        .collect();
    d.map(|d| (d, false))
}

#[test]
fn recording_agrees_with_the_ptx_reference() {
    let Some(rec) = recording() else {
        eprintln!("note: no mma recording yet (docs/MATRIX.md)");
        return;
    };
    let mut checked = 0;
    for form in all_forms() {
        let Some(r) = rec.form(&form.name()) else {
            continue;
        };
        let cases = generate(&form);
        for (k, c) in cases.iter().enumerate() {
            let Some(want) = expected(&form, &c.a, &c.b, &c.c) else {
                break;
            };
            let lanes: Vec<&[u32]> = (0..32).map(|l| r.lane(k, l)).collect();
            let got = unpack(&form, Operand::D, &lanes);
            let bad = got.iter().zip(&want).filter(|(g, w)| g != w).count();
            assert_eq!(bad, 0, "{} case {k}: {bad} elements differ", form.name());
            checked += 1;
        }
    }
    eprintln!("{checked} recorded warps agree with the reference");
}

/// `matrix_forms.h`: the helpers and one function per form reading its input words and writing
/// its output words.
fn forms_header(forms: &[MmaForm], rules: &RuleSet) -> String {
    let mut s = String::new();
    let mut all_helpers = Vec::new();
    let mut bodies = Vec::new();
    for f in forms {
        let stmt = AsmStatement::synthetic(&f.ptx(), &f.constraints());
        let t = lower::analyze(&stmt, rules, Target::Amd)
            .outcome
            .unwrap_or_else(|u| panic!("{}: {}", f.name(), u.message));
        all_helpers.extend(t.helpers.clone());
        bodies.push(lower::render(&t.lines, "  ", "  "));
    }
    s.push_str("#define __builtin_constant_p(x) 0\n");
    s.push_str(&rules.helper_definitions(all_helpers.iter(), Target::Amd));
    for (k, (f, lines)) in forms.iter().zip(&bodies).enumerate() {
        let _ = writeln!(s, "// {}", f.ptx());
        let _ = writeln!(s, "static void form_{k}(const uint32_t* x, uint32_t* y) {{");
        let ty = |c: &str| match c {
            "f" => "float",
            "d" => "double",
            _ => "uint32_t",
        };
        let mut op = 0;
        for _ in 0..f.regs(Operand::D) {
            let _ = writeln!(s, "  {} op{op} = 0;", ty(f.constraint(Operand::D)));
            op += 1;
        }
        let mut word = 0;
        for o in [Operand::A, Operand::B, Operand::C] {
            for _ in 0..f.regs(o) {
                match f.constraint(o) {
                    "f" => {
                        let _ = writeln!(s, "  float op{op}; memcpy(&op{op}, x + {word}, 4);");
                    }
                    "d" => {
                        let _ = writeln!(s, "  double op{op}; memcpy(&op{op}, x + {word}, 8);");
                    }
                    _ => {
                        let _ = writeln!(s, "  uint32_t op{op} = x[{word}];");
                    }
                }
                word += f.reg_words(o);
                op += 1;
            }
        }
        for l in lines {
            s.push_str(l);
            s.push('\n');
        }
        let bytes = 4 * f.reg_words(Operand::D);
        for r in 0..f.regs(Operand::D) {
            let _ = writeln!(
                s,
                "  memcpy(y + {}, &op{r}, {bytes});",
                r * f.reg_words(Operand::D)
            );
        }
        s.push_str("}\n");
    }
    let list = |g: &dyn Fn(&MmaForm) -> String| forms.iter().map(g).collect::<Vec<_>>().join(", ");
    let _ = writeln!(
        s,
        "typedef void (*form_fn)(const uint32_t*, uint32_t*);\nstatic const form_fn forms[] = {{ {} }};",
        (0..forms.len()).map(|k| format!("form_{k}")).collect::<Vec<_>>().join(", ")
    );
    let _ = writeln!(
        s,
        "static const unsigned in_words[] = {{ {} }};\nstatic const unsigned out_words[] = {{ {} }};",
        list(&|f| f.in_words().to_string()),
        list(&|f| f.out_words().to_string())
    );
    s
}

/// One wave: a form and, per 32-lane half, a case (or an idle half).
struct Job {
    form: usize,
    wave: usize,
    halves: [Option<usize>; 2],
}

/// Wave32: each case alone. Wave64: case i beside case (i + n/2 + 1) mod n, and every fourth
/// case in the upper half beside an idle lower half.
fn jobs(cases: &[usize]) -> Vec<Job> {
    let mut v = Vec::new();
    for (form, &n) in cases.iter().enumerate() {
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
            if i % 4 == 0 {
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

fn simulate(forms: &[MmaForm], rules: &RuleSet, dir: &Path, defines: &[&str]) -> Vec<String> {
    let rec = recording();
    let cases: Vec<Vec<Case>> = forms.iter().map(generate).collect();
    let truths: Vec<_> = forms
        .iter()
        .zip(&cases)
        .map(|(f, c)| truth(f, c, rec.as_ref()))
        .collect();
    let runnable: Vec<usize> = (0..forms.len()).filter(|&k| truths[k].is_some()).collect();
    for (k, t) in truths.iter().enumerate() {
        match t {
            Some((_, false)) => eprintln!(
                "note: {} not recorded: checked against the reference",
                forms[k].name()
            ),
            None => eprintln!(
                "note: {} not recorded and no reference: not simulated",
                forms[k].name()
            ),
            _ => {}
        }
    }
    let sim_forms: Vec<MmaForm> = runnable.iter().map(|&k| forms[k]).collect();
    std::fs::write(dir.join("matrix_forms.h"), forms_header(&sim_forms, rules)).unwrap();
    let bin = dir.join("sim");
    let out = Command::new(cxx())
        .args(["-std=c++17", "-O1", "-w", "-include", "cstring"])
        .args(defines)
        .arg("-I")
        .arg(dir)
        .arg("-I")
        .arg(sim_dir())
        .arg("-o")
        .arg(&bin)
        .arg(sim_dir().join("matrix_check.cpp"))
        .output()
        .expect("run the C++ compiler");
    assert!(
        out.status.success(),
        "simulator does not compile:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let counts: Vec<usize> = runnable.iter().map(|&k| cases[k].len()).collect();
    let jobs = jobs(&counts);
    let mut b = Vec::new();
    let put = |w: u32, b: &mut Vec<u8>| b.extend_from_slice(&w.to_le_bytes());
    put(jobs.len() as u32, &mut b);
    for j in &jobs {
        let (f, cs) = (&sim_forms[j.form], &cases[runnable[j.form]]);
        put(j.form as u32, &mut b);
        put(j.wave as u32, &mut b);
        for h in 0..j.wave / 32 {
            match j.halves[h] {
                Some(c) => {
                    put(1, &mut b);
                    for lane in 0..32 {
                        for w in cs[c].lane_words(f, lane) {
                            put(w, &mut b);
                        }
                    }
                }
                None => put(0, &mut b),
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
    let mut bad = Vec::new();
    let mut per_form = std::collections::BTreeMap::new();
    let mut at = 0;
    for j in &jobs {
        let f = &sim_forms[j.form];
        let (want, recorded) = truths[runnable[j.form]].as_ref().unwrap();
        let ow = f.out_words();
        for h in 0..j.wave / 32 {
            let Some(c) = j.halves[h] else { continue };
            let lanes: Vec<&[u32]> = (0..32)
                .map(|l| &words[at + l * ow..at + (l + 1) * ow])
                .collect();
            let got = unpack(f, Operand::D, &lanes);
            for (e, (g, w)) in got.iter().zip(&want[c]).enumerate() {
                if g != w {
                    *per_form.entry(f.name()).or_insert(0usize) += 1;
                }
                if g != w && bad.len() < 12 {
                    bad.push(format!(
                        "{} (wave{}, half {h}, case {c}, element {e}): {} {w:#x}, simulated {g:#x}",
                        f.name(),
                        j.wave,
                        if *recorded { "H100" } else { "reference" }
                    ));
                }
            }
            at += 32 * ow;
        }
    }
    assert_eq!(at, words.len(), "simulator output has the wrong length");
    for (name, n) in &per_form {
        bad.push(format!("{name}: {n} elements differ"));
    }
    bad
}

#[test]
fn amd_translation_matches_the_h100_on_wave64_and_wave32() {
    let rules = RuleSet::embedded().unwrap();
    let forms = translated_forms(&rules);
    let dir = tempfile::tempdir().unwrap();
    let bad = simulate(&forms, &rules, dir.path(), &[]);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The integer forms again with the dot-product instructions of gfx942 (sdot4/udot4/sdot8/udot8,
/// mixed signs by correction) and of gfx11 (sudot4/sudot8), modelled from the ISA documents.
#[test]
fn integer_dot_instructions_match_the_h100() {
    let rules = RuleSet::embedded().unwrap();
    let forms: Vec<MmaForm> = translated_forms(&rules)
        .into_iter()
        .filter(|f| f.a.is_integer() && f.bitop.is_none())
        .collect();
    for processor in ["-D__gfx942__", "-D__gfx1100__"] {
        let dir = tempfile::tempdir().unwrap();
        let bad = simulate(&forms, &rules, dir.path(), &[processor]);
        assert!(bad.is_empty(), "{processor}: {}", bad.join("\n"));
    }
}

/// Every translated form compiles for gfx90a, gfx942 and gfx1100 (wave32 and wave64) as a
/// project built with `-Wall -Wextra -Werror` compiles it.
/// Every float form whose rule has a `[rule.fast]` translation takes it under `--fast` (and says
/// so in `Translation::fast`), and only then: exact is the default.
#[test]
fn the_fast_tier_is_taken_only_under_fast() {
    let rules = RuleSet::embedded().unwrap();
    let mut fast_forms = 0;
    for f in translated_forms(&rules) {
        let stmt = ptx2hip_core::scan::AsmStatement::synthetic(&f.ptx(), &f.constraints());
        let mut settings = ptx2hip_core::lower::Settings::from(ptx2hip_core::lower::Target::Amd);
        let exact = ptx2hip_core::lower::analyze(&stmt, &rules, settings)
            .outcome
            .unwrap();
        assert!(exact.fast.is_empty(), "{}", f.name());
        settings.fast = true;
        let t = ptx2hip_core::lower::analyze(&stmt, &rules, settings)
            .outcome
            .unwrap();
        let code = ptx2hip_core::lower::render(&t.lines, "", "  ").join("\n");
        let has_fast = rules.rule(&t.rules[0]).unwrap().fast.is_some();
        assert_eq!(!t.fast.is_empty(), has_fast, "{}", f.name());
        assert_eq!(
            code.contains("ptx2hip_mma_fast_"),
            has_fast,
            "{}: {code}",
            f.name()
        );
        fast_forms += usize::from(has_fast);
    }
    // f16 (f32 and f16 accumulators), bf16 and tf32 in both shapes.
    assert!(fast_forms >= 8, "{fast_forms} forms with a fast tier");
}

#[test]
fn amd_translations_compile_for_every_processor() {
    let Ok(clang) = which_clang() else {
        assert!(std::env::var_os("CI").is_none(), "clang++-19 not found");
        eprintln!("note: clang++-19 not found: not compiled");
        return;
    };
    let rules = RuleSet::embedded().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let forms = translated_forms(&rules);
    // The float forms under the sm_80 model too (the same gathers, other block parameters).
    let floats: Vec<MmaForm> = forms
        .iter()
        .filter(|f| !f.a.is_integer() && f.a != Elem::F64)
        .copied()
        .collect();
    let sources = [
        (
            "sm90.hip",
            amd::source(&rules, &forms, TensorModel::Sm90, false).unwrap(),
        ),
        (
            "sm80.hip",
            amd::source(&rules, &floats, TensorModel::Sm80, false).unwrap(),
        ),
        // The --fast tier: MFMA/WMMA under a whole-wave test, the exact code otherwise.
        (
            "fast.hip",
            amd::source(&rules, &floats, TensorModel::Sm90, true).unwrap(),
        ),
    ];
    let processors: [&[&str]; 4] = [
        &["--offload-arch=gfx90a"],
        &["--offload-arch=gfx942"],
        &["--offload-arch=gfx1100"],
        &["--offload-arch=gfx1100", "-mwavefrontsize64"],
    ];
    for (name, src) in sources {
        let file = dir.path().join(name);
        std::fs::write(&file, src).unwrap();
        for arch in processors {
            let out = Command::new(&clang)
                .args([
                    "-x",
                    "hip",
                    "-std=c++17",
                    "--cuda-device-only",
                    "-nogpulib",
                    "-O1",
                    "-S",
                ])
                .args(["-Wall", "-Wextra", "-Werror", "-o", "/dev/null"])
                .args(arch)
                .arg(&file)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{name} {arch:?}:\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}

fn which_clang() -> Result<String, ()> {
    let c = std::env::var("CLANG").unwrap_or_else(|_| "clang++-19".to_string());
    Command::new(&c)
        .arg("--version")
        .output()
        .map(|_| c)
        .map_err(|_| ())
}

/// clang 19 reads element 0 for any element access of an `ext_vector_type` value (`v[i]`, `v.y`,
/// `__builtin_bit_cast(T, v[2])`; llvm/llvm-project #95673, tensor-cores.md §6): no helper may
/// access an element of a variable or parameter whose type is such a vector. Copy the vector to
/// an array (or a struct) first.
#[test]
fn no_helper_accesses_an_element_of_a_vector_value() {
    let rules = RuleSet::embedded().unwrap();
    let mut found = Vec::new();
    for (name, h) in &rules.helpers {
        for text in [Some(&h.portable), h.amd.as_ref()].into_iter().flatten() {
            for v in vector_variables(text) {
                for access in [format!("{v}["), format!("{v}.")] {
                    if word_occurrences(text, &access) > 0 {
                        found.push(format!("{name}: `{access}`"));
                    }
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "element access of a vector value: {found:?}"
    );
}

/// Names declared with an `ext_vector_type` typedef (or the attribute itself) in `text`.
fn vector_variables(text: &str) -> Vec<String> {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut types = Vec::new();
    for stmt in text.split(';') {
        if stmt.contains("ext_vector_type") {
            if let Some(before) = stmt.split("__attribute__").next() {
                if let Some(name) = before
                    .split(|c: char| !is_ident(c))
                    .rfind(|w| !w.is_empty())
                {
                    types.push(name.to_string());
                }
            }
        }
    }
    let mut vars = Vec::new();
    for ty in &types {
        let mut rest = text;
        while let Some(i) = rest.find(ty.as_str()) {
            let before_ok = rest[..i].chars().last().is_none_or(|c| !is_ident(c));
            let after = &rest[i + ty.len()..];
            rest = after;
            if !before_ok || after.chars().next().is_some_and(is_ident) {
                continue;
            }
            let decl = after.trim_start_matches([' ', '&', '*']);
            let var: String = decl.chars().take_while(|&c| is_ident(c)).collect();
            if !var.is_empty()
                && !var.starts_with("__")
                && decl.len() < after.len()
                && !types.contains(&var)
            {
                vars.push(var);
            }
        }
    }
    vars
}

fn word_occurrences(text: &str, pat: &str) -> usize {
    text.match_indices(pat)
        .filter(|(i, _)| {
            text[..*i]
                .chars()
                .last()
                .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'))
        })
        .count()
}

#[test]
fn the_vector_check_sees_element_accesses() {
    let text = "typedef float v4 __attribute__((ext_vector_type(4)));\nv4 acc = x;\nfloat y = __builtin_bit_cast(float, acc[2]);";
    assert_eq!(vector_variables(text), ["acc"]);
    assert_eq!(word_occurrences(text, "acc["), 1);
}
