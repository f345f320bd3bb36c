//! The `#if`/`#elif`/`#else` arms of a file, and which compilations see each.
//!
//! Read from the preprocessor lines of the [`nesting`](super::nesting) survey, not from a syntax
//! tree, so that error recovery elsewhere cannot move a statement into or out of an arm. Each arm
//! carries its value in the NVIDIA device compilation and in the AMD compilation, combined with
//! the arms around it and with the conditions of the arms before it in its group.

use std::ops::Range;

use super::nesting::Directive;
use super::platform::{Environment, Macros};

/// Which compilations compile a piece of code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// Possibly both: inline PTX here is PTX that breaks the AMD build.
    Both,
    /// Only the NVIDIA compilation (`#ifndef __HIP_PLATFORM_AMD__`, ptx2hip's kept originals).
    NvidiaOnly,
    /// Never NVIDIA device code: AMD-only (`#ifdef USE_ROCM`) or host-only (`#ifndef __CUDA_ARCH__`).
    NotNvidia,
    /// Neither (`#if 0`).
    Neither,
}

/// The two compilations that matter.
pub struct Environments {
    pub nvidia: Environment,
    pub amd: Environment,
    /// The AMD device compilation in the chains decided by `--cuda-arch`
    /// ([`super::cuda_arch::ArchChains`]).
    pub amd_device: Environment,
    /// The AMD device compilation of the file as written (`__CUDA_ARCH__` undefined).
    pub amd_device_as_written: Environment,
}

impl Environments {
    pub fn new(user: &Macros) -> Self {
        Environments {
            nvidia: Environment::nvidia_device(user),
            amd: Environment::amd(user),
            amd_device: Environment::amd_device(user),
            amd_device_as_written: Environment::amd_device_as_written(user),
        }
    }
}

#[derive(Debug, Clone)]
struct Arm {
    /// From the end of the arm's directive line to the start of the next directive of its group.
    range: Range<usize>,
    /// Offset of the `#` of the directive that opens the arm.
    directive: usize,
    parent: Option<usize>,
    /// Whether the arm is compiled, combined with its enclosing arms: in the NVIDIA device
    /// compilation and in the AMD one (`None`: not decided).
    nvidia: Option<bool>,
    amd: Option<bool>,
    /// Whether the AMD compilation takes this arm of its group, if it reaches the group.
    own_amd: Option<bool>,
    /// Its group is decided by the architecture chosen for AMD device code (`--cuda-arch`).
    by_arch: bool,
    /// Index of its group's first arm (`#if`, `#ifdef`, `#ifndef`).
    group: usize,
}

/// The arms of one file.
#[derive(Debug, Default)]
pub struct Conditionals {
    /// In order of start.
    arms: Vec<Arm>,
}

/// A conditional group being read: its open arm and whether an earlier arm was taken.
struct Group {
    arm: usize,
    taken_nvidia: Option<bool>,
    taken_amd: Option<bool>,
}

impl Conditionals {
    pub fn new(src: &[u8], directives: &[Directive], envs: &Environments) -> Self {
        Self::deciding(src, directives, envs, &[])
    }

