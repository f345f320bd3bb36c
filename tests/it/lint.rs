//! `check` as a CI lint: finding codes in every format, SARIF valid against the SARIF 2.1.0
//! schema, GitHub annotations, configuration discovery, code selection (`--select`, `--ignore`,
//! per-file ignores), inline suppressions, baselines, `--fail-on`, `--exit-zero`,
//! `--output-file`, `--quiet`, `--statistics`, colour, standard input, exclusions and `explain
//! CODE`.

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn ptx2hip(dir: &Path) -> Command {
    let mut c = Command::cargo_bin("ptx2hip").expect("binary built");
    c.current_dir(dir);
    c
}

const ADD: &str = "  asm(\"add.s32 %0, %1, %2;\" : \"=r\"(i) : \"r\"(j), \"r\"(k));\n";
const FROB: &str = "  asm volatile(\"frobnicate.b32 %0;\" :: \"r\"(j));\n";

/// A device function with `body` as its statements.
fn kernel(body: &str) -> String {
    format!("__device__ int f(int j, int k) {{\n  int i = 0;\n{body}  return i;\n}}\n")
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(&p, text).unwrap();
    p
}

/// Runs `check ARGS` in `dir`: exit code, stdout, stderr.
fn check(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let o = ptx2hip(dir).arg("check").args(args).output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8(o.stderr).unwrap(),
    )
}

/// A tree with one translatable and one unsupported statement, and no configuration above it
/// (the temporary directory's parents hold none).
fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "src/k.cu", &kernel(&format!("{ADD}{FROB}")));
    dir
}

mod codes_in_every_format {
    use super::*;

    #[test]
    fn human_shows_the_code_in_the_header() {
        let dir = tree();
        let (code, out, _) = check(dir.path(), &[]);
        assert_eq!(code, 1);
        assert!(
            out.contains("warning[T001]: non-portable inline PTX `add.s32`"),
            "{out}"
        );
        assert!(
            out.contains("error[U001]: non-portable inline PTX `frobnicate.b32`"),
            "{out}"
        );
    }

    #[test]
    fn json_has_a_code_field() {
        let dir = tree();
        let (_, out, _) = check(dir.path(), &["--format", "json"]);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v[0]["code"], "T001");
        assert_eq!(v[0]["status"], "translatable");
        assert_eq!(v[1]["code"], "U001");
        assert_eq!(v[1]["status"], "unsupported");
    }

    #[test]
    fn concise_is_one_line_per_finding_at_the_problem() {
        let dir = tree();
        let (code, out, _) = check(dir.path(), &["--format", "concise", "--quiet"]);
        assert_eq!(code, 1);
        assert_eq!(
            out,
            "src/k.cu:3:3: T001 non-portable inline PTX `add.s32`: translatable (I001)\n\
             src/k.cu:4:17: U001 non-portable inline PTX `frobnicate.b32`: not translated: unknown instruction `frobnicate`: no rule in the table\n"
        );
    }

    #[test]
    fn github_annotations_are_errors_and_warnings_with_the_code_as_title() {
        let dir = tree();
        let (code, out, _) = check(dir.path(), &["--format", "github"]);
        assert_eq!(code, 1);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2, "annotations only: {out}");
        assert!(lines[0].starts_with("::warning file=src/k.cu,line=3,col=3,title=T001::"));
        assert!(lines[1].starts_with("::error file=src/k.cu,line=4,col=17,title=U001::"));
    }

    #[test]
    fn a_file_level_finding_has_its_code_too() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("bin.cu"), b"asm\0\0\0").unwrap();
        let (code, out, _) = check(dir.path(), &["--format", "concise", "-q"]);
        assert_eq!(code, 1);
        assert_eq!(
            out,
            "bin.cu:1:1: E002 binary file (contains NUL bytes): skipped\n"
        );
    }
}

mod sarif {
    use super::*;

    fn validator() -> jsonschema::Validator {
        let text = include_str!("../sarif/sarif-schema-2.1.0.json");
        let schema: serde_json::Value = serde_json::from_str(text).unwrap();
        jsonschema::draft4::options()
            .should_validate_formats(true)
            .build(&schema)
            .expect("the SARIF schema compiles")
    }

    fn errors(v: &jsonschema::Validator, log: &serde_json::Value) -> Vec<String> {
        v.iter_errors(log)
            .map(|e| format!("{} at {}", e, e.instance_path))
            .collect()
    }

    #[test]
    fn the_log_is_valid_sarif_2_1_0() {
        let dir = tree();
        // Every kind of finding: translatable, unsupported, file-level, unused suppression, and
        // a path that needs percent-encoding.
        write(
            dir.path(),
            "src/dir é #1/m.cu",
            &kernel(&format!("{FROB}  // ptx2hip: ignore[U005] stale\n{ADD}")),
        );
        fs::write(dir.path().join("bin.cu"), b"asm\0").unwrap();
        let (code, out, _) = check(
            dir.path(),
            &["--format", "sarif", "--report-unused-suppressions"],
        );
        assert_eq!(code, 1);
        let log: serde_json::Value = serde_json::from_str(&out).unwrap();
        let v = validator();
        assert_eq!(errors(&v, &log), Vec::<String>::new());
        let results = log["runs"][0]["results"].as_array().unwrap();
        let ids: Vec<&str> = results
            .iter()
            .map(|r| r["ruleId"].as_str().unwrap())
            .collect();
        assert_eq!(ids, ["E002", "U001", "T001", "L001", "T001", "U001"]);
        let rules = log["runs"][0]["tool"]["driver"]["rules"]
            .as_array()
            .unwrap();
        for r in results {
            let index = r["ruleIndex"].as_u64().unwrap() as usize;
            assert_eq!(rules[index]["id"], r["ruleId"]);
        }
        let uri = results[1]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .unwrap();
        assert_eq!(uri, "src/dir%20%C3%A9%20%231/m.cu");
    }

    #[test]
    fn the_schema_rejects_what_is_not_sarif() {
        let dir = tree();
        let (_, out, _) = check(dir.path(), &["--format", "sarif"]);
        let mut log: serde_json::Value = serde_json::from_str(&out).unwrap();
        let v = validator();
        assert!(errors(&v, &log).is_empty());
        log["runs"][0]["results"][0]["level"] = "fatal".into();
        assert!(!errors(&v, &log).is_empty(), "the validator is not a no-op");
    }

