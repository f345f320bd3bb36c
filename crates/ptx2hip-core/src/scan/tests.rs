//! Specification tests for the scan stage, over whole snippets of CUDA source.

use super::*;

fn only(src: &str) -> AsmStatement {
    let r = scan(src.as_bytes());
    assert_eq!(r.statements.len(), 1, "{r:#?}");
    r.statements.into_iter().next().unwrap()
}

fn text(t: &Template) -> &str {
    match t {
        Template::Known { text, .. } => text,
        Template::Unresolved { reason, .. } => panic!("unresolved: {reason}"),
    }
}

/// Where one tree-sitter parse of the whole file sees asm statements (outside `#define` bodies,
/// which it keeps opaque): the reference for the keyword-anchored scan on well-formed code.
fn whole_parse_statement_starts(src: &[u8]) -> Vec<usize> {
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_cuda::LANGUAGE.into())
        .unwrap();
    let tree = parser.parse(src, None).unwrap();
    let mut starts = Vec::new();
    let mut cursor = tree.walk();
    loop {
        let node = cursor.node();
        if node.kind() == "gnu_asm_expression" {
            starts.push(node.start_byte());
        }
        if cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return starts;
            }
        }
    }
}

/// Start of every statement, diagnostic and skipped keyword.
fn accounted_starts(r: &ScanResult) -> Vec<usize> {
    let mut starts: Vec<usize> = r
        .statements
        .iter()
        .map(|s| s.span.start)
        .chain(r.diagnostics.iter().map(|d| d.span.start))
        .chain(r.skipped.iter().map(|s| s.span.start))
        .collect();
    starts.sort_unstable();
    starts
}

/// Every Known template maps offset 0 to its first character, and every text byte maps to the same
/// byte in the file or to the backslash of an escape.
fn assert_origins_consistent(src: &[u8], s: &AsmStatement) {
    let Template::Known { text, origins } = &s.template else {
        return;
    };
    for (k, ch) in text.char_indices() {
        let at = s.template.file_offset(k).unwrap();
        let mut buf = [0; 4];
        let expected = ch.encode_utf8(&mut buf).as_bytes();
        let ok = src.get(at..at + expected.len()) == Some(expected)
            || src.get(at) == Some(&b'\\')
            || ch == char::REPLACEMENT_CHARACTER;
        assert!(ok, "text offset {k} ({ch:?}) maps to {at}: {:?}", origins);
    }
}

#[test]
fn finds_the_seed_add_example_with_operands() {
    let src = "__device__ int f(int j, int k) {\n  int i;\n  asm(\"add.s32 %0, %1, %2;\" : \"=r\"(i) : \"r\"(j), \"r\"(k));\n  return i;\n}\n";
    let s = only(src);
    assert_eq!(text(&s.template), "add.s32 %0, %1, %2;");
    assert_eq!(
        (s.line, s.column, s.indent.as_str(), s.keyword.as_str()),
        (3, 3, "  ", "asm")
    );
    assert!(s.terminated);
    assert_eq!(
        &src[s.span.clone()],
        "asm(\"add.s32 %0, %1, %2;\" : \"=r\"(i) : \"r\"(j), \"r\"(k));"
    );
    assert_eq!((s.end_line, s.end_column), (3, 57));
    let ops: Vec<_> = s
        .operands()
        .map(|o| (o.constraint.as_str(), o.expr.as_str()))
        .collect();
    assert_eq!(ops, vec![("=r", "i"), ("r", "j"), ("r", "k")]);
    assert_eq!(&src[s.inputs[1].expr_span.clone()], "k");
    assert_eq!(
        s.template.file_offset(0),
        Some(src.find("add.s32").unwrap())
    );
}

#[test]
fn joins_the_cube_pieces_across_comments_and_maps_each_piece_back() {
    let src = "__device__ int cube (int x)\n{\n  int y;\n  asm(\".reg .u32 t1;\\n\\t\"              // temp reg t1\n      \" mul.lo.u32 t1, %1, %1;\\n\\t\"    // t1 = x * x\n      \" mul.lo.u32 %0, t1, %1;\"        // y = t1 * x\n      : \"=r\"(y) : \"r\" (x));\n  return y;\n}\n";
    let s = only(src);
    let t = text(&s.template);
    assert_eq!(
        t,
        ".reg .u32 t1;\n\t mul.lo.u32 t1, %1, %1;\n\t mul.lo.u32 %0, t1, %1;"
    );
    let k = t.find("mul.lo.u32 %0").unwrap();
    assert_eq!(
        s.template.file_offset(k),
        Some(src.find("mul.lo.u32 %0").unwrap())
    );
    assert_origins_consistent(src.as_bytes(), &s);
}

#[test]
fn accepts_every_keyword_and_qualifier_spelling() {
    let src = "void f() {\n asm volatile(\"a;\");\n __asm__ __volatile__(\"b;\");\n __asm inline(\"c;\");\n __asm__ goto(\"bra %l0;\" :::: done);\ndone:;\n}\n";
    let r = scan(src.as_bytes());
    let got: Vec<_> = r
        .statements
        .iter()
        .map(|s| (s.keyword.as_str(), s.qualifiers.join(" ")))
        .collect();
    assert_eq!(
        got,
        vec![
            ("asm", "volatile".into()),
            ("__asm__", "__volatile__".into()),
            ("__asm", "inline".into()),
            ("__asm__", "goto".into())
        ]
    );
    assert!(r.statements[1].is_volatile());
    assert_eq!(r.statements[3].goto_labels, vec!["done"]);
}

#[test]
fn decodes_escapes_raw_strings_and_prefixes_with_exact_origins() {
    let src = "void f() { asm(\"mov.b32 %0, \\\"x\\\\\\101\\x42;\" R\"(\n  ret;)\" u8\"!\" : \"=r\"(a)); }";
    let s = only(src);
    assert_eq!(text(&s.template), "mov.b32 %0, \"x\\AB;\n  ret;!");
    assert_origins_consistent(src.as_bytes(), &s);
}

#[test]
fn reads_named_operands_clobbers_and_expressions_as_written() {
    let src = "void f() { asm volatile(\"ld %[out], [%[p]];\" : [out] \"=&r\"(v[ i + 1 ]) : [p] \"l\"(ptr) : \"memory\", \"cc\"); }";
    let s = only(src);
    assert_eq!(s.outputs[0].name.as_deref(), Some("out"));
    assert_eq!(s.outputs[0].constraint, "=&r");
    assert_eq!(s.outputs[0].expr, "v[ i + 1 ]");
    assert_eq!(s.inputs[0].name.as_deref(), Some("p"));
    assert_eq!(s.clobbers, vec!["memory", "cc"]);
    assert!(s.has_clobber("memory"));
}

