//! Which kernels of a file reach a statement: the functions the file defines, the `__global__`
//! ones among them, and who names whom.
//!
//! A counted barrier (`bar.sync id, count`) is emulated with state in shared memory that must be
//! zeroed at the entry of every kernel that can execute it (rules/sync.toml, S030-S033), so its
//! translation needs every such kernel, and none may be missed. The reading is therefore
//! approximate in the safe direction only: every mention of a function's name inside another
//! function's body counts as a call (over-approximating the callers costs an initialisation, never
//! a missed one), and whatever could make a function callable from elsewhere — external linkage, a
//! header that other files include, a mention outside any function body (a pointer in a table), a
//! definition this reading does not recognise — is a reason to refuse, returned as a message.
//!
//! Preprocessor directive lines (and so `#define` bodies) are not read; both arms of an `#if` are,
//! and braces that do not balance that way make the whole file unreadable for this purpose.

use std::collections::HashMap;
use std::ops::Range;

use super::tokens::{self, Kind, Span};

/// A function the file defines.
#[derive(Debug, Clone)]
struct Function {
    name: String,
    /// From the body's `{` through its `}`.
    body: Range<usize>,
    /// Declared `__global__`.
    kernel: bool,
    /// Cannot be named from another translation unit: `static` at namespace scope, or inside an
    /// anonymous namespace.
    internal: bool,
    /// The body already starts with the given entry call (a translation of an earlier run).
    entry_called: bool,
}

/// Where a kernel's body starts, to put a statement at its entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelEntry {
    pub name: String,
    /// Offset of the body's opening brace.
    pub brace: usize,
    /// The body already starts with the entry call.
    pub called: bool,
}

/// The functions of one file and the functions that name each of them.
#[derive(Debug, Default)]
pub struct Functions {
    functions: Vec<Function>,
    /// Per function name: the functions whose bodies mention it (indices), and the offset of
    /// the first mention that is not a call or a declaration (`&f`, `{f}`, `g<f>`): a pointer
    /// that any code may call.
    callers: HashMap<String, (Vec<usize>, Option<usize>)>,
    /// Why the file's functions cannot be told apart.
    unreadable: Option<String>,
    /// The file is a header: other files include its functions.
    header: bool,
}

/// File extensions of headers, whose functions the files that include them may call.
const HEADER_EXTENSIONS: &[&str] = &["h", "hh", "hpp", "hxx", "cuh", "inl", "inc", "ipp", "tcc"];

/// Identifiers that can precede `(` without naming a function being defined.
const NOT_A_NAME: &[&[u8]] = &[
    b"if",
    b"for",
    b"while",
    b"switch",
    b"catch",
    b"sizeof",
    b"alignof",
    b"decltype",
    b"alignas",
    b"__attribute__",
    b"__launch_bounds__",
    b"__declspec",
    b"return",
    b"operator",
];

