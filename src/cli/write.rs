//! Writing files without losing data.
//!
//! Every file is written to a temporary file (`.ptx2hip-<pid>-<n>.tmp`) in its destination's
//! directory and renamed over the destination only once complete: a full disk or a crash leaves
//! the old file or the new one, never a partial one.
//!
//! * `--in-place` ([`Original`]): a source is replaced only if it is still exactly what was read
//!   (same inode, size, modification time and bytes), so an edit made while ptx2hip ran is never
//!   overwritten; its permissions and owner are kept; a read-only file is left alone.
//! * `--out-dir` ([`OutDir`]): directories under the output directory are walked through open
//!   descriptors (`openat` with `O_NOFOLLOW`), so a symbolic link there is refused, never followed,
//!   and cannot be slipped in between a check and the write.

use std::ffi::OsStr;
use std::fs::{File, Permissions};
use std::io::{self, ErrorKind, Read, Write};
use std::os::fd::OwnedFd;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use rustix::fs::{self as rfs, Access, AtFlags, FileType, Mode, OFlags, CWD};
use rustix::io::Errno;

/// A source file as read, with what it looked like then (for an in-place rewrite).
pub struct Original {
    path: PathBuf,
    bytes: Vec<u8>,
    metadata: std::fs::Metadata,
}

/// The backup of a rewrite: made by this run, or an identical one found in place.
enum Backup {
    Written(std::ffi::OsString),
    AlreadyThere,
}

impl Original {
    pub fn read(path: &Path) -> io::Result<Original> {
        let mut file = File::open(path)?;
        let metadata = file.metadata()?;
        let mut bytes = Vec::with_capacity(metadata.len() as usize);
        file.read_to_end(&mut bytes)?;
        Ok(Original {
            path: path.to_path_buf(),
            bytes,
            metadata,
        })
    }

    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Replaces the file with `bytes`, with the file's permissions and owner, if it is still as it
    /// was read; otherwise (or if it is read-only) leaves it as it is and says why. A path that is
    /// a symbolic link rewrites the file it names. With `backup`, the original is kept beside it
    /// under its name plus that suffix first, unless a backup is there already (it holds an older
    /// original, the one worth keeping).
    pub fn replace(&self, bytes: &[u8], backup: Option<&OsStr>) -> io::Result<()> {
        let real = std::fs::canonicalize(&self.path)?;
        let (Some(parent), Some(name)) = (real.parent(), real.file_name()) else {
            return Err(io::Error::new(ErrorKind::InvalidInput, "not a file"));
        };
        let dir = open_dir(parent)?;
        let mode = self.metadata.mode() & 0o7777;
        let writable = rfs::accessat(&dir, name, Access::WRITE_OK, AtFlags::empty());
        if mode & 0o222 == 0 || writable.is_err() {
            return Err(io::Error::new(
                ErrorKind::PermissionDenied,
                "the file is read-only: not rewritten",
            ));
        }
        let mut temp = Temp::create(&dir, Mode::from_raw_mode(0o600))?;
        temp.file.write_all(bytes)?;
        self.keep_owner(&temp.file)?;
        temp.file.set_permissions(Permissions::from_mode(mode))?;
        temp.file.sync_all()?;
        // The backup first, then the check that the file is still the one read, right before the
        // rename: an edit made in between is in neither the backup nor the rewrite, and the
        // backup, holding what is no longer the file's content, is removed again.
        let backup = match backup {
            Some(suffix) => {
                let mut backup_name = name.to_os_string();
                backup_name.push(suffix);
                Some(self.back_up(&dir, backup_name, mode)?)
            }
            None => None,
        };
        if !self.unchanged(&dir, name)? {
            if let Some(Backup::Written(b)) = &backup {
                let _ = rfs::unlinkat(&dir, b.as_os_str(), AtFlags::empty());
            }
            return Err(io::Error::other(
                "the file changed while ptx2hip was working on it: not rewritten (run again)",
            ));
        }
        temp.rename_to(name)
    }

    /// Gives `file` the original's owner and group (`fchown`) where they differ; an error when
    /// the caller may not.
    fn keep_owner(&self, file: &File) -> io::Result<()> {
        let written = file.metadata()?;
        if (written.uid(), written.gid()) != (self.metadata.uid(), self.metadata.gid()) {
            std::os::unix::fs::fchown(file, Some(self.metadata.uid()), Some(self.metadata.gid()))
                .map_err(|e| annotate(e, "could not keep the file's owner: not rewritten"))?;
        }
        Ok(())
    }

