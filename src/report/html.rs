//! `ptx2hip report`: one self-contained HTML page for reviewing a translation — per statement,
//! side by side, the original PTX and the code emitted for each target, the rules with their
//! documentation and evidence, and the statements left as written with their code and reason.
//! What ptx2hip could not read at all (an unclosed asm `E001`, a binary or UTF-16 file `E002`, a
//! file that could not be read `E003`) is left too, shown at its line: the page's "left" view is
//! everything left to port by hand.
//!
//! The page loads nothing (no network, no other file): its style and its filter script (by file,
//! status and rule; also read from the address's `#file=...&status=...&rule=...`) are inline.
//! Every text from a source or the rule table goes through `html_escape`.

use std::collections::BTreeSet;
use std::fmt::Write;
use std::path::Path;

use html_escape::{encode_double_quoted_attribute as attr, encode_text as text};

use crate::codes::Code;
use crate::lower::{self, render, RuleSet, Target};
use crate::scan::{self, cuda_arch::CudaArch};

/// One asm statement as the report shows it.
#[derive(Debug, Clone)]
pub struct Entry {
    pub file: String,
    pub line: usize,
    pub original: String,
    /// Rule codes of the AMD translation; empty when it is left as written.
    pub rules: Vec<String>,
    /// The codes among `rules` translated by their inexact `--fast` template.
    pub fast: Vec<String>,
    /// The rules among `rules` below hardware evidence (docs/EVIDENCE.md).
    pub evidence: Vec<crate::rules::evidence::BelowHardware>,
    /// Code and reason when the statement is left as written (for AMD); `T002` for a statement
    /// in a `__CUDA_ARCH__` arm the AMD device compilation does not take.
    pub left: Option<(String, String)>,
    /// Which `__CUDA_ARCH__` arm around it AMD device code takes (`--cuda-arch`).
    pub note: Option<String>,
    /// The code each target gets, or why it gets none.
    pub amd: Result<String, String>,
    pub portable: Result<String, String>,
}

impl Entry {
    /// A finding about a file or a piece of it ptx2hip could not read (`E001`–`E003`): left,
    /// with its code and message, `original` the text it is about.
    pub fn file_finding(
        file: &str,
        line: usize,
        original: String,
        code: Code,
        message: &str,
    ) -> Entry {
        Entry {
            file: file.to_string(),
            line,
            original,
            rules: Vec::new(),
            fast: Vec::new(),
            evidence: Vec::new(),
            left: Some((code.to_string(), message.to_string())),
            note: None,
            amd: Err(format!("{code}: {message}")),
            portable: Err(format!("{code}: {message}")),
        }
    }

    /// Whether it is about a file rather than a statement.
    fn is_file_finding(&self) -> bool {
        let code = self.left.as_ref().map_or("", |(c, _)| c.as_str());
        [Code::UnreadableAsm, Code::BinaryFile, Code::UnreadableFile]
            .iter()
            .any(|c| c.as_str() == code)
    }
}

/// Lines of source shown for a file finding at most (an unclosed asm runs to the end of file).
const SHOWN_LINES: usize = 10;

