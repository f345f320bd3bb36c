//! Telling inline PTX from the other assembly found in CUDA trees.
//!
//! CUDA projects also hold host assembly (x86 `rdtsc`, `pause`, `cpuid`; ARM `yield`, `dmb`; POWER
//! `or 27,27,27`), AMDGCN assembly in their HIP paths (`s_waitcnt`, `v_mov_b32`), and asm labels
//! on declarations (`int f() __asm("llvm.nvvm.x");`). None of that is PTX, so none of it is a
//! finding. A statement is set aside only on positive evidence of another dialect and no
//! evidence of PTX: a typo in real PTX must still be reported, not hidden.

use crate::ptx::opcodes;

use super::{AsmStatement, Template};

/// What a non-PTX statement is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Foreign {
    /// CPU assembly (x86, ARM, POWER).
    Host,
    /// AMD GPU assembly.
    Amdgcn,
    /// An asm label naming a symbol (`__asm("name")` after a declarator).
    Label,
}

/// Constraint letters nvcc accepts for PTX operands (besides `=`, `+`, `&` and digits).
const PTX_CONSTRAINTS: &[u8] = b"rhlqfdniC";

/// Mnemonics of CPU instruction sets seen in CUDA trees (x86, ARM, POWER, Alpha, SPARC; none is a
/// PTX opcode).
const HOST_MNEMONICS: &str = "
    rdtsc rdtscp rdpmc rdrand pause mfence lfence sfence cpuid xgetbv int int3 nop hlt ud2 lock
    xchg xadd xaddl xaddq cmpxchg cmpxchgl cmpxchgq cmpxchg8b cmpxchg16b bswap movl movq movw movb
    clflush prefetcht0 prefetchnta bsf bsr lzcnt tzcnt popcnt vzeroupper
    yield dmb dsb isb wfe wfi sev sevl mrs msr ldr str ldxr stxr ldaxr stlxr ldar stlr umaddl
    umulh smulh fmla ld1 st1 ld1r dup ins sdot udot smmla ummla bfmmla prfm cnt uaddlv dc ic ldrb
    ldrh strb strh
    sync lwsync isync eieio mftb mfspr mtspr mffs mffprd mtfprd xscvhpdp xscvdphp xxlor vmulouw
    vmuleuw vperm lxvd2x stxvd2x dcbt dcbtst dcbf dcbz mtfsf frsp
    mt_fpcr mf_fpcr sethi";

/// What `statement` is when it is not PTX; `None` for PTX (or when it cannot be told).
/// `after_declarator`: the code before the keyword ends a declarator (`)`, `]`, a name).
pub fn foreign(statement: &AsmStatement, after_declarator: bool) -> Option<Foreign> {
    let constraints_foreign = statement.operands().any(|op| {
        op.constraint
            .bytes()
            .any(|b| b.is_ascii_alphabetic() && !PTX_CONSTRAINTS.contains(&b))
    });
    let Template::Known { text, .. } = &statement.template else {
        return constraints_foreign.then_some(Foreign::Host);
    };
    let words = instruction_words(text);
    let amdgcn = words.iter().any(|w| is_amdgcn(w));
    if constraints_foreign {
        return Some(if amdgcn {
            Foreign::Amdgcn
        } else {
            Foreign::Host
        });
    }
    let ptx_evidence = words.iter().any(|w| {
        let root = w.split('.').next().unwrap_or(w);
        opcodes::is_root(root) && (w.contains('.') || opcodes::stands_alone(root))
    });
    if ptx_evidence {
        return None;
    }
    if amdgcn {
        return Some(Foreign::Amdgcn);
    }
    let no_operands = statement.outputs.is_empty() && statement.inputs.is_empty();
    if no_operands && after_declarator && is_symbol(text) {
        return Some(Foreign::Label);
    }
    if text.trim_start().starts_with("llvm.") && no_operands {
        return Some(Foreign::Label);
    }
    let host = words
        .iter()
        .any(|w| HOST_MNEMONICS.split_ascii_whitespace().any(|m| m == w))
        || is_host_directive(text)
        || has_operand_modifiers(text)
        || has_arm_registers(text)
        || has_host_registers(text)
        || has_sparc_registers(text)
        || is_power_hint(text);
    host.then_some(Foreign::Host)
}