    /// Writes the original bytes to `name` in `dir`; never over anything already there (`linkat`
    /// fails then, atomically). A file already there holding exactly these bytes is the backup
    /// (a run that was stopped before its rename); anything else there — an older original,
    /// patch's `*.orig`, a link, a directory — means no backup can be made, and without a backup
    /// the source is not rewritten.
    fn back_up(&self, dir: &OwnedFd, name: std::ffi::OsString, mode: u32) -> io::Result<Backup> {
        let mut temp = Temp::create(dir, Mode::from_raw_mode(0o600))?;
        temp.file.write_all(&self.bytes)?;
        self.keep_owner(&temp.file)?;
        temp.file.set_permissions(Permissions::from_mode(mode))?;
        temp.file.sync_all()?;
        match rfs::linkat(dir, temp.name.as_str(), dir, name.as_os_str(), AtFlags::empty()) {
            Ok(()) => Ok(Backup::Written(name)),
            Err(Errno::EXIST) if self.holds_the_original(dir, &name) => Ok(Backup::AlreadyThere),
            Err(Errno::EXIST) => Err(io::Error::new(
                ErrorKind::AlreadyExists,
                format!(
                    "{} exists and is not a copy of this file: no backup can be made, so the file is not rewritten (move it away or choose another --backup-suffix)",
                    Path::new(&name).display()
                ),
            )),
            Err(e) => Err(annotate(
                e.into(),
                "could not write the backup: not rewritten",
            )),
        }
    }

    /// Whether `name` in `dir` is a regular file (not a link) holding the bytes read.
    fn holds_the_original(&self, dir: &OwnedFd, name: &OsStr) -> bool {
        let Ok(mut file) = open_file(dir, name) else {
            return false;
        };
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).is_ok() && bytes == self.bytes
    }

    /// Whether `name` in `dir` is still the file read, with the same bytes.
    fn unchanged(&self, dir: &OwnedFd, name: &OsStr) -> io::Result<bool> {
        let mut file = match open_file(dir, name) {
            Ok(f) => f,
            Err(e) if matches!(e.kind(), ErrorKind::NotFound) => return Ok(false),
            Err(e) => return Err(e),
        };
        let now = file.metadata()?;
        let before = &self.metadata;
        if (
            now.dev(),
            now.ino(),
            now.len(),
            now.mtime(),
            now.mtime_nsec(),
        ) != (
            before.dev(),
            before.ino(),
            before.len(),
            before.mtime(),
            before.mtime_nsec(),
        ) {
            return Ok(false);
        }
        let mut bytes = Vec::with_capacity(self.bytes.len());
        file.read_to_end(&mut bytes)?;
        Ok(bytes == self.bytes)
    }
}

/// Writes a new file `path` (mode 0644: generated code), creating its directory if need be,
/// atomically; an error if a file of that name appeared meanwhile (`linkat` never replaces one).
pub fn create(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
        return Err(io::Error::new(ErrorKind::InvalidInput, "not a file name"));
    };
    let parent = if parent.as_os_str().is_empty() {
        Path::new(".")
    } else {
        parent
    };
    std::fs::create_dir_all(parent)?;
    let dir = open_dir(parent)?;
    let temp = Temp::create(&dir, Mode::from_raw_mode(0o600))?;
    (&temp.file).write_all(bytes)?;
    temp.file.set_permissions(Permissions::from_mode(0o644))?;
    temp.file.sync_all()?;
    match rfs::linkat(&dir, temp.name.as_str(), &dir, name, AtFlags::empty()) {
        Ok(()) => Ok(()),
        Err(Errno::EXIST) => Err(io::Error::new(
            ErrorKind::AlreadyExists,
            "the file appeared while ptx2hip was working: not written (run again)",
        )),
        Err(e) => Err(e.into()),
    }
}

