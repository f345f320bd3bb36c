//! Which compilations see a piece of code: the value of `#if` conditions when compiling device
//! code for NVIDIA GPUs and when compiling for AMD GPUs.
//!
//! Inline PTX matters only where both hold: NVIDIA device code is where it is PTX, and the AMD
//! compilation is where it breaks. Code that only NVIDIA compiles (`#ifndef __HIP_PLATFORM_AMD__`,
//! ptx2hip's own kept originals) needs no port; code that NVIDIA never compiles (`#ifdef USE_ROCM`,
//! `#ifndef __CUDA_ARCH__` host paths) holds no PTX. Conditions are evaluated three-valued: a
//! macro is defined, undefined, or unknown in each compilation, and a condition is decided only
//! where the known macros decide it.

use std::collections::HashMap;

use super::cuda_arch::{self, CudaArch};
use super::nesting::without_comments;

/// Macros the user declares (`defines`, `amd-defines` and `nvidia-only-macros` of ptx2hip.toml,
/// then `-D`/`-U` on the command line).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Macros {
    /// Defined in every compilation, with an optional value (`-D NAME[=VALUE]`; without a value
    /// it is `1`, as compilers define it).
    pub defines: Vec<(String, Option<String>)>,
    /// Undefined in every compilation (`-U NAME`).
    pub undefines: Vec<String>,
    /// Defined when compiling for AMD and undefined when compiling for NVIDIA (a project's
    /// `GGML_USE_HIP`).
    pub amd_defines: Vec<(String, Option<String>)>,
    /// Defined when compiling for NVIDIA and undefined when compiling for AMD (a project's
    /// `NEW_MMA_AVAILABLE`).
    pub nvidia_defines: Vec<(String, Option<String>)>,
    /// The NVIDIA architecture whose `__CUDA_ARCH__` arms the AMD device compilation follows
    /// (`--cuda-arch`; see [`super::cuda_arch`]); `None`: `__CUDA_ARCH__` stays unknown for AMD.
    pub cuda_arch: Option<CudaArch>,
}

/// What a compilation knows about one macro.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Known {
    /// Defined; the value's text when it is known.
    Defined(Option<String>),
    Undefined,
}

/// The macros known in one compilation; any other macro is unknown.
#[derive(Debug, Clone, Default)]
pub struct Environment {
    known: HashMap<String, Known>,
}

/// Defined by hipcc/clang when compiling HIP for AMD GPUs (and `USE_ROCM`, which the PyTorch
/// ecosystem's ROCm builds define); none of them is defined by nvcc.
const AMD: &[&str] = &[
    "__HIP_PLATFORM_AMD__",
    "__HIP_PLATFORM_HCC__",
    "__HIP__",
    "__HIPCC__",
    "__HIP_DEVICE_COMPILE__",
    "__HIP_ROCclr__",
    "USE_ROCM",
];

/// Defined only when compiling for NVIDIA GPUs (nvcc's own, and HIP's NVIDIA platform macros).
const NVIDIA: &[&str] = &[
    "__NVCC__",
    "__HIP_PLATFORM_NVIDIA__",
    "__HIP_PLATFORM_NVCC__",
];

/// Defined in both compilations: device code is compiled for a 64-bit data model by nvcc and
/// hipcc alike (pointers are `"l"` operands).
const BOTH: &[&str] = &["__LP64__"];

impl Environment {
    /// Device code compiled for NVIDIA GPUs, where inline PTX is PTX.
    pub fn nvidia_device(user: &Macros) -> Self {
        let mut env = Environment::default();
        for name in AMD {
            env.set(name, Known::Undefined);
        }
        // nvcc defines it; clang compiling CUDA does not, but HIP's NVIDIA platform macros are
        // not defined by plain nvcc either: only `__NVCC__` and `__CUDA_ARCH__` are decided.
        env.set("__NVCC__", Known::Defined(Some("1".into())));
        env.set("__CUDACC__", Known::Defined(Some("1".into())));
        env.set("__CUDA_ARCH__", Known::Defined(None));
        env.set(cuda_arch::MACRO, Known::Defined(None));
        env.common();
        env.user(user, &user.nvidia_defines, &user.amd_defines);
        env
    }

