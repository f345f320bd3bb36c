//! The convert (C0xx) helpers agree with independent references on the host
//! (tests/amd_models/convert_host_test.cpp, built with g++). The family's cases are data
//! (`[[rule.test]]`, run by the verification crate's `rule_cases` test).

use crate::common;

use ptx2hip_core::lower::RuleSet;

#[test]
fn helpers_match_independent_references_on_the_host() {
    if !common::require(&["g++"], "the convert host semantic test") {
        return;
    }
    let rules = RuleSet::embedded().unwrap();
    let names: Vec<String> = rules
        .helper_order
        .iter()
        .filter(|n| rules.helpers[*n].file == "helpers/convert.h")
        .cloned()
        .collect();
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("convert_host");
    std::fs::create_dir_all(&dir).unwrap();
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/amd_models/convert_host_test.cpp");
    // The two variants build and run side by side.
    common::in_parallel(
        vec![("portable", false), ("amd", true)],
        |(variant, amd)| {
            let mut h = String::from("#include <stdint.h>\n#include <string.h>\n#include <math.h>\n#define __host__\n#define __device__\n");
            for n in rules.helper_closure(names.iter()) {
                let helper = &rules.helpers[&n];
                let text = if amd {
                    helper.amd.as_deref().unwrap_or(&helper.portable)
                } else {
                    &helper.portable
                };
                h.push_str(text);
                h.push('\n');
            }
            let header = dir.join(format!("helpers_{variant}.h"));
            std::fs::write(&header, h).unwrap();
            let exe = dir.join(format!("test_{variant}"));
            let out = std::process::Command::new("g++")
                .args(["-std=c++17", "-O1", "-frounding-math"])
                .arg(format!("-I{}", src.parent().unwrap().display()))
                .arg("-include")
                .arg(&header)
                .arg(&src)
                .arg("-o")
                .arg(&exe)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{variant}: g++ failed:\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let run = std::process::Command::new(&exe).output().unwrap();
            assert!(
                run.status.success(),
                "{variant}:\n{}",
                String::from_utf8_lossy(&run.stdout)
            );
        },
    );
}
