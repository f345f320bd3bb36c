//! Numbers in the documentation are the rule table's: README's rule and form counts and the
//! per-family evidence table of docs/VECTORS.md are generated from `ptx2hip rules --format json`
//! (and the sizes of the vector files). Each generated part sits between
//! `<!-- begin NAME: ... -->` and `<!-- end NAME -->`. The page of every rule and finding code
//! (docs/rules/, docs/codes/) is generated whole ([`pages`]). When the table changes, this test
//! fails until `PTX2HIP_UPDATE_DOCS=1 cargo test --test it docs::` rewrites them.

#[path = "docs/pages.rs"]
mod pages;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `ptx2hip rules --format json`, as users see it.
fn rules() -> Vec<Value> {
    let out = assert_cmd::Command::cargo_bin("ptx2hip")
        .expect("binary built")
        .args(["rules", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    serde_json::from_slice(&out.stdout).unwrap()
}

/// `1234567` as `1,234,567`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut s = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            s.push(',');
        }
        s.push(c);
    }
    s
}

fn number(v: &Value, key: &str) -> u64 {
    v[key].as_u64().unwrap_or(0)
}

fn verified(rule: &Value) -> Option<&Value> {
    Some(&rule["verification"]).filter(|v| v["status"] == "verified")
}

/// Verified by golden vectors, one thread's inputs and outputs each.
fn per_thread(rule: &Value) -> Option<&Value> {
    verified(rule).filter(|v| v["per_warp"] != true)
}

/// Verified by recorded warps (the warp-level rules).
fn per_warp(rule: &Value) -> Option<&Value> {
    verified(rule).filter(|v| v["per_warp"] == true)
}

/// README: how many rules and forms, and what stands behind them.
fn readme_counts(rules: &[Value]) -> String {
    let forms: usize = rules
        .iter()
        .map(|r| r["forms"].as_array().map_or(0, Vec::len))
        .sum();
    let vectors: Vec<&Value> = rules.iter().filter_map(per_thread).collect();
    let warps: Vec<&Value> = rules.iter().filter_map(per_warp).collect();
    let mut gpus: Vec<&str> = rules
        .iter()
        .filter_map(verified)
        .filter_map(|v| v["gpu"].as_str())
        .collect();
    gpus.sort();
    gpus.dedup();
    let status = |s: &str| {
        rules
            .iter()
            .filter(|r| r["verification"]["status"] == s)
            .count()
    };
    let sum = |of: &[&Value], key: &str| thousands(of.iter().map(|v| number(v, key)).sum());
    let unverified = match status("unverified") {
        0 => String::new(),
        n => format!(", {n} unverified"),
    };
    let unchecked = status("not value-checkable");
    let decomposed = match status("isa-decomposition") {
        0 => String::new(),
        n => format!(
            " {n} sm_100 rules, whose forms no GPU here runs, rest on their ISA decomposition \
             into verified rules (docs/EVIDENCE.md)."
        ),
    };
    wrap(&format!(
        "**{} rules** translate **{} PTX instruction forms**. Verified against recordings from {}: \
         {} rules by golden vectors, {} canonical statements (one per form and value of an \
         immediate operand) and {} vectors; {} warp-level rules by {} recorded warps of {} forms, \
         every lane's result (docs/WARP.md, docs/FRAGMENTS.md). {unchecked} {} not value-checkable{unverified} \
         (docs/VECTORS.md).{decomposed}",
        rules.len(),
        thousands(forms as u64),
        gpus.join(", "),
        vectors.len(),
        sum(&vectors, "forms"),
        sum(&vectors, "vectors"),
        warps.len(),
        sum(&warps, "warps"),
        sum(&warps, "forms"),
        if unchecked == 1 { "is" } else { "are" },
    ))
}

/// Text broken into lines of at most 100 columns, as the rest of the documentation.
fn wrap(text: &str) -> String {
    let mut s = String::new();
    let mut line = 0;
    for word in text.split_whitespace() {
        if line > 0 && line + 1 + word.len() > 100 {
            s.push('\n');
            line = 0;
        } else if line > 0 {
            s.push(' ');
            line += 1;
        }
        s.push_str(word);
        line += word.len();
    }
    s + "\n"
}

