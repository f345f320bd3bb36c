//! The NVIDIA architecture whose `__CUDA_ARCH__` arms the AMD device compilation follows.
//!
//! nvcc defines `__CUDA_ARCH__` in device code (`900` for sm_90); a HIP compilation for AMD never
//! does. Code such as `#if __CUDA_ARCH__ >= 800` new PTX `#else` old PTX or a stub `#endif` would
//! then compile its `#else` arm for AMD, whatever ptx2hip translated in the first. The porting
//! engineer chooses an architecture (`--cuda-arch`, default sm_90, where the golden vectors are
//! recorded), and `translate` makes the AMD device compilation see it: the conditional chains that
//! test `__CUDA_ARCH__` and hold asm or `#define`s (the arms the port depends on) test
//! [`MACRO`] instead, which a generated definition sets to `__CUDA_ARCH__` where nvcc defines it
//! and to the chosen value in the AMD device compilation. The host compilations see it undefined,
//! as they see `__CUDA_ARCH__`, so `#ifdef __CUDA_ARCH__` device / `#else` host splits stay right.
//! Other conditions keep `__CUDA_ARCH__`, which the scanner leaves unknown for AMD.

use std::fmt;
use std::ops::Range;

use super::nesting::{Directive, Keyword};

/// The macro that stands for `__CUDA_ARCH__` in the conditions ptx2hip rewrites.
pub const MACRO: &str = "PTX2HIP_CUDA_ARCH";

const CUDA_ARCH: &[u8] = b"__CUDA_ARCH__";

/// An NVIDIA architecture, as its `sm_` number (`90` for sm_90).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CudaArch(u32);

impl CudaArch {
    /// sm_90 (the H100), the architecture the golden vectors are recorded on.
    pub const DEFAULT: CudaArch = CudaArch(90);

    /// Reads `90` or `sm_90` (also `compute_90`, and the `a`/`f` feature suffixes of `sm_90a`,
    /// which do not change `__CUDA_ARCH__`). `900`, the value of `__CUDA_ARCH__` itself, is refused
    /// with a hint, so that no value means two architectures.
    pub fn parse(text: &str) -> Result<CudaArch, String> {
        let t = text.trim();
        let digits = t
            .strip_prefix("sm_")
            .or_else(|| t.strip_prefix("compute_"))
            .unwrap_or(t);
        let digits = digits.strip_suffix(['a', 'f']).unwrap_or(digits);
        let bad = || {
            format!(
                "`{text}` is not an NVIDIA architecture: write its sm number, e.g. `90` or `sm_90` (for `__CUDA_ARCH__` = 900)"
            )
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let sm: u32 = digits.parse().map_err(|_| bad())?;
        match sm {
            10..=199 => Ok(CudaArch(sm)),
            200..=1990 if sm.is_multiple_of(10) => Err(format!(
                "`{text}`: write the sm number, not the value of `__CUDA_ARCH__`: `--cuda-arch {}` (sm_{}) defines `__CUDA_ARCH__` = {sm}",
                sm / 10,
                sm / 10
            )),
            _ => Err(bad()),
        }
    }

    /// The value nvcc gives `__CUDA_ARCH__` for it (`900` for sm_90).
    pub fn value(self) -> u32 {
        self.0 * 10
    }
}

impl fmt::Display for CudaArch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "sm_{}", self.0)
    }
}

/// The conditional chains of a file that the AMD device compilation decides by the chosen
/// architecture: those whose `#if`/`#elif`/`#ifdef`/`#ifndef` lines test `__CUDA_ARCH__` (or
/// [`MACRO`], once rewritten) and that hold, at any depth, an asm keyword or a `#define`/`#undef`
/// (other than the generated definition's): the asm to port and the macros that select it. Their
/// `__CUDA_ARCH__` tokens are rewritten unless every condition of the chain has the same value for
/// AMD device code with and without the architecture (`#if __CUDA_ARCH__ < 700` for sm_60,
/// `defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)`): the file as written already
/// does what the architecture asks there.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ArchChains {
    /// Per directive of the survey: whether it is a condition of such a chain.
    pub decided: Vec<bool>,
    /// The `__CUDA_ARCH__` tokens of those conditions, in file order: what `translate` rewrites.
    pub tokens: Vec<Range<usize>>,
    /// Offsets of the `#` of the conditions holding such tokens, in file order.
    pub conditions: Vec<usize>,
}

