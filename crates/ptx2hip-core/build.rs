//! Embeds every `rules/*.toml` file and every `rules/helpers/*.h` helper file in the binary, so
//! the tool runs from anywhere and adding a rule family is adding files.

use std::fmt::Write;
use std::path::Path;

/// `(name relative to rules/, absolute path)` of the files in `rules/<sub>` ending in `ext`,
/// sorted by name.
fn files(rules: &Path, sub: &str, ext: &str) -> Vec<(String, String)> {
    let dir = rules.join(sub);
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut found: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(ext))
        .map(|n| {
            let path = dir.join(&n).display().to_string();
            let name = if sub.is_empty() {
                n
            } else {
                format!("{sub}/{n}")
            };
            (name, path)
        })
        .collect();
    found.sort();
    found
}

fn main() {
    // The table stays at the repository root, beside the tests and documents that read it.
    let rules =
        Path::new(&std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo")).join("../../rules");
    let mut code = String::from("pub const EMBEDDED: &[(&str, &str)] = &[\n");
    for (name, path) in files(&rules, "", ".toml")
        .into_iter()
        .chain(files(&rules, "helpers", ".h"))
    {
        println!("cargo:rerun-if-changed={path}");
        writeln!(code, "    ({name:?}, include_str!({path:?})),").unwrap();
    }
    code.push_str("];\n");
    let out = Path::new(&std::env::var("OUT_DIR").unwrap()).join("embedded_rules.rs");
    std::fs::write(out, code).unwrap();
}
