//! Which finding codes `check` reports, as Ruff selects its rules: `select`, `ignore` and
//! `[per-file-ignores]` of ptx2hip.toml, then `--select`, `--extend-select`, `--ignore` and
//! `--per-file-ignores` on the command line.
//!
//! - A selector is a finding code (`U001`), a prefix of codes (`U` every U code, `U01` U010 to
//!   U019) or `ALL`, in any case. A selector that selects no code is an error, never ignored: a
//!   misspelt `ignore` must not silently report what it meant to silence.
//! - By default every code is reported but `L001` (unused suppressions: `select` it, `--select
//!   ALL` or `--report-unused-suppressions`).
//! - Each layer (the file's configuration, then the command line) changes what the one before
//!   left: its `select` replaces it, its `extend-select` adds to it and its `ignore` takes from
//!   it. Within a layer the most specific selector matching a code decides (`select = ["U"]`,
//!   `ignore = ["U003"]` reports every U code but U003; `ignore = ["U"]`, `extend-select =
//!   ["U003"]` only U003 of them); between a selector and an ignore as specific, the ignore wins.
//! - A per-file ignore takes its codes from the files its pattern matches, whatever the layers
//!   selected. Its pattern has the syntax of `exclude` (gitignore's, relative to the
//!   configuration file's directory, or to the working directory for `--per-file-ignores`):
//!   `tests/` every file under a directory named `tests`, `*.cuh` such files anywhere,
//!   `/legacy/*.cu` those directly in `legacy` at the root.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::codes::Code;
use crate::filter::Filter;

/// A finding code, a prefix of finding codes, or every code (`ALL`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selector {
    /// The prefix, in upper case; empty for `ALL`.
    prefix: String,
}

impl Selector {
    /// Reads `text` (`U001`, `u0`, `ALL`); the error says what the codes are.
    pub fn parse(text: &str) -> Result<Selector, String> {
        let prefix = text.trim().to_ascii_uppercase();
        if prefix == "ALL" {
            return Ok(Selector {
                prefix: String::new(),
            });
        }
        let selector = Selector { prefix };
        if selector.prefix.is_empty() || !Code::ALL.iter().any(|&c| selector.matches(c)) {
            return Err(unknown(text.trim()));
        }
        Ok(selector)
    }

    pub fn matches(&self, code: Code) -> bool {
        code.as_str().starts_with(&self.prefix)
    }

    /// How specific the selector is: a longer prefix decides over a shorter one.
    fn specificity(&self) -> usize {
        self.prefix.len()
    }
}

impl fmt::Display for Selector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.prefix.as_str() {
            "" => f.write_str("ALL"),
            prefix => f.write_str(prefix),
        }
    }
}

/// Why `text` selects nothing, with the codes there are. Rule codes (`I001`, `D012`) are not
/// finding codes: a statement a rule translates is reported as T001.
fn unknown(text: &str) -> String {
    let mut ranges: Vec<(char, &str, &str)> = Vec::new();
    for code in Code::ALL {
        let s = code.as_str();
        let letter = s.chars().next().unwrap_or_default();
        match ranges.last_mut() {
            Some((l, _, last)) if *l == letter => *last = s,
            _ => ranges.push((letter, s, s)),
        }
    }
    let ranges: Vec<String> = ranges
        .iter()
        .map(|(_, first, last)| format!("{first}-{last}"))
        .collect();
    format!(
        "`{text}` is not a finding code, a prefix of finding codes or ALL (the codes are {}; `ptx2hip explain CODE` documents each; translation rules are not selected: a statement one translates is reported as T001)",
        ranges.join(", ")
    )
}

/// Reads a list of selectors (`--select U,T001` gives `["U", "T001"]`).
pub fn parse_list<'a>(texts: impl IntoIterator<Item = &'a str>) -> Result<Vec<Selector>, String> {
    texts.into_iter().map(Selector::parse).collect()
}

/// What one layer (a configuration file, the command line) says.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Selection {
    /// Replaces what the layers before selected.
    pub select: Option<Vec<Selector>>,
    /// Added to it.
    pub extend_select: Vec<Selector>,
    /// Taken from it.
    pub ignore: Vec<Selector>,
}

