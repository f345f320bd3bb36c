//! Specification tests for the PTX parser and printer.

use super::*;

/// Resets every span to `0..0`, so trees can be compared for structure only.
pub(super) fn strip(block: &Block) -> Block {
    Block {
        items: block
            .items
            .iter()
            .map(|item| match item {
                Item::Instruction(i) => Item::Instruction(Instruction {
                    span: 0..0,
                    ..i.clone()
                }),
                Item::RegDecl(d) => Item::RegDecl(RegDecl {
                    span: 0..0,
                    ..d.clone()
                }),
                Item::Label { name, .. } => Item::Label {
                    name: name.clone(),
                    span: 0..0,
                },
                Item::Scope { block, .. } => Item::Scope {
                    block: strip(block),
                    span: 0..0,
                },
                Item::Pragma { text, .. } => Item::Pragma {
                    text: text.clone(),
                    span: 0..0,
                },
            })
            .collect(),
    }
}

fn p(src: &str) -> Block {
    match parse(src) {
        Ok(b) => b,
        Err(e) => panic!("parse failed for {src:?}: {} at {:?}", e.message, e.span),
    }
}

fn perr(src: &str) -> PtxError {
    match parse(src) {
        Ok(b) => panic!("expected an error for {src:?}, got {b:?}"),
        Err(e) => e,
    }
}

/// The single instruction of a template.
fn insn(src: &str) -> Instruction {
    let b = p(src);
    match b.items.as_slice() {
        [Item::Instruction(i)] => i.clone(),
        other => panic!("expected one instruction in {src:?}, got {other:?}"),
    }
}

fn ident(name: &str) -> Reg {
    Reg::Ident {
        name: name.into(),
        component: None,
    }
}

fn reg(r: Reg) -> Operand {
    Operand::Reg(r)
}

fn asm(n: usize) -> Operand {
    Operand::Reg(Reg::AsmOperand(n))
}

fn int(v: i128) -> Operand {
    Operand::Imm(Immediate::Int(v))
}

fn roundtrip(src: &str) {
    let b = p(src);
    let printed = b.to_string();
    let again = parse(&printed).unwrap_or_else(|e| panic!("reparse of {printed:?} failed: {e:?}"));
    assert_eq!(strip(&b), strip(&again), "printed: {printed}");
}

#[test]
fn seed_add_has_three_asm_operands() {
    let i = insn("add.s32 %0, %1, %2;");
    assert_eq!(i.opcode, "add");
    assert_eq!(i.modifiers, ["s32"]);
    assert_eq!(i.operands, [asm(0), asm(1), asm(2)]);
    assert_eq!(i.span, 0..19);
    assert_eq!(i.form(), "add.s32");
}

#[test]
fn double_percent_special_register_is_one_percent_in_ptx() {
    let i = insn("mov.u32 %0, %%clock;");
    assert_eq!(i.operands, [asm(0), reg(ident("%clock"))]);
    let i = insn("mov.u32 %0, %%laneid;");
    assert_eq!(i.operands[1], reg(ident("%laneid")));
    let i = insn("mov.u32 %0, %%r1;");
    assert_eq!(i.operands[1], reg(ident("%r1")));
}

#[test]
fn special_register_components_are_split_off() {
    let i = insn("mov.u32 %0, %%tid.x;");
    assert_eq!(
        i.operands[1],
        reg(Reg::Ident {
            name: "%tid".into(),
            component: Some('x')
        })
    );
    let i = insn("mov.u32 %0, %%ctaid.w;");
    assert_eq!(
        i.operands[1],
        reg(Reg::Ident {
            name: "%ctaid".into(),
            component: Some('w')
        })
    );
    let e = perr("mov.u32 %0, %%tid.q;");
    assert!(e.message.contains("components"), "{}", e.message);
    assert_eq!(e.span, 17..19);
}

