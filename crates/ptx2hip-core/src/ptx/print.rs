//! Canonical printing of the syntax tree, in *template* form.
//!
//! The output is meant to be put back into a C string of an `asm` statement, so it uses the
//! inline-asm escapes: `%0`, `%[name]`, `%=`, and `%%` for a literal `%`.
//!
//! **Rule for `%` identifiers:** a PTX name that starts with `%` (`%clock`, `%tid`, a local
//! `%p`, `%r1`) is always printed as `%%name`. `%%` is the one spelling of a literal `%` that
//! every inline-asm dialect accepts (nvcc also passes `%p` through, GCC/clang would not), and
//! [`super::parse`] reads both `%%name` and `%name` as the PTX name `%name`, so printing always
//! round-trips. Label names follow the same rule; the `%=` inside a unique label (`LAB_%=`) is
//! printed as is, since it must stay an escape.
//!
//! Layout: one statement per line; the inside of `{ }` is indented with one tab per level;
//! operands are separated by `", "`; every instruction and declaration ends in `;`.
//! Integers are printed in decimal, `0f`/`0d` bit patterns in upper-case hex with all digits,
//! decimal floats as written.

use super::ast::*;
use std::fmt::{self, Display, Formatter, Write};

/// Writes a PTX name with the `%` → `%%` rule above.
fn write_name(f: &mut Formatter<'_>, name: &str) -> fmt::Result {
    if let Some(rest) = name.strip_prefix('%') {
        f.write_str("%%")?;
        f.write_str(rest)
    } else {
        f.write_str(name)
    }
}

fn write_block(f: &mut Formatter<'_>, block: &Block, indent: usize) -> fmt::Result {
    for (i, item) in block.items.iter().enumerate() {
        if i > 0 {
            f.write_char('\n')?;
        }
        write_item(f, item, indent)?;
    }
    Ok(())
}

fn write_item(f: &mut Formatter<'_>, item: &Item, indent: usize) -> fmt::Result {
    for _ in 0..indent {
        f.write_char('\t')?;
    }
    match item {
        Item::Instruction(i) => write!(f, "{i}"),
        Item::RegDecl(d) => write!(f, "{d}"),
        Item::Pragma { text, .. } => write!(f, ".pragma \"{text}\";"),
        Item::Label { name, .. } => {
            write_name(f, name)?;
            f.write_char(':')
        }
        Item::Scope { block, .. } => {
            f.write_str("{\n")?;
            if !block.items.is_empty() {
                write_block(f, block, indent + 1)?;
                f.write_char('\n')?;
            }
            for _ in 0..indent {
                f.write_char('\t')?;
            }
            f.write_char('}')
        }
    }
}

impl Display for Block {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write_block(f, self, 0)
    }
}

impl Display for Item {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write_item(f, self, 0)
    }
}

impl Display for RegDecl {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, ".{}", self.space)?;
        if let Some(a) = self.align {
            write!(f, " .align {a}")?;
        }
        if let Some(v) = self.vector {
            write!(f, " .v{v}")?;
        }
        write!(f, " .{}", self.ty)?;
        for (i, n) in self.names.iter().enumerate() {
            f.write_str(if i == 0 { " " } else { ", " })?;
            write_name(f, n)?;
            for d in &self.array {
                write!(f, "[{d}]")?;
            }
        }
        f.write_char(';')
    }
}

impl Display for Guard {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_char('@')?;
        if self.negated {
            f.write_char('!')?;
        }
        write!(f, "{}", self.reg)
    }
}

impl Display for Instruction {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if let Some(g) = &self.guard {
            write!(f, "{g} ")?;
        }
        f.write_str(&self.opcode)?;
        for m in &self.modifiers {
            f.write_char('.')?;
            f.write_str(m)?;
        }
        for (i, op) in self.operands.iter().enumerate() {
            f.write_str(if i == 0 { " " } else { ", " })?;
            write!(f, "{op}")?;
        }
        f.write_char(';')
    }
}

impl Display for Operand {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Operand::Reg(r) => write!(f, "{r}"),
            Operand::NotReg(r) => write!(f, "!{r}"),
            Operand::Imm(i) => write!(f, "{i}"),
            Operand::Vector(elems) => {
                f.write_char('{')?;
                for (i, e) in elems.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{e}")?;
                }
                f.write_char('}')
            }
            Operand::Memory { base, offset } => match (base, *offset) {
                (None, off) => write!(f, "[{off}]"),
                (Some(b), 0) => write!(f, "[{b}]"),
                (Some(b), off) if off < 0 => write!(f, "[{b}-{}]", off.unsigned_abs()),
                (Some(b), off) => write!(f, "[{b}+{off}]"),
            },
            Operand::Discard => f.write_char('_'),
            Operand::PredPair(a, b) => {
                let side = |r: &Option<Reg>| r.as_ref().map_or("_".to_string(), Reg::to_string);
                write!(f, "{}|{}", side(a), side(b))
            }
            Operand::TensorAddress(parts) => {
                f.write_char('[')?;
                for (i, p) in parts.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{p}")?;
                }
                f.write_char(']')
            }
            Operand::Label(name) => write_name(f, name),
        }
    }
}

impl Display for Reg {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Reg::AsmOperand(n) => write!(f, "%{n}"),
            Reg::AsmNamed(name) => write!(f, "%[{name}]"),
            Reg::Ident { name, component } => {
                write_name(f, name)?;
                match component {
                    Some(c) => write!(f, ".{c}"),
                    None => Ok(()),
                }
            }
            Reg::UniqueId => f.write_str("%="),
        }
    }
}

impl Display for Immediate {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Immediate::Int(v) => write!(f, "{v}"),
            Immediate::F32Bits(b) => write!(f, "0f{b:08X}"),
            Immediate::F64Bits(b) => write!(f, "0d{b:016X}"),
            Immediate::Float(s) => f.write_str(s),
        }
    }
}
