//! Lowering: from a scanned asm statement to C++ code, through the rule table.
//!
//! A statement is translated whole or not at all: if any instruction has no rule, an operand
//! cannot be typed, or the control flow cannot be structured, the result is an [`Unsupported`]
//! with the precise reason, and the statement stays as written.

mod arms;
mod barrier;
mod block;
mod convert;
mod helper_use;
mod lop3;
pub mod operands;
mod uses;
mod written;

use std::fmt;

use crate::codes::Code;
use crate::ptx;
use crate::rules::evidence::{self, BelowHardware, Floor};
use crate::scan::{AsmStatement, Template};
use helper_use::HelperUse;

pub use crate::rules::RuleSet;
pub use crate::vocabulary::Target;
pub use block::{is_simple_expr, Line, BRANCH, COMPILER_BARRIER};
pub use written::printed as printed_as_written;

/// Which NVIDIA architecture's tensor cores the exact matrix translations reproduce
/// (`--tensor-model`): their block-FMA numerics differ per architecture (docs/TENSOR_MODEL.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum TensorModel {
    /// H100/H200 (sm_90): the architecture the golden vectors are recorded on.
    #[default]
    Sm90,
    /// A100 (sm_80), checked against published A100 recordings.
    Sm80,
}

impl TensorModel {
    /// The value of the templates' `{tensor_model}` placeholder (`ptx2hip_tc_sm90`).
    pub fn placeholder(self) -> &'static str {
        match self {
            TensorModel::Sm90 => "sm90",
            TensorModel::Sm80 => "sm80",
        }
    }

    /// Parses `sm_90`/`sm90`/`90` (and the same for 80).
    pub fn parse(text: &str) -> Option<TensorModel> {
        match text.trim_start_matches("sm").trim_start_matches('_') {
            "90" | "90a" => Some(TensorModel::Sm90),
            "80" => Some(TensorModel::Sm80),
            _ => None,
        }
    }
}

impl fmt::Display for TensorModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "sm_{}", &self.placeholder()[2..])
    }
}

/// How statements are lowered: the target, the tensor-core model, and whether the inexact
/// `--fast` tier may be used. A [`Target`] alone is the exact sm_90 setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Settings {
    pub target: Target,
    pub tensor_model: TensorModel,
    /// Rules with a `[rule.fast]` translation use it (`--target amd` only).
    pub fast: bool,
    /// The least evidence a rule must have to be used (`--evidence`); a statement needing a
    /// rule below it is left as written (`U017`).
    pub evidence: Floor,
}

impl From<Target> for Settings {
    fn from(target: Target) -> Settings {
        Settings {
            target,
            tensor_model: TensorModel::default(),
            fast: false,
            evidence: Floor::Any,
        }
    }
}

impl Settings {
    /// The codes among `codes` whose rule is translated by its `--fast` template.
    fn fast_codes(&self, rules: &RuleSet, codes: &[String]) -> Vec<String> {
        codes
            .iter()
            .filter(|c| {
                rules
                    .rule(c)
                    .is_some_and(|r| r.fast_template(self.target).is_some() && self.fast)
            })
            .cloned()
            .collect()
    }

    /// The rules among `codes` below hardware evidence.
    fn below_hardware(rules: &RuleSet, codes: &[String]) -> Vec<BelowHardware> {
        codes
            .iter()
            .filter_map(|c| BelowHardware::of(rules.rule(c)?))
            .collect()
    }

    /// The refusal of a translation that uses a rule below the evidence asked for.
    fn below_floor(&self, rules: &RuleSet, codes: &[String]) -> Option<Unsupported> {
        let rule = codes
            .iter()
            .filter_map(|c| rules.rule(c))
            .find(|r| !self.evidence.admits(evidence::level(r)))?;
        let why = match &rule.decomposition {
            Some(d) => format!(
                "no GPU here runs the form; the ISA defines it through {} (`ptx2hip explain {}`)",
                d.rules.join(", "),
                rule.code
            ),
            None => "it has no recording yet".to_string(),
        };
        Some(Unsupported::new(
            Code::BelowEvidence,
            format!(
                "rule {} ({}) has evidence `{}`, below `--evidence hardware`: {why}",
                rule.code,
                rule.name,
                evidence::level(rule)
            ),
        ))
    }
}

/// Where in the source a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Position {
    /// Byte offset in the statement's template text.
    Template(usize),
    /// Byte offset in the file.
    File(usize),
    /// The statement as a whole.
    Statement,
}

