//! The terms the rule table and the lowering share: PTX value types and the C++ types that carry
//! them ([`types`]), the code expressions operand binding hands to templates ([`code`]) and the
//! [`Target`] code is generated for. `rules` and `lower` both use them; neither imports the
//! other's internals for them.

use std::fmt;

pub mod code;
pub mod types;

/// What the generated code may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Target {
    /// HIP functions and `__builtin_amdgcn_*` allowed.
    Amd,
    /// Standard C++ plus device code accepted by both nvcc and HIP compilers.
    Portable,
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Target::Amd => "amd",
            Target::Portable => "portable",
        })
    }
}