/// Writes a file the user named as an output (`--write-baseline FILE`, `report -o FILE`) through
/// a temporary file renamed over it once complete: a full disk or a crash leaves the old file,
/// never a truncated one. A symbolic link or anything else that is not a regular file at `path`
/// is refused, never followed or replaced, and so is a file that is one of the run's `inputs`.
pub fn output<'p>(
    path: &Path,
    bytes: &[u8],
    inputs: impl IntoIterator<Item = &'p Path>,
) -> io::Result<()> {
    let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
        return Err(io::Error::new(ErrorKind::InvalidInput, "not a file name"));
    };
    let parent = if parent.as_os_str().is_empty() {
        Path::new(".")
    } else {
        parent
    };
    let dir = open_dir(parent)?;
    match rfs::statat(&dir, name, AtFlags::SYMLINK_NOFOLLOW) {
        Ok(st) => {
            let kind = FileType::from_raw_mode(st.st_mode);
            if kind == FileType::Symlink {
                return Err(io::Error::new(
                    ErrorKind::InvalidInput,
                    "is a symbolic link: ptx2hip does not write through links",
                ));
            }
            if kind != FileType::RegularFile {
                return Err(io::Error::new(
                    ErrorKind::InvalidInput,
                    "not a regular file: not written",
                ));
            }
            let there = open_file(&dir, name)?.metadata()?;
            let same = |p: &Path| {
                std::fs::metadata(p).is_ok_and(|m| (m.dev(), m.ino()) == (there.dev(), there.ino()))
            };
            if inputs.into_iter().any(same) {
                return Err(io::Error::new(
                    ErrorKind::InvalidInput,
                    "is one of the files this run reads: not overwritten",
                ));
            }
        }
        Err(Errno::NOENT) => {}
        Err(e) => return Err(e.into()),
    }
    let temp = Temp::create(&dir, Mode::from_raw_mode(0o600))?;
    (&temp.file).write_all(bytes)?;
    temp.file.set_permissions(Permissions::from_mode(0o644))?;
    temp.file.sync_all()?;
    temp.rename_to(name)
}

/// Removes from `dir` the temporary files (`.ptx2hip-<pid>-<n>.tmp`) of runs that were killed
/// between writing and renaming (`kill -9`, a power cut): only those whose process no longer
/// exists, so a run working beside this one keeps its own. How many were removed.
pub fn sweep_interrupted(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let Ok(fd) = open_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(".ptx2hip-")?.strip_suffix(".tmp"))
            .and_then(|n| n.split_once('-')?.0.parse::<i32>().ok())
            .and_then(rustix::process::Pid::from_raw)
        else {
            continue;
        };
        let gone = matches!(rustix::process::test_kill_process(pid), Err(Errno::SRCH));
        if gone && rfs::unlinkat(&fd, name.as_os_str(), AtFlags::empty()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// An output directory.
pub struct OutDir {
    path: PathBuf,
    root: OwnedFd,
}

impl OutDir {
    /// Creates the directory `path` (and its parents) if need be and opens it. `path` itself is
    /// the user's choice and is followed like any path given on the command line.
    pub fn open(path: &Path) -> io::Result<OutDir> {
        std::fs::create_dir_all(path)?;
        Ok(OutDir {
            path: path.to_path_buf(),
            root: open_dir(path)?,
        })
    }

    /// The directory as named on the command line.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes `bytes` to `relative` under the directory, creating the directories on the way. A
    /// symbolic link on the way or at the destination is an error, never followed or replaced.
    pub fn write(&self, relative: &Path, bytes: &[u8]) -> io::Result<()> {
        let mut names = Vec::new();
        for c in relative.components() {
            match c {
                Component::Normal(name) => names.push(name),
                _ => {
                    return Err(io::Error::new(
                        ErrorKind::InvalidInput,
                        "not a relative path below the output directory",
                    ))
                }
            }
        }
        let Some(name) = names.pop() else {
            return Err(io::Error::new(ErrorKind::InvalidInput, "empty path"));
        };
        let mut walked = PathBuf::new();
        let mut below: Option<OwnedFd> = None;
        for dir_name in names {
            walked.push(dir_name);
            let parent = below.as_ref().unwrap_or(&self.root);
            below = Some(subdirectory(parent, dir_name, &walked)?);
        }
        let dir = below.as_ref().unwrap_or(&self.root);
        match rfs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(st) if FileType::from_raw_mode(st.st_mode) == FileType::Symlink => {
                return Err(link_refused(relative))
            }
            Ok(st) if FileType::from_raw_mode(st.st_mode) == FileType::Directory => {
                return Err(io::Error::new(ErrorKind::AlreadyExists, "is a directory"))
            }
            Ok(_) | Err(Errno::NOENT) => {}
            Err(e) => return Err(e.into()),
        }
        let mut temp = Temp::create(dir, Mode::from_raw_mode(0o666))?;
        temp.file.write_all(bytes)?;
        temp.rename_to(name)
    }
}

/// The directory `name` in `parent`, created if missing; refused if it is a symbolic link.
fn subdirectory(parent: &OwnedFd, name: &OsStr, walked: &Path) -> io::Result<OwnedFd> {
    match rfs::mkdirat(parent, name, Mode::from_raw_mode(0o777)) {
        Ok(()) | Err(Errno::EXIST) => {}
        Err(e) => return Err(e.into()),
    }
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    rfs::openat(parent, name, flags, Mode::empty()).map_err(|e| {
        match rfs::statat(parent, name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(st) if FileType::from_raw_mode(st.st_mode) == FileType::Symlink => {
                link_refused(walked)
            }
            _ => annotate(e.into(), &walked.display().to_string()),
        }
    })
}