    #[test]
    fn rules_carry_each_code_documentation_and_results_a_fingerprint() {
        let dir = tree();
        let (_, out, _) = check(dir.path(), &["--format", "sarif"]);
        let log: serde_json::Value = serde_json::from_str(&out).unwrap();
        let driver = &log["runs"][0]["tool"]["driver"];
        assert_eq!(driver["name"], "ptx2hip");
        let u001 = driver["rules"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == "U001")
            .unwrap();
        assert_eq!(u001["name"], "unknown-instruction");
        assert!(u001["help"]["markdown"]
            .as_str()
            .unwrap()
            .contains("Example"));
        let result = &log["runs"][0]["results"][1];
        assert_eq!(result["level"], "error");
        assert_eq!(
            result["locations"][0]["physicalLocation"]["region"]["startLine"],
            4
        );
        assert_eq!(
            result["partialFingerprints"]["ptx2hip/statement/v1"]
                .as_str()
                .unwrap()
                .len(),
            16
        );
    }
}

mod configuration {
    use super::*;

    #[test]
    fn the_file_is_found_upward_from_the_working_directory() {
        let dir = tree();
        write(dir.path(), "src/vendor/v.cu", &kernel(FROB));
        write(
            dir.path(),
            "ptx2hip.toml",
            "exclude = [\"vendor/\"]\nignore = [\"T001\"]\n",
        );
        let (code, out, _) = check(&dir.path().join("src"), &["--format", "concise", "-q"]);
        assert_eq!(code, 1);
        assert_eq!(
            out.lines().collect::<Vec<_>>(),
            ["k.cu:4:17: U001 non-portable inline PTX `frobnicate.b32`: not translated: unknown instruction `frobnicate`: no rule in the table"]
        );
    }

    #[test]
    fn isolated_ignores_it_and_config_names_another() {
        let dir = tree();
        write(
            dir.path(),
            "ptx2hip.toml",
            "ignore = [\"T001\", \"U001\"]\n",
        );
        let (code, _, _) = check(dir.path(), &[]);
        assert_eq!(code, 0, "everything ignored");
        let (code, _, _) = check(dir.path(), &["--isolated"]);
        assert_eq!(code, 1);
        write(dir.path(), "ci/lint.toml", "ignore = [\"T001\"]\n");
        let (code, out, _) = check(
            dir.path(),
            &["--config", "ci/lint.toml", "-q", "--format", "concise"],
        );
        assert_eq!(code, 1);
        assert_eq!(out.lines().count(), 1);
        assert!(out.contains("U001"));
    }

    #[test]
    fn an_unknown_key_is_an_error_naming_the_file_and_the_key() {
        let dir = tree();
        write(dir.path(), "ptx2hip.toml", "exlcude = [\"vendor/\"]\n");
        let (code, out, err) = check(dir.path(), &[]);
        assert_eq!(code, 2);
        assert!(out.is_empty());
        assert!(err.contains("ptx2hip.toml: unknown key `exlcude`"), "{err}");
        let (code, _, err) = ptx2hip(dir.path())
            .args(["translate", "src"])
            .output()
            .map(|o| {
                (
                    o.status.code().unwrap(),
                    (),
                    String::from_utf8(o.stderr).unwrap(),
                )
            })
            .unwrap();
        assert_eq!(code, 2, "translate reads the same file");
        assert!(err.contains("unknown key `exlcude`"), "{err}");
    }