/// A chain being read.
struct Chain {
    /// Its condition directives (indices into the survey).
    conditions: Vec<usize>,
    tests_arch: bool,
    /// A condition tests [`MACRO`] (a chain rewritten by an earlier run), or the architecture
    /// changes the value of one.
    matters: bool,
    holds: bool,
}

/// Finds the [`ArchChains`] of `src` from its survey. `differs(word, rest)`: whether the AMD
/// device compilation may take a condition differently once it sees the chosen architecture.
pub fn arch_chains(
    src: &[u8],
    directives: &[Directive],
    keywords: &[Keyword],
    differs: &dyn Fn(&[u8], &[u8]) -> bool,
) -> ArchChains {
    let mut out = ArchChains {
        decided: vec![false; directives.len()],
        ..ArchChains::default()
    };
    let mut open: Vec<Chain> = Vec::new();
    let mut rewritten = Vec::new();
    let mut keywords = keywords.iter().map(|k| k.at).peekable();
    for (i, d) in directives.iter().enumerate() {
        if keywords.next_if(|&at| at < d.span.start).is_some() {
            while keywords.next_if(|&at| at < d.span.start).is_some() {}
            if let Some(chain) = open.last_mut() {
                chain.holds = true;
            }
        }
        let rest = &src[d.rest.clone()];
        let word = d.word(src);
        let matters =
            || !tokens(rest, 0..rest.len(), MACRO.as_bytes()).is_empty() || differs(word, rest);
        match word {
            b"if" | b"ifdef" | b"ifndef" => open.push(Chain {
                conditions: vec![i],
                tests_arch: tests_arch(rest),
                matters: tests_arch(rest) && matters(),
                holds: false,
            }),
            b"elif" | b"elifdef" | b"elifndef" => {
                if let Some(chain) = open.last_mut() {
                    chain.conditions.push(i);
                    chain.tests_arch |= tests_arch(rest);
                    chain.matters |= tests_arch(rest) && matters();
                }
            }
            b"define" | b"undef" if !defines_macro(rest) => {
                if let Some(chain) = open.last_mut() {
                    chain.holds = true;
                }
            }
            b"endif" => {
                let Some(chain) = open.pop() else { continue };
                if let Some(outer) = open.last_mut() {
                    outer.holds |= chain.holds;
                }
                if chain.tests_arch && chain.holds {
                    for &c in &chain.conditions {
                        out.decided[c] = true;
                    }
                    if chain.matters {
                        rewritten.extend(chain.conditions);
                    }
                }
            }
            _ => {}
        }
    }
    rewritten.sort_unstable();
    for d in rewritten.into_iter().map(|i| &directives[i]) {
        let found = tokens(src, d.rest.clone(), CUDA_ARCH);
        if !found.is_empty() {
            out.conditions.push(d.span.start);
        }
        out.tokens.extend(found);
    }
    out
}

fn tests_arch(rest: &[u8]) -> bool {
    !tokens(rest, 0..rest.len(), CUDA_ARCH).is_empty()
        || !tokens(rest, 0..rest.len(), MACRO.as_bytes()).is_empty()
}

/// A `#define`/`#undef` of [`MACRO`]: the generated definition, not a macro the port depends on.
fn defines_macro(rest: &[u8]) -> bool {
    let name = rest.trim_ascii_start();
    name.starts_with(MACRO.as_bytes())
        && !name
            .get(MACRO.len())
            .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
}

/// `directive` with its `__CUDA_ARCH__` tokens renamed to [`MACRO`]; `None` without any. For
/// the `#if`s inside a statement, which `translate` copies around the translations of its arms.
pub fn renamed(directive: &str) -> Option<String> {
    let found = tokens(directive.as_bytes(), 0..directive.len(), CUDA_ARCH);
    if found.is_empty() {
        return None;
    }
    let mut out = String::with_capacity(directive.len() + 8);
    let mut at = 0;
    for t in found {
        out.push_str(&directive[at..t.start]);
        out.push_str(MACRO);
        at = t.end;
    }
    out.push_str(&directive[at..]);
    Some(out)
}

