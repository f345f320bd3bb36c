//! Which configuration applies to a file: the closest `ptx2hip.toml` in the file's directory or
//! above it, as ruff and clang-tidy resolve theirs, so that a run gives the same answer from any
//! working directory and a subtree (a vendored library, a generated directory) can carry its own
//! settings.
//!
//! Closest wins: a nested file's settings replace the outer one's for its subtree whole, no key
//! is merged (ruff's rule without `extend`), so what a subtree gets is what its own file says. Its `exclude` patterns are relative to its own directory. One thing of the outer file
//! still holds: a directory it excludes stays excluded with any configuration inside it, as
//! ruff's walk never enters such a directory. A file with no configuration above it gets the one
//! found from the working directory up (standard input too). `--config FILE` and `--isolated`
//! apply one configuration to every file.
//!
//! Each directory is looked up once (one `stat` of its `ptx2hip.toml`) and each file read once,
//! however many files lie below it: a tree with one configuration costs what it did before
//! nesting existed.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use super::select::PerFileIgnores;
use super::{Config, Source, FILE_NAME};
use crate::filter::Filter;
use crate::walk::lexically_absolute;

/// One configuration and its compiled `exclude` and `per-file-ignores` patterns.
#[derive(Debug)]
pub struct Resolved {
    pub config: Config,
    exclude: Filter,
    pub per_file_ignores: PerFileIgnores,
}

impl Resolved {
    fn new(config: Config) -> Result<Arc<Resolved>, String> {
        let shown = config
            .path
            .as_ref()
            .map(|p| format!("{}: ", p.display()))
            .unwrap_or_default();
        let exclude = Filter::new(
            &[(config.root.clone(), config.exclude.clone())],
            &[],
            &config.root,
        )
        .map_err(|e| format!("{shown}{e}"))?;
        let per_file_ignores = PerFileIgnores::new(&config.root, &config.per_file_ignores)
            .map_err(|e| format!("{shown}{e}"))?;
        Ok(Arc::new(Resolved {
            config,
            exclude,
            per_file_ignores,
        }))
    }
}

/// What a directory's lookup found: the closest configuration at or above it, `None` where
/// there is none, or why the closest one could not be read.
type Found = Result<Option<Arc<Resolved>>, String>;

/// The configurations of a run, resolved per file.
#[derive(Debug)]
pub struct Configs {
    /// `--config FILE` or `--isolated`: this one for every file.
    fixed: Option<Arc<Resolved>>,
    /// For files with no configuration above them: the one found from the working directory.
    fallback: Arc<Resolved>,
    /// Per directory (absolute), what its lookup found.
    dirs: RwLock<HashMap<PathBuf, Found>>,
}

impl Configs {
    /// The configurations `source` designates. The error is the fixed configuration's or the
    /// working directory's: a run cannot start without them.
    pub fn new(source: &Source) -> Result<Configs, String> {
        let mut configs = Configs {
            fixed: None,
            fallback: Resolved::new(Config::default())?,
            dirs: RwLock::new(HashMap::new()),
        };
        match source {
            Source::Isolated => configs.fixed = Some(Resolved::new(Config::default())?),
            Source::File(path) => configs.fixed = Some(Resolved::new(Config::read(path)?)?),
            Source::Discover(dir) => {
                if let Some(found) = configs.closest(&lexically_absolute(dir))? {
                    configs.fallback = found;
                }
            }
        }
        Ok(configs)
    }

    /// The configuration of the file at `path`; the error names the configuration file that
    /// could not be read.
    pub fn of(&self, path: &Path) -> Result<Arc<Resolved>, String> {
        if let Some(fixed) = &self.fixed {
            return Ok(fixed.clone());
        }
        let path = lexically_absolute(path);
        let found = match path.parent() {
            Some(dir) => self.closest(dir)?,
            None => None,
        };
        Ok(found.unwrap_or_else(|| self.fallback.clone()))
    }

    /// The configuration of the working directory (what `--config`/`--isolated` fix).
    pub fn of_working_directory(&self) -> &Config {
        &self.fixed.as_ref().unwrap_or(&self.fallback).config
    }

    /// Whether the `exclude` patterns in effect keep the file at `path`: those of its own
    /// configuration, and for the directory of that configuration those of the one above it, and
    /// so on up.
    pub fn keeps(&self, path: &Path) -> Result<bool, String> {
        let path = lexically_absolute(path);
        if let Some(fixed) = &self.fixed {
            return Ok(fixed.exclude.keeps(&path));
        }
        let Some(mut dir) = path.parent().map(Path::to_path_buf) else {
            return Ok(self.fallback.exclude.keeps(&path));
        };
        let Some(mut config) = self.closest(&dir)? else {
            return Ok(self.fallback.exclude.keeps(&path));
        };
        if !config.exclude.keeps(&path) {
            return Ok(false);
        }
        loop {
            dir = config.config.root.clone();
            let Some(above) = dir.parent().map(|d| self.closest(d)).transpose()?.flatten() else {
                return Ok(true);
            };
            if !above.exclude.keeps_dir(&dir) {
                return Ok(false);
            }
            config = above;
        }
    }