    #[test]
    fn extensions_replace_the_default_ones_and_ext_replaces_them() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "a.cu", &kernel(FROB));
        write(dir.path(), "b.kern", &kernel(FROB));
        let files = |args: &[&str]| {
            let (_, out, _) = check(dir.path(), &[&["--format", "concise", "-q"], args].concat());
            out.lines()
                .map(|l| l.split(':').next().unwrap().to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(files(&[]), ["a.cu"]);
        write(dir.path(), "ptx2hip.toml", "extensions = [\"kern\"]\n");
        assert_eq!(files(&[]), ["b.kern"]);
        assert_eq!(files(&["--ext", "cu,kern"]), ["a.cu", "b.kern"]);
    }

    #[test]
    fn its_macros_decide_conditions_beside_d_and_u() {
        let dir = tempfile::tempdir().unwrap();
        let src = "#ifndef GGML_USE_HIP\n__device__ void a() { asm(\"trap;\"); }\n#endif\n\
#ifdef NEW_MMA_AVAILABLE\n__device__ void c() { asm(\"brkpt;\"); }\n#endif\n\
__device__ unsigned b(const unsigned* p) {\n  unsigned v;\n  asm(\n#if FAST\n  \"ld.global.nc.u32 %0, [%1];\"\n\
#else\n  \"ld.global.u32 %0, [%1];\"\n#endif\n  : \"=r\"(v) : \"l\"(p));\n  return v;\n}\n";
        write(dir.path(), "k.cu", src);
        write(
            dir.path(),
            "ptx2hip.toml",
            "defines = [\"FAST=1\"]\namd-defines = [\"GGML_USE_HIP\"]\nnvidia-only-macros = [\"NEW_MMA_AVAILABLE\"]\n",
        );
        let json = |args: &[&str]| check(dir.path(), &[&["--format", "json"], args].concat()).1;
        let isolated = json(&["--isolated"]);
        assert!(
            isolated.contains("`trap`")
                && isolated.contains("`brkpt`")
                && isolated.contains("ld.global.nc.u32")
                && isolated.contains("ld.global.u32"),
            "{isolated}"
        );
        // `amd-defines`: `#ifndef GGML_USE_HIP` is NVIDIA-only; `nvidia-only-macros`:
        // `#ifdef NEW_MMA_AVAILABLE` is too; `defines`: FAST is 1.
        let configured = json(&[]);
        assert!(
            !configured.contains("`trap`")
                && !configured.contains("`brkpt`")
                && configured.contains("ld.global.nc.u32")
                && !configured.contains("ld.global.u32"),
            "{configured}"
        );
        // The command line comes after the file: `-D` replaces its value, `-U` wins.
        assert!(json(&["-D", "FAST=0"]).contains("ld.global.u32"));
        let undefined = json(&["-U", "FAST"]);
        assert!(undefined.contains("ld.global.u32"), "{undefined}");
    }

    #[test]
    fn exclude_applies_to_files_named_on_the_command_line() {
        let dir = tree();
        write(dir.path(), "ptx2hip.toml", "exclude = [\"src/\"]\n");
        let (code, out, err) = check(dir.path(), &["src/k.cu"]);
        assert_eq!(code, 0, "{out}");
        assert!(
            err.contains("no file processed: the 1 found are all excluded"),
            "{err}"
        );
    }

    /// `file:CODE` per finding of `check --format concise`, paths relative to `root`.
    fn findings(cwd: &Path, root: &Path, args: &[&str]) -> Vec<String> {
        let (_, out, err) = check(cwd, &[&["--format", "concise", "-q"], args].concat());
        let root = format!("{}/", root.display());
        let mut f: Vec<String> = out
            .lines()
            .map(|l| {
                let l = l.strip_prefix(&root).unwrap_or(l);
                let mut parts = l.split(": ");
                let (at, what) = (parts.next().unwrap(), parts.next().unwrap_or(&err));
                format!("{}:{}", at.split(':').next().unwrap(), &what[..4])
            })
            .collect();
        f.sort();
        f
    }

    #[test]
    fn a_nested_configuration_replaces_the_outer_one_in_its_subtree() {
        let dir = tree();
        write(dir.path(), "vendor/v.cu", &kernel(&format!("{ADD}{FROB}")));
        write(dir.path(), "ptx2hip.toml", "ignore = [\"T001\"]\n");
        write(dir.path(), "vendor/ptx2hip.toml", "ignore = [\"U001\"]\n");
        assert_eq!(
            findings(dir.path(), dir.path(), &[]),
            ["src/k.cu:U001", "vendor/v.cu:T001"],
            "closest wins, nothing merged"
        );
        assert_eq!(
            findings(&dir.path().join("vendor"), dir.path(), &[]),
            ["v.cu:T001"],
            "the same from inside the subtree"
        );
        assert_eq!(
            findings(dir.path(), dir.path(), &["--isolated"]),
            [
                "src/k.cu:T001",
                "src/k.cu:U001",
                "vendor/v.cu:T001",
                "vendor/v.cu:U001"
            ]
        );
        write(dir.path(), "ci.toml", "ignore = [\"U001\"]\n");
        assert_eq!(
            findings(dir.path(), dir.path(), &["--config", "ci.toml"]),
            ["src/k.cu:T001", "vendor/v.cu:T001"],
            "--config applies to every file"
        );
    }

    #[test]
    fn nested_excludes_are_relative_to_their_directory() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["gen/k.cu", "lib/gen/k.cu", "lib/k.cu", "third_party/x/k.cu"] {
            write(dir.path(), name, &kernel(FROB));
        }
        write(dir.path(), "ptx2hip.toml", "exclude = [\"third_party/\"]\n");
        write(dir.path(), "lib/ptx2hip.toml", "exclude = [\"/gen\"]\n");
        write(dir.path(), "third_party/x/ptx2hip.toml", "");
        assert_eq!(
            findings(dir.path(), dir.path(), &[]),
            ["gen/k.cu:U001", "lib/k.cu:U001"],
            "`/gen` of lib/ptx2hip.toml is lib/gen; third_party/ stays excluded with its own file"
        );
        assert_eq!(
            findings(dir.path(), dir.path(), &["lib/gen/k.cu", "gen/k.cu"]),
            ["gen/k.cu:U001"],
            "files named on the command line too"
        );
    }

    #[test]
    fn nested_extensions_choose_the_files_of_their_subtree() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["a.cu", "a.kern", "k/b.cu", "k/b.kern"] {
            write(dir.path(), name, &kernel(FROB));
        }
        write(dir.path(), "k/ptx2hip.toml", "extensions = [\"kern\"]\n");
        assert_eq!(
            findings(dir.path(), dir.path(), &[]),
            ["a.cu:U001", "k/b.kern:U001"]
        );
    }

    #[test]
    fn defines_apply_per_subtree_in_check_translate_and_report() {
        let dir = tempfile::tempdir().unwrap();
        let src = "__device__ unsigned b(const unsigned* p) {\n  unsigned v;\n  asm(\n#if FAST\n  \"ld.global.nc.u32 %0, [%1];\"\n\
#else\n  \"frobnicate.u32 %0, [%1];\"\n#endif\n  : \"=r\"(v) : \"l\"(p));\n  return v;\n}\n";
        write(dir.path(), "fast/k.cu", src);
        write(dir.path(), "slow/k.cu", src);
        write(dir.path(), "fast/ptx2hip.toml", "defines = [\"FAST=1\"]\n");
        assert_eq!(
            findings(dir.path(), dir.path(), &[]),
            ["fast/k.cu:T001", "slow/k.cu:U001"]
        );
        let diff = ptx2hip(dir.path())
            .args(["translate", "."])
            .output()
            .unwrap();
        let diff = String::from_utf8(diff.stdout).unwrap();
        let fast = &diff[diff.find("fast/k.cu").expect("fast/k.cu translated")..];
        assert!(fast.contains("#if defined(__HIP_PLATFORM_AMD__)"), "{diff}");
        assert!(
            !diff.contains("slow/k.cu"),
            "slow/k.cu has nothing to translate: {diff}"
        );
        let page = dir.path().join("review.html");
        let made = ptx2hip(dir.path())
            .args(["report", "fast", "slow", "-o"])
            .arg(&page)
            .output()
            .unwrap();
        assert!(made.status.success());
        let html = fs::read_to_string(&page).unwrap();
        assert!(html.contains("1 translated, 1 left as written"), "{html}");
    }

    #[test]
    fn cuda_arch_applies_per_subtree_and_the_summaries_name_each() {
        let dir = tempfile::tempdir().unwrap();
        let src = "__device__ int f(int x) {\n  int y;\n#if __CUDA_ARCH__ >= 800\n  asm(\"add.s32 %0, %1, 1;\" : \"=r\"(y) : \"r\"(x));\n#else\n  asm(\"add.s32 %0, %1, 2;\" : \"=r\"(y) : \"r\"(x));\n#endif\n  return y;\n}\n";
        write(dir.path(), "old/k.cu", src);
        write(dir.path(), "new/k.cu", src);
        write(dir.path(), "old/ptx2hip.toml", "cuda-arch = 70\n");
        let (_, out, _) = check(dir.path(), &["--format", "json"]);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let other_arm = |file: &str| {
            v.as_array()
                .unwrap()
                .iter()
                .filter(|f| f["code"] == "T002" && f["file"].as_str().unwrap().starts_with(file))
                .map(|f| f["line"].as_u64().unwrap())
                .collect::<Vec<_>>()
        };
        assert_eq!(other_arm("new/"), [6], "sm_90 takes `>= 800`: {out}");
        assert_eq!(other_arm("old/"), [4], "sm_70 takes `#else`: {out}");
        let o = ptx2hip(dir.path())
            .args(["translate", "."])
            .output()
            .unwrap();
        let err = String::from_utf8(o.stderr).unwrap();
        assert!(
            err.contains("`__CUDA_ARCH__` = 700 or 900 as each file's configuration says"),
            "{err}"
        );
        let page = dir.path().join("review.html");
        let o = ptx2hip(dir.path())
            .args(["report", "old", "new", "-o"])
            .arg(&page)
            .output()
            .unwrap();
        assert!(o.status.success());
        let html = fs::read_to_string(&page).unwrap();
        assert!(html.contains("= 700 or 900, as each file"), "{html}");
    }

    #[test]
    fn another_working_directory_gives_the_same_findings() {
        let dir = tree();
        write(dir.path(), "vendor/v.cu", &kernel(FROB));
        write(dir.path(), "ptx2hip.toml", "ignore = [\"T001\"]\n");
        write(dir.path(), "vendor/ptx2hip.toml", "ignore = [\"U001\"]\n");
        let elsewhere = tempfile::tempdir().unwrap();
        let here = findings(dir.path(), dir.path(), &[]);
        assert_eq!(here, ["src/k.cu:U001"]);
        let path = dir.path().display().to_string();
        assert_eq!(findings(elsewhere.path(), dir.path(), &[&path]), here);
    }

    #[test]
    fn a_broken_nested_configuration_is_an_error_naming_it() {
        let dir = tree();
        write(dir.path(), "vendor/v.cu", &kernel(FROB));
        write(dir.path(), "vendor/ptx2hip.toml", "exlcude = []\n");
        let (code, out, err) = check(dir.path(), &["--format", "concise", "-q"]);
        assert_eq!(code, 2);
        assert!(err.contains("ptx2hip.toml: unknown key `exlcude`"), "{err}");
        assert!(out.contains("src/k.cu") && !out.contains("vendor"), "{out}");
    }

    #[test]
    fn an_error_for_a_tree_left_out_whole_counts_the_source_files_the_walk_found() {
        let dir = tree();
        write(dir.path(), "src/deep/h.cuh", ADD);
        write(dir.path(), "notes.txt", "not a source");
        let (code, _, err) = check(dir.path(), &["--exclude", "src/"]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("the 2 found are all excluded"), "{err}");
    }

    #[test]
    fn a_configuration_that_selects_no_file_is_an_error_in_every_format() {
        for (config, why) in [
            ("exclude = [\"*\"]\n", "all excluded"),
            (
                "extensions = [\"kern\"]\n",
                "none has one of the extensions kern",
            ),
            ("extensions = []\n", "`extensions` is empty"),
        ] {
            let dir = tree();
            write(dir.path(), "ptx2hip.toml", config);
            for format in ["human", "github", "json", "sarif"] {
                let (code, _, err) = check(dir.path(), &["--format", format]);
                assert_eq!(code, 2, "{config} {format}: {err}");
                assert!(err.contains(why), "{config} {format}: {err}");
            }
        }
    }
}

