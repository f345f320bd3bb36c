//! `ptx2hip.toml`: a project's settings, so that CI, pre-commit and people at a terminal run the
//! same lint.
//!
//! Each file gets the closest `ptx2hip.toml` in its directory or above it, whole
//! ([`resolve`]: nested files apply to their subtree); `--config FILE` names one for every file
//! instead, `--isolated` uses none. Every key is optional:
//!
//! ```toml
//! exclude = ["third_party/", "*.generated.cu"]   # gitignore syntax, relative to this file
//! extensions = ["cu", "cuh"]                     # replaces the default extensions
//! select = ["U", "T003"]                        # finding codes `check` reports (default: all
//!                                                # but L001); prefixes select every code below
//! ignore = ["T001"]                              # finding codes `check` does not report
//! defines = ["USE_TENSOR_CORES", "CUDA_VERSION=12040"]
//! amd-defines = ["GGML_USE_HIP"]
//! nvidia-only-macros = ["NEW_MMA_AVAILABLE"]
//!
//! [per-file-ignores]                             # patterns as `exclude`'s: codes not reported
//! "tests/" = ["U001"]                            # in the files they match
//! ```
//!
//! [`select`] says how `select`, `ignore` and `per-file-ignores` combine with the command line's.
//!
//! A key ptx2hip does not know is an error naming the file and the key: a misspelt `exclude`
//! must not silently lint `third_party/`.

pub mod resolve;
pub mod select;

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::lower::TensorModel;
use crate::rules::evidence::Floor;
use crate::scan::cuda_arch::CudaArch;

/// The name looked for.
pub const FILE_NAME: &str = "ptx2hip.toml";

/// Every key of the file.
const KEYS: &[&str] = &[
    "exclude",
    "extensions",
    "select",
    "ignore",
    "per-file-ignores",
    "defines",
    "amd-defines",
    "nvidia-only-macros",
    "cuda-arch",
    "tensor-model",
    "evidence",
];

/// A macro the user declares: its name and, for `NAME=VALUE`, its value.
pub type Define = (String, Option<String>);

/// The settings in effect.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Config {
    /// The file they come from; `None` for the defaults.
    pub path: Option<PathBuf>,
    /// Patterns of paths never processed, in gitignore syntax, relative to [`Config::root`].
    pub exclude: Vec<String>,
    /// The directory `exclude` patterns are relative to: the file's directory.
    pub root: PathBuf,
    /// Extensions processed when walking directories, replacing the default ones; `--ext`
    /// replaces these in turn.
    pub extensions: Option<Vec<String>>,
    /// The finding codes `check` reports (`select` and `ignore`).
    pub selection: select::Selection,
    /// Patterns of paths, relative to [`Config::root`], with the codes not reported in the files
    /// they match.
    pub per_file_ignores: Vec<select::PerFileIgnore>,
    /// Macros defined in every compilation, as `-D NAME[=VALUE]` defines them: they feed the
    /// scanner's `-D` defines, which decide the `#if`s around and inside asm statements.
    pub defines: Vec<Define>,
    /// Macros a project defines when it compiles for AMD (llama.cpp's `GGML_USE_HIP`): they feed
    /// the scanner's AMD-compilation macros, so that code under `#ifdef GGML_USE_HIP` is known to
    /// be AMD-only and code under `#ifndef GGML_USE_HIP` NVIDIA-only.
    pub amd_defines: Vec<Define>,
    /// Macros a project defines only when it compiles for NVIDIA (llama.cpp's
    /// `NEW_MMA_AVAILABLE`): they feed the scanner's NVIDIA-compilation macros, so that asm
    /// under `#ifdef NEW_MMA_AVAILABLE` is known to be NVIDIA-only and not reported.
    pub nvidia_only_macros: Vec<Define>,
    /// The NVIDIA architecture whose `__CUDA_ARCH__` arms the AMD device compilation follows
    /// (`cuda-arch = 90` or `"sm_90"`); `--cuda-arch` replaces it.
    pub cuda_arch: Option<CudaArch>,
    /// Whose tensor cores the exact matrix translations reproduce (`tensor-model = "sm_80"`);
    /// `--tensor-model` replaces it.
    pub tensor_model: Option<TensorModel>,
    /// The least evidence the rules of a translation must have (`evidence = "hardware"`,
    /// docs/EVIDENCE.md); `--evidence` replaces it.
    pub evidence: Option<Floor>,
}

/// The file as written.
#[derive(Deserialize)]
#[serde(rename_all = "kebab-case")]
struct Raw {
    #[serde(default)]
    exclude: Vec<String>,
    extensions: Option<Vec<String>>,
    select: Option<Vec<String>>,
    #[serde(default)]
    ignore: Vec<String>,
    #[serde(default)]
    per_file_ignores: std::collections::BTreeMap<String, Vec<String>>,
    #[serde(default)]
    defines: Vec<String>,
    #[serde(default)]
    amd_defines: Vec<String>,
    #[serde(default)]
    nvidia_only_macros: Vec<String>,
    cuda_arch: Option<toml::Value>,
    tensor_model: Option<toml::Value>,
    evidence: Option<String>,
}

