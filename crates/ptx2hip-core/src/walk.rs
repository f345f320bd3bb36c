//! Walk: the source files to process.
//!
//! Directories are walked in parallel (the `ignore` crate, as ripgrep does). By default the walk
//! honours `.gitignore` (inside a git repository), `.ignore` and `.git/info/exclude`, and skips
//! hidden files and directories; `--no-ignore` and `--hidden` turn each off. Symbolic links
//! inside walked directories are not followed unless `--follow` (a link loop is then an error
//! for that link, not a hang). Files named
//! explicitly are always processed, whatever their extension. A tree can track files that its
//! own `.gitignore` matches (DeepSpeed ignores `*.cuh` yet tracks some): as for git, ignore rules
//! apply to untracked files only, so in a git work tree what git tracks is processed (asked of
//! `git ls-files` beside the walk). A file reached through several of the
//! given paths (`a.cu ./a.cu`, `src src/kernels`) is processed once, as found under the first of
//! them: two workers must never rewrite the same file.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// `path` absolute, with `.` and `..` resolved as its text says, without looking at the file
/// system (`src/../lib/k.cu` lies in `lib`): how baselines and configurations name places, so
/// that the same tree checked out elsewhere or reached from another directory reads the same.
pub fn lexically_absolute(path: &Path) -> PathBuf {
    if is_plain_absolute(path) {
        return path.to_path_buf();
    }
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut out = PathBuf::new();
    for c in absolute.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// Whether `path` is already what [`lexically_absolute`] makes of it: absolute, every component
/// a name (no `.`, `..`, doubled or trailing `/`). What the walk hands over under absolute roots,
/// for every file, so the common case costs no copy through the components.
fn is_plain_absolute(path: &Path) -> bool {
    let bytes = path.as_os_str().as_encoded_bytes();
    cfg!(unix)
        && bytes.first() == Some(&b'/')
        && bytes[1..]
            .split(|&b| b == b'/')
            .all(|part| !matches!(part, b"" | b"." | b".."))
}

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

/// How directories are walked.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WalkOptions {
    /// Process files that `.gitignore`/`.ignore` rules match.
    pub no_ignore: bool,
    /// Process hidden files and enter hidden directories.
    pub hidden: bool,
    /// Follow symbolic links to files and directories inside walked directories.
    pub follow: bool,
}

/// What a walk found.
#[derive(Debug, Default)]
pub struct Walked {
    /// Sorted by path.
    pub files: Vec<SourceFile>,
    /// Walk errors (not fatal).
    pub errors: Vec<String>,
}

/// Whether a file is processed. Asked from the walk's own threads, so that the files left out
/// (by extension, by exclusions) are told apart while directories are still being read, not in
/// a pass of their own after the walk.
pub type Wanted<'a> = &'a (dyn Fn(&Path) -> bool + Sync);

/// Which files are processed: `walked` decides for the files found in walked directories (their
/// extension, which each file's configuration can choose, and exclusions), `named` for the files
/// given as paths, which are processed whatever their extension.
#[derive(Clone, Copy)]
pub struct Wants<'a> {
    pub walked: Wanted<'a>,
    pub named: Wanted<'a>,
}