/// The occurrences of the identifier `name` in `src[range]` outside comments (a `\`-newline
/// inside the identifier hides it: such a spelling is left alone).
fn tokens(src: &[u8], range: Range<usize>, name: &[u8]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut i = range.start;
    let end = range.end;
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    while i < end {
        match &src[i..end] {
            [b'/', b'*', ..] => {
                i = memchr::memmem::find(&src[i + 2..end], b"*/").map_or(end, |p| i + p + 4);
            }
            [b'/', b'/', ..] => break,
            [b, ..] if word(*b) => {
                let len = src[i..end].iter().take_while(|b| word(**b)).count();
                if &src[i..i + len] == name {
                    out.push(i..i + len);
                }
                i += len;
            }
            _ => i += 1,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::nesting::survey;
    use super::*;

    /// The chains of `src`, where a condition is taken differently with the architecture unless
    /// it mentions `__HIP_DEVICE_COMPILE__`.
    fn chains(src: &str) -> ArchChains {
        let s = survey(src.as_bytes());
        let differs = |_: &[u8], rest: &[u8]| !rest.windows(8).any(|w| w == b"__HIP_DE");
        arch_chains(src.as_bytes(), &s.directives, &s.keywords, &differs)
    }

    fn rewritten(src: &str) -> Vec<&str> {
        let chains = chains(src);
        chains
            .conditions
            .iter()
            .map(|&at| src[at..].lines().next().unwrap())
            .collect()
    }

    #[test]
    fn architectures_are_written_as_their_sm_number() {
        for (text, value) in [
            ("90", 900),
            ("sm_90", 900),
            ("sm_90a", 900),
            ("compute_80", 800),
        ] {
            assert_eq!(
                CudaArch::parse(text).map(CudaArch::value),
                Ok(value),
                "{text}"
            );
        }
        assert_eq!(CudaArch::parse("sm_100").unwrap().to_string(), "sm_100");
        let hint = CudaArch::parse("900").unwrap_err();
        assert!(hint.contains("--cuda-arch 90"), "{hint}");
        for bad in ["", "sm_", "x86", "9.0", "-90", "5"] {
            assert!(CudaArch::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn chains_that_test_the_architecture_around_asm_or_defines_are_decided() {
        let src = "\
#if __CUDA_ARCH__ >= 800 // sm_80: cp.async
  asm(\"cp.async;\");
#elif defined(__CUDA_ARCH__) /* older */
  asm(\"ld;\");
#else
  host();
#endif
#ifdef __CUDA_ARCH__
  device_only();
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define HAS_SM90 1
#endif
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define DEVICE 1
#endif
#if OTHER
#  ifndef __CUDA_ARCH__
#    if X
  asm(\"x;\");
#    endif
#  endif
#endif
";
        assert_eq!(
            rewritten(src),
            [
                "#if __CUDA_ARCH__ >= 800 // sm_80: cp.async",
                "#elif defined(__CUDA_ARCH__) /* older */",
                "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900",
                "#  ifndef __CUDA_ARCH__",
            ]
        );
    }

    #[test]
    fn chains_the_architecture_does_not_change_are_decided_but_kept() {
        let src =
            "#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)\nasm(\"a;\");\n#endif\n";
        let chains = chains(src);
        assert_eq!(chains.decided, [true, false]);
        assert!(chains.tokens.is_empty());
    }

    #[test]
    fn directives_inside_statements_are_renamed_token_by_token() {
        assert_eq!(
            renamed("#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800 // __CUDA_ARCH__")
                .as_deref(),
            Some("#elif defined(PTX2HIP_CUDA_ARCH) && PTX2HIP_CUDA_ARCH >= 800 // __CUDA_ARCH__")
        );
        assert_eq!(renamed("#if MY__CUDA_ARCH__X"), None);
    }

    #[test]
    fn only_tokens_in_code_are_taken() {
        let src = "#if __CUDA_ARCH__ /* __CUDA_ARCH__ */ > 700 || X__CUDA_ARCH__ // __CUDA_ARCH__\nasm(\"a;\");\n#endif\n";
        assert_eq!(chains(src).tokens, [4..17]);
    }

    #[test]
    fn the_generated_definition_is_not_a_chain_to_decide() {
        let src = "\
#ifndef PTX2HIP_CUDA_ARCH
#if defined(__CUDA_ARCH__)
#define PTX2HIP_CUDA_ARCH __CUDA_ARCH__
#elif defined(__HIP_DEVICE_COMPILE__)
#define PTX2HIP_CUDA_ARCH 900
#endif
#endif
#if PTX2HIP_CUDA_ARCH >= 800
asm(\"a;\");
#endif
";
        let chains = chains(src);
        assert!(chains.tokens.is_empty());
        assert_eq!(
            chains.decided.iter().filter(|d| **d).count(),
            1,
            "only the chain around asm"
        );
    }

    #[test]
    fn unbalanced_directives_do_not_panic() {
        assert!(
            rewritten("#endif\n#elif __CUDA_ARCH__\n#if __CUDA_ARCH__\nasm(\"a;\");\n").is_empty()
        );
    }
}
