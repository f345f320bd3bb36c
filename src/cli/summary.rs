//! The line `translate` ends with on stderr (like hipify's `--print-stats`): how many files
//! changed and how many statements were translated or left as written; with `--statistics`, the
//! statements left per finding code and reason, and the translations per rule.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::codes::Code;
use crate::pipeline::FileOutcome;
use crate::scan::cuda_arch::CudaArch;

#[derive(Debug, Default)]
pub struct Summary {
    files: usize,
    changed: usize,
    /// Files whose translation could not be written (an error says why).
    not_written: usize,
    translated: usize,
    left: usize,
    rules: BTreeMap<String, usize>,
    reasons: BTreeMap<(Code, String), usize>,
    /// `__CUDA_ARCH__` conditions rewritten for `--cuda-arch`, in the files changed.
    arch_conditions: usize,
    /// Statements in `__CUDA_ARCH__` arms the AMD device compilation does not take (`T002`).
    other_arch: usize,
    /// The architectures that decided those arms, by value: `--cuda-arch`, or each file's
    /// `cuda-arch` (nested configurations may choose differently).
    arches: Vec<CudaArch>,
}

impl Summary {
    /// Counts one file's outcome; `arch`: the architecture whose `__CUDA_ARCH__` arms it took.
    pub fn add(&mut self, outcome: &FileOutcome, arch: Option<CudaArch>) {
        self.files += 1;
        self.changed += usize::from(outcome.rewritten.is_some());
        let other_arch = outcome
            .diagnostics
            .iter()
            .filter(|d| d.code == Code::OtherArchArm)
            .count();
        self.arch_conditions += outcome.arch_conditions;
        self.other_arch += other_arch;
        if let Some(arch) = arch.filter(|_| outcome.arch_conditions + other_arch > 0) {
            self.decided_by(arch);
        }
        for f in &outcome.findings {
            match &f.outcome {
                Ok(rules) => {
                    self.translated += 1;
                    for r in rules {
                        *self.rules.entry(r.clone()).or_default() += 1;
                    }
                }
                Err(u) => {
                    self.left += 1;
                    *self.reasons.entry((u.code, u.message.clone())).or_default() += 1;
                }
            }
        }
    }

    /// A file whose translation could not be written: whatever `add` counted, it did not change.
    pub fn not_written(&mut self, outcome: &FileOutcome) {
        self.changed -= usize::from(outcome.rewritten.is_some());
        self.not_written += 1;
    }

    pub fn merge(&mut self, other: Summary) {
        self.files += other.files;
        self.changed += other.changed;
        self.not_written += other.not_written;
        self.translated += other.translated;
        self.left += other.left;
        self.arch_conditions += other.arch_conditions;
        self.other_arch += other.other_arch;
        for arch in other.arches {
            self.decided_by(arch);
        }
        for (k, n) in other.rules {
            *self.rules.entry(k).or_default() += n;
        }
        for (k, n) in other.reasons {
            *self.reasons.entry(k).or_default() += n;
        }
    }

    fn decided_by(&mut self, arch: CudaArch) {
        if let Err(k) = self
            .arches
            .binary_search_by_key(&arch.value(), |a| a.value())
        {
            self.arches.insert(k, arch);
        }
    }

