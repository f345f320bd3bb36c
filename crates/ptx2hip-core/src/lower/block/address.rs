//! Memory operands and modifier-sized vectors.
//!
//! An address operand becomes a `uintptr_t` expression holding a generic pointer, whatever state
//! space the instruction names:
//!
//! - generic and `.global`: the 64-bit register itself (the same pointer values on NVIDIA and
//!   AMD);
//! - `.shared{::cta}`, `.local`, `.const`, and `.shared::cluster` (the CTA's own, in a launch
//!   without clusters; only rules that list the space take it): a *window* address (what `cvta.to.<space>` returns, in
//!   a 32- or 64-bit register), converted by the space's helper (`ptx2hip_shared_ptr`, ...). The
//!   offset is added in the window, with the register's width, as the hardware does; on AMD the
//!   helper is an address-space cast that the compiler sees through, so `ld.shared` stays one LDS
//!   access (`ds_read_b128` for a `.v4.b32`); `.shared::cluster` is the `.shared::cta` window,
//!   the CTA's own shared memory in a launch without clusters (rules/cluster.toml);
//! - `[var]`, `[var+imm]` where `var` is no register: the PTX symbol `var`, which for a variable
//!   of the global C++ namespace is its unmangled name: `&::var` (a mangled name cannot be spelled
//!   in C++ and is refused, as is an absolute address `[imm]`).
//!
//! A vector operand whose width a modifier gives (`d:[vec]:T`) is one `ptx2hip_vec<T, N>`
//! aggregate in the template, so one template serves `.v2`, `.v4` and scalars, and the access
//! stays a single wide load or store.

use super::*;

/// How the addresses of a state space become generic pointers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Window {
    /// The register holds a generic pointer already (generic addressing and `.global`).
    Generic,
    /// The register holds a window address that this helper converts.
    Offset(&'static str),
}

/// The helper that turns a global variable into its address in its state space.
pub(super) const SYMBOL_ADDR: &str = "ptx2hip_symbol_addr";

/// The aggregate a vector operand travels in (`ptx2hip_vec<T, N>`).
const VEC: &str = "ptx2hip_vec";

/// The window of a state space modifier (`None`: generic addressing). A `.shared::cluster`
/// address is one of the CTA's own shared memory under the no-cluster assumption the cluster
/// special registers make (rules/special.toml): the `.shared::cta` window lies in the
/// `.shared::cluster` window at the same addresses, and without a cluster no other CTA's window
/// exists. Only rules whose slots list `shared::cluster` take such addresses (rules/cluster.toml,
/// bulk.toml, tensor_copy.toml).
fn window(space: Option<&str>) -> Option<Window> {
    Some(match space {
        None | Some("global") => Window::Generic,
        Some("shared" | "shared::cta" | "shared::cluster") => Window::Offset("ptx2hip_shared_ptr"),
        Some("local") => Window::Offset("ptx2hip_local_ptr"),
        Some("const") => Window::Offset("ptx2hip_const_ptr"),
        _ => return None,
    })
}

/// Operands a scalar operand spec accepts.
pub(super) fn is_scalar_operand(op: &ptx::Operand) -> bool {
    matches!(
        op,
        ptx::Operand::Reg(_)
            | ptx::Operand::Imm(_)
            | ptx::Operand::NotReg(_)
            | ptx::Operand::Discard
    )
}

/// A PTX name that C++ can spell as `::name`: an identifier that is not an Itanium-mangled name.
fn is_plain_symbol(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !name.starts_with("_Z")
}

/// A variable named as a source operand (`mov.u64 d, smem;`, `cvta.shared.u64 d, smem;`): PTX
/// gives its address in its own state space; `None` when the name cannot be a C++ variable of the
/// global namespace.
pub(super) fn symbol_value(name: &str, component: Option<char>) -> Option<String> {
    (component.is_none() && is_plain_symbol(name))
        .then(|| format!("{SYMBOL_ADDR}((const void*)&::{name})"))
}

/// `+ off` / `- off` with an integer suffix for a `bits`-wide unsigned operand.
fn offset_suffix(offset: i64, bits: u32) -> String {
    let suffix = if bits > 32 { "ull" } else { "u" };
    match offset {
        0 => String::new(),
        o if o > 0 => format!(" + {o}{suffix}"),
        o => format!(" - {}{suffix}", o.unsigned_abs()),
    }
}

