//! Statements whose template uses a macro defined differently under `#if`s ptx2hip cannot decide
//! for AMD (faiss `#if __CUDA_ARCH__ >= 350 #define LD_NC_V1 "ld.global.cs.nc.u32" #else ...`,
//! `L2_CACHEHINT` under a compiler-version test).
//!
//! The compilation that takes an arm of that `#if` sees that arm's definition, so the statement
//! is read once per arm with the macro read as the arm's definition, and a rewrite puts the same
//! `#if` lines around the readings' translations (as [`arms`](super::arms) does for `#if`s inside
//! a statement): the compiler still chooses, by the same conditions, at the statement.
//!
//! That is the choice the preprocessor made at the definitions only while the conditions mean
//! the same at the statement: a condition naming a macro that the file `#define`s or `#undef`s
//! between the `#if` and the statement (an include guard `#ifndef X_H` / `#define X_H`, a default
//! `#ifndef OP` / `#define OP`) is refused. All the definitions must be the file's own and sit in
//! different arms of one group, inside the same arms around it; a macro defined in a header keeps
//! asking for `-D`/`-U` (the conditions there are not the file's to copy).

use super::arms::{word as directive_word, Plan, Reading, Step};
use super::conditional::Conditionals;
use super::macros::Defines;
use super::nesting::{directive_end, Survey};
use super::tokens::{lex, Kind, Source};
use super::{AsmStatement, File, Place, Template};

impl File<'_> {
    /// Reads `statement` (at `at`, unresolved because its template uses the macros `names`)
    /// once per definition, into its `arms`; or says in its reason why the `#if` lines cannot
    /// choose at the statement.
    pub(super) fn by_definition(
        &self,
        statement: &mut AsmStatement,
        names: &[Vec<u8>],
        at: usize,
        read: &dyn Fn(&Reading) -> Result<Box<AsmStatement>, String>,
    ) {
        if statement.place != Place::Block || statement.in_macro.is_some() {
            return;
        }
        match plan(
            self.src,
            self.survey,
            self.conditionals,
            self.defines,
            names,
            at,
        ) {
            Some(Ok(plan)) => {
                let Ok(readings) = plan
                    .readings
                    .iter()
                    .map(read)
                    .collect::<Result<Vec<_>, _>>()
                else {
                    return;
                };
                self.with_arms(&plan, &readings, statement);
                if statement.arms.is_some() {
                    let first = &readings[0];
                    statement.template = first.template.clone();
                    statement.outputs.clone_from(&first.outputs);
                    statement.inputs.clone_from(&first.inputs);
                    statement.clobbers.clone_from(&first.clobbers);
                }
            }
            Some(Err(why)) => {
                if let Template::Unresolved { reason, .. } = &mut statement.template {
                    *reason = format!("{reason}; {why}");
                }
            }
            None => {}
        }
    }
}

/// The readings of a statement at `at` whose template uses the macros `names`, each defined
/// differently under one `#if` group: `Err` says why the group's lines cannot choose at the
/// statement; `None` when the definitions are not told apart by one group of the file.
fn plan(
    src: &[u8],
    survey: &Survey,
    conditionals: &Conditionals,
    defines: &Defines,
    names: &[Vec<u8>],
    at: usize,
) -> Option<Result<Plan, String>> {
    let mut group = None;
    let mut places: Vec<(Vec<u8>, Vec<usize>)> = Vec::new();
    for name in names {
        let bodies = defines.own_definitions(name)?;
        let separation = conditionals.separating(&bodies)?;
        if group.as_ref().is_some_and(|g| *g != separation) {
            return None;
        }
        places.push((name.clone(), bodies));
        group = Some(separation);
    }
    let group = group?;
    let opening = group.arms.first()?.0;
    // Definitions after the statement are not the ones it sees.
    if group.endif > at {
        return None;
    }
    if let Some(why) = redefined_between(src, survey, &group, opening..at) {
        return Some(Err(why));
    }
    let line = |at: usize| at..directive_end(src, at);
    // The arm in words, by the definitions it holds: not by its condition, which a rewrite for
    // `--cuda-arch` may respell (a marker must read the same on the next run).
    let arms = |arm: Option<usize>| -> String {
        let each: Vec<String> = places
            .iter()
            .map(|(name, bodies)| {
                let name = String::from_utf8_lossy(name);
                match arm.and_then(|k| defines.shown_own(name.as_bytes(), bodies[k])) {
                    Some(body) => format!("defining `{name}` as `{body}`"),
                    None => format!("leaving `{name}` undefined"),
                }
            })
            .collect();
        each.join(" and ")
    };
    let mut plan = Plan::default();
    let read = |plan: &mut Plan, arm: Option<usize>| {
        let chosen = places
            .iter()
            .map(|(name, bodies)| (name.clone(), arm.map(|k| bodies[k])))
            .collect();
        plan.layout.push(Step::Reading(plan.readings.len()));
        plan.readings.push(Reading {
            blank: Vec::new(),
            arms: arms(arm),
            chosen,
        });
    };
    let mut has_else = false;
    for &(directive, amd, place) in &group.arms {
        plan.layout.push(Step::Directive(line(directive)));
        has_else |= directive_word(src, directive) == b"else";
        if amd == Some(false) {
            continue;
        }
        read(&mut plan, place);
    }
    if !has_else {
        plan.layout.push(Step::Else);
        read(&mut plan, None);
    }
    plan.layout.push(Step::Directive(line(group.endif)));
    Some(Ok(plan))
}

