//! Which files to leave out: `exclude` patterns (configuration and `--exclude`) and `--glob`s.
//!
//! Both apply to every file, the ones named on the command line included: pre-commit and editors
//! name files one by one, and an excluded `third_party/` file must stay excluded then too (Ruff
//! needs `--force-exclude` for this; here it is the only behaviour).
//!
//! - An exclude pattern has gitignore syntax, relative to its root (the configuration file's
//!   directory, or the working directory for `--exclude`): `build/` leaves out every directory
//!   named `build`, `/gen` only the one at the root, `*.gen.cu` such files anywhere. A file is
//!   left out when it or a directory above it matches.
//! - `--glob` works as ripgrep's: a glob keeps only the files it matches (several: any of them),
//!   `!glob` leaves matching files out, the last matching glob decides, relative to the working
//!   directory.

use std::path::{Path, PathBuf};

use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::overrides::{Override, OverrideBuilder};

/// The compiled patterns.
#[derive(Debug)]
pub struct Filter {
    excludes: Vec<Gitignore>,
    globs: Option<(PathBuf, Override)>,
}

impl Filter {
    /// `excludes`: each root with its patterns; `globs` relative to `cwd`. A pattern that is not
    /// a valid glob is an error naming it.
    pub fn new(
        excludes: &[(PathBuf, Vec<String>)],
        globs: &[String],
        cwd: &Path,
    ) -> Result<Filter, String> {
        let mut compiled = Vec::new();
        for (root, patterns) in excludes.iter().filter(|(_, p)| !p.is_empty()) {
            let mut b = GitignoreBuilder::new(root);
            for p in patterns {
                b.add_line(None, p)
                    .map_err(|e| format!("exclude pattern `{p}`: {e}"))?;
            }
            compiled.push(b.build().map_err(|e| e.to_string())?);
        }
        let globs = if globs.is_empty() {
            None
        } else {
            let mut b = OverrideBuilder::new(cwd);
            for g in globs {
                b.add(g).map_err(|e| format!("glob `{g}`: {e}"))?;
            }
            Some((cwd.to_path_buf(), b.build().map_err(|e| e.to_string())?))
        };
        Ok(Filter {
            excludes: compiled,
            globs,
        })
    }

    /// Whether the file at `path` (relative to the working directory, or absolute) is kept.
    pub fn keeps(&self, path: &Path) -> bool {
        // Asked of every file the walk finds: without patterns, nothing to make absolute.
        if self.excludes.is_empty() && self.globs.is_none() {
            return true;
        }
        let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        !self.excludes_entry(&path, false) && self.globs_keep(&path)
    }

    /// Whether no exclude pattern leaves out the directory `dir` (or one above it): a nested
    /// configuration's directory is judged by the configuration above it, as a walk entering it
    /// would be. Globs choose files, not directories.
    pub fn keeps_dir(&self, dir: &Path) -> bool {
        if self.excludes.is_empty() {
            return true;
        }
        let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
        !self.excludes_entry(&dir, true)
    }

    fn excludes_entry(&self, path: &Path, is_dir: bool) -> bool {
        self.excludes.iter().any(|gi| {
            path.starts_with(gi.path()) && gi.matched_path_or_any_parents(path, is_dir).is_ignore()
        })
    }

    /// ripgrep's override semantics for one file: a directory above it that a `!glob` matches
    /// leaves it out, then the file's own match decides.
    fn globs_keep(&self, path: &Path) -> bool {
        let Some((root, globs)) = &self.globs else {
            return true;
        };
        let Ok(relative) = path.strip_prefix(root) else {
            // Outside the working directory no glob can name it; positive globs still require a
            // match, as ripgrep's would.
            return !globs.matched(path, false).is_ignore();
        };
        let dirs: Vec<&Path> = relative
            .ancestors()
            .skip(1)
            .filter(|d| !d.as_os_str().is_empty())
            .collect();
        if dirs
            .iter()
            .rev()
            .any(|d| globs.matched(d, true).is_ignore())
        {
            return false;
        }
        !globs.matched(relative, false).is_ignore()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filter(excludes: &[&str], globs: &[&str]) -> Filter {
        let root = PathBuf::from("/r");
        Filter::new(
            &[(
                root.clone(),
                excludes.iter().map(|s| s.to_string()).collect(),
            )],
            &globs.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            &root,
        )
        .unwrap()
    }

    fn keeps(f: &Filter, path: &str) -> bool {
        f.keeps(Path::new(path))
    }

    #[test]
    fn nothing_is_left_out_without_patterns() {
        let f = filter(&[], &[]);
        assert!(keeps(&f, "/r/a.cu"));
        assert!(keeps(&f, "/elsewhere/a.cu"));
    }

    #[test]
    fn exclude_patterns_have_gitignore_semantics() {
        let f = filter(&["third_party/", "/gen", "*.gen.cu"], &[]);
        assert!(!keeps(&f, "/r/third_party/x/k.cu"));
        assert!(!keeps(&f, "/r/src/third_party/k.cu"));
        assert!(!keeps(&f, "/r/gen/k.cu"));
        assert!(keeps(&f, "/r/src/gen/k.cu"));
        assert!(!keeps(&f, "/r/src/k.gen.cu"));
        assert!(keeps(&f, "/r/src/k.cu"));
        assert!(keeps(&f, "/other/third_party/k.cu"), "outside the root");
    }

    #[test]
    fn a_directory_is_judged_as_a_directory() {
        let f = filter(&["third_party/", "*.gen.cu"], &["*.cu"]);
        assert!(!f.keeps_dir(Path::new("/r/third_party")));
        assert!(!f.keeps_dir(Path::new("/r/third_party/nested")));
        assert!(f.keeps_dir(Path::new("/r/src")), "globs choose files only");
        assert!(
            !f.keeps_dir(Path::new("/r/old.gen.cu")),
            "a pattern without a slash matches directories too, as in .gitignore"
        );
    }

    #[test]
    fn negated_exclude_patterns_keep_files_back() {
        let f = filter(&["*.cuh", "!keep.cuh"], &[]);
        assert!(!keeps(&f, "/r/a.cuh"));
        assert!(keeps(&f, "/r/keep.cuh"));
    }

    #[test]
    fn globs_keep_only_what_they_match_and_bang_globs_leave_out() {
        let f = filter(&[], &["*.cu"]);
        assert!(keeps(&f, "/r/src/k.cu"));
        assert!(!keeps(&f, "/r/src/k.cuh"));
        let f = filter(&[], &["!vendor/**", "!*.cuh"]);
        assert!(!keeps(&f, "/r/vendor/x/k.cu"));
        assert!(!keeps(&f, "/r/src/k.cuh"));
        assert!(keeps(&f, "/r/src/k.cu"));
        let f = filter(&[], &["!legacy/"]);
        assert!(!keeps(&f, "/r/legacy/k.cu"), "a directory glob prunes");
        assert!(keeps(&f, "/r/k.cu"));
    }

    #[test]
    fn a_bad_pattern_is_an_error_naming_it() {
        let e = Filter::new(&[], &["a{b".to_string()], Path::new("/r")).unwrap_err();
        assert!(e.contains("glob `a{b`"), "{e}");
    }
}
