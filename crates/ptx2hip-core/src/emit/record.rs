//! The record of what produced a translation: ptx2hip's version and the options that change its
//! output, written into the helper block (`// ptx2hip 0.9.0 --target amd --emit guarded
//! --tensor-model sm_90`) so that a reviewer sees what made the patch and `check` can regenerate
//! the translated branches with the same options (`emit::verify`).
//!
//! Only options that change the output are recorded, each always (a default may change between
//! versions): `--target`, `--emit`, `--tensor-model`; and where given `--fast`, `--evidence`,
//! `--cuda-arch` and `--no-provenance`. The macros of `-D`/`-U` and `ptx2hip.toml` are not: they
//! decide the project's `#if`s, which `check` reads with its own.

use std::fmt;

use super::EmitMode;
use crate::lower::{Settings, Target, TensorModel};
use crate::rules::evidence::Floor;
use crate::scan::cuda_arch::CudaArch;

/// The version of this ptx2hip.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// What produced a translation.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// The ptx2hip version that wrote it.
    pub version: String,
    pub settings: Settings,
    pub mode: EmitMode,
    /// Provenance comments are written (no `--no-provenance`).
    pub provenance: bool,
    /// `--cuda-arch`, when given.
    pub cuda_arch: Option<CudaArch>,
}

impl Record {
    /// This version's record of a run with these options.
    pub fn current(
        settings: Settings,
        mode: EmitMode,
        provenance: bool,
        cuda_arch: Option<CudaArch>,
    ) -> Record {
        Record {
            version: VERSION.to_string(),
            settings,
            mode,
            provenance,
            cuda_arch,
        }
    }

    /// Reads a record as [`fmt::Display`] writes it; `None` for anything else (an option this
    /// version does not know included).
    pub fn parse(text: &str) -> Option<Record> {
        let mut words = text.split_ascii_whitespace();
        if words.next()? != "ptx2hip" {
            return None;
        }
        let version = words.next()?.to_string();
        let (mut target, mut mode, mut tensor_model) = (None, None, None);
        let mut record =
            Record::current(Settings::from(Target::Amd), EmitMode::Guarded, true, None);
        record.version = version;
        while let Some(option) = words.next() {
            match option {
                "--fast" => record.settings.fast = true,
                "--no-provenance" => record.provenance = false,
                _ => {
                    let value = words.next()?;
                    match option {
                        "--target" => {
                            target = Some(match value {
                                "amd" => Target::Amd,
                                "portable" => Target::Portable,
                                _ => return None,
                            })
                        }
                        "--emit" => {
                            mode = Some(match value {
                                "guarded" => EmitMode::Guarded,
                                "replace" => EmitMode::Replace,
                                _ => return None,
                            })
                        }
                        "--tensor-model" => tensor_model = Some(TensorModel::parse(value)?),
                        "--evidence" => record.settings.evidence = Floor::parse(value)?,
                        "--cuda-arch" => record.cuda_arch = Some(CudaArch::parse(value).ok()?),
                        _ => return None,
                    }
                }
            }
        }
        record.settings.target = target?;
        record.mode = mode?;
        record.settings.tensor_model = tensor_model?;
        Some(record)
    }

    /// Whether `other` names the same options (the version aside).
    pub fn same_options(&self, other: &Record) -> bool {
        Record {
            version: String::new(),
            ..self.clone()
        } == Record {
            version: String::new(),
            ..other.clone()
        }
    }
}

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = &self.settings;
        write!(
            f,
            "ptx2hip {} --target {} --emit {} --tensor-model {}",
            self.version,
            s.target,
            super::helpers::mode_name(self.mode),
            match s.tensor_model {
                TensorModel::Sm90 => "sm_90",
                TensorModel::Sm80 => "sm_80",
            }
        )?;
        if s.fast {
            f.write_str(" --fast")?;
        }
        if s.evidence == Floor::Hardware {
            f.write_str(" --evidence hardware")?;
        }
        if let Some(arch) = self.cuda_arch {
            write!(f, " --cuda-arch {arch}")?;
        }
        if !self.provenance {
            f.write_str(" --no-provenance")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_names_the_version_and_the_options_that_change_the_output_and_reads_back() {
        let plain = Record::current(Settings::from(Target::Amd), EmitMode::Guarded, true, None);
        assert_eq!(
            plain.to_string(),
            format!("ptx2hip {VERSION} --target amd --emit guarded --tensor-model sm_90")
        );
        let mut every = Record::current(
            Settings {
                target: Target::Portable,
                tensor_model: TensorModel::Sm80,
                fast: true,
                evidence: Floor::Hardware,
            },
            EmitMode::Replace,
            false,
            CudaArch::parse("80").ok(),
        );
        every.version = "0.0.9".into();
        let text = every.to_string();
        assert_eq!(
            text,
            "ptx2hip 0.0.9 --target portable --emit replace --tensor-model sm_80 --fast \
             --evidence hardware --cuda-arch sm_80 --no-provenance"
        );
        for record in [&plain, &every] {
            assert_eq!(Record::parse(&record.to_string()).as_ref(), Some(record));
        }
        assert!(!plain.same_options(&every));
        assert!(every.same_options(&Record {
            version: VERSION.into(),
            ..every.clone()
        }));
        // Not a record: another tool, an option this version does not know, a missing one.
        assert_eq!(Record::parse("clang 19 --target amd"), None);
        assert_eq!(Record::parse(&format!("{plain} --frobnicate")), None);
        assert_eq!(
            Record::parse("ptx2hip 0.1.0 --target amd --emit guarded"),
            None
        );
    }
}
