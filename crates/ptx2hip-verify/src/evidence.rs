//! The product's evidence table, `crates/ptx2hip-core/src/rules/evidence/table.rs`: for every rule, which recording checks
//! it, how many forms and vectors (or, for the warp-level rules, warps), and the hardware that
//! recorded them. It is derived from the recordings alone (their headers and form lists), so it
//! cannot drift from them: the `vectors` tool rewrites it after every change to the recordings
//! and the golden test compares it with what this module derives.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use crate::golden::GoldenFile;
use crate::warp::Recording;

/// Where the product keeps the table, relative to the repository root.
pub const TABLE_PATH: &str = "crates/ptx2hip-core/src/rules/evidence/table.rs";

/// The per-warp recording, relative to the vector directory (its forms: [`crate::warp`]).
pub const WARP_RECORDING: &str = "warp/warp.bin.gz";

/// The per-warp recording of the matrix-fragment moves, in the same format (its forms:
/// [`crate::fragment`]).
pub const FRAGMENT_RECORDING: &str = "fragment/fragment.bin.gz";

/// The per-warp recording of the `mma.sync` forms, in the same format (its forms:
/// [`crate::matrix`]; a form recorded but refused by the table has no rule and is not counted).
pub const MATRIX_RECORDING: &str = "matrix/mma.bin.gz";

/// The per-warpgroup recording of the `wgmma` forms (its forms: [`crate::wgmma`]; docs/WGMMA.md).
/// A case is one warpgroup, four PTX warps, which the table counts as such.
pub const WGMMA_RECORDING: &str = "wgmma/wgmma.bin.gz";

/// PTX warps in a warpgroup: the warps a recorded `wgmma` case counts for.
const WARPS_PER_WARPGROUP: usize = 4;

/// The per-warp recordings with the constant the table names each by.
const PER_WARP: [(&str, &str); 3] = [
    ("WARP", WARP_RECORDING),
    ("FRAGMENT", FRAGMENT_RECORDING),
    ("MATRIX", MATRIX_RECORDING),
];

/// Printed by the tools after a recording changes: the table is derived from all of them.
pub const UPDATE_HINT: &str = "vector files changed: in the repository, run `cargo run -p ptx2hip-verify --bin vectors -- evidence` to update crates/ptx2hip-core/src/rules/evidence/table.rs";

/// One rule's line of the table: its recording's constant, forms, and vectors or warps.
struct Row {
    constant: String,
    forms: usize,
    count: usize,
}

/// Counts the forms of `rule` in the recording `constant`; a rule recorded in two files is an
/// error (the product shows one recording per rule).
fn count(
    rows: &mut BTreeMap<String, Row>,
    rule: &str,
    constant: &str,
    n: usize,
) -> Result<(), String> {
    let row = rows.entry(rule.to_string()).or_insert_with(|| Row {
        constant: constant.to_string(),
        forms: 0,
        count: 0,
    });
    if row.constant != constant {
        return Err(format!(
            "{rule}: recorded in two files ({} and {constant})",
            row.constant
        ));
    }
    row.forms += 1;
    row.count += n;
    Ok(())
}

/// `const NAME: Recording = ...;` for a recording's header.
fn recording(out: &mut String, constant: &str, file: &str, header: &serde_json::Value) {
    let field = |key: &str| header.get(key).and_then(|v| v.as_str()).unwrap_or("");
    let _ = writeln!(
        out,
        "const {constant}: Recording = Recording {{ file: {file:?}, gpu: {:?}, driver: {:?}, nvcc: {:?}, date: {:?} }};",
        field("gpu"),
        field("driver"),
        field("nvcc"),
        field("date"),
    );
}

/// The Rust source of the evidence table for the per-thread vector files `*.bin.gz` in `vecdir`
/// and its per-warp recordings [`WARP_RECORDING`], [`FRAGMENT_RECORDING`], [`MATRIX_RECORDING`] and
/// (per warpgroup) [`WGMMA_RECORDING`].
pub fn table_source(vecdir: &Path) -> Result<String, String> {
    let mut files: Vec<_> = std::fs::read_dir(vecdir)
        .map_err(|e| format!("{}: {e}", vecdir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".bin.gz"))
        .collect();
    files.sort();
    let mut recordings = String::new();
    let mut per_thread: BTreeMap<String, Row> = BTreeMap::new();
    for path in &files {
        let golden = GoldenFile::read(path)?;
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let constant = name.trim_end_matches(".bin.gz").to_uppercase();
        recording(&mut recordings, &constant, &name, &golden.header);
        for form in &golden.forms {
            count(&mut per_thread, &form.rule, &constant, form.count())?;
        }
    }
    let mut per_warp: BTreeMap<String, Row> = BTreeMap::new();
    for (constant, file) in PER_WARP {
        let rec = Recording::read(&vecdir.join(file))?;
        recording(&mut recordings, constant, file, &rec.header);
        for form in rec.forms.iter().filter(|f| !f.rule.is_empty()) {
            if per_thread.contains_key(&form.rule) {
                return Err(format!(
                    "{}: recorded per thread and per warp ({file})",
                    form.rule
                ));
            }
            count(&mut per_warp, &form.rule, constant, form.cases)?;
        }
    }
    let wgmma = crate::wgmma::record::Recording::read(&vecdir.join(WGMMA_RECORDING))?;
    recording(&mut recordings, "WGMMA", WGMMA_RECORDING, &wgmma.header);
    let rules = ptx2hip_core::lower::RuleSet::embedded().map_err(|e| e.to_string())?;
    for form in &wgmma.forms {
        if let Some(rule) = crate::wgmma::record::rule_of(&rules, &form.name) {
            count(
                &mut per_warp,
                &rule,
                "WGMMA",
                form.cases * WARPS_PER_WARPGROUP,
            )?;
        }
    }
    let mut s = String::from(
        "// @generated by `cargo run -p ptx2hip-verify --bin vectors -- evidence` from\n\
         // tests/vectors/*.bin.gz, tests/vectors/warp/warp.bin.gz, tests/vectors/fragment/fragment.bin.gz,\n\
         // tests/vectors/matrix/mma.bin.gz and tests/vectors/wgmma/wgmma.bin.gz (docs/VECTORS.md,\n\
         // docs/WARP.md, docs/FRAGMENTS.md, docs/MATRIX.md, docs/WGMMA.md).\n\
         // Do not edit: the golden test compares it with the recordings. One rule per line.\n\n\
         use super::{Evidence, Recording, WarpEvidence};\n\n",
    );
    s.push_str(&recordings);
    s.push_str("\npub(super) const TABLE: &[Evidence] = &[\n");
    for (rule, row) in &per_thread {
        let _ = writeln!(
            s,
            "    Evidence {{ rule: {rule:?}, forms: {}, vectors: {}, recording: &{} }},",
            row.forms, row.count, row.constant
        );
    }
    s.push_str("];\n\npub(super) const WARP_TABLE: &[WarpEvidence] = &[\n");
    for (rule, row) in &per_warp {
        let _ = writeln!(
            s,
            "    WarpEvidence {{ rule: {rule:?}, forms: {}, warps: {}, recording: &{} }},",
            row.forms, row.count, row.constant
        );
    }
    s.push_str("];\n");
    Ok(s)
}
