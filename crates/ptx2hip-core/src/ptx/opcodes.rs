//! The root opcodes of PTX instructions (PTX ISA 8.x/9.x), for telling PTX from other assembly.

/// Every PTX instruction's root opcode (the word before the first `.`), sorted.
const ROOTS: &[&str] = &[
    "abs",
    "activemask",
    "add",
    "addc",
    "alloca",
    "and",
    "applypriority",
    "atom",
    "bar",
    "barrier",
    "bfe",
    "bfi",
    "bfind",
    "bmsk",
    "bra",
    "brev",
    "brkpt",
    "brx",
    "call",
    "clusterlaunchcontrol",
    "clz",
    "cnot",
    "copysign",
    "cos",
    "cp",
    "createpolicy",
    "cvt",
    "cvta",
    "discard",
    "div",
    "dp2a",
    "dp4a",
    "elect",
    "ex2",
    "exit",
    "fence",
    "fma",
    "fns",
    "getctarank",
    "griddepcontrol",
    "isspacep",
    "istypep",
    "ld",
    "ldmatrix",
    "ldu",
    "lg2",
    "lop3",
    "mad",
    "mad24",
    "madc",
    "mapa",
    "match",
    "max",
    "mbarrier",
    "membar",
    "min",
    "mma",
    "mov",
    "movmatrix",
    "mul",
    "mul24",
    "multimem",
    "nanosleep",
    "neg",
    "not",
    "or",
    "pmevent",
    "popc",
    "prefetch",
    "prefetchu",
    "prmt",
    "rcp",
    "red",
    "redux",
    "rem",
    "ret",
    "rsqrt",
    "sad",
    "selp",
    "set",
    "setmaxnreg",
    "setp",
    "shf",
    "shfl",
    "shl",
    "shr",
    "sin",
    "slct",
    "sqrt",
    "st",
    "stackrestore",
    "stacksave",
    "stmatrix",
    "sub",
    "subc",
    "suld",
    "suq",
    "sured",
    "sust",
    "szext",
    "tanh",
    "tcgen05",
    "tensormap",
    "testp",
    "tex",
    "tld4",
    "trap",
    "txq",
    "vabsdiff",
    "vabsdiff2",
    "vabsdiff4",
    "vadd",
    "vadd2",
    "vadd4",
    "vavrg2",
    "vavrg4",
    "vmad",
    "vmax",
    "vmax2",
    "vmax4",
    "vmin",
    "vmin2",
    "vmin4",
    "vote",
    "vset",
    "vset2",
    "vset4",
    "vshl",
    "vshr",
    "vsub",
    "vsub2",
    "vsub4",
    "wgmma",
    "wmma",
    "xor",
];

/// Whether `root` is the root opcode of a PTX instruction.
pub fn is_root(root: &str) -> bool {
    ROOTS.binary_search(&root).is_ok()
}

/// PTX instructions that are written without any modifier (`bra L;`, `trap;`, `ret;`); every
/// other PTX instruction carries at least a type or an operation modifier.
pub fn stands_alone(root: &str) -> bool {
    matches!(
        root,
        "bra" | "brx" | "call" | "ret" | "exit" | "trap" | "brkpt" | "pmevent" | "nanosleep"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sorted_and_knows_new_instructions() {
        assert!(ROOTS.windows(2).all(|w| w[0] < w[1]));
        for root in [
            "wgmma", "tcgen05", "ldmatrix", "fence", "mma", "elect", "add",
        ] {
            assert!(is_root(root), "{root}");
        }
        for other in ["rdtsc", "s_waitcnt", "yield", "llvm", "v_mov_b32"] {
            assert!(!is_root(other), "{other}");
        }
    }
}
