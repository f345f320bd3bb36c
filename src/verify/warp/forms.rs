//! The recorded warp statements: one canonical inline-asm statement per form, with the role of
//! every register operand and the semantics the cases and the reference model need.
//!
//! Operands are numbered outputs first (`%0` the value, then the predicate observed through
//! `selp.u32 %k, 1, 0, p`), then the register inputs in PTX order. Predicate sources arrive as a
//! `u32` and are made a predicate with `setp.ne.u32`. A 64-bit value is one `"l"` operand.

use std::fmt::Write as _;

/// What a register input of a lane holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The 32-bit value operand (`a` of shfl, match, redux).
    A32,
    /// The 64-bit value operand (`match.*.b64`, the two-shuffle 64-bit exchange).
    A64,
    /// The lane / offset operand `b` of shfl.
    B,
    /// The clamp / segment operand `c` of shfl.
    C,
    /// The membermask.
    M,
    /// A predicate source, as a u32 (non-zero is true).
    P,
}

impl Role {
    /// 32-bit words per lane in the input files.
    pub fn words(self) -> usize {
        if self == Role::A64 {
            2
        } else {
            1
        }
    }
}

/// What an output of a lane is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Out {
    D32,
    D64,
    /// A predicate destination, observed as 0 or 1.
    P,
}

