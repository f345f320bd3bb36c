//! Where a rewrite may go and what it must leave alone, end to end through the pipeline: no
//! preprocessor directive inside a macro invocation's arguments, no statement rewritten whose end
//! is not known, a second run that changes nothing, a byte order mark that stays first, and a
//! helper block recognised only in its generated shape.

use ptx2hip_core::emit::{EmitMode, HELPERS_BEGIN, HELPERS_END};
use ptx2hip_core::lower::{RuleSet, Target};
use ptx2hip_core::pipeline::{process, FileOutcome, Options};

fn run(src: &str, mode: EmitMode) -> FileOutcome {
    let rules = RuleSet::embedded().expect("the embedded rules load");
    let options = Options {
        target: Target::Amd,
        emit: Some(mode),
        provenance: false,
        tensor_model: Default::default(),
        fast: false,
        evidence: Default::default(),
    };
    process(src.as_bytes(), &rules, options)
}

/// The translated text (the input when nothing changed).
fn translated(src: &str, mode: EmitMode) -> String {
    run(src, mode).rewritten.map_or(src.to_string(), |r| {
        String::from_utf8(r.bytes).expect("UTF-8 output")
    })
}

/// Translates `src` in both modes, checks that a second run changes nothing, and returns the
/// guarded and replaced texts.
fn both_twice(src: &str) -> (String, String) {
    let out = [EmitMode::Guarded, EmitMode::Replace].map(|mode| {
        let once = translated(src, mode);
        assert_eq!(
            translated(&once, mode),
            once,
            "{mode:?}: the second run changed:\n{once}"
        );
        once
    });
    let [guarded, replaced] = out;
    (guarded, replaced)
}

/// The text of every invocation of `name` (through its closing parenthesis).
fn invocations<'a>(text: &'a str, name: &str) -> Vec<&'a str> {
    let mut out = Vec::new();
    for (at, _) in text.match_indices(&format!("{name}(")) {
        let mut depth = 0;
        for (k, c) in text[at..].char_indices() {
            match c {
                '(' => depth += 1,
                ')' if depth == 1 => {
                    out.push(&text[at..at + k + 1]);
                    break;
                }
                ')' => depth -= 1,
                _ => {}
            }
        }
    }
    out
}

const ADD: &str = r#"asm("add.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b))"#;
const FMA: &str = r#"asm("fma.rz.f32 %0, %1, %2, %3;" : "=f"(x) : "f"(x), "f"(y), "f"(z))"#;

#[test]
fn in_macro_arguments_the_guard_selects_with_macros_instead_of_directives() {
    let src = format!(
        "__device__ unsigned f(unsigned a, unsigned b) {{\n  unsigned d;\n  NV_IF_TARGET(NV_PROVIDES_SM_90, ({ADD};), (d = a + b;));\n  DEVICE_STMT(d, {ADD});\n  for_each(a, [&](int i) {{ {ADD}; }});\n  return d;\n}}\n"
    );
    let (guarded, replaced) = both_twice(&src);
    for name in ["NV_IF_TARGET", "DEVICE_STMT", "for_each"] {
        let calls = invocations(&guarded, name);
        assert_eq!(calls.len(), 1, "{guarded}");
        assert!(
            !calls[0].contains('#'),
            "a directive in {name}'s arguments:\n{}",
            calls[0]
        );
        assert!(
            calls[0].contains("PTX2HIP_AMD_ONLY(")
                && calls[0].contains(&format!("PTX2HIP_NV_ONLY({ADD}"))
        );
        assert!(!invocations(&replaced, name)[0].contains("asm("));
    }
    assert!(guarded.contains("#define PTX2HIP_AMD_ONLY(...) __VA_ARGS__"));
    // The bare argument has no `;` of its own: the translation is a statement without one.
    assert!(guarded.contains("DEVICE_STMT(d, PTX2HIP_AMD_ONLY(do ptx2hip_out_r(d) = "));
    assert!(guarded.contains("while (0)) PTX2HIP_NV_ONLY("));
}

