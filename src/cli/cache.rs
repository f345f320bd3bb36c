//! The result cache of `check`: a file whose bytes, local headers and options are those of an
//! earlier run gets that run's findings without being scanned or lowered again (as Ruff's cache
//! does for its lint).
//!
//! A run reads every file anyway (the files without `asm` are answered by that read); what the
//! cache saves is the scanning and lowering of the files with statements, and the loading of the
//! rule table when every such file is answered. An entry is used only when everything its
//! findings depend on is unchanged:
//! - the ptx2hip build: the cache file's name is a digest of the version and of the sources the
//!   binary was built from (`build.rs`), so a rebuild of changed code starts a new cache file and
//!   two installs of the same sources share one;
//! - the file's bytes (an xxh3-128 digest) and its absolute path;
//! - the options that shape the findings (target, tensor model, `--fast`, evidence floor, the
//!   declared macros and `--cuda-arch`, after the file's `ptx2hip.toml`), as one digest;
//! - every local header the scan looked for, by absolute path: the digest of its bytes, or that
//!   it could not be read.
//!
//! The lint itself (selections, suppressions, baselines) runs on every run: it depends on more
//! than the file. The human report's rendering of each finding (a snippet of the file with a
//! caret) is kept beside the findings, for the path and colouring it was rendered with: it costs
//! as much as all the rest of a warm run.
//!
//! The cache lives in `.ptx2hip_cache/` of the working directory (`--cache-dir`,
//! `PTX2HIP_CACHE_DIR`), which holds a `.gitignore` of `*` and a `CACHEDIR.TAG`; `--no-cache`
//! neither reads nor writes it. A cache that cannot be read is ignored, one that cannot be written
//! is not written: the cache never changes what a run reports, only how long it takes.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use xxhash_rust::xxh3::{xxh3_128, xxh3_64};

use crate::pipeline::{FileDiagnostic, FileOutcome, Finding};

/// The directory used when neither `--cache-dir` nor `PTX2HIP_CACHE_DIR` names one.
pub const DEFAULT_DIR: &str = ".ptx2hip_cache";

/// Cache files of other builds kept beside the current one (a developer switching binaries keeps
/// the caches of the last few).
const KEPT_FILES: usize = 4;

/// The findings of the files checked by earlier runs of this binary, and those of this run.
///
/// The file is read whole but decoded one entry at a time, by the worker that needs it: a warm
/// run over eight census trees spent a tenth of its time decoding every entry before any file
/// was checked. The file is a sequence of records, each a path and its entry in postcard, both
/// prefixed by their length (`u64`, little-endian); the records left as they were are written
/// back as they were read.
pub struct Cache {
    file: PathBuf,
    /// The cache file's bytes.
    bytes: Vec<u8>,
    /// Where each stored file's entry lies in `bytes`, by the file's absolute path.
    stored: HashMap<String, Range<usize>>,
    fresh: Mutex<Vec<(String, Entry)>>,
    /// The paths of the stored entries this run used.
    used: Mutex<HashSet<String>>,
    /// Digests of the headers met in this run, read once however many files include them.
    headers: Mutex<HashMap<PathBuf, Option<u128>>>,
}

/// One file's findings and what they depend on.
#[derive(Serialize, Deserialize)]
struct Entry {
    digest: u128,
    settings: u64,
    /// Absolute paths of the headers the scan looked for, with the digest of their bytes
    /// (`None`: not readable).
    headers: Vec<(String, Option<u128>)>,
    findings: Vec<Finding>,
    diagnostics: Vec<FileDiagnostic>,
    rendered: Rendered,
}

/// The human report's text of a file's findings, by finding, as rendered for one shown path and
/// colouring (`for_`, a digest of both); `None` for a finding not rendered yet.
#[derive(Serialize, Deserialize, Default, Clone)]
pub struct Rendered {
    for_: u64,
    pieces: Vec<Option<String>>,
}

impl Rendered {
    /// The digest of what a rendering depends on besides the file and its findings.
    pub fn key(shown: &str, colour: bool) -> u64 {
        xxh3_64(format!("{shown}\0{colour}").as_bytes())
    }

    /// Nothing rendered yet, for `findings` findings rendered under `key`.
    pub fn empty(key: u64, findings: usize) -> Rendered {
        Rendered {
            for_: key,
            pieces: vec![None; findings],
        }
    }

