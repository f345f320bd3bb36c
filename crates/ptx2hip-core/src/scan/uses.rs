//! The uses of a macro whose `#define` body holds an asm statement made of its parameters:
//! `#define LD(T, cop) asm volatile("ld.global." #cop "." #T " %0, [%1];" : "=r"(x) : "l"(p))`
//! reads as PTX only where the macro is used, `LD(u32, cg)`.
//!
//! # What is read
//! The uses in the file that defines the macro, after that `#define` and before the next
//! `#define` or `#undef` of its name: written in code (`LD(u32, cg)`), or in the body of another
//! macro that passes its own parameters on (`#define LD_ALL(T) LD(T, cg) LD(T, ca)`), whose uses
//! are read the same way and substituted as the preprocessor substitutes them. Uses in arms that
//! NVIDIA device code never compiles are left out. Each distinct list of the arguments that make
//! the statement (the *keyed* parameters: those named outside its operand expressions) gives one
//! reading of the statement, with the parameters bound to that use's arguments.
//!
//! # Why that is sound
//! The rewrite (see `emit::uses`) selects the reading's translation by pasting the keyed
//! arguments into a name when each is one name or number (or empty): its spelling is then the
//! whole of what `#x` and `a##x` make of it. Otherwise (`global.nc`, a string literal) it
//! compares them, stringified by the preprocessor, with the spellings read here, at compile time
//! in C++ (the *compared* form; its spelling of an argument is what `#x` makes of it: the tokens
//! with one space where blanks were). The pasted name is
//! `<prefix>_T` followed by `_<length>_<argument>` per keyed argument (the lengths make the name
//! tell the lists apart: `a_b, c` and `a, b_c` differ); `<prefix>` holds the macro's name and a
//! hash of the statement, so two macros or two definitions never share a table. The length form
//! of an argument comes from a macro defined only for the arguments seen here, so an argument
//! list ptx2hip did not see (a use in another file, an argument of another form) pastes a name
//! that nothing defines, and the AMD compilation stops there: it never runs another use's
//! translation. A macro used nowhere in its own file (a header whose uses are all in the files
//! that include it, the CUB and nccl case when those headers are translated on their own) is
//! not translated: its uses are not seen.

use std::collections::HashMap;
use std::ops::Range;

use super::macros::define_head;
use super::nesting::{Directive, Survey};
use super::template::{arguments, Expander};
use super::tokens::{lex, Kind, Source, Token};
use super::{
    extract, nesting, template, AsmStatement, File, MacroUses, Reach, Template, UseReading,
};

/// How many macros deep a use may be passed on, and how many uses are read.
const MAX_DEPTH: usize = 8;
const MAX_USES: usize = 256;

/// One use of the macro.
#[derive(Debug, Clone)]
pub struct Use {
    /// Its arguments, one per parameter, as they reach the macro.
    pub args: Vec<Vec<Token>>,
    /// The use in words: "`LD(u32, cg)`", "`LD(u32, cg)` (from `LD_ALL(u32)`)"; no line, which a
    /// rewrite moves (a marker must read the same on the next run).
    pub shown: String,
}

/// Finds a file's macro uses.
pub struct Finder<'a> {
    pub src: &'a [u8],
    pub survey: &'a Survey,
    /// Which compilations see an offset.
    pub reach: &'a dyn Fn(usize) -> Reach,
    /// The file's code tokens, outside preprocessor lines.
    pub code: &'a [Token],
    /// Substitutes a macro's parameters (its `defines` are the file's).
    pub expander: &'a Expander<'a>,
}

