//! `check`'s verification of generated AMD branches (`edited_branches`): a translation as
//! `translate` wrote it is clean, every corpus file included; a hand edit inside a branch is
//! `L003` at that branch; branches another version wrote are one `L004` note, not a false alarm.

use super::*;

fn options(emit: Option<EmitMode>) -> Options {
    Options {
        target: Target::Amd,
        emit,
        provenance: true,
        tensor_model: Default::default(),
        fast: false,
        evidence: Default::default(),
    }
}

fn translated(source: &[u8]) -> Vec<u8> {
    let rules = RuleSet::embedded().unwrap();
    let scan_options = scan::Options::default();
    process_file(
        source,
        None,
        &rules,
        options(Some(EmitMode::Guarded)),
        &scan_options,
    )
    .rewritten
    .map_or_else(|| source.to_vec(), |r| r.bytes)
}

/// The verification's findings: code and line.
fn checked(source: &[u8]) -> Vec<(Code, usize)> {
    let rules = RuleSet::embedded().unwrap();
    edited_branches(
        source,
        None,
        &rules,
        options(None),
        &scan::Options::default(),
    )
    .into_iter()
    .map(|d| (d.code, d.line))
    .collect()
}

const ACQUIRE: &str = "#include <stdint.h>\n\
template <class T>\n\
__device__ uint32_t load(const uint32_t* p, T a) {\n\
  uint32_t v, w;\n\
  asm volatile(\"ld.acquire.gpu.b32 %0, [%1];\" : \"=r\"(v) : \"l\"(p) : \"memory\");\n\
  asm(\"brev.b32 %0, %1;\" : \"=r\"(w) : \"r\"(a));\n\
  return v + w;\n\
}\n";

#[test]
fn a_translation_as_written_is_clean_and_a_hand_edit_in_a_branch_is_found() {
    let done = String::from_utf8(translated(ACQUIRE.as_bytes())).unwrap();
    assert!(
        done.contains("// ptx2hip 0.") && done.contains("__ATOMIC_ACQUIRE"),
        "{done}"
    );
    assert_eq!(checked(done.as_bytes()), []);
    let edited = done.replace("__ATOMIC_ACQUIRE", "__ATOMIC_RELAXED");
    let line = 1 + edited[..edited.find("ptx2hip: A0").unwrap()]
        .matches('\n')
        .count();
    assert_eq!(
        checked(edited.as_bytes()),
        [(Code::GeneratedCodeEdited, line)]
    );
    // An edit of the provenance note counts too; re-indenting the code does not.
    let renamed = done.replacen("// ptx2hip: A0", "// ptx2hip: A1", 1);
    assert_eq!(checked(renamed.as_bytes()).len(), 1);
    let indented = done.replace("  v = __hip_atomic_load", "      v = __hip_atomic_load");
    assert_eq!(checked(indented.as_bytes()), []);
}

#[test]
fn branches_another_version_wrote_are_one_note_and_an_unreadable_record_too() {
    let done = String::from_utf8(translated(ACQUIRE.as_bytes())).unwrap();
    let version = format!("// ptx2hip {} ", emit::record::VERSION);
    assert!(done.contains(&version), "{done}");
    let older = done
        .replace(&version, "// ptx2hip 0.0.1 ")
        .replace("__ATOMIC_ACQUIRE", "__ATOMIC_RELAXED");
    let found = checked(older.as_bytes());
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].0, Code::GeneratedByOtherVersion);
    let unreadable = done.replace("--tensor-model sm_90", "--tensor-model sm_99");
    assert_eq!(
        checked(unreadable.as_bytes())[0].0,
        Code::GeneratedByOtherVersion
    );
    // Without a record (a block written before there was one): this run's options.
    let unrecorded: String = done
        .lines()
        .filter(|l| !l.starts_with(&version))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(checked(unrecorded.as_bytes()), []);
}

/// Every corpus file, translated, verifies clean.
#[test]
fn every_translated_corpus_file_verifies_clean() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    let mut checked_files = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let source = std::fs::read(&path).unwrap();
        let done = translated(&source);
        if emit::verify::branches(&done).is_empty() {
            continue;
        }
        checked_files += 1;
        assert_eq!(checked(&done), [], "{}", path.display());
    }
    assert!(checked_files >= 30, "{checked_files}");
}