impl<'a> Wants<'a> {
    /// Every file `walked` wants, and every file named.
    pub fn walked(walked: Wanted<'a>) -> Wants<'a> {
        Wants {
            walked,
            named: &|_| true,
        }
    }
}

/// Collects the files under `paths`, sorted by path; walk errors are returned alongside, not fatal.
pub fn collect(paths: &[PathBuf], wants: Wants, options: WalkOptions) -> Walked {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    let mut seen = HashSet::new();
    let tracked = (!options.no_ignore).then(|| TrackedIgnored::start(paths));
    // Followed links can reach one file by several paths, as overlapping roots can.
    let overlap = options.follow || roots_overlap(paths);
    if !overlap {
        // One walk over every root keeps both cores busy from the first directory to the last.
        let roots: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
        (files, errors) = collect_roots(&roots, wants, options);
    }
    // One file reached by several paths is processed once, under the first root's path that
    // reaches it without a link where there is one (the file itself, not a link to it).
    let mut reached: Vec<(PathBuf, bool, usize, SourceFile)> = Vec::new();
    for (k, root) in paths.iter().enumerate().filter(|_| overlap) {
        let (found, errs) = collect_roots(&[root.as_path()], wants, options);
        errors.extend(errs);
        for file in found {
            let real = std::fs::canonicalize(&file.path).unwrap_or_else(|_| file.path.clone());
            reached.push((real, options.follow && through_link(&file.path), k, file));
        }
    }
    reached.sort_by(|a, b| (&a.0, a.1, a.2, &a.3).cmp(&(&b.0, b.1, b.2, &b.3)));
    for (real, _, _, file) in reached {
        if seen.insert(real) {
            files.push(file);
        }
    }
    if let Some(tracked) = tracked {
        let walked: HashSet<PathBuf> = files.iter().map(|f| f.path.clone()).collect();
        for file in tracked.finish(wants.walked, options) {
            let real = || std::fs::canonicalize(&file.path).unwrap_or_else(|_| file.path.clone());
            if !walked.contains(&file.path) && (!overlap || seen.insert(real())) {
                files.push(file);
            }
        }
    }
    files.sort_unstable_by(|a, b| {
        walk_order(&a.path, &b.path).then_with(|| a.relative.cmp(&b.relative))
    });
    files.dedup_by(|a, b| a.path == b.path);
    Walked { files, errors }
}

/// The order of `Path`'s comparison (component by component) for the paths a walk makes, which
/// have no `.` or doubled separators past their root's: bytes compared with the separator below
/// every other byte. Comparing components cost a warm run over eight census trees 3 % of its
/// time, with every core but one idle.
fn walk_order(a: &Path, b: &Path) -> std::cmp::Ordering {
    if !cfg!(unix) {
        return a.cmp(b);
    }
    let (a, b) = (
        a.as_os_str().as_encoded_bytes(),
        b.as_os_str().as_encoded_bytes(),
    );
    // Eight bytes at a time to the first difference: every path shares its root's prefix.
    let shorter = a.len().min(b.len());
    let mut common = 0;
    while common + 8 <= shorter && a[common..common + 8] == b[common..common + 8] {
        common += 8;
    }
    while common < shorter && a[common] == b[common] {
        common += 1;
    }
    let rank = |byte: Option<&u8>| byte.map(|&c| if c == b'/' { 0 } else { u16::from(c) + 1 });
    rank(a.get(common)).cmp(&rank(b.get(common)))
}

/// Whether some component of `path` is a symbolic link.
fn through_link(path: &Path) -> bool {
    path.ancestors()
        .filter(|p| !p.as_os_str().is_empty())
        .any(|p| std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_symlink()))
}

/// Whether two of `paths` can reach the same file: the same file or directory named twice, or a
/// path inside a directory also named. Only then is every file resolved to tell them apart (the
/// walk does not follow links, so disjoint roots never share a file; resolving each file of a
/// large tree costs as much as scanning it).
fn roots_overlap(paths: &[PathBuf]) -> bool {
    let real: Vec<PathBuf> = paths
        .iter()
        .map(|p| std::fs::canonicalize(p).unwrap_or_else(|_| p.clone()))
        .collect();
    real.iter().enumerate().any(|(i, a)| {
        real.iter()
            .enumerate()
            .any(|(j, b)| i != j && b.starts_with(a))
    })
}