impl Finder<'_> {
    /// The uses of the macro that `define` defines.
    pub fn uses(&self, define: &Directive) -> Result<Vec<Use>, String> {
        let (name, _) = define_head(self.src, define).ok_or("a `#define` without a name")?;
        let window = define.span.end..self.next_definition(name.as_bytes(), define.span.end);
        let mut found = Vec::new();
        self.collect(name.as_bytes(), &window, 0, &mut HashMap::new(), &mut found)?;
        Ok(found)
    }

    /// Where the definition at `after` stops holding: the next `#define` or `#undef` of `name`.
    fn next_definition(&self, name: &[u8], after: usize) -> usize {
        self.survey
            .directives
            .iter()
            .filter(|d| d.span.start >= after)
            .find(|d| {
                matches!(d.word(self.src), b"define" | b"undef")
                    && first_name(&self.src[d.rest.clone()]) == name
            })
            .map_or(self.src.len(), |d| d.span.start)
    }

    fn collect(
        &self,
        name: &[u8],
        window: &Range<usize>,
        depth: usize,
        seen: &mut HashMap<Vec<u8>, Vec<Use>>,
        out: &mut Vec<Use>,
    ) -> Result<(), String> {
        let shown_name = String::from_utf8_lossy(name).into_owned();
        if depth > MAX_DEPTH {
            return Err(format!(
                "macro `{shown_name}` is passed on through more than {MAX_DEPTH} macros"
            ));
        }
        for (at, args) in invocations(self.code, name) {
            if !window.contains(&at)
                || matches!((self.reach)(at), Reach::NotNvidia | Reach::Neither)
            {
                continue;
            }
            let shown = format!("`{}`", spelling(name, &args));
            out.push(Use { args, shown });
        }
        for d in &self.survey.directives {
            // Only a `#define` whose text holds the name's bytes is read.
            if d.word(self.src) != b"define"
                || memchr::memmem::find(&self.src[d.rest.clone()], name).is_none()
            {
                continue;
            }
            let Some((outer, params)) = define_head(self.src, d) else {
                continue;
            };
            let body_start = body_start(self.src, d);
            let body = lex(self.src, body_start..d.span.end, Source::File, &[]);
            if outer.as_bytes() == name || invocations(&body, name).next().is_none() {
                continue;
            }
            let passed_on = match seen.get(outer.as_bytes()) {
                Some(uses) => uses.clone(),
                None => {
                    let mut uses = Vec::new();
                    self.collect(outer.as_bytes(), window, depth + 1, seen, &mut uses)?;
                    seen.insert(outer.as_bytes().to_vec(), uses.clone());
                    uses
                }
            };
            for outer_use in passed_on {
                let expanded = if params.is_empty() && outer_use.args.iter().all(Vec::is_empty) {
                    body.clone()
                } else {
                    self.expander
                        .substituted(outer.as_bytes(), &params, body.clone(), outer_use.args)
                        .ok_or_else(|| {
                            format!(
                                "{} does not fit the parameters of macro `{outer}`",
                                outer_use.shown
                            )
                        })?
                };
                for (_, args) in invocations(&expanded, name) {
                    let shown = format!("`{}` (from {})", spelling(name, &args), outer_use.shown);
                    out.push(Use { args, shown });
                }
            }
            if out.len() > MAX_USES {
                return Err(format!(
                    "macro `{shown_name}` has more than {MAX_USES} uses in this file"
                ));
            }
        }
        Ok(())
    }
}

/// Reads the statement with the macro's parameters bound to one use's arguments.
pub(super) type ReadUse<'r> = dyn Fn(&[Vec<Token>]) -> Result<Box<AsmStatement>, String> + 'r;

