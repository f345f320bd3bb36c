//! Forward progress: mbarrier waits that lanes of one warp make while other lanes of the same warp
//! are the ones to arrive (`if (lane == 0) arrive(bar); else wait(bar);`).
//!
//! On NVIDIA (sm_70 and later) the threads of a warp progress independently, so that code works.
//! On AMD the lanes of a wave run one side of a divergent branch after the other: when the compiler
//! schedules the waiting side first, its lanes spin for an arrival that the other side, masked off
//! until they stop, never makes. The lint reports the pattern only where it is certain to be that
//! pattern — one `if` whose condition picks lanes within a warp (a lane index compared, an elected
//! lane, `threadIdx.x % 32`, thread 0 against the rest of its warp), an arrive-on asm statement in
//! one branch and a wait asm statement on the same barrier expression in the other — and says
//! nothing about roles that split whole warps or warpgroups (`warp_idx == 0`, `threadIdx.x < 128`),
//! which the emulation keeps apart on wave32 and, for groups of 64 threads, on wave64.
//!
//! Counted barriers (`barrier.sync id, count`, emulated by S030-S033) hang in the same way one
//! level up: on wave64 one wave holds two PTX warps, and when an `if` gives them different roles
//! and both sides reach the same barrier id, the side that runs first spins there for the other
//! side's arrival. [`wave64_splits`] reports an `if` whose condition visibly separates the two
//! warps of a wave (`warp == 0`, `warp_idx < 3`, `threadIdx.x < 32`) with a counted barrier
//! `sync` in one branch and the same barrier id in the other.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::tokens::{self, Kind, Span};
use super::{AsmStatement, Template};

/// What an asm statement does to an mbarrier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Can complete a phase: `mbarrier.arrive{_drop}`, `complete_tx`, `cp.async.mbarrier.arrive`.
    Arrive,
    /// Polls for a phase: `mbarrier.try_wait` / `test_wait`.
    Wait,
    /// Arrives at a counted barrier and waits: `bar.sync id, count`, `barrier.sync id, count`.
    CountedSync,
    /// Arrives at a counted barrier without waiting: `bar.arrive id, count`.
    CountedArrive,
}

/// An asm statement that arrives on or waits for an mbarrier, and the C++ expression of its
/// address operand (blanks removed), which identifies the barrier within one function; or a
/// counted barrier statement and its barrier id (a literal, or its operand's expression).
#[derive(Debug, Clone)]
pub struct Party {
    pub span: Range<usize>,
    pub line: usize,
    pub column: usize,
    pub role: Role,
    pub barrier: String,
}

/// A wait the lint reports: the waiting statement, the arriving one and the `if` that splits them.
#[derive(Debug, Clone)]
pub struct SameWaveWait {
    pub wait: Party,
    pub arrive_line: usize,
    pub if_line: usize,
    pub condition: String,
}

static ROLE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\bmbarrier\.(try_wait|test_wait|arrive_drop|arrive|complete_tx)\b[^\[;]*\[\s*%(\d+|\[\w+\])").unwrap()
});

/// Counted barrier statements: the operation and the id operand.
static COUNTED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\b(?:bar|barrier)(?:\.cta)?\.(sync|arrive)(?:\.aligned)?\s+(%\d+|%\[\w+\]|\d+)\s*,",
    )
    .unwrap()
});

/// Conditions that pick some lanes of a warp and not the others.
static LANE_SPLIT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"\blane\w*(\(\))?(==|!=)|(==|!=)lane\w*\b|\belect_one\w*\(|\blane_predicate\b",
        r"|threadIdx\.x%(32|warpSize)(==|!=)|threadIdx\.x&(31|0x1f)\)?(==|!=)",
        r"|\bthreadIdx\.x(==|!=)0\b|^!?threadIdx\.x$",
    ))
    .unwrap()
});