/// The files under `roots`: a root that is a file is itself, directories are walked together.
fn collect_roots(
    roots: &[&Path],
    wants: Wants,
    options: WalkOptions,
) -> (Vec<SourceFile>, Vec<String>) {
    let mut found = Vec::new();
    let mut missing = Vec::new();
    let mut dirs = Vec::new();
    for &root in roots {
        if root.is_file() {
            if !(wants.named)(root) {
                continue;
            }
            let relative = root
                .file_name()
                .map(PathBuf::from)
                .unwrap_or_else(|| root.to_path_buf());
            found.push(SourceFile {
                path: root.to_path_buf(),
                relative,
            });
        } else if root.exists() {
            dirs.push(root);
        } else {
            // A link that leads nowhere (a loop, a missing target) exists as a link: say so.
            missing.push(match std::fs::metadata(root) {
                Err(e) if std::fs::symlink_metadata(root).is_ok() => {
                    format!(
                        "{}: a symbolic link that cannot be followed: {e}",
                        root.display()
                    )
                }
                _ => format!("{}: no such file or directory", root.display()),
            });
        }
    }
    let Some((first, more)) = dirs.split_first() else {
        return (found, missing);
    };
    let files = Mutex::new(found);
    let errors = Mutex::new(missing);
    let mut builder = ignore::WalkBuilder::new(first);
    for dir in more {
        builder.add(dir);
    }
    builder
        .standard_filters(!options.no_ignore)
        .hidden(!options.hidden)
        .follow_links(options.follow)
        .build_parallel()
        .run(|| {
            Box::new(|entry| {
                match entry {
                    Ok(e)
                        if e.file_type().is_some_and(|t| t.is_file())
                            && (wants.walked)(e.path()) =>
                    {
                        // Roots do not overlap: exactly one is a prefix.
                        let relative = dirs
                            .iter()
                            .find_map(|d| e.path().strip_prefix(d).ok())
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

/// Source files under the directories of `paths` that git tracks although ignore rules match
/// them (so the walk left them out), as `git ls-files` lists them: regular files only (a tracked
/// link is not followed, as in the walk). Untracked ignored files are build outputs and stay out.
/// Without git, or outside a work tree, none. The `git` processes start before the walk and run
/// beside it: waiting for each in turn after the walk cost a run over eight trees 40 ms of wall
/// time. A root with no `.git` above it is not asked at all: starting git only to hear "not a
/// git repository" cost each such root 5 ms of CPU, a quarter of a cached run over eight trees.
struct TrackedIgnored {
    listings: Vec<(PathBuf, std::process::Child)>,
}

impl TrackedIgnored {
    fn start(paths: &[PathBuf]) -> TrackedIgnored {
        let listings = paths
            .iter()
            .filter(|p| p.is_dir() && in_git_work_tree(p))
            .filter_map(|root| {
                let child = std::process::Command::new("git")
                    .arg("-C")
                    .arg(root)
                    .args([
                        "ls-files",
                        "-z",
                        "--cached",
                        "--ignored",
                        "--exclude-standard",
                    ])
                    .stdin(std::process::Stdio::null())
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::null())
                    .spawn()
                    .ok()?;
                Some((root.clone(), child))
            })
            .collect();
        TrackedIgnored { listings }
    }

    fn finish(self, wanted: Wanted, options: WalkOptions) -> Vec<SourceFile> {
        let mut files = Vec::new();
        for (root, child) in self.listings {
            let Ok(out) = child.wait_with_output() else {
                continue;
            };
            if !out.status.success() {
                continue;
            }
            let names = out
                .stdout
                .split(|b| *b == 0)
                .filter_map(|name| std::str::from_utf8(name).ok())
                .filter(|name| !name.is_empty())
                .filter(|name| options.hidden || !name.split('/').any(|c| c.starts_with('.')));
            for name in names {
                let path = root.join(name);
                if wanted(&path) && std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file()) {
                    files.push(SourceFile {
                        path,
                        relative: PathBuf::from(name),
                    });
                }
            }
        }
        files
    }
}

/// Whether git could see `dir` as part of a work tree: a `.git` (a directory, or the file a
/// linked work tree or submodule has) in it or above it, or git's own environment naming a
/// repository (`GIT_DIR`, `GIT_WORK_TREE`), which may lie anywhere.
fn in_git_work_tree(dir: &Path) -> bool {
    if std::env::var_os("GIT_DIR").is_some() || std::env::var_os("GIT_WORK_TREE").is_some() {
        return true;
    }
    // As `git -C dir` sees it: through links, `..` after them.
    std::fs::canonicalize(dir)
        .unwrap_or_else(|_| lexically_absolute(dir))
        .ancestors()
        .any(|d| std::fs::symlink_metadata(d.join(".git")).is_ok())
}

/// Whether the name of `path` ends in one of `extensions` (with or without their dot, any case).
pub fn has_extension<S: AsRef<str>>(path: &Path, extensions: &[S]) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
        extensions
            .iter()
            .any(|x| x.as_ref().trim_start_matches('.').eq_ignore_ascii_case(e))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_plain_absolute_path_is_its_own_lexical_form_and_others_are_resolved() {
        let same = |p: &str| lexically_absolute(Path::new(p)).into_os_string();
        assert_eq!(same("/a/b.cu"), "/a/b.cu");
        assert_eq!(same("/a/./b/../c.cu"), "/a/c.cu");
        assert_eq!(same("/a//b/"), "/a/b");
        assert_eq!(same("/a/.."), "/");
        assert_eq!(same("/"), "/");
        let cwd = std::env::current_dir().unwrap();
        assert_eq!(lexically_absolute(Path::new("x/../y.cu")), cwd.join("y.cu"));
    }

    #[cfg(unix)]
    #[test]
    fn a_link_loop_or_a_dangling_link_is_named_as_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a.cu"), dir.path().join("b.cu"));
        std::os::unix::fs::symlink(&b, &a).unwrap();
        std::os::unix::fs::symlink(&a, &b).unwrap();
        let gone = dir.path().join("gone.cu");
        std::os::unix::fs::symlink(dir.path().join("missing.cu"), &gone).unwrap();
        let walked = collect(
            &[a, gone],
            Wants::walked(&|_: &Path| true),
            WalkOptions::default(),
        );
        assert_eq!(walked.errors.len(), 2);
        for e in &walked.errors {
            assert!(e.contains("a symbolic link that cannot be followed"), "{e}");
        }
    }

    #[test]
    fn walked_paths_are_ordered_as_paths_compare() {
        let paths = [
            "/t/a",
            "/t/a.b/c.cu",
            "/t/a/c.cu",
            "/t/a-b.cu",
            "/t/a/b/c.cu",
            "/t/ab.cu",
            "/t/a/b.cu",
            "/t/A.cu",
            "/t/a/b",
            "/t/é.cu",
            "/t/b",
        ];
        for x in paths.map(Path::new) {
            for y in paths.map(Path::new) {
                assert_eq!(
                    walk_order(x, y),
                    x.cmp(y),
                    "{} against {}",
                    x.display(),
                    y.display()
                );
            }
        }
    }

    #[test]
    fn git_is_asked_only_about_directories_with_a_git_above_them() {
        let dir = tempfile::tempdir().unwrap();
        let sub = dir.path().join("repo/src/kernels");
        std::fs::create_dir_all(&sub).unwrap();
        // (Unless the temporary directory lies in a repository or git's environment names one.)
        if !in_git_work_tree(dir.path()) {
            assert!(!in_git_work_tree(&sub));
        }
        std::fs::create_dir(dir.path().join("repo/.git")).unwrap();
        assert!(in_git_work_tree(&sub) && in_git_work_tree(&dir.path().join("repo")));
    }

    #[test]
    fn roots_overlap_when_one_reaches_into_another_or_both_name_one_file() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        std::fs::create_dir_all(a.join("sub")).unwrap();
        std::fs::create_dir_all(&b).unwrap();
        std::fs::write(a.join("k.cu"), "").unwrap();
        std::os::unix::fs::symlink(a.join("k.cu"), b.join("link.cu")).unwrap();
        assert!(!roots_overlap(&[a.clone(), b.clone()]));
        assert!(roots_overlap(&[a.clone(), a.join("sub")]));
        assert!(roots_overlap(&[a.join("sub"), a.join("sub/.")]));
        assert!(roots_overlap(&[a.join("k.cu"), b.join("link.cu")]));
        assert!(!roots_overlap(std::slice::from_ref(&a)));
    }
}