    /// The closest configuration at or above the absolute directory `dir`, looked up once per
    /// directory.
    fn closest(&self, dir: &Path) -> Found {
        if let Some(found) = self.cached(dir) {
            return found;
        }
        let file = dir.join(FILE_NAME);
        let found = if file.is_file() {
            Config::read(&file).and_then(Resolved::new).map(Some)
        } else {
            match dir.parent() {
                Some(parent) => self.closest(parent),
                None => Ok(None),
            }
        };
        if let Ok(mut dirs) = self.dirs.write() {
            dirs.insert(dir.to_path_buf(), found.clone());
        }
        found
    }

    fn cached(&self, dir: &Path) -> Option<Found> {
        self.dirs.read().ok()?.get(dir).cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in files {
            let path = dir.path().join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        dir
    }

    fn ignored(configs: &Configs, path: &Path) -> Vec<String> {
        let c = configs.of(path).unwrap();
        c.config
            .selection
            .ignore
            .iter()
            .map(|c| c.to_string())
            .collect()
    }

    #[test]
    fn the_closest_file_above_each_file_wins_whole() {
        let dir = tree(&[
            (FILE_NAME, "ignore = [\"T001\"]\ndefines = [\"OUTER\"]\n"),
            ("vendor/ptx2hip.toml", "ignore = [\"U001\"]\n"),
        ]);
        let configs = Configs::new(&Source::Discover(dir.path().to_path_buf())).unwrap();
        let root = dir.path();
        assert_eq!(ignored(&configs, &root.join("src/a.cu")), ["T001"]);
        assert_eq!(ignored(&configs, &root.join("vendor/x/b.cu")), ["U001"]);
        let nested = configs.of(&root.join("vendor/b.cu")).unwrap();
        assert!(nested.config.defines.is_empty(), "nothing merged");
    }

    #[test]
    fn excludes_are_relative_to_their_file_and_outer_excluded_directories_stay_out() {
        let dir = tree(&[
            (FILE_NAME, "exclude = [\"third_party/\", \"*.gen.cu\"]\n"),
            ("lib/ptx2hip.toml", "exclude = [\"/gen\"]\n"),
            ("third_party/x/ptx2hip.toml", ""),
        ]);
        let configs = Configs::new(&Source::Discover(dir.path().to_path_buf())).unwrap();
        let keeps = |p: &str| configs.keeps(&dir.path().join(p)).unwrap();
        assert!(!keeps("gen/k.gen.cu"));
        assert!(
            keeps("lib/k.gen.cu"),
            "the nested file replaces the outer one"
        );
        assert!(!keeps("lib/gen/k.cu"), "`/gen` is lib/gen");
        assert!(keeps("gen/k.cu"));
        assert!(!keeps("third_party/x/k.cu"), "excluded above its own file");
    }

    #[test]
    fn a_fixed_configuration_applies_everywhere_and_each_directory_is_read_once() {
        let dir = tree(&[
            (FILE_NAME, "ignore = [\"T001\"]\n"),
            ("a/ptx2hip.toml", "ignore = [\"U001\"]\n"),
        ]);
        let configs = Configs::new(&Source::Isolated).unwrap();
        assert!(ignored(&configs, &dir.path().join("a/k.cu")).is_empty());
        let configs = Configs::new(&Source::Discover(dir.path().join("a"))).unwrap();
        assert_eq!(ignored(&configs, &dir.path().join("k.cu")), ["T001"]);
        let first = configs.of(&dir.path().join("a/b/c/k.cu")).unwrap();
        let again = configs.of(&dir.path().join("a/b/k.cu")).unwrap();
        assert!(Arc::ptr_eq(&first, &again));
    }

    #[test]
    fn a_path_through_dot_dot_gets_the_configuration_of_where_it_leads() {
        let dir = tree(&[("a/ptx2hip.toml", "ignore = [\"U001\"]\n")]);
        let configs = Configs::new(&Source::Discover(dir.path().join("elsewhere"))).unwrap();
        let through = dir.path().join("a/../b/k.cu");
        assert!(ignored(&configs, &through).is_empty(), "b is not under a");
        assert_eq!(ignored(&configs, &dir.path().join("b/../a/k.cu")), ["U001"]);
    }

    #[test]
    fn a_broken_nested_file_is_an_error_for_its_files_only() {
        let dir = tree(&[("bad/ptx2hip.toml", "exlude = []\n")]);
        let configs = Configs::new(&Source::Discover(dir.path().to_path_buf())).unwrap();
        assert!(configs.of(&dir.path().join("k.cu")).is_ok());
        let e = configs.of(&dir.path().join("bad/k.cu")).unwrap_err();
        assert!(e.contains("bad") && e.contains("`exlude`"), "{e}");
        assert!(configs.keeps(&dir.path().join("bad/k.cu")).is_err());
    }
}
