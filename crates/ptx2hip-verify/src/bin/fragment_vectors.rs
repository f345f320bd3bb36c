//! The H100 recording of the fragment forms (docs/FRAGMENTS.md).
//!
//! ```text
//! cargo run -p ptx2hip-verify --bin fragment_vectors -- gen --out DIR       # fragment.cu, in.bin, run.sh
//! RES=DIR/res sh DIR/run.sh                                                 # on a machine with an sm_90 GPU
//! cargo run -p ptx2hip-verify --bin fragment_vectors -- import --results DIR/res
//! cargo run -p ptx2hip-verify --bin fragment_vectors -- check               # recording vs the PTX reference
//! ```

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use ptx2hip_verify::fragment::reference::expected;
use ptx2hip_verify::fragment::{all_forms, generate, harness};
use ptx2hip_verify::warp::Recording;

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

fn file() -> PathBuf {
    ptx2hip_verify::repo_root().join("tests/vectors/fragment/fragment.bin.gz")
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("gen") => arg(&args, "--out")
            .ok_or_else(|| "gen needs --out DIR".to_string())
            .and_then(|out| harness::write_programs(Path::new(&out)))
            .map(|n| println!("{n} forms")),
        Some("import") => arg(&args, "--results")
            .ok_or_else(|| "import needs --results DIR".to_string())
            .and_then(|res| harness::import(Path::new(&res)))
            .and_then(|rec| {
                let path = file();
                std::fs::create_dir_all(path.parent().unwrap_or(Path::new(".")))
                    .map_err(|e| e.to_string())?;
                rec.write(&path)?;
                println!("{} forms recorded into {}", rec.forms.len(), path.display());
                Ok(())
            }),
        Some("check") => check(),
        _ => Err("usage: fragment_vectors gen|import|check (see the source)".into()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

/// Counts the recorded words that differ from the PTX reference.
fn check() -> Result<(), String> {
    let rec = Recording::read(&file())?;
    let mut differ = 0;
    let mut compared = 0;
    for form in all_forms() {
        let r = rec
            .form(&form.name())
            .ok_or_else(|| format!("{}: not recorded", form.name()))?;
        for (k, case) in generate(&form).iter().enumerate() {
            for (lane, want) in expected(&form, case).iter().enumerate() {
                for (w, x) in want.iter().enumerate() {
                    compared += 1;
                    if r.lane(k, lane)[w] != *x {
                        differ += 1;
                        if differ <= 10 {
                            eprintln!(
                                "{} case {k} lane {lane} word {w}: GPU {:#x}, reference {x:#x}",
                                form.name(),
                                r.lane(k, lane)[w]
                            );
                        }
                    }
                }
            }
        }
    }
    println!("{compared} words compared, {differ} differ");
    if differ == 0 {
        Ok(())
    } else {
        Err("the recording disagrees with the reference".into())
    }
}
