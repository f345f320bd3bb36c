//! Which files a command processes: the configuration file and the flags that exclude paths.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::output::warn;
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
    /// Use this configuration file instead of the ptx2hip.toml found from the working directory
    /// up.
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
    loaded: OnceLock<Result<(Config, Filter), String>>,
}

impl Selection {
    /// The configuration and the compiled exclusions, read once.
    fn loaded(&self) -> Result<&(Config, Filter), String> {
        self.loaded
            .get_or_init(|| {
                let cwd =
                    std::env::current_dir().map_err(|e| format!("the working directory: {e}"))?;
                let source = match (&self.config, self.isolated) {
                    (_, true) => Source::Isolated,
                    (Some(file), false) => Source::File(file.clone()),
                    (None, false) => Source::Discover(cwd.clone()),
                };
                let config = Config::load(&source)?;
                let excludes = [
                    (config.root.clone(), config.exclude.clone()),
                    (cwd.clone(), self.exclude.clone()),
                ];
                let filter = Filter::new(&excludes, &self.glob, &cwd)?;
                Ok((config, filter))
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The configuration in effect.
    pub fn config(&self) -> Result<&Config, String> {
        self.loaded().map(|(c, _)| c)
    }

    /// Whether the file at `path` is processed (not excluded).
    pub fn keeps(&self, path: &Path) -> Result<bool, String> {
        self.loaded().map(|(_, f)| f.keeps(path))
    }

    /// The files under `paths`, and the errors met finding them. `extensions` (from `--ext`)
    /// replace the configuration's, which replace [`walk::DEFAULT_EXTENSIONS`]. A run that
    /// selects no file is an error (a lint that checked nothing must not pass), except when every
    /// path names a file: then a note says they were all excluded.
    pub fn files(
        &self,
        paths: &[PathBuf],
        extensions: &[String],
    ) -> (Vec<SourceFile>, Vec<String>) {
        let (config, filter) = match self.loaded() {
            Ok(l) => l,
            Err(e) => return (Vec::new(), vec![e]),
        };
        let extensions: Vec<String> = if !extensions.is_empty() {
            extensions.to_vec()
        } else if let Some(e) = &config.extensions {
            e.clone()
        } else {
            walk::DEFAULT_EXTENSIONS
                .iter()
                .map(|s| s.to_string())
                .collect()
        };
        let options = walk::WalkOptions {
            no_ignore: self.no_ignore,
            hidden: self.hidden,
            follow: self.follow,
        };
        let mut walked = walk::collect(paths, &extensions, options);
        let found = walked.files.len();
        walked.files.retain(|f| filter.keeps(&f.path));
        if walked.files.is_empty() && walked.errors.is_empty() && !paths.is_empty() {
            let why = if found > 0 {
                format!("the {found} found are all excluded (`exclude` of the configuration, --exclude or --glob)")
            } else {
                format!(
                    "none has one of the extensions {} outside ignore rules and hidden directories (--ext, --no-ignore and --hidden widen the walk)",
                    extensions.join(", ")
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
