//! The PTX syntax tree of one asm template.
//!
//! Spans are byte ranges in the template text (after C escapes are decoded), so that an error or a
//! finding can be mapped back to the file through [`crate::scan::Template::file_offset`].

use std::ops::Range;

/// A sequence of statements; the whole template, or the inside of `{ }`.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    pub items: Vec<Item>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    Instruction(Instruction),
    /// `.reg .u32 t1, t2, %r<4>;` or `.reg .pred p;`
    RegDecl(RegDecl),
    /// `LABEL:`
    Label {
        name: String,
        span: Range<usize>,
    },
    /// `{ ... }`
    Scope {
        block: Block,
        span: Range<usize>,
    },
    /// `.pragma "text";`: a hint to ptxas (`"nounroll"`, `"enable_smem_spilling"`).
    Pragma {
        text: String,
        span: Range<usize>,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct RegDecl {
    /// State space without the dot, normally `reg`.
    pub space: String,
    /// Alignment in bytes from `.align N`, if any.
    pub align: Option<u64>,
    /// Vector width from `.v2`/`.v4`, if any.
    pub vector: Option<u32>,
    /// Type without the dot: `u32`, `pred`, `f16x2`, ...
    pub ty: String,
    /// Declared names; a range `%r<4>` expands to `%r0`..`%r3`.
    pub names: Vec<String>,
    /// Array dimensions, `[4096]` → `[4096]` (empty for scalars; every name has the same).
    pub array: Vec<u64>,
    pub span: Range<usize>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Instruction {
    pub guard: Option<Guard>,
    /// Root opcode: the first word, without modifiers (`add`, `cvt`, `ld`, `mov`, `prmt`).
    pub opcode: String,
    /// Modifiers without their dots, in written order: `add.lo.u32` → `["lo", "u32"]`.
    /// Compound modifiers keep their inner dots and colons: `L2::128B`, `shared::cta`.
    pub modifiers: Vec<String>,
    pub operands: Vec<Operand>,
    pub span: Range<usize>,
}

impl Instruction {
    /// `opcode.mod1.mod2` as written (modifiers in their order).
    pub fn form(&self) -> String {
        let mut s = self.opcode.clone();
        for m in &self.modifiers {
            s.push('.');
            s.push_str(m);
        }
        s
    }
}

/// `@p` / `@!p` instruction guard.
#[derive(Debug, Clone, PartialEq)]
pub struct Guard {
    pub negated: bool,
    pub reg: Reg,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Operand {
    Reg(Reg),
    /// `!p` as a source predicate operand.
    NotReg(Reg),
    Imm(Immediate),
    /// `{a, b, _, d}`
    Vector(Vec<Operand>),
    /// `[base]`, `[base+imm]`, `[base-imm]`, `[imm]`
    Memory {
        base: Option<Reg>,
        offset: i64,
    },
    /// `[tensor, {c0, c1}]`: a tensor map or texture and its coordinates (`cp.async.bulk.tensor`,
    /// `tex`, `tld4`), each part an operand.
    TensorAddress(Vec<Operand>),
    /// `_` (sink / discard)
    Discard,
    /// `p|q` dual destination (`d|p` for a value and a predicate); `None` is the sink `_`
    /// (`elect.sync _|p`, `match.all.sync d|_`).
    PredPair(Option<Reg>, Option<Reg>),
    /// A bare identifier that is a branch target or symbol (`bra DONE;`).
    Label(String),
}

#[derive(Debug, Clone, PartialEq)]
pub enum Reg {
    /// `%0`, `%12`
    AsmOperand(usize),
    /// `%[name]`
    AsmNamed(String),
    /// A PTX identifier: a local from `.reg` (`t1`, `%p`, `%r3`) or a special register (`%clock`,
    /// `%tid.x` is `name = "%tid"`, `component = Some('x')`). `%%` from the C template is already
    /// one `%` here. Which of the two it is gets decided where declarations are known.
    Ident {
        name: String,
        component: Option<char>,
    },
    /// `%=`: a number unique to this asm statement instance (used to build unique labels).
    UniqueId,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Immediate {
    /// Integer literal (decimal, `0x` hex, `0` octal, `0b` binary), with its sign applied, or
    /// the value of an integer constant expression (`123 * 123U + 1`, `WARP_SZ`). Held as i128 so
    /// that both `-1` and `0xffffffffffffffff` are exact.
    Int(i128),
    /// `0fXXXXXXXX`: IEEE single bits.
    F32Bits(u32),
    /// `0dXXXXXXXXXXXXXXXX`: IEEE double bits.
    F64Bits(u64),
    /// Decimal float literal such as `1.0` or `-2.5e3`, as written.
    Float(String),
}
