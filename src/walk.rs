//! Walk: the source files to process.
//!
//! Directories are walked in parallel and honour `.gitignore` (the `ignore` crate, as ripgrep does);
//! files named explicitly are always processed, whatever their extension. A file reached through
//! several of the given paths (`a.cu ./a.cu`, `src src/kernels`) is processed once, as found under
//! the first of them: two workers must never rewrite the same file.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Extensions processed by default when walking directories.
pub const DEFAULT_EXTENSIONS: &[&str] = &[
    "cu", "cuh", "h", "hpp", "hh", "cpp", "cc", "cxx", "inl", "hip",
];

/// One file to process and the root it was found under (for `--out-dir` mirroring).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct SourceFile {
    pub path: PathBuf,
    /// Path relative to the walked root (the file name for a file named explicitly).
    pub relative: PathBuf,
}

/// Collects the files under `paths`, sorted by path; walk errors are returned alongside, not fatal.
pub fn collect(paths: &[PathBuf], extensions: &[String]) -> (Vec<SourceFile>, Vec<String>) {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    let mut seen = HashSet::new();
    for root in paths {
        let (found, errs) = collect_root(root, extensions);
        errors.extend(errs);
        if paths.len() == 1 {
            files = found;
            break;
        }
        for file in found {
            let real = std::fs::canonicalize(&file.path).unwrap_or_else(|_| file.path.clone());
            if seen.insert(real) {
                files.push(file);
            }
        }
    }
    files.sort();
    (files, errors)
}

/// The files under one path: the path itself if it is a file, else the walk of the directory.
fn collect_root(root: &Path, extensions: &[String]) -> (Vec<SourceFile>, Vec<String>) {
    if root.is_file() {
        let relative = root
            .file_name()
            .map(PathBuf::from)
            .unwrap_or_else(|| root.to_path_buf());
        let file = SourceFile {
            path: root.to_path_buf(),
            relative,
        };
        return (vec![file], Vec::new());
    }
    if !root.exists() {
        let error = format!("{}: no such file or directory", root.display());
        return (Vec::new(), vec![error]);
    }
    let files = Mutex::new(Vec::new());
    let errors = Mutex::new(Vec::new());
    ignore::WalkBuilder::new(root).build_parallel().run(|| {
        Box::new(|entry| {
            match entry {
                Ok(e)
                    if e.file_type().is_some_and(|t| t.is_file())
                        && has_extension(e.path(), extensions) =>
                {
                    let relative = e
                        .path()
                        .strip_prefix(root)
                        .unwrap_or(e.path())
                        .to_path_buf();
                    files
                        .lock()
                        .expect("no panics while locked")
                        .push(SourceFile {
                            path: e.path().to_path_buf(),
                            relative,
                        });
                }
                Ok(_) => {}
                Err(err) => errors
                    .lock()
                    .expect("no panics while locked")
                    .push(err.to_string()),
            }
            ignore::WalkState::Continue
        })
    });
    (
        files.into_inner().expect("no panics while locked"),
        errors.into_inner().expect("no panics while locked"),
    )
}

fn has_extension(path: &Path, extensions: &[String]) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
        extensions
            .iter()
            .any(|x| x.trim_start_matches('.').eq_ignore_ascii_case(e))
    })
}