/// The first word of every instruction: statements split at `;` and newlines, labels (`L:`),
/// predicates (`@p`), braces and `.directives` left out; lower-cased.
fn instruction_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    for stmt in text.split([';', '\n']) {
        let mut rest = stmt.trim();
        loop {
            rest = rest.trim_start_matches(['{', '}', ' ', '\t', '\r']);
            if let Some(r) = rest.strip_prefix('@') {
                rest = r
                    .trim_start_matches('!')
                    .trim_start_matches(|c: char| c.is_alphanumeric() || "%_$".contains(c))
                    .trim_start();
                continue;
            }
            let word_len = rest
                .find(|c: char| !(c.is_alphanumeric() || "._$:%".contains(c)))
                .unwrap_or(rest.len());
            let word = &rest[..word_len];
            if let Some(label) = word.strip_suffix(':').filter(|l| !l.contains("::")) {
                if !label.is_empty() {
                    rest = &rest[word_len..];
                    continue;
                }
            }
            if !word.is_empty() && !word.starts_with(['.', '/', '#', '%']) {
                words.push(word.to_ascii_lowercase());
            }
            break;
        }
    }
    words
}

fn is_amdgcn(word: &str) -> bool {
    const PREFIXES: &[&str] = &[
        "s_", "v_", "ds_", "buffer_", "global_", "flat_", "scratch_", "image_", "exp_",
    ];
    PREFIXES.iter().any(|p| word.starts_with(p))
}

/// A template that is one symbol name: `llvm.nvvm.read.ptx.sreg.tid.x`, `_Z3foov`, `my_name`.
fn is_symbol(text: &str) -> bool {
    let t = text.trim();
    !t.is_empty()
        && t.chars()
            .all(|c| c.is_ascii_alphanumeric() || "._$@".contains(c))
}

/// x86 register names after `%%` (`%%eax`, `%%rsp`, `%%xmm0`) or AT&T immediates (`$1`).
fn has_host_registers(text: &str) -> bool {
    const X86: &[&str] = &[
        "eax", "ebx", "ecx", "edx", "esi", "edi", "esp", "ebp", "rax", "rbx", "rcx", "rdx", "rsi",
        "rdi", "rsp", "rbp", "xmm", "ymm", "zmm",
    ];
    text.match_indices("%%").any(|(i, _)| {
        let rest = &text[i + 2..];
        X86.iter().any(|r| rest.starts_with(r))
    }) || text.match_indices('$').any(|(i, _)| {
        text[i + 1..].starts_with(|c: char| c.is_ascii_digit())
            && (i == 0 || text[..i].ends_with([' ', ',']))
    })
}

/// SPARC registers PTX never names: state registers (`%fsr`, `%fprs`, `%asi`, `%ccr`, `%psr`,
/// `%wim`, `%tbr`) and the global and out registers `%g0`..`%g7`, `%o0`..`%o7`, written with one
/// `%` or, in a template with operands, two (`st %fsr, [mode]`, `mov %%g1, %0`). PTX registers
/// named so would be declared in the template (`.reg`), which is PTX evidence found first.
fn has_sparc_registers(text: &str) -> bool {
    const STATE: &[&str] = &["fsr", "fprs", "asi", "ccr", "psr", "wim", "tbr"];
    text.match_indices('%').any(|(i, _)| {
        let name = text[i + 1..].trim_start_matches('%');
        let len = name
            .find(|c: char| !c.is_ascii_alphanumeric())
            .unwrap_or(name.len());
        let word = &name[..len];
        let preceded = i > 0 && text.as_bytes()[i - 1] == b'%';
        !preceded
            && (STATE.contains(&word)
                || word
                    .strip_prefix(['g', 'o'])
                    .is_some_and(|n| n.len() == 1 && n.as_bytes()[0].is_ascii_digit() && n < "8"))
    })
}

/// GCC operand modifiers of CPU targets (`%w0`, `%x[src]` on ARM, `%k0`, `%q0` on x86) and
/// SPARC/MIPS relocation operators (`%lo(x)`, `%hi(x)`): nvcc has neither.
fn has_operand_modifiers(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.windows(3).enumerate().any(|(i, w)| {
        let single = i == 0 || bytes[i - 1] != b'%';
        single
            && w[0] == b'%'
            && matches!(w[1], b'w' | b'x' | b'k' | b'q')
            && (w[2].is_ascii_digit() || w[2] == b'[')
    }) || text.contains("%lo(")
        || text.contains("%hi(")
}

/// AArch64 general registers written as operands (`x0`..`x30`, `w0`..`w30`, `xzr`, `wzr`).
fn has_arm_registers(text: &str) -> bool {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '%' || c == '.'))
        .any(|w| {
            matches!(w, "xzr" | "wzr")
                || w.strip_prefix(['x', 'w'])
                    .and_then(|n| n.parse::<u8>().ok().filter(|_| !n.starts_with('+')))
                    .is_some_and(|n| n <= 30)
        })
}

/// Assembler directives of CPU assemblers that PTX does not have (`.inst 0xd4200000`).
fn is_host_directive(text: &str) -> bool {
    let first = text.split_whitespace().next().unwrap_or("");
    matches!(
        first,
        ".inst" | ".byte" | ".long" | ".quad" | ".intel_syntax" | ".att_syntax" | ".arch" | ".cpu"
    )
}

