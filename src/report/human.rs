//! Human-readable diagnostics in the style of rustc and Ruff.

use annotate_snippets::{AnnotationKind, Level, Renderer, Snippet};

use crate::pipeline::{FileDiagnostic, Finding};

/// A diagnostic with the statement's source lines and a caret at the problem.
pub fn render_finding(path: &str, source: &[u8], f: &Finding) -> String {
    let stmt = &f.statement;
    let (level, focus) = match &f.analysis.outcome {
        Ok(_) => (Level::WARNING, stmt.span.start),
        Err(u) => (Level::ERROR, u.file_offset(stmt).clamp(stmt.span.start, stmt.span.end.max(stmt.span.start))),
    };
    let line_start = source[..stmt.span.start].iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    let line_end = source[stmt.span.end..].iter().position(|&b| b == b'\n').map_or(source.len(), |p| stmt.span.end + p);
    let text = String::from_utf8_lossy(&source[line_start..line_end]).into_owned();
    let rel = |o: usize| (o - line_start).min(text.len());
    let caret_end = (rel(focus) + 1).min(text.len()).max(rel(focus));
    let label = match &f.analysis.outcome {
        Ok(t) => format!("rules {}", t.rules.join(", ")),
        Err(u) => u.message.clone(),
    };
    let title = super::message(f);
    let code = match &f.analysis.outcome {
        Ok(_) => "translatable",
        Err(_) => "unsupported",
    };
    let report = &[level.primary_title(title).id(code).element(
        Snippet::source(text.as_str())
            .line_start(stmt.line)
            .path(path)
            .annotation(AnnotationKind::Primary.span(rel(focus)..caret_end).label(label.as_str())),
    )];
    Renderer::plain().render(report).to_string()
}

pub fn render_file_diagnostic(path: &str, d: &FileDiagnostic) -> String {
    format!("error: {}\n --> {path}:{}:{}\n", d.message, d.line, d.column)
}

/// The closing line of a `check` run.
pub fn summary(files: usize, translatable: usize, unsupported: usize) -> String {
    format!(
        "{} non-portable asm statement{} in {files} file{}: {translatable} translatable, {unsupported} not translated",
        translatable + unsupported,
        if translatable + unsupported == 1 { "" } else { "s" },
        if files == 1 { "" } else { "s" },
    )
}
