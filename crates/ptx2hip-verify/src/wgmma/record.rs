//! The committed recording `tests/vectors/wgmma/wgmma.bin.gz`, and its import from a run's
//! `out/` directory.
//!
//! gzip of: the line `P2HG1`; one line of JSON `{gpu, driver, nvcc, date, arch}`; then per form
//! one line of JSON `{set, name, cases, digests, smem_base}` followed by little-endian u32: with
//! `digests` false every thread's D registers case by case (`cases * 128 * d_regs` words), else
//! per case the 64-bit digest of those words ([`super::model::digest`], low word first). Inputs
//! are regenerated from the set and the form's name ([`super::cases::generate`]).

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;

use serde_json::{json, Value};

use super::cases::{generate, Case};
use super::forms::WgmmaForm;
use super::harness::input_file;
use super::model::digest;
use super::sets::Set;

const MAGIC: &str = "P2HG1";

/// One recorded form.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordedForm {
    pub set: Set,
    pub name: String,
    pub cases: usize,
    /// True: `words` holds two words (a digest) per case; false: every D word.
    pub digests: bool,
    /// The shared-memory address the image had on the GPU (a multiple of 1024).
    pub smem_base: u32,
    /// FNV-1a of the form's input file as recorded: regenerated inputs must match it.
    pub inputs_digest: u64,
    pub words: Vec<u32>,
}

impl RecordedForm {
    /// The recorded D words of case `k`, every thread's registers in turn (forms with outputs).
    pub fn outputs(&self, k: usize) -> &[u32] {
        let per = self.words.len() / self.cases.max(1);
        &self.words[k * per..(k + 1) * per]
    }

