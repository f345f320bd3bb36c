//! The readings of one asm statement with `#if` blocks inside it.
//!
//! AMD compiles one arm of each group that its macros decide (the others are left out, as the
//! preprocessor leaves them out). A group it cannot decide (`#if CUTLASS_ENABLE_L2_PREFETCH`) is
//! kept as it is: the statement is read once per arm, and a rewrite puts the same directive lines
//! around the arms' translations, so that the compiler still chooses. Groups are chosen in file
//! order, so a group inside an arm, or after another undecided group, is chosen within each arm
//! of the group before it: its directives are repeated there. A group without `#else` gets one,
//! for the reading in which none of its arms is compiled.

use std::ops::Range;

use super::conditional::Inner;
use super::nesting::directive_end;

/// More readings than this are not translated (the statement stays as written).
pub const MAX_READINGS: usize = 16;

/// How a statement reads under its `#if` blocks.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Plan {
    /// Directive lines and readings in the order a rewrite puts them.
    pub layout: Vec<Step>,
    pub readings: Vec<Reading>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// A directive line of the statement, from its `#` (continuations included).
    Directive(Range<usize>),
    /// An `#else` for a group that has none.
    Else,
    /// A reading (an index into [`Plan::readings`]).
    Reading(usize),
}

/// One way to read the statement.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reading {
    /// The code the preprocessor leaves out (arms not taken; the directive lines are not included).
    pub blank: Vec<Range<usize>>,
    /// The arms of undecided groups that this reading takes, in words: "`#else` of `#if X`".
    pub arms: String,
    /// Macros this reading reads as one of their definitions (see `scan::definitions`).
    pub chosen: Vec<(Vec<u8>, Option<usize>)>,
}

/// Why no plan was made: too many readings.
#[derive(Debug, PartialEq, Eq)]
pub struct TooMany {
    /// The first undecided group's directive.
    pub first: usize,
    /// A plan with the first reading only.
    pub plan: Plan,
}

/// The readings of a statement whose arms (opening inside it) are `arms`.
pub fn plan(src: &[u8], arms: &[Inner]) -> Result<Plan, TooMany> {
    let undecided: Vec<usize> = (0..arms.len())
        .filter(|&a| arms[a].group == a)
        .filter(|&g| members(arms, g).any(|a| arms[a].amd.is_none()))
        .collect();
    let mut planner = Planner {
        src,
        arms,
        undecided,
        choices: Vec::new(),
        plan: Plan::default(),
    };
    if planner.choose() {
        Ok(planner.plan)
    } else {
        let mut plan = planner.plan;
        plan.readings.truncate(1);
        plan.layout = vec![Step::Reading(0)];
        Err(TooMany {
            first: arms[planner.undecided[0]].directive,
            plan,
        })
    }
}

/// The arms of the group whose first arm is `group`.
fn members(arms: &[Inner], group: usize) -> impl Iterator<Item = usize> + '_ {
    (group..arms.len()).filter(move |&a| arms[a].group == group)
}

struct Planner<'a> {
    src: &'a [u8],
    arms: &'a [Inner],
    /// Groups (their first arm) with an arm AMD may or may not take.
    undecided: Vec<usize>,
    /// The arm chosen in each undecided group so far (`None`: none of its arms).
    choices: Vec<(usize, Option<usize>)>,
    plan: Plan,
}

impl Planner<'_> {
    /// Chooses the next undecided group that is reached, arm by arm; without one, adds the
    /// reading of the choices made. False when there would be too many readings.
    fn choose(&mut self) -> bool {
        let next = self
            .undecided
            .iter()
            .copied()
            .find(|&g| self.reached(g) && !self.choices.iter().any(|(c, _)| *c == g));
        let Some(group) = next else {
            self.read();
            return self.plan.readings.len() <= MAX_READINGS;
        };
        let mut has_else = false;
        let mut last = group;
        for arm in members(self.arms, group).collect::<Vec<_>>() {
            let at = self.arms[arm].directive;
            self.plan
                .layout
                .push(Step::Directive(at..directive_end(self.src, at)));
            has_else |= word(self.src, at) == b"else";
            last = arm;
            // An arm AMD never takes keeps its directive and no code.
            if self.arms[arm].amd != Some(false) && !self.with(group, Some(arm)) {
                return false;
            }
        }
        if !has_else {
            self.plan.layout.push(Step::Else);
            if !self.with(group, None) {
                return false;
            }
        }
        let endif = self.arms[last].range.end;
        if endif < self.src.len() {
            self.plan
                .layout
                .push(Step::Directive(endif..directive_end(self.src, endif)));
        }
        true
    }

    fn with(&mut self, group: usize, arm: Option<usize>) -> bool {
        self.choices.push((group, arm));
        let ok = self.choose();
        self.choices.pop();
        ok
    }

    /// The arm of `group` that the choices (or AMD's macros) take.
    fn taken(&self, group: usize) -> Option<usize> {
        match self.choices.iter().find(|(g, _)| *g == group) {
            Some(&(_, arm)) => arm,
            None => members(self.arms, group).find(|&a| self.arms[a].amd == Some(true)),
        }
    }

    /// Whether the code of `group` is compiled: every arm around it is taken.
    fn reached(&self, group: usize) -> bool {
        match self.arms[group].parent {
            None => true,
            Some(p) => {
                self.taken(self.arms[p].group) == Some(p) && self.reached(self.arms[p].group)
            }
        }
    }

    fn read(&mut self) {
        let blank = (0..self.arms.len())
            .filter(|&a| {
                let g = self.arms[a].group;
                !(self.reached(g) && self.taken(g) == Some(a))
            })
            .map(|a| self.arms[a].range.clone())
            .collect();
        let arms = self
            .choices
            .iter()
            .map(|&(group, arm)| self.describe(group, arm))
            .collect::<Vec<_>>()
            .join(", ");
        self.plan
            .layout
            .push(Step::Reading(self.plan.readings.len()));
        self.plan.readings.push(Reading {
            blank,
            arms,
            chosen: Vec::new(),
        });
    }

    fn describe(&self, group: usize, arm: Option<usize>) -> String {
        let text = |a: usize| {
            let at = self.arms[a].directive;
            let line = String::from_utf8_lossy(&self.src[at..directive_end(self.src, at)]);
            format!("`{}`", line.trim())
        };
        match arm {
            Some(a) if a == group => text(a),
            Some(a) => format!("{} of {}", text(a), text(group)),
            None => format!("no arm of {}", text(group)),
        }
    }
}