    /// Like [`Conditionals::new`], with the AMD compilation reading the directives marked in
    /// `by_arch` (indexed like `directives`) as its device compilation for the chosen
    /// architecture.
    pub fn deciding(
        src: &[u8],
        directives: &[Directive],
        envs: &Environments,
        by_arch: &[bool],
    ) -> Self {
        let mut arms: Vec<Arm> = Vec::new();
        let mut open: Vec<Group> = Vec::new();
        for (i, d) in directives.iter().enumerate() {
            let word = d.word(src);
            let rest = &src[d.rest.clone()];
            let amd_env = if by_arch.get(i) == Some(&true) {
                &envs.amd_device
            } else {
                &envs.amd
            };
            let body = (d.span.end + 1).min(src.len());
            match word {
                b"if" | b"ifdef" | b"ifndef" => {
                    let parent = open.last().map(|g| g.arm);
                    let (nvidia, amd) = (
                        envs.nvidia.condition(word, rest),
                        amd_env.condition(word, rest),
                    );
                    open.push(Group {
                        arm: arms.len(),
                        taken_nvidia: nvidia,
                        taken_amd: amd,
                    });
                    let mut arm = Arm::new(d.span.start..body, parent, &arms, nvidia, amd, None);
                    arm.by_arch = by_arch.get(i) == Some(&true);
                    arms.push(arm);
                }
                b"elif" | b"elifdef" | b"elifndef" | b"else" => {
                    let Some(group) = open.last_mut() else {
                        continue;
                    };
                    arms[group.arm].range.end = d.span.start;
                    let parent = arms[group.arm].parent;
                    let (own_nvidia, own_amd) = if word == b"else" {
                        (Some(true), Some(true))
                    } else {
                        (
                            envs.nvidia.condition(word, rest),
                            amd_env.condition(word, rest),
                        )
                    };
                    let nvidia = and(not(group.taken_nvidia), own_nvidia);
                    let amd = and(not(group.taken_amd), own_amd);
                    group.taken_nvidia = or(group.taken_nvidia, own_nvidia);
                    group.taken_amd = or(group.taken_amd, own_amd);
                    let first = arms[group.arm].group;
                    group.arm = arms.len();
                    let mut arm =
                        Arm::new(d.span.start..body, parent, &arms, nvidia, amd, Some(first));
                    arm.by_arch = arms[first].by_arch;
                    arms.push(arm);
                }
                b"endif" => {
                    if let Some(group) = open.pop() {
                        arms[group.arm].range.end = d.span.start;
                    }
                }
                _ => {}
            }
        }
        Conditionals { arms }
    }

    /// Which compilations see the byte at `offset`.
    pub fn reach(&self, offset: usize) -> Reach {
        let Some(arm) = self.innermost(offset) else {
            return Reach::Both;
        };
        let arm = &self.arms[arm];
        match (arm.nvidia, arm.amd) {
            (Some(false), Some(false)) => Reach::Neither,
            (_, Some(false)) => Reach::NvidiaOnly,
            (Some(false), _) => Reach::NotNvidia,
            _ => Reach::Both,
        }
    }

    /// When the AMD compilation leaves out the code at `offset` only because of the architecture
    /// chosen for it (`--cuda-arch`): the arm it takes instead in that chain (`None` inside the
    /// option: it takes no arm of the chain). The innermost arm AMD does not take
    /// decides: inside `#ifndef __HIP_PLATFORM_AMD__` (ptx2hip's kept originals) the code is
    /// NVIDIA-only whatever the architecture.
    pub fn arch_arm(&self, offset: usize) -> Option<Option<ArmAt>> {
        let mut at = self.innermost(offset)?;
        loop {
            let arm = &self.arms[at];
            if arm.own_amd == Some(false) {
                if !arm.by_arch {
                    return None;
                }
                let taken = self.arms[arm.group..]
                    .iter()
                    .take_while(|a| a.group == arm.group || a.parent > arm.parent)
                    .find(|a| a.group == arm.group && a.own_amd == Some(true))
                    .map(|a| self.arm_at(a));
                return Some(taken);
            }
            at = arm.parent?;
        }
    }

    /// The innermost arm around `offset` that the AMD compilation takes because of the
    /// architecture chosen for it (`--cuda-arch`).
    pub fn taken_arch_arm(&self, offset: usize) -> Option<ArmAt> {
        let mut at = self.innermost(offset)?;
        loop {
            let arm = &self.arms[at];
            if arm.by_arch && arm.own_amd == Some(true) {
                return Some(self.arm_at(arm));
            }
            at = arm.parent?;
        }
    }

    fn arm_at(&self, arm: &Arm) -> ArmAt {
        ArmAt {
            directive: arm.directive,
            chain: self.arms[arm.group].directive,
        }
    }