/// docs/VECTORS.md: per family, the rules verified by golden vectors, their canonical statements
/// and vectors, and the size of the vector file (the warp-level rules: docs/WARP.md).
fn vectors_table(rules: &[Value]) -> String {
    // file -> (family, rules, forms, vectors)
    let mut files: BTreeMap<String, (String, u64, u64, u64)> = BTreeMap::new();
    for r in rules {
        let Some(v) = per_thread(r) else { continue };
        let e = files
            .entry(v["file"].as_str().unwrap_or("").to_string())
            .or_insert_with(|| (r["family"].as_str().unwrap_or("").to_string(), 0, 0, 0));
        e.1 += 1;
        e.2 += number(v, "forms");
        e.3 += number(v, "vectors");
    }
    let mb = |bytes: u64| format!("{:.2} MB", bytes as f64 / 1e6);
    let mut s =
        String::from("| family | rules | forms | vectors | file |\n|---|---|---|---|---|\n");
    let mut total = (0, 0, 0, 0);
    for (file, (family, n, forms, vectors)) in &files {
        let bytes =
            std::fs::metadata(root().join("tests/vectors").join(file)).map_or(0, |m| m.len());
        s.push_str(&format!(
            "| {family} | {n} | {} | {} | {} |\n",
            thousands(*forms),
            thousands(*vectors),
            mb(bytes)
        ));
        total = (
            total.0 + n,
            total.1 + forms,
            total.2 + vectors,
            total.3 + bytes,
        );
    }
    s.push_str(&format!(
        "| **all** | {} | {} | {} | {} |\n",
        total.0,
        thousands(total.1),
        thousands(total.2),
        mb(total.3)
    ));
    s
}

/// `doc` with the part `name` replaced by `text`.
fn splice(doc: &str, name: &str, text: &str) -> String {
    let begin = format!("<!-- begin {name}:");
    let end = format!("<!-- end {name} -->");
    let b = doc
        .find(&begin)
        .unwrap_or_else(|| panic!("no `{begin}` marker"));
    let b = b + doc[b..].find('\n').expect("marker line ends") + 1;
    let e = doc[b..]
        .find(&end)
        .unwrap_or_else(|| panic!("no `{end}` marker"))
        + b;
    format!("{}{text}{}", &doc[..b], &doc[e..])
}

fn check(path: &Path, name: &str, text: &str) {
    let doc = std::fs::read_to_string(path).unwrap();
    let want = splice(&doc, name, text);
    if doc == want {
        return;
    }
    if std::env::var_os("PTX2HIP_UPDATE_DOCS").is_some() {
        std::fs::write(path, want).unwrap();
        return;
    }
    panic!(
        "{}: `{name}` is not what the rule table says; rewrite it with \
         `PTX2HIP_UPDATE_DOCS=1 cargo test --test it docs::`. Expected:\n{text}",
        path.display()
    );
}

#[test]
fn readme_counts_are_the_rule_tables() {
    check(
        &root().join("README.md"),
        "counts",
        &readme_counts(&rules()),
    );
}

#[test]
fn vectors_table_is_the_evidence() {
    check(
        &root().join("docs/VECTORS.md"),
        "evidence",
        &vectors_table(&rules()),
    );
}

/// Every page of docs/rules/ and docs/codes/ is what the table says, none is missing and none is
/// left over (a page of a rule that no longer exists).
#[test]
fn rule_and_code_pages_are_the_tables() {
    let rules = ptx2hip_core::lower::RuleSet::embedded().unwrap();
    let pages = pages::all(&rules);
    let update = std::env::var_os("PTX2HIP_UPDATE_DOCS").is_some();
    let mut wrong = Vec::new();
    for (path, text) in &pages {
        let file = root().join(path);
        if std::fs::read_to_string(&file).ok().as_deref() == Some(text.as_str()) {
            continue;
        }
        if update {
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(&file, text).unwrap();
        } else {
            wrong.push(format!("{} is stale or missing", path.display()));
        }
    }
    for folder in pages::folders() {
        for entry in std::fs::read_dir(root().join(&folder))
            .into_iter()
            .flatten()
        {
            let path = folder.join(entry.unwrap().file_name());
            if pages.contains_key(&path) {
                continue;
            }
            if update {
                std::fs::remove_file(root().join(&path)).unwrap();
            } else {
                wrong.push(format!("{} is no page of the table", path.display()));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{}\nrewrite them with `PTX2HIP_UPDATE_DOCS=1 cargo test --test it docs::`",
        wrong.join("\n")
    );
}

#[test]
fn thousands_separates_groups_of_three() {
    assert_eq!(thousands(0), "0");
    assert_eq!(thousands(999), "999");
    assert_eq!(thousands(1000), "1,000");
    assert_eq!(thousands(68_164_488), "68,164,488");
}
