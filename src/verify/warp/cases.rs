//! Warp-structured cases: which lanes run the statement, how the others left, and every lane's
//! register inputs, generated reproducibly from the form name.
//!
//! Every form gets the same skeleton: lane sets (all 32, halves, odd and even lanes, the first
//! lanes of a partial warp, single lanes, random sets) crossed with how the other lanes are
//! inactive (they exited, as in a partial last warp or after a `return`, or they only branched
//! around the statement) and with value patterns that matter for the instruction (all equal, one
//! lane different, few distinct values, random, extremes). Membermasks are the lanes that run the
//! statement, or two groups of them each naming its own group (logical sub-warps); once lanes
//! have exited, a membermask may also name them (`0xffffffff` in a partial warp). A membermask
//! never names a lane that is alive but does not run the statement: the GPU would wait for it.
//! Register-operand shuffles also sweep every clamp/segment value of `c` (1,024 cases).

use super::forms::{Mode, Op, Role, WarpForm};
use super::WARP;
use crate::verify::inputs::Rng;

/// One warp's worth of inputs.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    /// Lanes that execute the statement.
    pub active: u32,
    /// The other lanes exited before it (`true`) or branched around it (`false`).
    pub exited: bool,
    /// For each input of the form (its `inputs` order), each lane's value (64-bit values whole,
    /// 32-bit values in the low bits). Inactive lanes hold values too; they are never read.
    pub values: Vec<[u64; WARP]>,
}

impl Case {
    /// The 32-bit words of the case as the GPU program reads them: `active, exited`, then per
    /// lane the input words (a 64-bit value low word first).
    pub fn words(&self, form: &WarpForm) -> Vec<u32> {
        let mut w = vec![self.active, u32::from(self.exited)];
        for lane in 0..WARP {
            for (role, vals) in form.inputs.iter().zip(&self.values) {
                w.push(vals[lane] as u32);
                if role.words() == 2 {
                    w.push((vals[lane] >> 32) as u32);
                }
            }
        }
        w
    }
}

fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

/// Lane sets: the whole warp, halves, interleaved lanes, partial warps, single lanes.
const ACTIVE_SETS: [u32; 14] = [
    0xffff_ffff,
    0x0000_ffff,
    0xffff_0000,
    0x5555_5555,
    0xaaaa_aaaa,
    0x8000_0001,
    0x0000_0001,
    0x8000_0000,
    0x7fff_ffff,
    0x0000_001f,
    0x0001_ffff,
    0x0ff0_0ff0,
    0xffff_fffe,
    0x0000_0100,
];

/// How the membermask of each lane is chosen.
#[derive(Debug, Clone, Copy)]
enum Members {
    /// The lanes running the statement (plus, once others exited, some exited lanes).
    Active,
    /// Every lane, allowed only when the other lanes exited.
    Full,
    /// Two groups, each lane naming its own group.
    Groups,
}

fn members(active: u32, exited: bool, how: Members, rng: &mut Rng) -> [u32; WARP] {
    let extra = if exited {
        (rng.next_u64() as u32) & !active
    } else {
        0
    };
    match how {
        Members::Active => [active | extra; WARP],
        Members::Full if exited => [u32::MAX; WARP],
        Members::Full => [active; WARP],
        Members::Groups => {
            // Contiguous split at a random lane, or alternate active lanes.
            let interleave = rng.below(2) == 0;
            let split = rng.below(32) as u32;
            let mut g = [0u32; 2];
            let mut which = [0usize; WARP];
            let mut k = 0;
            for (lane, w) in which.iter_mut().enumerate() {
                if (active >> lane) & 1 == 1 {
                    *w = if interleave {
                        k % 2
                    } else {
                        usize::from(lane as u32 >= split)
                    };
                    g[*w] |= 1 << lane;
                    k += 1;
                }
            }
            let mut out = [0u32; WARP];
            for lane in 0..WARP {
                out[lane] = g[which[lane]] | extra;
            }
            out
        }
    }
}

