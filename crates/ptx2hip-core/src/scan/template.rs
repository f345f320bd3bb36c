//! The template of an asm statement as the compiler sees it.
//!
//! The bytes between `asm(` and the first `:` are preprocessed the way the C preprocessor does
//! it, as far as the file (and the local headers it includes) tell: adjacent string literals are
//! joined, object-like and function-like macros expanded, `#x` stringified and `a ## b` pasted;
//! preprocessor lines and the `#if` arms AMD does not compile are left out (the caller blanks
//! them). Every character of the result keeps the file offset it came from, so that a PTX error
//! points into the file: its own byte for text written in the file (in the statement or in a
//! same-file `#define` body), the name at the statement's call site for text that comes from a
//! header or a stringified argument.
//!
//! When the text cannot be known — a name defined nowhere the scanner can see, a macro defined
//! differently under undecided `#if`s, a parameter of the `#define` the statement sits in — the
//! template is [`Template::Unresolved`] with a reason that names the piece.

use std::cell::{Cell, RefCell};
use std::ops::Range;

use super::literal::{decode_string_literal, Decoded};
use super::macros::{Defines, Lookup};
use super::tokens::{lex, Kind, Source, Token};
use super::{Origin, Template};

/// How deep macros may expand within one template, and how many tokens they may produce.
const MAX_DEPTH: usize = 64;
const MAX_TOKENS: usize = 20_000;

/// What a template is expanded with.
pub struct Expander<'a> {
    pub src: &'a [u8],
    pub defines: &'a Defines<'a>,
    /// File bytes the preprocessor does not let through (lines, arms AMD does not compile).
    pub blank: &'a [Range<usize>],
    /// For a statement in a `#define` body: the macro's name and parameters.
    pub in_macro: Option<(&'a str, &'a [Vec<u8>])>,
    /// Macros read as one of their definitions (by where its body starts; `None`: undefined),
    /// whatever the `#if`s around the definitions: one reading of a statement whose macro is
    /// defined differently under `#if`s ptx2hip cannot decide.
    pub chosen: &'a [(Vec<u8>, Option<usize>)],
    /// The names met that have such definitions, and no choice in `chosen`.
    pub ambiguous: RefCell<Vec<Vec<u8>>>,
    /// For a statement in a `#define` body read for one use of the macro (see `scan::uses`):
    /// the use's arguments, one per parameter of `in_macro`.
    pub bound: Option<&'a [Vec<Token>]>,
    /// Set when a piece of the statement names a parameter of its `#define` and no use is bound.
    pub needs_use: Cell<bool>,
}

/// Why a template cannot be read: the reason and the file offset of the piece.
struct Problem(String, usize);