    /// Any compilation for AMD GPUs (host or device), where the asm must not remain. Whether
    /// `__CUDA_ARCH__` is defined is left unknown: ports commonly define it, or keep device
    /// paths under it. The conditions ptx2hip rewrites test [`cuda_arch::MACRO`] instead, which
    /// has the chosen architecture's value (see [`Environment::amd_device`]).
    pub fn amd(user: &Macros) -> Self {
        let mut env = Environment::default();
        for name in AMD
            .iter()
            .filter(|n| !matches!(**n, "__HIP_DEVICE_COMPILE__" | "__HIP_ROCclr__"))
        {
            env.set(name, Known::Defined(Some("1".into())));
        }
        for name in NVIDIA {
            env.set(name, Known::Undefined);
        }
        if let Some(arch) = user.cuda_arch {
            env.set(
                cuda_arch::MACRO,
                Known::Defined(Some(arch.value().to_string())),
            );
        }
        env.common();
        env.user(user, &user.amd_defines, &user.nvidia_defines);
        env
    }

    /// The AMD device compilation as it reads the conditions `translate` rewrites for
    /// `--cuda-arch` ([`cuda_arch::ArchChains`]): `__CUDA_ARCH__` has the chosen value there. The
    /// host compilation never reaches an asm statement's arm through them: it sees the macro
    /// undefined, as it sees `__CUDA_ARCH__`, and asm is device code.
    pub fn amd_device(user: &Macros) -> Self {
        let mut env = Environment::amd(user);
        if let Some(arch) = user.cuda_arch {
            env.set(
                "__CUDA_ARCH__",
                Known::Defined(Some(arch.value().to_string())),
            );
            env.set("__HIP_DEVICE_COMPILE__", Known::Defined(Some("1".into())));
            env.user(user, &user.amd_defines, &user.nvidia_defines);
        }
        env
    }

    /// The AMD device compilation of the file as written, where hipcc leaves `__CUDA_ARCH__`
    /// undefined: a condition that has the same value here and in [`Environment::amd_device`]
    /// needs no rewrite.
    pub fn amd_device_as_written(user: &Macros) -> Self {
        let mut env = Environment::amd_device(user);
        env.set("__CUDA_ARCH__", Known::Undefined);
        env.user(user, &user.amd_defines, &user.nvidia_defines);
        env
    }

    fn common(&mut self) {
        for name in BOTH {
            self.set(name, Known::Defined(Some("1".into())));
        }
    }

    fn set(&mut self, name: &str, known: Known) {
        self.known.insert(name.to_string(), known);
    }

    /// Applies the user's declarations: `own` are defined here, `other`'s undefined here.
    fn user(
        &mut self,
        user: &Macros,
        own: &[(String, Option<String>)],
        other: &[(String, Option<String>)],
    ) {
        for (name, value) in user.defines.iter().chain(own) {
            let value = value.clone().unwrap_or_else(|| "1".into());
            self.set(name, Known::Defined(Some(value)));
        }
        for name in other.iter().map(|(n, _)| n).chain(&user.undefines) {
            self.set(name, Known::Undefined);
        }
    }

    /// The value of a conditional directive (`word`: `if`, `elif`, `ifdef`, `ifndef`, `elifdef`,
    /// `elifndef`; `rest`: the text after it): `Some` only when the known macros decide it.
    pub fn condition(&self, word: &[u8], rest: &[u8]) -> Option<bool> {
        let text = without_comments(rest);
        match word {
            b"if" | b"elif" => {
                let tokens = tokens(&text)?;
                let mut parser = Evaluator {
                    env: self,
                    tokens: &tokens,
                    at: 0,
                    depth: 0,
                };
                let value = parser.expression(0)?;
                (parser.at == tokens.len())
                    .then_some(value)?
                    .map(|v| v != 0)
            }
            b"ifdef" | b"elifdef" => self.defined(single_name(&text)?),
            b"ifndef" | b"elifndef" => self.defined(single_name(&text)?).map(|d| !d),
            _ => None,
        }
    }