/// Which configuration to use, from `--config` and `--isolated`.
#[derive(Debug, Clone, PartialEq)]
pub enum Source {
    /// For each file the closest `ptx2hip.toml` at or above it; for a file with none, the
    /// closest at or above this directory (the working directory).
    Discover(PathBuf),
    /// This file.
    File(PathBuf),
    /// None: the defaults.
    Isolated,
}

impl Config {
    /// Reads and checks one file.
    pub fn read(path: &Path) -> Result<Config, String> {
        let shown = path.display();
        let text = std::fs::read_to_string(path).map_err(|e| format!("{shown}: {e}"))?;
        let mut config = Config::parse(&text).map_err(|e| format!("{shown}: {e}"))?;
        let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        config.root = absolute.parent().map(Path::to_path_buf).unwrap_or_default();
        config.path = Some(path.to_path_buf());
        Ok(config)
    }

    /// The settings a file's text holds (`root` and `path` left empty).
    pub fn parse(text: &str) -> Result<Config, String> {
        let table: toml::Table = toml::from_str(text).map_err(|e| e.to_string())?;
        if let Some(key) = table.keys().find(|k| !KEYS.contains(&k.as_str())) {
            return Err(format!(
                "unknown key `{key}` (the keys are {})",
                KEYS.join(", ")
            ));
        }
        let raw: Raw = table.try_into().map_err(|e| e.to_string())?;
        if raw.extensions.as_ref().is_some_and(Vec::is_empty) {
            return Err(
                "`extensions` is empty: no file would be processed (leave it out for the default extensions)"
                    .into(),
            );
        }
        Ok(Config {
            path: None,
            root: PathBuf::new(),
            exclude: raw.exclude,
            extensions: raw
                .extensions
                .map(|e| e.iter().map(|x| extension(x)).collect())
                .transpose()?,
            selection: select::Selection {
                select: raw
                    .select
                    .as_ref()
                    .map(|s| select::parse_list(s.iter().map(String::as_str)))
                    .transpose()
                    .map_err(|e| format!("`select`: {e}"))?,
                extend_select: Vec::new(),
                ignore: select::parse_list(raw.ignore.iter().map(String::as_str))
                    .map_err(|e| format!("`ignore`: {e}"))?,
            },
            per_file_ignores: raw
                .per_file_ignores
                .into_iter()
                .map(|(pattern, codes)| {
                    let codes = select::parse_list(codes.iter().map(String::as_str))
                        .map_err(|e| format!("`per-file-ignores`: `{pattern}`: {e}"))?;
                    Ok((pattern, codes))
                })
                .collect::<Result<_, String>>()?,
            defines: defines("defines", &raw.defines)?,
            amd_defines: defines("amd-defines", &raw.amd_defines)?,
            nvidia_only_macros: defines("nvidia-only-macros", &raw.nvidia_only_macros)?,
            cuda_arch: raw.cuda_arch.as_ref().map(cuda_arch).transpose()?,
            tensor_model: raw.tensor_model.as_ref().map(tensor_model).transpose()?,
            evidence: raw
                .evidence
                .map(|e| {
                    Floor::parse(&e).ok_or_else(|| {
                        format!("`evidence`: `{e}` is not an evidence floor: hardware or any")
                    })
                })
                .transpose()?,
        })
    }
}

/// An extension as `--ext` takes it: without its dot.
fn extension(text: &str) -> Result<String, String> {
    let e = text.trim().trim_start_matches('.');
    if e.is_empty() || e.contains(['/', '\\', '.']) || e.contains(char::is_whitespace) {
        return Err(format!(
            "`extensions`: `{text}` is not a file extension (write `cu`, `cuh`, ...)"
        ));
    }
    Ok(e.to_string())
}

/// `cuda-arch = 90` or `cuda-arch = "sm_90"`.
fn cuda_arch(value: &toml::Value) -> Result<CudaArch, String> {
    let text = match value {
        toml::Value::Integer(n) => n.to_string(),
        toml::Value::String(s) => s.clone(),
        other => format!("{other}"),
    };
    CudaArch::parse(&text).map_err(|e| format!("`cuda-arch`: {e}"))
}

/// `tensor-model = "sm_80"` (or 80, "sm_90", 90).
fn tensor_model(value: &toml::Value) -> Result<TensorModel, String> {
    let text = match value {
        toml::Value::Integer(n) => n.to_string(),
        toml::Value::String(s) => s.clone(),
        other => format!("{other}"),
    };
    TensorModel::parse(&text)
        .ok_or_else(|| format!("`tensor-model`: `{text}` is not a tensor model: sm_90 or sm_80"))
}