impl File<'_> {
    /// A statement in the body of macro `name` that its parameters make, read once per distinct
    /// list of the arguments that make it among the file's uses of the macro (see this module);
    /// `Err` says why it cannot be.
    pub(super) fn by_use(
        &self,
        define: &nesting::Directive,
        name: &str,
        params: &[Vec<u8>],
        extent: &extract::Extent,
        read: &ReadUse,
    ) -> Result<MacroUses, String> {
        let expander = template::Expander {
            src: self.src,
            defines: self.defines,
            blank: &[],
            in_macro: None,
            chosen: &[],
            ambiguous: Default::default(),
            bound: None,
            needs_use: Default::default(),
        };
        let reach = |at: usize| self.conditionals.reach(at);
        let finder = Finder {
            src: self.src,
            survey: self.survey,
            reach: &reach,
            code: self.code.get_or_init(|| {
                super::code_tokens(self.src, self.survey)
                    .iter()
                    .map(|span| span.to_token(self.src, Source::File))
                    .collect()
            }),
            expander: &expander,
        };
        let found = finder.uses(define)?;
        let Some(first) = found.first() else {
            return Err(format!("its text is known only where macro `{name}` is used, and this file uses it nowhere (ptx2hip translates a macro's asm for the uses in the file that defines it: translate that file, or write the statement out)"));
        };
        let in_use = |u: &Use, reason: &str| format!("{reason} (in the use {})", u.shown);
        let unresolved = |s: &AsmStatement| match &s.template {
            Template::Unresolved { reason, .. } => Some(reason.clone()),
            Template::Known { .. } => None,
        };
        let statement = read(&first.args).map_err(|e| in_use(first, &e))?;
        if let Some(reason) = unresolved(&statement) {
            return Err(in_use(first, &reason));
        }
        // Parameters named outside the operand expressions make the statement; those inside
        // are handed to the translation.
        let tokens = lex(
            self.src,
            extent.expr.clone(),
            Source::File,
            &extent.directives,
        );
        let in_expression = |at: usize| statement.operands().any(|op| op.expr_span.contains(&at));
        let named = |inside: bool| -> Vec<usize> {
            (0..params.len())
                .filter(|&k| {
                    tokens.iter().any(|t| {
                        t.kind == Kind::Ident
                            && t.text == params[k]
                            && in_expression(t.at) == inside
                    })
                })
                .collect()
        };
        let (keyed, passed) = (named(false), named(true));
        let param = |k: &usize| String::from_utf8_lossy(&params[*k]).into_owned();
        if passed.iter().any(|k| params[*k] == b"__VA_ARGS__") {
            return Err(format!("its text is known only where macro `{name}` is used, and its operands name the variable arguments `__VA_ARGS__`, which a translation per use cannot take"));
        }
        let mut readings: Vec<UseReading> = Vec::new();
        let mut compared = false;
        for u in &found {
            let args: Vec<&Vec<Token>> = keyed.iter().filter_map(|&k| u.args.get(k)).collect();
            if args.len() != keyed.len() {
                return Err(in_use(
                    u,
                    &format!("macro `{name}` takes {} arguments", params.len()),
                ));
            }
            compared |= args.iter().any(|a| !pastes(a));
            let key: Vec<String> = args.iter().map(|a| spelled(a)).collect();
            if readings.iter().any(|r| r.key == key) {
                continue;
            }
            let statement = read(&u.args).map_err(|e| in_use(u, &e))?;
            if let Some(reason) = unresolved(&statement) {
                return Err(in_use(u, &reason));
            }
            readings.push(UseReading {
                key,
                shown: u.shown.clone(),
                statement,
            });
        }
        let joined: Vec<&[u8]> = params.iter().map(Vec::as_slice).collect();
        let hash = hash(&[
            name.as_bytes(),
            &joined.concat(),
            &self.src[extent.expr.clone()],
        ]);
        Ok(MacroUses {
            prefix: format!("PTX2HIP_{name}_{hash:08x}"),
            keyed: keyed.iter().map(param).collect(),
            passed: passed.iter().map(param).collect(),
            compared,
            define_end: define.span.end,
            readings,
        })
    }
}

/// The calls `name(...)` among `tokens`: the name's offset and the arguments.
fn invocations<'t>(
    tokens: &'t [Token],
    name: &'t [u8],
) -> impl Iterator<Item = (usize, Vec<Vec<Token>>)> + 't {
    tokens.iter().enumerate().filter_map(move |(k, t)| {
        if t.kind != Kind::Ident || t.text != name {
            return None;
        }
        arguments(tokens, k + 1).map(|(args, _)| (t.at, args))
    })
}

