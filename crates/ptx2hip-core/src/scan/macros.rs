//! `#define`s: what a macro name in a template stands for, in the file or in the local headers it
//! includes (`#include "x.h"`, resolved relative to the including file, as the preprocessor does).
//!
//! Definitions are read from the [`nesting`](super::nesting) survey, each with the compilations that see it
//! ([`Reach`]), so that `#if X #define OP ".cg" #else #define OP ".ca" #endif` is told apart
//! from one definition repeated under several conditions.

use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

use super::conditional::{Conditionals, Environments, Reach};
use super::nesting::{survey, Directive, Survey};

/// One `#define`.
#[derive(Debug, Clone)]
pub struct Definition {
    /// Which text holds it: `None` for the scanned file, else an index into the included files.
    pub file: Option<usize>,
    /// The parameters of a function-like macro (`__VA_ARGS__` for `...`); `None` if object-like.
    pub params: Option<Vec<Vec<u8>>>,
    /// The body (with its `\`-newline continuations).
    pub body: Range<usize>,
    reach: Reach,
}

/// The definitions a template may use.
pub struct Defines<'s> {
    src: &'s [u8],
    own: HashMap<&'s [u8], Vec<Definition>>,
    /// Where the scanned file is, to find its local includes; `None` for text without a file.
    dir: Option<PathBuf>,
    /// `#include "..."` targets of the file, in order.
    include_names: Vec<Vec<u8>>,
    included: OnceCell<Included>,
    envs: &'s Environments,
    /// What each name looked up so far stands for: a name's definitions are compared once, not
    /// at every use (a file redefining one macro before each of its n uses would be quadratic).
    decided: RefCell<HashMap<Vec<u8>, Decision>>,
}

/// [`Lookup`] as indices into a name's definitions.
#[derive(Clone)]
enum Decision {
    Found(usize),
    Unknown,
    Ambiguous(Vec<String>),
}

/// The local headers, read when a name is first missing from the file itself.
#[derive(Default)]
struct Included {
    texts: Vec<Vec<u8>>,
    by_name: HashMap<Vec<u8>, Vec<Definition>>,
    /// Every header looked for, in order, and the index of its text in `texts` when it was read.
    looked_for: Vec<(PathBuf, Option<usize>)>,
}

/// A local header a file's scan looked for: what the scan depends on besides the file's bytes
/// (the `check` cache keeps a file's findings while these are unchanged).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeaderRead {
    pub path: PathBuf,
    /// Its bytes; `None` when it could not be read.
    pub text: Option<Vec<u8>>,
}

/// At most this many headers are read for one file, at most this deep.
const MAX_INCLUDED: usize = 32;
const MAX_INCLUDE_DEPTH: usize = 4;

/// What a name stands for.
pub enum Lookup<'d> {
    Found(&'d Definition),
    /// Defined nowhere the scanner can see.
    Unknown,
    /// Several different definitions that the known macros do not decide between: their bodies,
    /// as [`Defines::shown`] writes them.
    Ambiguous(Vec<String>),
}

impl<'s> Defines<'s> {
    pub fn new(
        src: &'s [u8],
        survey: &Survey,
        conditionals: &Conditionals,
        path: Option<&Path>,
        envs: &'s Environments,
    ) -> Self {
        let mut own: HashMap<&'s [u8], Vec<Definition>> = HashMap::new();
        let mut include_names = Vec::new();
        for d in &survey.directives {
            match d.word(src) {
                b"define" => {
                    if let Some((name, def)) = read_define(src, d, None) {
                        let reach = conditionals.reach(d.span.start);
                        own.entry(&src[name])
                            .or_default()
                            .push(Definition { reach, ..def });
                    }
                }
                b"include" => include_names.extend(quoted_include(&src[d.rest.clone()])),
                _ => {}
            }
        }
        Defines {
            src,
            own,
            dir: path.and_then(Path::parent).map(Path::to_path_buf),
            include_names,
            included: OnceCell::new(),
            envs,
            decided: RefCell::new(HashMap::new()),
        }
    }

    /// The text a definition's ranges refer to.
    pub fn text(&self, def: &Definition) -> &[u8] {
        match def.file {
            None => self.src,
            Some(k) => self
                .included
                .get()
                .and_then(|i| i.texts.get(k))
                .map_or(&[][..], Vec::as_slice),
        }
    }

    /// The local headers the scan looked for (read only when a name was missing from the file).
    pub fn into_headers_read(self) -> Vec<HeaderRead> {
        let Some(included) = self.included.into_inner() else {
            return Vec::new();
        };
        let mut texts: Vec<Option<Vec<u8>>> = included.texts.into_iter().map(Some).collect();
        included
            .looked_for
            .into_iter()
            .map(|(path, index)| HeaderRead {
                path,
                text: index.and_then(|k| texts.get_mut(k).and_then(Option::take)),
            })
            .collect()
    }