/// The arguments of the macro invocation `call` (`NAME(...)`), split where the preprocessor
/// splits them: at commas outside parentheses.
fn macro_arguments(call: &str) -> Vec<&str> {
    let inner = &call[call.find('(').unwrap() + 1..call.len() - 1];
    let (mut out, mut depth, mut start) = (Vec::new(), 0, 0);
    for (k, c) in inner.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&inner[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    out.push(&inner[start..]);
    out
}

#[test]
fn a_translation_whose_comma_would_split_a_bare_macro_argument_is_parenthesised() {
    let src = format!(
        "__device__ float f(float x, float y, float z) {{\n  DEVICE_STMT({FMA});\n  TIMED(t, {FMA};);\n  NV_IF_TARGET(NV_IS_DEVICE, ({FMA};));\n  return x;\n}}\n"
    );
    let outcome = run(&src, EmitMode::Guarded);
    assert!(
        outcome.findings.iter().all(|f| f.outcome.is_ok()),
        "every statement is translated"
    );
    let (guarded, replaced) = both_twice(&src);
    for out in [&guarded, &replaced] {
        let one = macro_arguments(invocations(out, "DEVICE_STMT")[0]);
        assert_eq!(one.len(), 1, "{out}");
        assert!(
            one[0].contains("([&] {") && one[0].contains("}())"),
            "{out}"
        );
        let two = macro_arguments(invocations(out, "TIMED")[0]);
        assert_eq!(two.len(), 2, "{out}");
        assert!(
            two[1].contains("}());"),
            "its own `;` follows the call: {out}"
        );
        // Inside its own parentheses the comma is harmless: no lambda there.
        assert!(
            !invocations(out, "NV_IF_TARGET")[0].contains("[&]"),
            "{out}"
        );
    }
    // The selection macros expand their argument before a macro passes it on: its commas are
    // inside the lambda call's parentheses.
    let amd = invocations(invocations(&guarded, "DEVICE_STMT")[0], "PTX2HIP_AMD_ONLY")[0];
    assert_eq!(macro_arguments(amd).len(), 1);
    assert!(
        macro_arguments(amd)[0].trim_start().starts_with("([&] {"),
        "{amd}"
    );
}

#[test]
fn a_statement_whose_semicolon_does_not_follow_it_is_left_as_written() {
    for src in [
        format!("__device__ unsigned f(unsigned a, unsigned b) {{\n  unsigned d;\n  {ADD} return d;\n}}\n"),
        format!("__device__ void f(unsigned a, unsigned b, unsigned d) {{\n#if X\n  {ADD}\n#else\n  {ADD}\n#endif\n  ;\n}}\n"),
    ] {
        let outcome = run(&src, EmitMode::Guarded);
        assert!(outcome.rewritten.is_none(), "{src}");
        assert!(
            outcome.diagnostics.iter().any(|d| d.message.contains("not followed by its `;`")),
            "{:?}",
            outcome.diagnostics
        );
    }
}

/// Inputs where a parse of the whole file recovers from an error differently once ptx2hip's own
/// edits are in the file: statements found or lost, guards misread, the `;` attached across an
/// `#endif`. Each is translated twice.
#[test]
fn a_second_run_changes_nothing_around_broken_code() {
    let g = r#"__device__ unsigned g(unsigned a, unsigned b) {
  unsigned r = 0;
  asm("{\n\t.reg .pred pa;\n\tsetp.ne.u32 pa, %1, 0;\n\t@pa mov.u32 %0, %2;\n\t}" : "+r"(r) : "r"(a), "r"(b));
  return r;
}
"#;
    let broken_before = [
        // A stray brace inside an asm statement's operands.
        "__device__ void f(unsigned long long r, unsigned p) {\n  asm(\"bfe.u64 %0, %1, %2, 8;\"} : \"=l\"(r) : \"l\"(r), \"r\"(p));\n}\n",
        // A macro the parser cannot see through before a loop.
        "CUTLASS_DEVICE void f(unsigned d) {\n  CUTLASS_PRAGMA_UNROLL\n  for (int i = 0; i < 4; ++i) { asm(\"add.u32 %0, %0, %0;\" : \"+r\"(d)); }\n}\n",
        // A line comment that a backslash continues onto code.
        "// note \\\n  asm(\"add.u32 %0, %0, %0;\" : \"+r\"(d));\n",
        // A lone carriage return ending a statement's line, and an unclosed NV-only wrapper.
        "__device__ void f(unsigned d) {\n\tasm(\"add.u32 %0, %0, %0;\" : \"+r\"(d));\rPTX2HIP_NV_ONLY(\n",
        // An `#if` that never ends.
        "#if defined(__HIP_PLATFORM_AMD__)\n",
    ];
    for before in broken_before {
        let src = format!("{before}{g}");
        both_twice(&src);
    }
}