impl Expander<'_> {
    /// The template in `range` of the file.
    pub fn template(&self, range: Range<usize>) -> Template {
        match self.expand_statement(range) {
            Ok(d) => Template::Known {
                text: d.text,
                origins: d.origins,
            },
            Err(Problem(reason, at)) => Template::Unresolved { reason, at },
        }
    }

    /// The text of string pieces outside the template (a constraint, a clobber), macros
    /// expanded; the error is the reason and the offset of the piece.
    pub fn strings(&self, tokens: Vec<Token>) -> Result<String, (String, usize)> {
        self.joined(tokens)
            .map(|d| d.text)
            .map_err(|Problem(reason, at)| (reason, at))
    }

    fn expand_statement(&self, range: Range<usize>) -> Result<Decoded, Problem> {
        self.joined(lex(self.src, range, Source::File, self.blank))
    }

    /// In a `#define` body, the statement's own tokens may name the macro's parameters, which
    /// are only known where the macro is used: the reason and the piece's offset.
    pub fn parameter_problem(&self, tokens: &[Token]) -> Option<(String, usize)> {
        self.parameter(tokens)
            .map(|Problem(reason, at)| (reason, at))
    }

    fn parameter(&self, tokens: &[Token]) -> Option<Problem> {
        let problem = self.unbound_parameter(tokens);
        if problem.is_some() {
            self.needs_use.set(true);
        }
        problem
    }

    fn unbound_parameter(&self, tokens: &[Token]) -> Option<Problem> {
        /// What would resolve a piece that depends on the macro's arguments.
        const WHERE_USED: &str = " (its text is known only where the macro is used)";
        let (name, params) = self.in_macro?;
        if self.bound.is_some() {
            return None;
        }
        let is_param = |t: &Token| t.kind == Kind::Ident && params.contains(&t.text);
        tokens.iter().enumerate().find_map(|(k, t)| {
            let piece = |t: &Token| String::from_utf8_lossy(&t.text).into_owned();
            if t.kind == Kind::Hash && tokens.get(k + 1).is_some_and(is_param) {
                Some(Problem(
                    format!(
                        "template piece `#{}` stringifies a parameter of macro `{name}`{WHERE_USED}",
                        piece(&tokens[k + 1])
                    ),
                    t.at,
                ))
            } else if is_param(t) {
                Some(Problem(
                    format!(
                        "template piece `{}` is a parameter of macro `{name}`{WHERE_USED}",
                        piece(t)
                    ),
                    t.at,
                ))
            } else if t.kind == Kind::HashHash {
                let side = |k: Option<usize>| k.and_then(|k| tokens.get(k)).map(piece);
                Some(Problem(
                    format!(
                        "template piece `{}##{}` pastes tokens in macro `{name}`{WHERE_USED}",
                        side(k.checked_sub(1)).unwrap_or_default(),
                        side(Some(k + 1)).unwrap_or_default()
                    ),
                    t.at,
                ))
            } else {
                None
            }
        })
    }

    /// Expands `tokens` and joins the string literals they become.
    fn joined(&self, tokens: Vec<Token>) -> Result<Decoded, Problem> {
        if let Some(problem) = self.parameter(&tokens) {
            return Err(problem);
        }
        let tokens = match (self.bound, self.in_macro) {
            (Some(args), Some((name, params))) => {
                let site = tokens.first().map_or(0, |t| t.at);
                self.substitute(
                    name.as_bytes(),
                    params,
                    tokens,
                    args.to_vec(),
                    &mut Vec::new(),
                    site,
                )?
            }
            _ => tokens,
        };
        let names: Vec<(usize, Vec<u8>)> = tokens
            .iter()
            .filter(|t| t.kind == Kind::Ident)
            .map(|t| (t.at, t.text.clone()))
            .collect();
        let mut active = Vec::new();
        let expanded = self.expand(tokens, &mut active, None)?;
        let mut out = Decoded::default();
        for t in expanded {
            if t.kind == Kind::Str {
                out.append(&decode(&t));
                continue;
            }
            // The statement's name whose expansion left this piece, for the message.
            let site = t.site.and_then(|s| names.iter().find(|(at, _)| *at == s));
            return Err(Problem(self.not_a_string(&t, site), t.site.unwrap_or(t.at)));
        }
        Ok(out)
    }

    /// Why `t` (left over by expanding the statement's name `site`, if any) is not a string.
    fn not_a_string(&self, t: &Token, site: Option<&(usize, Vec<u8>)>) -> String {
        let name = String::from_utf8_lossy(&t.text);
        let from = match site {
            Some((_, outer)) if *outer != t.text => {
                format!(" (from macro `{}`)", String::from_utf8_lossy(outer))
            }
            _ => String::new(),
        };
        if t.kind != Kind::Ident {
            return format!("template piece `{name}`{from} is not a string literal (an asm template is made of string literals)");
        }
        match self.lookup(&t.text) {
            Lookup::Unknown => {
                let place = if self.defines.reads_includes() {
                    "this file and the headers it includes with \"...\""
                } else {
                    "this file"
                };
                format!("template piece `{name}`{from} is a macro not defined in {place} (only headers included with \"...\" and found beside the file are read)")
            }
            Lookup::Ambiguous(bodies) => {
                let bodies: Vec<String> = bodies.iter().map(|b| format!("`{b}`")).collect();
                format!(
                    "template piece `{name}`{from} has different definitions ({}) under `#if`s ptx2hip cannot decide (declare the macros with -D/-U)",
                    bodies.join(", ")
                )
            }
            Lookup::Found(d) if d.params.is_some() => format!(
                "template piece `{name}`{from} names a function-like macro but is not called with arguments"
            ),
            Lookup::Found(_) => {
                format!("template piece `{name}`{from} expands into itself")
            }
        }
    }

    /// What `name` stands for in this reading.
    fn lookup(&self, name: &[u8]) -> Lookup<'_> {
        if let Some((_, at)) = self.chosen.iter().find(|(n, _)| n == name) {
            return self.defines.chosen(name, *at);
        }
        let found = self.defines.lookup(name);
        if matches!(found, Lookup::Ambiguous(_)) {
            let mut seen = self.ambiguous.borrow_mut();
            if !seen.iter().any(|n| n == name) {
                seen.push(name.to_vec());
            }
        }
        found
    }

    /// Expands `tokens` as the preprocessor rescans them: names that are not macros (or cannot
    /// be expanded here) stay, and [`Self::joined`] says why. `site` is the statement's name the
    /// tokens come from, `None` for the statement's own tokens.
    fn expand(
        &self,
        tokens: Vec<Token>,
        active: &mut Vec<Vec<u8>>,
        site: Option<usize>,
    ) -> Result<Vec<Token>, Problem> {
        if active.len() > MAX_DEPTH {
            return Err(Problem(
                "macros in the template expand too deeply".into(),
                site.unwrap_or(0),
            ));
        }
        let mut out = Vec::new();
        let mut i = 0;
        while i < tokens.len() {
            let t = &tokens[i];
            i += 1;
            // Only names are macros: a literal or punctuation is not looked up (the lookup would
            // read the included headers for it).
            let found = (t.kind == Kind::Ident).then(|| self.lookup(&t.text));
            let def = match found {
                Some(Lookup::Found(def)) if !active.contains(&t.text) => def,
                _ => {
                    out.push(t.clone());
                    continue;
                }
            };
            let at = site.unwrap_or(t.at);
            let body_source = match def.file {
                None => Source::File,
                Some(_) => Source::Elsewhere(at),
            };
            let body = lex(self.defines.text(def), def.body.clone(), body_source, &[]);
            let replaced = match &def.params {
                None => paste(body),
                Some(params) => {
                    let Some((args, next)) = arguments(&tokens, i) else {
                        // A function-like macro name without arguments is not expanded.
                        out.push(t.clone());
                        continue;
                    };
                    i = next;
                    self.substitute(&t.text, params, body, args, active, at)?
                }
            };
            active.push(t.text.clone());
            let expanded = self.expand(replaced, active, Some(at));
            active.pop();
            out.extend(expanded?.into_iter().map(|mut e| {
                e.site.get_or_insert(at);
                e
            }));
            if out.len() > MAX_TOKENS {
                return Err(Problem(
                    "macros in the template expand to too much text".into(),
                    at,
                ));
            }
        }
        Ok(out)
    }

    /// The body of function-like macro `name` with its parameters replaced by `args` as the
    /// preprocessor replaces them; `None` when the arguments do not fit the parameters.
    pub fn substituted(
        &self,
        name: &[u8],
        params: &[Vec<u8>],
        body: Vec<Token>,
        args: Vec<Vec<Token>>,
    ) -> Option<Vec<Token>> {
        let site = body.first().map_or(0, |t| t.at);
        self.substitute(name, params, body, args, &mut Vec::new(), site)
            .ok()
    }

    /// The body of function-like macro `def` with its parameters replaced by `args`.
    fn substitute(
        &self,
        name: &[u8],
        params: &[Vec<u8>],
        body: Vec<Token>,
        mut args: Vec<Vec<Token>>,
        active: &mut Vec<Vec<u8>>,
        site: usize,
    ) -> Result<Vec<Token>, Problem> {
        // `F()` passes one empty argument; a variadic macro may receive more than it names.
        if args.len() == 1 && args[0].is_empty() && params.is_empty() {
            args.clear();
        }
        let variadic = params.last().is_some_and(|p| p == b"__VA_ARGS__");
        if variadic && args.len() > params.len() {
            let rest = args.split_off(params.len() - 1);
            let mut joined = Vec::new();
            for (k, a) in rest.into_iter().enumerate() {
                if k > 0 {
                    joined.push(Token {
                        kind: Kind::Comma,
                        text: b",".to_vec(),
                        at: a.first().map_or(site, |t| t.at),
                        exact: false,
                        space_before: false,
                        site: Some(site),
                    });
                }
                joined.extend(a);
            }
            args.push(joined);
        }
        if args.len() != params.len() && !(variadic && args.len() + 1 == params.len()) {
            return Err(Problem(
                format!(
                    "macro `{}` takes {} arguments, the template passes {}",
                    String::from_utf8_lossy(name),
                    params.len(),
                    args.len()
                ),
                site,
            ));
        }
        let arg = |t: &Token| -> Option<&Vec<Token>> {
            (t.kind == Kind::Ident)
                .then(|| params.iter().position(|p| *p == t.text))
                .flatten()
                .map(|k| args.get(k).map_or(&EMPTY, |a| a))
        };
        let mut out = Vec::new();
        let mut k = 0;
        while k < body.len() {
            let t = &body[k];
            if t.kind == Kind::Hash {
                if let Some(a) = body.get(k + 1).and_then(arg) {
                    out.push(stringify(a, body[k + 1].at));
                    k += 2;
                    continue;
                }
            }
            match arg(t) {
                Some(a) => {
                    let pasted = out.last().is_some_and(|p: &Token| p.kind == Kind::HashHash)
                        || body.get(k + 1).is_some_and(|n| n.kind == Kind::HashHash);
                    if pasted {
                        out.extend(a.iter().cloned());
                    } else {
                        out.extend(self.expand(a.clone(), active, Some(site))?);
                    }
                }
                None => out.push(t.clone()),
            }
            k += 1;
        }
        Ok(paste(out))
    }
}