impl Functions {
    /// Reads the functions of `source`; `path` tells whether it is a header. `entry_call` is the
    /// statement an entry edit inserts (without its `;`), recognised where a body already starts
    /// with it.
    pub fn of(source: &[u8], path: Option<&std::path::Path>, entry_call: &str) -> Functions {
        let header = path
            .and_then(|p| p.extension())
            .and_then(|e| e.to_str())
            .is_some_and(|e| HEADER_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()));
        let toks = code_tokens(source);
        let mut out = Functions {
            header,
            ..Functions::default()
        };
        // Open braces: the function being defined (if the brace opens its body), and whether
        // `static` there means internal linkage (namespace scope) and whether an anonymous
        // namespace encloses it.
        let mut stack: Vec<Scope> = Vec::new();
        // Index of the first token of the current declaration at the current scope.
        let mut decl_start = 0;
        let mut mentions: Vec<(usize, Option<usize>)> = Vec::new();
        for (i, t) in toks.iter().enumerate() {
            let in_function = stack.iter().rev().find_map(|s| s.function);
            match t.text(source) {
                b"{" => {
                    let scope = if in_function.is_some() {
                        Scope::inner(in_function)
                    } else {
                        let anonymous = stack.iter().any(|s| s.anonymous);
                        let namespace = stack.iter().all(|s| s.namespace);
                        classify(
                            source,
                            &toks,
                            decl_start,
                            i,
                            anonymous,
                            namespace,
                            &mut out.functions,
                        )
                    };
                    stack.push(Scope {
                        open: i,
                        at: t.at,
                        ..scope
                    });
                    decl_start = i + 1;
                }
                b"}" => {
                    let Some(scope) = stack.pop() else {
                        out.unreadable = Some(unbalanced(source, t.at));
                        return out;
                    };
                    if let (Some(f), true) = (scope.function, scope.opens_body) {
                        out.functions[f].body.end = t.at + 1;
                        out.functions[f].entry_called =
                            starts_with_call(source, &toks[scope.open + 1..i], entry_call);
                    }
                    decl_start = i + 1;
                }
                b";" => decl_start = i + 1,
                _ if t.kind == Kind::Ident => mentions.push((i, in_function)),
                _ => {}
            }
        }
        if let Some(open) = stack.last() {
            out.unreadable = Some(unbalanced(source, open.at));
            return out;
        }
        for f in &out.functions {
            out.callers.entry(f.name.clone()).or_default();
        }
        for (i, function) in mentions {
            let name = String::from_utf8_lossy(toks[i].text(source));
            if let Some(entry) = out.callers.get_mut(name.as_ref()) {
                if let Some(f) = function {
                    entry.0.push(f);
                }
                let called = toks
                    .get(i + 1)
                    .is_some_and(|t| t.kind == Kind::LParen || t.text(source) == b"<");
                if !called && entry.1.is_none() {
                    entry.1 = Some(toks[i].at);
                }
            }
        }
        out
    }

    /// The kernels of the file that reach the statement at `at` (its own kernel, or the kernels
    /// that call the function holding it, through functions of the file), or why they cannot all
    /// be known.
    pub fn reaching(&self, source: &[u8], at: usize) -> Result<Vec<KernelEntry>, String> {
        if let Some(why) = &self.unreadable {
            return Err(why.clone());
        }
        let Some(start) = self.functions.iter().position(|f| f.body.contains(&at)) else {
            return Err("it is not inside the body of a function this file defines (a macro body, or a definition ptx2hip does not read), so the kernels that execute it are unknown".into());
        };
        let mut seen = vec![false; self.functions.len()];
        let mut work = vec![start];
        let mut kernels = Vec::new();
        seen[start] = true;
        while let Some(f) = work.pop() {
            let function = &self.functions[f];
            if function.kernel {
                kernels.push(KernelEntry {
                    name: function.name.clone(),
                    brace: function.body.start,
                    called: function.entry_called,
                });
                continue;
            }
            let name = &function.name;
            if self.header {
                return Err(format!("it is in `{name}`, a function of a header: the kernels of every file that includes it may call it"));
            }
            if !function.internal {
                return Err(format!("it is in `{name}`, which has external linkage: kernels of other files may call it"));
            }
            let (callers, pointer) = &self.callers[name];
            if let Some(p) = pointer {
                return Err(format!("it is in `{name}`, whose address is taken (line {}), so kernels may reach it through a pointer", line_of(source, *p)));
            }
            for &c in callers {
                if !seen[c] {
                    seen[c] = true;
                    work.push(c);
                }
            }
        }
        if kernels.is_empty() {
            return Err(format!(
                "it is in `{}`, which no kernel of this file calls",
                self.functions[start].name
            ));
        }
        kernels.sort_by_key(|k| k.brace);
        Ok(kernels)
    }
}

/// What an open brace opened.
#[derive(Debug, Clone, Copy)]
struct Scope {
    /// Offset of the brace.
    at: usize,
    /// Its token index.
    open: usize,
    /// The function whose body this brace is in (or opens).
    function: Option<usize>,
    /// The brace opens that function's body.
    opens_body: bool,
    /// A namespace (or `extern "C"` block): `static` inside means internal linkage.
    namespace: bool,
    anonymous: bool,
}

impl Scope {
    fn inner(function: Option<usize>) -> Scope {
        Scope {
            at: 0,
            open: 0,
            function,
            opens_body: false,
            namespace: false,
            anonymous: false,
        }
    }
}