/// Value patterns of the `a` operand.
fn values32(pattern: usize, rng: &mut Rng) -> [u64; WARP] {
    let mut v = [0u64; WARP];
    match pattern % 6 {
        0 => {
            let x = rng.next_u64() as u32;
            v.iter_mut().for_each(|e| *e = x as u64);
        }
        1 => {
            let x = rng.next_u64() as u32;
            v.iter_mut().for_each(|e| *e = x as u64);
            v[rng.below(32) as usize] = (x ^ (1 << rng.below(32))) as u64;
        }
        2 => {
            let set = [rng.next_u64() as u32, rng.next_u64() as u32, 7];
            v.iter_mut()
                .for_each(|e| *e = set[rng.below(3) as usize] as u64);
        }
        3 => {
            let edges = [0u32, 1, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff, 0x8000_0001];
            v.iter_mut()
                .for_each(|e| *e = edges[rng.below(edges.len() as u64) as usize] as u64);
        }
        4 => v.iter_mut().for_each(|e| *e = rng.below(16)),
        _ => v.iter_mut().for_each(|e| *e = rng.next_u64() as u32 as u64),
    }
    v
}

/// 64-bit values: the 32-bit patterns in both words, and pairs equal in one word only.
fn values64(pattern: usize, rng: &mut Rng) -> [u64; WARP] {
    let lo = values32(pattern, rng);
    let hi = values32(pattern / 6 + pattern, rng);
    let mut v = [0u64; WARP];
    for lane in 0..WARP {
        v[lane] = match pattern % 3 {
            // Equal low words: lanes differ only in the high word.
            0 => (hi[lane] << 32) | lo[0],
            1 => (lo[0] << 32) | lo[lane],
            _ => (hi[lane] << 32) | lo[lane],
        };
    }
    v
}

fn predicates(pattern: usize, active: u32, rng: &mut Rng) -> [u64; WARP] {
    let lanes: Vec<usize> = (0..WARP).filter(|l| (active >> l) & 1 == 1).collect();
    let pick = lanes[rng.below(lanes.len() as u64) as usize];
    let truthy = |rng: &mut Rng| (rng.next_u64() as u32 | 1) as u64;
    let mut v = [0u64; WARP];
    for (lane, e) in v.iter_mut().enumerate() {
        let on = match pattern % 6 {
            0 => false,
            1 => true,
            2 => lane == pick,
            3 => lane != pick,
            4 => lane % 2 == 0,
            _ => rng.below(2) == 0,
        };
        *e = if on { truthy(rng) } else { 0 };
    }
    v
}

/// `c` values library code and the pitfalls use: full warp, up with 0, CUB segments of 16/8/4/2,
/// clamps below 31, garbage in the ignored bits.
const C_VALUES: [u32; 10] = [
    0x1f,
    0x0,
    0x101f,
    0x181f,
    0x1c1f,
    0x1e1f,
    0x1f1f,
    0x0f,
    0x1800,
    0xffff_e0ff,
];

fn shfl_bc(role: Role, case: usize, rng: &mut Rng) -> [u64; WARP] {
    let mut v = [0u64; WARP];
    match role {
        Role::B => match case % 3 {
            0 => {
                let k = rng.below(40);
                v.iter_mut().for_each(|e| *e = k);
            }
            1 => v.iter_mut().for_each(|e| *e = rng.below(64)),
            _ => v.iter_mut().for_each(|e| *e = rng.next_u64() as u32 as u64),
        },
        _ => {
            if case % 4 == 3 {
                v.iter_mut().for_each(|e| *e = rng.next_u64() as u32 as u64);
            } else {
                let c = C_VALUES[rng.below(C_VALUES.len() as u64) as usize];
                v.iter_mut().for_each(|e| *e = c as u64);
            }
        }
    }
    v
}

/// The membermask fixed by an immediate, if the form has one.
fn immediate_members(op: &Op) -> Option<u32> {
    match op {
        Op::Shfl { m, .. }
        | Op::Vote { m, .. }
        | Op::MatchAny { m, .. }
        | Op::Redux { m, .. }
        | Op::Elect { m, .. } => *m,
        _ => None,
    }
}

fn sweeps_c(op: &Op) -> bool {
    matches!(
        op,
        Op::Shfl {
            b: None,
            c: None,
            pred: true,
            sync: true,
            ..
        }
    )
}