    /// The text of finding `index`, when it was rendered under `key`.
    pub fn piece(&self, key: u64, index: usize) -> Option<&str> {
        (self.for_ == key)
            .then(|| self.pieces.get(index)?.as_deref())
            .flatten()
    }

    /// Keeps the text of finding `index` of `findings` rendered under `key` (what was rendered
    /// under another key is dropped).
    pub fn keep(&mut self, key: u64, findings: usize, index: usize, text: &str) {
        if self.for_ != key || self.pieces.len() != findings {
            *self = Rendered::empty(key, findings);
        }
        if let Some(piece) = self.pieces.get_mut(index) {
            *piece = Some(text.to_owned());
        }
    }
}

/// A file's stored findings, what they depend on and their rendering.
pub struct Hit {
    pub outcome: FileOutcome,
    pub rendered: Rendered,
    headers: Vec<(String, Option<u128>)>,
}

/// What one file's lookup is about.
pub struct Key {
    path: String,
    digest: u128,
    settings: u64,
}

impl Key {
    /// The key of the file at `path` with `bytes`, checked under `settings` (every option that
    /// shapes its findings, as text); `None` for a path the cache cannot name (not UTF-8).
    pub fn new(path: &Path, bytes: &[u8], settings: &str) -> Option<Key> {
        let path = std::path::absolute(path).ok()?.to_str()?.to_owned();
        Some(Key {
            path,
            digest: xxh3_128(bytes),
            settings: xxh3_64(settings.as_bytes()),
        })
    }
}

impl Cache {
    /// The cache of this build in `dir` (made when there is something to save). A cache file
    /// that cannot be read or whose records are not whole counts as empty. Opening only reads, so
    /// a run opens its cache while it walks the tree.
    pub fn open(dir: &Path) -> Cache {
        // The build: its version and the digest of the sources it was built from (build.rs), so that
        // every build of the same sources shares a cache and any change starts a new one.
        let file = dir.join(concat!("check-", env!("PTX2HIP_SOURCE_DIGEST"), ".bin"));
        let bytes = std::fs::read(&file).unwrap_or_default();
        let stored = records(&bytes).unwrap_or_default();
        Cache {
            file,
            bytes,
            stored,
            fresh: Mutex::new(Vec::new()),
            used: Mutex::new(HashSet::new()),
            headers: Mutex::new(HashMap::new()),
        }
    }

    /// The findings stored for `key`, when nothing they depend on has changed (an entry that
    /// cannot be decoded is no entry).
    pub fn get(&self, key: &Key) -> Option<Hit> {
        let range = self.stored.get(&key.path)?;
        let entry: Entry = postcard::from_bytes(&self.bytes[range.clone()]).ok()?;
        let same = entry.digest == key.digest
            && entry.settings == key.settings
            && entry
                .headers
                .iter()
                .all(|(path, digest)| self.header_digest(Path::new(path)) == *digest);
        if !same {
            return None;
        }
        if let Ok(mut used) = self.used.lock() {
            used.insert(key.path.clone());
        }
        Some(Hit {
            outcome: FileOutcome {
                findings: entry.findings,
                diagnostics: entry.diagnostics,
                ..FileOutcome::default()
            },
            rendered: entry.rendered,
            headers: entry.headers,
        })
    }

    /// Keeps the findings of a file checked in this run, with their rendering.
    pub fn put(&self, key: Key, outcome: &FileOutcome, rendered: Rendered) {
        let mut headers = Vec::with_capacity(outcome.headers.len());
        for header in &outcome.headers {
            let Some(path) = std::path::absolute(&header.path)
                .ok()
                .and_then(|p| p.to_str().map(str::to_owned))
            else {
                // A header the cache cannot name: the file is not cached.
                return;
            };
            headers.push((path, header.text.as_deref().map(xxh3_128)));
        }
        self.keep(
            key.path,
            Entry {
                digest: key.digest,
                settings: key.settings,
                headers,
                findings: outcome.findings.clone(),
                diagnostics: outcome.diagnostics.clone(),
                rendered,
            },
        );
    }

    /// Keeps a stored entry with more of its findings rendered.
    pub fn renew(&self, key: Key, hit: Hit) {
        self.keep(
            key.path,
            Entry {
                digest: key.digest,
                settings: key.settings,
                headers: hit.headers,
                findings: hit.outcome.findings,
                diagnostics: hit.outcome.diagnostics,
                rendered: hit.rendered,
            },
        );
    }