mod exclusions {
    use super::*;

    fn files(dir: &Path, args: &[&str]) -> Vec<String> {
        let (_, out, _) = check(dir, &[&["--format", "concise", "-q"], args].concat());
        let mut f: Vec<String> = out
            .lines()
            .map(|l| l.split(':').next().unwrap().to_string())
            .collect();
        f.dedup();
        f
    }

    #[test]
    fn exclude_and_glob_pick_files() {
        let dir = tree();
        write(dir.path(), "third_party/t.cu", &kernel(FROB));
        write(dir.path(), "src/h.cuh", &kernel(FROB));
        assert_eq!(
            files(dir.path(), &[]),
            ["src/h.cuh", "src/k.cu", "third_party/t.cu"]
        );
        assert_eq!(
            files(dir.path(), &["--exclude", "third_party/"]),
            ["src/h.cuh", "src/k.cu"]
        );
        assert_eq!(files(dir.path(), &["--glob", "*.cuh"]), ["src/h.cuh"]);
        assert_eq!(
            files(dir.path(), &["-g", "!*.cuh", "-g", "!third_party/"]),
            ["src/k.cu"]
        );
    }
}

mod selection {
    use super::*;

    /// The codes `check ARGS` reports in `dir`, as `file:CODE`, in order.
    fn reported(dir: &Path, args: &[&str]) -> Vec<String> {
        let (code, out, err) = check(dir, &[&["--format", "concise", "-q"], args].concat());
        assert!(code < 2, "{err}");
        out.lines()
            .map(|l| {
                let (file, rest) = l.split_once(':').unwrap();
                let code = rest.split(' ').nth(1).unwrap();
                format!("{file}:{code}")
            })
            .collect()
    }

    /// `src/k.cu` and `tests/t.cu`, each with a T001 and a U001 finding.
    fn two_files() -> tempfile::TempDir {
        let dir = tree();
        write(dir.path(), "tests/t.cu", &kernel(&format!("{ADD}{FROB}")));
        dir
    }

    #[test]
    fn select_and_ignore_take_codes_prefixes_and_comma_lists() {
        let dir = two_files();
        assert_eq!(
            reported(dir.path(), &["--select", "U"]),
            ["src/k.cu:U001", "tests/t.cu:U001"]
        );
        assert_eq!(
            reported(dir.path(), &["--select", "u00,T002", "--select", "E"]),
            ["src/k.cu:U001", "tests/t.cu:U001"],
            "comma lists and repeats add up; any case"
        );
        assert_eq!(
            reported(dir.path(), &["--ignore", "T"]),
            ["src/k.cu:U001", "tests/t.cu:U001"]
        );
        assert!(reported(dir.path(), &["--select", "ALL", "--ignore", "T,U"]).is_empty());
    }

    #[test]
    fn the_most_specific_code_decides_and_an_ignore_wins_a_tie() {
        let dir = two_files();
        assert_eq!(
            reported(dir.path(), &["--ignore", "U", "--extend-select", "U001"]),
            [
                "src/k.cu:T001",
                "src/k.cu:U001",
                "tests/t.cu:T001",
                "tests/t.cu:U001"
            ]
        );
        assert_eq!(
            reported(dir.path(), &["--select", "U001", "--ignore", "U001"]),
            [] as [&str; 0]
        );
    }

