//! Where the documentation page of each rule (`docs/rules/I001.md`) and each finding code
//! (`docs/codes/U001.md`) lives. tests/it/docs.rs generates the pages from the table and fails when
//! one is stale, missing or left over; `explain` and the review page name them, so a reader of
//! either finds the whole page. The paths are relative to the root of the ptx2hip repository:
//! one constant, so that pointing them at a published copy is one edit.

use crate::codes::Code;

/// The folder (or address) the pages are under.
pub const DOCS_BASE: &str = "docs";

/// The page of the rule `code` (`I001`).
pub fn rule_page(code: &str) -> String {
    format!("{DOCS_BASE}/rules/{code}.md")
}

/// The page of the finding code `code`.
pub fn code_page(code: Code) -> String {
    format!("{DOCS_BASE}/codes/{}.md", code.as_str())
}
