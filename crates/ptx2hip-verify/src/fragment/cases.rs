//! Warp cases of the fragment forms: every lane's row address, registers and the tile.
//!
//! Row addresses come from structured patterns (the identity, its reverse, every lane the same
//! row, two lanes per row, the mma.m16n8k16 A-tile walk, an XOR swizzle, strides), from one
//! pattern per address lane in which that lane alone points elsewhere (so every lane's address is
//! seen to reach exactly the lanes that need it), and from random choices of the tile's 64 rows.
//! `stmatrix` gets only patterns whose used rows are distinct (overlapping rows receive an
//! unspecified one of the values written). Lanes beyond the address lanes of the form (x1: 8,
//! x2: 16) get random rows: the instruction must ignore them.

use super::{Form, Op, ROW_BYTES, TILE_BYTES, TILE_WORDS, WARP};
use crate::inputs::Rng;

/// Rows of the tile.
const ROWS: u32 = (TILE_BYTES / ROW_BYTES) as u32;
/// Random address patterns per form.
const RANDOM_PATTERNS: usize = 16;

/// One warp's inputs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    /// Each lane's row address: a byte offset into the tile, a multiple of 16.
    pub rows: [u32; WARP],
    /// Each lane's registers (`stmatrix` sources, `movmatrix`'s a; unused by `ldmatrix`).
    pub regs: [[u32; 4]; WARP],
    /// The tile before the instruction.
    pub tile: [u32; TILE_WORDS],
}

impl Case {
    /// Input words: rows, registers (4 per lane), tile; what the GPU program and the simulator
    /// read.
    pub fn words(&self) -> Vec<u32> {
        let mut w = self.rows.to_vec();
        w.extend(self.regs.iter().flatten());
        w.extend(self.tile);
        w
    }
}

/// Input words of one case.
pub const CASE_WORDS: usize = WARP + 4 * WARP + TILE_WORDS;

fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

/// Row indices (0..64) per lane of the structured patterns; `distinct`: only those whose 32
/// rows are all different.
fn structured(distinct: bool) -> Vec<[u32; WARP]> {
    let lanes = |f: &dyn Fn(u32) -> u32| std::array::from_fn(|i| f(i as u32));
    let mut v: Vec<[u32; WARP]> = vec![
        lanes(&|i| i),
        lanes(&|i| 63 - i),
        // lane i: row i % 16 of a 16x16 b16 tile with 32-byte rows, column block i / 16.
        lanes(&|i| 2 * (i % 16) + i / 16),
        // an XOR swizzle of 8-row groups, as swizzled shared-memory layouts write them.
        lanes(&|i| 8 * (i / 8) + ((i % 8) ^ (i / 8))),
        lanes(&|i| 2 * i + 1),
        lanes(&|i| (5 * i + 3) % 64),
    ];
    if !distinct {
        v.push(lanes(&|_| 7));
        v.push(lanes(&|i| i / 2));
        v.push(lanes(&|i| 60 - i % 8));
    }
    v
}

/// The cases of a form, reproducible from its name.
pub fn generate(form: &Form) -> Vec<Case> {
    let mut rng = Rng::new(fnv(&form.name()));
    let distinct = form.op == Op::St;
    let used = form.address_lanes();
    let mut patterns: Vec<[u32; WARP]> = Vec::new();
    if form.op != Op::Mov {
        patterns.extend(structured(distinct));
        for j in 0..used {
            let mut p: [u32; WARP] = std::array::from_fn(|i| i as u32);
            p[j] = 32 + j as u32;
            patterns.push(p);
        }
        for _ in 0..RANDOM_PATTERNS {
            let mut p = [0u32; WARP];
            if distinct {
                let mut all: Vec<u32> = (0..ROWS).collect();
                for (i, slot) in p.iter_mut().enumerate() {
                    let k = i + rng.below((all.len() - i) as u64) as usize;
                    all.swap(i, k);
                    *slot = all[i];
                }
            } else {
                for slot in p.iter_mut() {
                    *slot = rng.below(ROWS as u64) as u32;
                }
            }
            patterns.push(p);
        }
    } else {
        patterns.extend((0..RANDOM_PATTERNS).map(|_| [0u32; WARP]));
    }
    patterns
        .into_iter()
        .enumerate()
        .map(|(k, p)| {
            let mut rows = [0u32; WARP];
            for (lane, r) in rows.iter_mut().enumerate() {
                let row = if lane < used {
                    p[lane]
                } else {
                    rng.below(ROWS as u64) as u32
                };
                *r = row * ROW_BYTES as u32;
            }
            // Case 0 holds readable values: each b16 element its own index.
            let tile = std::array::from_fn(|w| {
                if k == 0 {
                    (2 * w as u32) | (2 * w as u32 + 1) << 16
                } else {
                    rng.next_u64() as u32
                }
            });
            let regs = std::array::from_fn(|lane| {
                std::array::from_fn(|m| {
                    if k == 0 {
                        let e = (64 * m + 2 * lane) as u32;
                        e | (e + 1) << 16
                    } else {
                        rng.next_u64() as u32
                    }
                })
            });
            Case { rows, regs, tile }
        })
        .collect()
}

/// FNV-1a-64 of every input word of every case: a recording made from other inputs is stale.
pub fn inputs_digest(cases: &[Case]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for c in cases {
        for w in c.words() {
            for b in w.to_le_bytes() {
                h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
            }
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::super::all_forms;
    use super::*;

    #[test]
    fn stmatrix_rows_are_distinct_and_every_row_is_in_the_tile() {
        for form in all_forms() {
            let cases = generate(&form);
            assert_eq!(cases, generate(&form), "{}: not reproducible", form.name());
            for c in &cases {
                assert!(c
                    .rows
                    .iter()
                    .all(|r| r % 16 == 0 && (*r as usize) < TILE_BYTES));
                if form.op == Op::St {
                    let mut used = c.rows[..form.address_lanes()].to_vec();
                    used.sort_unstable();
                    used.dedup();
                    assert_eq!(used.len(), form.address_lanes(), "{}", form.name());
                }
            }
        }
    }

    #[test]
    fn every_address_lane_has_a_pattern_of_its_own() {
        let form = &all_forms()[0];
        let cases = generate(form);
        for j in 0..form.address_lanes() {
            assert!(cases.iter().any(|c| (0..WARP)
                .filter(|&i| i < form.address_lanes())
                .all(|i| (c.rows[i] == 16 * i as u32) == (i != j))));
        }
    }
}