/// The statement's role, if its text (known at scan time) arrives on or waits for an mbarrier
/// whose address operand is a plain operand of the statement.
pub fn party(stmt: &AsmStatement) -> Option<Party> {
    let Template::Known { text, .. } = &stmt.template else {
        return None;
    };
    if let Some(caps) = COUNTED.captures(text) {
        let role = match &caps[1] {
            "sync" => Role::CountedSync,
            _ => Role::CountedArrive,
        };
        let id = &caps[2];
        let barrier = match id.strip_prefix('%') {
            None => id.to_string(),
            Some(operand) => operand_expr(stmt, operand)?,
        };
        return Some(Party {
            span: stmt.span.clone(),
            line: stmt.line,
            column: stmt.column,
            role,
            barrier,
        });
    }
    let caps = ROLE.captures(text)?;
    let role = match &caps[1] {
        "try_wait" | "test_wait" => Role::Wait,
        _ => Role::Arrive,
    };
    Some(Party {
        span: stmt.span.clone(),
        line: stmt.line,
        column: stmt.column,
        role,
        barrier: operand_expr(stmt, &caps[2])?,
    })
}

/// The C++ expression (blanks removed) of the operand `operand` names: `0` or `[name]`.
fn operand_expr(stmt: &AsmStatement, operand: &str) -> Option<String> {
    let mut operands = stmt.outputs.iter().chain(&stmt.inputs);
    let op = match operand.strip_prefix('[') {
        Some(name) => {
            let name = name.trim_end_matches(']');
            operands.find(|o| o.name.as_deref() == Some(name))?
        }
        None => operands.nth(operand.parse().ok()?)?,
    };
    Some(op.expr.split_whitespace().collect())
}

/// A counted barrier `sync` the check reports: the statement, the other side's statement on the
/// same barrier id, and the `if` that gives the two warps of a wave64 the two sides.
#[derive(Debug, Clone)]
pub struct Wave64Split {
    pub sync: Party,
    pub other_line: usize,
    pub if_line: usize,
    pub condition: String,
}

/// Conditions (blanks removed) that put the two 32-thread warps of some wave64 on different sides:
/// a warp index compared with a constant, or an index bound in the middle of a wave.
static WARP_SPLIT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"\bwarp\w*(?:\(\))?(==|!=|<|>=|>|<=)(\d+)\b|\b(\d+)(==|!=)warp\w*\b",
        r"|\bwarp\w*(?:\(\))?(%2|&1)\b",
        r"|\bthreadIdx\.x(<|>=|>|<=)(\d+)\b",
    ))
    .unwrap()
});

/// Whether `condition` (blanks removed) separates the two warps of a wave64.
fn splits_a_wave64(condition: &str) -> bool {
    WARP_SPLIT.captures_iter(condition).any(|c| {
        let bound = |op: &str, n: &str, lanes: u64| {
            let Ok(n) = n.parse::<u64>() else {
                return false;
            };
            // The first index on the upper side: `< n` and `>= n` split at n, `> n`, `<= n` at n + 1.
            let first = if matches!(op, "<" | ">=") { n } else { n + 1 };
            first % (2 * lanes) == lanes
        };
        if let (Some(op), Some(n)) = (c.get(1), c.get(2)) {
            matches!(op.as_str(), "==" | "!=") || bound(op.as_str(), n.as_str(), 1)
        } else if c.get(3).is_some() || c.get(5).is_some() {
            true
        } else if let (Some(op), Some(n)) = (c.get(6), c.get(7)) {
            bound(op.as_str(), n.as_str(), 32)
        } else {
            false
        }
    })
}