#[test]
fn tolerates_a_missing_comma_between_operands() {
    let s = only("void f() { asm(\"st %0, %1, %2;\" :: \"l\"(p), \"r\"(a.x) \"r\"(a.y)); }");
    let exprs: Vec<_> = s.inputs.iter().map(|o| o.expr.as_str()).collect();
    assert_eq!(exprs, vec!["p", "a.x", "a.y"]);
}

#[test]
fn compiler_barriers_are_not_listed() {
    let src = "void f() { asm volatile(\"\" ::: \"memory\"); asm(\" \\n\\t\"); asm(\"// nothing\\n /* x */\"); __asm__ __volatile__(\"\" \"\"); }";
    let r = scan(src.as_bytes());
    assert!(
        r.statements.is_empty() && r.diagnostics.is_empty(),
        "{r:#?}"
    );
}

#[test]
fn substitutes_same_file_string_macros_with_origins_in_the_define() {
    let src = "#define PTX_LD \"ld.global\" \".u8\"\nvoid f() { asm(PTX_LD \" %0, [%1];\" : \"=r\"(d) : \"l\"(p)); }\n";
    let s = only(src);
    assert_eq!(text(&s.template), "ld.global.u8 %0, [%1];");
    assert_eq!(
        s.template.file_offset(0),
        Some(src.find("ld.global").unwrap())
    );
    assert_eq!(s.template.file_offset(9), Some(src.find(".u8").unwrap()));
    assert_origins_consistent(src.as_bytes(), &s);
}

#[test]
fn substitutes_a_macro_between_literals() {
    let src = "#define S \".u32\"\nvoid f() { asm(\"mov\" S \" %0, 1;\" : \"=r\"(x)); }\n";
    let s = only(src);
    assert_eq!(text(&s.template), "mov.u32 %0, 1;");
    assert_origins_consistent(src.as_bytes(), &s);
}

#[test]
fn macros_from_elsewhere_and_function_like_macros_are_unresolved() {
    let src = "#define F(x) \"a\"\nvoid f() { asm(OTHER \" %0;\" : \"=r\"(d)); asm(F \";\"); }\n";
    let r = scan(src.as_bytes());
    assert_eq!(r.statements.len(), 2);
    match &r.statements[0].template {
        Template::Unresolved { reason, at } => {
            assert!(
                reason.contains("`OTHER`") && reason.contains("not defined in this file"),
                "{reason}"
            );
            assert_eq!(*at, src.find("OTHER").unwrap());
        }
        t => panic!("{t:?}"),
    }
    assert!(
        matches!(&r.statements[1].template, Template::Unresolved { reason, .. } if reason.contains("function-like"))
    );
}

#[test]
fn a_macro_name_as_the_whole_template_is_resolved_or_reported_by_name() {
    let src = "#define PTX_ADD \"add.rp.f64 %0, %1, %2;\"\nvoid f() {\n  asm volatile(PTX_ADD : \"=d\"(x) : \"d\"(a), \"d\"(b));\n  asm(ELSEWHERE : \"=r\"(y));\n}\n#define BODY(r) asm(PTX_ADD : \"=d\"(r) : \"d\"(r), \"d\"(r))\n";
    let r = scan(src.as_bytes());
    assert!(r.diagnostics.is_empty(), "{r:#?}");
    assert_eq!(r.statements.len(), 3, "{r:#?}");
    let direct = &r.statements[0];
    assert_eq!(text(&direct.template), "add.rp.f64 %0, %1, %2;");
    assert_eq!(
        direct.template.file_offset(0),
        Some(src.find("add.rp").unwrap())
    );
    assert_eq!((direct.outputs.len(), direct.inputs.len()), (1, 2));
    assert_eq!(direct.inputs[1].expr, "b");
    match &r.statements[1].template {
        Template::Unresolved { reason, at } => {
            assert!(reason.contains("`ELSEWHERE`"), "{reason}");
            assert_eq!(*at, src.find("ELSEWHERE").unwrap());
        }
        t => panic!("{t:?}"),
    }
    assert_eq!(text(&r.statements[2].template), "add.rp.f64 %0, %1, %2;");
}

#[test]
fn asm_keyword_inside_a_parse_error_is_a_diagnostic() {
    let r = scan(b"void f() { x = asm + 3 (; }");
    assert!(r.statements.is_empty());
    assert_eq!(r.diagnostics.len(), 1, "{r:#?}");
}

#[test]
fn finds_asm_inside_define_body_and_maps_offsets_back() {
    let src = "#define LOAD(x, p) \\\r\n  do { \\\r\n\tasm volatile(\"ld.global.u32 %0, \" \\\r\n  \"[%1];\" : \"=r\"(x) : \"l\"(p)); \\\r\n  } while (0)\r\nint y;\r\n";
    let s = only(src);
    assert_eq!(
        s.in_macro,
        Some(MacroContext {
            name: "LOAD".into(),
            continued: true,
            uses: None
        })
    );
    assert!(s.terminated);
    assert_eq!(s.span.start, src.find("asm volatile").unwrap());
    assert_eq!(&src[s.span.end - 3..s.span.end], "));");
    assert_eq!((s.line, s.column, s.indent.as_str()), (3, 2, "\t"));
    assert_eq!(text(&s.template), "ld.global.u32 %0, [%1];");
    assert_eq!(s.template.file_offset(18), Some(src.find("[%1]").unwrap()));
    assert_eq!(&src[s.inputs[0].expr_span.clone()], "p");
    assert_eq!(s.inputs[0].expr, "p");
    assert_origins_consistent(src.as_bytes(), &s);
}

#[test]
fn unterminated_asm_in_a_define_spans_the_expression_only() {
    let src = "#define BAR asm volatile(\"bar.sync 1, 64;\")\n";
    let s = only(src);
    assert!(!s.terminated);
    assert_eq!(&src[s.span.clone()], "asm volatile(\"bar.sync 1, 64;\")");
    assert_eq!(
        s.in_macro,
        Some(MacroContext {
            name: "BAR".into(),
            continued: false,
            uses: None
        })
    );
}

#[test]
fn macro_parameters_in_templates_are_read_only_at_the_uses() {
    let src = "#define LD(mod, x) asm(\"ld.\" #mod \".u32 %0;\" : \"=r\"(x))\n#define OP(op, x) asm(op \" %0;\" : \"=r\"(x))\n";
    let r = scan(src.as_bytes());
    assert_eq!(r.statements.len(), 2, "{r:#?}");
    for (s, name) in r.statements.iter().zip(["LD", "OP"]) {
        assert!(
            matches!(&s.template, Template::Unresolved { reason, .. } if reason.contains(&format!("macro `{name}` is used, and this file uses it nowhere"))),
            "{:?}",
            s.template
        );
    }
}