#[test]
fn seed_cube_routine_declares_and_uses_a_temporary() {
    let b = p(".reg .u32 t1;\n\t mul.lo.u32 t1, %1, %1;\n\t mul.lo.u32 %0, t1, %1;");
    assert_eq!(b.items.len(), 3);
    let Item::RegDecl(d) = &b.items[0] else {
        panic!()
    };
    assert_eq!(
        (d.space.as_str(), d.vector, d.ty.as_str()),
        ("reg", None, "u32")
    );
    assert_eq!(d.names, ["t1"]);
    assert_eq!(d.span, 0..13);
    let Item::Instruction(i) = &b.items[1] else {
        panic!()
    };
    assert_eq!(i.form(), "mul.lo.u32");
    assert_eq!(i.operands, [reg(ident("t1")), asm(1), asm(1)]);
    let Item::Instruction(i) = &b.items[2] else {
        panic!()
    };
    assert_eq!(i.operands, [asm(0), reg(ident("t1")), asm(1)]);
}

#[test]
fn seed_cond_routine_uses_single_percent_predicate_in_a_scope() {
    let b = p("{ .reg .pred %p; setp.eq.s32 %p, %1, 34; @%p mov.s32 %0, 1; }");
    let [Item::Scope { block, span }] = b.items.as_slice() else {
        panic!("{b:?}")
    };
    assert_eq!(*span, 0..61);
    let [Item::RegDecl(d), Item::Instruction(setp), Item::Instruction(mov)] =
        block.items.as_slice()
    else {
        panic!()
    };
    assert_eq!(d.ty, "pred");
    assert_eq!(d.names, ["%p"]);
    assert_eq!(setp.operands, [reg(ident("%p")), asm(1), int(34)]);
    assert_eq!(
        mov.guard,
        Some(Guard {
            negated: false,
            reg: ident("%p")
        })
    );
    assert_eq!(mov.operands, [asm(0), int(1)]);
    // `%%p` is the same PTX name.
    let b2 = p("{ .reg .pred %%p; setp.eq.s32 %%p, %1, 34; @%%p mov.s32 %0, 1; }");
    assert_eq!(strip(&b), strip(&b2));
}

#[test]
fn seed_predicated_vector_load() {
    let src = "{\n  .reg .pred p;\n  setp.ne.b32 p, %5, 0;\n  mov.b32 %0, %6;\n  mov.b32 %1, %7;\n  \
               mov.b32 %2, %8;\n  mov.b32 %3, %9;\n  @p ld.global.v4.u32 {%0, %1, %2, %3}, [%4];\n}\n";
    let b = p(src);
    let [Item::Scope { block, .. }] = b.items.as_slice() else {
        panic!()
    };
    assert_eq!(block.items.len(), 7);
    let Item::Instruction(ld) = &block.items[6] else {
        panic!()
    };
    assert_eq!(
        ld.guard,
        Some(Guard {
            negated: false,
            reg: ident("p")
        })
    );
    assert_eq!(ld.opcode, "ld");
    assert_eq!(ld.modifiers, ["global", "v4", "u32"]);
    assert_eq!(
        ld.operands,
        [
            Operand::Vector(vec![asm(0), asm(1), asm(2), asm(3)]),
            Operand::Memory {
                base: Some(Reg::AsmOperand(4)),
                offset: 0
            }
        ]
    );
    assert_eq!(
        &src[ld.span.clone()],
        "@p ld.global.v4.u32 {%0, %1, %2, %3}, [%4];"
    );
    roundtrip(src);
}

#[test]
fn seed_single_instructions() {
    let i = insn("cvt.rni.sat.s8.f16 %0, %1;");
    assert_eq!(i.modifiers, ["rni", "sat", "s8", "f16"]);
    let i = insn("st.u32 [%0], %1;");
    assert_eq!(
        i.operands,
        [
            Operand::Memory {
                base: Some(Reg::AsmOperand(0)),
                offset: 0
            },
            asm(1)
        ]
    );
    let i = insn("membar.gl;");
    assert_eq!((i.opcode.as_str(), i.operands.len()), ("membar", 0));
}