static EMPTY: Vec<Token> = Vec::new();

/// The arguments of a call whose `(` is expected at `tokens[i]`, and where the call ends.
pub(super) fn arguments(tokens: &[Token], i: usize) -> Option<(Vec<Vec<Token>>, usize)> {
    if tokens.get(i)?.kind != Kind::LParen {
        return None;
    }
    let mut args = vec![Vec::new()];
    let mut depth = 0;
    for (k, t) in tokens.iter().enumerate().skip(i + 1) {
        match t.kind {
            Kind::RParen if depth == 0 => return Some((args, k + 1)),
            Kind::RParen => depth -= 1,
            Kind::LParen => depth += 1,
            Kind::Comma if depth == 0 => {
                args.push(Vec::new());
                continue;
            }
            _ => {}
        }
        args.last_mut()?.push(t.clone());
    }
    None
}

/// `#x`: the argument's spelling as a string literal (blanks between tokens become one space).
fn stringify(arg: &[Token], at: usize) -> Token {
    let mut text = vec![b'"'];
    for (k, t) in arg.iter().enumerate() {
        if k > 0 && t.space_before {
            text.push(b' ');
        }
        for &b in &t.text {
            if t.kind == Kind::Str && (b == b'"' || b == b'\\') {
                text.push(b'\\');
            }
            text.push(b);
        }
    }
    text.push(b'"');
    // The spelling is exact when the argument is written without blanks inside and holds no
    // literal (whose quotes would be escaped).
    let contiguous = arg
        .windows(2)
        .all(|w| w[0].exact && w[1].exact && w[0].at + w[0].text.len() == w[1].at)
        && arg.iter().all(|t| t.exact && t.kind != Kind::Str);
    let start = arg.first().map_or(at, |t| t.at);
    Token {
        kind: Kind::Str,
        text,
        // The string's quote is one byte before its first character.
        at: if contiguous {
            start.saturating_sub(1)
        } else {
            start
        },
        exact: contiguous && start > 0,
        space_before: true,
        site: None,
    }
}

