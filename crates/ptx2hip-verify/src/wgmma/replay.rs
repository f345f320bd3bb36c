//! Recorded cases as a host-side check of an AMD translation needs them: for every case of a
//! recorded form, the shared-memory image, the descriptors, A's registers, C, scale-d and what
//! the H100 left in every thread's D registers (or, for forms recorded as digests, the digest
//! of those words and the reference's words, which reproduce it).

use super::cases::{generate, Case};
use super::forms::WgmmaForm;
use super::model::{expected, Fit};
use super::record::{RecordedForm, Recording};
use super::sets::Set;

/// What the H100 computed for a case.
#[derive(Debug, Clone, PartialEq)]
pub enum Recorded {
    /// Every thread's D registers.
    Outputs(Vec<Vec<u32>>),
    /// The digest of every thread's D registers ([`super::model::digest`]).
    Digest(u64),
}

/// One recorded case with its inputs.
#[derive(Debug, Clone)]
pub struct RecordedCase {
    pub set: Set,
    pub form: WgmmaForm,
    pub index: usize,
    /// The image (at a 1024-byte boundary of shared memory), descriptors relative to it, A's
    /// registers, C and scale-d.
    pub inputs: Case,
    pub recorded: Recorded,
}

impl RecordedCase {
    /// Every thread's D registers as the H100 left them: recorded, or for a digest the
    /// reference's words when they reproduce the digest (None when they do not).
    pub fn outputs(&self) -> Option<Vec<Vec<u32>>> {
        match &self.recorded {
            Recorded::Outputs(o) => Some(o.clone()),
            Recorded::Digest(d) => {
                let want = expected(&self.form, &self.inputs, &Fit::DEFAULT)?;
                (super::model::digest(want.iter().flatten().copied()) == *d).then_some(want)
            }
        }
    }
}

/// The form of `set` named `name` today.
pub fn form_named(set: Set, name: &str) -> Option<WgmmaForm> {
    set.forms().into_iter().find(|f| f.name() == name)
}

/// The cases of one recorded form (empty when today's sets no longer have the form).
pub fn cases_of(r: &RecordedForm) -> Vec<RecordedCase> {
    let Some(form) = form_named(r.set, &r.name) else {
        return Vec::new();
    };
    let nd = form.d_regs();
    generate(r.set, &form)
        .into_iter()
        .enumerate()
        .take(r.cases)
        .map(|(index, inputs)| RecordedCase {
            set: r.set,
            form,
            index,
            inputs,
            recorded: if r.digests {
                Recorded::Digest(r.digest(index))
            } else {
                Recorded::Outputs(r.outputs(index).chunks(nd).map(<[u32]>::to_vec).collect())
            },
        })
        .collect()
}

/// Every recorded case of `recording`.
pub fn all_cases(recording: &Recording) -> impl Iterator<Item = RecordedCase> + '_ {
    recording.forms.iter().flat_map(cases_of)
}
