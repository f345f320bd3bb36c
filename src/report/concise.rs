//! One line per finding, `file:line:column: CODE message`, for editors' quickfix lists and grep.

use super::Diagnostic;

/// The finding's line; the column counts bytes, as the human format's header does.
pub fn concise(d: &Diagnostic) -> String {
    format!(
        "{}:{}:{}: {} {}",
        d.file, d.focus.line, d.focus.column, d.code, d.message
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codes::Code;
    use crate::report::Location;

    #[test]
    fn a_finding_is_one_line_at_its_problem() {
        let at = Location {
            line: 4,
            column: 9,
            char_column: 8,
        };
        let d = Diagnostic::at(Code::UnusedSuppression, "src/k.cu", at, "a\nb".into());
        assert_eq!(concise(&d), "src/k.cu:4:9: L001 a b");
    }
}
