#!/usr/bin/env bash
# How long the patch `translate` prints is, for two ptx2hip binaries (e.g. the commit before direct
# operand binding and the one with it): per directory, the lines of the unified diff and the
# lines it adds with the default options (--emit guarded --target amd, a helper block per file),
# and the lines added at the call sites alone (translated with --helpers into a shared header,
# whose own lines are not counted: the `#if`/`#else`/`#endif`, the translations, the include),
# and their bytes.
# The statements translated are the after binary's summary line.
# Usage: bench/diff_size.sh BEFORE_PTX2HIP AFTER_PTX2HIP DIR...   (prints a Markdown table)
set -euo pipefail
before=$1 after=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Added lines of a diff outside the file named $2 (and with $3 = bytes, their bytes).
added() {
  awk -v skip="$2" -v what="${3:-lines}" '/^\+\+\+ / { out = index($0, skip) > 0; next }
    /^\+/ && !out { n++; b += length($0) } END { print (what == "bytes" ? b : n) + 0 }' "$1"
}
echo "date: $(date -u +%Y-%m-%dT%H:%MZ); before: $("$before" --version), after: $("$after" --version)"
echo
echo "| directory | statements translated | diff lines before | after | added lines before | after | call-site lines before | after | call-site bytes before | after |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for dir in "$@"; do
  row=()
  for bin in "$before" "$after"; do
    "$bin" translate "$dir" > "$work/diff" 2> "$work/err" || true
    row+=("$(wc -l < "$work/diff")" "$(added "$work/diff" /dev/null/none)")
    translated=$(grep -o '[0-9]* statements\? translated' "$work/err" | tail -1 | cut -d' ' -f1)
    "$bin" translate --diff-root / --helpers "$work/ptx2hip_helpers.h" "$dir" > "$work/shared" 2> /dev/null || true
    row+=("$(added "$work/shared" ptx2hip_helpers.h)" "$(added "$work/shared" ptx2hip_helpers.h bytes)")
  done
  echo "| \`$dir\` | ${translated:-0} | ${row[0]} | ${row[4]} | ${row[1]} | ${row[5]} | ${row[2]} | ${row[6]} | ${row[3]} | ${row[7]} |"
done
