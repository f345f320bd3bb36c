//! Snapshot tests over `corpus/`: the translated file for every emit mode and target, the JSON
//! findings of `check`, and idempotence (translating a translated file changes nothing).

use std::path::{Path, PathBuf};
use std::process::Command;

use ptx2hip_core::emit::{HELPERS_BEGIN, HELPERS_END};

/// The UTF-8 byte order mark, which must stay the first bytes of a file.
const BOM: &[u8] = b"\xEF\xBB\xBF";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Corpus files (relative to the crate root), sorted.
fn corpus_files() -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(root().join("corpus"))
        .expect("corpus/ exists")
        .map(|e| {
            e.expect("readable entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n.ends_with(".cu") || n.ends_with(".cuh"))
        .map(|n| format!("corpus/{n}"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 5,
        "corpus/ should hold at least five files, found {files:?}"
    );
    files
}

fn ptx2hip(args: &[&str], cwd: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_ptx2hip"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("ptx2hip runs")
}

/// `translate --out-dir` on the files `rels` (relative to `input_root`, all in one directory) in
/// one run; returns the bytes written for each (the rewritten files), in order.
fn translate_files(input_root: &Path, rels: &[String], mode: &str, target: &str) -> Vec<Vec<u8>> {
    let out = tempfile::tempdir().expect("temp dir");
    let dir = out.path().to_str().expect("utf-8 temp path");
    let mut args = vec![
        "translate",
        "--emit",
        mode,
        "--target",
        target,
        "--out-dir",
        dir,
    ];
    args.extend(rels.iter().map(String::as_str));
    let o = ptx2hip(&args, input_root);
    assert_eq!(
        o.status.code(),
        Some(0),
        "translate {mode} {target}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    rels.iter()
        .map(|rel| {
            let name = Path::new(rel).file_name().expect("file name");
            std::fs::read(out.path().join(name))
                .unwrap_or_else(|e| panic!("{rel}: translated file not written: {e}"))
        })
        .collect()
}

fn snapshot_name(rel: &str, suffix: &str) -> String {
    let stem = Path::new(rel)
        .file_name()
        .unwrap()
        .to_string_lossy()
        .replace('.', "_");
    format!("corpus__{stem}__{suffix}")
}

/// The snapshots are `tests/snapshots/corpus__<file>__<what>.snap`, whichever test binary this
/// module is part of (insta would otherwise name them after the module path, beside this file).
fn snapshot_settings() -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings
}

/// Snapshot text: CRLF files are checked to stay CRLF everywhere, then stored with `\n`, with
/// the helper block reduced to the names of its helpers.
fn snapshot_text(source: &[u8], translated: &[u8], what: &str) -> String {
    let text = String::from_utf8(translated.to_vec()).expect("translation is UTF-8");
    let text = if source.windows(2).any(|w| w == b"\r\n") {
        let bare_lf = text.split('\n').count() - 1 - text.matches("\r\n").count();
        assert_eq!(
            bare_lf, 0,
            "{what}: a CRLF file got {bare_lf} bare LF line endings"
        );
        text.replace("\r\n", "\n")
    } else {
        assert!(!text.contains('\r'), "{what}: an LF file got a CR");
        text
    };
    helper_names_only(&text)
}

/// The helper block with one line naming its helpers, in emitted order, instead of their code:
/// the code is the helper files' (compiled by tests/it/hip_compile.rs, replayed by the golden
/// vectors), and repeating it in every snapshot made up most of their size; which helpers a file
/// gets, and where the block stands, is what a snapshot should show.
fn helper_names_only(text: &str) -> String {
    let (begin, end) = (HELPERS_BEGIN, HELPERS_END);
    let mut out = Vec::new();
    let mut names: Option<Vec<&str>> = None;
    for line in text.split('\n') {
        match &mut names {
            None => {
                out.push(line.to_string());
                if line == begin {
                    names = Some(Vec::new());
                }
            }
            Some(found) if line == end => {
                out.push(format!("// (helpers: {})", found.join(", ")));
                out.push(line.to_string());
                names = None;
            }
            Some(found) => found.extend(line.strip_prefix("#define PTX2HIP_HELPER_")),
        }
    }
    assert!(names.is_none(), "a helper block is not closed");
    out.join("\n")
}

/// Every corpus file translated with `mode` and `target` matches its snapshot, and translating the
/// translation again changes nothing. One test per combination, so that the harness runs them
/// side by side.
fn translations_match_snapshots_and_are_idempotent(mode: &str, target: &str) {
    let root = root();
    let files = corpus_files();
    let translated = translate_files(&root, &files, mode, target);
    // The warp-level forms have no portable translation: a file of them only may come back
    // unchanged for --target portable.
    let declined = if target == "portable" {
        portable_declines_all(&root, &files)
    } else {
        Vec::new()
    };
    for (rel, translated) in files.iter().zip(&translated) {
        let source = std::fs::read(root.join(rel)).unwrap();
        let what = format!("{rel} --emit {mode} --target {target}");
        if !declined.contains(rel) {
            assert_ne!(*translated, source, "{what}: nothing was translated");
        }
        if source.starts_with(BOM) {
            assert!(
                translated.starts_with(BOM),
                "{what}: the byte order mark moved"
            );
        }
        snapshot_settings().bind(|| {
            insta::assert_snapshot!(
                snapshot_name(rel, &format!("{mode}_{target}")),
                snapshot_text(&source, translated, &what)
            )
        });
    }

    // Idempotence: the translated files, translated again the same way, are unchanged.
    let again_dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(again_dir.path().join("corpus")).unwrap();
    for (rel, translated) in files.iter().zip(&translated) {
        std::fs::write(again_dir.path().join(rel), translated).unwrap();
    }
    let twice = translate_files(again_dir.path(), &files, mode, target);
    for ((rel, translated), twice) in files.iter().zip(&translated).zip(&twice) {
        assert!(
            twice == translated,
            "{rel} --emit {mode} --target {target}: translating the translated file changed it"
        );
    }
}

#[test]
fn guarded_amd_translations_match_snapshots_and_are_idempotent() {
    translations_match_snapshots_and_are_idempotent("guarded", "amd");
}

#[test]
fn guarded_portable_translations_match_snapshots_and_are_idempotent() {
    translations_match_snapshots_and_are_idempotent("guarded", "portable");
}

#[test]
fn replace_amd_translations_match_snapshots_and_are_idempotent() {
    translations_match_snapshots_and_are_idempotent("replace", "amd");
}

#[test]
fn replace_portable_translations_match_snapshots_and_are_idempotent() {
    translations_match_snapshots_and_are_idempotent("replace", "portable");
}

/// The files of `rels` in which `check --target portable` finds no translatable statement.
fn portable_declines_all(root: &Path, rels: &[String]) -> Vec<String> {
    let mut args = vec!["check", "--format", "json", "--target", "portable"];
    args.extend(rels.iter().map(String::as_str));
    let o = ptx2hip(&args, root);
    let findings: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let findings = findings.as_array().unwrap();
    rels.iter()
        .filter(|rel| {
            findings
                .iter()
                .filter(|f| f["file"] == rel.as_str())
                .all(|f| f["status"] != "translatable")
        })
        .cloned()
        .collect()
}

#[test]
fn check_json_matches_snapshots() {
    let root = root();
    for rel in corpus_files() {
        let o = ptx2hip(&["check", "--format", "json", &rel], &root);
        // Every corpus file has non-portable asm: exit status 1 ("findings").
        assert_eq!(
            o.status.code(),
            Some(1),
            "check {rel}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let json = String::from_utf8(o.stdout).expect("UTF-8 JSON");
        let parsed: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
        for f in parsed.as_array().expect("an array of findings") {
            assert_eq!(f["file"], rel.as_str());
            assert!(matches!(
                f["status"].as_str(),
                Some("translatable" | "unsupported" | "other-arch-arm")
            ));
        }
        snapshot_settings()
            .bind(|| insta::assert_snapshot!(snapshot_name(&rel, "check_json"), json));
    }
}

#[test]
fn unsupported_mix_reports_each_untranslated_form() {
    let o = ptx2hip(
        &["check", "--format", "json", "corpus/unsupported_mix.cu"],
        &root(),
    );
    let parsed: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let unsupported: Vec<(u64, String)> = parsed
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["status"] == "unsupported")
        .map(|f| {
            (
                f["line"].as_u64().unwrap(),
                f["instructions"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|i| i.as_str().unwrap())
                    .collect::<Vec<_>>()
                    .join(" "),
            )
        })
        .collect();
    for form in ["redux.sync.min.f32", "add.cc.u32", "addc.u32"] {
        assert!(
            unsupported
                .iter()
                .any(|(_, i)| i == form || i.ends_with(form)),
            "no unsupported finding for `{form}` in {unsupported:?}"
        );
    }
    let translatable = parsed
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["status"] == "translatable")
        .count();
    assert_eq!(translatable, 10, "add.u32, redux.sync.add, shfl.sync.bfly, add.f32, the add.cc/addc chain, %laneid, the two setp blocks, cvta.to.shared and ld.shared translate; a carry handed to the next statement does not");
}