    fn defined(&self, name: &[u8]) -> Option<bool> {
        match self.known.get(std::str::from_utf8(name).ok()?)? {
            Known::Defined(_) => Some(true),
            Known::Undefined => Some(false),
        }
    }

    /// The integer value of a macro name in a condition (an undefined name is 0).
    fn value(&self, name: &[u8]) -> Option<i128> {
        match self.known.get(std::str::from_utf8(name).ok()?)? {
            Known::Undefined => Some(0),
            Known::Defined(Some(v)) => parse_integer(v.trim().as_bytes()),
            Known::Defined(None) => None,
        }
    }
}

fn single_name(text: &[u8]) -> Option<&[u8]> {
    let name = text.trim_ascii();
    (!name.is_empty() && name.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'_'))
        .then_some(name)
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Token<'a> {
    Name(&'a [u8]),
    /// An integer literal's value; `None` for a literal the evaluator does not read (a float).
    Number(Option<i128>),
    Punct(&'static [u8]),
}

const PUNCT: [&[u8]; 24] = [
    b"||", b"&&", b"==", b"!=", b"<=", b">=", b"<<", b">>", b"(", b")", b"!", b"~", b"+", b"-",
    b"*", b"/", b"%", b"<", b">", b"&", b"|", b"^", b"?", b":",
];

/// The tokens of a condition; `None` for text a condition cannot hold (a string literal).
fn tokens(text: &[u8]) -> Option<Vec<Token<'_>>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < text.len() {
        let b = text[i];
        if b.is_ascii_whitespace() {
            i += 1;
        } else if b.is_ascii_alphanumeric() || b == b'_' {
            let len = text[i..]
                .iter()
                .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'\'' | b'.'))
                .count();
            let word = &text[i..i + len];
            out.push(if b.is_ascii_digit() {
                Token::Number(parse_integer(word))
            } else {
                Token::Name(word)
            });
            i += len;
        } else {
            let p = PUNCT.iter().find(|p| text[i..].starts_with(p))?;
            out.push(Token::Punct(p));
            i += p.len();
        }
    }
    Some(out)
}

/// A C integer literal (decimal, octal, hex, binary; digit separators and suffixes allowed).
fn parse_integer(word: &[u8]) -> Option<i128> {
    let digits: Vec<u8> = word.iter().copied().filter(|b| *b != b'\'').collect();
    let body = digits
        .iter()
        .rposition(|b| !matches!(b, b'u' | b'U' | b'l' | b'L'))
        .map_or(&digits[..0], |p| &digits[..=p]);
    let text = std::str::from_utf8(body).ok()?;
    let (radix, rest) = match text.as_bytes() {
        [b'0', b'x' | b'X', ..] => (16, &text[2..]),
        [b'0', b'b' | b'B', ..] => (2, &text[2..]),
        [b'0', _, ..] => (8, &text[1..]),
        _ => (10, text),
    };
    i128::from_str_radix(rest, radix).ok()
}

/// Three-valued evaluation of a `#if` expression by precedence climbing. The outer `Option` of
/// each method is a syntax error; the inner one the value (`None`: unknown).
struct Evaluator<'e, 't> {
    env: &'e Environment,
    tokens: &'t [Token<'t>],
    at: usize,
    /// Calls of `expression`/`unary` in progress.
    depth: usize,
}

/// Nesting a condition may have (each level of parentheses or of unary operators counts twice);
/// deeper ones are left undecided, so hostile input cannot overflow the stack.
const MAX_CONDITION_DEPTH: usize = 256;