    #[test]
    fn per_file_ignores_silence_codes_in_the_files_their_pattern_matches() {
        let dir = two_files();
        assert_eq!(
            reported(dir.path(), &["--per-file-ignores", "tests/:U,T001"]),
            ["src/k.cu:T001", "src/k.cu:U001"]
        );
        assert_eq!(
            reported(
                dir.path(),
                &[
                    "--per-file-ignores",
                    "*.cu:T",
                    "--per-file-ignores",
                    "/src:U001"
                ]
            ),
            ["tests/t.cu:U001"]
        );
    }

    #[test]
    fn the_configuration_selects_and_the_command_line_changes_it() {
        let dir = two_files();
        write(
            dir.path(),
            "ptx2hip.toml",
            "select = [\"U\", \"T\"]\nignore = [\"T001\"]\n[per-file-ignores]\n\"tests/\" = [\"U001\"]\n",
        );
        assert_eq!(reported(dir.path(), &[]), ["src/k.cu:U001"]);
        assert_eq!(
            reported(dir.path(), &["--extend-select", "T001"]),
            ["src/k.cu:T001", "src/k.cu:U001", "tests/t.cu:T001"],
            "per-file ignores hold whatever is selected"
        );
        assert_eq!(
            reported(dir.path(), &["--select", "T001"]),
            ["src/k.cu:T001", "tests/t.cu:T001"],
            "--select replaces `select` and `ignore`"
        );
        assert!(reported(dir.path(), &["--ignore", "U"]).is_empty());
        assert_eq!(
            reported(
                dir.path(),
                &["--isolated", "--per-file-ignores", "src/k.cu:ALL"]
            ),
            ["tests/t.cu:T001", "tests/t.cu:U001"]
        );
    }

    #[test]
    fn a_nested_configurations_patterns_are_relative_to_its_directory() {
        let dir = two_files();
        write(
            dir.path(),
            "tests/ptx2hip.toml",
            "[per-file-ignores]\n\"/t.cu\" = [\"U001\"]\n\"/src/\" = [\"ALL\"]\n",
        );
        assert_eq!(
            reported(dir.path(), &[]),
            ["src/k.cu:T001", "src/k.cu:U001", "tests/t.cu:T001"]
        );
    }

    #[test]
    fn unused_suppressions_are_reported_when_selected() {
        let dir = tempfile::tempdir().unwrap();
        let body = format!("  // ptx2hip: ignore[U001] stale\n{ADD}");
        write(dir.path(), "k.cu", &kernel(&body));
        let with_l001 = ["k.cu:T001", "k.cu:L001"];
        assert_eq!(reported(dir.path(), &[]), ["k.cu:T001"]);
        assert_eq!(
            reported(dir.path(), &["--extend-select", "L001"]),
            with_l001
        );
        assert_eq!(reported(dir.path(), &["--select", "ALL"]), with_l001);
        assert_eq!(
            reported(dir.path(), &["--report-unused-suppressions"]),
            with_l001
        );
        assert_eq!(
            reported(
                dir.path(),
                &["--report-unused-suppressions", "--ignore", "L001"]
            ),
            ["k.cu:T001"],
            "the flag is `--extend-select L001`: an ignore as specific wins"
        );
    }

    #[test]
    fn a_code_that_selects_nothing_is_an_error_on_the_command_line_and_in_the_file() {
        let dir = two_files();
        for args in [
            &["--select", "U9"][..],
            &["--ignore", "T001,X001"],
            &["--per-file-ignores", "tests/:I001"],
        ] {
            let (code, out, err) = check(dir.path(), args);
            assert_eq!((code, out.as_str()), (2, ""), "{args:?}");
            assert!(err.contains("is not a finding code"), "{err}");
            assert!(
                err.contains("T001-T003, U001-U"),
                "the codes are listed: {err}"
            );
        }
        let (code, _, err) = check(dir.path(), &["--per-file-ignores", "tests/"]);
        assert_eq!(code, 2);
        assert!(err.contains("`tests/` is not PATTERN:CODES"), "{err}");
        write(
            dir.path(),
            "ptx2hip.toml",
            "[per-file-ignores]\n\"tests/\" = [\"D012\"]\n",
        );
        let (code, out, err) = check(dir.path(), &[]);
        assert_eq!((code, out.as_str()), (2, ""));
        assert!(
            err.contains(
                "ptx2hip.toml: `per-file-ignores`: `tests/`: `D012` is not a finding code"
            ),
            "{err}"
        );
    }
}

mod suppression {
    use super::*;

    #[test]
    fn a_comment_above_or_on_the_statement_silences_its_codes() {
        let dir = tempfile::tempdir().unwrap();
        let body = format!(
            "  // ptx2hip: ignore[T001] translated by the build\n{ADD}{}",
            FROB.replace('\n', " // ptx2hip: ignore[U001, U002] NVIDIA-only path\n")
        );
        write(dir.path(), "k.cu", &kernel(&body));
        let (code, out, _) = check(dir.path(), &[]);
        assert_eq!(code, 0, "{out}");
        assert!(
            out.contains("0 non-portable asm statements in 0 files: 0 translatable, 0 not translated (2 suppressed by comments)"),
            "{out}"
        );
    }

    #[test]
    fn a_comment_for_another_code_or_another_line_does_not() {
        let dir = tempfile::tempdir().unwrap();
        let body = format!("{}{FROB}", ADD.replace('\n', " // ptx2hip: ignore[*]\n"));
        write(dir.path(), "k.cu", &kernel(&body));
        let (code, out, _) = check(dir.path(), &["--format", "concise", "-q"]);
        assert_eq!(code, 1);
        assert_eq!(out.lines().count(), 1);
        assert!(out.contains("k.cu:4:17: U001"), "{out}");
    }

    #[test]
    fn unused_suppressions_are_reported_on_request() {
        let dir = tempfile::tempdir().unwrap();
        let body = format!("  // ptx2hip: ignore[U001] stale\n{ADD}");
        write(dir.path(), "k.cu", &kernel(&body));
        let (code, _, _) = check(dir.path(), &["--fail-on", "unsupported"]);
        assert_eq!(code, 0);
        let (code, out, _) = check(
            dir.path(),
            &["--format", "concise", "-q", "--report-unused-suppressions"],
        );
        assert_eq!(code, 1);
        assert!(
            out.contains("k.cu:3:6: L001 unused suppression: `U001` silences no finding of its statement (ptx2hip: ignore[U001] stale)"),
            "{out}"
        );
    }

