//! Which files a command processes: the configuration file and the flags that exclude paths.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use super::output::warn;
use crate::config::resolve::{Configs, Resolved};
use crate::config::{Config, Source};
use crate::filter::Filter;
use crate::walk::{self, SourceFile};

#[derive(clap::Args)]
pub struct Selection {
    /// Leave out files and directories matching PATTERN (gitignore syntax, relative to the
    /// working directory; adds to `exclude` of ptx2hip.toml; applies to files named on the
    /// command line too).
    #[arg(long, value_name = "PATTERN")]
    exclude: Vec<String>,
    /// Process only files matching GLOB; `!GLOB` leaves matching files out (as ripgrep's
    /// `--glob`; the last matching glob decides).
    #[arg(long, short = 'g', value_name = "GLOB")]
    glob: Vec<String>,
    /// Use this configuration file for every file instead of the ptx2hip.toml closest above
    /// each.
    #[arg(long, value_name = "FILE", conflicts_with = "isolated")]
    config: Option<PathBuf>,
    /// Use no configuration file.
    #[arg(long)]
    isolated: bool,
    /// Also process files that .gitignore/.ignore rules match.
    #[arg(long)]
    no_ignore: bool,
    /// Also process hidden files and directories.
    #[arg(long)]
    hidden: bool,
    /// Follow symbolic links to files and directories inside walked directories (not followed
    /// by default; a file reached by several links is processed once).
    #[arg(long)]
    follow: bool,
    #[arg(skip)]
    loaded: OnceLock<Result<(Configs, Filter), String>>,
}

impl Selection {
    /// The configurations and the compiled flags (`--exclude`, `--glob`), read once.
    fn loaded(&self) -> Result<&(Configs, Filter), String> {
        self.loaded
            .get_or_init(|| {
                let cwd =
                    std::env::current_dir().map_err(|e| format!("the working directory: {e}"))?;
                let source = match (&self.config, self.isolated) {
                    (_, true) => Source::Isolated,
                    (Some(file), false) => Source::File(file.clone()),
                    (None, false) => Source::Discover(cwd.clone()),
                };
                let configs = Configs::new(&source)?;
                let filter = Filter::new(&[(cwd.clone(), self.exclude.clone())], &self.glob, &cwd)?;
                Ok((configs, filter))
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The configuration of the file at `path` (standard input: of its `--stdin-filename`).
    pub fn config_of(&self, path: &Path) -> Result<Arc<Resolved>, String> {
        self.loaded()?.0.of(path)
    }

    /// The configuration of the working directory (or the one `--config`/`--isolated` fix).
    pub fn working_directory_config(&self) -> Result<&Config, String> {
        Ok(self.loaded()?.0.of_working_directory())
    }

    /// Whether the file at `path` is processed (not excluded).
    pub fn keeps(&self, path: &Path) -> Result<bool, String> {
        let (configs, filter) = self.loaded()?;
        Ok(filter.keeps(path) && configs.keeps(path)?)
    }

    /// The files under `paths`, and the errors met finding them. `extensions` (from `--ext`)
    /// replace each file's configuration's, which replace [`walk::DEFAULT_EXTENSIONS`]. A run
    /// that selects no file is an error (a lint that checked nothing must not pass), except when
    /// every path names a file: then a note says they were all excluded. A configuration that
    /// cannot be read is an error, and the files under it are not processed.
    pub fn files(
        &self,
        paths: &[PathBuf],
        extensions: &[String],
    ) -> (Vec<SourceFile>, Vec<String>) {
        let (configs, filter) = match self.loaded() {
            Ok(l) => l,
            Err(e) => return (Vec::new(), vec![e]),
        };
        let unread = Mutex::new(BTreeSet::new());
        let note = |e: String| {
            if let Ok(mut unread) = unread.lock() {
                unread.insert(e);
            }
        };
        // Files left out by exclusions, to say so when nothing is left.
        let excluded = AtomicUsize::new(0);
        let kept = |path: &Path| {
            let kept = filter.keeps(path)
                && configs.keeps(path).unwrap_or_else(|e| {
                    note(e);
                    false
                });
            if !kept {
                excluded.fetch_add(1, Ordering::Relaxed);
            }
            kept
        };
        let extension_wanted = |path: &Path| {
            if !extensions.is_empty() {
                return walk::has_extension(path, extensions);
            }
            match configs.of(path) {
                Ok(c) => match &c.config.extensions {
                    Some(e) => walk::has_extension(path, e),
                    None => walk::has_extension(path, walk::DEFAULT_EXTENSIONS),
                },
                Err(e) => {
                    note(e);
                    false
                }
            }
        };
        let wanted_in_walk = |path: &Path| extension_wanted(path) && kept(path);
        let options = walk::WalkOptions {
            no_ignore: self.no_ignore,
            hidden: self.hidden,
            follow: self.follow,
        };
        let wants = walk::Wants {
            walked: &wanted_in_walk,
            named: &kept,
        };
        let mut walked = walk::collect(paths, wants, options);
        let excluded = excluded.into_inner();
        walked
            .errors
            .extend(unread.into_inner().unwrap_or_default());
        if walked.files.is_empty() && walked.errors.is_empty() && !paths.is_empty() {
            let why = if excluded > 0 {
                format!("the {excluded} found are all excluded (`exclude` of the configuration, --exclude or --glob)")
            } else {
                let extensions = match (extensions, &configs.of_working_directory().extensions) {
                    ([], Some(configured)) => configured.join(", "),
                    ([], None) => walk::DEFAULT_EXTENSIONS.join(", "),
                    (given, _) => given.join(", "),
                };
                format!(
                    "none has one of the extensions {extensions} outside ignore rules and hidden directories (--ext, --no-ignore and --hidden widen the walk)"
                )
            };
            if paths.iter().all(|p| p.is_file()) {
                // Files named one by one (pre-commit passes a commit's files): excluding them is
                // the configuration's intent.
                warn(format_args!("ptx2hip: note: no file processed: {why}"));
            } else {
                walked.errors.push(format!("no files to process: {why}"));
            }
        }
        (walked.files, walked.errors)
    }
}
