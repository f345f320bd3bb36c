//! Where the commands write: stdout for the report, stderr for messages.
//!
//! `check --output-file` puts the report in a file instead, written whole at the end.
//!
//! `println!` panics when stdout is a closed pipe (`ptx2hip rules | head -1`) or a full disk, and
//! a panic loses every other result; `eprintln!` does the same on stderr. Here a failed write to
//! stdout is kept for the end of the command ([`super::conclude`]: exit 2 with a message, or
//! nothing for a closed pipe), and a failed write to stderr is ignored (there is nowhere left to
//! say anything).

use std::fmt;
use std::io::{self, BufWriter, ErrorKind, StdoutLock, Write};
use std::path::{Path, PathBuf};

/// The report on stdout (or for `--output-file`); after the first failed write the rest is
/// dropped.
pub struct Output {
    sink: Sink,
    failed: Option<io::Error>,
}

/// Where the report goes.
enum Sink {
    Stdout(BufWriter<StdoutLock<'static>>),
    /// Kept whole, then written to `path` at once ([`super::write::output`]: atomically, never
    /// through a link, never over one of `inputs`).
    File {
        path: PathBuf,
        inputs: Vec<PathBuf>,
        report: Vec<u8>,
    },
}

impl Output {
    pub fn stdout() -> Output {
        Output {
            sink: Sink::Stdout(BufWriter::new(io::stdout().lock())),
            failed: None,
        }
    }

    /// The report for the file at `path`, which must not be one of `inputs`.
    pub fn file(path: &Path, inputs: Vec<PathBuf>) -> Output {
        Output {
            sink: Sink::File {
                path: path.to_path_buf(),
                inputs,
                report: Vec::new(),
            },
            failed: None,
        }
    }

    fn writer(&mut self) -> &mut dyn Write {
        match &mut self.sink {
            Sink::Stdout(out) => out,
            Sink::File { report, .. } => report,
        }
    }

    pub fn write(&mut self, bytes: &[u8]) {
        if self.failed.is_none() {
            self.failed = self.writer().write_all(bytes).err();
        }
    }

    /// Writes one line; use through [`outln!`].
    pub fn line(&mut self, args: fmt::Arguments) {
        if self.failed.is_none() {
            self.failed = writeln!(self.writer(), "{args}").err();
        }
    }

    /// Flushes the report (writes its file); the error that lost (part of) it, if any. A closed
    /// pipe is no error: its reader wanted no more (`ptx2hip rules | head -1`), so the output
    /// just ends.
    pub fn finish(mut self) -> Option<io::Error> {
        if self.failed.is_none() {
            self.failed = match &mut self.sink {
                Sink::Stdout(out) => out.flush().err(),
                Sink::File {
                    path,
                    inputs,
                    report,
                } => super::write::output(path, report, inputs.iter().map(PathBuf::as_path))
                    .err()
                    .map(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display()))),
            };
        }
        self.failed.filter(|e| e.kind() != ErrorKind::BrokenPipe)
    }
}

/// `outln!(out, "...", args)`: one line of the report.
macro_rules! outln {
    ($out:expr, $($arg:tt)*) => {
        $out.line(format_args!($($arg)*))
    };
}
pub(crate) use outln;

/// Whether the report on stdout is coloured: `--color always` or `never` says so (set once as
/// anstream's global choice), `auto` (the default) colours a terminal unless `NO_COLOR` is set
/// or `TERM` is `dumb`, and colours anything when `CLICOLOR_FORCE` is set (`NO_COLOR` wins).
pub fn colour_stdout() -> bool {
    anstream::AutoStream::choice(&io::stdout()) != anstream::ColorChoice::Never
}

/// One line on stderr; a failure to write it is ignored.
pub fn warn(args: fmt::Arguments) {
    let _ = writeln!(io::stderr().lock(), "{args}");
}

/// Text on stderr as it is (it ends in its own newline); a failure to write it is ignored.
pub fn warn_text(text: &str) {
    let _ = io::stderr().lock().write_all(text.as_bytes());
}