/// Why a statement is not translated.
#[derive(Debug, Clone, PartialEq)]
pub struct Unsupported {
    /// The kind of reason, as reported (`U001`); the message gives the details.
    pub code: Code,
    pub message: String,
    pub position: Position,
    /// The instruction form the reason is about, when it is about one.
    pub instruction: Option<String>,
}

impl Unsupported {
    pub fn new(code: Code, message: String) -> Self {
        Unsupported {
            code,
            message,
            position: Position::Statement,
            instruction: None,
        }
    }

    pub fn at(code: Code, message: String, template_offset: usize) -> Self {
        Unsupported {
            code,
            message,
            position: Position::Template(template_offset),
            instruction: None,
        }
    }

    pub fn with_instruction(mut self, form: &str) -> Self {
        self.instruction = Some(form.to_string());
        self
    }

    /// File byte offset of the problem.
    pub fn file_offset(&self, stmt: &AsmStatement) -> usize {
        match self.position {
            Position::Template(t) => stmt.template.file_offset(t).unwrap_or(stmt.span.start),
            Position::File(f) => f,
            Position::Statement => stmt.span.start,
        }
    }
}

/// A translation of one statement.
#[derive(Debug, Clone, PartialEq)]
pub struct Translation {
    /// Code lines with nesting depth; depth 0 is the statement's own indentation.
    pub lines: Vec<Line>,
    /// Helper functions the code calls, requirements first.
    pub helpers: Vec<String>,
    /// Codes of the rules used, in first-use order.
    pub rules: Vec<String>,
    /// The codes among `rules` translated by their inexact `--fast` template.
    pub fast: Vec<String>,
    /// The rules among `rules` below hardware evidence (ISA decomposition), in `rules` order.
    pub evidence: Vec<BelowHardware>,
    /// For a statement in a `#define` body translated per use of the macro (`scan::MacroUses`):
    /// each reading's code lines, in the order of its readings; `lines` is then empty.
    pub by_use: Vec<Vec<Line>>,
}

/// Everything ptx2hip knows about one statement.
#[derive(Debug, Clone, PartialEq)]
pub struct Analysis {
    /// Instruction forms as written (`add.s32`, `ld.global.v4.u32`), in order.
    pub instructions: Vec<String>,
    pub outcome: Result<Translation, Unsupported>,
}

/// A template whose last instruction has no `;`: nvcc pastes the template into its PTX as
/// written, and the instruction it emits next runs into the unterminated one, so ptxas rejects the
/// statement ("Parsing error", measured with nvcc 13.0): there is no NVIDIA behaviour to
/// translate.
fn unterminated(block: &ptx::Block, text: &str) -> Option<Unsupported> {
    let Some(ptx::Item::Instruction(last)) = block.items.last() else {
        return None;
    };
    let written = text.get(last.span.clone())?;
    (!written.ends_with(';')).then(|| {
        Unsupported::at(
            Code::SyntaxError,
            format!(
                "PTX syntax error: the last instruction `{}` has no `;`; ptxas rejects the statement (nvcc emits the next instruction right after it), so it has no NVIDIA meaning to translate: end it with `;`",
                last.form()
            ),
            last.span.end,
        )
        .with_instruction(&last.form())
    })
}