    /// The innermost arm holding `offset`.
    fn innermost(&self, offset: usize) -> Option<usize> {
        let mut at = self
            .arms
            .partition_point(|a| a.range.start <= offset)
            .checked_sub(1)?;
        loop {
            if self.arms[at].range.contains(&offset) {
                return Some(at);
            }
            at = self.arms[at].parent?;
        }
    }

    /// The arms that open inside `range` (an asm statement), in order, as the statement's own
    /// `#if`s see them: a statement is only ever given whole `#if` blocks (see `misplaced_directive`).
    pub fn inside(&self, range: &Range<usize>) -> Vec<Inner> {
        let first = self.arms.partition_point(|a| a.directive < range.start);
        let local = |global: usize| global.checked_sub(first);
        self.arms[first..]
            .iter()
            .take_while(|a| a.directive < range.end)
            .map(|a| Inner {
                directive: a.directive,
                range: a.range.clone(),
                parent: a.parent.and_then(local),
                group: local(a.group).unwrap_or(0),
                amd: a.own_amd,
            })
            .collect()
    }
}

/// The one `#if` group whose arms tell several places apart (see [`Conditionals::separating`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Separation {
    /// Each arm of the group in order: the `#` of its directive, whether the AMD compilation
    /// takes it when it reaches the group (`None`: not decided), and which place lies in it.
    pub arms: Vec<(usize, Option<bool>, Option<usize>)>,
    /// The `#` of the group's `#endif`.
    pub endif: usize,
}

impl Conditionals {
    /// The group that puts each of `offsets` (two or more) in an arm of its own, inside the same
    /// arms around it: the `#if X #define A 1 #else #define A 2 #endif` of definitions that a
    /// statement may copy to choose between them. `None` when no one group does.
    pub fn separating(&self, offsets: &[usize]) -> Option<Separation> {
        let chains: Vec<Vec<usize>> = offsets.iter().map(|&o| self.chain(o)).collect();
        let first = chains.first()?;
        let depth = (0..first.len()).find(|&d| chains.iter().any(|c| c.get(d) != first.get(d)))?;
        let group = self.arms[*first.get(depth)?].group;
        let mut taken: Vec<usize> = Vec::new();
        for chain in &chains {
            let arm = *chain.get(depth)?;
            if self.arms[arm].group != group || taken.contains(&arm) {
                return None;
            }
            taken.push(arm);
        }
        let members: Vec<usize> = (group..self.arms.len())
            .filter(|&a| self.arms[a].group == group)
            .collect();
        let endif = self.arms[*members.last()?].range.end;
        Some(Separation {
            arms: members
                .iter()
                .map(|&a| {
                    let place = taken.iter().position(|&t| t == a);
                    (self.arms[a].directive, self.arms[a].own_amd, place)
                })
                .collect(),
            endif,
        })
    }

    /// The arms around `offset`, outermost first.
    fn chain(&self, offset: usize) -> Vec<usize> {
        let mut chain = Vec::new();
        let mut at = self.innermost(offset);
        while let Some(arm) = at {
            chain.push(arm);
            at = self.arms[arm].parent;
        }
        chain.reverse();
        chain
    }
}

/// Where an arm is: the `#` of its directive and of its chain's `#if`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArmAt {
    pub directive: usize,
    pub chain: usize,
}

/// An arm that opens inside an asm statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inner {
    /// Offset of the `#` of the directive that opens the arm.
    pub directive: usize,
    /// The arm's code: from the end of its directive line to the next directive of its group.
    pub range: Range<usize>,
    /// The arm it sits in (an index into the same list), when that one opens inside the statement.
    pub parent: Option<usize>,
    /// Its group's first arm (an index into the same list).
    pub group: usize,
    /// Whether the AMD compilation takes it when it reaches its group (`None`: not decided).
    pub amd: Option<bool>,
}