/// The directive's name (`if`, `else`, ...) at the `#` at `at`.
pub(super) fn word(src: &[u8], at: usize) -> &[u8] {
    let rest = src[at + 1..].trim_ascii_start();
    let rest = &rest[..rest.len().min(16)];
    let len = rest.iter().take_while(|b| b.is_ascii_alphabetic()).count();
    &rest[..len]
}

#[cfg(test)]
mod tests {
    use super::super::conditional::{Conditionals, Environments};
    use super::super::nesting::survey;
    use super::super::platform::Macros;
    use super::*;

    /// The plan of the `#if` arms inside `src`, as the scanner reads them for NVIDIA and AMD.
    fn plan_of(src: &str) -> Result<Plan, TooMany> {
        let s = survey(src.as_bytes());
        let user = Macros::default();
        let envs = Environments::new(&user);
        let c = Conditionals::new(src.as_bytes(), &s.directives, &envs);
        let inner = c.inside(&(0..src.len()));
        plan(src.as_bytes(), &inner)
    }

    /// The layout as text (`[n]` for reading n) and each reading's kept code.
    fn planned(src: &str) -> (Vec<String>, Vec<(String, String)>) {
        let plan = plan_of(src).unwrap();
        let directives = survey(src.as_bytes()).directives;
        let layout = plan
            .layout
            .iter()
            .map(|step| match step {
                Step::Directive(r) => src[r.clone()].to_string(),
                Step::Else => "(#else)".to_string(),
                Step::Reading(n) => format!("[{n}]"),
            })
            .collect();
        let readings = plan
            .readings
            .iter()
            .map(|r| {
                let mut kept = String::new();
                let mut blank: Vec<_> = r.blank.clone();
                blank.extend(directives.iter().map(|d| d.span.clone()));
                for (i, ch) in src.char_indices() {
                    if !blank.iter().any(|b| b.contains(&i)) && !ch.is_whitespace() {
                        kept.push(ch);
                    }
                }
                (kept, r.arms.clone())
            })
            .collect();
        (layout, readings)
    }

    #[test]
    fn an_undecided_group_is_read_once_per_arm_between_its_own_directives() {
        let (layout, readings) = planned("a\n#if X\nb\n#elif Y\nc\n#else\nd\n#endif\ne\n");
        assert_eq!(
            layout,
            ["#if X", "[0]", "#elif Y", "[1]", "#else", "[2]", "#endif"]
        );
        assert_eq!(
            readings,
            [
                ("abe".into(), "`#if X`".into()),
                ("ace".into(), "`#elif Y` of `#if X`".into()),
                ("ade".into(), "`#else` of `#if X`".into()),
            ]
        );
    }

    #[test]
    fn a_group_without_else_gets_one_for_the_reading_that_takes_no_arm() {
        let (layout, readings) = planned("a\n#ifdef X\nb\n#endif\n");
        assert_eq!(layout, ["#ifdef X", "[0]", "(#else)", "[1]", "#endif"]);
        assert_eq!(readings[1], ("a".into(), "no arm of `#ifdef X`".into()));
    }

    #[test]
    fn decided_groups_keep_the_arm_amd_compiles_and_add_no_directive() {
        let src = "a\n#ifdef __HIP_PLATFORM_AMD__\nb\n#else\nc\n#endif\n#if 0\nd\n#endif\n";
        let (layout, readings) = planned(src);
        assert_eq!(layout, ["[0]"]);
        assert_eq!(readings, [("ab".into(), String::new())]);
    }

    #[test]
    fn nested_and_successive_groups_are_chosen_within_each_arm() {
        let src = "#if X\nb\n#if Y\nc\n#endif\n#else\nd\n#endif\n#if Z\ne\n#endif\n";
        let (layout, readings) = planned(src);
        let kept: Vec<&str> = readings.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            layout.join(" "),
            "#if X #if Y #if Z [0] (#else) [1] #endif (#else) #if Z [2] (#else) [3] #endif #endif \
             #else #if Z [4] (#else) [5] #endif #endif"
        );
        assert_eq!(kept, ["bce", "bc", "be", "b", "de", "d"]);
    }

    #[test]
    fn an_arm_amd_never_takes_keeps_its_directive_without_a_reading() {
        let src = "#if X\nb\n#elif defined(__HIP_PLATFORM_NVIDIA__)\nc\n#endif\n";
        let (layout, _) = planned(src);
        assert_eq!(
            layout,
            [
                "#if X",
                "[0]",
                "#elif defined(__HIP_PLATFORM_NVIDIA__)",
                "(#else)",
                "[1]",
                "#endif"
            ]
        );
    }

    #[test]
    fn too_many_readings_are_refused() {
        let src = "#if A\n#endif\n".repeat(5).replace('A', "X");
        let refused = plan_of(&src).unwrap_err();
        assert_eq!((refused.first, refused.plan.readings.len()), (0, 1));
    }
}
