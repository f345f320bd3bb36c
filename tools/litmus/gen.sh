#!/usr/bin/env bash
# Step 1 (here): stage the litmus, contention and probe programs with the original PTX headers
# (orig/) and ptx2hip's portable translation of them (trans/). Step 2 (GPU machine): run.sh.
# Usage: tools/litmus/gen.sh STAGING_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=$1
rm -rf "$out" && mkdir -p "$out/orig" "$out/trans"
(cd "$root" && cargo build --release -q)
cp "$here"/litmus.cu "$here"/contention.cu "$here"/probe_fatomics.cu "$here"/run.sh "$out"/
for h in litmus_tests.cuh contention_ops.cuh; do
  cp "$here/$h" "$out/orig/"
  "$root/target/release/ptx2hip" translate --emit replace --target portable --out-dir "$out/trans" "$here/$h"
done
echo "staged in $out"