/// POWER's priority hints and barriers written as `or N,N,N` (no `%` operands).
fn is_power_hint(text: &str) -> bool {
    let t = text.trim();
    t.strip_prefix("or ")
        .is_some_and(|rest| rest.split(',').all(|n| n.trim().parse::<u32>().is_ok()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::{Operand, Template};

    fn stmt(template: &str, constraints: &[&str]) -> AsmStatement {
        let op = |c: &str| Operand {
            name: None,
            constraint: c.to_string(),
            expr: "x".into(),
            expr_span: 0..0,
            c_strings: Vec::new(),
            visible_type: None,
        };
        AsmStatement {
            span: 0..0,
            terminated: true,
            place: crate::scan::Place::Block,
            line: 1,
            column: 1,
            end_line: 1,
            end_column: 1,
            keyword: "asm".into(),
            qualifiers: Vec::new(),
            template: Template::Known {
                text: template.into(),
                origins: Vec::new(),
            },
            outputs: constraints.iter().map(|c| op(c)).collect(),
            inputs: Vec::new(),
            clobbers: Vec::new(),
            goto_labels: Vec::new(),
            indent: String::new(),
            in_macro: None,
            arms: None,
            arch_arm: None,
        }
    }

    fn kind(template: &str, constraints: &[&str]) -> Option<Foreign> {
        foreign(&stmt(template, constraints), false)
    }

    #[test]
    fn host_assembly_is_recognised() {
        assert_eq!(kind("rdtsc", &["=a", "=d"]), Some(Foreign::Host));
        assert_eq!(kind("pause", &[]), Some(Foreign::Host));
        assert_eq!(kind("mfence", &[]), Some(Foreign::Host));
        assert_eq!(kind("yield", &[]), Some(Foreign::Host));
        assert_eq!(kind("dmb ish", &[]), Some(Foreign::Host));
        assert_eq!(kind("or 27,27,27", &[]), Some(Foreign::Host));
        // SPARC (issue 18): `st` is a PTX opcode, but `%fsr` and `%g1` are SPARC registers.
        assert_eq!(kind("st %fsr, [mode]", &[]), Some(Foreign::Host));
        assert_eq!(kind("ld [%0], %%fsr", &["r"]), Some(Foreign::Host));
        assert_eq!(kind("mov %%g1, %0", &["=r"]), Some(Foreign::Host));
        assert_eq!(kind("mov %%rsp, %0", &["=r"]), Some(Foreign::Host));
        assert_eq!(kind("xscvhpdp %x0,%x1", &["=wa"]), Some(Foreign::Host));
        assert_eq!(
            kind("umaddl %x0, %w1, %w2, %x3", &["=r"]),
            Some(Foreign::Host)
        );
    }

    #[test]
    fn amdgcn_and_labels_are_recognised() {
        assert_eq!(kind("s_waitcnt lgkmcnt(0)", &[]), Some(Foreign::Amdgcn));
        assert_eq!(kind("v_mov_b32 %0, %1", &["=v"]), Some(Foreign::Amdgcn));
        assert_eq!(kind("ds_read_b32 %0, %1", &["=v"]), Some(Foreign::Amdgcn));
        assert_eq!(
            kind("llvm.nvvm.read.ptx.sreg.tid.x", &[]),
            Some(Foreign::Label)
        );
        assert_eq!(foreign(&stmt("my_symbol", &[]), true), Some(Foreign::Label));
    }

    #[test]
    fn ptx_and_unknown_text_stay_ptx() {
        assert_eq!(kind("add.s32 %0, %1, %2;", &["=r"]), None);
        assert_eq!(
            kind("{ .reg .pred p; setp.ne.b32 p, %1, 0; }", &["=r"]),
            None
        );
        assert_eq!(kind("trap;", &[]), None);
        assert_eq!(kind("L1: bra L1;", &[]), None);
        assert_eq!(kind("@p bra.uni DONE;", &[]), None);
        assert_eq!(kind("mov %0, %1;", &["=r"]), None);
        assert_eq!(kind("frobnicate.u32 %0;", &["=r"]), None);
        assert_eq!(kind("exit", &[]), None);
        // A PTX instruction next to a host mnemonic is still PTX (and reported).
        assert_eq!(kind("nop; mov.u32 %0, 0;", &["=r"]), None);
        // A declared register named like a SPARC one is PTX: the `.reg` declaration says so.
        assert_eq!(
            kind(
                "{ .reg .b32 %g1; mov.b32 %g1, 0; mov.b32 %0, %g1; }",
                &["=r"]
            ),
            None
        );
        assert_eq!(kind("mov.u32 %0, %laneid;", &["=r"]), None);
        // `%%x0` is a PTX name, not an operand modifier.
        assert_eq!(kind("mov.b32 %0, %%x0;", &["=r"]), None);
    }
}