/// Where a `#define`'s replacement list starts: after its name and parameter list.
fn body_start(src: &[u8], d: &Directive) -> usize {
    let rest = d.rest.clone();
    let text = &src[rest.clone()];
    let lead = text.len() - text.trim_ascii_start().len();
    let mut i = rest.start + lead;
    while i < rest.end && (src[i].is_ascii_alphanumeric() || src[i] == b'_') {
        i += 1;
    }
    if src.get(i) == Some(&b'(') {
        if let Some(close) = memchr::memchr(b')', &src[i..rest.end]) {
            return i + close + 1;
        }
    }
    i
}

/// The name that starts `text` (after blanks).
fn first_name(text: &[u8]) -> &[u8] {
    let text = text.trim_ascii_start();
    let len = text
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    &text[..len]
}

/// An argument as written: its tokens, a space where blanks were (as `#x` spells it).
pub fn spelled(arg: &[Token]) -> String {
    let mut out = String::new();
    for (k, t) in arg.iter().enumerate() {
        if k > 0 && t.space_before {
            out.push(' ');
        }
        out.push_str(&String::from_utf8_lossy(&t.text));
    }
    out
}

/// `NAME(a, b)`.
fn spelling(name: &[u8], args: &[Vec<Token>]) -> String {
    let args: Vec<String> = args.iter().map(|a| spelled(a)).collect();
    format!("{}({})", String::from_utf8_lossy(name), args.join(", "))
}

/// Whether an argument can be pasted into a name and stands for its spelling alone: empty, or
/// one token of letters, digits and `_`.
pub fn pastes(arg: &[Token]) -> bool {
    match arg {
        [] => true,
        [t] => {
            !t.text.is_empty()
                && t.text
                    .iter()
                    .all(|b| b.is_ascii_alphanumeric() || *b == b'_')
        }
        _ => false,
    }
}