/// The statements of one file and what in it could not be read (`path` locates the local
/// headers its templates may use; `scan_options` carries the declared macros).
pub fn entries(
    file: &str,
    path: Option<&Path>,
    source: &[u8],
    rules: &RuleSet,
    scan_options: &scan::Options,
    settings: lower::Settings,
) -> Vec<Entry> {
    let mut out = Vec::new();
    match crate::pipeline::readable(source) {
        Ok(true) => {}
        Ok(false) => return out,
        Err(d) => {
            out.push(Entry::file_finding(
                file,
                d.line,
                String::new(),
                d.code,
                &d.message,
            ));
            return out;
        }
    }
    // What `translate` leaves as written on purpose is left on the page too.
    let suppressions = crate::suppress::find(source);
    scan::scan_each(source, path, scan_options, &mut |part| {
        for d in part.diagnostics {
            let text = String::from_utf8_lossy(source.get(d.span.clone()).unwrap_or_default());
            let shown: Vec<&str> = text.lines().take(SHOWN_LINES).collect();
            out.push(Entry::file_finding(
                file,
                d.line,
                shown.join("\n"),
                Code::UnreadableAsm,
                &d.message,
            ));
        }
        for stmt in part.statements {
            let invalid = crate::pipeline::invalid_utf8(source, &stmt);
            let translate = |target| match &invalid {
                Some(u) => Err((u.code, u.message.clone())),
                None => match lower::analyze(&stmt, rules, lower::Settings { target, ..settings })
                    .outcome
                {
                    Ok(t) => match crate::pipeline::kept_by_comment(source, &suppressions, &stmt) {
                        Some(kept) => Err((kept.code, kept.message)),
                        None => Ok((
                            render(&t.lines, "", "  ").join("\n"),
                            (t.rules, t.fast, t.evidence),
                        )),
                    },
                    Err(u) => Err((u.code, u.message)),
                },
            };
            let amd = translate(Target::Amd);
            let portable = translate(Target::Portable);
            out.push(Entry {
                file: file.to_string(),
                line: stmt.line,
                original: String::from_utf8_lossy(&source[stmt.span.clone()]).into_owned(),
                rules: amd.as_ref().map(|(_, r)| r.0.clone()).unwrap_or_default(),
                fast: amd.as_ref().map(|(_, r)| r.1.clone()).unwrap_or_default(),
                evidence: amd.as_ref().map(|(_, r)| r.2.clone()).unwrap_or_default(),
                left: amd.as_ref().err().map(|(c, m)| (c.to_string(), m.clone())),
                note: stmt
                    .arch_arm
                    .zip(scan_options.macros.cuda_arch)
                    .map(|(arm, arch)| crate::pipeline::taken_arm_note(source, arm, arch)),
                amd: amd.map(|(c, _)| c).map_err(|(c, m)| format!("{c}: {m}")),
                portable: portable
                    .map(|(c, _)| c)
                    .map_err(|(c, m)| format!("{c}: {m}")),
            });
        }
        for skipped in part.skipped {
            let (scan::Skip::OtherArch { taken }, Some(arch)) =
                (skipped.why, scan_options.macros.cuda_arch)
            else {
                continue;
            };
            let why = crate::pipeline::other_arch_message(source, taken, arch);
            out.push(Entry {
                file: file.to_string(),
                line: skipped.line,
                original: String::from_utf8_lossy(&source[skipped.span.clone()]).into_owned(),
                rules: Vec::new(),
                fast: Vec::new(),
                evidence: Vec::new(),
                left: Some((Code::OtherArchArm.to_string(), why.clone())),
                note: None,
                amd: Err(format!("{}: {why}", Code::OtherArchArm)),
                portable: Err(format!("{}: {why}", Code::OtherArchArm)),
            });
        }
    });
    out.sort_by_key(|e| e.line);
    out
}

impl Entry {
    /// `translated`, `left` (as written) or `other-arch` (in an arm AMD does not take).
    fn status(&self) -> &'static str {
        match &self.left {
            None => "translated",
            Some((code, _)) if *code == Code::OtherArchArm.as_str() => "other-arch",
            Some(_) => "left",
        }
    }
}

const STYLE: &str = "body{font:14px system-ui,sans-serif;margin:1em 2em;color:#222}\
header{position:sticky;top:0;background:#fff;padding:.5em 0;border-bottom:1px solid #ccc}\
select,input{margin-right:1em}\
.stmt{border:1px solid #ccc;border-radius:6px;margin:1em 0;padding:.5em}\
.stmt.left{border-color:#c60}\
.cols{display:grid;grid-template-columns:1fr 1fr 1fr;gap:.5em}\
pre{background:#f6f6f6;padding:.4em;overflow-x:auto;margin:0;white-space:pre-wrap}\
.why{color:#a40}.tag{font-weight:bold}.rule{border-top:1px solid #ddd;margin-top:1em}";

