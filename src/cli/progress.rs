//! A progress bar on standard error while a long run works through its files.
//!
//! Only a person watching a terminal gains from it: it is never drawn when standard error is not
//! a terminal (a pipe, a file, CI logs), nor with `--quiet`, nor with the machine-read formats
//! (`--format json`, `sarif`, `github`), and a run that ends within [`DELAY`] never shows it. It
//! is cleared before the results are printed.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Runs shorter than this show no bar (it would only flash).
const DELAY: Duration = Duration::from_secs(1);

pub struct Progress {
    bar: Option<ProgressBar>,
    start: Instant,
}

impl Progress {
    /// A bar over `files` files, drawn on standard error when `wanted` (the output format and
    /// flags allow one) and standard error is a terminal.
    pub fn new(files: u64, wanted: bool) -> Progress {
        let bar = shown(wanted, std::io::stderr().is_terminal()).then(|| {
            let bar = ProgressBar::with_draw_target(Some(files), ProgressDrawTarget::hidden());
            if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} files {elapsed}")
            {
                bar.set_style(style);
            }
            bar
        });
        Progress {
            bar,
            start: Instant::now(),
        }
    }

    /// One more file done.
    pub fn inc(&self) {
        let Some(bar) = &self.bar else {
            return;
        };
        if bar.is_hidden() && self.start.elapsed() >= DELAY {
            bar.set_draw_target(ProgressDrawTarget::stderr());
        }
        bar.inc(1);
    }

    /// Removes the bar from the terminal.
    pub fn finish(self) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
    }
}

/// Whether a bar is drawn at all.
fn shown(wanted: bool, stderr_is_terminal: bool) -> bool {
    wanted && stderr_is_terminal
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_terminal_gets_a_bar_and_only_when_the_run_allows_one() {
        assert!(shown(true, true));
        assert!(!shown(true, false));
        assert!(!shown(false, true));
        assert!(Progress::new(10, false).bar.is_none());
    }
}