#[test]
fn a_byte_order_mark_stays_the_first_bytes() {
    // A template's operands have no visible type: the translation needs the glue's helpers.
    let body = format!("template <class T>\n__device__ unsigned f(T a, T b) {{\n  unsigned d;\n  {ADD};\n  return d;\n}}\n");
    for head in ["", "// licence\n", "#include <stdint.h>\n"] {
        let src = format!("\u{feff}{head}{body}");
        let (guarded, replaced) = both_twice(&src);
        for out in [guarded, replaced] {
            assert!(
                out.starts_with(&format!("\u{feff}{head}{HELPERS_BEGIN}")),
                "{out}"
            );
        }
    }
}

#[test]
fn marker_text_around_user_code_is_kept_and_a_fresh_block_inserted() {
    let user = "int keep_me(int x) { return x + 1; }\n";
    // A template's operands have no visible type: the translation needs the glue's helpers.
    let body = format!("template <class T>\n__device__ unsigned f(T a, T b) {{\n  unsigned d;\n  {ADD};\n  return d;\n}}\n");
    for wrapped in [
        format!("{HELPERS_BEGIN}\n{user}{HELPERS_END}\n"),
        format!("/*\n{HELPERS_BEGIN}\n*/\n{user}const char* s = \"{HELPERS_END}\";\n"),
        format!("{HELPERS_BEGIN}\n#include <stdint.h>\n{user}{HELPERS_END}\n"),
    ] {
        let src = format!("#include <stdint.h>\n{wrapped}{body}");
        let outcome = run(&src, EmitMode::Guarded);
        let rewrite = outcome.rewritten.expect("the statement is translated");
        let out = String::from_utf8(rewrite.bytes.clone()).unwrap();
        // Without the fresh block, everything before the function is as it was.
        let fresh = out
            .rfind(&format!("{HELPERS_BEGIN}\n// ptx2hip "))
            .expect("a fresh block");
        let fresh_end = fresh + out[fresh..].find(HELPERS_END).unwrap() + HELPERS_END.len() + 1;
        let kept = format!("{}{}", &out[..fresh], &out[fresh_end..]);
        let head = &src[..src.find("template").unwrap()];
        assert!(kept.starts_with(head), "the user's bytes changed:\n{out}");
        // The splices, which the diff is made from, describe the written bytes.
        let mut rebuilt = Vec::new();
        let mut copied = 0;
        for s in &rewrite.splices {
            rebuilt.extend_from_slice(&src.as_bytes()[copied..s.old.start]);
            rebuilt.extend_from_slice(&rewrite.bytes[s.new.clone()]);
            copied = s.old.end;
        }
        rebuilt.extend_from_slice(&src.as_bytes()[copied..]);
        assert_eq!(rebuilt, rewrite.bytes);
        both_twice(&src);
    }
}

/// A marker says why a statement stays as written without citing input lines, which the
/// rewrite moves (the helper block goes in above them): the second run found other line numbers
/// and rewrote the marker.
#[test]
fn a_marker_reads_the_same_after_the_rewrite_moved_the_lines() {
    let src = format!(
        "#if __CUDA_ARCH__ >= 350\n#define LD \"ld.global.nc.u32 \"\n#endif\n#if NO_CACHE\n#define LD \"ld.global.u32 \"\n#endif\n__device__ unsigned f(const unsigned* p, unsigned a, unsigned b) {{\n  unsigned d, v;\n  {ADD};\n  asm(LD \"%0, [%1];\" : \"=r\"(v) : \"l\"(p));\n  return d + v;\n}}\n"
    );
    let rules = RuleSet::embedded().expect("the embedded rules load");
    for mode in [EmitMode::Guarded, EmitMode::Replace] {
        let options = Options {
            target: Target::Amd,
            emit: Some(mode),
            provenance: true,
            tensor_model: Default::default(),
            fast: false,
            evidence: Default::default(),
        };
        let once = process(src.as_bytes(), &rules, options)
            .rewritten
            .expect("the add is translated")
            .bytes;
        let text = String::from_utf8_lossy(&once);
        assert!(
            text.contains("template piece `LD` has different definitions"),
            "{text}"
        );
        let twice = process(&once, &rules, options).rewritten;
        assert!(
            twice.as_ref().is_none_or(|r| r.bytes == once),
            "{mode:?}: the second run changed:\n{text}"
        );
    }
}
