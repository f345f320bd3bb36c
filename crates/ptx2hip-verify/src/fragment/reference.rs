//! The PTX semantics of the fragment forms, written from the ISA's description (matrices and the
//! fragment layout), independent of the AMD helpers' lane arithmetic.
//!
//! Matrix m of a case is 8 rows of 8 b16 elements; row r lies at the address lane 8m + r gives.
//! In the fragment layout, lane l holds elements (l/4, 2(l%4)) in the low and (l/4, 2(l%4)+1) in
//! the high half of its register m. `.trans` moves the transposed matrix: element (r, c) of the
//! fragment is element (c, r) of the matrix in memory.

use super::{Case, Form, Op, TILE_WORDS, WARP};

/// The matrix element that half `h` of a lane's register holds: (row, column).
fn fragment_element(lane: usize, h: usize) -> (usize, usize) {
    (lane / 4, 2 * (lane % 4) + h)
}

fn element(tile: &[u32; TILE_WORDS], byte: u32) -> u16 {
    let w = tile[byte as usize / 4];
    (w >> (8 * (byte % 4))) as u16
}

fn set_element(tile: &mut [u32; TILE_WORDS], byte: u32, v: u16) {
    let w = &mut tile[byte as usize / 4];
    let s = 8 * (byte % 4);
    *w = (*w & !(0xffff << s)) | (v as u32) << s;
}

/// The byte address of element (r, c) of matrix m as it lies in memory, for the fragment
/// element (r, c) of a form (`.trans`: the memory matrix's (c, r)).
fn address(form: &Form, case: &Case, m: usize, (r, c): (usize, usize)) -> u32 {
    let (r, c) = if form.trans { (c, r) } else { (r, c) };
    case.rows[8 * m + r] + 2 * c as u32
}

/// Every lane's output words (see `super`'s documentation).
pub fn expected(form: &Form, case: &Case) -> Vec<Vec<u32>> {
    match form.op {
        Op::Ld => (0..WARP)
            .map(|lane| {
                (0..form.num)
                    .map(|m| {
                        let half = |h| {
                            element(
                                &case.tile,
                                address(form, case, m, fragment_element(lane, h)),
                            )
                        };
                        half(0) as u32 | (half(1) as u32) << 16
                    })
                    .collect()
            })
            .collect(),
        Op::St => {
            let mut tile = case.tile;
            for lane in 0..WARP {
                for m in 0..form.num {
                    for h in 0..2 {
                        let at = address(form, case, m, fragment_element(lane, h));
                        set_element(&mut tile, at, (case.regs[lane][m] >> (16 * h)) as u16);
                    }
                }
            }
            tile.chunks(TILE_WORDS / WARP)
                .map(<[u32]>::to_vec)
                .collect()
        }
        Op::Mov => {
            // M[r][c] is half c%2 of lane 4r + c/2; d holds Mᵀ in the same layout.
            let m = |r: usize, c: usize| (case.regs[4 * r + c / 2][0] >> (16 * (c % 2))) & 0xffff;
            (0..WARP)
                .map(|lane| {
                    let half = |h| {
                        let (r, c) = fragment_element(lane, h);
                        m(c, r)
                    };
                    vec![half(0) | half(1) << 16]
                })
                .collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{all_forms, generate, Space};
    use super::*;

    fn form(op: Op, num: usize, trans: bool) -> Form {
        Form {
            op,
            num,
            trans,
            space: Space::Shared,
        }
    }

    /// ldmatrix.x4 of a row-major 16x16 tile, lane l addressing row l%16, column block l/16, is
    /// the A fragment of mma.m16n8k16: register i of lane l holds A[g + 8(i&1)][2t + h + 8(i>>1)]
    /// (tensor-cores.md §2.1).
    #[test]
    fn ldmatrix_x4_of_a_tile_is_the_mma_a_fragment() {
        let f = form(Op::Ld, 4, false);
        let mut case = generate(&f)[0].clone();
        // Element (r, c) of the 16x16 tile (32-byte rows) is its index 16r + c.
        for w in 0..TILE_WORDS {
            let e = 2 * w as u32;
            case.tile[w] = e | (e + 1) << 16;
        }
        case.rows = std::array::from_fn(|l| 32 * (l as u32 % 16) + 16 * (l as u32 / 16));
        let d = expected(&f, &case);
        for (l, regs) in d.iter().enumerate() {
            let (g, t) = (l / 4, l % 4);
            for (i, r) in regs.iter().enumerate() {
                for h in 0..2 {
                    let want = 16 * (g + 8 * (i & 1)) + 2 * t + h + 8 * (i >> 1);
                    assert_eq!((r >> (16 * h)) & 0xffff, want as u32, "lane {l} reg {i}");
                }
            }
        }
    }

    /// stmatrix stores what ldmatrix of the same rows loads; .trans twice is the identity;
    /// movmatrix is ldmatrix.trans of what stmatrix stored.
    #[test]
    fn the_forms_are_each_others_inverses() {
        for f in all_forms().into_iter().filter(|f| f.op == Op::St) {
            for case in generate(&f) {
                let stored: Vec<u32> = expected(&f, &case).concat();
                let mut back = case.clone();
                back.tile.copy_from_slice(&stored);
                let loaded = expected(
                    &Form {
                        op: Op::Ld,
                        ..f.clone()
                    },
                    &back,
                );
                for (got, regs) in loaded.iter().zip(&case.regs) {
                    assert_eq!(got, &regs[..f.num], "{}", f.name());
                }
            }
        }
        let mov = form(Op::Mov, 1, true);
        for case in generate(&mov) {
            let once = expected(&mov, &case);
            let mut c2 = case.clone();
            for (regs, d) in c2.regs.iter_mut().zip(&once) {
                regs[0] = d[0];
            }
            let twice = expected(&mov, &c2);
            for (d, regs) in twice.iter().zip(&case.regs) {
                assert_eq!(d[0], regs[0]);
            }
            // stmatrix (rows 16r) then ldmatrix.trans of the same rows.
            let st = form(Op::St, 1, false);
            let mut c3 = case.clone();
            c3.rows = std::array::from_fn(|l| 16 * (l as u32 % 8));
            let stored = expected(&st, &c3).concat();
            c3.tile.copy_from_slice(&stored);
            let ld = expected(&form(Op::Ld, 1, true), &c3);
            for (a, b) in ld.iter().zip(&once) {
                assert_eq!(a[0], b[0]);
            }
        }
    }
}