    /// Whether the file has a directory its includes could be found in.
    pub fn reads_includes(&self) -> bool {
        self.dir.is_some() && !self.include_names.is_empty()
    }

    /// What `name` stands for: the file's own definitions first, then its local headers'.
    pub fn lookup(&self, name: &[u8]) -> Lookup<'_> {
        let defs = match self.own.get(name) {
            Some(defs) => defs,
            None => match self.included().by_name.get(name) {
                Some(defs) => defs,
                None => return Lookup::Unknown,
            },
        };
        let decision = self
            .decided
            .borrow_mut()
            .entry(name.to_vec())
            .or_insert_with(|| self.choose(defs))
            .clone();
        match decision {
            Decision::Found(k) => Lookup::Found(&defs[k]),
            Decision::Unknown => Lookup::Unknown,
            Decision::Ambiguous(lines) => Lookup::Ambiguous(lines),
        }
    }

    /// The one definition NVIDIA compiles, or why there is none. Definitions NVIDIA never sees
    /// are ignored (the PTX means what the NVIDIA compilation makes of it); several with the same
    /// parameters and body (blanks aside) are one.
    fn choose(&self, defs: &[Definition]) -> Decision {
        let seen: Vec<(usize, &Definition)> = defs
            .iter()
            .enumerate()
            .filter(|(_, d)| matches!(d.reach, Reach::Both | Reach::NvidiaOnly))
            .collect();
        let Some(&(first_index, first)) = seen.first() else {
            return Decision::Unknown;
        };
        let words = |d: &Definition| -> Vec<u8> {
            self.text(d)
                .get(d.body.clone())
                .unwrap_or_default()
                .iter()
                .copied()
                .filter(|b| !b.is_ascii_whitespace() && *b != b'\\')
                .collect()
        };
        let body = words(first);
        if seen
            .iter()
            .all(|(_, d)| d.params == first.params && words(d) == body)
        {
            Decision::Found(first_index)
        } else {
            let mut shown: Vec<String> = Vec::new();
            for (_, d) in &seen {
                let body = self.shown(d);
                if !shown.contains(&body) {
                    shown.push(body);
                }
            }
            Decision::Ambiguous(shown)
        }
    }

    /// A definition's body for a message: blanks collapsed, continuations joined, long ones cut.
    /// Not its line: a message that ends up in a marker comment must read the same after the
    /// rewrite moved the lines (a second run changes nothing).
    fn shown(&self, def: &Definition) -> String {
        const MAX: usize = 48;
        let text = self.text(def).get(def.body.clone()).unwrap_or_default();
        let text = String::from_utf8_lossy(text)
            .replace("\\\n", " ")
            .replace("\\\r\n", " ");
        let words: Vec<&str> = text.split_whitespace().collect();
        let body = words.join(" ");
        match body.char_indices().nth(MAX) {
            Some((cut, _)) => format!("{}...", &body[..cut]),
            None => body,
        }
    }

    /// Where the bodies of the file's own definitions of `name` that NVIDIA sees start, when
    /// there are several (their `#if` arms then tell which one a compilation takes); `None`
    /// when the name has fewer, or definitions in a header, whose arms the statement cannot copy.
    pub fn own_definitions(&self, name: &[u8]) -> Option<Vec<usize>> {
        let seen: Vec<usize> = self
            .own
            .get(name)?
            .iter()
            .filter(|d| matches!(d.reach, Reach::Both | Reach::NvidiaOnly))
            .map(|d| d.body.start)
            .collect();
        (seen.len() > 1).then_some(seen)
    }

    /// The file's own definition of `name` whose body starts at `at`, as messages show a body.
    pub fn shown_own(&self, name: &[u8], at: usize) -> Option<String> {
        let defs = self.own.get(name)?;
        defs.iter()
            .find(|d| d.body.start == at)
            .map(|d| self.shown(d))
    }

    /// `name` as the file's own definition whose body starts at `at` (`None`: undefined there).
    pub fn chosen(&self, name: &[u8], at: Option<usize>) -> Lookup<'_> {
        let found = at.and_then(|at| {
            self.own
                .get(name)
                .and_then(|defs| defs.iter().find(|d| d.body.start == at))
        });
        found.map_or(Lookup::Unknown, Lookup::Found)
    }

    fn included(&self) -> &Included {
        self.included.get_or_init(|| {
            let mut out = Included::default();
            if let Some(dir) = &self.dir {
                let mut seen = Vec::new();
                for name in &self.include_names {
                    read_header(dir, name, 1, self.envs, &mut seen, &mut out);
                }
            }
            out
        })
    }
}