    #[test]
    fn a_malformed_suppression_silences_nothing_and_is_always_reported() {
        let dir = tempfile::tempdir().unwrap();
        let body = FROB.replace('\n', " // ptx2hip: ignore[U001 NVIDIA-only\n");
        write(dir.path(), "k.cu", &kernel(&body));
        let (code, out, _) = check(dir.path(), &["--format", "concise", "-q"]);
        assert_eq!(code, 1);
        assert!(out.contains("k.cu:3:17: U001"), "{out}");
        assert!(
            out.contains("L002 malformed suppression: `[` is not closed by `]`"),
            "{out}"
        );
    }

    #[test]
    fn a_bare_ignore_in_any_case_silences_every_code() {
        let dir = tempfile::tempdir().unwrap();
        let body = FROB.replace('\n', " // PTX2HIP: IGNORE kept for NVIDIA\n");
        write(dir.path(), "k.cu", &kernel(&body));
        let (code, out, _) = check(dir.path(), &[]);
        assert_eq!(code, 0, "{out}");
    }

    #[test]
    fn translate_leaves_a_suppressed_statement_as_written() {
        let dir = tempfile::tempdir().unwrap();
        let kept = ADD.replace(
            '\n',
            " // ptx2hip: ignore[T001] the NVIDIA original, on purpose\n",
        );
        let text = kernel(&format!("{kept}{ADD}"));
        let path = write(dir.path(), "k.cu", &text);
        let out = ptx2hip(dir.path())
            .args(["translate", "--emit", "replace", "--in-place", "k.cu"])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("1 statement translated, 1 left as written"),
            "{err}"
        );
        let after = fs::read_to_string(path).unwrap();
        assert!(after.contains(&kept), "{after}");
        assert_eq!(after.matches("add.s32").count(), 1, "{after}");
    }
}

mod baseline {
    use super::*;

    #[test]
    fn only_findings_missing_from_the_baseline_fail() {
        let dir = tree();
        let (code, out, err) = check(dir.path(), &["--write-baseline", "ptx2hip-baseline.json"]);
        assert_eq!(code, 0, "{err}");
        assert!(out.is_empty(), "{out}");
        assert!(err.contains("wrote a baseline of 2 findings to ptx2hip-baseline.json"));
        let (code, out, _) = check(dir.path(), &["--baseline", "ptx2hip-baseline.json"]);
        assert_eq!(code, 0, "{out}");
        assert!(out.contains("(2 in the baseline)"), "{out}");

        // Lines added above move the known findings; a new statement is new.
        let moved = kernel(&format!("\n\n{ADD}{FROB}{}", FROB.replace("j));", "k));")));
        write(dir.path(), "src/k.cu", &moved);
        let (code, out, _) = check(
            dir.path(),
            &[
                "--baseline",
                "ptx2hip-baseline.json",
                "--format",
                "concise",
                "-q",
            ],
        );
        assert_eq!(code, 1);
        assert_eq!(out.lines().count(), 1, "{out}");
        assert!(out.starts_with("src/k.cu:7:17: U001"), "{out}");
    }

    #[test]
    fn it_matches_from_another_working_directory() {
        let dir = tree();
        fs::create_dir(dir.path().join("ci")).unwrap();
        let (code, _, _) = check(dir.path(), &["--write-baseline", "ci/baseline.json", "src"]);
        assert_eq!(code, 0);
        let text = fs::read_to_string(dir.path().join("ci/baseline.json")).unwrap();
        assert!(text.contains("\"file\": \"../src/k.cu\""), "{text}");
        let (code, out, _) = check(
            &dir.path().join("src"),
            &["--baseline", "../ci/baseline.json"],
        );
        assert_eq!(code, 0, "{out}");
    }

    #[test]
    fn a_run_over_some_files_leaves_the_others_findings_alone() {
        // Two files, as pre-commit sees a tree: it passes only the files a commit changes.
        let dir = tree();
        write(dir.path(), "src/m.cu", &kernel(&format!("{ADD}{FROB}")));
        check(dir.path(), &["--write-baseline", "b.json"]);
        let (code, _, err) = check(dir.path(), &["--baseline", "b.json", "src/k.cu"]);
        assert_eq!(code, 0, "{err}");
        assert!(!err.contains("gone"), "m.cu was not checked: {err}");

        // Rewriting the baseline from a run over k.cu keeps m.cu's findings.
        write(dir.path(), "src/k.cu", &kernel(ADD));
        check(dir.path(), &["--write-baseline", "b.json", "src/k.cu"]);
        let text = fs::read_to_string(dir.path().join("b.json")).unwrap();
        assert_eq!(text.matches("src/m.cu").count(), 2, "{text}");
        assert_eq!(text.matches("src/k.cu").count(), 1, "{text}");

        // A deleted file's findings are gone for any run.
        fs::remove_file(dir.path().join("src/m.cu")).unwrap();
        let (_, _, err) = check(dir.path(), &["--baseline", "b.json", "src/k.cu"]);
        assert!(err.contains("2 findings of the baseline are gone"), "{err}");
    }

    #[test]
    fn write_baseline_never_overwrites_a_file_that_is_not_a_baseline() {
        let dir = tree();
        write(dir.path(), "notes.json", "{\"mine\": true}\n");
        let (code, _, err) = check(dir.path(), &["--write-baseline", "notes.json"]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("not overwritten"), "{err}");
        assert_eq!(
            fs::read_to_string(dir.path().join("notes.json")).unwrap(),
            "{\"mine\": true}\n"
        );
    }

    #[test]
    fn fixed_findings_are_noted_and_a_bad_baseline_is_an_error() {
        let dir = tree();
        check(dir.path(), &["--write-baseline", "b.json"]);
        write(dir.path(), "src/k.cu", &kernel(ADD));
        let (code, _, err) = check(dir.path(), &["--baseline", "b.json"]);
        assert_eq!(code, 0);
        assert!(err.contains("1 finding of the baseline is gone"), "{err}");
        write(dir.path(), "b.json", "{}");
        let (code, _, err) = check(dir.path(), &["--baseline", "b.json"]);
        assert_eq!(code, 2);
        assert!(err.contains("b.json: not a ptx2hip baseline"), "{err}");
    }
}

mod exit_and_output {
    use super::*;

