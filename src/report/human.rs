//! Human-readable diagnostics in the style of rustc and Ruff.

use annotate_snippets::{AnnotationKind, Level, Renderer, Snippet};

use crate::pipeline::{FileDiagnostic, Finding};

/// A diagnostic with the statement's source lines and a caret at the problem.
pub fn render_finding(path: &str, source: &[u8], f: &Finding) -> String {
    let (level, focus) = match &f.outcome {
        Ok(_) => (Level::WARNING, f.span.start),
        Err(u) => (
            Level::ERROR,
            u.offset.clamp(f.span.start, f.span.end.max(f.span.start)),
        ),
    };
    let line_start = source[..f.span.start]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let line_end = source[f.span.end..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(source.len(), |p| f.span.end + p);
    let text = String::from_utf8_lossy(&source[line_start..line_end]).into_owned();
    let rel = |o: usize| (o - line_start).min(text.len());
    let caret_end = (rel(focus) + 1).min(text.len()).max(rel(focus));
    let label = match &f.outcome {
        Ok(rules) => format!("rules {}", rules.join(", ")),
        Err(u) => u.message.clone(),
    };
    let title = super::message(f);
    let code = match &f.outcome {
        Ok(_) => "translatable",
        Err(_) => "unsupported",
    };
    let report = &[level.primary_title(title).id(code).element(
        Snippet::source(text.as_str())
            .line_start(f.line)
            .path(path)
            .annotation(
                AnnotationKind::Primary
                    .span(rel(focus)..caret_end)
                    .label(label.as_str()),
            ),
    )];
    Renderer::plain().render(report).to_string()
}

pub fn render_file_diagnostic(path: &str, d: &FileDiagnostic) -> String {
    format!(
        "error: {}\n --> {path}:{}:{}\n",
        d.message, d.line, d.column
    )
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