/// Reads the header `name` (relative to `dir`) and, recursively, its own local includes.
fn read_header(
    dir: &Path,
    name: &[u8],
    depth: usize,
    envs: &Environments,
    seen: &mut Vec<PathBuf>,
    out: &mut Included,
) {
    let Ok(name) = std::str::from_utf8(name) else {
        return;
    };
    let path = dir.join(name);
    if depth > MAX_INCLUDE_DEPTH || out.texts.len() >= MAX_INCLUDED || seen.contains(&path) {
        return;
    }
    seen.push(path.clone());
    let Ok(text) = std::fs::read(&path) else {
        out.looked_for.push((path, None));
        return;
    };
    let index = out.texts.len();
    out.looked_for.push((path.clone(), Some(index)));
    let s = survey(&text);
    let conditionals = Conditionals::new(&text, &s.directives, envs);
    let mut nested = Vec::new();
    for d in &s.directives {
        match d.word(&text) {
            b"define" => {
                if let Some((name, def)) = read_define(&text, d, Some(index)) {
                    let reach = conditionals.reach(d.span.start);
                    out.by_name
                        .entry(text[name].to_vec())
                        .or_default()
                        .push(Definition { reach, ..def });
                }
            }
            b"include" => nested.extend(quoted_include(&text[d.rest.clone()])),
            _ => {}
        }
    }
    out.texts.push(text);
    let here = path.parent().unwrap_or(dir).to_path_buf();
    for n in nested {
        read_header(&here, &n, depth + 1, envs, seen, out);
    }
}

/// The name and definition of a `#define` line.
fn read_define(
    src: &[u8],
    d: &Directive,
    file: Option<usize>,
) -> Option<(Range<usize>, Definition)> {
    let rest = d.rest.clone();
    let mut i = rest.start + skip_spaces(&src[rest.clone()]);
    let name_start = i;
    while i < rest.end && (src[i].is_ascii_alphanumeric() || src[i] == b'_') {
        i += 1;
    }
    if i == name_start {
        return None;
    }
    let name = name_start..i;
    let mut params = None;
    if src.get(i) == Some(&b'(') {
        let close = i + memchr::memchr(b')', &src[i..rest.end])?;
        params = Some(parameters(&src[i + 1..close]));
        i = close + 1;
    }
    Some((
        name,
        Definition {
            file,
            params,
            body: i..rest.end,
            reach: Reach::Both,
        },
    ))
}

/// Parameter names from the text between a function-like macro's parentheses.
pub fn parameters(list: &[u8]) -> Vec<Vec<u8>> {
    list.split(|b| *b == b',')
        .map(|p| {
            let p: Vec<u8> = p
                .iter()
                .copied()
                .filter(|b| !b.is_ascii_whitespace() && *b != b'\\')
                .collect();
            if p.ends_with(b"...") {
                if p.len() == 3 {
                    b"__VA_ARGS__".to_vec()
                } else {
                    p[..p.len() - 3].to_vec()
                }
            } else {
                p
            }
        })
        .filter(|p| !p.is_empty())
        .collect()
}

/// The name of the macro a `#define` line defines and its parameters, for statements in its body.
pub fn define_head(src: &[u8], d: &Directive) -> Option<(String, Vec<Vec<u8>>)> {
    let (name, def) = read_define(src, d, None)?;
    Some((
        String::from_utf8_lossy(&src[name]).into_owned(),
        def.params.unwrap_or_default(),
    ))
}

/// `"x.h"` from the text after `#include` (system includes `<x.h>` are not local).
fn quoted_include(rest: &[u8]) -> Option<Vec<u8>> {
    let rest = rest.trim_ascii_start();
    let inner = rest.strip_prefix(b"\"")?;
    let end = memchr::memchr(b'"', inner)?;
    Some(inner[..end].to_vec())
}

fn skip_spaces(s: &[u8]) -> usize {
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            b' ' | b'\t' => i += 1,
            b'\\' if s.get(i + 1) == Some(&b'\n') => i += 2,
            b'\\' if s.get(i + 1..i + 3) == Some(b"\r\n") => i += 3,
            _ => break,
        }
    }
    i
}

/// Whether the `#define` uses `\`-newline continuations anywhere.
pub fn is_continued(def: &[u8]) -> bool {
    memchr::memmem::find(def, b"\\\n").is_some() || memchr::memmem::find(def, b"\\\r\n").is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_read_with_variadics() {
        assert_eq!(
            parameters(b" a, b ,..."),
            vec![b"a".to_vec(), b"b".to_vec(), b"__VA_ARGS__".to_vec()]
        );
        assert_eq!(parameters(b"rest..."), vec![b"rest".to_vec()]);
        assert!(parameters(b" ").is_empty());
    }

    #[test]
    fn only_quoted_includes_are_local() {
        assert_eq!(
            quoted_include(b" \"ptx/ops.h\" // x"),
            Some(b"ptx/ops.h".to_vec())
        );
        assert_eq!(quoted_include(b" <cuda.h>"), None);
    }

    #[test]
    fn continuation_detection_handles_crlf() {
        assert!(is_continued(b"#define A \\\r\n x"));
        assert!(!is_continued(b"#define A x"));
    }
}