/// `NAME` or `NAME=VALUE` entries of `key`.
fn defines(key: &str, entries: &[String]) -> Result<Vec<Define>, String> {
    entries
        .iter()
        .map(|entry| {
            let (name, value) = match entry.split_once('=') {
                Some((n, v)) => (n.trim(), Some(v.to_string())),
                None => (entry.trim(), None),
            };
            let identifier = name
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !identifier {
                return Err(format!(
                    "`{key}`: `{entry}` is not `NAME` or `NAME=VALUE` with a macro name"
                ));
            }
            Ok((name.to_string(), value))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_is_read_into_its_typed_setting() {
        let c = Config::parse(
            r#"
            exclude = ["third_party/", "*.gen.cu"]
            extensions = ["cu", ".cuh"]
            select = ["U", "t"]
            ignore = ["T001", "u003"]
            defines = ["NDEBUG", "CUDA_VERSION=12040", "EMPTY="]
            amd-defines = ["GGML_USE_HIP"]
            nvidia-only-macros = ["NEW_MMA_AVAILABLE"]
            cuda-arch = "sm_80"
            tensor-model = "sm_80"
            evidence = "hardware"
            [per-file-ignores]
            "tests/" = ["U001", "T"]
            "#,
        )
        .unwrap();
        assert_eq!(c.tensor_model, Some(TensorModel::Sm80));
        assert_eq!(c.evidence, Some(Floor::Hardware));
        assert!(Config::parse("evidence = \"vectors\"")
            .unwrap_err()
            .contains("hardware or any"));
        assert_eq!(c.exclude, ["third_party/", "*.gen.cu"]);
        assert_eq!(c.extensions, Some(vec!["cu".into(), "cuh".into()]));
        let shown = |s: &[select::Selector]| s.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(shown(c.selection.select.as_deref().unwrap()), ["U", "T"]);
        assert_eq!(shown(&c.selection.ignore), ["T001", "U003"]);
        assert_eq!(c.per_file_ignores.len(), 1);
        assert_eq!(c.per_file_ignores[0].0, "tests/");
        assert_eq!(shown(&c.per_file_ignores[0].1), ["U001", "T"]);
        assert_eq!(
            c.defines,
            [
                ("NDEBUG".into(), None),
                ("CUDA_VERSION".into(), Some("12040".into())),
                ("EMPTY".into(), Some(String::new())),
            ]
        );
        assert_eq!(c.amd_defines, [("GGML_USE_HIP".into(), None)]);
        assert_eq!(c.nvidia_only_macros, [("NEW_MMA_AVAILABLE".into(), None)]);
        assert_eq!(c.cuda_arch.map(CudaArch::value), Some(800));
        let c = Config::parse("cuda-arch = 70").unwrap();
        assert_eq!(c.cuda_arch.map(CudaArch::value), Some(700));
    }

    #[test]
    fn an_empty_file_is_the_defaults() {
        assert_eq!(Config::parse("").unwrap(), Config::default());
    }

    #[test]
    fn an_unknown_key_is_an_error_naming_it() {
        let e = Config::parse("exclude = []\nexlude = [\"x\"]\n").unwrap_err();
        assert!(e.contains("unknown key `exlude`"), "{e}");
    }

    #[test]
    fn a_table_where_a_list_belongs_is_an_error() {
        let e = Config::parse("[exclude]\nx = 1\n").unwrap_err();
        assert!(e.contains("exclude"), "{e}");
    }

    #[test]
    fn unknown_codes_bad_macro_names_and_bad_extensions_are_errors() {
        let e = Config::parse("ignore = [\"X999\"]").unwrap_err();
        assert!(e.contains("`ignore`: `X999` is not a finding code"), "{e}");
        let e = Config::parse("select = [\"U9\"]").unwrap_err();
        assert!(e.contains("`select`: `U9` is not a finding code"), "{e}");
        let e = Config::parse("[per-file-ignores]\n\"a/\" = [\"Z\"]").unwrap_err();
        assert!(e.contains("`per-file-ignores`: `a/`: `Z`"), "{e}");
        let e = Config::parse("defines = [\"1ABC\"]").unwrap_err();
        assert!(e.contains("`defines`: `1ABC`"), "{e}");
        let e = Config::parse("amd-defines = [\"=1\"]").unwrap_err();
        assert!(e.contains("`amd-defines`"), "{e}");
        let e = Config::parse("extensions = [\"src/cu\"]").unwrap_err();
        assert!(e.contains("`extensions`"), "{e}");
        let e = Config::parse("cuda-arch = 900").unwrap_err();
        assert!(
            e.contains("`cuda-arch`") && e.contains("--cuda-arch 90"),
            "{e}"
        );
    }

    #[test]
    fn a_read_file_knows_its_path_and_root_and_errors_name_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE_NAME);
        std::fs::write(&path, "exclude = [\"gen/\"]\n").unwrap();
        let c = Config::read(&path).unwrap();
        assert_eq!(c.path.as_deref(), Some(path.as_path()));
        assert_eq!(c.root, dir.path());
        std::fs::write(&path, "bogus = 1\n").unwrap();
        let e = Config::read(&path).unwrap_err();
        assert!(e.starts_with(&path.display().to_string()), "{e}");
        assert!(e.contains("`bogus`"), "{e}");
    }
}
