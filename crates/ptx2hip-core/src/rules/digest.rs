//! The table's meaning as text: for every rule, what it claims and what it emits for each form
//! (templates per target with their lookups resolved, helpers, fragment widths), its operands,
//! keys and evidence; every unsupported entry, special register and helper definition. The rule
//! files may be rewritten for reuse (file-level lookups, cartesian excludes, shared policies) only
//! as long as this text stays the same: the test below compares it with `digest.txt`, recorded
//! from the table before the rewrite, and `PTX2HIP_UPDATE_DIGEST=1` records a deliberate change.
//!
//! What the table holds only for readers and testers (`[[rule.test]]` cases, which the sweep of
//! canonical forms may make redundant) is left out; long texts (docs, helper bodies) appear as a
//! hash, so a change shows which entry changed without the fixture repeating the table.

use std::fmt::Write;

use super::evidence;
use super::schema::{OperandKind, Rule};
use super::RuleSet;
use crate::vocabulary::Target;

/// FNV-1a, 64 bits: a hash of long texts that never changes with the toolchain.
fn hash(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("#{h:016x}")
}

/// The table's meaning, entry by entry: `(key, text)` for each rule (by code), the unsupported
/// entries, the special registers and each helper, each sorted so that moving an entry between
/// files changes nothing.
pub(super) fn entries(set: &RuleSet) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rules: Vec<&Rule> = set.rules.iter().collect();
    rules.sort_by(|a, b| a.code.cmp(&b.code));
    for r in rules {
        let mut text = String::new();
        rule(&mut text, r);
        out.push((format!("rule {} forms={}", r.code, r.forms().len()), text));
    }
    let mut unsupported: Vec<String> = set
        .unsupported
        .iter()
        .map(|u| {
            format!(
                "unsupported {} {:?} exact={} {:?}\n",
                u.opcode, u.modifiers, u.exact, u.reason
            )
        })
        .collect();
    unsupported.sort();
    out.push(("unsupported".to_string(), unsupported.concat()));
    let mut specials: Vec<_> = set.specials.values().collect();
    specials.sort_by(|a, b| a.name.cmp(&b.name));
    for s in specials {
        let text = format!(
            "special {} {} portable={:?} amd={:?} unsupported={:?} doc={} helpers={:?}\n",
            s.name,
            s.ty,
            s.portable,
            s.amd,
            s.unsupported,
            hash(&s.doc),
            s.helpers
        );
        out.push((format!("special {}", s.name), text));
    }
    for (rank, name) in set.helper_order.iter().enumerate() {
        let Some(h) = set.helpers.get(name) else {
            continue;
        };
        let text = format!(
            "helper {} rank={rank} requires={:?}\nportable:\n{}\namd:\n{}\n",
            h.name,
            h.requires,
            h.portable,
            h.amd.as_deref().unwrap_or("-")
        );
        out.push((format!("helper {}", h.name), text));
    }
    out
}

/// The digest recorded in the fixture: one line per entry, its key and the hash of its text.
pub(super) fn digest(entries: &[(String, String)]) -> String {
    entries
        .iter()
        .map(|(key, text)| format!("{key} {}\n", hash(text)))
        .collect()
}

fn rule(out: &mut String, r: &Rule) {
    let _ = writeln!(
        out,
        "rule {} {} family={} opcode={} formerly={:?} priority={} evidence={}",
        r.code,
        r.name,
        r.family,
        r.opcode,
        r.formerly,
        r.priority,
        evidence::level(r).as_str()
    );
    let _ = writeln!(
        out,
        "  summary={:?} doc={} example={:?} {:?}",
        r.summary,
        hash(&r.doc),
        r.example.ptx,
        r.example.constraints
    );
    let _ = writeln!(
        out,
        "  warp={} memory={} carry={:?} approximate={} max_ulp={:?} abs_tol={:?} value_neutral={:?} immediates={:?}",
        r.warp, r.memory, r.carry, r.approximate, r.max_ulp, r.abs_tol, r.value_neutral, r.immediates
    );
    let _ = writeln!(
        out,
        "  unverifiable={:?} decomposition={:?} portable_unsupported={:?} fast_deviation={:?} helpers={:?}",
        r.unverifiable,
        r.decomposition,
        r.portable_unsupported,
        r.fast.as_ref().map(|f| &f.deviation),
        r.helpers
    );
    for s in r.operand_specs() {
        let default = s
            .default
            .as_ref()
            .map_or(String::new(), |d| format!(" default={d}"));
        let _ = writeln!(
            out,
            "  operand {} {:?} {:?}{default}",
            s.name, s.role, s.kind
        );
    }
    for (form, b) in r.forms() {
        let _ = writeln!(out, "  form {form}");
        for target in [Target::Portable, Target::Amd] {
            let t = r.template(target, &b);
            let _ = writeln!(
                out,
                "    {target:?} {:?} helpers={:?} lookups={:?}",
                t.code.text(),
                t.helpers.names,
                t.helpers.lookups
            );
        }
        if let Some(t) = r.fast_template(Target::Amd) {
            let _ = writeln!(
                out,
                "    fast {:?} helpers={:?}",
                t.code.text(),
                t.helpers.names
            );
        }
        for (name, l) in &r.lookup {
            let key = b.get(&l.slot).cloned().flatten().unwrap_or_default();
            let _ = writeln!(
                out,
                "    lookup {name}={:?} helpers={:?}",
                l.values.get(&key),
                l.helpers(&key)
            );
        }
        for s in r.operand_specs() {
            if let OperandKind::Fragment { shape, ty } = &s.kind {
                let _ = writeln!(
                    out,
                    "    fragment {} {:?}",
                    s.name,
                    r.fragment(&s.name, shape, ty, &b)
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIXTURE: &str = "src/rules/digest.txt";

    /// Rewriting the table for reuse changes none of what it means: every rule claims the same
    /// forms with the same operands and emits the same code for each, with the same helpers.
    /// `PTX2HIP_DIGEST_DUMP=FILE` writes the full text behind the hashes, to compare two tables.
    #[test]
    fn the_table_means_what_the_recorded_digest_says() {
        let set = RuleSet::from_sources(super::super::load::embedded_sources()).unwrap();
        let entries = entries(&set);
        if let Some(dump) = std::env::var_os("PTX2HIP_DIGEST_DUMP") {
            let full: String = entries.iter().map(|(_, text)| text.as_str()).collect();
            std::fs::write(dump, full).unwrap();
        }
        let text = digest(&entries);
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(FIXTURE);
        if std::env::var_os("PTX2HIP_UPDATE_DIGEST").is_some() {
            std::fs::write(&path, &text).unwrap();
            return;
        }
        let recorded = std::fs::read_to_string(&path).unwrap_or_default();
        let now: Vec<&str> = text.lines().collect();
        let changed: Vec<&str> = recorded
            .lines()
            .filter(|l| !now.contains(l))
            .chain(
                now.iter()
                    .copied()
                    .filter(|l| !recorded.lines().any(|r| r == *l)),
            )
            .collect();
        assert!(
            changed.is_empty(),
            "the table's meaning changed ({FIXTURE} against now):\n{}\n\
             compare the full texts with PTX2HIP_DIGEST_DUMP=FILE on both tables; a deliberate \
             change is recorded by \
             `PTX2HIP_UPDATE_DIGEST=1 cargo test -p ptx2hip-core --lib rules::digest`",
            changed.join("\n")
        );
    }
}