/// The cases of a form, reproducibly (seeded by the form name).
pub fn generate(form: &WarpForm) -> Vec<Case> {
    let mut rng = Rng::new(fnv(&form.name));
    let mut cases = Vec::new();
    let fixed_m = immediate_members(&form.op);
    let patterns = if form.inputs.is_empty() { 1 } else { 6 };
    let styles = [Members::Active, Members::Full, Members::Groups];
    let mut k = 0usize;
    for (i, &set) in ACTIVE_SETS.iter().enumerate() {
        for exited in [true, false] {
            for pattern in 0..patterns {
                k += 1;
                let mut active = set;
                if i % 5 == 4 && pattern % 2 == 1 {
                    active = (rng.next_u64() as u32) | 1 << rng.below(32);
                }
                if let Some(m) = fixed_m {
                    // Every executing lane must be in m; a lane of m that is alive must execute.
                    active &= m;
                    if active == 0 {
                        active = m & m.wrapping_neg();
                    }
                    if !exited && active != m {
                        continue;
                    }
                }
                let how = styles[k % styles.len()];
                let m_lanes = match fixed_m {
                    Some(m) => [m; WARP],
                    None => members(active, exited, how, &mut rng),
                };
                let values = form
                    .inputs
                    .iter()
                    .map(|&role| match role {
                        Role::A32 => values32(pattern + k, &mut rng),
                        Role::A64 => values64(pattern + k, &mut rng),
                        Role::B | Role::C => shfl_bc(role, k, &mut rng),
                        Role::M => m_lanes.map(u64::from),
                        Role::P => predicates(pattern, active, &mut rng),
                    })
                    .collect();
                cases.push(Case {
                    active,
                    exited,
                    values,
                });
            }
        }
    }
    if sweeps_c(&form.op) {
        for combo in 0..1024u32 {
            let garbage = if combo % 2 == 1 {
                (rng.next_u64() as u32) & !0x1f1f
            } else {
                0
            };
            let c = ((combo >> 5) << 8) | (combo & 31) | garbage;
            let values = form
                .inputs
                .iter()
                .map(|&role| {
                    let mut v = [0u64; WARP];
                    for (lane, e) in v.iter_mut().enumerate() {
                        *e = match role {
                            Role::A32 => rng.next_u64() as u32 as u64,
                            Role::B => {
                                let b = (lane as u64 * 7 + combo as u64) % 32;
                                if (lane + combo as usize) % 5 == 0 {
                                    b | (rng.next_u64() as u32 as u64 & !31)
                                } else {
                                    b
                                }
                            }
                            Role::C => c as u64,
                            _ => u32::MAX as u64,
                        };
                    }
                    v
                })
                .collect();
            cases.push(Case {
                active: u32::MAX,
                exited: true,
                values,
            });
        }
    }
    cases
}

/// FNV-1a-64 of every input word of every case: a recording made from other inputs is stale.
pub fn inputs_digest(form: &WarpForm, cases: &[Case]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for c in cases {
        for w in c.words(form) {
            for b in w.to_le_bytes() {
                h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
            }
        }
    }
    h
}

/// Which shuffle mode a form uses, for readers of the cases.
pub fn shfl_mode(op: &Op) -> Option<Mode> {
    match op {
        Op::Shfl { mode, .. } => Some(*mode),
        Op::Shfl64 => Some(Mode::Idx),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::forms::all_forms;
    use super::*;

    #[test]
    fn cases_are_reproducible_and_respect_membermask_rules() {
        for form in all_forms() {
            let cases = generate(&form);
            assert_eq!(cases, generate(&form), "{}", form.name);
            assert!(cases.len() >= 12, "{}: {} cases", form.name, cases.len());
            let Some(m_at) = form.inputs.iter().position(|r| *r == Role::M) else {
                continue;
            };
            for c in &cases {
                assert_ne!(c.active, 0, "{}", form.name);
                for lane in 0..WARP {
                    if (c.active >> lane) & 1 == 0 {
                        continue;
                    }
                    let m = c.values[m_at][lane] as u32;
                    assert_eq!(
                        (m >> lane) & 1,
                        1,
                        "{}: lane {lane} not in its mask",
                        form.name
                    );
                    if !c.exited {
                        assert_eq!(m & !c.active, 0, "{}: waits for a live lane", form.name);
                    }
                }
            }
        }
    }

    #[test]
    fn register_shuffles_sweep_every_clamp_and_segment() {
        let form = all_forms()
            .into_iter()
            .find(|f| f.name == "shfl.sync.bfly.b32 d|p")
            .unwrap();
        let cases = generate(&form);
        let mut seen = std::collections::HashSet::new();
        for c in &cases {
            let cv = c.values[2][0] as u32;
            seen.insert((cv & 31, (cv >> 8) & 31));
        }
        assert_eq!(seen.len(), 1024);
    }
}