#[test]
fn finds_asm_in_templates_lambdas_and_every_preprocessor_branch() {
    let src = "template <typename T> __device__ T f(T x) {\n#if __CUDA_ARCH__ >= 800\n  asm(\"a;\");\n#elif FOO\n  asm(\"b;\");\n#else\n  asm(\"c;\");\n#endif\n  auto g = [&] __device__ (int y) { asm(\"d;\"); };\n  return x;\n}\n";
    let r = scan(src.as_bytes());
    let got: Vec<_> = r
        .statements
        .iter()
        .map(|s| text(&s.template).to_string())
        .collect();
    assert_eq!(got, vec!["a;", "b;", "c;", "d;"]);
}

#[test]
fn skips_nvidia_only_regions() {
    let src = "\
#if !defined(__HIP_PLATFORM_AMD__)
void a() { asm(\"nv1;\"); }
#endif
#ifndef __HIPCC__
void b() { asm(\"nv2;\"); }
#endif
#if defined(__HIP_PLATFORM_AMD__)
void c() { asm(\"amd;\"); }
#else
void d() { asm(\"nv3;\"); }
#endif
#ifdef USE_ROCM
#elif X
void e() { asm(\"nv4;\"); }
#endif
#if defined(__HIP__) || defined(__HIP_PLATFORM_HCC__)
#else
void f() { asm(\"nv5;\"); }
#endif
#if FOO
void g() { asm(\"unknown;\"); }
#endif
#define M(x) PTX2HIP_NV_ONLY(asm volatile(\"nv6;\" : \"=r\"(x));)
";
    let r = scan(src.as_bytes());
    let got: Vec<_> = r
        .statements
        .iter()
        .map(|s| text(&s.template).to_string())
        .collect();
    assert_eq!(got, vec!["unknown;"]);
    assert!(r.diagnostics.is_empty(), "{r:#?}");
    let why: Vec<Skip> = r.skipped.iter().map(|s| s.why).collect();
    use Skip::*;
    assert_eq!(
        why,
        vec![NvidiaOnly, NvidiaOnly, NotNvidia, NvidiaOnly, NvidiaOnly, NvidiaOnly, NvidiaOnly]
    );
}

#[test]
fn defines_inside_nvidia_only_regions_are_skipped() {
    let src = "#ifndef __HIP_PLATFORM_AMD__\n#define M asm(\"nv;\")\n#endif\n";
    assert!(scan(src.as_bytes()).statements.is_empty());
}

#[test]
fn ptx2hip_output_scans_to_nothing_new() {
    let src = "__device__ int f(int x) {\n  int y;\n#if defined(__HIP_PLATFORM_AMD__)\n  y = x + 1;\n#else\n  asm(\"add.s32 %0, %1, 1;\" : \"=r\"(y) : \"r\"(x));\n#endif\n  return y;\n}\n";
    assert!(scan(src.as_bytes()).statements.is_empty());
}

#[test]
fn c_constraint_collects_every_specialisation_string() {
    let src = "\
constexpr int mode_rz = 0;
constexpr int mode_rn = 1;
template <int mode> struct helper;
template<> struct helper<mode_rz> {
    static constexpr const char mode[] = \".rz\";
};
template<> struct helper<mode_rn> {
    static constexpr const char mode[] = \".rn\";
};
template <int rounding_mode>
__device__ float compute_add(float a, float b) {
    float result;
    asm (\"add.f32%1 %0,%2,%3;\" : \"=f\"(result)
                            : \"C\"(helper<rounding_mode>::mode),
                              \"f\"(a), \"f\"(b));
    return result;
}
";
    let s = only(src);
    assert_eq!(s.inputs[0].constraint, "C");
    assert_eq!(s.inputs[0].c_strings, vec![".rz", ".rn"]);
    assert!(s.inputs[1].c_strings.is_empty());
}

#[test]
fn c_constraint_reads_brace_lists_and_leaves_template_parameters_empty() {
    let src = "\
struct S1 {
static constexpr char buf1[] = \"Jumped\";
static constexpr char buf2[] = {'O', 'v', 'e', 'r', 0};
};
const char S2::buf[] = \"this\";
template <const char *p1>
__device__ void doit() { asm volatile (\"%0\" : : \"C\"(p1)); }
__global__ void foo() {
    static const char v1[] = \"The\";
    static constexpr char v4[] = { 'F', 'o', 'x', 0 };
    int v5[] = {1};
    asm volatile (\"%0 %1 %2 %3 %4\" : : \"C\"(v1), \"C\"(v4), \"C\"(S1::buf1), \"C\"(S1::buf2), \"C\"(S2::buf));
}
";
    let r = scan(src.as_bytes());
    assert!(r.statements[0].inputs[0].c_strings.is_empty());
    let got: Vec<_> = r.statements[1]
        .inputs
        .iter()
        .map(|o| o.c_strings.join("|"))
        .collect();
    assert_eq!(got, vec!["The", "Fox", "Jumped", "Over", "this"]);
}

#[test]
fn positions_are_exact_with_crlf_and_tabs() {
    let src = "// header\r\n__device__ void f(int x) {\r\n\t\tasm(\"mov.u32 %0, %0;\"\r\n\t\t    \" add.u32 %0, 1;\" : \"+r\"(x));\r\n}\r\n";
    let s = only(src);
    assert_eq!((s.line, s.column, s.indent.as_str()), (3, 3, "\t\t"));
    assert_eq!((s.end_line, s.end_column), (4, 36));
    let t = text(&s.template);
    let k = t.find("add").unwrap();
    assert_eq!(s.template.file_offset(k), Some(src.find("add").unwrap()));
}

#[test]
fn non_utf8_bytes_in_comments_do_not_disturb_offsets() {
    let src = b"// caf\xe9 \xff\xfe\nvoid f() { asm(\"trap;\"); }\n";
    let r = scan(src);
    assert_eq!(r.statements.len(), 1);
    let s = &r.statements[0];
    assert_eq!((s.line, s.column), (2, 12));
    assert_eq!(&src[s.span.clone()], b"asm(\"trap;\");");
}

#[test]
fn prefilter_skips_files_without_asm() {
    assert!(!may_contain_asm(b"int main() { return 0; }"));
    assert!(may_contain_asm(b"__asm__"));
    assert_eq!(scan(b"int main() { return 0; }"), ScanResult::default());
}

#[test]
fn survives_unbalanced_braces_and_truncated_statements() {
    for src in [
        "asm(",
        "void f() { asm(\"x\" : \"=r\"(",
        "}}}} asm volatile(\"a\";",
        "#define X asm(\\",
        "asm(R\"(",
        "\"asm",
    ] {
        let _ = scan(src.as_bytes());
    }
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    const SNIPPET: &str = "#define S \".u32\"\n#define M(x) asm volatile(\"mov\" S \" %0, 1;\" : \"=r\"(x))\n__device__ int f(int j) {\n  int i;\n  asm(\"add.s32 %0, %1, 2;\\n\\t\" // c\n      \"ret;\" : \"=r\"(i) : \"r\"(j));\n  return i;\n}\n";

    /// `base` after each edit `(position, byte, 0 insert | 1 remove | 2 replace)`.
    fn mutated(base: &str, edits: &[(prop::sample::Index, u8, u8)]) -> Vec<u8> {
        let mut src = base.as_bytes().to_vec();
        for (at, byte, op) in edits {
            let i = at.index(src.len() + 1);
            match op {
                0 => src.insert(i, *byte),
                1 if i < src.len() => {
                    src.remove(i);
                }
                _ if i < src.len() => src[i] = *byte,
                _ => {}
            }
        }
        src
    }

    fn check(src: &[u8]) {
        let r = scan(src);
        for s in &r.statements {
            assert!(s.span.start <= s.span.end && s.span.end <= src.len());
            assert_origins_consistent(src, s);
            if let Template::Known { text, origins } = &s.template {
                if !text.is_empty() {
                    assert_eq!(
                        s.template.file_offset(0),
                        origins.first().map(|o| o.file_offset)
                    );
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn never_panics_on_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
            let mut src = b"asm(".to_vec();
            src.extend_from_slice(&bytes);
            check(&src);
        }

        #[test]
        fn never_panics_on_mutations_of_a_valid_snippet(
            edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0..3u8), 1..8)
        ) {
            let src = mutated(SNIPPET, &edits);
            check(&src);
        }
    }

    /// Several top-level declarations, only some with asm.
    const CHUNKY: &str = "int a;\ntemplate <typename T>\n__device__ T id(T x) { return x; }\n__device__ int g(int j) {\n  int i;\n  asm(\"add.s32 %0, %1, 2;\" : \"=r\"(i) : \"r\"(j));\n  return i;\n}\nstruct P { int x; };\n__device__ void h(int& v) { asm volatile(\"mov.u32 %0, 7;\" : \"=r\"(v)); }\nint z;\n";

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, max_global_rejects: 100_000, ..ProptestConfig::default() })]

        /// For any edit that leaves the code well-formed, the keyword-anchored scan accounts for
        /// exactly the statements one parse of the whole file sees.
        #[test]
        fn keyword_anchored_scans_match_a_whole_parse_under_mutation(
            edits in proptest::collection::vec((any::<prop::sample::Index>(), prop::sample::select(b"{}();\"#/\n xa".to_vec()), 0..3u8), 1..6)
        ) {
            let src = mutated(CHUNKY, &edits);
            let mut parser = tree_sitter::Parser::new();
            parser.set_language(&tree_sitter_cuda::LANGUAGE.into()).unwrap();
            let tree = parser.parse(&src, None).unwrap();
            prop_assume!(!tree.root_node().has_error() && !src.contains(&b'#'));
            let r = scan(&src);
            prop_assert_eq!(accounted_starts(&r), whole_parse_statement_starts(&src), "{}", String::from_utf8_lossy(&src));
        }
    }

    #[test]
    fn the_unmutated_snippet_decodes_exactly() {
        let r = scan(SNIPPET.as_bytes());
        assert_eq!(r.statements.len(), 2, "{r:#?}");
        assert_eq!(text(&r.statements[0].template), "mov.u32 %0, 1;");
        assert_eq!(
            text(&r.statements[1].template),
            "add.s32 %0, %1, 2;\n\tret;"
        );
        check(SNIPPET.as_bytes());
    }
}

/// Throughput check on a large generated file: `cargo test -p ptx2hip-core --release --lib
/// scan_speed -- --ignored --nocapture`.
#[test]
#[ignore]
fn scan_speed_on_a_large_file() {
    let unit = "template <int N> __device__ int f_N(int x) {\n  int y;\n  asm volatile(\"add.s32 %0, %1, 1;\\n\\t\" \" mov.u32 %0, %0;\" : \"=r\"(y) : \"r\"(x) : \"memory\");\n  return y + x * 2 - (x >> 3);\n}\n#define M_N(x) asm(\"trap;\")\n";
    let src = unit.repeat(20_000_000 / unit.len());
    let start = std::time::Instant::now();
    let r = scan(src.as_bytes());
    eprintln!(
        "{} MB, {} statements in {:?}",
        src.len() >> 20,
        r.statements.len(),
        start.elapsed()
    );
    assert_eq!(r.statements.len(), 2 * (20_000_000 / unit.len()));
}

#[test]
fn a_large_file_is_handed_over_in_parts_that_add_up_to_the_whole() {
    let unit = r#"
#define LOAD_U32 "ld.global.u32 "
#if !defined(__HIP_PLATFORM_AMD__)
__device__ void nv_only(int x) { asm("add.s32 %0, %0, %0;" : "+r"(x)); }
#endif
#define ADD_MACRO(x) \
  asm volatile("add.s32 %0, %0, 1;" : "+r"(x))
template <typename T> __device__ T f(T x, const unsigned* p) {
  unsigned v;
  asm volatile(LOAD_U32 "%0, [%1];" : "=r"(v) : "l"(p));
  ADD_MACRO(v);
  return x + v;
}
"#;
    // Two statements per unit: more than one batch of `BATCH` (4,096) statements.
    const UNITS: usize = 2_500;
    let src: Vec<u8> = unit.repeat(UNITS).into_bytes();
    let mut parts = 0;
    let mut statements = 0;
    scan_each(&src, None, &Options::default(), &mut |part| {
        parts += 1;
        statements += part.statements.len();
    });
    assert!(parts > 1);
    assert_eq!(statements, UNITS * 2);
    let whole = scan(&src);
    assert_eq!(whole.statements.len(), UNITS * 2);
    assert_eq!(whole.skipped.len(), UNITS);
    assert!(whole.diagnostics.is_empty());
}

/// Every `asm` keyword in code ends as a statement, a diagnostic or a skipped entry at its own
/// offset, in every corpus file: nothing is dropped silently.
#[test]
fn every_keyword_of_the_corpus_is_accounted_for() {
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    for entry in std::fs::read_dir(corpus).unwrap() {
        let path = entry.unwrap().path();
        if !path.is_file() {
            continue;
        }
        let src = std::fs::read(&path).unwrap();
        let r = scan_file(&src, Some(&path), &Options::default());
        let keywords: Vec<usize> = nesting::survey(&src)
            .keywords
            .iter()
            .map(|k| k.at)
            .collect();
        assert_eq!(accounted_starts(&r), keywords, "{}", path.display());
    }
}

/// Shapes that make a syntax tree lose asm (tests/scan/adversarial.cu): every keyword ends as a
/// statement, a diagnostic or a skipped entry that starts at the keyword, on the keyword's line.
#[test]
fn adversarial_shapes_lose_no_keyword() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/scan/adversarial.cu");
    let src = std::fs::read(&path).unwrap();
    let r = scan_file(&src, Some(&path), &Options::default());
    let keywords: Vec<usize> = nesting::survey(&src)
        .keywords
        .iter()
        .map(|k| k.at)
        .collect();
    assert_eq!(accounted_starts(&r), keywords, "{r:#?}");
    let lines = position::LineIndex::new(&src);
    for d in &r.diagnostics {
        assert_eq!(d.line, lines.line_col(d.span.start).0);
    }
    let why: Vec<Skip> = r.skipped.iter().map(|s| s.why).collect();
    use Skip::*;
    assert_eq!(
        why,
        vec![
            NotPtx(Foreign::Host),
            Barrier,
            NotNvidia,
            NotPtx(Foreign::Label),
            NeverCompiled,
            NvidiaOnly
        ]
    );
    let messages: Vec<&str> = r.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(messages.len(), 6, "{messages:#?}");
    assert!(messages[0].contains("not closed"), "{}", messages[0]);
    assert!(messages[1].contains("more than four"), "{}", messages[1]);
    assert!(messages[2].contains("more than four"), "{}", messages[2]);
    assert!(
        messages[3].contains("renames the keyword"),
        "{}",
        messages[3]
    );
    // The first operand of a comma expression: no rewrite can take its place.
    assert_eq!(messages[4], NOT_TERMINATED);
    assert!(messages[5].contains("not closed"), "{}", messages[5]);
    let templates: Vec<String> = r
        .statements
        .iter()
        .map(|s| match &s.template {
            Template::Known { text, .. } => text.clone(),
            Template::Unresolved { reason, .. } => format!("? {reason}"),
        })
        .collect();
    assert_eq!(
        templates,
        vec![
            "add.u32 %0, %0, 1;",
            "add.u32 %0, %0, 2;",
            "add.u32 %0, %0, 3;",
            "add.u32 %0, %0, 4;",
            "ld.global.cg.u32 %0, [%1];",
            "st.global.u32 [%0], %1;",
            "? template piece `UNKNOWN_OP` is a macro not defined in this file (only headers included with \"...\" and found beside the file are read)",
            "? template piece `PTX_OP` is a macro not defined in this file (only headers included with \"...\" and found beside the file are read)",
            "add.u32 %0, %1, %2;",
            "mov.u32 %0, 2;",
        ]
    );
}

fn with_macros(defines: &[&str], undefines: &[&str]) -> Options {
    Options {
        macros: Macros {
            defines: defines
                .iter()
                .map(|d| match d.split_once('=') {
                    Some((n, v)) => (n.to_string(), Some(v.to_string())),
                    None => (d.to_string(), None),
                })
                .collect(),
            undefines: undefines.iter().map(|u| u.to_string()).collect(),
            ..Macros::default()
        },
    }
}

fn texts(r: &ScanResult) -> Vec<String> {
    r.statements
        .iter()
        .map(|s| match &s.template {
            Template::Known { text, .. } => text.clone(),
            Template::Unresolved { reason, .. } => format!("? {reason}"),
        })
        .collect()
}

#[test]
fn template_pieces_come_from_local_headers_resolved_next_to_the_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("ptx")).unwrap();
    std::fs::write(
        dir.path().join("ptx/ops.h"),
        "#pragma once\n#include \"cache.h\"\n#define LD_U32 \"ld.global\" CACHE_OP \".u32 \"\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("ptx/cache.h"), "#define CACHE_OP \".cg\"\n").unwrap();
    let src = "#include \"ptx/ops.h\"\n#include <cuda.h>\n__device__ void f(unsigned* p) { unsigned v; asm(LD_U32 \"%0, [%1];\" : \"=r\"(v) : \"l\"(p)); }\n";
    let path = dir.path().join("k.cu");
    let r = scan_file(src.as_bytes(), Some(&path), &Options::default());
    assert_eq!(texts(&r), vec!["ld.global.cg.u32 %0, [%1];"]);

    // Text from a header points at the name that brought it in.
    let s = &r.statements[0];
    assert_eq!(s.template.file_offset(3), Some(src.find("LD_U32").unwrap()));
    assert_eq!(
        s.template.file_offset(16),
        Some(src.find("LD_U32").unwrap())
    );
    assert_eq!(
        s.template.file_offset(17),
        Some(src.find("%0, [%1]").unwrap())
    );
    // Without a file, the same text names the piece it cannot see.
    let r = scan(src.as_bytes());
    assert_eq!(
        texts(&r),
        vec!["? template piece `LD_U32` is a macro not defined in this file (only headers included with \"...\" and found beside the file are read)"]
    );
}

#[test]
fn stringification_function_like_macros_and_pasting_expand_as_the_preprocessor_does() {
    let src = r#"#define STR_(x) #x
#define STR(x) STR_(x)
#define MIN(ty) "min." #ty " %0, %1, %2;"
#define OP(x) OP_##x
#define OP_add "add.u32 %0, %1, %2;"
#define CAT(a, ...) a __VA_ARGS__
#define TY .s32
__device__ void f(int a, int b, int d) {
  asm("min" STR(.s32) " %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  asm(MIN(u32) : "=r"(d) : "r"(a), "r"(b));
  asm(OP(add) : "=r"(d) : "r"(a), "r"(b));
  asm(CAT("sub", ".u32 %0, %1, %2;") : "=r"(d) : "r"(a), "r"(b));
  asm("max" STR(TY) " %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  asm(MIN : "=r"(d));
}
"#;
    let r = scan(src.as_bytes());
    assert_eq!(
        texts(&r),
        vec![
            "min.s32 %0, %1, %2;",
            "min.u32 %0, %1, %2;",
            "add.u32 %0, %1, %2;",
            "sub.u32 %0, %1, %2;",
            "max.s32 %0, %1, %2;",
            "? template piece `MIN` names a function-like macro but is not called with arguments",
        ]
    );
    // A stringified argument written without blanks keeps exact positions.
    let s = &r.statements[0];
    assert_eq!(s.template.file_offset(3), Some(src.find(".s32)").unwrap()));
    assert_origins_consistent(src.as_bytes(), s);
}

#[test]
fn constraints_and_clobbers_may_be_macros() {
    let src = "#define R \"r\"\n#define OUT \"=\" R\n#define MEM \"memory\"\n__device__ void f(int a, int d) { asm(\"mov.u32 %0, %1;\" : OUT(d) : R(a) : MEM); }\n";
    let s = only(src);
    assert_eq!(s.outputs[0].constraint, "=r");
    assert_eq!(s.inputs[0].constraint, "r");
    assert_eq!(s.clobbers, vec!["memory"]);
    let src = "__device__ void f(int* p) { asm(\"st.u32 [%0], 1;\" :: ELSEWHERE(p)); }\n";
    assert_eq!(
        texts(&scan(src.as_bytes())),
        vec![
            "? operand constraint: template piece `ELSEWHERE` is a macro not defined in this file (only headers included with \"...\" and found beside the file are read)"
        ]
    );
}

#[test]
fn an_if_inside_a_statement_takes_the_arm_amd_compiles() {
    let src = "__device__ void f(unsigned* p, unsigned v) {\n  asm volatile(\n#if ENABLE_PREFETCH\n    \"ld.global.L2::128B.u32 %0, [%1];\"\n#else\n    \"ld.global.u32 %0, [%1];\"\n#endif\n#ifdef __HIP_PLATFORM_AMD__\n    : \"=r\"(v) : \"l\"(p)\n#else\n    : \"=r\"(v) : \"l\"(p) : \"memory\"\n#endif\n  );\n}\n";
    let r = scan_file(
        src.as_bytes(),
        None,
        &with_macros(&["ENABLE_PREFETCH=1"], &[]),
    );
    assert_eq!(texts(&r), vec!["ld.global.L2::128B.u32 %0, [%1];"]);
    assert!(
        r.statements[0].clobbers.is_empty(),
        "the AMD arm has no clobber"
    );
    let r = scan_file(
        src.as_bytes(),
        None,
        &with_macros(&[], &["ENABLE_PREFETCH"]),
    );
    assert_eq!(texts(&r), vec!["ld.global.u32 %0, [%1];"]);
    let r = scan(src.as_bytes());
    assert_eq!(
        layout(&r.statements[0]),
        vec![
            "#if ENABLE_PREFETCH",
            "`#if ENABLE_PREFETCH`: ld.global.L2::128B.u32 %0, [%1];",
            "#else",
            "`#else` of `#if ENABLE_PREFETCH`: ld.global.u32 %0, [%1];",
            "#endif"
        ]
    );
}

/// A statement's arms: directive lines, and each reading as `arms: template`.
fn layout(s: &AsmStatement) -> Vec<String> {
    let arms = s.arms.as_ref().expect("a statement with arms");
    arms.layout
        .iter()
        .map(|piece| match piece {
            ArmPiece::Directive(d) => d.clone(),
            ArmPiece::Reading { arms, statement } => {
                assert!(statement.arms.is_none());
                format!("{arms}: {}", text(&statement.template))
            }
        })
        .collect()
}

#[test]
fn undecided_ifs_inside_a_statement_are_read_once_per_arm_in_file_order() {
    let src = "__device__ void f(unsigned a, unsigned& r) {\n  asm(\"add.u32 %0, %1, 1;\"\n#ifdef SAT\n      \"min.u32 %0, %0, 255;\"\n#endif\n#if MODE == 1\n      \"not.b32 %0, %0;\"\n#elif MODE == 2\n      \"neg.s32 %0, %0;\"\n#else\n#endif\n      : \"=r\"(r) : \"r\"(a));\n}\n";
    let s = only(src);
    assert_eq!(
        text(&s.template),
        "add.u32 %0, %1, 1;min.u32 %0, %0, 255;not.b32 %0, %0;"
    );
    let got = layout(&s);
    let directives: Vec<&str> = got
        .iter()
        .filter(|l| l.starts_with('#'))
        .map(String::as_str)
        .collect();
    assert_eq!(
        directives,
        [
            "#ifdef SAT",
            "#if MODE == 1",
            "#elif MODE == 2",
            "#else",
            "#endif",
            "#else",
            "#if MODE == 1",
            "#elif MODE == 2",
            "#else",
            "#endif",
            "#endif"
        ]
    );
    assert_eq!(got.len(), 11 + 6);
    assert_eq!(
        got[got.len() - 3],
        "no arm of `#ifdef SAT`, `#else` of `#if MODE == 1`: add.u32 %0, %1, 1;"
    );
}

#[test]
fn arms_are_not_read_where_no_directive_may_choose_between_them() {
    let src = "#define F(x) x\n__device__ void f(unsigned a, unsigned& r) {\n  F((asm(\"add.u32 %0, %1, 1;\"\n#ifdef SAT\n      \"min.u32 %0, %0, 255;\"\n#endif\n      : \"=r\"(r) : \"r\"(a))));\n}\n";
    assert_eq!(
        texts(&scan(src.as_bytes())),
        ["? the statement holds `#ifdef SAT`, which ptx2hip cannot decide for AMD, inside parentheses (perhaps a macro's arguments), where no directive may choose between translations of its arms (declare the macros with -D/-U)"]
    );
}

#[test]
fn an_arm_that_cannot_be_read_names_the_arm() {
    let src = "__device__ void f(unsigned a, unsigned& r) {\n  asm(\"add.u32 %0, %1, 1;\"\n#ifdef SAT\n      ELSEWHERE\n#endif\n      : \"=r\"(r) : \"r\"(a));\n}\n";
    assert_eq!(
        texts(&scan(src.as_bytes())),
        ["? template piece `ELSEWHERE` is a macro not defined in this file (only headers included with \"...\" and found beside the file are read) (in the arm `#ifdef SAT`)"]
    );
    let src = "__device__ void f(unsigned a, unsigned& r) {\n  asm(\"add.u32 %0, %1, 1;\"\n#ifdef SAT\n      : \"=r\"(r) : \"r\"(a) ]\n#else\n      : \"=r\"(r) : \"r\"(a)\n#endif\n      );\n}\n";
    let r = scan(src.as_bytes());
    assert!(r.statements.is_empty());
    assert!(
        r.diagnostics[0]
            .message
            .starts_with("could not read this asm statement (reading `#ifdef SAT`): "),
        "{:?}",
        r.diagnostics
    );
}

#[test]
fn definitions_under_undecided_ifs_are_read_per_definition_until_declared() {
    let src = "#if __CUDA_ARCH__ >= 350\n#define LD \"ld.global.nc.u32 \"\n#else\n#define LD \"ld.global.u32 \"\n#endif\n#define SAME \".u32\"\n#ifdef X\n#define SAME \".u32\"\n#endif\n__device__ void f(unsigned* p, unsigned v) { asm(LD \"%0, [%1];\" : \"=r\"(v) : \"l\"(p)); asm(\"mov\" SAME \" %0, 1;\" : \"=r\"(v)); }\n";
    let r = scan(src.as_bytes());
    assert_eq!(
        texts(&r),
        vec!["ld.global.nc.u32 %0, [%1];", "mov.u32 %0, 1;"]
    );
    assert!(r.statements[0].arms.is_some() && r.statements[1].arms.is_none());
    let r = scan_file(
        src.as_bytes(),
        None,
        &with_macros(&["__CUDA_ARCH__=800"], &[]),
    );
    assert_eq!(texts(&r)[0], "ld.global.nc.u32 %0, [%1];");
}

#[test]
fn amd_only_and_host_only_arms_hold_no_ptx() {
    let src = "\
#ifdef USE_ROCM
__device__ void a() { asm(\"v_nop\"); }
#endif
#if defined(__HIPCC__) || defined(__HIP__)
__device__ void b() { asm(\"s_nop 0\"); }
#elif defined(__HIP_DEVICE_COMPILE__)
__device__ void c() { asm(\"s_nop 1\"); }
#endif
#ifndef __CUDA_ARCH__
inline void d() { asm(\"pause\"); }
#endif
#if defined(__CUDA_ARCH__)
__device__ void e() { asm(\"trap;\"); }
#endif
#if defined(__CUDA_ARCH__) && defined(__NVCC__)
__device__ void f() { asm(\"exit;\"); }
#endif
#if defined(GGML_USE_HIP)
__device__ void g() { asm(\"brkpt;\"); }
#endif
";
    let r = scan(src.as_bytes());
    assert_eq!(texts(&r), vec!["trap;", "brkpt;"]);
    let why: Vec<Skip> = r.skipped.iter().map(|s| s.why).collect();
    use Skip::*;
    // The `#elif` after an arm AMD always takes is compiled by neither.
    assert_eq!(
        why,
        vec![NotNvidia, NotNvidia, NeverCompiled, NotNvidia, NvidiaOnly]
    );
    // The project's own platform macro, declared by the user.
    let user = Options {
        macros: Macros {
            amd_defines: vec![("GGML_USE_HIP".into(), None)],
            ..Macros::default()
        },
    };
    let r = scan_file(src.as_bytes(), None, &user);
    assert_eq!(texts(&r), vec!["trap;"]);
    assert_eq!(r.skipped.last().map(|s| s.why), Some(NotNvidia));
    let r = scan_file(src.as_bytes(), None, &with_macros(&[], &["GGML_USE_HIP"]));
    assert_eq!(texts(&r), vec!["trap;"]);
    assert_eq!(r.skipped.last().map(|s| s.why), Some(NeverCompiled));
}

/// The tree-sitter reference on well-formed code with declarations split over lines and an `#if`
/// arm both compilations see: the keyword-anchored scan finds the statements a whole parse finds.
#[test]
fn statements_found_from_the_keywords_are_those_of_one_whole_parse() {
    let tricky = r#"#ifndef TRICKY_H
#define TRICKY_H
#include <cstdint>
template <typename T>
__device__ T plain(T x) { return x; }
template <typename T>
__device__ __forceinline__
T with_asm(T x) {
  asm volatile("add.s32 %0, %0, 1;" : "+r"(x));
  return x;
}
struct S { int a; };
__global__ void
__launch_bounds__(256)
k(int* p) {
  int v = p[0];
  asm("mul.lo.u32 %0, %0, 3;" : "+r"(v));
  p[0] = v;
}
#if defined(__CUDA_ARCH__)
__device__ int g(int x) { asm("sub.s32 %0, %0, 2;" : "+r"(x)); return x; }
#endif
int trailing;
#endif
"#;
    let r = scan(tricky.as_bytes());
    assert_eq!(r.statements.len(), 3, "{r:#?}");
    assert!(r.diagnostics.is_empty() && r.skipped.is_empty());
    assert_eq!(
        accounted_starts(&r),
        whole_parse_statement_starts(tricky.as_bytes())
    );
}

/// What encloses a statement is read from the bytes and travels with it: directives may only go
/// where it sits among statements.
#[test]
fn each_statement_knows_what_encloses_it() {
    let add = r#"asm("add.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b))"#;
    let src = format!(
        "__device__ void f(unsigned a, unsigned b, unsigned d) {{\n  {add};\n  NV_IF_TARGET(NV_PROVIDES_SM_90, ({add};));\n  DEVICE_STMT(d, {add});\n}}\n#define M(d) WRAP(d, {add})\n"
    );
    let places: Vec<Place> = scan(src.as_bytes())
        .statements
        .into_iter()
        .map(|s| s.place)
        .collect();
    let argument = |callee: &str| Place::Argument {
        callee: callee.into(),
    };
    assert_eq!(
        places,
        [
            Place::Block,
            Place::Group,
            argument("DEVICE_STMT"),
            argument("WRAP")
        ]
    );
}

#[test]
fn among_statements_a_statement_whose_semicolon_does_not_follow_is_refused() {
    let add = r#"asm("add.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b))"#;
    for src in [
        format!("__device__ unsigned f(unsigned a, unsigned b) {{\n  unsigned d;\n  {add} return d;\n}}\n"),
        format!("__device__ void f(unsigned a, unsigned b, unsigned d) {{\n#if X\n  {add}\n#else\n  {add}\n#endif\n  ;\n}}\n"),
    ] {
        let r = scan(src.as_bytes());
        assert!(r.statements.is_empty(), "{r:#?}");
        assert!(!r.diagnostics.is_empty());
        assert!(r.diagnostics.iter().all(|d| d.message == NOT_TERMINATED));
    }
    // In a `#define` body or a macro argument, the asm expression alone is the statement.
    let src = format!("#define M {add}\nDEVICE_STMT({add});\n");
    let r = scan(src.as_bytes());
    assert_eq!(r.statements.len(), 2, "{r:#?}");
    assert!(r.statements.iter().all(|s| !s.terminated));
}

/// Code that only NVIDIA compiles — behind an AMD test, or ptx2hip's own kept originals — is
/// recognised from the bytes, whatever precedes it.
#[test]
fn code_that_only_nvidia_compiles_is_recognised_from_the_bytes() {
    let nvidia_only = |src: &str| {
        let r = scan(src.as_bytes());
        assert!(r.diagnostics.is_empty(), "{r:#?}");
        match (&r.statements[..], &r.skipped[..]) {
            ([], [s]) => s.why == Skip::NvidiaOnly,
            ([_], []) => false,
            _ => panic!("{r:#?}"),
        }
    };
    let asm = "asm(\"trap;\");";
    for src in [
        format!("#if !defined(__HIP_PLATFORM_AMD__)\n{asm}\n#endif\n"),
        format!("#if defined(__HIP_PLATFORM_AMD__)\ny;\n#else\n{asm}\n#endif\n"),
        format!("  #if defined(__HIP_PLATFORM_AMD__)\n  y;\n  #else\n  {asm}\n  #endif\n"),
        format!("#ifdef __HIP__\ny;\n#elif defined(FOO)\n{asm}\n#endif\n"),
        format!("{}#if !defined(__HIP__)\n{asm}\n#endif\n", "\u{feff}"),
        format!("void f() {{ M(PTX2HIP_AMD_ONLY(y;) PTX2HIP_NV_ONLY({asm})); }}"),
    ] {
        assert!(nvidia_only(&src), "{src}");
    }
    for src in [
        format!("#if defined(__CUDA_ARCH__)\n{asm}\n#endif\n"),
        format!("#if !defined(__HIP__)\ny;\n#endif\n{asm}\n"),
        format!("#ifndef __HIP__\n#else\n#endif\n{asm}\n"),
    ] {
        assert!(!nvidia_only(&src), "{src}");
    }
}

/// An `#if` block inside a statement is read when it lies wholly inside; a preprocessor line of a
/// block that begins or ends outside the statement would be cut in two by a rewrite, so each
/// keyword is then a diagnostic of its own.
#[test]
fn preprocessor_lines_of_a_block_reaching_outside_the_statement_are_refused() {
    let src = "__device__ void f(int a, int b) {\n#ifdef A\n  asm(\"mov.u32 %0, 1;\" : \"=r\"(a)\n#else\n  asm(\"mov.u32 %0, 2;\" : \"=r\"(b)\n#endif\n  );\n}\n";
    let r = scan(src.as_bytes());
    assert!(r.statements.is_empty(), "{r:#?}");
    let lines: Vec<usize> = r.diagnostics.iter().map(|d| d.line).collect();
    assert_eq!(lines, [3, 5]);
    assert!(r.diagnostics[0].message.contains("not closed"), "{r:#?}");
    assert!(r.diagnostics[1].message.starts_with("`#endif` inside"));
    let src = "__device__ void f(int a, int b) {\n  asm(\"mov.u32 %0, 1;\"\n#ifdef A\n  : \"=r\"(a)\n#else\n  : \"=r\"(b)\n#endif\n#if B\n  );\n#endif\n}\n";
    let r = scan(src.as_bytes());
    assert!(r.statements.is_empty(), "{r:#?}");
    assert!(
        r.diagnostics[0].message.starts_with("`#if B` inside"),
        "{r:#?}"
    );
    let src = "__device__ void f(unsigned* p, unsigned v) {\n  asm volatile(\"ld.global.u32 %0, [%1];\"\n#ifdef __HIP_PLATFORM_AMD__\n    : \"=r\"(v) : \"l\"(p));\n#else\n    : \"=r\"(v) : \"l\"(p) : \"memory\");\n#endif\n}\n";
    let r = scan(src.as_bytes());
    assert!(r.statements.is_empty(), "{r:#?}");
    assert!(r.diagnostics[0]
        .message
        .starts_with("`#ifdef __HIP_PLATFORM_AMD__` inside"));
    // Other preprocessor lines, and `#if` blocks inside an operand expression (a rewrite copies
    // the expression into a line of its own), are not kept either; a keyword in a `#define`
    // inside the statement is then read on its own.
    let src = "__device__ void f(unsigned* p, unsigned v) {\n  asm(\"st.global.u32 [%0], %1;\" :: \"l\"(\n#define M(d) asm(\"mov.u32 %0, 1;\" : \"=r\"(d))\n  p), \"r\"(v));\n  asm(\"st.global.u32 [%0], %1;\" :: \"l\"(p), \"r\"(\n#if X\n  v\n#else\n  v + 1\n#endif\n  ));\n}\n";
    let r = scan(src.as_bytes());
    let messages: Vec<&str> = r.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "`#define M(d) asm(\"mov.u32 %0, 1;\" : \"=r\"(d))` inside this asm statement is not an `#if` block: left as written",
            "`#if X` inside this asm statement sits inside an operand expression, which a rewrite moves: left as written",
        ]
    );
    assert_eq!(texts(&r), ["mov.u32 %0, 1;"]);
}

#[test]
fn each_arm_ends_its_own_template_where_the_sections_start_inside_the_arms() {
    let src = "__device__ void f(unsigned s, const void* g) {\n  asm volatile(\n#if PREFETCH\n    \"cp.async.ca.shared.global.L2::128B [%0], [%1], 4;\\n\" ::\"r\"(s),\n#else\n    \"cp.async.ca.shared.global [%0], [%1], 4;\\n\" ::\"r\"(s),\n#endif\n    \"l\"(g));\n}\n";
    let s = only(src);
    assert_eq!(
        layout(&s),
        [
            "#if PREFETCH",
            "`#if PREFETCH`: cp.async.ca.shared.global.L2::128B [%0], [%1], 4;\n",
            "#else",
            "`#else` of `#if PREFETCH`: cp.async.ca.shared.global [%0], [%1], 4;\n",
            "#endif"
        ]
    );
    let ArmPiece::Reading { statement, .. } = &s.arms.as_ref().unwrap().layout[3] else {
        panic!()
    };
    assert_eq!(statement.inputs.len(), 2);
}

#[test]
fn a_lone_carriage_return_ends_a_line_as_the_compiler_reads_it() {
    // Old Mac line endings: a `//` comment or a directive ends at the CR, so the statements
    // after it are read, at their own lines and columns.
    let src =
        "// licence\r#define N 4\r__device__ void f(int a) {\r  asm volatile(\"trap;\");\r}\r";
    let s = only(src);
    assert_eq!((s.line, s.column), (4, 3));
    assert_eq!(text(&s.template), "trap;");
    assert_eq!(&src.as_bytes()[s.span.clone()], b"asm volatile(\"trap;\");");
}

#[test]
fn an_asm_keyword_cut_by_a_line_splice_is_reported_never_passed() {
    for src in [
        "__device__ void f() {\n  as\\\nm volatile(\"trap;\");\n}\n",
        "__device__ void f() {\r\n  __as\\\r\nm__(\"trap;\");\r\n}\r\n",
    ] {
        let r = scan(src.as_bytes());
        assert!(r.statements.is_empty(), "{r:#?}");
        assert_eq!(r.diagnostics.len(), 1, "{src:?}");
        assert_eq!(r.diagnostics[0].line, 2);
        assert!(r.diagnostics[0]
            .message
            .contains("cut by a line continuation"));
    }
    // A name that merely continues over a splice is no keyword.
    assert!(scan(b"int as\\\nmx = 1; // asm\n").diagnostics.is_empty());
}