/// Reads the filters, hides the statements they leave out, counts the rest. The address's hash
/// sets the filters when the page opens (`review.html#status=left`).
const SCRIPT: &str = r#"
function apply() {
  const f = document.getElementById('f-file').value;
  const s = document.getElementById('f-status').value;
  const r = document.getElementById('f-rule').value.trim().toUpperCase();
  let shown = 0;
  const all = document.querySelectorAll('.stmt');
  for (const e of all) {
    const ok = (!f || e.dataset.file === f) && (!s || e.dataset.status === s) &&
      (!r || e.dataset.rules.split(' ').includes(r) || e.dataset.code === r);
    e.hidden = !ok;
    if (ok) shown++;
  }
  document.getElementById('shown').textContent = shown + ' of ' + all.length + ' statements shown';
}
function fromHash() {
  const p = new URLSearchParams(location.hash.slice(1));
  for (const k of ['file', 'status', 'rule']) {
    if (p.has(k)) document.getElementById('f-' + k).value = p.get(k);
  }
}
for (const id of ['f-file', 'f-status', 'f-rule']) {
  document.getElementById(id).addEventListener('input', apply);
}
fromHash();
apply();
"#;

/// The whole page; `arch`: the architecture whose `__CUDA_ARCH__` arms AMD device code takes.
pub fn page(entries: &[Entry], rules: &RuleSet, arches: &[CudaArch]) -> String {
    let mut h = String::new();
    let files: BTreeSet<&str> = entries.iter().map(|e| e.file.as_str()).collect();
    let used: BTreeSet<&str> = entries
        .iter()
        .flat_map(|e| e.rules.iter().map(String::as_str))
        .collect();
    let count = |status: &str| entries.iter().filter(|e| e.status() == status).count();
    let file_findings = entries.iter().filter(|e| e.is_file_finding()).count();
    let unread = match file_findings {
        0 => String::new(),
        n => format!(
            ", {n} of them not read (<code>E001</code>–<code>E003</code>: a file or an asm ptx2hip could not read)"
        ),
    };
    let taken = match arches {
        [] => None,
        [arch] => Some(format!(
            "= {}: <code>--cuda-arch {arch}</code>",
            arch.value()
        )),
        several => Some(format!(
            "= {}, as each file's configuration says (<code>cuda-arch</code>)",
            several
                .iter()
                .map(|a| a.value().to_string())
                .collect::<Vec<_>>()
                .join(" or ")
        )),
    };
    let other_arch = match taken {
        Some(taken) => format!(
            ", {} in <code>__CUDA_ARCH__</code> arms AMD device code does not take (it takes those of \
<code>__CUDA_ARCH__</code> {taken})",
            count("other-arch"),
        ),
        None => String::new(),
    };
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<title>ptx2hip review</title><style>{STYLE}</style></head><body>\n<header><h1>ptx2hip review</h1>\
<p>{} statements in {} files: {} translated, {} left as written{unread}{other_arch}. <span id=\"shown\"></span></p>\
<label>File <select id=\"f-file\"><option value=\"\">all</option>",
        entries.len(),
        files.len(),
        count("translated"),
        count("left"),
    );
    for f in &files {
        let _ = write!(h, "<option value=\"{}\">{}</option>", attr(f), text(f));
    }
    h.push_str(
        "</select></label><label>Status <select id=\"f-status\"><option value=\"\">all</option>\
<option value=\"translated\">translated</option><option value=\"left\">left as written</option>\
<option value=\"other-arch\">in arms AMD does not take</option></select></label><label>Rule or code <input id=\"f-rule\" size=\"6\" placeholder=\"B012\"></label>\
</header>\n<main>\n",
    );
    for e in entries {
        let status = e.status();
        let code = e.left.as_ref().map_or("", |(c, _)| c.as_str());
        let _ = write!(
            h,
            "<section class=\"stmt {status}\" data-file=\"{}\" data-status=\"{status}\" data-rules=\"{}\" data-code=\"{}\">\
<div><span class=\"tag\">{}:{}</span> ",
            attr(&e.file),
            attr(&e.rules.join(" ")),
            attr(code),
            text(&e.file),
            e.line
        );
        match &e.left {
            Some((c, why)) => {
                let code = match Code::parse(c) {
                    Some(code) => page_link(&crate::pages::code_page(code), c),
                    None => text(c).to_string(),
                };
                let _ = write!(
                    h,
                    "<span class=\"why\">left as written: {code} {}</span>",
                    text(why)
                );
            }
            None => {
                h.push_str("rules:");
                for r in &e.rules {
                    let _ = write!(h, " <a href=\"#rule-{0}\">{1}</a>", attr(r), text(r));
                }
                if !e.fast.is_empty() {
                    let _ = write!(
                        h,
                        " <span class=\"why\">--fast tier, inexact: {} (the rule's doc states the deviation)</span>",
                        text(&e.fast.join(" "))
                    );
                }
                for below in &e.evidence {
                    let _ = write!(
                        h,
                        " <span class=\"why\">evidence below hardware: {}</span>",
                        text(&below.to_string())
                    );
                }
            }
        }
        if let Some(note) = &e.note {
            let _ = write!(h, " <span class=\"note\">({})</span>", text(note));
        }
        h.push_str("</div><div class=\"cols\">");
        let _ = write!(h, "<div>original<pre>{}</pre></div>", text(&e.original));
        for (name, code) in [("--target amd", &e.amd), ("--target portable", &e.portable)] {
            match code {
                Ok(c) => {
                    let _ = write!(h, "<div>{name}<pre>{}</pre></div>", text(c));
                }
                Err(why) => {
                    let _ = write!(
                        h,
                        "<div>{name}<pre class=\"why\">not translated: {}</pre></div>",
                        text(why)
                    );
                }
            }
        }
        h.push_str("</div></section>\n");
    }
    h.push_str("</main>\n<h2>Rules used</h2>\n");
    for code in used {
        let Some(r) = rules.rule(code) else { continue };
        let evidence =
            serde_json::to_string_pretty(&crate::rules::evidence::status(r)).unwrap_or_default();
        let _ = writeln!(
            h,
            "<section class=\"rule\" id=\"rule-{}\"><h3>{} ({}) — {}</h3><pre>{}</pre>\
<p>evidence:</p><pre>{}</pre><p>page: {}</p></section>",
            attr(&r.code),
            text(&r.code),
            text(&r.name),
            text(&r.summary),
            text(r.doc.trim()),
            text(&evidence),
            page_link(
                &crate::pages::rule_page(&r.code),
                &crate::pages::rule_page(&r.code)
            )
        );
    }
    let _ = write!(h, "<script>{SCRIPT}</script>\n</body></html>\n");
    h
}