impl Selection {
    /// Whether `code` is reported once this layer has changed what the layers before decided
    /// (`before`).
    fn decides(&self, code: Code, before: bool) -> bool {
        let most_specific = |selectors: &[Selector]| {
            selectors
                .iter()
                .filter(|s| s.matches(code))
                .map(Selector::specificity)
                .max()
        };
        let selected = most_specific(self.select.as_deref().unwrap_or_default())
            .max(most_specific(&self.extend_select));
        match (selected, most_specific(&self.ignore)) {
            (Some(selected), Some(ignored)) => selected > ignored,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => before && self.select.is_none(),
        }
    }
}

/// Whether `code` is reported by default (every code but unused suppressions).
fn by_default(code: Code) -> bool {
    code != Code::UnusedSuppression
}

/// The codes reported for a file: the defaults as each of `layers` in turn changes them, less
/// those `ignored` for the file (its per-file ignores).
pub fn reported(layers: &[&Selection], ignored: impl Fn(Code) -> bool) -> Vec<Code> {
    Code::ALL
        .iter()
        .copied()
        .filter(|&code| {
            let selected = layers.iter().fold(by_default(code), |before, layer| {
                layer.decides(code, before)
            });
            selected && !ignored(code)
        })
        .collect()
}

/// One per-file ignore as written: a pattern and the codes it takes from the files it matches.
pub type PerFileIgnore = (String, Vec<Selector>);

/// Reads a `--per-file-ignores` value, `PATTERN:CODES` (`tests/:U001,T`): the codes follow the
/// last colon.
pub fn per_file_ignore(text: &str) -> Result<PerFileIgnore, String> {
    let Some((pattern, codes)) = text.rsplit_once(':') else {
        return Err(format!(
            "`{text}` is not PATTERN:CODES (`tests/:U001,T002`)"
        ));
    };
    if pattern.trim().is_empty() {
        return Err(format!("`{text}`: the pattern before `:` is empty"));
    }
    let codes = parse_list(codes.split(',').filter(|c| !c.trim().is_empty()))?;
    if codes.is_empty() {
        return Err(format!("`{text}`: no code after `:`"));
    }
    Ok((pattern.trim().to_string(), codes))
}

/// Per-file ignores compiled against the directory their patterns are relative to.
#[derive(Debug)]
pub struct PerFileIgnores {
    entries: Vec<(Filter, Vec<Selector>)>,
}

impl PerFileIgnores {
    /// A pattern that is not a valid glob is an error naming it.
    pub fn new(root: &Path, entries: &[PerFileIgnore]) -> Result<PerFileIgnores, String> {
        let root = PathBuf::from(root);
        let entries = entries
            .iter()
            .map(|(pattern, codes)| {
                let filter = Filter::new(&[(root.clone(), vec![pattern.clone()])], &[], &root)
                    .map_err(|e| format!("per-file ignore {e}"))?;
                Ok((filter, codes.clone()))
            })
            .collect::<Result<_, String>>()?;
        Ok(PerFileIgnores { entries })
    }