    fn keep(&self, path: String, entry: Entry) {
        if let Ok(mut fresh) = self.fresh.lock() {
            fresh.push((path, entry));
        }
    }

    /// Writes the cache when this run found anything new. It keeps the stored entries this run
    /// used and those of files the run did not check (`checked` says which it did, by absolute
    /// path; asked only when there is something to write), for runs over other parts of the tree;
    /// the entries this run made or renewed replace theirs. A failure to write leaves the
    /// previous cache file in place.
    pub fn save(self, checked: impl FnOnce() -> HashSet<String>) {
        let fresh = self.fresh.into_inner().unwrap_or_default();
        if fresh.is_empty() {
            return;
        }
        let checked = checked();
        let used = self.used.into_inner().unwrap_or_default();
        let renewed: HashSet<&str> = fresh.iter().map(|(path, _)| path.as_str()).collect();
        let mut records: Vec<(&str, Cow<[u8]>)> = self
            .stored
            .iter()
            .filter(|(path, _)| !renewed.contains(path.as_str()))
            .filter(|(path, _)| used.contains(*path) || !checked.contains(*path))
            .map(|(path, range)| (path.as_str(), Cow::Borrowed(&self.bytes[range.clone()])))
            .collect();
        records.extend(fresh.iter().filter_map(|(path, entry)| {
            Some((
                path.as_str(),
                Cow::Owned(postcard::to_allocvec(entry).ok()?),
            ))
        }));
        // In path order, so that the same findings make the same file.
        records.sort_by(|a, b| a.0.cmp(b.0));
        let mut out = Vec::with_capacity(self.bytes.len());
        for (path, entry) in &records {
            push_record(&mut out, path, entry);
        }
        let Some(dir) = self.file.parent() else {
            return;
        };
        if prepare_dir(dir).is_err() {
            return;
        }
        let temporary = self
            .file
            .with_extension(format!("tmp{}", std::process::id()));
        if std::fs::write(&temporary, out).is_err()
            || std::fs::rename(&temporary, &self.file).is_err()
        {
            let _ = std::fs::remove_file(&temporary);
            return;
        }
        prune(dir, &self.file);
    }

    /// The digest of the header at `path` now (`None`: not readable), read once per run.
    fn header_digest(&self, path: &Path) -> Option<u128> {
        if let Some(known) = self.headers.lock().ok()?.get(path) {
            return *known;
        }
        let digest = std::fs::read(path).ok().map(|b| xxh3_128(&b));
        if let Ok(mut headers) = self.headers.lock() {
            headers.insert(path.to_path_buf(), digest);
        }
        digest
    }
}

/// Appends one record: `path` and `entry`, each after its length.
fn push_record(out: &mut Vec<u8>, path: &str, entry: &[u8]) {
    for piece in [path.as_bytes(), entry] {
        out.extend_from_slice(&(piece.len() as u64).to_le_bytes());
        out.extend_from_slice(piece);
    }
}

/// Where each record's entry lies in `bytes`, by its path; `None` unless every record is whole.
fn records(bytes: &[u8]) -> Option<HashMap<String, Range<usize>>> {
    let mut at: usize = 0;
    let mut piece = || {
        let length = bytes.get(at..at.checked_add(8)?)?;
        let length = usize::try_from(u64::from_le_bytes(length.try_into().ok()?)).ok()?;
        let start = at + 8;
        let end = start
            .checked_add(length)
            .filter(|&end| end <= bytes.len())?;
        at = end;
        Some(start..end)
    };
    let mut stored = HashMap::new();
    while let Some(path) = piece() {
        let entry = piece()?;
        stored.insert(std::str::from_utf8(&bytes[path]).ok()?.to_owned(), entry);
    }
    (at == bytes.len()).then_some(stored)
}

/// Makes the cache directory, marked so that git and backup tools leave it alone.
fn prepare_dir(dir: &Path) -> std::io::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    std::fs::create_dir_all(dir)?;
    std::fs::write(dir.join(".gitignore"), "# Created by ptx2hip.\n*\n")?;
    std::fs::write(
        dir.join("CACHEDIR.TAG"),
        "Signature: 8a477f597d28d172789f06886806bc55\n# ptx2hip's check cache: https://bford.info/cachedir/\n",
    )
}

