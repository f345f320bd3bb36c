//! `wgmma.mma_async` on the H100 (docs/WGMMA.md): the forms ([`forms`]), the descriptor and
//! fragment layouts ([`layout`]), the cases and the recording sets ([`cases`], [`sets`]), the
//! reference ([`model`]), the CUDA programs that record the forms ([`harness`]), the committed
//! recording ([`record`]) and what a host-side check of an AMD translation needs ([`replay`]).

pub mod cases;
pub mod forms;
pub mod harness;
pub mod layout;
pub mod model;
pub mod record;
pub mod replay;
pub mod sets;

pub use cases::{generate, Case};
pub use forms::{Source, WgmmaForm};
pub use sets::Set;
