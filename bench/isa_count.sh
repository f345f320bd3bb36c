#!/usr/bin/env bash
# AMD instruction-count benchmark: every canonical form of every rule, translated with
# --target amd and --target portable, compiled for gfx942 with clang-19 (one file per target),
# machine instructions counted per form. Method: crates/ptx2hip-verify/src/bin/isa_count.rs; results: BENCHMARKS.md.
# Usage: bench/isa_count.sh [workdir]   (prints the Markdown tables; workdir keeps .hip/.s/counts.tsv)
# Needs clang-19 and rocm-device-libs (see /work/shared/reference/toolchain.md or docs).
set -euo pipefail
work=${1:-/tmp/ptx2hip-isa}
here=$(cd "$(dirname "$0")/.." && pwd)
cargo build --release --manifest-path "$here/Cargo.toml" -p ptx2hip-verify --bin isa_count -q
echo "date: $(date -u +%Y-%m-%d); $(clang-19 --version | head -1)"
echo
"$here/target/release/isa_count" --all-forms --out "$work"
