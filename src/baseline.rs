//! Baselines: adopt the lint on a tree with known findings, and fail only on new ones.
//!
//! `check --write-baseline FILE` records every finding; `check --baseline FILE` then reports only
//! the findings the file does not hold. A finding is recorded by its file, its code and a
//! fingerprint of its statement's text, never by line numbers: code added above a known finding
//! moves it without making it new, while a new statement with the same problem is new. Identical
//! statements of one file are counted, so a copy of a known statement is new too.
//!
//! Files are recorded relative to the baseline's directory, so the baseline matches whichever
//! directory `check` runs from and wherever the tree is checked out.

use std::collections::{BTreeMap, HashSet};
use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::report::Diagnostic;
use crate::walk::lexically_absolute;

/// The format written, for a reader to check.
const VERSION: u32 = 1;

/// What identifies a finding across edits.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Key {
    /// The file, relative to the baseline's directory, `/`-separated (`../src/k.cu`).
    pub file: String,
    pub code: String,
    pub fingerprint: String,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    version: u32,
    findings: Vec<Entry>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    file: String,
    code: String,
    fingerprint: String,
    /// How many identical statements of the file have this finding.
    count: usize,
}

/// A baseline's findings, counted.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Baseline {
    /// The directory recorded files are relative to.
    pub dir: PathBuf,
    counts: BTreeMap<Key, usize>,
}

impl Baseline {
    /// An empty baseline for a file at `path`.
    pub fn new(path: &Path) -> Baseline {
        Baseline {
            dir: directory_of(path),
            counts: BTreeMap::new(),
        }
    }

    /// Reads the baseline at `path`; the error names the file.
    pub fn read(path: &Path) -> Result<Baseline, String> {
        let shown = path.display();
        let text = std::fs::read_to_string(path).map_err(|e| format!("{shown}: {e}"))?;
        let file: File = serde_json::from_str(&text)
            .map_err(|e| format!("{shown}: not a ptx2hip baseline: {e}"))?;
        if file.version != VERSION {
            return Err(format!(
                "{shown}: baseline version {} (this ptx2hip reads version {VERSION})",
                file.version
            ));
        }
        let mut b = Baseline::new(path);
        for e in file.findings {
            let key = Key {
                file: e.file,
                code: e.code,
                fingerprint: e.fingerprint,
            };
            *b.counts.entry(key).or_default() += e.count;
        }
        Ok(b)
    }

    /// The text of the baseline file: sorted, so that it diffs well under version control.
    pub fn to_json(&self) -> String {
        let findings = self
            .counts
            .iter()
            .map(|(k, &count)| Entry {
                file: k.file.clone(),
                code: k.code.clone(),
                fingerprint: k.fingerprint.clone(),
                count,
            })
            .collect();
        let file = File {
            version: VERSION,
            findings,
        };
        let mut text = serde_json::to_string_pretty(&file).unwrap_or_default();
        text.push('\n');
        text
    }

    /// The key of a finding in the file at `path`.
    pub fn key(&self, path: &Path, d: &Diagnostic) -> Key {
        Key {
            file: relative_to(path, &self.dir),
            code: d.code.as_str().to_string(),
            fingerprint: d.fingerprint.clone(),
        }
    }

    /// How the baseline names the file at `path`.
    pub fn file_of(&self, path: &Path) -> String {
        relative_to(path, &self.dir)
    }

    /// Whether the run that gives `seen` (files as the baseline names them) speaks for the
    /// recorded `file`: it checked the file, or the file no longer exists. A run over a subset of
    /// the tree (pre-commit passes the changed files) knows nothing of the others' findings.
    fn covered(&self, file: &str, seen: &HashSet<String>) -> bool {
        seen.contains(file) || !self.dir.join(file).exists()
    }