    /// `ptx2hip: 2 of 3 files changed, 5 statements translated, 1 left as written`, then what
    /// the architecture (`--cuda-arch`, `cuda-arch`) decided when it decided something, and with
    /// `statistics` the counts behind it, most frequent first.
    pub fn render(&self, statistics: bool) -> String {
        let plural =
            |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        let mut s = format!(
            "ptx2hip: {} of {} changed, {} translated, {} left as written",
            self.changed,
            plural(self.files, "file", "files"),
            plural(self.translated, "statement", "statements"),
            self.left,
        );
        if self.not_written > 0 {
            s.push_str(&format!(
                "; {} not written (see the errors above)",
                plural(self.not_written, "file", "files")
            ));
        }
        let taken = match self.arches.as_slice() {
            [] => None,
            [arch] => Some(format!("= {} (--cuda-arch {arch})", arch.value())),
            several => Some(format!(
                "= {} as each file's configuration says (`cuda-arch`)",
                several
                    .iter()
                    .map(|a| a.value().to_string())
                    .collect::<Vec<_>>()
                    .join(" or ")
            )),
        };
        if let Some(taken) = taken {
            let _ = write!(
                s,
                "; AMD device code takes the arms of `__CUDA_ARCH__` {taken}: {} rewritten, {} in other arms left for NVIDIA",
                plural(self.arch_conditions, "condition", "conditions"),
                plural(self.other_arch, "statement", "statements"),
            );
        }
        s.push('\n');
        if statistics {
            let mut codes: BTreeMap<Code, usize> = BTreeMap::new();
            for ((code, _), n) in &self.reasons {
                *codes.entry(*code).or_default() += n;
            }
            let mut codes: Vec<_> = codes.into_iter().collect();
            codes.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            for (code, n) in codes {
                let _ = writeln!(s, "{n:>6}  {code}  {} (left as written)", code.name());
                let mut reasons: Vec<_> = self.reasons.iter().filter(|r| r.0 .0 == code).collect();
                reasons.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
                for ((_, reason), n) in reasons {
                    let _ = writeln!(s, "{n:>12}  {reason}");
                }
            }
            let mut rules: Vec<_> = self.rules.iter().collect();
            rules.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
            for (rule, n) in rules {
                let _ = writeln!(s, "{n:>6}  {rule}  translated");
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lower::{RuleSet, Target};
    use crate::pipeline::{process, Options};

    #[test]
    fn the_summary_counts_files_statements_and_reasons() {
        let rules = RuleSet::embedded().unwrap();
        let options = Options {
            target: Target::Amd,
            emit: Some(crate::emit::EmitMode::Guarded),
            provenance: true,
            tensor_model: Default::default(),
            fast: false,
            evidence: Default::default(),
        };
        let mut summary = Summary::default();
        let src = "__device__ int f(int x) {\n  int y;\n  asm(\"add.s32 %0, %1, 1;\" : \"=r\"(y) : \"r\"(x));\n  asm(\"frob.b32 %0;\" : \"=r\"(y));\n  return y;\n}\n";
        summary.add(&process(src.as_bytes(), &rules, options), None);
        let mut other = Summary::default();
        other.add(&process(b"int x;\n", &rules, options), None);
        summary.merge(other);
        assert_eq!(
            summary.render(false),
            "ptx2hip: 1 of 2 files changed, 1 statement translated, 1 left as written\n"
        );
        let detailed = summary.render(true);
        assert!(detailed.contains(
            "     1  U001  unknown-instruction (left as written)\n           1  unknown instruction `frob`"
        ));
        assert!(
            detailed.ends_with("     1  I001  translated\n"),
            "{detailed}"
        );
    }

    #[test]
    fn the_summary_says_what_the_architecture_decided() {
        let rules = RuleSet::embedded().unwrap();
        let options = Options {
            target: Target::Amd,
            emit: Some(crate::emit::EmitMode::Guarded),
            provenance: true,
            tensor_model: Default::default(),
            fast: false,
            evidence: Default::default(),
        };
        let src = "__device__ int f(int x) {\n  int y;\n#if __CUDA_ARCH__ >= 800\n  asm(\"add.s32 %0, %1, 1;\" : \"=r\"(y) : \"r\"(x));\n#elif __CUDA_ARCH__ >= 700\n  asm(\"add.s32 %0, %1, 2;\" : \"=r\"(y) : \"r\"(x));\n#endif\n  return y;\n}\n";
        let run = |arch: CudaArch| {
            let scan = crate::scan::Options {
                macros: crate::scan::Macros {
                    cuda_arch: Some(arch),
                    ..Default::default()
                },
            };
            let outcome =
                crate::pipeline::process_file(src.as_bytes(), None, &rules, options, &scan);
            let mut summary = Summary::default();
            summary.add(&outcome, Some(arch));
            summary
        };
        let mut summary = run(CudaArch::DEFAULT);
        assert_eq!(
            summary.render(false),
            "ptx2hip: 1 of 1 file changed, 1 statement translated, 0 left as written; AMD device code takes the arms of `__CUDA_ARCH__` = 900 (--cuda-arch sm_90): 2 conditions rewritten, 1 statement in other arms left for NVIDIA\n"
        );
        // Nested configurations choosing another architecture for their subtree: both named.
        summary.merge(run(CudaArch::parse("80").unwrap()));
        summary.merge(run(CudaArch::DEFAULT));
        assert_eq!(
            summary.render(false),
            "ptx2hip: 3 of 3 files changed, 3 statements translated, 0 left as written; AMD device code takes the arms of `__CUDA_ARCH__` = 800 or 900 as each file's configuration says (`cuda-arch`): 6 conditions rewritten, 3 statements in other arms left for NVIDIA\n"
        );
    }
}
