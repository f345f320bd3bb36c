//! The evidence level of each rule as users see it (docs/EVIDENCE.md): `rules`, `explain`, the
//! report's formats for statements translated by a rule below hardware evidence, and
//! `--evidence hardware` / `evidence = "hardware"`, which leave such statements as written (U017).

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

fn ptx2hip() -> Command {
    Command::cargo_bin("ptx2hip").expect("binary built")
}

/// A kernel with one sm_100 statement (`add.rn.f32x2`, F120: isa-decomposition) and one
/// hardware-verified statement (`add.s32`, I001).
const KERNEL: &str = "__device__ unsigned long long f(unsigned long long a, unsigned long long b, int j) {\n  unsigned long long d;\n  int i;\n  asm(\"add.rn.f32x2 %0, %1, %2;\" : \"=l\"(d) : \"l\"(a), \"l\"(b));\n  asm(\"add.s32 %0, %1, %1;\" : \"=r\"(i) : \"r\"(j));\n  return d + i;\n}\n";

fn kernel(dir: &Path) -> PathBuf {
    let p = dir.join("k.cu");
    fs::write(&p, KERNEL).unwrap();
    p
}

fn stdout(cmd: &mut Command, code: i32) -> String {
    String::from_utf8(cmd.assert().code(code).get_output().stdout.clone()).unwrap()
}

fn json(cmd: &mut Command, code: i32) -> Value {
    serde_json::from_str(&stdout(cmd, code)).unwrap()
}

#[test]
fn rules_lists_each_rules_level_and_what_a_decomposition_relies_on() {
    let rules = json(ptx2hip().args(["rules", "--format", "json"]), 0);
    let rule = |code: &str| {
        rules
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["code"] == code)
            .unwrap()
            .clone()
    };
    assert_eq!(rule("F120")["evidence"], "isa-decomposition");
    assert_eq!(
        rule("F120")["verification"]["relies_on"],
        serde_json::json!(["F001", "F002", "F003"])
    );
    assert_eq!(rule("F001")["evidence"], "hardware");
    assert_eq!(rule("F001")["verification"]["level"], "hardware");
    assert_eq!(rule("Q001")["evidence"], "not-value-checkable");
    let human = stdout(ptx2hip().arg("rules"), 0);
    let line = human.lines().find(|l| l.starts_with("F120 ")).unwrap();
    assert!(
        line.contains("isa-decomposition") && line.contains("through F001, F002, F003"),
        "{line}"
    );
}

#[test]
fn explain_states_the_level_and_the_decomposition() {
    let f120 = stdout(ptx2hip().args(["explain", "F120"]), 0);
    assert!(
        f120.contains("evidence: isa-decomposition")
            && f120.contains("relies on F001, F002, F003")
            && f120.contains("refused under --evidence hardware"),
        "{f120}"
    );
    let f001 = stdout(ptx2hip().args(["explain", "F001"]), 0);
    assert!(f001.contains("\nevidence: hardware\n"), "{f001}");
}

#[test]
fn the_report_names_the_rules_below_hardware_of_each_translated_statement() {
    let dir = tempfile::tempdir().unwrap();
    let k = kernel(dir.path());
    let findings = json(ptx2hip().args(["check", "--format", "json"]).arg(&k), 1);
    let f32x2 = &findings[0];
    assert_eq!(f32x2["status"], "translatable");
    assert_eq!(f32x2["evidence"][0]["rule"], "F120");
    assert_eq!(f32x2["evidence"][0]["level"], "isa-decomposition");
    assert_eq!(f32x2["evidence"][0]["relies_on"][2], "F003");
    assert!(f32x2["message"]
        .as_str()
        .unwrap()
        .contains("evidence below hardware: F120 (isa-decomposition: "));
    assert!(findings[1].get("evidence").is_none(), "{}", findings[1]);
    let sarif = json(ptx2hip().args(["check", "--format", "sarif"]).arg(&k), 1);
    let results = &sarif["runs"][0]["results"];
    assert_eq!(results[0]["properties"]["evidence"][0]["rule"], "F120");
    assert!(results[1].get("properties").is_none());
    let human = String::from_utf8(
        ptx2hip()
            .arg("check")
            .arg(&k)
            .assert()
            .code(1)
            .get_output()
            .stdout
            .clone(),
    )
    .unwrap();
    assert!(human.contains("relies on F001, F002, F003)"), "{human}");
    let page = dir.path().join("review.html");
    ptx2hip()
        .arg("report")
        .arg(&k)
        .arg("-o")
        .arg(&page)
        .assert()
        .code(0);
    let html = fs::read_to_string(&page).unwrap();
    assert!(html.contains("evidence below hardware: F120 (isa-decomposition"));
}

#[test]
fn evidence_hardware_leaves_decomposed_statements_as_written_with_u017() {
    let dir = tempfile::tempdir().unwrap();
    let k = kernel(dir.path());
    let findings = json(
        ptx2hip()
            .args(["check", "--format", "json", "--evidence", "hardware"])
            .arg(&k),
        1,
    );
    assert_eq!(findings[0]["code"], "U017");
    let message = findings[0]["message"].as_str().unwrap();
    assert!(
        message.contains("rule F120 (f32x2-add) has evidence `isa-decomposition`")
            && message.contains("through F001, F002, F003"),
        "{message}"
    );
    assert_eq!(findings[1]["code"], "T001");
    let diff = stdout(
        ptx2hip()
            .args(["translate", "--evidence", "hardware"])
            .arg(&k),
        0,
    );
    assert!(
        diff.contains("U017") && !diff.contains("ptx2hip_fop_f32x2"),
        "{diff}"
    );
    ptx2hip()
        .args(["check", "--evidence", "vectors"])
        .arg(&k)
        .assert()
        .code(2);
}

#[test]
fn the_configuration_sets_the_floor_and_the_option_wins() {
    let dir = tempfile::tempdir().unwrap();
    let k = kernel(dir.path());
    fs::write(dir.path().join("ptx2hip.toml"), "evidence = \"hardware\"\n").unwrap();
    let from_file = json(ptx2hip().args(["check", "--format", "json"]).arg(&k), 1);
    assert_eq!(from_file[0]["code"], "U017");
    let any = json(
        ptx2hip()
            .args(["check", "--format", "json", "--evidence", "any"])
            .arg(&k),
        1,
    );
    assert_eq!(any[0]["code"], "T001");
}
