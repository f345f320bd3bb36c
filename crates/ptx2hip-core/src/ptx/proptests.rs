//! Property tests: printed trees parse back to themselves, and `parse` never panics.
//!
//! The generators only build trees the printer can express unambiguously, which is also the
//! contract of the AST: `Operand::Label` only as a `bra` operand (elsewhere a bare name is a
//! register), `Reg::Ident` names are PTX identifiers (`t1`, `%r3`), decimal floats are
//! well-formed literals, and register declarations list names one by one (a `%r<4>` range is
//! expanded by the parser, so it cannot be printed back as a range).

use super::tests::strip;
use super::*;
use proptest::prelude::*;

fn plain_name() -> impl Strategy<Value = String> {
    "[a-zA-Z$][a-zA-Z0-9_$]{0,6}"
}

/// `t1`, `%p`, `%r12`, `%clock`.
fn ident_name() -> impl Strategy<Value = String> {
    prop_oneof![plain_name(), "%[a-z_][a-z0-9_]{0,6}"]
}

fn reg() -> impl Strategy<Value = Reg> {
    prop_oneof![
        (0usize..100).prop_map(Reg::AsmOperand),
        "[a-zA-Z_][a-zA-Z0-9_]{0,6}".prop_map(Reg::AsmNamed),
        (
            ident_name(),
            proptest::option::of(proptest::sample::select(vec!['x', 'y', 'z', 'w']))
        )
            .prop_map(|(name, component)| Reg::Ident { name, component }),
        Just(Reg::UniqueId),
    ]
}

fn immediate() -> impl Strategy<Value = Immediate> {
    prop_oneof![
        any::<i64>().prop_map(|v| Immediate::Int(v.into())),
        any::<u64>().prop_map(|v| Immediate::Int(v.into())),
        any::<u32>().prop_map(Immediate::F32Bits),
        any::<u64>().prop_map(Immediate::F64Bits),
        (
            any::<bool>(),
            0u32..1000,
            "[0-9]{0,4}",
            proptest::option::of(-40i32..40)
        )
            .prop_map(|(neg, int, frac, exp)| {
                let mut s = String::new();
                if neg {
                    s.push('-');
                }
                s.push_str(&int.to_string());
                if frac.is_empty() && exp.is_none() {
                    s.push_str(".0");
                } else if !frac.is_empty() {
                    s.push('.');
                    s.push_str(&frac);
                }
                if let Some(e) = exp {
                    s.push_str(&format!("e{e}"));
                }
                Immediate::Float(s)
            }),
    ]
}

/// Operands that may appear inside `{ }`.
fn simple_operand() -> impl Strategy<Value = Operand> {
    prop_oneof![
        4 => reg().prop_map(Operand::Reg),
        1 => Just(Operand::Discard),
        1 => immediate().prop_map(Operand::Imm),
    ]
}

fn operand() -> impl Strategy<Value = Operand> {
    prop_oneof![
        6 => reg().prop_map(Operand::Reg),
        1 => reg().prop_map(Operand::NotReg),
        3 => immediate().prop_map(Operand::Imm),
        1 => proptest::collection::vec(simple_operand(), 1..5).prop_map(Operand::Vector),
        2 => (proptest::option::of(reg()), any::<i64>())
            .prop_map(|(base, offset)| Operand::Memory { base, offset }),
        1 => Just(Operand::Discard),
        1 => (proptest::option::of(reg()), proptest::option::of(reg()))
            .prop_map(|(a, b)| Operand::PredPair(a, b)),
        1 => (reg(), proptest::collection::vec(simple_operand(), 1..4))
            .prop_map(|(t, c)| Operand::TensorAddress(vec![Operand::Reg(t), Operand::Vector(c)])),
    ]
}

fn label_name() -> impl Strategy<Value = String> {
    (plain_name(), any::<bool>()).prop_map(|(n, uniq)| if uniq { format!("{n}_%=") } else { n })
}

fn guard() -> impl Strategy<Value = Option<Guard>> {
    proptest::option::of((any::<bool>(), reg()).prop_map(|(negated, reg)| Guard { negated, reg }))
}

fn modifier() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => "[a-z0-9][a-z0-9_]{0,5}",
        1 => "[a-zA-Z0-9]{1,3}::[a-zA-Z0-9_]{1,6}",
    ]
}

fn instruction() -> impl Strategy<Value = Instruction> {
    let general = (
        guard(),
        "[a-z][a-z0-9_]{0,7}".prop_filter("bra takes labels", |o| o != "bra"),
        proptest::collection::vec(modifier(), 0..4),
        proptest::collection::vec(operand(), 0..5),
    )
        .prop_map(|(guard, opcode, modifiers, operands)| Instruction {
            guard,
            opcode,
            modifiers,
            operands,
            span: 0..0,
        });
    let branch = (
        guard(),
        proptest::option::of(Just("uni".to_string())),
        label_name(),
    )
        .prop_map(|(guard, m, l)| Instruction {
            guard,
            opcode: "bra".into(),
            modifiers: m.into_iter().collect(),
            operands: vec![Operand::Label(l)],
            span: 0..0,
        });
    prop_oneof![5 => general, 1 => branch]
}