/// The counted barrier `sync`s of `parties` that an `if` of `source` separates, between the two
/// warps of a wave64, from a statement on the same barrier id.
pub fn wave64_splits(source: &[u8], parties: &[Party]) -> Vec<Wave64Split> {
    if !parties.iter().any(|p| p.role == Role::CountedSync) {
        return Vec::new();
    }
    let mut found = Vec::new();
    for (if_at, split, condition) in if_splits(source) {
        if !splits_a_wave64(&condition) {
            continue;
        }
        let within = |r: &Range<usize>| {
            let r = r.clone();
            parties.iter().filter(move |p| {
                matches!(p.role, Role::CountedSync | Role::CountedArrive)
                    && r.start <= p.span.start
                    && p.span.end <= r.end
            })
        };
        for (syncs, others) in [
            (&split.then, &split.otherwise),
            (&split.otherwise, &split.then),
        ] {
            for s in within(syncs).filter(|p| p.role == Role::CountedSync) {
                if let Some(o) = within(others).find(|o| o.barrier == s.barrier) {
                    found.push(Wave64Split {
                        sync: s.clone(),
                        other_line: o.line,
                        if_line: line_of(source, if_at),
                        condition: condition.clone(),
                    });
                }
            }
        }
    }
    found.sort_by_key(|f| f.sync.span.start);
    found
}

/// The waits of `parties` (in file order) that an `if` of `source` separates from an arrival on
/// the same barrier by lanes of one warp.
pub fn same_wave_waits(source: &[u8], parties: &[Party]) -> Vec<SameWaveWait> {
    if !parties.iter().any(|p| p.role == Role::Wait)
        || !parties.iter().any(|p| p.role == Role::Arrive)
    {
        return Vec::new();
    }
    let mut found = Vec::new();
    for (if_at, split, condition) in if_splits(source) {
        if !LANE_SPLIT.is_match(&condition) {
            continue;
        }
        let within = |r: Range<usize>, role: Role| {
            parties
                .iter()
                .filter(move |p| p.role == role && r.start <= p.span.start && p.span.end <= r.end)
        };
        for (waits, arrives) in [
            (&split.then, &split.otherwise),
            (&split.otherwise, &split.then),
        ] {
            for w in within(waits.clone(), Role::Wait) {
                if let Some(a) =
                    within(arrives.clone(), Role::Arrive).find(|a| a.barrier == w.barrier)
                {
                    found.push(SameWaveWait {
                        wait: w.clone(),
                        arrive_line: a.line,
                        if_line: line_of(source, if_at),
                        condition: condition.clone(),
                    });
                }
            }
        }
    }
    found.sort_by_key(|f| f.wait.span.start);
    found
}

/// Every `if` with an `else` in `source`: the offset of its `if`, its parts, and its condition
/// without blanks (what the lane and warp patterns match).
fn if_splits(source: &[u8]) -> Vec<(usize, IfSplit, String)> {
    let toks = tokens::spans(source, 0..source.len(), &[]);
    toks.iter()
        .enumerate()
        .filter(|(_, t)| t.kind == Kind::Ident && t.text(source) == b"if")
        .filter_map(|(i, t)| {
            let split = if_split(source, &toks, i)?;
            let condition = String::from_utf8_lossy(&source[split.condition.clone()])
                .split_whitespace()
                .collect();
            Some((t.at, split, condition))
        })
        .collect()
}

/// An `if` with an `else`: the bytes of its condition and of its two branches.
struct IfSplit {
    condition: Range<usize>,
    then: Range<usize>,
    otherwise: Range<usize>,
}

/// The `if` at token `at` when it has a parenthesised condition, a branch and an `else` branch
/// (each a `{ }` block or one statement up to its `;`).
fn if_split(src: &[u8], toks: &[Span], at: usize) -> Option<IfSplit> {
    let open = at + 1;
    if toks.get(open)?.kind != Kind::LParen {
        return None;
    }
    let close = matching(src, toks, open)?;
    let (then, after_then) = branch(src, toks, close + 1)?;
    let else_at = after_then;
    if !(toks.get(else_at)?.kind == Kind::Ident && toks[else_at].text(src) == b"else") {
        return None;
    }
    let (otherwise, _) = branch(src, toks, else_at + 1)?;
    Some(IfSplit {
        condition: toks[open].end..toks[close].at,
        then,
        otherwise,
    })
}