/// FNV-1a of `bytes` less blanks and continuations: the statement's part of the table's names.
pub fn hash(parts: &[&[u8]]) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for part in parts {
        for &b in part
            .iter()
            .filter(|b| !b.is_ascii_whitespace() && **b != b'\\')
        {
            h ^= u32::from(b);
            h = h.wrapping_mul(0x0100_0193);
        }
        h ^= 0xff;
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

#[cfg(test)]
mod tests {
    use crate::scan::{scan, AsmStatement, Template};

    fn only(src: &str) -> AsmStatement {
        let mut r = scan(src.as_bytes());
        assert_eq!(r.statements.len(), 1, "{r:#?}");
        r.statements.remove(0)
    }

    fn reason(s: &AsmStatement) -> &str {
        match &s.template {
            Template::Unresolved { reason, .. } => reason,
            Template::Known { text, .. } => panic!("read as {text}"),
        }
    }

    fn text(s: &AsmStatement) -> &str {
        match &s.template {
            Template::Known { text, .. } => text,
            Template::Unresolved { reason, .. } => panic!("unresolved: {reason}"),
        }
    }

    const LD: &str = "#define LD(T, cop, x, p) asm volatile(\"ld.global.\" #cop \".\" #T \" %0, [%1];\" : \"=r\"(x) : \"l\"(p))\n";

    #[test]
    fn each_distinct_argument_list_of_the_uses_is_one_reading() {
        let src = format!(
            "{LD}__device__ void f(unsigned* a, const unsigned* q) {{\n  LD(u32, cg, a[0], q);\n  LD(b32, ca, a[1], q + 1);\n  LD(u32, cg, a[2], q + 2);\n}}\n"
        );
        let s = only(&src);
        let uses = s.macro_uses().expect("read per use");
        assert_eq!(uses.keyed, ["T", "cop"]);
        assert_eq!(uses.passed, ["x", "p"]);
        let read: Vec<(&[String], &str, &str)> = uses
            .readings
            .iter()
            .map(|r| (r.key.as_slice(), r.shown.as_str(), text(&r.statement)))
            .collect();
        assert_eq!(
            read,
            [
                (
                    &["u32".to_string(), "cg".to_string()][..],
                    "`LD(u32, cg, a[0], q)`",
                    "ld.global.cg.u32 %0, [%1];"
                ),
                (
                    &["b32".to_string(), "ca".to_string()][..],
                    "`LD(b32, ca, a[1], q + 1)`",
                    "ld.global.ca.b32 %0, [%1];"
                ),
            ]
        );
        // The operands stay the body's, parameters and all.
        assert_eq!(uses.readings[1].statement.outputs[0].expr, "x");
        assert_eq!(uses.define_end, LD.len() - 1);
        assert!(uses.prefix.starts_with("PTX2HIP_LD_"));
    }

    #[test]
    fn uses_passed_on_by_another_macro_are_read_through_its_own_uses() {
        let src = format!(
            "{LD}#define LD_BOTH(T, x, p) LD(T, cg, x, p); LD(T, cs, x, p)\n__device__ void f(unsigned* a, const unsigned* q) {{ LD_BOTH(u32, a[0], q); }}\n"
        );
        let uses = only(&src).macro_uses().cloned().expect("read per use");
        let keys: Vec<String> = uses.readings.iter().map(|r| r.key.join(" ")).collect();
        assert_eq!(keys, ["u32 cg", "u32 cs"]);
        assert_eq!(
            uses.readings[0].shown,
            "`LD(u32, cg, a[0], q)` (from `LD_BOTH(u32, a[0], q)`)"
        );
    }

    #[test]
    fn only_the_uses_of_this_definition_count() {
        let src = format!(
            "{LD}__device__ void f(unsigned* a, const unsigned* q) {{ LD(u32, cg, a[0], q); }}\n#undef LD\n#define LD(T, cop, x, p) x = *p\n__device__ void g(unsigned* a, const unsigned* q) {{ LD(f32, cs, a[0], q); }}\n"
        );
        let uses = only(&src).macro_uses().cloned().expect("read per use");
        assert_eq!(uses.readings.len(), 1);
        assert_eq!(uses.readings[0].key, ["u32", "cg"]);
    }

    #[test]
    fn a_macro_used_nowhere_in_its_file_is_not_read() {
        let s = only(LD);
        assert!(
            reason(&s).contains("this file uses it nowhere"),
            "{}",
            reason(&s)
        );
    }

    #[test]
    fn an_argument_that_is_not_one_name_or_number_is_compared_as_a_string() {
        let src = format!(
            "{LD}__device__ void f(unsigned* a, const unsigned* q) {{ LD(u32, global.nc, a[0], q); LD(u32, cg, a[0], q); }}\n"
        );
        let uses = only(&src).macro_uses().cloned().expect("read per use");
        assert!(uses.compared);
        let keys: Vec<String> = uses.readings.iter().map(|r| r.key.join(" ")).collect();
        assert_eq!(keys, ["u32 global.nc", "u32 cg"]);
        assert_eq!(
            text(&uses.readings[0].statement),
            "ld.global.global.nc.u32 %0, [%1];"
        );
    }

    #[test]
    fn a_use_whose_statement_cannot_be_read_is_named() {
        let src = "#define OP(op, x) asm(op \" %0, 1;\" : \"=r\"(x))\n__device__ void f(unsigned& a) { OP(\"mov.u32\", a); OP(UNKNOWN_OP, a); }\n";
        let s = only(src);
        assert!(
            reason(&s).contains("`UNKNOWN_OP` is a macro not defined")
                && reason(&s).ends_with("(in the use `OP(UNKNOWN_OP, a)`)"),
            "{}",
            reason(&s)
        );
    }
}
