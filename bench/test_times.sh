#!/usr/bin/env bash
# Where `cargo test --workspace` spends its time: builds every test binary, then runs each one as
# cargo would (from its package's directory, one after the other) and prints a Markdown table of
# wall-clock and CPU seconds (user + system, compilers the tests start included), with the load
# average when each finished. Results: BENCHMARKS.md ("Test-suite time and product size").
# A binary is named by its package's folder and target (`crates/ptx2hip-verify/it`; the root
# package's without the folder: each package's integration tests are one binary, `it`).
# Usage: bench/test_times.sh [cargo test arguments...]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
cargo test --workspace --locked --no-run "$@" 2>/dev/null
list=$(cargo test --workspace --locked --no-run --message-format=json "$@" 2>/dev/null | python3 -c '
import json, os, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["profile"]["test"] and m.get("executable"):
        package = os.path.dirname(m["manifest_path"])
        folder = os.path.relpath(package)
        name = m["target"]["name"] if folder == "." else folder + "/" + m["target"]["name"]
        print(package, name, m["executable"])
')
echo "| test binary | wall s | CPU s | load |"
echo "|---|---:|---:|---:|"
total_wall=0
total_cpu=0
times=$(mktemp)
while read -r dir name exe; do
  (cd "$dir" && /usr/bin/time -o "$times" -f "%e %U %S" "$exe" -q >/dev/null 2>&1) || echo "note: $name failed" >&2
  read -r wall user sys < <(tail -1 "$times")
  cpu=$(echo "$user + $sys" | bc)
  total_wall=$(echo "$total_wall + $wall" | bc)
  total_cpu=$(echo "$total_cpu + $cpu" | bc)
  echo "| $name | $wall | $cpu | $(cut -d' ' -f1 /proc/loadavg) |"
done <<< "$list"
rm -f "$times"
echo "| **all** | $total_wall | $total_cpu | |"
