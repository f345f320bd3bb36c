//! The matrix-fragment moves `ldmatrix`, `stmatrix` and `movmatrix` (rules/fragment.toml): their
//! forms, warp cases over shared-memory address patterns, the PTX semantics written out
//! ([`reference`]), and the H100 recording of every form (`tests/vectors/fragment/`,
//! docs/FRAGMENTS.md).
//!
//! One case is one warp: the row address every lane gives (a byte offset into a 1 KiB tile of
//! shared memory, 16-byte aligned), the tile's contents before the instruction and every lane's
//! registers. The outputs kept per lane are its destination registers (`ldmatrix`, `movmatrix`)
//! or, for `stmatrix`, eight words of the tile after the instruction (lane l: words 8l..8l+7), so
//! the recording has the per-lane shape of the warp recordings (`crate::warp::Recording`).
//! Inputs are not stored: [`cases::generate`] regenerates them and the recording carries their
//! digest.

pub mod cases;
pub mod harness;
pub mod reference;

pub use cases::{generate, inputs_digest, Case};

/// Lanes of a PTX warp.
pub const WARP: usize = 32;
/// Bytes of the shared-memory tile a case addresses.
pub const TILE_BYTES: usize = 1024;
/// 32-bit words of the tile.
pub const TILE_WORDS: usize = TILE_BYTES / 4;
/// Bytes of one matrix row (8 b16 elements).
pub const ROW_BYTES: usize = 16;

/// Which instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Ld,
    St,
    Mov,
}

/// How the row address is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Space {
    /// `.shared`: a 32-bit shared window address.
    Shared,
    /// `.shared::cta`: the same, spelt as sm_90 code does.
    SharedCta,
    /// No state space: a 64-bit generic pointer into shared memory.
    Generic,
}

/// One form of the family.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Form {
    pub op: Op,
    /// Matrices moved: 1, 2 or 4 (`movmatrix`: 1).
    pub num: usize,
    pub trans: bool,
    pub space: Space,
}

impl Form {
    /// The rule that translates it.
    pub fn rule(&self) -> &'static str {
        match self.op {
            Op::Ld => "G001",
            Op::St => "G002",
            Op::Mov => "G003",
        }
    }

    /// The canonical statement: the modifiers in the ISA's order.
    pub fn ptx(&self) -> String {
        let space = match self.space {
            Space::Shared => ".shared",
            Space::SharedCta => ".shared::cta",
            Space::Generic => "",
        };
        let trans = if self.trans { ".trans" } else { "" };
        let regs = |first: usize| {
            let r: Vec<String> = (first..first + self.num).map(|i| format!("%{i}")).collect();
            format!("{{{}}}", r.join(", "))
        };
        match self.op {
            Op::Ld => format!(
                "ldmatrix.sync.aligned.m8n8.x{}{trans}{space}.b16 {}, [%{}];",
                self.num,
                regs(0),
                self.num
            ),
            Op::St => format!(
                "stmatrix.sync.aligned.m8n8.x{}{trans}{space}.b16 [%0], {};",
                self.num,
                regs(1)
            ),
            Op::Mov => "movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;".to_string(),
        }
    }

    /// The asm operands' constraints, in `%N` order.
    pub fn constraints(&self) -> Vec<String> {
        let addr = if self.space == Space::Generic {
            "l"
        } else {
            "r"
        };
        let mut c = Vec::new();
        match self.op {
            Op::Ld => {
                c.extend((0..self.num).map(|_| "=r".to_string()));
                c.push(addr.to_string());
            }
            Op::St => {
                c.push(addr.to_string());
                c.extend((0..self.num).map(|_| "r".to_string()));
            }
            Op::Mov => c.extend(["=r".to_string(), "r".to_string()]),
        }
        c
    }

    /// A stable name: the statement.
    pub fn name(&self) -> String {
        self.ptx()
    }

    /// Output words per lane (see the module documentation).
    pub fn out_words(&self) -> usize {
        match self.op {
            Op::Ld => self.num,
            Op::St => TILE_WORDS / WARP,
            Op::Mov => 1,
        }
    }

    /// Lanes whose row addresses the instruction reads (8 per matrix).
    pub fn address_lanes(&self) -> usize {
        8 * self.num
    }
}

/// Every form: ldmatrix and stmatrix for each count, with and without `.trans`, in each way of
/// addressing; movmatrix.
pub fn all_forms() -> Vec<Form> {
    let mut v = Vec::new();
    for op in [Op::Ld, Op::St] {
        for num in [1, 2, 4] {
            for trans in [false, true] {
                for space in [Space::Shared, Space::SharedCta, Space::Generic] {
                    v.push(Form {
                        op,
                        num,
                        trans,
                        space,
                    });
                }
            }
        }
    }
    v.push(Form {
        op: Op::Mov,
        num: 1,
        trans: true,
        space: Space::Shared,
    });
    v
}