fn decl() -> impl Strategy<Value = RegDecl> {
    (
        proptest::sample::select(vec!["reg", "local", "shared"]),
        proptest::option::of(proptest::sample::select(vec![1u64, 4, 16])),
        proptest::option::of(proptest::sample::select(vec![2u32, 4, 8])),
        proptest::sample::select(vec!["u32", "pred", "b64", "f16x2", "f32", "s8"]),
        proptest::collection::vec(ident_name(), 1..4),
        proptest::collection::vec(1u64..5000, 0..3),
    )
        .prop_map(|(space, align, vector, ty, names, array)| RegDecl {
            space: space.into(),
            align,
            vector,
            ty: ty.into(),
            names,
            array,
            span: 0..0,
        })
}

fn item() -> impl Strategy<Value = Item> {
    let leaf = prop_oneof![
        5 => instruction().prop_map(Item::Instruction),
        2 => decl().prop_map(Item::RegDecl),
        1 => label_name().prop_map(|name| Item::Label { name, span: 0..0 }),
        1 => "[a-z_]{1,12}".prop_map(|text| Item::Pragma { text, span: 0..0 }),
    ];
    leaf.prop_recursive(3, 24, 5, |inner| {
        proptest::collection::vec(inner, 0..5).prop_map(|items| Item::Scope {
            block: Block { items },
            span: 0..0,
        })
    })
}

fn block() -> impl Strategy<Value = Block> {
    proptest::collection::vec(item(), 0..6).prop_map(|items| Block { items })
}

/// Valid templates used as mutation seeds.
const SEEDS: &[&str] = &[
    "add.s32 %0, %1, %2;",
    "mov.u32 %0, %%clock;",
    ".reg .u32 t1;\n\t mul.lo.u32 t1, %1, %1;\n\t mul.lo.u32 %0, t1, %1;",
    "{ .reg .pred %p; setp.eq.s32 %p, %1, 34; @%p mov.s32 %0, 1; }",
    "{ .reg .pred p; setp.ne.b32 p, %5, 0; mov.b32 %0, %6; @p ld.global.v4.u32 {%0, %1, %2, %3}, [%4]; }",
    "cvt.rni.sat.s8.f16 %0, %1; st.u32 [%0+-4], %1; membar.gl; /* c */ // d\n",
    "LAB_%=: @!p bra.uni LAB_%=; .reg .b32 %r<4>; mov.f32 %0, 0f3F800000; mov.f64 %1, -2.5e3;",
    "cp.async.cg.shared.global.L2::128B [%[dst]], [%[src]], 16, 0x10U, 017, 0b11; setp.lt.s32 p|q, _, !%%r1;",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn printed_tree_parses_back_to_the_same_tree(b in block()) {
        let text = b.to_string();
        let parsed = parse(&text);
        prop_assert!(parsed.is_ok(), "{:?} on:\n{}", parsed, text);
        let parsed = parsed.unwrap();
        prop_assert_eq!(strip(&parsed), strip(&b), "text:\n{}", text);
        // Printing is canonical: a second round gives the same text.
        prop_assert_eq!(parsed.to_string(), text);
    }

    #[test]
    fn parse_never_panics_on_arbitrary_strings(s in "\\PC*") {
        let _ = parse(&s);
    }

    #[test]
    fn parse_never_panics_on_ptx_like_strings(s in "[%{}\\[\\]<>.,;:@!|+\\-_a-z0-9 \\n=/*]{0,60}") {
        if let Ok(b) = parse(&s) {
            // Whatever parses must also print and parse back.
            let again = parse(&b.to_string());
            prop_assert!(again.is_ok(), "{:?} from {:?}", again, b.to_string());
            prop_assert_eq!(strip(&again.unwrap()), strip(&b));
        }
    }

    #[test]
    fn parse_never_panics_on_mutated_templates(
        seed in proptest::sample::select(SEEDS),
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 1..6),
    ) {
        let mut bytes = seed.as_bytes().to_vec();
        for (at, byte, kind) in edits {
            let i = at.index(bytes.len() + 1);
            match kind {
                0 if i < bytes.len() => bytes[i] = byte,
                1 => bytes.insert(i, byte),
                _ if i < bytes.len() => { bytes.remove(i); }
                _ => bytes.push(byte),
            }
        }
        let s = String::from_utf8_lossy(&bytes);
        if let Ok(b) = parse(&s) {
            let again = parse(&b.to_string());
            prop_assert!(again.is_ok(), "{:?} from {:?}", again, b.to_string());
            prop_assert_eq!(strip(&again.unwrap()), strip(&b));
        }
    }
}