    /// How many of its findings lie in files the run covered (see `covered`): the findings a run
    /// that matched fewer can call gone.
    pub fn len_covered(&self, seen: &HashSet<String>) -> usize {
        self.counts
            .iter()
            .filter(|(k, _)| self.covered(&k.file, seen))
            .map(|(_, n)| n)
            .sum()
    }

    /// Adds the findings `previous` recorded for files this run did not cover: writing the
    /// baseline of a partial run keeps what it did not look at.
    pub fn keep_uncovered(&mut self, previous: &Baseline, seen: &HashSet<String>) {
        for (k, &n) in &previous.counts {
            if !previous.covered(&k.file, seen) {
                let file = relative_to(&previous.dir.join(&k.file), &self.dir);
                let key = Key { file, ..k.clone() };
                *self.counts.entry(key).or_default() += n;
            }
        }
    }

    pub fn add(&mut self, key: Key) {
        *self.counts.entry(key).or_default() += 1;
    }

    /// How many findings with `key` the baseline holds.
    pub fn count(&self, key: &Key) -> usize {
        self.counts.get(key).copied().unwrap_or(0)
    }

    /// How many findings it holds.
    pub fn len(&self) -> usize {
        self.counts.values().sum()
    }

    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }
}

/// The directory a file at `path` lies in, absolute.
fn directory_of(path: &Path) -> PathBuf {
    let absolute = lexically_absolute(path);
    absolute.parent().map(Path::to_path_buf).unwrap_or(absolute)
}

/// `path` relative to `dir` (with `..` where it lies outside), `/`-separated: the same tree
/// checked out elsewhere gives the same text.
fn relative_to(path: &Path, dir: &Path) -> String {
    let absolute = lexically_absolute(path);
    let target: Vec<Component> = absolute.components().collect();
    let base: Vec<Component> = dir.components().collect();
    let common = target.iter().zip(&base).take_while(|(a, b)| a == b).count();
    let up = std::iter::repeat_n("..".to_string(), base.len() - common);
    let down = target[common..]
        .iter()
        .map(|c| c.as_os_str().to_string_lossy().into_owned());
    up.chain(down).collect::<Vec<_>>().join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_recorded_relative_to_the_baseline() {
        let b = Baseline::new(Path::new("/repo/ci/baseline.json"));
        assert_eq!(
            relative_to(Path::new("/repo/ci/src/a.cu"), &b.dir),
            "src/a.cu"
        );
        assert_eq!(
            relative_to(Path::new("/repo/ci/./src/../b.cu"), &b.dir),
            "b.cu"
        );
        assert_eq!(
            relative_to(Path::new("/repo/src/a.cu"), &b.dir),
            "../src/a.cu"
        );
        assert_eq!(
            relative_to(Path::new("/elsewhere/a.cu"), &b.dir),
            "../../elsewhere/a.cu"
        );
    }

    #[test]
    fn a_written_baseline_reads_back_with_its_counts() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("baseline.json");
        let mut b = Baseline::new(&path);
        let at = crate::report::Location::find(b"", 0, 1, 0);
        let d = Diagnostic::at(
            crate::codes::Code::UnknownInstruction,
            "a.cu",
            at,
            "m".into(),
        );
        let k = b.key(&dir.path().join("a.cu"), &d);
        b.add(k.clone());
        b.add(k.clone());
        std::fs::write(&path, b.to_json()).unwrap();
        let read = Baseline::read(&path).unwrap();
        assert_eq!(read.count(&k), 2);
        assert_eq!(read.len(), 2);
        assert_eq!(k.file, "a.cu");
    }

    #[test]
    fn a_file_that_is_not_a_baseline_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("b.json");
        std::fs::write(&path, "[]").unwrap();
        let e = Baseline::read(&path).unwrap_err();
        assert!(e.contains("b.json: not a ptx2hip baseline"), "{e}");
        std::fs::write(&path, r#"{"version": 9, "findings": []}"#).unwrap();
        assert!(Baseline::read(&path).unwrap_err().contains("version 9"));
    }
}