/// The bytes of the branch starting at token `at` and the index of the token after it.
fn branch(src: &[u8], toks: &[Span], at: usize) -> Option<(Range<usize>, usize)> {
    let after = statement_end(src, toks, at)?;
    Some((toks.get(at)?.at..toks[after - 1].end, after))
}

/// The index of the token after the statement starting at token `at`: a `{ }` block, a
/// compound statement (`if`/`else` chains, `for`, `while`, `switch`, `do`), or tokens up to a `;`
/// outside brackets.
fn statement_end(src: &[u8], toks: &[Span], at: usize) -> Option<usize> {
    let first = toks.get(at)?;
    let keyword = |k: usize, word: &[u8]| {
        toks.get(k)
            .is_some_and(|t| t.kind == Kind::Ident && t.text(src) == word)
    };
    match first.text(src) {
        b"{" => Some(matching(src, toks, at)? + 1),
        b"if" | b"for" | b"while" | b"switch" if first.kind == Kind::Ident => {
            if toks.get(at + 1)?.kind != Kind::LParen {
                return None;
            }
            let body = matching(src, toks, at + 1)? + 1;
            let end = statement_end(src, toks, body)?;
            if first.text(src) == b"if" && keyword(end, b"else") {
                statement_end(src, toks, end + 1)
            } else {
                Some(end)
            }
        }
        b"do" if first.kind == Kind::Ident => {
            let end = statement_end(src, toks, at + 1)?;
            // `while ( … ) ;`
            keyword(end, b"while").then_some(())?;
            let close = matching(src, toks, end + 1)?;
            Some(close + 2)
        }
        _ => {
            let mut depth = 0i32;
            for (k, t) in toks.iter().enumerate().skip(at) {
                match t.text(src) {
                    b"(" | b"{" | b"[" => depth += 1,
                    b")" | b"}" | b"]" => depth -= 1,
                    b";" if depth == 0 => return Some(k + 1),
                    _ => {}
                }
                if depth < 0 {
                    return None;
                }
            }
            None
        }
    }
}

/// The index of the bracket that closes the one at `open` (`(`, `{` or `[`).
fn matching(src: &[u8], toks: &[Span], open: usize) -> Option<usize> {
    let mut depth = 0i32;
    for (k, t) in toks.iter().enumerate().skip(open) {
        match t.text(src) {
            b"(" | b"{" | b"[" => depth += 1,
            b")" | b"}" | b"]" => {
                depth -= 1;
                if depth == 0 {
                    return Some(k);
                }
            }
            _ => {}
        }
    }
    None
}

