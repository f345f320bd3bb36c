//! The PTX semantics of the warp forms, written out from the PTX ISA (shfl.sync, vote.sync,
//! activemask, match.sync, redux.sync, elect.sync, %laneid, %lanemask_*).
//!
//! It decides which outputs are *defined*: PTX leaves a shuffle undefined when the source lane
//! does not execute it or is outside the reading lane's membermask, and inactive lanes have no
//! outputs. The recording is checked against this model on every defined output (so the model is
//! the H100's behaviour wherever PTX defines one), and the simulator is compared on those
//! outputs only.

use super::cases::Case;
use super::forms::{LaneReg, Mode, Op, Out, Redux, Role, Vote, WarpForm};
use super::WARP;

/// Outputs of one case: per lane, the output words (as the GPU program stores them) and which of
/// them PTX defines.
#[derive(Debug, Clone, PartialEq)]
pub struct Expected {
    pub words: Vec<Vec<u32>>,
    pub defined: Vec<Vec<bool>>,
}

fn input(form: &WarpForm, case: &Case, role: Role) -> Option<[u64; WARP]> {
    form.inputs
        .iter()
        .position(|r| *r == role)
        .map(|i| case.values[i])
}

/// The source lane of a shuffle and whether it is in range (the PTX pseudo-code).
pub fn shfl_source(mode: Mode, lane: u32, b: u32, c: u32) -> (u32, bool) {
    let bval = b & 31;
    let clamp = c & 31;
    let seg = (c >> 8) & 31;
    let max_lane = (lane & seg) | (clamp & !seg);
    let min_lane = lane & seg;
    let (j, ok) = match mode {
        Mode::Up => {
            let j = lane as i32 - bval as i32;
            (j, j >= max_lane as i32)
        }
        Mode::Down => {
            let j = (lane + bval) as i32;
            (j, j <= max_lane as i32)
        }
        Mode::Bfly => {
            let j = (lane ^ bval) as i32;
            (j, j <= max_lane as i32)
        }
        Mode::Idx => {
            let j = (min_lane | (bval & !seg)) as i32;
            (j, j <= max_lane as i32)
        }
    };
    if ok {
        (j as u32, true)
    } else {
        (lane, false)
    }
}

fn reduce(op: Redux, signed: bool, vals: impl Iterator<Item = u32>) -> u32 {
    let mut acc: Option<u32> = None;
    for v in vals {
        acc = Some(match acc {
            None => v,
            Some(a) => match op {
                Redux::Add => a.wrapping_add(v),
                Redux::And => a & v,
                Redux::Or => a | v,
                Redux::Xor => a ^ v,
                Redux::Min if signed => (a as i32).min(v as i32) as u32,
                Redux::Max if signed => (a as i32).max(v as i32) as u32,
                Redux::Min => a.min(v),
                Redux::Max => a.max(v),
            },
        });
    }
    acc.unwrap_or(0)
}

fn lanes_of(mask: u32) -> impl Iterator<Item = usize> {
    (0..WARP).filter(move |l| (mask >> l) & 1 == 1)
}