/// Removes the cache files of other builds beyond the newest [`KEPT_FILES`].
fn prune(dir: &Path, current: &Path) {
    let Ok(listing) = std::fs::read_dir(dir) else {
        return;
    };
    let mut others: Vec<(std::time::SystemTime, PathBuf)> = listing
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p != current && is_cache_file(p))
        .filter_map(|p| Some((std::fs::metadata(&p).ok()?.modified().ok()?, p)))
        .collect();
    others.sort_by_key(|other| std::cmp::Reverse(other.0));
    for (_, path) in others.into_iter().skip(KEPT_FILES - 1) {
        let _ = std::fs::remove_file(path);
    }
}

fn is_cache_file(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("check-") && n.ends_with(".bin"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::HeaderRead;

    const SETTINGS: &str = "amd sm90";

    fn outcome(message: &str, headers: Vec<HeaderRead>) -> FileOutcome {
        FileOutcome {
            diagnostics: vec![FileDiagnostic {
                code: crate::codes::Code::UnreadableAsm,
                offset: Some(3),
                line: 1,
                column: 4,
                message: message.into(),
            }],
            headers,
            ..FileOutcome::default()
        }
    }

    fn message_of(found: Option<Hit>) -> Option<String> {
        found.map(|hit| hit.outcome.diagnostics[0].message.clone())
    }

    /// Stores `outcome` for `file` in a cache in `dir` and saves it, as a run does.
    fn stored(dir: &Path, file: &Path, bytes: &[u8], outcome: &FileOutcome) {
        let cache = Cache::open(dir);
        cache.put(
            Key::new(file, bytes, SETTINGS).unwrap(),
            outcome,
            Rendered::default(),
        );
        cache.save(HashSet::new);
    }

    #[test]
    fn a_file_checked_again_unchanged_gets_the_stored_findings() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.cu");
        stored(
            &dir.path().join("cache"),
            &file,
            b"asm",
            &outcome("stored", vec![]),
        );
        let cache = Cache::open(&dir.path().join("cache"));
        let key = Key::new(&file, b"asm", SETTINGS).unwrap();
        assert_eq!(message_of(cache.get(&key)).as_deref(), Some("stored"));
    }

    #[test]
    fn other_bytes_or_other_options_are_checked_again() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.cu");
        stored(
            &dir.path().join("cache"),
            &file,
            b"asm",
            &outcome("stored", vec![]),
        );
        let cache = Cache::open(&dir.path().join("cache"));
        assert!(cache
            .get(&Key::new(&file, b"asm ", SETTINGS).unwrap())
            .is_none());
        assert!(cache
            .get(&Key::new(&file, b"asm", "portable").unwrap())
            .is_none());
        let elsewhere = dir.path().join("b.cu");
        assert!(cache
            .get(&Key::new(&elsewhere, b"asm", SETTINGS).unwrap())
            .is_none());
    }

    #[test]
    fn a_header_the_scan_read_or_missed_is_part_of_the_key() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.cu");
        let header = dir.path().join("h.h");
        let absent = dir.path().join("absent.h");
        std::fs::write(&header, "#define X 1\n").unwrap();
        let headers = vec![
            HeaderRead {
                path: header.clone(),
                text: Some(b"#define X 1\n".to_vec()),
            },
            HeaderRead {
                path: absent.clone(),
                text: None,
            },
        ];
        let cache_dir = dir.path().join("cache");
        stored(&cache_dir, &file, b"asm", &outcome("stored", headers));
        let key = || Key::new(&file, b"asm", SETTINGS).unwrap();
        assert!(Cache::open(&cache_dir).get(&key()).is_some());
        std::fs::write(&absent, "#define Y 2\n").unwrap();
        assert!(Cache::open(&cache_dir).get(&key()).is_none());
        std::fs::remove_file(&absent).unwrap();
        std::fs::write(&header, "#define X 2\n").unwrap();
        assert!(Cache::open(&cache_dir).get(&key()).is_none());
    }

    #[test]
    fn saving_keeps_the_entries_of_files_the_run_did_not_check_and_drops_stale_ones() {
        let dir = tempfile::tempdir().unwrap();
        let cache_dir = dir.path().join("cache");
        let (a, b, c) = (
            dir.path().join("a.cu"),
            dir.path().join("b.cu"),
            dir.path().join("c.cu"),
        );
        let cache = Cache::open(&cache_dir);
        for file in [&a, &b, &c] {
            cache.put(
                Key::new(file, b"asm", SETTINGS).unwrap(),
                &outcome("first", vec![]),
                Rendered::default(),
            );
        }
        cache.save(HashSet::new);
        // A run over `b` and `c` only: `b` changed (checked again), `c` no longer has statements.
        let cache = Cache::open(&cache_dir);
        cache.put(
            Key::new(&b, b"asm 2", SETTINGS).unwrap(),
            &outcome("second", vec![]),
            Rendered::default(),
        );
        let checked: HashSet<String> = [&b, &c]
            .iter()
            .map(|p| std::path::absolute(p).unwrap().to_str().unwrap().to_owned())
            .collect();
        cache.save(|| checked);
        let cache = Cache::open(&cache_dir);
        let get = |file: &Path, bytes: &[u8]| {
            message_of(cache.get(&Key::new(file, bytes, SETTINGS).unwrap()))
        };
        assert_eq!(get(&a, b"asm").as_deref(), Some("first"));
        assert_eq!(get(&b, b"asm 2").as_deref(), Some("second"));
        assert_eq!(get(&c, b"asm"), None);
    }

    #[test]
    fn a_rendering_is_reused_only_for_the_path_and_colouring_it_was_made_for() {
        let plain = Rendered::key("a.cu", false);
        let mut rendered = Rendered::empty(plain, 2);
        rendered.keep(plain, 2, 1, "a.cu:3: warning");
        assert_eq!(rendered.piece(plain, 1), Some("a.cu:3: warning"));
        assert_eq!(rendered.piece(plain, 0), None, "not rendered yet");
        assert_eq!(rendered.piece(Rendered::key("a.cu", true), 1), None);
        assert_eq!(rendered.piece(Rendered::key("b/a.cu", false), 1), None);
        let coloured = Rendered::key("a.cu", true);
        rendered.keep(coloured, 2, 0, "coloured");
        assert_eq!(
            rendered.piece(plain, 1),
            None,
            "another rendering replaces the first"
        );
        assert_eq!(rendered.piece(coloured, 0), Some("coloured"));
    }

    #[test]
    fn a_damaged_cache_file_counts_as_empty_and_a_damaged_entry_as_missing() {
        let dir = tempfile::tempdir().unwrap();
        let cache_dir = dir.path().join("cache");
        let file = dir.path().join("a.cu");
        let damaged = |damage: &dyn Fn(&mut Vec<u8>)| {
            stored(&cache_dir, &file, b"asm", &outcome("stored", vec![]));
            for entry in std::fs::read_dir(&cache_dir).unwrap() {
                let path = entry.unwrap().path();
                if is_cache_file(&path) {
                    let mut bytes = std::fs::read(&path).unwrap();
                    damage(&mut bytes);
                    std::fs::write(&path, bytes).unwrap();
                }
            }
            let cache = Cache::open(&cache_dir);
            cache
                .get(&Key::new(&file, b"asm", SETTINGS).unwrap())
                .is_none()
        };
        assert!(!damaged(&|_| {}), "undamaged, it is found");
        assert!(damaged(&|b| *b = b"\xff\xff\xff not a cache".to_vec()));
        assert!(damaged(&|b| {
            b.pop();
        }));
        assert!(damaged(&|b| b.push(0)));
        // The entry's own bytes (after the two lengths and the path) cut short: its record is
        // whole, its decoding fails.
        assert!(damaged(&|b| {
            let path = u64::from_le_bytes(b[..8].try_into().unwrap()) as usize;
            let at = 8 + path;
            b.truncate(at + 8 + 3);
            b[at..at + 8].copy_from_slice(&3u64.to_le_bytes());
        }));
    }

    #[test]
    fn the_cache_directory_is_marked_for_git_and_backup_tools() {
        let dir = tempfile::tempdir().unwrap();
        let cache_dir = dir.path().join("cache");
        stored(
            &cache_dir,
            &dir.path().join("a.cu"),
            b"asm",
            &outcome("stored", vec![]),
        );
        assert_eq!(
            std::fs::read_to_string(cache_dir.join(".gitignore")).unwrap(),
            "# Created by ptx2hip.\n*\n"
        );
        assert!(std::fs::read_to_string(cache_dir.join("CACHEDIR.TAG"))
            .unwrap()
            .starts_with("Signature: 8a477f597d28d172789f06886806bc55"));
    }
}