/// Applies the `##` operators of a replacement list.
fn paste(tokens: Vec<Token>) -> Vec<Token> {
    if !tokens.iter().any(|t| t.kind == Kind::HashHash) {
        return tokens;
    }
    let mut out: Vec<Token> = Vec::with_capacity(tokens.len());
    let mut glue = false;
    for t in tokens {
        if t.kind == Kind::HashHash {
            glue = true;
            continue;
        }
        match out.last_mut() {
            Some(prev) if glue => {
                prev.text.extend_from_slice(&t.text);
                prev.exact = false;
                prev.kind = relex_kind(&prev.text);
            }
            _ => out.push(t),
        }
        glue = false;
    }
    out
}

fn relex_kind(text: &[u8]) -> Kind {
    let is_ident = text
        .first()
        .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
        && text.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'_');
    if is_ident {
        Kind::Ident
    } else if text.last() == Some(&b'"') && text.contains(&b'"') {
        Kind::Str
    } else {
        Kind::Other
    }
}

/// The decoded text of a string token with its origins.
fn decode(t: &Token) -> Decoded {
    let mut d = Decoded::default();
    if t.exact {
        decode_string_literal(&t.text, t.at, &mut d);
    } else {
        // Every character stands for the name at `t.at` (an origin each: origins are runs).
        decode_string_literal(&t.text, 0, &mut d);
        d.origins = d
            .text
            .char_indices()
            .map(|(k, _)| Origin {
                text_offset: k,
                file_offset: t.at,
            })
            .collect();
    }
    d
}