impl Arm {
    /// `lines`: from the directive's `#` to the start of the arm's code; `group`: the first arm
    /// of its group (`None` for a group's first arm).
    fn new(
        lines: Range<usize>,
        parent: Option<usize>,
        arms: &[Arm],
        nvidia: Option<bool>,
        amd: Option<bool>,
        group: Option<usize>,
    ) -> Arm {
        let outer = parent.map(|p| &arms[p]);
        Arm {
            group: group.unwrap_or(arms.len()),
            range: lines.end..usize::MAX,
            directive: lines.start,
            parent,
            nvidia: and(outer.map_or(Some(true), |o| o.nvidia), nvidia),
            amd: and(outer.map_or(Some(true), |o| o.amd), amd),
            own_amd: amd,
            by_arch: false,
        }
    }
}

fn not(v: Option<bool>) -> Option<bool> {
    v.map(|v| !v)
}

fn and(a: Option<bool>, b: Option<bool>) -> Option<bool> {
    match (a, b) {
        (Some(false), _) | (_, Some(false)) => Some(false),
        (Some(true), Some(true)) => Some(true),
        _ => None,
    }
}

fn or(a: Option<bool>, b: Option<bool>) -> Option<bool> {
    match (a, b) {
        (Some(true), _) | (_, Some(true)) => Some(true),
        (Some(false), Some(false)) => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::nesting::survey;
    use super::*;

    fn reach_of(src: &str, user: &Macros) -> Vec<(String, Reach)> {
        let s = survey(src.as_bytes());
        let envs = Environments::new(user);
        let c = Conditionals::new(src.as_bytes(), &s.directives, &envs);
        src.match_indices("stmt")
            .map(|(at, _)| {
                let name = src[at..].split(';').next().unwrap().to_string();
                (name, c.reach(at))
            })
            .collect()
    }

    #[test]
    fn arms_are_reached_by_the_compilations_their_conditions_allow() {
        let src = "\
stmt0;
#if !defined(__HIP_PLATFORM_AMD__)
stmt1;
#elif defined(__CUDA_ARCH__)
stmt2;
#else
stmt3;
#endif
#ifdef USE_ROCM
stmt4;
#else
stmt5;
#endif
#ifndef __CUDA_ARCH__
stmt6;
#endif
#if 0
stmt7;
#elif FOO
stmt8;
#  if defined(__HIPCC__)
stmt9;
#  endif
#endif
";
        let got = reach_of(src, &Macros::default());
        let reach: Vec<Reach> = got.iter().map(|(_, r)| *r).collect();
        use Reach::*;
        assert_eq!(
            reach,
            vec![
                Both, NvidiaOnly, NotNvidia, NotNvidia, NotNvidia, NvidiaOnly, NotNvidia, Neither,
                Both, NotNvidia
            ]
        );
    }

    #[test]
    fn user_macros_decide_project_conditions() {
        let src = "#if defined(GGML_USE_HIP)\nstmt0;\n#else\nstmt1;\n#endif\n#ifdef NEW_MMA_AVAILABLE\nstmt2;\n#endif\n";
        let user = Macros {
            amd_defines: vec![("GGML_USE_HIP".into(), None)],
            nvidia_defines: vec![("NEW_MMA_AVAILABLE".into(), None)],
            ..Macros::default()
        };
        let reach: Vec<Reach> = reach_of(src, &user).into_iter().map(|(_, r)| r).collect();
        assert_eq!(
            reach,
            vec![Reach::NotNvidia, Reach::NvidiaOnly, Reach::NvidiaOnly]
        );
    }

    #[test]
    fn chains_decided_by_the_architecture_name_the_arm_amd_takes() {
        let src = "\
#if __CUDA_ARCH__ >= 900
stmt0;
#elif __CUDA_ARCH__ >= 800
stmt1;
#  if defined(__HIP_PLATFORM_AMD__)
stmt2;
#  else
stmt3;
#  endif
#else
stmt4;
#endif
#if __CUDA_ARCH__ < 700
stmt5;
#endif
#if __CUDA_ARCH__ < 700
stmt6;
#endif
";
        let user = Macros {
            cuda_arch: Some(super::super::cuda_arch::CudaArch::parse("80").unwrap()),
            ..Macros::default()
        };
        let s = survey(src.as_bytes());
        // The last chain is not decided by the architecture: `__CUDA_ARCH__` stays unknown there.
        let last = s.directives.len() - 2;
        let by_arch: Vec<bool> = s
            .directives
            .iter()
            .enumerate()
            .map(|(i, d)| i < last && src[d.span.clone()].contains("__CUDA_ARCH__"))
            .collect();
        let c = Conditionals::deciding(
            src.as_bytes(),
            &s.directives,
            &Environments::new(&user),
            &by_arch,
        );
        let at = |stmt: &str| src.find(stmt).unwrap();
        let arm = |text: &str, chain: &str| ArmAt {
            directive: src.find(text).unwrap(),
            chain: src.find(chain).unwrap(),
        };
        let line = |text: &str| Some(Some(arm(text, "#if __CUDA_ARCH__ >= 900")));
        assert_eq!(c.arch_arm(at("stmt0")), line("#elif __CUDA_ARCH__ >= 800"));
        assert_eq!(c.arch_arm(at("stmt1")), None, "taken");
        let elif = arm("#elif __CUDA_ARCH__ >= 800", "#if __CUDA_ARCH__ >= 900");
        assert_eq!(c.taken_arch_arm(at("stmt1")), Some(elif));
        assert_eq!(c.taken_arch_arm(at("stmt2")), Some(elif));
        assert_eq!(c.taken_arch_arm(at("stmt6")), None);
        assert_eq!(c.arch_arm(at("stmt2")), None, "taken");
        assert_eq!(
            c.arch_arm(at("stmt3")),
            None,
            "NVIDIA-only whatever the architecture"
        );
        assert_eq!(c.reach(at("stmt3")), Reach::NvidiaOnly);
        assert_eq!(c.arch_arm(at("stmt4")), line("#elif __CUDA_ARCH__ >= 800"));
        assert_eq!(c.arch_arm(at("stmt5")), Some(None), "no arm of the chain");
        assert_eq!(c.reach(at("stmt6")), Reach::Both);
        assert_eq!(c.arch_arm(at("stmt6")), None);
    }

    #[test]
    fn unbalanced_directives_do_not_panic() {
        let src = "#endif\n#else\nstmt0;\n#if 0\nstmt1;\n";
        let reach: Vec<Reach> = reach_of(src, &Macros::default())
            .into_iter()
            .map(|(_, r)| r)
            .collect();
        assert_eq!(reach, vec![Reach::Both, Reach::Neither]);
    }

    #[test]
    fn the_group_separating_places_is_the_first_where_their_arms_differ() {
        let src = "#ifndef H\n#if X\na\n#elif Y\nb\n#else\nc\n#endif\nd\n#endif\n";
        let s = survey(src.as_bytes());
        let envs = Environments::new(&Macros::default());
        let c = Conditionals::new(src.as_bytes(), &s.directives, &envs);
        let at = |t: &str| src.find(t).unwrap();
        let sep = c.separating(&[at("a"), at("c")]).unwrap();
        let arms: Vec<(&str, Option<usize>)> = sep
            .arms
            .iter()
            .map(|&(d, _, place)| (&src[d..src[d..].find('\n').unwrap() + d], place))
            .collect();
        assert_eq!(
            arms,
            [("#if X", Some(0)), ("#elif Y", None), ("#else", Some(1))]
        );
        assert_eq!(&src[sep.endif..sep.endif + 6], "#endif");
        assert_eq!(c.separating(&[at("a"), at("d")]), None);
    }
}