fn line_of(source: &[u8], at: usize) -> usize {
    1 + source[..at.min(source.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn waits(src: &str) -> Vec<(usize, usize, usize)> {
        let scanned = super::super::scan(src.as_bytes());
        let parties: Vec<Party> = scanned.statements.iter().filter_map(party).collect();
        same_wave_waits(src.as_bytes(), &parties)
            .into_iter()
            .map(|w| (w.wait.line, w.arrive_line, w.if_line))
            .collect()
    }

    const ARRIVE: &str =
        r#"asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(bar) : "memory");"#;
    const WAIT: &str = r#"asm volatile("{ .reg .pred P1; W: mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1; @!P1 bra W; }" :: "r"(bar), "r"(ph) : "memory");"#;

    #[test]
    fn one_lane_arriving_while_the_rest_of_its_warp_waits_is_reported() {
        for cond in [
            "lane == 0",
            "laneid() != 0",
            "threadIdx.x % 32 == 0",
            "(threadIdx.x & 31) == 0",
            "cute::elect_one_sync()",
            "threadIdx.x == 0",
            "lane_predicate",
        ] {
            let src = format!("__device__ void f(unsigned bar, unsigned ph, int lane) {{\n  if ({cond}) {{\n    {ARRIVE}\n  }} else {{\n    {WAIT}\n  }}\n}}\n");
            assert_eq!(waits(&src), [(5, 3, 2)], "{cond}");
        }
        // The wait first, the arrival in the `else`, one statement each without braces.
        let src = format!("__device__ void f(unsigned bar, unsigned ph, int lane) {{\n  if (lane != 0)\n    {WAIT}\n  else\n    {ARRIVE}\n}}\n");
        assert_eq!(waits(&src), [(3, 5, 2)]);
    }

    fn splits(src: &str) -> Vec<(usize, usize, usize)> {
        let scanned = super::super::scan(src.as_bytes());
        let parties: Vec<Party> = scanned.statements.iter().filter_map(party).collect();
        wave64_splits(src.as_bytes(), &parties)
            .into_iter()
            .map(|w| (w.sync.line, w.other_line, w.if_line))
            .collect()
    }

    #[test]
    fn two_warps_of_a_wave64_on_the_two_sides_of_one_counted_barrier_are_reported() {
        let sync = r#"asm volatile("barrier.sync 9, 64;" ::: "memory");"#;
        let arrive = r#"asm volatile("bar.arrive 9, 64;" ::: "memory");"#;
        for cond in [
            "warp == 0",
            "warp_idx != 2",
            "warp < 3",
            "warp_id() >= 1",
            "warp > 0",
            "threadIdx.x < 32",
            "threadIdx.x >= 96",
            "warp % 2",
        ] {
            let src = format!("__global__ void k(int warp, int warp_idx) {{\n  if ({cond}) {{\n    {arrive}\n  }} else {{\n    {sync}\n  }}\n}}\n");
            assert_eq!(splits(&src), [(5, 3, 2)], "{cond}");
        }
        // Whole waves on each side, another barrier id, or a condition on something else.
        for (cond, other) in [
            ("warp < 2", "9"),
            ("threadIdx.x < 64", "9"),
            ("threadIdx.x >= 128", "9"),
            ("warp > 1", "9"),
            ("warp == 0", "8"),
            ("group == 0", "9"),
        ] {
            let arrive = arrive.replace("9,", &format!("{other},"));
            let src = format!("__global__ void k(int warp, int group) {{\n  if ({cond}) {{\n    {arrive}\n  }} else {{\n    {sync}\n  }}\n}}\n");
            assert!(splits(&src).is_empty(), "{cond} / {other}");
        }
    }

    #[test]
    fn roles_of_whole_warps_or_of_other_barriers_are_not_reported() {
        // Warp-specialised code: the roles split whole warps (or warpgroups).
        let src = format!("__device__ void f(unsigned bar, unsigned ph, int warp) {{\n  if (warp == 0) {{\n    {ARRIVE}\n  }} else {{\n    {WAIT}\n  }}\n}}\n");
        assert!(waits(&src).is_empty());
        // The elected lane arrives, then every lane waits after the branches join.
        let src = format!("__device__ void f(unsigned bar, unsigned ph, int lane) {{\n  if (lane == 0) {{\n    {ARRIVE}\n  }}\n  {WAIT}\n}}\n");
        assert!(waits(&src).is_empty());
        // An `else if` chain ends before the wait that follows it.
        let src = format!("__device__ void f(unsigned bar, unsigned ph, int lane, int z) {{\n  if (lane == 0) {{\n    {ARRIVE}\n  }} else if (z) {{\n    z = 1;\n  }}\n  {WAIT}\n}}\n");
        assert!(waits(&src).is_empty());
        // Another barrier.
        let other = ARRIVE.replace("\"r\"(bar)", "\"r\"(other_bar)");
        let src = format!("__device__ void f(unsigned bar, unsigned ph, int lane) {{\n  if (lane == 0) {{\n    {other}\n  }} else {{\n    {WAIT}\n  }}\n}}\n");
        assert!(waits(&src).is_empty());
    }
}
