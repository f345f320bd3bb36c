use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    ptx2hip::cli::run(ptx2hip::cli::Cli::parse())
}