    /// Whether a pattern matching the file at `path` ignores `code`.
    pub fn ignores(&self, path: &Path, code: Code) -> bool {
        self.entries
            .iter()
            .any(|(filter, codes)| codes.iter().any(|s| s.matches(code)) && !filter.keeps(path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn selectors(texts: &[&str]) -> Vec<Selector> {
        parse_list(texts.iter().copied()).unwrap()
    }

    fn layer(select: Option<&[&str]>, extend: &[&str], ignore: &[&str]) -> Selection {
        Selection {
            select: select.map(selectors),
            extend_select: selectors(extend),
            ignore: selectors(ignore),
        }
    }

    fn codes(layers: &[&Selection]) -> Vec<&'static str> {
        reported(layers, |_| false)
            .into_iter()
            .map(Code::as_str)
            .collect()
    }

    #[test]
    fn a_selector_is_a_code_a_prefix_or_all_in_any_case() {
        assert!(Selector::parse("u001")
            .unwrap()
            .matches(Code::UnknownInstruction));
        let u01 = Selector::parse("U01").unwrap();
        assert!(u01.matches(Code::CarryChain) && !u01.matches(Code::UnknownInstruction));
        assert!(Code::ALL
            .iter()
            .all(|&c| Selector::parse("all").unwrap().matches(c)));
        assert_eq!(Selector::parse(" t ").unwrap().to_string(), "T");
    }

    #[test]
    fn a_selector_that_selects_nothing_is_an_error_listing_the_codes() {
        for text in ["X999", "U9", "", "unknown-instruction", "I001"] {
            let e = Selector::parse(text).unwrap_err();
            assert!(e.contains("T001-T003, U001-U"), "{e}");
        }
        let e = Selector::parse("D012").unwrap_err();
        assert!(
            e.contains("`D012` is not a finding code") && e.contains("T001"),
            "{e}"
        );
    }

    #[test]
    fn by_default_every_code_but_unused_suppressions_is_reported() {
        let all = codes(&[]);
        assert_eq!(all.len(), Code::ALL.len() - 1);
        assert!(!all.contains(&"L001"));
        assert!(codes(&[&layer(Some(&["ALL"]), &[], &[])]).contains(&"L001"));
        assert!(codes(&[&layer(None, &["L001"], &[])]).contains(&"L001"));
    }

    #[test]
    fn the_most_specific_selector_decides_and_an_ignore_wins_a_tie() {
        let u_but_u003 = codes(&[&layer(Some(&["U"]), &[], &["U003"])]);
        assert!(u_but_u003.iter().all(|c| c.starts_with('U')));
        assert!(!u_but_u003.contains(&"U003") && u_but_u003.contains(&"U001"));
        assert_eq!(codes(&[&layer(Some(&["U003"]), &[], &["U"])]), ["U003"]);
        assert_eq!(
            codes(&[&layer(Some(&["U01"]), &[], &["U01"])]),
            [] as [&str; 0]
        );
        let extended = codes(&[&layer(None, &["U003"], &["U"])]);
        assert!(extended.contains(&"U003") && !extended.contains(&"U001"));
    }

    #[test]
    fn each_layer_changes_what_the_one_before_left() {
        let config = layer(Some(&["U", "T001"]), &[], &["U002"]);
        assert_eq!(codes(&[&config]).len(), 17);
        let ignore_more = layer(None, &[], &["U01"]);
        let after = codes(&[&config, &ignore_more]);
        assert!(after.contains(&"T001") && after.contains(&"U001"));
        assert!(!after.contains(&"U002") && !after.contains(&"U010"));
        let replaced = layer(Some(&["E"]), &[], &[]);
        assert_eq!(codes(&[&config, &replaced]), ["E001", "E002", "E003"]);
        let added = layer(None, &["U002", "L"], &[]);
        let after = codes(&[&config, &added]);
        assert!(after.contains(&"U002") && after.contains(&"L001") && !after.contains(&"T002"));
    }

    #[test]
    fn per_file_ignores_take_codes_from_the_files_their_pattern_matches() {
        let entries = [
            per_file_ignore("tests/:U001,T").unwrap(),
            per_file_ignore("/legacy/*.cu:ALL").unwrap(),
        ];
        let ignores = PerFileIgnores::new(Path::new("/r"), &entries).unwrap();
        let ignores = |path: &str, code| ignores.ignores(Path::new(path), code);
        assert!(ignores("/r/src/tests/k.cu", Code::UnknownInstruction));
        assert!(ignores("/r/tests/k.cu", Code::SameWaveWait));
        assert!(!ignores("/r/tests/k.cu", Code::ModifierCombination));
        assert!(!ignores("/r/src/k.cu", Code::UnknownInstruction));
        assert!(ignores("/r/legacy/k.cu", Code::BinaryFile));
        assert!(
            !ignores("/r/src/legacy/k.cu", Code::BinaryFile),
            "anchored at the root"
        );
    }

    #[test]
    fn a_per_file_ignore_needs_a_pattern_and_codes_after_the_last_colon() {
        let (pattern, codes) = per_file_ignore("c:/w/*.cu:U001, U002").unwrap();
        assert_eq!((pattern.as_str(), codes.len()), ("c:/w/*.cu", 2));
        assert!(per_file_ignore("tests/")
            .unwrap_err()
            .contains("PATTERN:CODES"));
        assert!(per_file_ignore(":U001").unwrap_err().contains("pattern"));
        assert!(per_file_ignore("tests/:").unwrap_err().contains("no code"));
        assert!(per_file_ignore("tests/:X1").unwrap_err().contains("`X1`"));
    }
}