#[test]
fn modifiers_keep_written_order_and_whitespace_inside_opcode_is_ignored() {
    let i = insn("prmt .b32 %0, %1, %2, %3;");
    assert_eq!(
        (i.opcode.as_str(), i.modifiers.as_slice()),
        ("prmt", &["b32".to_string()][..])
    );
    let i = insn("mov .s32 %0, %1;");
    assert_eq!(i.modifiers, ["s32"]);
    let i = insn("ldmatrix.sync.aligned.x4.m8n8.shared.b16 {%0,%1,%2,%3}, [%4];");
    assert_eq!(
        i.modifiers,
        ["sync", "aligned", "x4", "m8n8", "shared", "b16"]
    );
    let i = insn("ld.acquire.gpu.global.b32 %0, [%1];");
    assert_eq!(i.modifiers, ["acquire", "gpu", "global", "b32"]);
}

#[test]
fn compound_modifiers_keep_double_colons() {
    let i = insn("cp.async.cg.shared.global.L2::128B [%0], [%1], 16;");
    assert_eq!(i.modifiers, ["async", "cg", "shared", "global", "L2::128B"]);
    let i = insn("mbarrier.try_wait.parity.shared::cta.b64 %0, [%1], %2;");
    assert_eq!(i.modifiers, ["try_wait", "parity", "shared::cta", "b64"]);
    let i = insn("ld.global.L1::no_allocate.v4.b32 {%0,%1,%2,%3}, [%4];");
    assert_eq!(i.modifiers[1], "L1::no_allocate");
    let i = insn("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};");
    assert_eq!(i.modifiers[2], "m16n8k16");
    assert_eq!(i.operands.len(), 4);
}

#[test]
fn opcode_is_the_first_word_and_may_contain_underscores() {
    let i = insn("cp.async.wait_group 0;");
    assert_eq!(i.opcode, "cp");
    assert_eq!(i.modifiers, ["async", "wait_group"]);
    assert_eq!(i.operands, [int(0)]);
    let i = insn("cp.async.commit_group;");
    assert_eq!(i.modifiers, ["async", "commit_group"]);
}

#[test]
fn guards_accept_every_spelling() {
    for (src, negated, r) in [
        ("@p bra L;", false, ident("p")),
        ("@!p bra L;", true, ident("p")),
        ("@%p bra L;", false, ident("%p")),
        ("@%%p bra L;", false, ident("%p")),
        ("@%0 bra L;", false, Reg::AsmOperand(0)),
        ("@!%[pred] bra L;", true, Reg::AsmNamed("pred".into())),
    ] {
        let i = insn(src);
        assert_eq!(i.guard, Some(Guard { negated, reg: r }), "{src}");
        assert_eq!(i.operands, [Operand::Label("L".into())]);
    }
}

#[test]
fn declarations_cover_ranges_vectors_and_spaces() {
    let b = p(".reg .pred p, q; .reg .b32 %r<4>; .reg .v4 .f32 v; .reg .f16x2 h; .local .u32 l; .shared .b64 s;");
    let decls: Vec<&RegDecl> = b
        .items
        .iter()
        .map(|i| match i {
            Item::RegDecl(d) => d,
            _ => panic!(),
        })
        .collect();
    assert_eq!(decls[0].names, ["p", "q"]);
    assert_eq!(decls[1].names, ["%r0", "%r1", "%r2", "%r3"]);
    assert_eq!((decls[2].vector, decls[2].ty.as_str()), (Some(4), "f32"));
    assert_eq!(decls[3].ty, "f16x2");
    assert_eq!(decls[4].space, "local");
    assert_eq!(decls[5].space, "shared");
    assert_eq!(
        p(".reg .b32 %%r<2>;").items,
        p(".reg .b32 %r0, %r1;")
            .items
            .iter()
            .map(|i| match i {
                Item::RegDecl(d) => Item::RegDecl(RegDecl {
                    span: 0..17,
                    ..d.clone()
                }),
                _ => unreachable!(),
            })
            .collect::<Vec<_>>()
    );
}