fn link_refused(path: &Path) -> io::Error {
    io::Error::new(
        ErrorKind::InvalidInput,
        format!(
            "`{}` in the output directory is a symbolic link: ptx2hip does not write through links",
            path.display()
        ),
    )
}

fn annotate(e: io::Error, context: &str) -> io::Error {
    io::Error::new(e.kind(), format!("{context}: {e}"))
}

fn open_dir(path: &Path) -> io::Result<OwnedFd> {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
    Ok(rfs::openat(CWD, path, flags, Mode::empty())?)
}

fn open_file(dir: &OwnedFd, name: &OsStr) -> io::Result<File> {
    let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    Ok(File::from(rfs::openat(dir, name, flags, Mode::empty())?))
}

/// A temporary file being written in a directory; removed unless renamed into place.
struct Temp<'d> {
    dir: &'d OwnedFd,
    name: String,
    file: File,
    renamed: bool,
}

impl<'d> Temp<'d> {
    fn create(dir: &'d OwnedFd, mode: Mode) -> io::Result<Temp<'d>> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let flags =
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        for _ in 0..1000 {
            let name = format!(
                ".ptx2hip-{}-{}.tmp",
                std::process::id(),
                NEXT.fetch_add(1, Ordering::Relaxed)
            );
            match rfs::openat(dir, &name, flags, mode) {
                Ok(fd) => {
                    return Ok(Temp {
                        dir,
                        name,
                        file: File::from(fd),
                        renamed: false,
                    })
                }
                // Left by another run (a crash, a process of the same id): take the next name.
                Err(Errno::EXIST) => continue,
                Err(e) => return Err(e.into()),
            }
        }
        Err(io::Error::new(
            ErrorKind::AlreadyExists,
            "no free name for a temporary file",
        ))
    }

    fn rename_to(mut self, name: &OsStr) -> io::Result<()> {
        rfs::renameat(self.dir, &self.name, self.dir, name)?;
        self.renamed = true;
        Ok(())
    }
}