    /// The recorded digest of case `k`.
    pub fn digest(&self, k: usize) -> u64 {
        if self.digests {
            u64::from(self.words[2 * k]) | u64::from(self.words[2 * k + 1]) << 32
        } else {
            digest(self.outputs(k).iter().copied())
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Recording {
    pub header: Value,
    pub forms: Vec<RecordedForm>,
}

impl Recording {
    pub fn form(&self, set: Set, name: &str) -> Option<&RecordedForm> {
        self.forms.iter().find(|f| f.set == set && f.name == name)
    }

    pub fn read(path: &Path) -> Result<Recording, String> {
        let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut r = BufReader::new(flate2::read::GzDecoder::new(file));
        let mut line = String::new();
        let mut next = |r: &mut BufReader<_>| -> Result<String, String> {
            line.clear();
            r.read_line(&mut line).map_err(|e| e.to_string())?;
            Ok(line.trim_end().to_string())
        };
        if next(&mut r)? != MAGIC {
            return Err(format!("{}: not a {MAGIC} file", path.display()));
        }
        let header: Value = serde_json::from_str(&next(&mut r)?).map_err(|e| e.to_string())?;
        let mut forms = Vec::new();
        loop {
            let l = next(&mut r)?;
            if l.is_empty() {
                break;
            }
            let v: Value = serde_json::from_str(&l).map_err(|e| e.to_string())?;
            let set = Set::of_name(v["set"].as_str().unwrap_or_default())
                .ok_or_else(|| format!("unknown set in {l}"))?;
            let words = v["words"].as_u64().unwrap_or_default() as usize;
            let mut bytes = vec![0u8; 4 * words];
            r.read_exact(&mut bytes).map_err(|e| e.to_string())?;
            forms.push(RecordedForm {
                set,
                name: v["name"].as_str().unwrap_or_default().to_string(),
                cases: v["cases"].as_u64().unwrap_or_default() as usize,
                digests: v["digests"].as_bool().unwrap_or_default(),
                smem_base: v["smem_base"].as_u64().unwrap_or_default() as u32,
                inputs_digest: u64::from_str_radix(v["inputs_digest"].as_str().unwrap_or(""), 16)
                    .unwrap_or(0),
                words: bytes
                    .chunks_exact(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect(),
            });
        }
        Ok(Recording { header, forms })
    }

    pub fn write(&self, path: &Path) -> Result<(), String> {
        let file = std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut w = flate2::write::GzEncoder::new(file, flate2::Compression::best());
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC.as_bytes());
        out.push(b'\n');
        out.extend_from_slice(self.header.to_string().as_bytes());
        out.push(b'\n');
        for f in &self.forms {
            let meta = json!({
                "set": f.set.name(),
                "name": f.name,
                "cases": f.cases,
                "digests": f.digests,
                "smem_base": f.smem_base,
                "inputs_digest": format!("{:016x}", f.inputs_digest),
                "words": f.words.len(),
            });
            out.extend_from_slice(meta.to_string().as_bytes());
            out.push(b'\n');
            for x in &f.words {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        w.write_all(&out).map_err(|e| e.to_string())?;
        w.finish().map_err(|e| e.to_string())?;
        Ok(())
    }
}

/// The words of `out/fF.out` or `out/fF.out.gz`.
pub fn read_out(out: &Path, f: &str) -> Option<Vec<u32>> {
    let plain = out.join(format!("{f}.out"));
    let bytes = match std::fs::read(&plain) {
        Ok(b) => b,
        Err(_) => {
            let file = std::fs::File::open(out.join(format!("{f}.out.gz"))).ok()?;
            let mut b = Vec::new();
            flate2::read::GzDecoder::new(file)
                .read_to_end(&mut b)
                .ok()?;
            b
        }
    };
    Some(
        bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect(),
    )
}

/// What an import found.
pub struct Imported {
    pub recording: Recording,
    /// `(set, form name, why)` for forms of today's sets without outputs.
    pub missing: Vec<(Set, String, String)>,
}

/// Reads a run's `out/` directory: every form of today's sets it recorded, with its full
/// outputs where [`Set::keeps_outputs`] and per-case digests otherwise; a form the run did not
/// record keeps its place from `earlier`.
pub fn import(out: &Path, earlier: Option<&Recording>) -> Result<Imported, String> {
    let read = |name: &str| {
        std::fs::read_to_string(out.join(name))
            .map(|s| s.trim().to_string())
            .unwrap_or_default()
    };
    let gpu = read("gpu.txt");
    let (name, driver) = gpu.split_once(',').unwrap_or((gpu.as_str(), ""));
    let header = json!({
        "gpu": name.trim(),
        "driver": driver.trim(),
        "nvcc": read("nvcc.txt"),
        "date": read("date.txt"),
        "arch": read("arch.txt"),
    });
    let index: Vec<(String, String, String)> = read("forms.tsv")
        .lines()
        .filter_map(|l| {
            let v: Vec<&str> = l.split('\t').collect();
            (v.len() == 4).then(|| (v[0].to_string(), v[1].to_string(), v[3].to_string()))
        })
        .collect();
    let mut forms = Vec::new();
    let mut missing = Vec::new();
    for set in Set::ALL {
        for form in set.forms() {
            let name = form.name();
            let f = index
                .iter()
                .find(|(_, s, n)| s == set.name() && *n == name)
                .map(|x| x.0.clone());
            let words = f.as_deref().and_then(|f| read_out(out, f));
            match (f, words) {
                (Some(f), Some(words)) => match recorded(set, &form, &words) {
                    Some(r) => forms.push(r),
                    None => missing.push((set, name, format!("{f}: {} words", words.len()))),
                },
                (f, _) => match earlier.and_then(|r| r.form(set, &name)) {
                    Some(r) => forms.push(r.clone()),
                    None => {
                        let why = f.map(|f| read(&format!("{f}.cerr"))).unwrap_or_default();
                        missing.push((set, name, why));
                    }
                },
            }
        }
    }
    Ok(Imported {
        recording: Recording { header, forms },
        missing,
    })
}

/// FNV-1a over the bytes of the input file of `form` with `cases` (what `run.sh` fed the GPU).
pub fn inputs_digest<'a>(
    set: Set,
    form: &WgmmaForm,
    cases: impl Iterator<Item = &'a Case> + Clone,
) -> u64 {
    let bytes = input_file(form, cases, set == Set::Sweep);
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// A form's recording from the words of its `.out` (outputs or digests, then the base).
fn recorded(set: Set, form: &WgmmaForm, words: &[u32]) -> Option<RecordedForm> {
    let cases = set.cases(form);
    let per = 128 * form.d_regs();
    let (&smem_base, body) = words.split_last()?;
    let full = body.len() == cases * per;
    if !full && body.len() != 2 * cases {
        return None;
    }
    let mut r = RecordedForm {
        set,
        name: form.name(),
        cases,
        digests: !full,
        smem_base,
        inputs_digest: inputs_digest(set, form, generate(set, form).iter()),
        words: body.to_vec(),
    };
    if full && !set.keeps_outputs(form) {
        r.words = (0..cases)
            .flat_map(|k| {
                let d = digest(body[k * per..(k + 1) * per].iter().copied());
                [d as u32, (d >> 32) as u32]
            })
            .collect();
        r.digests = true;
    }
    Some(r)
}

/// The rule that translates the recorded form `name` ([`crate::wgmma::WgmmaForm::name`]: the
/// opcode, then `a=desc` or `a=regs`), or `None` when the table refuses it: among the rules
/// claiming the opcode's modifiers, the one whose A operand is a register fragment exactly when
/// A comes from registers (the descriptor rules take a 64-bit scalar).
pub fn rule_of(rules: &ptx2hip_core::lower::RuleSet, name: &str) -> Option<String> {
    use ptx2hip_core::rules::OperandKind;
    let (opcode, rest) = name.split_once(' ')?;
    let from_regs = rest.starts_with("a=regs");
    let mut parts = opcode.split('.');
    let root = parts.next()?;
    let modifiers: Vec<String> = parts.map(str::to_string).collect();
    let code = rules
        .matching(root, &modifiers)
        .find(|(rule, _)| {
            rule.operand_specs().iter().any(|spec| {
                spec.name == "a" && matches!(spec.kind, OperandKind::Fragment { .. }) == from_regs
            })
        })
        .map(|(rule, _)| rule.code.clone());
    code
}
