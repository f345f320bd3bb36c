//! Verification status of rules: which golden vectors from real NVIDIA hardware check them.
//!
//! The manifest `tests/vectors/manifest.json` is written by the vector generator
//! (`cargo run --example vectors`, see docs/VECTORS.md) and embedded here so `ptx2hip rules` can say, for every rule, what evidence
//! stands behind it.

use serde_json::{json, Value};

use crate::lower::rules::Rule;

const MANIFEST: &str = include_str!("../../tests/vectors/manifest.json");
/// Per-warp recordings of the warp-level rules (`super::warp`).
const WARP_MANIFEST: &str = include_str!("../../tests/vectors/warp/manifest.json");

/// `{status, ...}` for a rule: `verified` (with hardware and counts), `not value-checkable`
/// (with the reason), or `unverified`.
pub fn status(rule: &Rule) -> Value {
    if let Some(why) = &rule.unverifiable {
        return json!({ "status": "not value-checkable", "reason": why });
    }
    if rule.family == "warp" {
        let manifest: Value = serde_json::from_str(WARP_MANIFEST).unwrap_or(Value::Null);
        return match manifest.get("rules").and_then(|r| r.get(&rule.code)) {
            Some(entry) => json!({
                "status": "verified",
                "per_warp": true,
                "forms": entry["forms"],
                "warps": entry["cases"],
                "gpu": manifest["gpu"],
                "driver": manifest["driver"],
                "nvcc": manifest["nvcc"],
                "date": manifest["date"],
            }),
            None => json!({ "status": "unverified" }),
        };
    }
    let manifest: Value = serde_json::from_str(MANIFEST).unwrap_or(Value::Null);
    match manifest.get("rules").and_then(|r| r.get(&rule.code)) {
        Some(entry) => {
            let mut v = entry.clone();
            v["status"] = json!("verified");
            v
        }
        None => json!({ "status": "unverified" }),
    }
}

pub mod forms;
pub mod golden;
pub mod inputs;
pub mod warp;
