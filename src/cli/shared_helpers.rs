//! `translate --helpers FILE`: the helpers of every translated file in one shared header.
//!
//! Each rewritten file gets, in place of its helper block, a block that includes the header
//! (`#include "../ptx2hip_helpers.h"`, its path relative to the file, or the name given with
//! `--include-as`) after a `// uses:` line naming the helpers it calls. A file translated before
//! with a block of its own moves to the header: the block gives way to the include. The header
//! is the union of the helpers it already defines and those every processed file's `// uses:`
//! line names, in the rule table's order. Helpers are never removed, since a file of another run
//! may use them; delete the header and translate every file that includes it again to rebuild it
//! with the minimum.
//!
//! The header is written first, atomically, then the files that include it: a run stopped
//! between the two leaves files whose header exists. Its generated part records the mode it was
//! generated for (see [`emit::header`]); a run of another `--emit` or `--target` is refused, since
//! the header re-rendered for it would break the files of the first. Only that generated part is
//! ever rewritten, and only in a file in the header's generated shape: lines the user added
//! around it are kept, a file of any other shape (a translated source, any user file) or a header
//! whose helpers were edited by hand is never overwritten. With `--out-dir` a symbolic link at
//! FILE is refused, never followed. A second run changes nothing, also after a formatter re-laid
//! the header out.

use std::io;
use std::path::{Component, Path, PathBuf};

use super::diff_root::DiffRoot;
use super::write::{self, Original};
use super::{display_path, translate::resolve};
use crate::emit::header::{self, Header};
use crate::emit::{self, diff, EmitMode, Needs};
use crate::lower::{RuleSet, Target};

/// The header a run writes, and what it held before.
pub struct SharedHeader {
    /// As named on the command line.
    path: PathBuf,
    /// Absolute, every link resolved.
    real: PathBuf,
    /// How files include it when not by their relative path (`--include-as`), with delimiters.
    include_as: Option<String>,
    mode: EmitMode,
    target: Target,
    existing: Option<(Original, Header)>,
    /// What it defines once [`SharedHeader::finish`] wrote it.
    defines: Needs,
}

impl SharedHeader {
    /// Reads the header at `path` if it exists: an error if it is not one ptx2hip generated, if
    /// it was generated for another mode than `mode` and `target`, or (with `out_dir`) if it is
    /// a symbolic link.
    pub fn open(
        path: &Path,
        include_as: Option<&str>,
        (mode, target): (EmitMode, Target),
        rules: &RuleSet,
        out_dir: bool,
    ) -> Result<SharedHeader, String> {
        let shown = path.display();
        let failed = |e: io::Error| format!("--helpers {shown}: {e}");
        let include_as = include_as.map(spell).transpose()?;
        let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
        if out_dir && is_link {
            return Err(format!(
                "--helpers {shown}: is a symbolic link: with --out-dir ptx2hip writes no file through a link (name the file itself)"
            ));
        }
        let real = resolve(path).map_err(failed)?;
        let existing = match Original::read(path) {
            Ok(o) => {
                let h = header::read(o.bytes(), rules).ok_or_else(|| {
                    format!(
                        "--helpers {shown}: the file exists and is not a helper header ptx2hip wrote: not overwritten (name a new file or a header ptx2hip wrote)"
                    )
                })?;
                if (h.mode, h.target) != (mode, target) {
                    return Err(format!(
                        "--helpers {shown}: the header is for {}, this run asks for {}: its files would stop compiling with a header re-generated for another mode: not changed (name another header for this mode)",
                        header::describe(h.mode, h.target),
                        header::describe(mode, target)
                    ));
                }
                Some((o, h))
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(failed(e)),
        };
        let defines = existing
            .as_ref()
            .map(|(_, h)| h.needs.clone())
            .unwrap_or_default();
        Ok(SharedHeader {
            path: path.to_path_buf(),
            real,
            include_as,
            mode,
            target,
            existing,
            defines,
        })
    }

    /// Whether `file` is the header itself (never translated as an input).
    pub fn is(&self, file: &Path) -> bool {
        std::fs::canonicalize(file).is_ok_and(|f| f == self.real)
    }

    /// The header as named on the command line.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether files include the header by their relative path (no `--include-as`).
    pub fn by_relative_path(&self) -> bool {
        self.include_as.is_none()
    }

    /// Whether the header lies under the directory `tree` (absolute, links resolved).
    pub fn is_under(&self, tree: &Path) -> bool {
        self.real.starts_with(tree)
    }

    /// How a file written at `file` (absolute, links resolved) includes the header, with the
    /// delimiters: `"<its path relative to the file>"`, or the `--include-as` name.
    pub fn include_from(&self, file: &Path) -> Result<String, String> {
        if let Some(name) = &self.include_as {
            return Ok(name.clone());
        }
        let dir = file.parent().unwrap_or(Path::new("/"));
        let from: Vec<Component> = dir.components().collect();
        let to: Vec<Component> = self.real.components().collect();
        let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
        let mut parts: Vec<&str> = vec![".."; from.len() - common];
        for c in &to[common..] {
            parts.extend(c.as_os_str().to_str());
        }
        let spelled = format!("\"{}\"", parts.join("/"));
        let readable = to[common..]
            .iter()
            .all(|c| c.as_os_str().to_str().is_some());
        if !readable || !emit::include_spelling(&spelled) {
            return Err(format!(
                "--helpers {}: the path cannot be written in an #include (not UTF-8, or a quote, backslash or control character)",
                self.path.display()
            ));
        }
        Ok(spelled)
    }

    /// Whether the header defines everything `used` needs.
    pub fn defines(&self, used: &Needs) -> bool {
        has_all(&self.defines, used)
    }

    /// Writes the header defining what it defined and `used` (what every file that will
    /// include it needs): as a diff into `diff_out` when `diff_root` is given, else as a file.
    /// Nothing when it defines all that already.
    pub fn finish(
        &mut self,
        used: &Needs,
        rules: &RuleSet,
        diff_root: Option<&DiffRoot>,
        diff_out: &mut Vec<u8>,
    ) -> Result<(), String> {
        let shown = display_path(&self.path);
        match &self.existing {
            Some((_, h)) if has_all(&h.needs, used) => return Ok(()),
            Some((_, h)) if !h.as_generated => {
                return Err(format!(
                    "{shown}: the header's helper block differs from what ptx2hip generates for its helpers (edited by hand, or written by another version) and lacks helpers this run needs: not changed (delete the block, or the header, to have it generated again)"
                ))
            }
            None if used.names.is_empty() && !used.macro_guards => return Ok(()),
            _ => {}
        }
        let mut needs = self.defines.clone();
        needs.merge(used);
        let old = self.existing.as_ref().map(|(o, h)| (o.bytes(), h));
        let new = header::render(old, rules, &needs, self.mode, self.target);
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
                        diff::write_unified(diff_out, &name, o.bytes(), &new, &[all])
                    }
                    None => diff::write_creation(diff_out, &name, &new),
                }
                .map_err(failed)?
            }
            (None, Some((o, _))) => o.replace(&new, None).map_err(failed)?,
            (None, None) => write::create(&self.path, &new).map_err(failed)?,
        }
        self.defines = needs;
        Ok(())
    }
}