impl<'t> Evaluator<'_, 't> {
    fn peek(&self) -> Option<Token<'t>> {
        self.tokens.get(self.at).copied()
    }

    fn eat(&mut self, punct: &[u8]) -> bool {
        let hit = matches!(self.peek(), Some(Token::Punct(p)) if p == punct);
        self.at += usize::from(hit);
        hit
    }

    /// Runs `f` one level deeper, refusing beyond [`MAX_CONDITION_DEPTH`].
    fn nested(
        &mut self,
        f: impl FnOnce(&mut Self) -> Option<Option<i128>>,
    ) -> Option<Option<i128>> {
        if self.depth >= MAX_CONDITION_DEPTH {
            return None;
        }
        self.depth += 1;
        let value = f(self);
        self.depth -= 1;
        value
    }

    fn expression(&mut self, min: u8) -> Option<Option<i128>> {
        self.nested(|e| e.binary_chain(min))
    }

    fn binary_chain(&mut self, min: u8) -> Option<Option<i128>> {
        let mut left = self.unary()?;
        loop {
            let Some(Token::Punct(op)) = self.peek() else {
                return Some(left);
            };
            let precedence = match op {
                b"?" => 1,
                b"||" => 2,
                b"&&" => 3,
                b"|" => 4,
                b"^" => 5,
                b"&" => 6,
                b"==" | b"!=" => 7,
                b"<" | b">" | b"<=" | b">=" => 8,
                b"<<" | b">>" => 9,
                b"+" | b"-" => 10,
                b"*" | b"/" | b"%" => 11,
                _ => return Some(left),
            };
            if precedence <= min {
                return Some(left);
            }
            self.at += 1;
            if op == b"?" {
                let then = self.expression(0)?;
                if !self.eat(b":") {
                    return None;
                }
                let otherwise = self.expression(0)?;
                left = match left {
                    Some(c) if c != 0 => then,
                    Some(_) => otherwise,
                    None if then == otherwise => then,
                    None => None,
                };
                continue;
            }
            let right = self.expression(precedence)?;
            left = binary(op, left, right);
        }
    }

    fn unary(&mut self) -> Option<Option<i128>> {
        self.nested(Self::operand)
    }

    fn operand(&mut self) -> Option<Option<i128>> {
        match self.peek()? {
            Token::Punct(b"!") => {
                self.at += 1;
                Some(self.unary()?.map(|v| i128::from(v == 0)))
            }
            Token::Punct(b"-") => {
                self.at += 1;
                Some(self.unary()?.and_then(i128::checked_neg))
            }
            Token::Punct(b"+") => {
                self.at += 1;
                self.unary()
            }
            Token::Punct(b"~") => {
                self.at += 1;
                Some(self.unary()?.map(|v| !v))
            }
            Token::Punct(b"(") => {
                self.at += 1;
                let value = self.expression(0)?;
                self.eat(b")").then_some(value)
            }
            Token::Name(b"defined") => {
                self.at += 1;
                let parenthesized = self.eat(b"(");
                let Some(Token::Name(name)) = self.peek() else {
                    return None;
                };
                self.at += 1;
                if parenthesized && !self.eat(b")") {
                    return None;
                }
                Some(self.env.defined(name).map(i128::from))
            }
            Token::Name(name) => {
                self.at += 1;
                // A function-like macro (`__has_include(<x>)`, `CUDA_VERSION_AT_LEAST(12)`).
                if self.peek() == Some(Token::Punct(b"(")) {
                    let mut depth = 0;
                    while let Some(t) = self.peek() {
                        self.at += 1;
                        match t {
                            Token::Punct(b"(") => depth += 1,
                            Token::Punct(b")") if depth == 1 => return Some(None),
                            Token::Punct(b")") => depth -= 1,
                            _ => {}
                        }
                    }
                    return None;
                }
                Some(self.env.value(name))
            }
            Token::Number(value) => {
                self.at += 1;
                Some(value)
            }
            Token::Punct(_) => None,
        }
    }
}

