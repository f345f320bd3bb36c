//! `translate --helpers FILE`: the helpers of every translated file in one shared header.
//!
//! Each rewritten file gets, in place of its helper block, a block that includes the header by
//! its path relative to the file (`#include "../ptx2hip_helpers.h"`) after a `// uses:` line
//! naming the helpers it calls. The header is written after the files: the union of the helpers
//! it already defines and those every processed file's `// uses:` line names, in the rule
//! table's order. Helpers are never removed, since a file of another run may use them; delete
//! the header and translate every file that includes it again to rebuild it with the minimum.
//! A second run changes nothing, also after a formatter re-laid the header out. The header is written as the run writes files (a diff that
//! creates or changes it, in place, or at FILE beside the `--out-dir` copies); a file of that
//! name that is not a generated header is never overwritten.

use std::io;
use std::path::{Component, Path, PathBuf};

use super::diff_root::DiffRoot;
use super::write::{self, Original};
use super::{display_path, translate::resolve};
use crate::emit::{self, diff, EmitMode, Needs};
use crate::lower::{RuleSet, Target};

/// The header a run writes, and what it held before.
pub struct SharedHeader {
    /// As named on the command line.
    path: PathBuf,
    /// Absolute, every link resolved.
    real: PathBuf,
    existing: Option<(Original, Needs)>,
}

impl SharedHeader {
    /// Reads the header at `path` if it exists; an error if it is not one ptx2hip generated.
    pub fn open(path: &Path) -> Result<SharedHeader, String> {
        let failed = |e: io::Error| format!("--helpers {}: {e}", path.display());
        let real = resolve(path).map_err(failed)?;
        let existing = match Original::read(path) {
            Ok(o) => {
                let needs = emit::needs_of(o.bytes())
                    .filter(|n| !n.shared)
                    .ok_or_else(|| {
                        format!(
                        "--helpers {}: the file exists and is not a helper header ptx2hip wrote: \
                         not overwritten",
                        path.display()
                    )
                    })?;
                Some((o, needs))
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(failed(e)),
        };
        Ok(SharedHeader {
            path: path.to_path_buf(),
            real,
            existing,
        })
    }

    /// Whether `file` is the header itself (never translated as an input).
    pub fn is(&self, file: &Path) -> bool {
        std::fs::canonicalize(file).is_ok_and(|f| f == self.real)
    }

    /// The path that a file written at `file` (absolute, links resolved) includes the header by.
    pub fn include_from(&self, file: &Path) -> Result<String, String> {
        let dir = file.parent().unwrap_or(Path::new("/"));
        let from: Vec<Component> = dir.components().collect();
        let to: Vec<Component> = self.real.components().collect();
        let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
        let mut parts: Vec<&str> = vec![".."; from.len() - common];
        for c in &to[common..] {
            let name = c.as_os_str().to_str().filter(|n| {
                !n.bytes()
                    .any(|b| matches!(b, b'"' | b'\\' | b'\n' | b'\r') || b < 0x20)
            });
            parts.push(name.ok_or_else(|| {
                format!(
                    "--helpers {}: the path cannot be written in an #include (not UTF-8, or a quote, backslash or control character)",
                    self.path.display()
                )
            })?);
        }
        Ok(parts.join("/"))
    }

    /// Writes the header defining what it defined and `used` (the needs of every processed
    /// file that includes it): as a diff into `diff_out` when `diff_root` is given, else as a
    /// file. Nothing when that is what it holds already.
    pub fn finish(
        &self,
        used: &Needs,
        rules: &RuleSet,
        mode: EmitMode,
        target: Target,
        diff_root: Option<&DiffRoot>,
        diff_out: &mut Vec<u8>,
    ) -> Result<(), String> {
        let mut needs = Needs::default();
        if let Some((_, old)) = &self.existing {
            needs.merge(old);
        }
        needs.merge(used);
        let old = self.existing.as_ref().map(|(o, _)| o.bytes());
        if old.is_none() && needs.names.is_empty() && !needs.macro_guards {
            return Ok(());
        }
        let new = emit::render_header(rules, &needs, mode, target, "\n");
        // The same header in whatever layout a formatter gave it is left as it is.
        if old.is_some_and(|old| emit::same_up_to_layout(old, new.as_bytes())) {
            return Ok(());
        }
        let shown = display_path(&self.path);
        let failed = |e: io::Error| format!("{shown}: {e}");
        match (diff_root, &self.existing) {
            (Some(root), existing) => {
                let name = root.name(&self.path).map_err(|e| format!("{shown}: {e}"))?;
                match existing {
                    Some((o, _)) => {
                        let all = emit::Splice {
                            old: 0..o.bytes().len(),
                            new: 0..new.len(),
                        };
                        diff::write_unified(diff_out, &name, o.bytes(), new.as_bytes(), &[all])
                    }
                    None => diff::write_creation(diff_out, &name, new.as_bytes()),
                }
                .map_err(failed)
            }
            (None, Some((o, _))) => o.replace(new.as_bytes(), None).map_err(failed),
            (None, None) => write::create(&self.path, new.as_bytes()).map_err(failed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header_at(real: &str) -> SharedHeader {
        SharedHeader {
            path: PathBuf::from(real),
            real: PathBuf::from(real),
            existing: None,
        }
    }

    #[test]
    fn the_include_path_is_relative_to_the_including_file() {
        let h = header_at("/p/include/ptx2hip_helpers.h");
        let from = |f: &str| h.include_from(Path::new(f)).unwrap();
        assert_eq!(from("/p/include/a.cuh"), "ptx2hip_helpers.h");
        assert_eq!(from("/p/src/k/a.cu"), "../../include/ptx2hip_helpers.h");
        assert_eq!(from("/p/a.cu"), "include/ptx2hip_helpers.h");
    }

    #[test]
    fn a_path_an_include_cannot_hold_is_an_error() {
        let h = header_at("/p/a\"b/ptx2hip_helpers.h");
        assert!(h.include_from(Path::new("/p/a.cu")).is_err());
    }
}
