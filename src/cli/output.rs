//! Where the commands write: stdout for the report, stderr for messages.
//!
//! `println!` panics when stdout is a closed pipe (`ptx2hip rules | head -1`) or a full disk, and
//! a panic loses every other result; `eprintln!` does the same on stderr. Here a failed write to
//! stdout is kept for the end of the command ([`super::conclude`]: exit 2 with a message, or
//! nothing for a closed pipe), and a failed write to stderr is ignored (there is nowhere left to
//! say anything).

use std::fmt;
use std::io::{self, BufWriter, ErrorKind, StdoutLock, Write};

/// The report on stdout; after the first failed write the rest is dropped.
pub struct Output {
    out: BufWriter<StdoutLock<'static>>,
    failed: Option<io::Error>,
}

impl Output {
    pub fn stdout() -> Output {
        Output {
            out: BufWriter::new(io::stdout().lock()),
            failed: None,
        }
    }

    pub fn write(&mut self, bytes: &[u8]) {
        if self.failed.is_none() {
            self.failed = self.out.write_all(bytes).err();
        }
    }

    /// Writes one line; use through [`outln!`].
    pub fn line(&mut self, args: fmt::Arguments) {
        if self.failed.is_none() {
            self.failed = writeln!(self.out, "{args}").err();
        }
    }

    /// Flushes the report; the error that lost (part of) it, if any. A closed pipe is no error:
    /// its reader wanted no more (`ptx2hip rules | head -1`), so the output just ends.
    pub fn finish(mut self) -> Option<io::Error> {
        if self.failed.is_none() {
            self.failed = self.out.flush().err();
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

/// One line on stderr; a failure to write it is ignored.
pub fn warn(args: fmt::Arguments) {
    let _ = writeln!(io::stderr().lock(), "{args}");
}

/// Text on stderr as it is (it ends in its own newline); a failure to write it is ignored.
pub fn warn_text(text: &str) {
    let _ = io::stderr().lock().write_all(text.as_bytes());
}