fn binary(op: &[u8], left: Option<i128>, right: Option<i128>) -> Option<i128> {
    let truth = |v: Option<i128>| v.map(|v| v != 0);
    match op {
        b"||" => match (truth(left), truth(right)) {
            (Some(true), _) | (_, Some(true)) => Some(1),
            (Some(false), Some(false)) => Some(0),
            _ => None,
        },
        b"&&" => match (truth(left), truth(right)) {
            (Some(false), _) | (_, Some(false)) => Some(0),
            (Some(true), Some(true)) => Some(1),
            _ => None,
        },
        _ => {
            let (l, r) = (left?, right?);
            match op {
                b"|" => Some(l | r),
                b"^" => Some(l ^ r),
                b"&" => Some(l & r),
                b"==" => Some(i128::from(l == r)),
                b"!=" => Some(i128::from(l != r)),
                b"<" => Some(i128::from(l < r)),
                b">" => Some(i128::from(l > r)),
                b"<=" => Some(i128::from(l <= r)),
                b">=" => Some(i128::from(l >= r)),
                b"<<" => l.checked_shl(u32::try_from(r).ok()?),
                b">>" => l.checked_shr(u32::try_from(r).ok()?),
                b"+" => l.checked_add(r),
                b"-" => l.checked_sub(r),
                b"*" => l.checked_mul(r),
                b"/" => l.checked_div(r),
                b"%" => l.checked_rem(r),
                _ => None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn on(env: &Environment, condition: &str) -> Option<bool> {
        env.condition(b"if", condition.as_bytes())
    }

    #[test]
    fn amd_macros_decide_the_amd_compilation() {
        let amd = Environment::amd(&Macros::default());
        assert_eq!(on(&amd, "defined(__HIP_PLATFORM_AMD__)"), Some(true));
        assert_eq!(on(&amd, "!defined(__HIPCC__)"), Some(false));
        assert_eq!(on(&amd, "USE_ROCM"), Some(true));
        assert_eq!(on(&amd, "defined(__NVCC__)"), Some(false));
        assert_eq!(on(&amd, "defined(__CUDA_ARCH__)"), None);
        assert_eq!(
            on(&amd, "__CUDA_ARCH__ >= 800 && !defined(USE_ROCM)"),
            Some(false)
        );
        assert_eq!(
            on(&amd, "defined(__CUDA_ARCH__) || defined(__HIP__)"),
            Some(true)
        );
        assert_eq!(amd.condition(b"ifndef", b" __HIP__ // x"), Some(false));
        assert_eq!(amd.condition(b"ifdef", b"MY_HEADER_H"), None);
    }

    #[test]
    fn nvidia_device_code_has_cuda_arch_and_no_amd_macros() {
        let nv = Environment::nvidia_device(&Macros::default());
        assert_eq!(on(&nv, "defined(__CUDA_ARCH__)"), Some(true));
        assert_eq!(on(&nv, "!defined(__CUDA_ARCH__)"), Some(false));
        assert_eq!(on(&nv, "__CUDA_ARCH__ >= 800"), None);
        assert_eq!(on(&nv, "defined(__HIP_DEVICE_COMPILE__)"), Some(false));
        assert_eq!(
            on(&nv, "defined(USE_ROCM) || defined(__HIPCC__)"),
            Some(false)
        );
        assert_eq!(nv.condition(b"ifdef", b"__NVCC__"), Some(true));
        assert_eq!(nv.condition(b"ifdef", b"__HIP_PLATFORM_NVIDIA__"), None);
    }

    #[test]
    fn the_chosen_architecture_decides_amd_device_code_only() {
        let user = Macros {
            cuda_arch: Some(CudaArch::parse("80").unwrap()),
            ..Macros::default()
        };
        let (amd, device, written) = (
            Environment::amd(&user),
            Environment::amd_device(&user),
            Environment::amd_device_as_written(&user),
        );
        let nv = Environment::nvidia_device(&user);
        // Rewritten conditions: the value for AMD, whatever nvcc compiles for NVIDIA.
        assert_eq!(on(&amd, "PTX2HIP_CUDA_ARCH >= 800"), Some(true));
        assert_eq!(on(&amd, "PTX2HIP_CUDA_ARCH >= 900"), Some(false));
        assert_eq!(on(&nv, "PTX2HIP_CUDA_ARCH >= 800"), None);
        assert_eq!(nv.condition(b"ifdef", b"PTX2HIP_CUDA_ARCH"), Some(true));
        // `__CUDA_ARCH__` itself: unknown for AMD as a whole, the chosen value in device code
        // once rewritten, undefined in device code as written.
        assert_eq!(on(&amd, "defined(__CUDA_ARCH__)"), None);
        assert_eq!(
            on(&device, "__CUDA_ARCH__ >= 800 && __CUDA_ARCH__ < 900"),
            Some(true)
        );
        assert_eq!(device.condition(b"ifndef", b"__CUDA_ARCH__"), Some(false));
        assert_eq!(on(&written, "__CUDA_ARCH__ < 700"), Some(true));
        assert_eq!(on(&written, "defined(__HIP_DEVICE_COMPILE__)"), Some(true));
        // A user's own definition wins.
        let pinned = Macros {
            defines: vec![("__CUDA_ARCH__".into(), Some("750".into()))],
            ..user
        };
        assert_eq!(
            on(&Environment::amd_device(&pinned), "__CUDA_ARCH__ == 750"),
            Some(true)
        );
        assert_eq!(
            on(
                &Environment::amd_device_as_written(&pinned),
                "__CUDA_ARCH__ == 750"
            ),
            Some(true)
        );
        // Without an architecture nothing changes.
        let none = Environment::amd_device(&Macros::default());
        assert_eq!(on(&none, "__CUDA_ARCH__ >= 800"), None);
    }

    #[test]
    fn user_macros_are_defined_or_undefined_per_compilation() {
        let user = Macros {
            defines: vec![("GGML_CUDA_CC".into(), Some("700".into()))],
            undefines: vec!["FOO".into()],
            amd_defines: vec![("GGML_USE_HIP".into(), None)],
            nvidia_defines: vec![("NEW_MMA_AVAILABLE".into(), None)],
            cuda_arch: None,
        };
        let (nv, amd) = (Environment::nvidia_device(&user), Environment::amd(&user));
        assert_eq!(on(&amd, "defined(GGML_USE_HIP)"), Some(true));
        assert_eq!(on(&nv, "defined(GGML_USE_HIP)"), Some(false));
        assert_eq!(amd.condition(b"ifdef", b"NEW_MMA_AVAILABLE"), Some(false));
        assert_eq!(nv.condition(b"ifdef", b"NEW_MMA_AVAILABLE"), Some(true));
        assert_eq!(on(&nv, "GGML_CUDA_CC >= 0x2BC && !FOO"), Some(true));
    }

    #[test]
    fn arithmetic_and_short_circuits_are_exact() {
        let env = Environment::default();
        assert_eq!(on(&env, "(1 << 4) == 16 && 10 % 3 == 1"), Some(true));
        assert_eq!(on(&env, "0 && UNKNOWN"), Some(false));
        assert_eq!(on(&env, "UNKNOWN || 1"), Some(true));
        assert_eq!(on(&env, "1 ? 0 : UNKNOWN"), Some(false));
        assert_eq!(
            on(&env, "0x10 > 0b1 && 010 == 8 && 1'000u == 1000"),
            Some(true)
        );
        assert_eq!(on(&env, "__has_include(<cuda.h>)"), None);
        assert_eq!(on(&env, "A /* c */ || 1 // tail"), Some(true));
    }

    #[test]
    fn malformed_or_hostile_conditions_are_undecided() {
        let env = Environment::default();
        for bad in [
            "",
            "defined(",
            "(1",
            "1 +",
            "'a'",
            "\"s\"",
            "defined()",
            "1 / 0",
        ] {
            assert_eq!(on(&env, bad), None, "{bad}");
        }
        let deep = "(".repeat(100_000) + "1" + &")".repeat(100_000);
        assert_eq!(on(&env, &deep), None);
        let deep_not = "!".repeat(100_000) + "1";
        assert_eq!(on(&env, &deep_not), None);
        assert_eq!(on(&env, &"0 ? 1 : ".repeat(100_000)), None);
    }

    #[test]
    fn conditions_nested_below_the_limit_are_still_decided() {
        let amd = Environment::amd(&Macros::default());
        let deep = |n: usize| format!("{}defined(__HIP__){}", "(".repeat(n), ")".repeat(n));
        assert_eq!(on(&amd, &deep(100)), Some(true));
        assert_eq!(on(&amd, &deep(100_000)), None);
    }
}
