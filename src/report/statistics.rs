//! `check --statistics`: how many findings of each code, each instruction form and each reason,
//! instead of the findings themselves — the size of a port at a glance.

use std::collections::BTreeMap;

use serde::Serialize;

use super::Diagnostic;
use crate::codes::Code;

/// Counts over the reported findings.
#[derive(Debug, Default)]
pub struct Statistics {
    codes: BTreeMap<Code, usize>,
    /// Per instruction form: statements translated, statements not translated.
    forms: BTreeMap<String, (usize, usize)>,
    reasons: BTreeMap<(Code, String), usize>,
}

#[derive(Serialize)]
struct CodeCount<'a> {
    code: &'a str,
    name: &'a str,
    count: usize,
}

#[derive(Serialize)]
struct FormCount<'a> {
    form: &'a str,
    translatable: usize,
    unsupported: usize,
}

#[derive(Serialize)]
struct ReasonCount<'a> {
    code: &'a str,
    reason: &'a str,
    count: usize,
}

#[derive(Serialize)]
struct Json<'a> {
    codes: Vec<CodeCount<'a>>,
    forms: Vec<FormCount<'a>>,
    reasons: Vec<ReasonCount<'a>>,
}

impl Statistics {
    pub fn add(&mut self, d: &Diagnostic) {
        *self.codes.entry(d.code).or_default() += 1;
        let translated = d.code == Code::Translatable;
        let mut forms = d.instructions.clone();
        forms.sort();
        forms.dedup();
        for form in forms {
            let (t, u) = self.forms.entry(form).or_default();
            if translated {
                *t += 1;
            } else {
                *u += 1;
            }
        }
        if let Some(reason) = &d.reason {
            *self.reasons.entry((d.code, reason.clone())).or_default() += 1;
        }
    }

    /// Most frequent first; ties in code or name order.
    fn sorted<K: Clone + Ord, V: Copy>(
        map: &BTreeMap<K, V>,
        count: impl Fn(V) -> usize,
    ) -> Vec<(K, V)> {
        let mut v: Vec<(K, V)> = map.iter().map(|(k, v)| (k.clone(), *v)).collect();
        v.sort_by_key(|(k, v)| (std::cmp::Reverse(count(*v)), k.clone()));
        v
    }

    /// Three tables: per code, per instruction form, per reason.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for (code, n) in Self::sorted(&self.codes, |n| n) {
            out += &format!("{n:>6}  {code}  {:<26} {}\n", code.name(), code.summary());
        }
        if !self.forms.is_empty() {
            out += "\n  translatable  not translated  instruction form\n";
            for (form, (t, u)) in Self::sorted(&self.forms, |(t, u)| t + u) {
                out += &format!("{t:>14}  {u:>14}  {form}\n");
            }
        }
        if !self.reasons.is_empty() {
            out += "\n  count  code  reason\n";
            for ((code, reason), n) in Self::sorted(&self.reasons, |n| n) {
                out += &format!("{n:>7}  {code}  {reason}\n");
            }
        }
        out
    }

    pub fn json(&self) -> String {
        let codes = Self::sorted(&self.codes, |n| n);
        let forms = Self::sorted(&self.forms, |(t, u)| t + u);
        let reasons = Self::sorted(&self.reasons, |n| n);
        let json = Json {
            codes: codes
                .iter()
                .map(|(c, n)| CodeCount {
                    code: c.as_str(),
                    name: c.name(),
                    count: *n,
                })
                .collect(),
            forms: forms
                .iter()
                .map(|(f, (t, u))| FormCount {
                    form: f,
                    translatable: *t,
                    unsupported: *u,
                })
                .collect(),
            reasons: reasons
                .iter()
                .map(|((c, r), n)| ReasonCount {
                    code: c.as_str(),
                    reason: r,
                    count: *n,
                })
                .collect(),
        };
        serde_json::to_string_pretty(&json).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Location;

    fn diagnostic(code: Code, forms: &[&str], reason: Option<&str>) -> Diagnostic {
        let at = Location {
            line: 1,
            column: 1,
            char_column: 1,
        };
        let mut d = Diagnostic::at(code, "k.cu", at, String::new());
        d.instructions = forms.iter().map(|s| s.to_string()).collect();
        d.reason = reason.map(str::to_string);
        d
    }

    #[test]
    fn counts_per_code_form_and_reason_most_frequent_first() {
        let mut s = Statistics::default();
        s.add(&diagnostic(Code::Translatable, &["add.s32"], None));
        s.add(&diagnostic(
            Code::Translatable,
            &["add.s32", "mul.lo.s32"],
            None,
        ));
        let why = "unknown instruction `frob`: no rule in the table";
        s.add(&diagnostic(
            Code::UnknownInstruction,
            &["frob", "add.s32"],
            Some(why),
        ));
        let text = s.text();
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            lines[0].trim_start().starts_with("2  T001  translatable"),
            "{text}"
        );
        assert!(
            lines[1]
                .trim_start()
                .starts_with("1  U001  unknown-instruction"),
            "{text}"
        );
        assert!(
            text.contains("             2               1  add.s32\n"),
            "{text}"
        );
        assert!(text.contains(&format!("      1  U001  {why}\n")), "{text}");
        let json: serde_json::Value = serde_json::from_str(&s.json()).unwrap();
        assert_eq!(json["codes"][0]["code"], "T001");
        assert_eq!(json["codes"][0]["count"], 2);
        assert_eq!(json["forms"][0]["form"], "add.s32");
        assert_eq!(json["forms"][0]["unsupported"], 1);
        assert_eq!(json["reasons"][0]["reason"], why);
    }
}
