//! Every finding code's documentation (`explain CODE`) shows examples that `check` reports with
//! that code: the library finds them, the lint (the command line's) reports them.

use ptx2hip_core::codes::Code;
use ptx2hip_core::lower::RuleSet;

/// The code blocks of a documentation page.
fn examples(doc: &str) -> Vec<&str> {
    doc.split("```cuda\n")
        .skip(1)
        .filter_map(|b| b.split_once("```").map(|(code, _)| code))
        .collect()
}

#[test]
fn every_example_in_the_documentation_is_reported_with_its_code() {
    use ptx2hip_core::lower::Target;
    use ptx2hip_core::pipeline::{process_file, Options};
    let rules = RuleSet::embedded().unwrap();
    // As the command line reads them: with the default `--cuda-arch`.
    let scan = ptx2hip_core::scan::Options {
        macros: ptx2hip_core::scan::Macros {
            cuda_arch: Some(ptx2hip_core::scan::cuda_arch::CudaArch::DEFAULT),
            ..Default::default()
        },
    };
    for &code in Code::ALL {
        for example in examples(code.doc()) {
            let source = format!("__device__ void f() {{\n{example}}}\n");
            let target = match code {
                Code::NoPortableTranslation => Target::Portable,
                _ => Target::Amd,
            };
            let outcome = process_file(
                source.as_bytes(),
                None,
                &rules,
                Options {
                    target,
                    emit: None,
                    provenance: false,
                    tensor_model: Default::default(),
                    fast: false,
                    evidence: match code {
                        Code::BelowEvidence => ptx2hip_core::rules::evidence::Floor::Hardware,
                        _ => ptx2hip_core::rules::evidence::Floor::Any,
                    },
                },
                &scan,
            );
            let settings = ptx2hip::lint::Settings {
                report_unused_suppressions: true,
                ..Default::default()
            };
            let path = std::path::Path::new("f.cu");
            let linted = ptx2hip::lint::lint("f.cu", path, source.as_bytes(), &outcome, &settings);
            let found: Vec<Code> = linted.reported.iter().map(|(d, _)| d.code).collect();
            assert!(
                found.contains(&code),
                "{code}: the example reports {found:?}\n{example}"
            );
        }
    }
}