/// Classifies the brace `toks[brace]` outside function bodies, given the declaration it ends
/// (`toks[decl_start..brace]`): a namespace, a linkage block, a function body (recorded in
/// `functions`), or anything else (a class, an initialiser, an enum).
fn classify(
    source: &[u8],
    toks: &[Span],
    decl_start: usize,
    brace: usize,
    in_anonymous: bool,
    at_namespace_scope: bool,
    functions: &mut Vec<Function>,
) -> Scope {
    let decl = &toks[decl_start.min(brace)..brace];
    let at = toks[brace].at;
    let other = Scope {
        at,
        ..Scope::inner(None)
    };
    let words = |w: &[u8]| {
        decl.iter()
            .any(|t| t.kind == Kind::Ident && t.text(source) == w)
    };
    if words(b"namespace") {
        let anonymous = decl.last().is_some_and(|t| t.text(source) == b"namespace");
        return Scope {
            namespace: true,
            anonymous,
            ..other
        };
    }
    if matches!(decl, [e, s] if e.text(source) == b"extern" && s.kind == Kind::Str) {
        return Scope {
            namespace: true,
            ..other
        };
    }
    let Some(name) = function_name(source, decl) else {
        return other;
    };
    functions.push(Function {
        name: String::from_utf8_lossy(decl[name].text(source)).into_owned(),
        body: at..at,
        kernel: decl[..name].iter().any(|t| t.text(source) == b"__global__"),
        internal: in_anonymous
            || (at_namespace_scope && decl[..name].iter().any(|t| t.text(source) == b"static")),
        entry_called: false,
    });
    Scope {
        function: Some(functions.len() - 1),
        opens_body: true,
        ..other
    }
}

/// The index in `decl` of the name of the function whose body follows `decl`: `name ( ... )`
/// then only qualifiers (`const`, `noexcept`, `&`).
fn function_name(source: &[u8], decl: &[Span]) -> Option<usize> {
    let mut end = decl.len();
    while end > 0
        && (matches!(
            decl[end - 1].text(source),
            b"const" | b"volatile" | b"noexcept" | b"override" | b"final" | b"&" | b"mutable"
        ))
    {
        end -= 1;
    }
    if end == 0 || decl[end - 1].kind != Kind::RParen {
        return None;
    }
    let mut depth = 0usize;
    let mut k = end;
    while k > 0 {
        k -= 1;
        match decl[k].kind {
            Kind::RParen => depth += 1,
            Kind::LParen => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            _ => {}
        }
    }
    if depth != 0 || k == 0 {
        return None;
    }
    let name = &decl[k - 1];
    (name.kind == Kind::Ident && !NOT_A_NAME.contains(&name.text(source))).then_some(k - 1)
}

/// Whether a body (its tokens inside the braces) starts with `call();`.
fn starts_with_call(source: &[u8], body: &[Span], call: &str) -> bool {
    let want: [&[u8]; 4] = [call.as_bytes(), b"(", b")", b";"];
    body.len() >= 4 && body.iter().zip(want).all(|(t, w)| t.text(source) == w)
}

/// The file's tokens outside preprocessor directive lines (a `#` first on its line, through its
/// `\` continuations).
fn code_tokens(source: &[u8]) -> Vec<Span> {
    let toks = tokens::spans(source, 0..source.len(), &[]);
    let mut out = Vec::with_capacity(toks.len());
    let mut directive_end = 0;
    for t in toks {
        if t.at < directive_end {
            continue;
        }
        if t.kind == Kind::Hash && first_on_line(source, t.at) {
            directive_end = directive_line_end(source, t.at);
            continue;
        }
        out.push(t);
    }
    out
}

fn first_on_line(source: &[u8], at: usize) -> bool {
    source[..at]
        .iter()
        .rev()
        .take_while(|&&b| b != b'\n')
        .all(|b| matches!(b, b' ' | b'\t' | b'\r'))
}

/// The end of the directive line starting at `at`, with its `\` continuations.
fn directive_line_end(source: &[u8], at: usize) -> usize {
    let mut i = at;
    loop {
        let end = memchr::memchr(b'\n', &source[i..]).map_or(source.len(), |p| i + p);
        let line = source[i..end]
            .strip_suffix(b"\r")
            .unwrap_or(&source[i..end]);
        if !line.ends_with(b"\\") || end == source.len() {
            return end;
        }
        i = end + 1;
    }
}

fn line_of(source: &[u8], at: usize) -> usize {
    1 + memchr::memchr_iter(b'\n', &source[..at.min(source.len())]).count()
}

fn unbalanced(source: &[u8], at: usize) -> String {
    format!("the braces of this file do not balance when both arms of its `#if`s are read (line {}), so the kernels that reach it cannot be told", line_of(source, at))
}