/// Analyses and, where every instruction has a rule, translates one statement.
pub fn analyze(stmt: &AsmStatement, rules: &RuleSet, settings: impl Into<Settings>) -> Analysis {
    let settings = settings.into();
    if let (Some(arms), Template::Known { .. }) = (&stmt.arms, &stmt.template) {
        return arms::analyze_arms(arms, rules, settings);
    }
    if let (Some(uses), Template::Known { .. }) = (stmt.macro_uses(), &stmt.template) {
        return uses::analyze_uses(uses, rules, settings);
    }
    let text = match &stmt.template {
        Template::Known { text, .. } => text.as_str(),
        Template::Unresolved { reason, at } => {
            return Analysis {
                instructions: Vec::new(),
                outcome: Err(Unsupported {
                    code: Code::TemplateUnresolved,
                    message: format!("the asm template cannot be read: {reason}"),
                    position: Position::File(*at),
                    instruction: None,
                }),
            }
        }
    };
    if let Some(op) = stmt.operands().find(|op| holds_asm(&op.expr)) {
        // A statement expression `({ asm(...); t; })` as an operand: the translation would copy
        // the inner asm into code where the next run finds and translates it (a second
        // `translate` would change the file), and translating the inner one alone would splice
        // inside the outer statement.
        return Analysis {
            instructions: Vec::new(),
            outcome: Err(Unsupported::new(
                Code::OperandBinding,
                format!(
                    "the operand `{}` holds another asm statement; ptx2hip translates neither (move the inner statement before this one, into a local)",
                    op.expr.trim()
                ),
            )),
        };
    }
    let variants = match string_operand_variants(stmt, text) {
        Ok(v) => v,
        Err(u) => {
            return Analysis {
                instructions: Vec::new(),
                outcome: Err(u),
            }
        }
    };
    let mut instructions = Vec::new();
    let mut lowered = Vec::new();
    let mut failure = None;
    for variant in &variants {
        match ptx::parse(&variant.text) {
            Ok(block) => {
                collect_forms(&block.items, &mut instructions);
                if failure.is_some() {
                    continue;
                }
                let result = match unterminated(&block, &variant.text) {
                    Some(u) => Err(u),
                    None => block::Lowerer::new(stmt, rules, settings)
                        .and_then(|l| l.spelled(&variant.text).lower(&block, stmt)),
                };
                match result {
                    Ok(l) => lowered.push((variant, l)),
                    Err(mut u) => {
                        if variants.len() > 1 {
                            u.message = format!("{} (with {})", u.message, variant.describe());
                            u.position = if variant.substituted {
                                Position::Statement
                            } else {
                                u.position
                            };
                        }
                        failure = Some(u);
                    }
                }
            }
            Err(e) => {
                if failure.is_none() {
                    let position = if variant.substituted {
                        Position::Statement
                    } else {
                        Position::Template(e.span.start)
                    };
                    failure = Some(Unsupported {
                        code: Code::SyntaxError,
                        message: format!("PTX syntax error: {}", e.message),
                        position,
                        instruction: None,
                    });
                }
            }
        }
    }
    instructions.dedup();
    if let Some(u) = failure {
        return Analysis {
            instructions,
            outcome: Err(u),
        };
    }
    let (lines, rule_codes, uses) = compose_variants(stmt, lowered);
    if let Some(u) = settings.below_floor(rules, &rule_codes) {
        return Analysis {
            instructions,
            outcome: Err(u),
        };
    }
    let helpers = uses.closure(rules);
    Analysis {
        instructions,
        outcome: Ok(Translation {
            lines,
            helpers,
            fast: settings.fast_codes(rules, &rule_codes),
            evidence: Settings::below_hardware(rules, &rule_codes),
            rules: rule_codes,
            by_use: Vec::new(),
        }),
    }
}

/// One concrete template text: the statement's own, or one choice of strings for its `"C"`
/// operands.
struct Variant {
    text: String,
    /// `(operand expression, chosen string)` for every `"C"` operand.
    choices: Vec<(String, String)>,
    substituted: bool,
}

