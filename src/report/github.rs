//! GitHub Actions workflow commands: `::error file=…,line=…,col=…,title=CODE::message` lines,
//! which GitHub shows as annotations on the pull request's diff.
//!
//! Escaping follows GitHub's toolkit (`@actions/core`, `command.ts`): in the message `%`, `\r`
//! and `\n` become `%25`, `%0D`, `%0A`; in the properties `:` and `,` also become `%3A`, `%2C`.

use super::Diagnostic;

/// The finding's annotation: `error` blocks a port, `warning` does not. The column counts
/// characters, as GitHub's editor does.
pub fn github(d: &Diagnostic) -> String {
    format!(
        "::{} file={},line={},col={},title={}::{}",
        d.code.level().as_str(),
        property(&d.file),
        d.focus.line,
        d.focus.char_column,
        property(d.code.as_str()),
        data(&d.message)
    )
}

fn data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codes::Code;
    use crate::report::Location;

    fn at(line: usize, column: usize, char_column: usize) -> Location {
        Location {
            line,
            column,
            char_column,
        }
    }

    #[test]
    fn an_error_annotation_names_file_position_and_code() {
        let mut d = Diagnostic::at(
            Code::UnknownInstruction,
            "src/k.cu",
            at(3, 5, 4),
            String::new(),
        );
        d.message = "unknown instruction `frob`: 100% sure".into();
        assert_eq!(
            github(&d),
            "::error file=src/k.cu,line=3,col=4,title=U001::unknown instruction `frob`: 100%25 sure"
        );
    }

    #[test]
    fn translatable_statements_are_warnings() {
        let d = Diagnostic::at(Code::Translatable, "k.cu", at(1, 1, 1), "m".into());
        assert!(github(&d).starts_with("::warning file=k.cu,"));
    }

    #[test]
    fn properties_escape_colons_and_commas_and_data_escapes_line_breaks() {
        let mut d = Diagnostic::at(Code::Translatable, "a:b,c%.cu", at(1, 1, 1), String::new());
        d.message = "one\r\ntwo: three, four".into();
        assert_eq!(
            github(&d),
            "::warning file=a%3Ab%2Cc%25.cu,line=1,col=1,title=T001::one%0D%0Atwo: three, four"
        );
    }
}
