//! Walk: the source files to process.
//!
//! Directories are walked in parallel and honour `.gitignore` (the `ignore` crate, as ripgrep does);
//! files named explicitly are always processed, whatever their extension.

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

/// Collects the files under `paths`; walk errors are returned alongside, not fatal.
pub fn collect(paths: &[PathBuf], extensions: &[String]) -> (Vec<SourceFile>, Vec<String>) {
    let files = Mutex::new(Vec::new());
    let errors = Mutex::new(Vec::new());
    for root in paths {
        if root.is_file() {
            let relative = root
                .file_name()
                .map(PathBuf::from)
                .unwrap_or_else(|| root.clone());
            files
                .lock()
                .expect("no panics while locked")
                .push(SourceFile {
                    path: root.clone(),
                    relative,
                });
            continue;
        }
        if !root.exists() {
            errors
                .lock()
                .expect("no panics while locked")
                .push(format!("{}: no such file or directory", root.display()));
            continue;
        }
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
    }
    let mut files = files.into_inner().expect("no panics while locked");
    files.sort();
    files.dedup_by(|a, b| a.path == b.path);
    (files, errors.into_inner().expect("no panics while locked"))
}

fn has_extension(path: &Path, extensions: &[String]) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
        extensions
            .iter()
            .any(|x| x.trim_start_matches('.').eq_ignore_ascii_case(e))
    })
}