/// `--include-as NAME` with its delimiters: `<NAME>` and `"NAME"` as written, any other NAME
/// in quotes.
fn spell(name: &str) -> Result<String, String> {
    let spelled = if name.starts_with(['<', '"']) {
        name.to_string()
    } else {
        format!("\"{name}\"")
    };
    if emit::include_spelling(&spelled) {
        Ok(spelled)
    } else {
        Err(format!(
            "--include-as {name}: not a header name an #include can hold (write NAME, \"NAME\" or <NAME>, without quotes, backslashes or control characters inside)"
        ))
    }
}

/// Whether `defined` holds every helper of `used`.
fn has_all(defined: &Needs, used: &Needs) -> bool {
    used.names.iter().all(|n| defined.names.contains(n))
        && (!used.macro_guards || defined.macro_guards)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header_at(real: &str, include_as: Option<&str>) -> SharedHeader {
        SharedHeader {
            path: PathBuf::from(real),
            real: PathBuf::from(real),
            include_as: include_as.map(|n| spell(n).unwrap()),
            mode: EmitMode::Guarded,
            target: Target::Amd,
            existing: None,
            defines: Needs::default(),
        }
    }

    #[test]
    fn the_include_path_is_relative_to_the_including_file() {
        let h = header_at("/p/include/ptx2hip_helpers.h", None);
        let from = |f: &str| h.include_from(Path::new(f)).unwrap();
        assert_eq!(from("/p/include/a.cuh"), "\"ptx2hip_helpers.h\"");
        assert_eq!(from("/p/src/k/a.cu"), "\"../../include/ptx2hip_helpers.h\"");
        assert_eq!(from("/p/a.cu"), "\"include/ptx2hip_helpers.h\"");
    }

    #[test]
    fn a_path_an_include_cannot_hold_is_an_error() {
        let h = header_at("/p/a\"b/ptx2hip_helpers.h", None);
        assert!(h.include_from(Path::new("/p/a.cu")).is_err());
    }

    #[test]
    fn an_include_name_is_written_as_given_from_every_file() {
        for (given, spelled) in [
            ("ptx2hip_helpers.h", "\"ptx2hip_helpers.h\""),
            ("<deep_ep/ptx2hip_helpers.h>", "<deep_ep/ptx2hip_helpers.h>"),
            ("\"x/h.h\"", "\"x/h.h\""),
        ] {
            let h = header_at("/p/csrc/ptx2hip_helpers.h", Some(given));
            assert_eq!(
                h.include_from(Path::new("/p/include/a/b.h")).unwrap(),
                spelled
            );
        }
        for bad in ["<a.h", "a\".h", "<a>b>", "", "a\nb"] {
            assert!(spell(bad).is_err(), "{bad:?}");
        }
    }
}