#[cfg(test)]
mod tests {
    use super::*;

    const CALL: &str = "ptx2hip_named_bar_init";

    fn reach(src: &str, path: &str) -> Result<Vec<String>, String> {
        let at = src.find("asm").expect("the test source has a statement");
        let f = Functions::of(src.as_bytes(), Some(std::path::Path::new(path)), CALL);
        f.reaching(src.as_bytes(), at)
            .map(|ks| ks.into_iter().map(|k| k.name).collect())
    }

    #[test]
    fn a_statement_in_a_kernel_is_reached_by_that_kernel_only() {
        let src = "__global__ void __launch_bounds__(256) a(int* p) { if (p) { asm(\"x\"); } }\n__global__ void b() {}\n";
        assert_eq!(reach(src, "k.cu"), Ok(vec!["a".to_string()]));
    }

    #[test]
    fn a_static_callee_is_reached_by_every_kernel_that_names_it_transitively() {
        let src = "namespace n {\nstatic __device__ void leaf() { asm(\"x\"); }\nstatic __device__ void mid() { leaf(); }\ntemplate <int N> __global__ void k1() { mid(); }\n__global__ void k2() { leaf(); }\n__global__ void k3() {}\n}\n";
        assert_eq!(
            reach(src, "k.cu"),
            Ok(vec!["k1".to_string(), "k2".to_string()])
        );
    }

    #[test]
    fn functions_in_an_anonymous_namespace_are_internal() {
        let src = "namespace {\n__device__ void leaf() { asm(\"x\"); }\n}\n__global__ void k() { leaf(); }\n";
        assert_eq!(reach(src, "k.cu"), Ok(vec!["k".to_string()]));
    }

    #[test]
    fn a_callee_other_files_may_call_is_refused_with_the_reason() {
        let external = "__device__ void sync_named(int id) { asm(\"x\"); }\n__global__ void k() { sync_named(1); }\n";
        assert!(reach(external, "k.cu")
            .unwrap_err()
            .contains("`sync_named`, which has external linkage"));
        let in_class = "struct B { static __device__ void sync() { asm(\"x\"); } };\n__global__ void k() { B::sync(); }\n";
        assert!(reach(in_class, "k.cu")
            .unwrap_err()
            .contains("external linkage"));
        let header =
            "static __device__ void leaf() { asm(\"x\"); }\n__global__ void k() { leaf(); }\n";
        assert!(reach(header, "k.cuh")
            .unwrap_err()
            .contains("a function of a header"));
        assert_eq!(reach(header, "k.cu"), Ok(vec!["k".to_string()]));
    }

    #[test]
    fn a_callee_named_outside_a_body_or_by_no_kernel_is_refused() {
        let pointer = "static __device__ void leaf() { asm(\"x\"); }\n__device__ void (*table[])() = {leaf};\n__global__ void k() { table[0](); }\n";
        assert!(reach(pointer, "k.cu")
            .unwrap_err()
            .contains("whose address is taken (line 2)"));
        let uncalled = "static __device__ void leaf() { asm(\"x\"); }\n__global__ void k() {}\n";
        assert!(reach(uncalled, "k.cu")
            .unwrap_err()
            .contains("no kernel of this file calls"));
    }

    #[test]
    fn macro_bodies_and_unbalanced_arms_are_refused() {
        let in_macro = "#define K __global__ void k() { asm(\"x\"); }\nK\n";
        assert!(reach(in_macro, "k.cu")
            .unwrap_err()
            .contains("not inside the body"));
        let arms = "#if A\n__global__ void k1() {\n#else\n__global__ void k2() {\n#endif\n  asm(\"x\");\n}\n";
        assert!(reach(arms, "k.cu").unwrap_err().contains("do not balance"));
    }

    #[test]
    fn a_body_that_already_starts_with_the_entry_call_is_known() {
        let src = "__global__ void k() {\n  ptx2hip_named_bar_init();\n  asm(\"x\");\n}\n";
        let f = Functions::of(src.as_bytes(), None, CALL);
        let ks = f
            .reaching(src.as_bytes(), src.find("asm").unwrap())
            .unwrap();
        assert!(ks[0].called);
        assert_eq!(ks[0].brace, src.find('{').unwrap());
    }
}