    #[test]
    fn fail_on_unsupported_passes_translatable_statements() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "k.cu", &kernel(ADD));
        assert_eq!(
            check(dir.path(), &[]).0,
            1,
            "the default: any finding fails"
        );
        assert_eq!(check(dir.path(), &["--fail-on", "any"]).0, 1);
        let (code, out, _) = check(dir.path(), &["--fail-on", "unsupported"]);
        assert_eq!(code, 0, "still reported: {out}");
        assert!(out.contains("warning[T001]"));
        write(dir.path(), "k.cu", &kernel(FROB));
        assert_eq!(check(dir.path(), &["--fail-on", "unsupported"]).0, 1);
    }

    #[test]
    fn quiet_prints_the_findings_only() {
        let dir = tree();
        let (_, out, _) = check(dir.path(), &["--quiet"]);
        assert!(out.contains("error[U001]"));
        assert!(!out.contains("non-portable asm statements in"), "{out}");
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "clean.cu", "int x;\n");
        let (code, out, err) = check(dir.path(), &["-q"]);
        assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
    }

    #[test]
    fn exit_zero_reports_the_findings_and_passes_but_errors_still_exit_2() {
        let dir = tree();
        let (code, out, _) = check(dir.path(), &["--exit-zero"]);
        assert_eq!(code, 0);
        assert!(out.contains("error[U001]"), "{out}");
        let (code, _, _) = check(dir.path(), &["--exit-zero", "missing.cu"]);
        assert_eq!(code, 2);
    }

    #[test]
    fn output_file_holds_the_report_that_stdout_would() {
        let dir = tree();
        let (_, printed, _) = check(dir.path(), &["--format", "json"]);
        let (code, out, err) = check(dir.path(), &["--format", "json", "-o", "lint.json"]);
        assert_eq!((code, out.as_str(), err.as_str()), (1, "", ""));
        assert_eq!(
            fs::read_to_string(dir.path().join("lint.json")).unwrap(),
            printed
        );
        let (code, out, _) = check(dir.path(), &["--output-file", "lint.txt", "src"]);
        assert_eq!((code, out.as_str()), (1, ""));
        let text = fs::read_to_string(dir.path().join("lint.txt")).unwrap();
        assert!(
            text.contains("error[U001]") && text.contains("2 non-portable"),
            "{text}"
        );
    }

    #[test]
    fn output_file_never_replaces_an_input_or_writes_through_a_link() {
        let dir = tree();
        let source = fs::read_to_string(dir.path().join("src/k.cu")).unwrap();
        let (code, _, err) = check(dir.path(), &["src", "-o", "src/k.cu"]);
        assert_eq!(code, 2);
        assert!(
            err.contains("src/k.cu: is one of the files this run reads"),
            "{err}"
        );
        assert_eq!(
            fs::read_to_string(dir.path().join("src/k.cu")).unwrap(),
            source
        );
        std::os::unix::fs::symlink("src/k.cu", dir.path().join("link.txt")).unwrap();
        let (code, _, err) = check(dir.path(), &["src", "-o", "link.txt"]);
        assert_eq!(code, 2);
        assert!(err.contains("link.txt: is a symbolic link"), "{err}");
        assert_eq!(
            fs::read_to_string(dir.path().join("src/k.cu")).unwrap(),
            source
        );
    }

    #[test]
    fn statistics_count_codes_forms_and_reasons() {
        let dir = tree();
        write(dir.path(), "src/m.cu", &kernel(&format!("{FROB}{FROB}")));
        let (code, out, _) = check(dir.path(), &["--statistics"]);
        assert_eq!(code, 1);
        assert!(out.contains("     3  U001  unknown-instruction"), "{out}");
        assert!(out.contains("     1  T001  translatable"), "{out}");
        assert!(
            out.contains("             0               3  frobnicate.b32"),
            "{out}"
        );
        assert!(
            out.contains("      3  U001  unknown instruction `frobnicate`: no rule in the table"),
            "{out}"
        );
        assert!(!out.contains("-->"), "no findings: {out}");
        let (_, out, _) = check(dir.path(), &["--statistics", "--format", "json"]);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["codes"][0]["code"], "U001");
        assert_eq!(v["codes"][0]["count"], 3);
        let (code, _, err) = check(dir.path(), &["--statistics", "--format", "sarif"]);
        assert_eq!(code, 2);
        assert!(err.contains("--statistics"), "{err}");
    }
}

mod colour {
    use super::*;

    /// `check ARGS` in `dir` with the environment `env` (the colour variables otherwise unset):
    /// stdout.
    fn check_with(dir: &Path, env: &[(&str, &str)], args: &[&str]) -> String {
        let mut c = ptx2hip(dir);
        for var in ["NO_COLOR", "CLICOLOR_FORCE", "CLICOLOR"] {
            c.env_remove(var);
        }
        let o = c
            .envs(env.iter().copied())
            .arg("check")
            .args(args)
            .output()
            .unwrap();
        String::from_utf8(o.stdout).unwrap()
    }

    /// `text` without its ANSI escape sequences.
    fn plain(text: &str) -> String {
        let mut out = String::new();
        let mut escape = false;
        for c in text.chars() {
            match c {
                '\x1b' => escape = true,
                'm' if escape => escape = false,
                _ if escape => {}
                _ => out.push(c),
            }
        }
        out
    }

    #[test]
    fn a_pipe_gets_no_colour_unless_forced_and_no_color_wins() {
        let dir = tree();
        let piped = check_with(dir.path(), &[], &[]);
        assert!(
            !piped.contains('\x1b') && piped.contains("error[U001]"),
            "{piped}"
        );
        let forced = check_with(dir.path(), &[("CLICOLOR_FORCE", "1")], &[]);
        assert!(forced.contains("\x1b[1m\x1b[91merror[U001]"), "{forced}");
        assert_eq!(plain(&forced), piped, "colour changes no character");
        let both = [("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")];
        assert_eq!(check_with(dir.path(), &both, &[]), piped);
    }

    #[test]
    fn color_always_and_never_override_the_environment() {
        let dir = tree();
        let piped = check_with(dir.path(), &[], &[]);
        let always = check_with(dir.path(), &[("NO_COLOR", "1")], &["--color", "always"]);
        assert!(always.contains('\x1b'));
        assert_eq!(plain(&always), piped);
        let never = [("CLICOLOR_FORCE", "1")];
        assert_eq!(check_with(dir.path(), &never, &["--color", "never"]), piped);
    }

    #[test]
    fn the_output_file_and_the_machine_formats_are_never_coloured() {
        let dir = tree();
        check_with(dir.path(), &[], &["--color", "always", "-o", "report.txt"]);
        let report = fs::read_to_string(dir.path().join("report.txt")).unwrap();
        assert_eq!(report, check_with(dir.path(), &[], &[]));
        for format in ["json", "concise", "github", "sarif"] {
            let out = check_with(dir.path(), &[], &["--color", "always", "--format", format]);
            assert!(!out.contains('\x1b'), "{format}: {out}");
        }
    }