impl Lowerer<'_> {
    /// An address operand as a `uintptr_t` expression holding a generic pointer.
    pub(super) fn address(
        &mut self,
        op: &ptx::Operand,
        space: Option<&str>,
        at: usize,
    ) -> Result<Expr, Unsupported> {
        let ptx::Operand::Memory { base, offset } = op else {
            return Err(Unsupported::at(
                Code::OperandShape,
                "only `[register]`, `[register+offset]` and `[variable]` addresses are translated"
                    .into(),
                at,
            ));
        };
        let Some(window) = window(space) else {
            return Err(Unsupported::at(
                Code::OperandShape,
                format!(
                    "`.{}` addresses are not translated",
                    space.unwrap_or_default()
                ),
                at,
            ));
        };
        let Some(base) = base else {
            return Err(Unsupported::at(
                Code::OperandShape,
                format!("the absolute address `[{offset}]` has no counterpart outside NVIDIA's address map"),
                at,
            ));
        };
        if let Some(symbol) = self.symbol(base) {
            if !is_plain_symbol(symbol) {
                return Err(Unsupported::at(
                    Code::OperandShape,
                    format!("`[{symbol}]` names a PTX symbol that C++ cannot spell (a mangled or unusual name)"),
                    at,
                ));
            }
            return Ok(Expr::other(format!(
                "((uintptr_t)&::{symbol}{})",
                offset_suffix(*offset, 64)
            )));
        }
        let reg = match self.asm_index(base) {
            Some(i) => self.ops[i].reg,
            None => Some(self.resolve_ident(base, at)?.1),
        };
        let bits = reg.filter(|r| r.is_integer()).map(CType::bits);
        match (window, bits) {
            (Window::Generic, Some(64)) => {
                let base = self.read_reg(base, CType::Uint(64), at)?;
                Ok(match offset {
                    0 => Expr::cast("uintptr_t", format!("({base})")),
                    o if *o > 0 => Expr::other(format!("((uintptr_t)({base}) + {o})")),
                    o => Expr::other(format!("((uintptr_t)({base}) - {})", o.unsigned_abs())),
                })
            }
            (Window::Generic, _) => Err(Unsupported::at(
                Code::OperandShape,
                "address register is not 64-bit: generic and `.global` addresses are 64-bit pointers"
                    .into(),
                at,
            )),
            (Window::Offset(helper), Some(bits @ (32 | 64))) => {
                let ty = CType::Uint(bits);
                let base = self.read_reg(base, ty, at)?;
                let addr = match offset {
                    0 => base,
                    o => Expr::cast(ty, format!("({base}{})", offset_suffix(*o, bits))),
                };
                self.helpers.add(helper);
                Ok(Expr::cast("uintptr_t", format!("{helper}({addr})")))
            }
            (Window::Offset(_), _) => Err(Unsupported::at(
                Code::OperandShape,
                format!(
                    "a `.{}` address register must be a 32- or 64-bit integer",
                    space.unwrap_or_default()
                ),
                at,
            )),
        }
    }

    /// The PTX symbol an address base names, when it is neither an asm operand, a `.reg` local
    /// nor a special register.
    fn symbol<'r>(&self, base: &'r Reg) -> Option<&'r str> {
        match base {
            Reg::Ident {
                name,
                component: None,
            } if self.local(name).is_none()
                && !self.rules.specials.contains_key(name)
                && !name.starts_with('%') =>
            {
                Some(name)
            }
            _ => None,
        }
    }

    /// A vector destination `{a, b, _, d}` as one `ptx2hip_vec<T, N>` temporary that the
    /// template assigns; its elements go to their registers afterwards (`_` elements nowhere).
    /// When the instruction also reads it (`reads`: wgmma's accumulator, `{d} = f({d}, …)`), the
    /// temporary starts as the registers' values, read like any source (an asm output `"=f"` is
    /// then refused as read before it is written: `"+f"` is the constraint that carries it in).
    /// Returns the temporary and its C++ type.
    pub(super) fn vector_dest(
        &mut self,
        op: &ptx::Operand,
        elem: CType,
        reads: bool,
        pre: &mut Vec<String>,
        post: &mut Vec<String>,
        at: usize,
    ) -> Result<(String, String), Unsupported> {
        let ptx::Operand::Vector(elems) = op else {
            unreachable!("shape checked")
        };
        self.helpers.add(VEC);
        let ty = format!("{VEC}<{elem}, {}>", elems.len());
        let init = if reads {
            let values = elems
                .iter()
                .map(|e| self.source(e, elem, at).map(|v| v.to_string()))
                .collect::<Result<Vec<_>, _>>()?;
            format!(" = {ty}{{{{{}}}}}", values.join(", "))
        } else {
            String::new()
        };
        let agg = self.temp();
        pre.push(format!("{ty} {agg}{init};"));
        for (k, e) in elems.iter().enumerate() {
            if matches!(e, ptx::Operand::Discard) {
                continue;
            }
            let mut converted = Vec::new();
            let lvalue = self.dest(e, elem, false, pre, &mut converted, at)?;
            post.push(format!("{lvalue} = {agg}.v[{k}];"));
            post.extend(converted);
        }
        Ok((agg, ty))
    }

    /// A vector source `{a, b, c, d}` as a `ptx2hip_vec<T, N>` value. Returns it and its type.
    pub(super) fn vector_source(
        &mut self,
        op: &ptx::Operand,
        elem: CType,
        at: usize,
    ) -> Result<(Expr, String), Unsupported> {
        let ptx::Operand::Vector(elems) = op else {
            unreachable!("shape checked")
        };
        self.helpers.add(VEC);
        let ty = format!("{VEC}<{elem}, {}>", elems.len());
        let values = elems
            .iter()
            .map(|e| self.source(e, elem, at).map(|v| v.to_string()))
            .collect::<Result<Vec<_>, _>>()?;
        Ok((
            Expr::other(format!("{ty}{{{{{}}}}}", values.join(", "))),
            ty,
        ))
    }

    /// The tensor map of a tensor operand `[map, {...}]`: its 64-bit generic address as a
    /// `uintptr_t` (PTX: the address of a map in `.param`, `.const` or `.global` space, which a
    /// kernel parameter's generic address is).
    pub(super) fn tensor_map(
        &mut self,
        map: &ptx::Operand,
        at: usize,
    ) -> Result<Expr, Unsupported> {
        let v = self.source(map, CType::Uint(64), at)?;
        Ok(Expr::other(format!("(uintptr_t){v}")))
    }

    /// The coordinates of a tensor operand as one `ptx2hip_tma_coords` aggregate (the helpers'
    /// five `.s32` coordinates; a `.2d` operand leaves the last three zero).
    pub(super) fn tensor_coords(
        &mut self,
        coords: &ptx::Operand,
        at: usize,
    ) -> Result<Expr, Unsupported> {
        let ptx::Operand::Vector(elems) = coords else {
            unreachable!("shape checked")
        };
        let values = elems
            .iter()
            .map(|e| self.source(e, CType::Int(32), at).map(|v| v.to_string()))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Expr::other(format!(
            "ptx2hip_tma_coords{{{{{}}}}}",
            values.join(", ")
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spaces_have_windows() {
        assert_eq!(window(None), Some(Window::Generic));
        assert_eq!(window(Some("global")), Some(Window::Generic));
        assert_eq!(
            window(Some("shared::cta")),
            Some(Window::Offset("ptx2hip_shared_ptr"))
        );
        assert_eq!(window(Some("param")), None);
        assert_eq!(
            window(Some("shared::cluster")),
            Some(Window::Offset("ptx2hip_shared_ptr"))
        );
    }

    #[test]
    fn symbols_cpp_can_spell() {
        assert!(is_plain_symbol("smem"));
        assert!(is_plain_symbol("_tile0"));
        assert!(!is_plain_symbol("_ZZ6kernelE4smem"));
        assert!(!is_plain_symbol("a$b"));
        assert!(!is_plain_symbol("9x"));
    }

    #[test]
    fn offsets_wrap_in_the_register_width() {
        assert_eq!(offset_suffix(0, 32), "");
        assert_eq!(offset_suffix(16, 32), " + 16u");
        assert_eq!(offset_suffix(-8, 64), " - 8ull");
    }
}