/// A link to a documentation page ([`crate::pages`]), relative to the ptx2hip repository.
fn page_link(page: &str, label: &str) -> String {
    format!(
        "<a href=\"{}\" title=\"in the ptx2hip repository\">{}</a>",
        attr(page),
        text(label)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_text_is_escaped_and_rules_are_documented() {
        let rules = RuleSet::embedded().unwrap();
        let src = "__device__ int f(int x) {\n  int y;\n  asm(\"add.s32 %0, %1, 1; // </pre><script>\" : \"=r\"(y) : \"r\"(x));\n  asm(\"frob.b32 %0;\" : \"=r\"(y));\n  return y;\n}\n";
        let e = entries(
            "a<b>.cu",
            None,
            src.as_bytes(),
            &rules,
            &scan::Options::default(),
            Target::Amd.into(),
        );
        assert_eq!(e.len(), 2);
        let html = page(&e, &rules, &[]);
        assert!(!html.contains("</pre><script>\""), "unescaped source text");
        assert!(html.contains("a&lt;b&gt;.cu"));
        assert!(html.contains("id=\"rule-I001\""));
        assert!(
            html.contains("href=\"docs/rules/I001.md\""),
            "the rule's page"
        );
        assert!(
            html.contains("href=\"docs/codes/U001.md\""),
            "the finding's page"
        );
        assert!(html.contains("left as written: <a href=\"docs/codes/U001.md\""));
        assert!(
            !html.contains("http://") && !html.contains("https://"),
            "nothing loaded"
        );
    }

    #[test]
    fn a_statement_translate_leaves_for_its_bytes_is_left_on_the_page_too() {
        let rules = RuleSet::embedded().unwrap();
        let src = b"__device__ int f(int x) {\n  int y;\n  asm(\"add.s32 %0, %1, 1;\" : \"=r\"(y) : \"r\"(x /* \xff */));\n  return y;\n}\n";
        let e = entries(
            "k.cu",
            None,
            src,
            &rules,
            &scan::Options::default(),
            Target::Amd.into(),
        );
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].status(), "left");
        assert_eq!(e[0].left.as_ref().map(|(c, _)| c.as_str()), Some("U014"));
    }

    #[test]
    fn a_statement_its_comment_keeps_as_written_is_left_on_the_page() {
        let rules = RuleSet::embedded().unwrap();
        let src = "__device__ int f(int x) {\n  int y;\n  // ptx2hip: ignore[T001] the NVIDIA path on purpose\n  asm(\"add.s32 %0, %1, 1;\" : \"=r\"(y) : \"r\"(x));\n  asm(\"add.s32 %0, %1, 2;\" : \"=r\"(y) : \"r\"(x));\n  return y;\n}\n";
        let e = entries(
            "k.cu",
            None,
            src.as_bytes(),
            &rules,
            &scan::Options::default(),
            Target::Amd.into(),
        );
        assert_eq!(
            e.iter().map(Entry::status).collect::<Vec<_>>(),
            ["left", "translated"]
        );
        let (code, why) = e[0].left.clone().unwrap();
        assert_eq!(code, "T001");
        assert!(why.contains("keeps it as written"), "{why}");
    }

    #[test]
    fn statements_in_arms_amd_does_not_take_are_shown_with_the_arm_it_takes() {
        let rules = RuleSet::embedded().unwrap();
        let src = "__device__ int f(int x) {\n  int y;\n#if __CUDA_ARCH__ >= 800\n  asm(\"add.s32 %0, %1, 1;\" : \"=r\"(y) : \"r\"(x));\n#else\n  asm(\"add.s32 %0, %1, 2;\" : \"=r\"(y) : \"r\"(x));\n#endif\n  return y;\n}\n";
        let options = scan::Options {
            macros: scan::Macros {
                cuda_arch: Some(CudaArch::DEFAULT),
                ..scan::Macros::default()
            },
        };
        let e = entries(
            "k.cu",
            None,
            src.as_bytes(),
            &rules,
            &options,
            Target::Amd.into(),
        );
        assert_eq!(
            e.iter().map(Entry::status).collect::<Vec<_>>(),
            ["translated", "other-arch"]
        );
        let html = page(&e, &rules, &[CudaArch::DEFAULT]);
        assert!(html.contains("1 translated, 0 left as written, 1 in <code>__CUDA_ARCH__</code> arms AMD device code does not take"), "{html}");
        assert!(html.contains("<code>--cuda-arch sm_90</code>"));
        assert!(html.contains("data-status=\"other-arch\""));
        assert!(
            html.contains("takes the arm `#if __CUDA_ARCH__ &gt;= 800` (line 3) instead"),
            "{html}"
        );
        assert!(
            html.contains("(AMD device code takes its arm `#if __CUDA_ARCH__ &gt;= 800` (line 3) for `--cuda-arch sm_90`)"),
            "{html}"
        );
    }
}