    #[test]
    fn the_translate_diff_is_coloured_as_git_colours_it() {
        let dir = tree();
        let diff = |args: &[&str]| {
            let o = ptx2hip(dir.path())
                .arg("translate")
                .args(args)
                .output()
                .unwrap();
            String::from_utf8(o.stdout).unwrap()
        };
        let piped = diff(&[]);
        let coloured = diff(&["--color", "always"]);
        assert_eq!(plain(&coloured), piped);
        // The record of the version and options that wrote the patch, then the file's header.
        assert!(
            coloured.starts_with("ptx2hip ")
                && coloured.contains("\n\x1b[1m--- a/src/k.cu\x1b[0m\n"),
            "{coloured}"
        );
        assert!(
            coloured
                .lines()
                .any(|l| l.starts_with("\x1b[32m+")
                    && l.contains("#if defined(__HIP_PLATFORM_AMD__)")),
            "added lines are green: {coloured}"
        );
    }
}

mod standard_input {
    use super::*;

    #[test]
    fn a_dash_reads_stdin_reported_under_the_stdin_filename() {
        let dir = tempfile::tempdir().unwrap();
        let o = ptx2hip(dir.path())
            .args([
                "check",
                "-",
                "--stdin-filename",
                "src/k.cu",
                "--format",
                "concise",
                "-q",
            ])
            .write_stdin(kernel(FROB))
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(1));
        let out = String::from_utf8(o.stdout).unwrap();
        assert!(out.starts_with("src/k.cu:3:17: U001"), "{out}");
    }

    #[test]
    fn suppressions_apply_and_an_excluded_name_is_not_checked() {
        let dir = tempfile::tempdir().unwrap();
        let text = kernel(&FROB.replace('\n', " // ptx2hip: ignore[U001]\n"));
        let o = ptx2hip(dir.path())
            .args(["check", "-"])
            .write_stdin(text)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0));
        let o = ptx2hip(dir.path())
            .args([
                "check",
                "-",
                "--stdin-filename",
                "vendor/k.cu",
                "--exclude",
                "vendor/",
            ])
            .write_stdin(kernel(FROB))
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0));
        assert!(o.stdout.starts_with(b"0 non-portable"));
    }

    #[test]
    fn a_dash_must_be_alone() {
        let dir = tree();
        let (code, _, err) = check(dir.path(), &["-", "src"]);
        assert_eq!(code, 2);
        assert!(
            err.contains("`-` (standard input) must be the only path"),
            "{err}"
        );
    }
}

mod explain {
    use super::*;

    fn explain(arg: &str) -> (i32, String, String) {
        let o = ptx2hip(Path::new("."))
            .args(["explain", arg])
            .output()
            .unwrap();
        (
            o.status.code().unwrap(),
            String::from_utf8(o.stdout).unwrap(),
            String::from_utf8(o.stderr).unwrap(),
        )
    }

    #[test]
    fn a_finding_code_is_documented() {
        let (code, out, _) = explain("U001");
        assert_eq!(code, 0);
        assert!(out.starts_with("U001 (unknown-instruction) — "), "{out}");
        assert!(out.contains("Example"));
    }

    #[test]
    fn an_opcode_finds_its_rules() {
        let (code, out, _) = explain("lop3");
        assert_eq!(code, 0);
        assert!(out.contains("B012 (lop3)"), "{out}");
        let (code, out, _) = explain("add.s32");
        assert_eq!(code, 0);
        assert!(out.contains("I001"), "{out}");
        assert!(out.contains("add.s32"), "{out}");
    }

    #[test]
    fn a_declined_or_unknown_opcode_says_how_it_is_reported() {
        let (code, out, _) = explain("exit");
        assert_eq!(code, 1);
        assert!(out.contains("reported as U003 (declined-form)"), "{out}");
        let (code, out, _) = explain("frobnicate");
        assert_eq!(code, 1);
        assert!(
            out.contains("reported as U001 (unknown-instruction)"),
            "{out}"
        );
    }

    #[test]
    fn an_unknown_code_says_so() {
        let (code, out, err) = explain("X999");
        assert_eq!(code, 2);
        assert!(out.is_empty());
        assert!(err.contains("unknown rule code `X999`"), "{err}");
    }
}

mod documentation {
    use super::*;

    fn repo_file(name: &str) -> String {
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(name)).unwrap()
    }

    #[test]
    fn the_guides_list_every_finding_code_and_the_default_extensions() {
        let lint = repo_file("docs/LINT.md");
        for code in ptx2hip_core::codes::Code::ALL {
            let row = format!("| `{code}` | `{}` |", code.name());
            assert!(lint.contains(&row), "docs/LINT.md lacks the row of {code}");
        }
        let extensions = ptx2hip_core::walk::DEFAULT_EXTENSIONS.join(", ");
        let cli = repo_file("docs/CLI.md");
        assert!(
            cli.contains(&extensions),
            "docs/CLI.md lacks `{extensions}`"
        );
    }

    /// The hooks of `.pre-commit-hooks.yaml`, each as its `key: value` lines.
    fn hooks(manifest: &str) -> Vec<std::collections::BTreeMap<&str, &str>> {
        manifest
            .split("\n- ")
            .skip(1)
            .map(|hook| {
                hook.lines()
                    .filter_map(|l| l.trim().split_once(": "))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn the_pre_commit_manifest_runs_check_on_cuda_sources() {
        let manifest = repo_file(".pre-commit-hooks.yaml");
        let hooks = hooks(&manifest);
        let ids: Vec<&str> = hooks.iter().map(|h| h["id"]).collect();
        assert_eq!(
            ids,
            [
                "ptx2hip-check",
                "ptx2hip-check-unsupported",
                "ptx2hip-check-system"
            ]
        );
        for hook in &hooks {
            assert!(hook["entry"].starts_with("ptx2hip check"), "{hook:?}");
            for ext in ptx2hip_core::walk::DEFAULT_EXTENSIONS {
                assert!(
                    hook["files"].contains(ext),
                    "{}: `files` lacks .{ext}",
                    hook["id"]
                );
            }
        }
        assert_eq!(hooks[0]["language"], "rust", "built from source");
        let system = &hooks[2];
        assert_eq!(system["language"], "system", "the installed binary");
        assert_eq!(
            (system["entry"], system["files"]),
            (hooks[0]["entry"], hooks[0]["files"])
        );
    }
}
