//! The three recording sets and their forms: numerics (every type combination at N = 8 and 16,
//! many cases, every immediate), layouts (every swizzle mode and descriptor field for f16, tf32,
//! e4m3 and u8 at N = 8, 64, 256, with address probes) and the sweep (every form of the census,
//! two cases each).

use super::cases::{layout_combos, layout_kinds};
use super::forms::{ns, type_combos, Source, WgmmaForm};

/// A recording set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Set {
    Numerics,
    Layouts,
    Sweep,
}

impl Set {
    pub const ALL: [Set; 3] = [Set::Numerics, Set::Layouts, Set::Sweep];

    pub fn name(self) -> &'static str {
        match self {
            Set::Numerics => "numerics",
            Set::Layouts => "layouts",
            Set::Sweep => "sweep",
        }
    }

    pub fn of_name(s: &str) -> Option<Set> {
        Set::ALL.into_iter().find(|x| x.name() == s)
    }

    /// The forms of the set.
    pub fn forms(self) -> Vec<WgmmaForm> {
        match self {
            Set::Numerics => numerics_forms(),
            Set::Layouts => layout_forms(),
            Set::Sweep => type_combos()
                .into_iter()
                .flat_map(|combo| {
                    ns(combo.1).into_iter().flat_map(move |n| {
                        [Source::Desc, Source::Regs].map(|s| WgmmaForm::plain(n, combo, s))
                    })
                })
                .collect(),
        }
    }

    /// How many cases a form of the set has.
    pub fn cases(self, form: &WgmmaForm) -> usize {
        match self {
            Set::Numerics => {
                let plain = !(form.negate_a || form.negate_b || form.trans_a || form.trans_b);
                match (plain, form.n) {
                    (true, 8) => 32,
                    (true, _) => 8,
                    _ => 6,
                }
            }
            Set::Layouts => layout_kinds(form).len(),
            Set::Sweep => 2,
        }
    }

    /// Whether the committed recording keeps every output word of the form's cases (else a
    /// digest per case).
    pub fn keeps_outputs(self, form: &WgmmaForm) -> bool {
        self != Set::Sweep && form.n <= 16
    }
}

fn numerics_forms() -> Vec<WgmmaForm> {
    let mut v = Vec::new();
    for combo in type_combos() {
        for source in [Source::Desc, Source::Regs] {
            let plain = WgmmaForm::plain(8, combo, source);
            v.push(plain);
            v.push(WgmmaForm { n: 16, ..plain });
            if !plain.is_integer() {
                for (negate_a, negate_b) in [(true, false), (false, true), (true, true)] {
                    v.push(WgmmaForm {
                        negate_a,
                        negate_b,
                        ..plain
                    });
                }
            }
            if plain.has_trans() {
                for (trans_a, trans_b) in [(true, false), (false, true), (true, true)] {
                    let f = WgmmaForm {
                        trans_a,
                        trans_b,
                        ..plain
                    };
                    if f.is_valid() {
                        v.push(f);
                    }
                }
            }
        }
    }
    v
}

fn layout_forms() -> Vec<WgmmaForm> {
    let mut v = Vec::new();
    for combo in layout_combos() {
        let plain = WgmmaForm::plain(8, combo, Source::Desc);
        let trans: &[(bool, bool)] = if plain.has_trans() {
            &[(false, false), (true, false), (false, true), (true, true)]
        } else {
            &[(false, false)]
        };
        for n in [8, 64, 256] {
            for &(trans_a, trans_b) in trans {
                v.push(WgmmaForm {
                    n,
                    trans_a,
                    trans_b,
                    ..plain
                });
            }
        }
        for &(_, trans_b) in trans.iter().filter(|t| !t.0) {
            v.push(WgmmaForm {
                n: 64,
                trans_b,
                a_source: Source::Regs,
                ..plain
            });
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_of_every_set_is_in_the_isa() {
        for set in Set::ALL {
            let forms = set.forms();
            assert!(forms.iter().all(WgmmaForm::is_valid), "{set:?}");
            let mut names: Vec<String> = forms.iter().map(WgmmaForm::name).collect();
            names.sort();
            names.dedup();
            assert_eq!(names.len(), forms.len(), "{set:?}: duplicate forms");
        }
        assert_eq!(Set::Sweep.forms().len(), 2 * (12 * 32 + 8 * 18));
    }
}