impl Out {
    pub fn words(self) -> usize {
        if self == Out::D64 {
            2
        } else {
            1
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Up,
    Down,
    Bfly,
    Idx,
}

impl Mode {
    pub const ALL: [Mode; 4] = [Mode::Up, Mode::Down, Mode::Bfly, Mode::Idx];
    pub fn name(self) -> &'static str {
        match self {
            Mode::Up => "up",
            Mode::Down => "down",
            Mode::Bfly => "bfly",
            Mode::Idx => "idx",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Vote {
    Any,
    All,
    Uni,
    Ballot,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Redux {
    Add,
    Min,
    Max,
    And,
    Or,
    Xor,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LaneReg {
    LaneId,
    Eq,
    Lt,
    Le,
    Gt,
    Ge,
}

/// The semantics of a form.
#[derive(Debug, Clone, PartialEq)]
pub enum Op {
    /// `b`, `c`, `m`: `Some` when written as an immediate. `m: None` with `sync: false` is the
    /// deprecated form (no membermask).
    Shfl {
        mode: Mode,
        b: Option<u32>,
        c: Option<u32>,
        m: Option<u32>,
        sync: bool,
        pred: bool,
    },
    /// Two shuffles of the halves of a 64-bit value (`idx`, register b, immediate c = 0x1f).
    Shfl64,
    Vote {
        mode: Vote,
        negate: bool,
        m: Option<u32>,
        sync: bool,
    },
    Activemask,
    MatchAny {
        b64: bool,
        m: Option<u32>,
    },
    /// `d`: the value destination is written (not `_`); `pred`: the predicate is.
    MatchAll {
        b64: bool,
        d: bool,
        pred: bool,
    },
    Redux {
        op: Redux,
        signed: bool,
        m: Option<u32>,
    },
    Elect {
        d: bool,
        m: Option<u32>,
    },
    Lane(LaneReg),
}

/// One recorded statement.
#[derive(Debug, Clone)]
pub struct WarpForm {
    /// Unique key (`shfl.sync.up.b32 d|p [b c m]`): what the recording is filed under.
    pub name: String,
    /// The rule the form exercises (`special` for the lane registers, which are not rules).
    pub rule: &'static str,
    pub ptx: String,
    pub constraints: Vec<String>,
    pub inputs: Vec<Role>,
    pub outputs: Vec<Out>,
    pub op: Op,
}

impl WarpForm {
    pub fn in_words(&self) -> usize {
        self.inputs.iter().map(|r| r.words()).sum()
    }
    pub fn out_words(&self) -> usize {
        self.outputs.iter().map(|o| o.words()).sum()
    }
    /// Whether the deprecated, unsynchronised form (ptxas may refuse it for recent GPUs).
    pub fn deprecated(&self) -> bool {
        matches!(
            self.op,
            Op::Shfl { sync: false, .. } | Op::Vote { sync: false, .. }
        )
    }
}

/// Builds the statement text and constraints from the instruction and its operand layout.
struct Builder {
    outputs: Vec<Out>,
    inputs: Vec<Role>,
}

impl Builder {
    fn new(outputs: &[Out]) -> Builder {
        Builder {
            outputs: outputs.to_vec(),
            inputs: Vec::new(),
        }
    }
    /// `%k` for the next register input of `role`.
    fn input(&mut self, role: Role) -> String {
        self.inputs.push(role);
        format!("%{}", self.outputs.len() + self.inputs.len() - 1)
    }
    /// An immediate, or the next register input.
    fn operand(&mut self, imm: Option<u32>, role: Role) -> String {
        match imm {
            Some(v) => format!("{v:#x}"),
            None => self.input(role),
        }
    }
    fn finish(self, name: String, rule: &'static str, ptx: String, op: Op) -> WarpForm {
        let mut constraints: Vec<String> = self
            .outputs
            .iter()
            .map(|o| if *o == Out::D64 { "=l" } else { "=r" }.to_string())
            .collect();
        constraints.extend(
            self.inputs
                .iter()
                .map(|r| if *r == Role::A64 { "l" } else { "r" }.to_string()),
        );
        WarpForm {
            name,
            rule,
            ptx,
            constraints,
            inputs: self.inputs,
            outputs: self.outputs,
            op,
        }
    }
}

fn imm_suffix(parts: &[(&str, Option<u32>)]) -> String {
    let mut s = String::new();
    for (n, v) in parts {
        if let Some(v) = v {
            let _ = write!(s, " {n}={v:#x}");
        }
    }
    s
}

fn shfl(
    mode: Mode,
    b: Option<u32>,
    c: Option<u32>,
    m: Option<u32>,
    sync: bool,
    pred: bool,
) -> WarpForm {
    let outs: &[Out] = if pred {
        &[Out::D32, Out::P]
    } else {
        &[Out::D32]
    };
    let mut bld = Builder::new(outs);
    let a = bld.input(Role::A32);
    let bo = bld.operand(b, Role::B);
    let co = bld.operand(c, Role::C);
    let opc = if sync {
        format!("shfl.sync.{}.b32", mode.name())
    } else {
        format!("shfl.{}.b32", mode.name())
    };
    let tail = if sync {
        format!(", {}", bld.operand(m, Role::M))
    } else {
        String::new()
    };
    let ptx = if pred {
        format!("{{ .reg .pred p; {opc} %0|p, {a}, {bo}, {co}{tail}; selp.u32 %1, 1, 0, p; }}")
    } else {
        format!("{opc} %0, {a}, {bo}, {co}{tail};")
    };
    let rule = match (sync, pred) {
        (true, true) => "W001",
        (true, false) => "W002",
        (false, true) => "W003",
        (false, false) => "W004",
    };
    let name = format!(
        "{opc} {}{}",
        if pred { "d|p" } else { "d" },
        imm_suffix(&[("b", b), ("c", c), ("m", m)])
    );
    bld.finish(
        name,
        rule,
        ptx,
        Op::Shfl {
            mode,
            b,
            c,
            m,
            sync,
            pred,
        },
    )
}

fn vote(mode: Vote, negate: bool, m: Option<u32>, sync: bool) -> WarpForm {
    let ballot = mode == Vote::Ballot;
    let mut bld = Builder::new(&[Out::D32]);
    let p = bld.input(Role::P);
    let tail = if sync {
        format!(", {}", bld.operand(m, Role::M))
    } else {
        String::new()
    };
    let bang = if negate { "!" } else { "" };
    let sync_mod = if sync { ".sync" } else { "" };
    let (opc, ptx) = if ballot {
        let opc = format!("vote{sync_mod}.ballot.b32");
        let ptx = format!("{{ .reg .pred q; setp.ne.u32 q, {p}, 0; {opc} %0, {bang}q{tail}; }}");
        (opc, ptx)
    } else {
        let mname = match mode {
            Vote::Any => "any",
            Vote::All => "all",
            _ => "uni",
        };
        let opc = format!("vote{sync_mod}.{mname}.pred");
        let ptx = format!(
            "{{ .reg .pred q, d; setp.ne.u32 q, {p}, 0; {opc} d, {bang}q{tail}; selp.u32 %0, 1, 0, d; }}"
        );
        (opc, ptx)
    };
    let rule = match (sync, ballot) {
        (true, false) => "W005",
        (true, true) => "W006",
        (false, false) => "W007",
        (false, true) => "W008",
    };
    let name = format!("{opc} {bang}a{}", imm_suffix(&[("m", m)]));
    bld.finish(
        name,
        rule,
        ptx,
        Op::Vote {
            mode,
            negate,
            m,
            sync,
        },
    )
}

fn match_any(b64: bool, m: Option<u32>) -> WarpForm {
    let mut bld = Builder::new(&[Out::D32]);
    let a = bld.input(if b64 { Role::A64 } else { Role::A32 });
    let mo = bld.operand(m, Role::M);
    let ty = if b64 { "b64" } else { "b32" };
    let ptx = format!("match.any.sync.{ty} %0, {a}, {mo};");
    let name = format!("match.any.sync.{ty}{}", imm_suffix(&[("m", m)]));
    bld.finish(name, "W010", ptx, Op::MatchAny { b64, m })
}

fn match_all(b64: bool, d: bool, pred: bool) -> WarpForm {
    let outs: Vec<Out> = [(d, Out::D32), (pred, Out::P)]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, o)| *o)
        .collect();
    let mut bld = Builder::new(&outs);
    let a = bld.input(if b64 { Role::A64 } else { Role::A32 });
    let mo = bld.input(Role::M);
    let ty = if b64 { "b64" } else { "b32" };
    let opc = format!("match.all.sync.{ty}");
    let (ptx, shape, rule) = match (d, pred) {
        (true, true) => (
            format!("{{ .reg .pred p; {opc} %0|p, {a}, {mo}; selp.u32 %1, 1, 0, p; }}"),
            "d|p",
            "W011",
        ),
        (false, true) => (
            format!("{{ .reg .pred p; {opc} _|p, {a}, {mo}; selp.u32 %0, 1, 0, p; }}"),
            "_|p",
            "W011",
        ),
        _ => (format!("{opc} %0, {a}, {mo};"), "d", "W012"),
    };
    bld.finish(
        format!("{opc} {shape}"),
        rule,
        ptx,
        Op::MatchAll { b64, d, pred },
    )
}

fn redux(op: Redux, signed: bool, m: Option<u32>) -> WarpForm {
    let mut bld = Builder::new(&[Out::D32]);
    let a = bld.input(Role::A32);
    let mo = bld.operand(m, Role::M);
    let (oname, ty, rule) = match op {
        Redux::Add => ("add", if signed { "s32" } else { "u32" }, "W013"),
        Redux::Min => ("min", if signed { "s32" } else { "u32" }, "W013"),
        Redux::Max => ("max", if signed { "s32" } else { "u32" }, "W013"),
        Redux::And => ("and", "b32", "W014"),
        Redux::Or => ("or", "b32", "W014"),
        Redux::Xor => ("xor", "b32", "W014"),
    };
    let opc = format!("redux.sync.{oname}.{ty}");
    let ptx = format!("{opc} %0, {a}, {mo};");
    bld.finish(
        format!("{opc}{}", imm_suffix(&[("m", m)])),
        rule,
        ptx,
        Op::Redux { op, signed, m },
    )
}

fn elect(d: bool, m: Option<u32>) -> WarpForm {
    let outs: &[Out] = if d { &[Out::D32, Out::P] } else { &[Out::P] };
    let mut bld = Builder::new(outs);
    let mo = bld.operand(m, Role::M);
    let ptx = if d {
        format!("{{ .reg .pred p; elect.sync %0|p, {mo}; selp.u32 %1, 1, 0, p; }}")
    } else {
        format!("{{ .reg .pred p; elect.sync _|p, {mo}; selp.u32 %0, 1, 0, p; }}")
    };
    bld.finish(
        format!(
            "elect.sync {}{}",
            if d { "d|p" } else { "_|p" },
            imm_suffix(&[("m", m)])
        ),
        "W015",
        ptx,
        Op::Elect { d, m },
    )
}

fn lane(reg: LaneReg) -> WarpForm {
    let name = match reg {
        LaneReg::LaneId => "%laneid",
        LaneReg::Eq => "%lanemask_eq",
        LaneReg::Lt => "%lanemask_lt",
        LaneReg::Le => "%lanemask_le",
        LaneReg::Gt => "%lanemask_gt",
        LaneReg::Ge => "%lanemask_ge",
    };
    let bld = Builder::new(&[Out::D32]);
    bld.finish(
        format!("mov.u32 {name}"),
        "special",
        format!("mov.u32 %0, {name};"),
        Op::Lane(reg),
    )
}

fn shfl64() -> WarpForm {
    let mut bld = Builder::new(&[Out::D64]);
    let a = bld.input(Role::A64);
    let b = bld.input(Role::B);
    let m = bld.input(Role::M);
    let ptx = format!(
        "{{ .reg .b32 lo, hi; mov.b64 {{lo, hi}}, {a}; shfl.sync.idx.b32 lo, lo, {b}, 0x1f, {m}; shfl.sync.idx.b32 hi, hi, {b}, 0x1f, {m}; mov.b64 %0, {{lo, hi}}; }}"
    );
    bld.finish(
        "shfl.sync.idx.b32 x2 (64-bit)".into(),
        "W002",
        ptx,
        Op::Shfl64,
    )
}

/// Immediate (b, c) pairs recorded per mode: what library code writes (CUB's segments, reduction
/// butterflies, broadcasts), the HIP pitfalls (an xor reaching below the segment, b >= 32).
fn immediate_pairs(mode: Mode) -> &'static [(u32, u32)] {
    match mode {
        Mode::Up => &[(1, 0), (2, 0), (16, 0), (1, 0x1800), (4, 0x1000), (33, 0)],
        Mode::Down => &[
            (1, 0x1f),
            (8, 0x1f),
            (16, 0x1f),
            (1, 0x181f),
            (2, 0x101f),
            (5, 0x0f),
        ],
        Mode::Bfly => &[
            (1, 0x1f),
            (2, 0x1f),
            (3, 0x1f),
            (4, 0x1f),
            (7, 0x1f),
            (8, 0x1f),
            (15, 0x1f),
            (16, 0x1f),
            (31, 0x1f),
            (8, 0x181f),
            (16, 0x101f),
            (1, 0x0f),
        ],
        Mode::Idx => &[
            (0, 0x1f),
            (5, 0x1f),
            (31, 0x1f),
            (3, 0x181f),
            (33, 0x1f),
            (1, 0x1e1f),
        ],
    }
}

/// Every recorded form, in a fixed order.
pub fn all_forms() -> Vec<WarpForm> {
    let mut v = Vec::new();
    for mode in Mode::ALL {
        v.push(shfl(mode, None, None, None, true, true));
        v.push(shfl(mode, None, None, None, true, false));
        for &(b, c) in immediate_pairs(mode) {
            v.push(shfl(mode, Some(b), Some(c), Some(0xffff_ffff), true, false));
        }
        v.push(shfl(
            mode,
            Some(1),
            Some(0x1f),
            Some(0xffff_ffff),
            true,
            true,
        ));
        v.push(shfl(mode, None, None, None, false, true));
        v.push(shfl(mode, None, None, None, false, false));
    }
    v.push(shfl64());
    for mode in [Vote::Any, Vote::All, Vote::Uni, Vote::Ballot] {
        for negate in [false, true] {
            v.push(vote(mode, negate, None, true));
        }
        v.push(vote(mode, false, Some(0xffff_ffff), true));
        v.push(vote(mode, false, None, false));
    }
    v.push(WarpForm {
        name: "activemask.b32".into(),
        rule: "W009",
        ptx: "activemask.b32 %0;".into(),
        constraints: vec!["=r".into()],
        inputs: Vec::new(),
        outputs: vec![Out::D32],
        op: Op::Activemask,
    });
    for b64 in [false, true] {
        v.push(match_any(b64, None));
        v.push(match_all(b64, true, true));
        v.push(match_all(b64, false, true));
        v.push(match_all(b64, true, false));
    }
    v.push(match_any(false, Some(0xffff_ffff)));
    for (op, signed) in [
        (Redux::Add, false),
        (Redux::Add, true),
        (Redux::Min, false),
        (Redux::Min, true),
        (Redux::Max, false),
        (Redux::Max, true),
        (Redux::And, false),
        (Redux::Or, false),
        (Redux::Xor, false),
    ] {
        v.push(redux(op, signed, None));
    }
    v.push(redux(Redux::Add, false, Some(0xffff_ffff)));
    v.push(redux(Redux::Max, true, Some(0xffff_ffff)));
    v.push(elect(true, None));
    v.push(elect(false, None));
    v.push(elect(true, Some(0xffff_ffff)));
    v.push(elect(true, Some(0xaaaa_aaaa)));
    for reg in [
        LaneReg::LaneId,
        LaneReg::Eq,
        LaneReg::Lt,
        LaneReg::Le,
        LaneReg::Gt,
        LaneReg::Ge,
    ] {
        v.push(lane(reg));
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_statements_number_their_operands() {
        let forms = all_forms();
        let mut names: Vec<&str> = forms.iter().map(|f| f.name.as_str()).collect();
        names.sort();
        let n = names.len();
        names.dedup();
        assert_eq!(names.len(), n, "duplicate form names");
        for f in &forms {
            let ops = f.outputs.len() + f.inputs.len();
            assert_eq!(f.constraints.len(), ops, "{}", f.name);
            for k in 0..ops {
                assert!(f.ptx.contains(&format!("%{k}")), "{}: %{k} unused", f.name);
            }
        }
    }

    #[test]
    fn shapes_read_as_ptx_writes_them() {
        let f = shfl(
            Mode::Bfly,
            Some(16),
            Some(0x1f),
            Some(0xffff_ffff),
            true,
            false,
        );
        assert_eq!(f.ptx, "shfl.sync.bfly.b32 %0, %1, 0x10, 0x1f, 0xffffffff;");
        assert_eq!(f.constraints, ["=r", "r"]);
        let f = shfl(Mode::Up, None, None, None, true, true);
        assert_eq!(
            f.ptx,
            "{ .reg .pred p; shfl.sync.up.b32 %0|p, %2, %3, %4, %5; selp.u32 %1, 1, 0, p; }"
        );
        assert_eq!(f.inputs, [Role::A32, Role::B, Role::C, Role::M]);
        let f = elect(false, None);
        assert_eq!(
            f.ptx,
            "{ .reg .pred p; elect.sync _|p, %1; selp.u32 %0, 1, 0, p; }"
        );
    }
}