impl Drop for Temp<'_> {
    fn drop(&mut self) {
        if !self.renamed {
            let _ = rfs::unlinkat(self.dir, &self.name, AtFlags::empty());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::os::unix::fs::symlink;

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn replace_keeps_permissions_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.cu");
        fs::write(&path, "old").unwrap();
        fs::set_permissions(&path, Permissions::from_mode(0o751)).unwrap();
        Original::read(&path)
            .unwrap()
            .replace(b"new", None)
            .unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"new");
        assert_eq!(fs::metadata(&path).unwrap().mode() & 0o7777, 0o751);
        assert_eq!(entries(dir.path()), ["a.cu"]);
    }

    #[test]
    fn an_edit_after_the_read_leaves_no_backup_and_no_rewrite() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.cu");
        fs::write(&path, "old text").unwrap();
        let original = Original::read(&path).unwrap();
        fs::write(&path, "edited text").unwrap();
        let e = original
            .replace(b"translated", Some(OsStr::new(".bak")))
            .unwrap_err();
        assert!(e.to_string().contains("changed while ptx2hip"), "{e}");
        assert_eq!(fs::read(&path).unwrap(), b"edited text");
        assert_eq!(
            entries(dir.path()),
            ["a.cu"],
            "the backup made is removed again"
        );
    }

    #[test]
    fn an_output_file_is_replaced_whole_never_through_a_link_or_over_an_input() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("baseline.json");
        fs::write(&out, "older and longer contents").unwrap();
        output(&out, b"new", []).unwrap();
        assert_eq!(fs::read(&out).unwrap(), b"new");
        let target = dir.path().join("target.txt");
        fs::write(&target, "kept").unwrap();
        let link = dir.path().join("link.json");
        symlink(&target, &link).unwrap();
        let e = output(&link, b"new", []).unwrap_err();
        assert!(e.to_string().contains("symbolic link"), "{e}");
        assert_eq!(fs::read(&target).unwrap(), b"kept");
        let source = dir.path().join("k.cu");
        fs::write(&source, "source").unwrap();
        let e = output(&source, b"new", [source.as_path()]).unwrap_err();
        assert!(e.to_string().contains("one of the files"), "{e}");
        assert_eq!(fs::read(&source).unwrap(), b"source");
        let e = output(dir.path(), b"new", []).unwrap_err();
        assert!(e.to_string().contains("not a regular file"), "{e}");
        assert_eq!(
            entries(dir.path()),
            ["baseline.json", "k.cu", "link.json", "target.txt"],
            "no temporary file is left"
        );
    }

    #[test]
    fn an_edit_after_the_read_is_never_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.cu");
        fs::write(&path, "old text").unwrap();
        let original = Original::read(&path).unwrap();
        // Same size, and the modification time put back: only the bytes tell.
        let mtime = fs::metadata(&path).unwrap().modified().unwrap();
        fs::write(&path, "new text").unwrap();
        File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(mtime)
            .unwrap();
        let e = original.replace(b"translated", None).unwrap_err();
        assert!(e.to_string().contains("changed while ptx2hip"), "{e}");
        assert_eq!(fs::read(&path).unwrap(), b"new text");
        assert_eq!(entries(dir.path()), ["a.cu"]);
    }

    #[test]
    fn a_file_replaced_or_removed_after_the_read_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.cu");
        fs::write(&path, "old").unwrap();
        let original = Original::read(&path).unwrap();
        // An editor's atomic save: a new inode with the same bytes.
        fs::write(dir.path().join("a.cu.swp"), "old").unwrap();
        fs::rename(dir.path().join("a.cu.swp"), &path).unwrap();
        assert!(original.replace(b"translated", None).is_err());
        assert_eq!(fs::read(&path).unwrap(), b"old");
        fs::remove_file(&path).unwrap();
        assert!(Original::read(&path).is_err());
        assert!(original.replace(b"translated", None).is_err());
        assert!(!path.exists());
    }

    #[test]
    fn a_read_only_file_is_left_byte_for_byte_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.cu");
        fs::write(&path, "old").unwrap();
        fs::set_permissions(&path, Permissions::from_mode(0o444)).unwrap();
        let e = Original::read(&path)
            .unwrap()
            .replace(b"new", None)
            .unwrap_err();
        assert!(e.to_string().contains("read-only"), "{e}");
        assert_eq!(fs::read(&path).unwrap(), b"old");
        assert_eq!(entries(dir.path()), ["a.cu"]);
    }

    #[test]
    fn a_link_named_on_the_command_line_rewrites_the_file_it_names() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("real.cu");
        fs::write(&target, "old").unwrap();
        let link = dir.path().join("link.cu");
        symlink(&target, &link).unwrap();
        Original::read(&link)
            .unwrap()
            .replace(b"new", None)
            .unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"new");
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
    }

    #[test]
    fn out_dir_creates_directories_and_replaces_files() {
        let dir = tempfile::tempdir().unwrap();
        let out = OutDir::open(&dir.path().join("out")).unwrap();
        out.write(Path::new("a/b/c.cu"), b"one").unwrap();
        out.write(Path::new("a/b/c.cu"), b"two").unwrap();
        assert_eq!(fs::read(dir.path().join("out/a/b/c.cu")).unwrap(), b"two");
        assert_eq!(entries(&dir.path().join("out/a/b")), ["c.cu"]);
    }

    #[test]
    fn out_dir_never_writes_through_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside");
        fs::create_dir(&outside).unwrap();
        fs::write(outside.join("c.cu"), "precious").unwrap();
        let root = dir.path().join("out");
        fs::create_dir(&root).unwrap();
        symlink(&outside, root.join("a")).unwrap();
        symlink(outside.join("c.cu"), root.join("c.cu")).unwrap();
        symlink(outside.join("missing.cu"), root.join("dangling.cu")).unwrap();
        let out = OutDir::open(&root).unwrap();
        for relative in ["a/c.cu", "a/new/c.cu", "c.cu", "dangling.cu"] {
            let e = out.write(Path::new(relative), b"x").unwrap_err();
            assert!(e.to_string().contains("symbolic link"), "{relative}: {e}");
        }
        assert_eq!(entries(&outside), ["c.cu"]);
        assert_eq!(fs::read(outside.join("c.cu")).unwrap(), b"precious");
        assert_eq!(entries(&root), ["a", "c.cu", "dangling.cu"]);
    }

    #[test]
    fn out_dir_refuses_paths_that_leave_it() {
        let dir = tempfile::tempdir().unwrap();
        let out = OutDir::open(dir.path()).unwrap();
        for relative in ["../x.cu", "/tmp/x.cu", "", "a/../../x.cu"] {
            assert!(out.write(Path::new(relative), b"x").is_err(), "{relative}");
        }
    }
}