impl Variant {
    fn describe(&self) -> String {
        self.choices
            .iter()
            .map(|(e, s)| format!("{e} = \"{s}\""))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Expands `"C"` operands: every combination of the strings each can denote, substituted into
/// the template where `%N` references it.
/// Whether a C++ operand expression contains the `asm` keyword (`asm`, `__asm`, `__asm__`) as a
/// whole word.
fn holds_asm(expr: &str) -> bool {
    expr.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .any(|word| crate::scan::is_asm_keyword(word.as_bytes()))
}

fn string_operand_variants(stmt: &AsmStatement, text: &str) -> Result<Vec<Variant>, Unsupported> {
    const MAX_VARIANTS: usize = 64;
    let mut variants = vec![Variant {
        text: text.to_string(),
        choices: Vec::new(),
        substituted: false,
    }];
    for (i, op) in stmt.operands().enumerate() {
        if op.constraint != "C" {
            continue;
        }
        if op.c_strings.is_empty() {
            return Err(Unsupported::new(Code::OperandBinding, format!(
                "operand %{i} \"C\"({}) names a string ptx2hip cannot find as a constant array in this file",
                op.expr.trim()
            )));
        }
        let mut next = Vec::new();
        for v in &variants {
            for s in &op.c_strings {
                let mut choices = v.choices.clone();
                choices.push((op.expr.trim().to_string(), s.clone()));
                next.push(Variant {
                    text: substitute_operand(&v.text, i, s),
                    choices,
                    substituted: true,
                });
            }
        }
        if next.len() > MAX_VARIANTS {
            return Err(Unsupported::new(
                Code::OperandBinding,
                format!("the \"C\" operands allow more than {MAX_VARIANTS} template texts"),
            ));
        }
        variants = next;
    }
    Ok(variants)
}

/// Replaces `%index` (not `%%`, not a longer number) with `value`.
fn substitute_operand(text: &str, index: usize, value: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut copied = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            if bytes.get(i + 1) == Some(&b'%') {
                i += 2;
                continue;
            }
            let digits = bytes[i + 1..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            if digits > 0 && text[i + 1..i + 1 + digits].parse::<usize>() == Ok(index) {
                out.push_str(&text[copied..i]);
                out.push_str(value);
                i += 1 + digits;
                copied = i;
                continue;
            }
        }
        i += 1;
    }
    out.push_str(&text[copied..]);
    out
}

/// The lines of the statement (one variant's, or each variant's under its `if constexpr`), the
/// rule codes and the helpers they use.
fn compose_variants(
    stmt: &AsmStatement,
    lowered: Vec<(&Variant, block::Lowered)>,
) -> (Vec<Line>, Vec<String>, HelperUse) {
    let mut codes: Vec<String> = Vec::new();
    let mut uses = HelperUse::default();
    for (_, l) in &lowered {
        for c in &l.rules {
            if !codes.contains(c) {
                codes.push(c.clone());
            }
        }
        uses.extend(&l.helpers);
    }
    if lowered.len() == 1 && !lowered[0].0.substituted {
        let (_, l) = lowered.into_iter().next().expect("one variant");
        return (l.lines, codes, uses);
    }
    uses.add(STREQ);
    let _ = stmt;
    let condition = |v: &Variant| {
        v.choices
            .iter()
            .map(|(e, s)| format!("{STREQ}({e}, \"{}\")", escape_c(s)))
            .collect::<Vec<_>>()
            .join(" && ")
    };
    let all: Vec<String> = lowered
        .iter()
        .map(|(v, _)| format!("({})", condition(v)))
        .collect();
    let mut lines = vec![
        (0, "{".to_string()),
        (
            1,
            format!(
                "static_assert({}, \"ptx2hip: this \\\"C\\\" operand string was not translated\");",
                all.join(" || ")
            ),
        ),
    ];
    for (k, (v, l)) in lowered.iter().enumerate() {
        let kw = if k == 0 {
            "if constexpr"
        } else {
            "} else if constexpr"
        };
        lines.push((1, format!("{kw} ({}) {{", condition(v))));
        lines.extend(l.lines.iter().map(|(d, s)| (d + 2, s.clone())));
    }
    lines.push((1, "}".to_string()));
    lines.push((0, "}".to_string()));
    (lines, codes, uses)
}

/// The helper that compares a `"C"` operand's string with one it can denote.
const STREQ: &str = "ptx2hip_streq";

fn escape_c(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

fn collect_forms(items: &[ptx::Item], out: &mut Vec<String>) {
    for it in items {
        match it {
            ptx::Item::Instruction(i) => {
                let f = i.form();
                if !out.contains(&f) {
                    out.push(f);
                }
            }
            ptx::Item::Scope { block, .. } => collect_forms(&block.items, out),
            _ => {}
        }
    }
}

/// Renders code lines: `first` is prepended to the first line only (the statement's own column),
/// every following line gets `indent` plus one `unit` per depth.
pub fn render(lines: &[Line], indent: &str, unit: &str) -> Vec<String> {
    lines
        .iter()
        .map(|(d, l)| format!("{indent}{}{l}", unit.repeat(*d)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operand_substitution_skips_escaped_percent_and_longer_numbers() {
        assert_eq!(
            substitute_operand("add.f32%1 %0,%2,%10; mov %%1", 1, ".rn"),
            "add.f32.rn %0,%2,%10; mov %%1"
        );
    }

    /// The outcome of `ptx` with operands `(constraint, expr)` for `--target amd`.
    fn outcome(ptx: &str, operands: &[(&str, &str)]) -> Result<Translation, Unsupported> {
        let stmt = AsmStatement::synthetic_with(ptx, operands);
        analyze(&stmt, &RuleSet::embedded().unwrap(), Target::Amd).outcome
    }

    #[test]
    fn a_template_whose_last_instruction_lacks_its_semicolon_is_a_syntax_error() {
        for ptx in [
            "add.u32 %0, %1, 1",
            "add.u32 %0, %1, 1;\n\tadd.u32 %0, %0, 2",
        ] {
            let u = outcome(ptx, &[("=r", "d"), ("r", "a")]).unwrap_err();
            assert_eq!(u.code, Code::SyntaxError, "{ptx}");
            assert!(
                u.message.contains("has no `;`; ptxas rejects"),
                "{}",
                u.message
            );
        }
        let u = outcome("membar.gl", &[]).unwrap_err();
        assert!(
            u.message.contains("`membar.gl` has no `;`"),
            "{}",
            u.message
        );
        assert!(outcome("{ add.u32 %0, %1, 1; }", &[("=r", "d"), ("r", "a")]).is_ok());
    }

    /// nvcc 13.0 reads `%laneid` in a statement with operands as the register `%laneid`, as it
    /// reads `%%laneid` (both give `mov.u32 %r1, %laneid;` in its PTX), so both translate alike.
    #[test]
    fn a_special_register_with_one_percent_in_a_statement_with_operands_is_the_register() {
        let one = outcome("mov.u32 %0, %laneid;", &[("=r", "d")]).unwrap();
        let two = outcome("mov.u32 %0, %%laneid;", &[("=r", "d")]).unwrap();
        assert_eq!(one, two);
    }

    #[test]
    fn an_operand_holding_an_asm_statement_is_refused() {
        assert!(holds_asm(
            "({ unsigned t; asm(\"popc.b32 %0, %1;\" : \"=r\"(t) : \"r\"(b)); t; })"
        ));
        assert!(holds_asm("({ __asm__ volatile(\"\"); x; })"));
        assert!(!holds_asm("plasma + asm_count + my_asm(x)"));
    }

    /// The helpers of the portable translation of `ptx` with operands `(constraint, expr)`.
    fn helpers(ptx: &str, operands: &[(&str, &str)]) -> Vec<String> {
        let stmt = AsmStatement::synthetic_with(ptx, operands);
        let rules = RuleSet::embedded().unwrap();
        analyze(&stmt, &rules, Target::Portable)
            .outcome
            .unwrap()
            .helpers
    }

    #[test]
    fn a_translation_lists_the_helpers_its_template_and_glue_call_with_their_requirements() {
        let h = helpers(
            "prmt.b32 %0, %1, %2, %3;",
            &[("=r", "d"), ("r", "a"), ("r", "b"), ("r", "c")],
        );
        assert_eq!(
            h,
            [
                "ptx2hip_prmt_generic",
                "ptx2hip_prmt",
                "ptx2hip_operand",
                "ptx2hip_in_r",
                "ptx2hip_out_r"
            ]
        );
        // A helper's name inside the user's own expression is the user's, not a call to declare.
        let h = helpers(
            "prmt.b32 %0, %1, %2, %3;",
            &[
                ("=r", "d"),
                ("r", "ptx2hip_lop3(a)"),
                ("r", "b"),
                ("r", "c"),
            ],
        );
        assert!(!h.iter().any(|n| n == "ptx2hip_lop3"), "{h:?}");
    }

    #[test]
    fn rewritten_call_sites_list_the_helpers_they_call_instead() {
        // A literal lop3 table is its formula: no 256-case helper.
        let h = helpers(
            "lop3.b32 %0, %1, %2, %3, 0xEA;",
            &[("=r", "d"), ("r", "a"), ("r", "b"), ("r", "c")],
        );
        assert!(!h.iter().any(|n| n == "ptx2hip_lop3"), "{h:?}");
        // A plain fma.rn.f32 is the intrinsic, canonicalised.
        let h = helpers(
            "fma.rn.f32 %0, %1, %2, %3;",
            &[("=f", "d"), ("f", "a"), ("f", "b"), ("f", "c")],
        );
        assert!(h.iter().any(|n| n == "ptx2hip_canon_f32"), "{h:?}");
        assert!(!h.iter().any(|n| n == "ptx2hip_fop_f32"), "{h:?}");
    }

    #[test]
    fn an_input_the_template_does_not_read_calls_no_glue() {
        // `{d} = 0` for a table of zeros: `a`, `b`, `c` are never read.
        let h = helpers(
            "lop3.b32 %0, %1, %2, %3, 0x00;",
            &[("=r", "d"), ("r", "a"), ("r", "b"), ("r", "c")],
        );
        assert!(!h.iter().any(|n| n == "ptx2hip_in_r"), "{h:?}");
        assert!(h.iter().any(|n| n == "ptx2hip_out_r"), "{h:?}");
    }
}