/// A macro the group's conditions name that the file `#define`s or `#undef`s in `between`: the
/// conditions may mean something else at the statement than at the definitions.
fn redefined_between(
    src: &[u8],
    survey: &Survey,
    group: &super::conditional::Separation,
    between: std::ops::Range<usize>,
) -> Option<String> {
    let mut named: Vec<Vec<u8>> = Vec::new();
    for &(directive, _, _) in &group.arms {
        let tokens = lex(src, line_rest(src, directive), Source::File, &[]);
        named.extend(
            tokens
                .into_iter()
                .filter(|t| t.kind == Kind::Ident && t.text != b"defined")
                .map(|t| t.text),
        );
    }
    survey
        .directives
        .iter()
        .filter(|d| between.contains(&d.span.start))
        .filter(|d| matches!(d.word(src), b"define" | b"undef"))
        .find_map(|d| {
            let rest = &src[d.rest.clone()];
            let rest = rest.trim_ascii_start();
            let len = rest
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
                .count();
            let name = &rest[..len];
            named.iter().any(|n| n == name).then(|| {
                format!(
                    "the `#if` that chooses between them tests `{}`, which `{}` changes before the statement, so the same test there may choose otherwise",
                    String::from_utf8_lossy(name),
                    String::from_utf8_lossy(&src[d.span.clone()]).trim()
                )
            })
        })
}

/// The directive line at `at` after its word (`#if` → the condition).
fn line_rest(src: &[u8], at: usize) -> std::ops::Range<usize> {
    let end = directive_end(src, at);
    let word = directive_word(src, at);
    let start = src[at..end]
        .windows(word.len().max(1))
        .position(|w| w == word)
        .map_or(end, |p| at + p + word.len());
    start..end
}

#[cfg(test)]
mod tests {
    use crate::scan::{scan, ArmPiece, AsmStatement, Template};

    fn only(src: &str) -> AsmStatement {
        let mut r = scan(src.as_bytes());
        assert_eq!(r.statements.len(), 1, "{r:#?}");
        r.statements.remove(0)
    }

    /// The directives and each reading's template, in the order a rewrite puts them.
    fn layout(s: &AsmStatement) -> Vec<String> {
        s.arms
            .as_ref()
            .expect("read per definition")
            .layout
            .iter()
            .map(|piece| match piece {
                ArmPiece::Directive(d) => d.clone(),
                ArmPiece::Reading { arms, statement } => match &statement.template {
                    Template::Known { text, .. } => format!("[{text}] {arms}"),
                    Template::Unresolved { reason, .. } => format!("unresolved: {reason}"),
                },
            })
            .collect()
    }

    const USE: &str = "__device__ void f(unsigned& v, const unsigned* p) {\n  asm(LD \" %0, [%1];\" : \"=r\"(v) : \"l\"(p));\n}\n";

    #[test]
    fn each_definition_is_read_between_copies_of_the_if_lines_that_choose_it() {
        let src = format!("#if NEW_COMPILER\n#define LD \"ld.global.cs.u32\"\n#else\n#define LD \"ld.global.cv.u32\"\n#endif\n{USE}");
        assert_eq!(
            layout(&only(&src)),
            [
                "#if NEW_COMPILER",
                "[ld.global.cs.u32 %0, [%1];] defining `LD` as `\"ld.global.cs.u32\"`",
                "#else",
                "[ld.global.cv.u32 %0, [%1];] defining `LD` as `\"ld.global.cv.u32\"`",
                "#endif"
            ]
        );
    }

    #[test]
    fn a_group_without_else_reads_the_macro_undefined_in_the_else_it_adds() {
        let src = format!("#if A\n#define LD \"ld.global.cs.u32\"\n#elif B\n#define LD \"ld.global.cv.u32\"\n#endif\n{USE}");
        let s = only(&src);
        match &s.template {
            Template::Unresolved { reason, .. } => assert!(
                reason.contains("is a macro not defined")
                    && reason.ends_with("(in the arm leaving `LD` undefined)"),
                "{reason}"
            ),
            Template::Known { .. } => panic!("read without a definition"),
        }
    }

    #[test]
    fn a_condition_the_file_changes_before_the_statement_is_not_copied() {
        let src = format!("#ifndef LD\n#define LD \"ld.global.cs.u32\"\n#else\n#define LD \"ld.global.cv.u32\"\n#endif\n{USE}");
        match &only(&src).template {
            Template::Unresolved { reason, .. } => assert!(
                reason.contains("tests `LD`, which `#define LD \"ld.global.cs.u32\"` changes before the statement"),
                "{reason}"
            ),
            Template::Known { .. } => panic!("copied a condition the file changes"),
        }
    }

    #[test]
    fn definitions_after_the_statement_are_not_copied() {
        let src = format!("{USE}#if NEW_COMPILER\n#define LD \"ld.global.cs.u32\"\n#else\n#define LD \"ld.global.cv.u32\"\n#endif\n");
        assert!(matches!(only(&src).template, Template::Unresolved { .. }));
    }

    #[test]
    fn definitions_not_told_apart_by_one_group_still_ask_for_the_macros() {
        let src = format!("#if A\n#define LD \"ld.global.cs.u32\"\n#endif\n#if B\n#define LD \"ld.global.cv.u32\"\n#endif\n{USE}");
        match &only(&src).template {
            Template::Unresolved { reason, .. } => {
                assert!(
                    reason.ends_with("(declare the macros with -D/-U)"),
                    "{reason}"
                )
            }
            Template::Known { .. } => panic!("read"),
        }
    }
}