/// What PTX says each active lane gets.
pub fn expected(form: &WarpForm, case: &Case) -> Expected {
    let mut words = vec![Vec::new(); WARP];
    let mut defined = vec![Vec::new(); WARP];
    let a = input(form, case, Role::A32).or_else(|| input(form, case, Role::A64));
    let members = |lane: usize| -> u32 {
        match input(form, case, Role::M) {
            Some(m) => m[lane] as u32 & case.active,
            None => match &form.op {
                Op::Shfl { m: Some(m), .. }
                | Op::Vote { m: Some(m), .. }
                | Op::MatchAny { m: Some(m), .. }
                | Op::Redux { m: Some(m), .. }
                | Op::Elect { m: Some(m), .. } => m & case.active,
                _ => case.active,
            },
        }
    };
    for lane in lanes_of(case.active) {
        let s = members(lane);
        let l = lane as u32;
        // (value, defined) per output, in the form's output order.
        let mut outs: Vec<(u64, bool)> = Vec::new();
        match &form.op {
            Op::Shfl {
                mode, b, c, pred, ..
            } => {
                let bv = b.unwrap_or_else(|| input(form, case, Role::B).unwrap()[lane] as u32);
                let cv = c.unwrap_or_else(|| input(form, case, Role::C).unwrap()[lane] as u32);
                let (j, ok) = shfl_source(*mode, l, bv, cv);
                let a = a.unwrap();
                outs.push((a[j as usize] & 0xffff_ffff, (s >> j) & 1 == 1));
                if *pred {
                    outs.push((u64::from(ok), true));
                }
            }
            Op::Shfl64 => {
                let b = input(form, case, Role::B).unwrap()[lane] as u32;
                let (j, _) = shfl_source(Mode::Idx, l, b, 0x1f);
                outs.push((a.unwrap()[j as usize], (s >> j) & 1 == 1));
            }
            Op::Vote { mode, negate, .. } => {
                let p = input(form, case, Role::P).unwrap();
                let yes: u32 = lanes_of(s)
                    .filter(|&y| (p[y] != 0) != *negate)
                    .fold(0, |m, y| m | 1 << y);
                let v = match mode {
                    Vote::Any => u32::from(yes != 0),
                    Vote::All => u32::from(yes == s),
                    Vote::Uni => u32::from(yes == 0 || yes == s),
                    Vote::Ballot => yes,
                };
                outs.push((v as u64, true));
            }
            Op::Activemask => outs.push((case.active as u64, true)),
            Op::MatchAny { .. } => {
                let a = a.unwrap();
                let same = lanes_of(s)
                    .filter(|&y| a[y] == a[lane])
                    .fold(0u32, |m, y| m | 1 << y);
                outs.push((same as u64, true));
            }
            Op::MatchAll { d, pred, .. } => {
                let a = a.unwrap();
                let all = lanes_of(s).all(|y| a[y] == a[lane]);
                if *d {
                    outs.push((if all { s as u64 } else { 0 }, true));
                }
                if *pred {
                    outs.push((u64::from(all), true));
                }
            }
            Op::Redux { op, signed, .. } => {
                let a = a.unwrap();
                let v = reduce(*op, *signed, lanes_of(s).map(|y| a[y] as u32));
                outs.push((v as u64, true));
            }
            Op::Elect { d, .. } => {
                let leader = s.trailing_zeros();
                if *d {
                    outs.push((leader as u64, true));
                }
                outs.push((u64::from(leader == l), true));
            }
            Op::Lane(reg) => {
                let v: u32 = match reg {
                    LaneReg::LaneId => l,
                    LaneReg::Eq => 1 << l,
                    LaneReg::Lt => (1u32 << l) - 1,
                    LaneReg::Le => ((2u64 << l) - 1) as u32,
                    LaneReg::Gt => ((u32::MAX as u64) << (l + 1)) as u32,
                    LaneReg::Ge => u32::MAX << l,
                };
                outs.push((v as u64, true));
            }
        }
        for ((v, def), kind) in outs.into_iter().zip(&form.outputs) {
            words[lane].push(v as u32);
            defined[lane].push(def);
            if *kind == Out::D64 {
                words[lane].push((v >> 32) as u32);
                defined[lane].push(def);
            }
        }
    }
    Expected { words, defined }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_lanes_follow_the_ptx_pseudo_code() {
        // down by 1, full warp: lane 31 keeps its own value.
        assert_eq!(shfl_source(Mode::Down, 5, 1, 0x1f), (6, true));
        assert_eq!(shfl_source(Mode::Down, 31, 1, 0x1f), (31, false));
        // up with c = 0: lanes below b keep their value.
        assert_eq!(shfl_source(Mode::Up, 0, 1, 0), (0, false));
        assert_eq!(shfl_source(Mode::Up, 3, 1, 0), (2, true));
        // b is read modulo 32.
        assert_eq!(shfl_source(Mode::Idx, 9, 33, 0x1f), (1, true));
        // bfly in 8-lane segments with an xor of 8 reaches down into the previous segment.
        assert_eq!(shfl_source(Mode::Bfly, 9, 8, 0x181f), (1, true));
        assert_eq!(shfl_source(Mode::Bfly, 1, 8, 0x181f), (1, false));
        // idx in 8-lane segments reads lane 3 of the lane's own segment.
        assert_eq!(shfl_source(Mode::Idx, 13, 3, 0x181f), (11, true));
    }
}
