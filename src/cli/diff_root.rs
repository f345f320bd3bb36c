//! The names in a diff: each file relative to a root, so that `git apply` run there (or
//! `patch -p1`) finds it, never `a//abs/path` or `a/../x`.
//!
//! The root is `--diff-root` when given (a file outside it is an error), else the root of the git
//! repository holding the file (the nearest ancestor with a `.git`), else the current directory
//! when the file is under it, else the file's own directory.

use std::path::{Component, Path, PathBuf};

pub struct DiffRoot {
    explicit: Option<PathBuf>,
    cwd: PathBuf,
}

impl DiffRoot {
    pub fn new(explicit: Option<&Path>) -> std::io::Result<DiffRoot> {
        Ok(DiffRoot {
            explicit: explicit.map(absolute).transpose()?,
            cwd: absolute(Path::new("."))?,
        })
    }

    /// The directory the name of `file` in the diff is relative to.
    pub fn root(&self, file: &Path) -> Result<PathBuf, String> {
        let file = absolute(file).map_err(|e| e.to_string())?;
        Ok(match &self.explicit {
            Some(root) => root.clone(),
            None => repository_root(&file)
                .or_else(|| file.starts_with(&self.cwd).then(|| self.cwd.clone()))
                .unwrap_or_else(|| file.parent().unwrap_or(Path::new("/")).to_path_buf()),
        })
    }

    /// The name of `file` in the diff header, as bytes (a name need not be UTF-8).
    pub fn name(&self, file: &Path) -> Result<Vec<u8>, String> {
        let root = self.root(file)?;
        let file = absolute(file).map_err(|e| e.to_string())?;
        let relative = file.strip_prefix(&root).map_err(|_| {
            format!(
                "the file is outside --diff-root {}: a diff could not name it",
                root.display()
            )
        })?;
        let mut name = Vec::new();
        for (i, c) in relative.components().enumerate() {
            if i > 0 {
                name.push(b'/');
            }
            name.extend_from_slice(&bytes(c.as_os_str()));
        }
        Ok(name)
    }
}

/// The nearest ancestor directory of `file` that holds a `.git` (a directory, or a file for a
/// worktree or submodule).
fn repository_root(file: &Path) -> Option<PathBuf> {
    file.ancestors()
        .skip(1)
        .find(|d| d.join(".git").exists())
        .map(Path::to_path_buf)
}

/// `path` made absolute with `.` and `..` resolved by name (as a shell user reads them).
fn absolute(path: &Path) -> std::io::Result<PathBuf> {
    let mut out = PathBuf::new();
    for c in std::path::absolute(path)?.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            c => out.push(c),
        }
    }
    Ok(out)
}

#[cfg(unix)]
fn bytes(s: &std::ffi::OsStr) -> Vec<u8> {
    use std::os::unix::ffi::OsStrExt;
    s.as_bytes().to_vec()
}

#[cfg(not(unix))]
fn bytes(s: &std::ffi::OsStr) -> Vec<u8> {
    s.to_string_lossy().replace('\\', "/").into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_relative_to_the_repository_root_with_dot_dot_resolved() {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("repo");
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::create_dir_all(repo.join("src/sub")).unwrap();
        let roots = DiffRoot::new(None).unwrap();
        assert_eq!(
            roots.name(&repo.join("src/sub/../k.cu")).unwrap(),
            b"src/k.cu"
        );
        let explicit = DiffRoot::new(Some(&repo.join("src"))).unwrap();
        assert_eq!(explicit.name(&repo.join("src/k.cu")).unwrap(), b"k.cu");
        assert!(explicit.name(&dir.path().join("x.cu")).is_err());
    }

    #[test]
    fn outside_any_repository_and_the_current_directory_the_name_is_the_file_name() {
        let dir = tempfile::tempdir().unwrap();
        let roots = DiffRoot {
            explicit: None,
            cwd: PathBuf::from("/nonexistent/cwd"),
        };
        assert_eq!(roots.name(&dir.path().join("k.cu")).unwrap(), b"k.cu");
    }
}