#[test]
fn bad_register_ranges_are_errors() {
    let e = perr(".reg .b32 %r<x>;");
    assert!(
        e.message.starts_with("unknown register range"),
        "{}",
        e.message
    );
    assert_eq!(e.span, 13..14);
    let e = perr(".reg .b32 %r<0>;");
    assert!(e.message.starts_with("unknown register range"));
    let e = perr(".reg .b32 %r<100000000000>;");
    assert!(e.message.starts_with("unknown register range"));
    let e = perr(".reg .b32 %r<4;");
    assert_eq!(
        e.message,
        "expected '>' to close the register range, found ';'"
    );
}

#[test]
fn labels_plain_dollar_and_unique() {
    let b = p("LOOP: $L__BB0_1:\n LAB_%=: bra LAB_%=; @p bra.uni LOOP; bra $L__BB0_1;");
    let names: Vec<_> = b
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Label { name, .. } => Some(name.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(names, ["LOOP", "$L__BB0_1", "LAB_%="]);
    let Item::Label { span, .. } = &b.items[2] else {
        panic!()
    };
    assert_eq!(*span, 18..25);
    let Item::Instruction(bra) = &b.items[3] else {
        panic!()
    };
    assert_eq!(bra.operands, [Operand::Label("LAB_%=".into())]);
    let Item::Instruction(bra) = &b.items[4] else {
        panic!()
    };
    assert_eq!(bra.modifiers, ["uni"]);
    assert_eq!(bra.operands, [Operand::Label("LOOP".into())]);
    roundtrip("LOOP: $L__BB0_1:\n LAB_%=: bra LAB_%=; @p bra.uni LOOP; bra $L__BB0_1;");
}

#[test]
fn unique_id_alone_is_an_operand() {
    let i = insn("mov.u32 %0, %=;");
    assert_eq!(i.operands[1], reg(Reg::UniqueId));
}

#[test]
fn nested_scopes_and_vector_operands_are_told_apart_by_position() {
    let b = p("{ { mov.b32 %0, 0; } mov.b64 {%0, %1}, %2; }");
    let [Item::Scope { block, .. }] = b.items.as_slice() else {
        panic!()
    };
    assert!(matches!(&block.items[0], Item::Scope { block, .. } if block.items.len() == 1));
    let Item::Instruction(i) = &block.items[1] else {
        panic!()
    };
    assert_eq!(i.operands[0], Operand::Vector(vec![asm(0), asm(1)]));
    let i = insn("mov.b64 {%0, _, lo, %1}, %2;");
    assert_eq!(
        i.operands[0],
        Operand::Vector(vec![asm(0), Operand::Discard, reg(ident("lo")), asm(1)])
    );
}

#[test]
fn named_asm_operands() {
    let i = insn("add.u32 %[out], %[a], %[b_2];");
    assert_eq!(
        i.operands,
        [
            reg(Reg::AsmNamed("out".into())),
            reg(Reg::AsmNamed("a".into())),
            reg(Reg::AsmNamed("b_2".into()))
        ]
    );
    assert_eq!(
        perr("add.u32 %[out, %1;").message,
        "unterminated '%[': expected ']'"
    );
}

#[test]
fn integer_immediates_in_every_base() {
    let cases: [(&str, i128); 11] = [
        ("42", 42),
        ("0x1F", 31),
        ("0X1f", 31),
        ("017", 15),
        ("0b101", 5),
        ("7U", 7),
        ("0xffffffffU", 0xffff_ffff),
        ("-1", -1),
        ("0", 0),
        ("0xffffffffffffffff", 0xffff_ffff_ffff_ffff),
        ("-0x8000000000000000", -0x8000_0000_0000_0000),
    ];
    for (text, v) in cases {
        let i = insn(&format!("mov.b64 %0, {text};"));
        assert_eq!(i.operands[1], int(v), "{text}");
    }
    assert!(perr("mov.b32 %0, 08;").message.contains("octal"));
    assert!(perr("mov.b32 %0, 0b102;").message.contains("invalid digit"));
}

#[test]
fn float_immediates_bits_and_decimal() {
    let i = insn("mov.f32 %0, 0f3F800000;");
    assert_eq!(i.operands[1], Operand::Imm(Immediate::F32Bits(0x3F80_0000)));
    let i = insn("mov.f64 %0, 0d3FF0000000000000;");
    assert_eq!(
        i.operands[1],
        Operand::Imm(Immediate::F64Bits(0x3FF0_0000_0000_0000))
    );
    let i = insn("mov.f32 %0, 1.0;");
    assert_eq!(i.operands[1], Operand::Imm(Immediate::Float("1.0".into())));
    let i = insn("mov.f32 %0, -2.5e3;");
    assert_eq!(
        i.operands[1],
        Operand::Imm(Immediate::Float("-2.5e3".into()))
    );
    let i = insn("mov.f32 %0, 1e-5;");
    assert_eq!(i.operands[1], Operand::Imm(Immediate::Float("1e-5".into())));
    let e = perr("mov.f32 %0, 0f3F80;");
    assert_eq!(
        (e.message.as_str(), e.span.clone()),
        ("'0f' float literal needs exactly 8 hex digits", 12..18)
    );
}

#[test]
fn memory_operands_with_offsets() {
    let cases = [
        ("[%4]", Some(Reg::AsmOperand(4)), 0),
        ("[%4+8]", Some(Reg::AsmOperand(4)), 8),
        ("[%1 + -4]", Some(Reg::AsmOperand(1)), -4),
        ("[%1-4]", Some(Reg::AsmOperand(1)), -4),
        ("[ptr]", Some(ident("ptr")), 0),
        ("[0x100]", None, 0x100),
        ("[%%r1+0x10]", Some(ident("%r1")), 16),
    ];
    for (text, base, offset) in cases {
        let i = insn(&format!("ld.u32 %0, {text};"));
        assert_eq!(i.operands[1], Operand::Memory { base, offset }, "{text}");
    }
    assert_eq!(
        perr("ld.u32 %0, [%1;").message,
        "expected ']' to close the address, found ';'"
    );
    assert_eq!(
        perr("ld.u32 %0, [%1+%2];").message,
        "expected an integer offset, found '%2'"
    );
}

#[test]
fn negated_predicates_pairs_and_discards() {
    let i = insn("selp.b32 %0, %1, %2, !p;");
    assert_eq!(i.operands[3], Operand::NotReg(ident("p")));
    let i = insn("setp.lt.s32 p|q, %0, %1;");
    assert_eq!(
        i.operands[0],
        Operand::PredPair(Some(ident("p")), Some(ident("q")))
    );
    let i = insn("elect.sync _|p, 0xffffffff;");
    assert_eq!(i.operands[0], Operand::PredPair(None, Some(ident("p"))));
    let i = insn("match.all.sync.b32 %0|_, %1, %2;");
    assert_eq!(
        i.operands[0],
        Operand::PredPair(Some(Reg::AsmOperand(0)), None)
    );
    let i = insn("atom.global.add.u32 _, [%0], 1;");
    assert_eq!(i.operands[0], Operand::Discard);
}

#[test]
fn comments_whitespace_and_empty_statements_are_skipped() {
    let b = p(
        "  ;; // a comment; mov.u32 x, y;\n\t/* block\n ; */ mov.u32 %0, %1 /* inner */ ; ;\r\n",
    );
    let [Item::Instruction(i)] = b.items.as_slice() else {
        panic!("{b:?}")
    };
    assert_eq!(i.operands, [asm(0), asm(1)]);
    assert_eq!(p("").items, []);
    assert_eq!(p(" \n // only a comment").items, []);
}

#[test]
fn last_instruction_may_omit_its_semicolon_at_template_end() {
    let i = insn("bar.sync 0");
    assert_eq!((i.form().as_str(), i.span.clone()), ("bar.sync", 0..10));
    let i = insn("trap");
    assert_eq!(i.span, 0..4);
    // Inside `{ }` the `;` is required.
    assert_eq!(
        perr("{ trap }").message,
        "expected ';' after 'trap', found '}'"
    );
    assert_eq!(
        perr("{ mov.u32 %0, %1 }").message,
        "expected ',' or ';' after operand, found '}'"
    );
}

#[test]
fn errors_point_at_the_offending_bytes() {
    let e = perr("add.s32 %0, %1 %2;");
    assert_eq!(
        (e.message.as_str(), e.span.clone()),
        ("expected ',' or ';' after operand, found '%2'", 15..17)
    );
    let e = perr("mov.u32 %0, %1;\n{ mov.u32 %0, %1;");
    assert_eq!(
        (e.message.as_str(), e.span.clone()),
        ("unterminated '{': a scope this statement leaves open (for a later asm statement to close?)", 16..17)
    );
    let e = perr("mov.u32 %0, %1; }");
    assert_eq!(
        (e.message.as_str(), e.span.clone()),
        ("unmatched '}': it closes a scope this statement did not open (an earlier asm statement's?)", 16..17)
    );
    let e = perr("mov.u32 %0, ;");
    assert_eq!(
        (e.message.as_str(), e.span.clone()),
        ("expected an operand, found ';'", 12..13)
    );
    let e = perr("/* open");
    assert_eq!(
        (e.message.as_str(), e.span.clone()),
        ("unterminated block comment", 0..2)
    );
    let e = perr("mov.u32 %0, \"x\";");
    assert_eq!(e.span, 12..15);
    let e = perr("mov.u32 %0, é;");
    assert_eq!(e.span, 12..14);
    let e = perr(".pragma nounroll;");
    assert_eq!(
        (e.message.as_str(), e.span.clone()),
        ("expected a string after '.pragma', found 'nounroll'", 8..16)
    );
    let e = perr("mov.u32 %0, %% ;");
    assert_eq!(e.span, 12..14);
    let e = perr("@p ;");
    assert_eq!(e.message, "expected an opcode, found ';'");
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let src = "{".repeat(100_000);
    assert!(perr(&src).message.contains("nested too deeply"));
}

#[test]
fn printing_uses_double_percent_for_ptx_names_and_round_trips() {
    let b = p("{ .reg .pred %p; setp.eq.s32 %p, %1, 34; @%p mov.s32 %0, %%tid.x; }");
    assert_eq!(
        b.to_string(),
        "{\n\t.reg .pred %%p;\n\tsetp.eq.s32 %%p, %1, 34;\n\t@%%p mov.s32 %0, %%tid.x;\n}"
    );
    let i = insn("ld.v4.f32 {a,_,%[c],%=}, [%1 + -4];");
    assert_eq!(i.to_string(), "ld.v4.f32 {a, _, %[c], %=}, [%1-4];");
    let i = insn("mov.f32 %0, -0f3F800000;");
    assert_eq!(i.to_string(), "mov.f32 %0, 0fBF800000;");
    for src in [
        "prmt .b32 %0, %1, %2, 0x3210;",
        ".reg .v2 .b32 %r<3>; L_%=: @!%%r0 bra.uni L_%=;",
        "cp.async.cg.shared.global.L2::128B [%0], [%1+16], 16;",
        "mov.f64 %0, 0d3FF0000000000000; mov.f32 %1, -1.5e-3; setp.lt.s32 p|q, %0, -7;",
    ] {
        roundtrip(src);
    }
}

#[test]
#[ignore = "timing check; run with --release --ignored"]
fn parses_100k_templates_quickly() {
    let src = "{\n  .reg .pred p;\n  setp.ne.b32 p, %5, 0;\n  mov.b32 %0, %6;\n  mov.b32 %1, %7;\n  \
               mov.b32 %2, %8;\n  mov.b32 %3, %9;\n  @p ld.global.v4.u32 {%0, %1, %2, %3}, [%4];\n}\n";
    let t = std::time::Instant::now();
    for _ in 0..100_000 {
        std::hint::black_box(parse(std::hint::black_box(src)).unwrap());
    }
    eprintln!("100k parses: {:?}", t.elapsed());
}

#[test]
fn tensor_addresses_take_a_tensor_and_coordinates() {
    let i = insn("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];");
    assert_eq!(
        i.operands[1],
        Operand::TensorAddress(vec![asm(1), Operand::Vector(vec![asm(2), asm(3)])])
    );
    let i = insn("tex.2d.v4.f32.s32 {%0, %1, %2, %3}, [tex_ref, {%4, %5}];");
    assert_eq!(
        i.operands[1],
        Operand::TensorAddress(vec![
            reg(ident("tex_ref")),
            Operand::Vector(vec![asm(4), asm(5)])
        ])
    );
    roundtrip("cp.async.bulk.tensor.1d.global.shared::cta.bulk_group [%0, {%1}], [%2];");
    assert!(perr("tex.1d.v4.f32.s32 {%0}, [t, ];")
        .message
        .starts_with("expected a coordinate"));
}

#[test]
fn sinks_stand_for_operands_pair_sides_and_vector_elements() {
    let i = insn("elect.sync _|P, %1;");
    assert_eq!(i.operands[0], Operand::PredPair(None, Some(ident("P"))));
    let i = insn("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, _, _}, {%2, %3}, {%4}, {%5, 0., %6, 0.};");
    assert_eq!(
        i.operands[0],
        Operand::Vector(vec![asm(0), asm(1), Operand::Discard, Operand::Discard])
    );
    assert_eq!(
        i.operands[3],
        Operand::Vector(vec![
            asm(5),
            Operand::Imm(Immediate::Float("0.".into())),
            asm(6),
            Operand::Imm(Immediate::Float("0.".into()))
        ])
    );
    roundtrip("elect.sync _|P, %1;\nmatch.any.sync.b32 %0|_, %1, %2;");
}

#[test]
fn constant_expressions_are_evaluated_with_c_precedence() {
    assert_eq!(insn("mov.u32 %0, 123 * 123U + 1;").operands[1], int(15130));
    assert_eq!(insn("mov.u32 %0, (1 << 4) - 1;").operands[1], int(15));
    assert_eq!(insn("mov.u32 %0, 2 + 3 * 4 % 5 | 16;").operands[1], int(20));
    assert_eq!(insn("mov.u32 %0, ~0 & 0xff ^ 1;").operands[1], int(254));
    assert_eq!(insn("mov.u32 %0, -(8 >> 1);").operands[1], int(-4));
    assert_eq!(insn("mov.u32 %0, WARP_SZ;").operands[1], int(32));
    assert_eq!(insn("mov.u32 %0, WARP_SZ - 1;").operands[1], int(31));
    assert_eq!(
        insn("ld.global.u32 %0, [%1+4*8];").operands[1],
        Operand::Memory {
            base: Some(Reg::AsmOperand(1)),
            offset: 32
        }
    );
    assert_eq!(
        insn("mov.f32 %0, -0f3F800000;").operands[1],
        Operand::Imm(Immediate::F32Bits(0xBF80_0000))
    );
    assert!(perr("mov.u32 %0, 1 / 0;")
        .message
        .contains("divides by zero"));
    assert!(perr("mov.f32 %0, 1.5 * 2;")
        .message
        .contains("floating-point constant expressions"));
    assert!(perr(&format!("mov.u32 %0, {}1;", "-".repeat(100_000)))
        .message
        .contains("nested too deeply"));
    assert!(perr(&format!(
        "mov.u32 %0, {}1{};",
        "(".repeat(100_000),
        ")".repeat(100_000)
    ))
    .message
    .contains("nested too deeply"));
}

/// PTX constant expressions take C's comparison, logical and conditional operators too, at C's
/// precedence (issue 18: `==`, `!`, `?:` were syntax errors).
#[test]
fn constant_expressions_compare_negate_and_choose_as_c_does() {
    let value = |e: &str| insn(&format!("mov.u32 %0, {e};")).operands[1].clone();
    for (e, v) in [
        ("1 == 1", 1),
        ("(2 != 2) + 5", 5),
        ("3 < 4", 1),
        ("4 <= 3", 0),
        ("4 >= 4 == 1", 1),
        ("2 > 1 << 1", 0),
        ("1 + 2 * 3 == 7 && 1", 1),
        ("0 || 0", 0),
        ("1 | 2 && 0", 0),
        ("!0", 1),
        ("!!7 + 1", 2),
        ("!(1 == 1)", 0),
        ("1 ? 2 : 3", 2),
        ("0 ? 2 : 1 ? 4 : 5", 4),
        ("1 + 1 ? 8 : 9", 8),
        ("(WARP_SZ == 32) ? 7 % 4 : 0", 3),
        ("-1 == 0xffffffffffffffff", 1),
    ] {
        assert_eq!(value(e), int(v), "{e}");
    }
    // In a statement with operands nvcc turns `%%` into the remainder operator.
    assert_eq!(value("10 %% 4"), int(2));
    assert_eq!(value("(10)%%(4)"), int(2));
    // `!p` is still a negated predicate.
    assert_eq!(
        insn("selp.u32 %0, 1, 0, !p;").operands[3],
        Operand::NotReg(Reg::Ident {
            name: "p".into(),
            component: None
        })
    );
    assert!(perr("mov.u32 %0, -1 < 0;")
        .message
        .contains("depends on whether PTX reads the operands as .s64 or .u64"));
    assert!(perr("mov.u32 %0, 1 ? 2 3;")
        .message
        .contains("':' of the conditional expression"));
}

#[test]
fn pragmas_aligned_and_array_declarations_parse() {
    let b = p(".pragma \"enable_smem_spilling\";\n.shared .align 1 .b8 static_smem[4096];\n.reg .align 16 .b8 buf[2][8];");
    assert_eq!(
        strip(&b).items[0],
        Item::Pragma {
            text: "enable_smem_spilling".into(),
            span: 0..0
        }
    );
    let Item::RegDecl(d) = &b.items[1] else {
        panic!("{b:?}")
    };
    assert_eq!(
        (d.space.as_str(), d.align, d.ty.as_str(), d.array.as_slice()),
        ("shared", Some(1), "b8", &[4096u64][..])
    );
    let Item::RegDecl(d) = &b.items[2] else {
        panic!("{b:?}")
    };
    assert_eq!((d.align, d.array.as_slice()), (Some(16), &[2u64, 8][..]));
    roundtrip(".pragma \"nounroll\";\n.shared .align 8 .b8 s[16], t[16];");
    assert!(perr(".shared .align 8 .align 8 .b8 s[16];")
        .message
        .contains("alignment given twice"));
    assert!(perr(".reg .b8 a[4], b;")
        .message
        .contains("different array sizes"));
}

#[test]
fn loops_with_backward_branches_and_unique_labels_parse() {
    let b = p("{\n.reg .pred p;\nLOOP_%=:\nmbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n@!p bra LOOP_%=;\n}");
    roundtrip(&b.to_string());
    let b = p("$L__wait: @p bra.uni $L__wait;");
    assert_eq!(b.items.len(), 2);
}
