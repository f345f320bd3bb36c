#!/usr/bin/env bash
# How long the patch `translate` prints is, for two ptx2hip binaries (e.g. the commit before direct
# operand binding and the one with it): per directory, the lines of the unified diff, the lines
# it adds, and the statements translated (each binary's own summary line), with the default
# options (--emit guarded --target amd, a helper block per file).
# Usage: bench/diff_size.sh BEFORE_PTX2HIP AFTER_PTX2HIP DIR...   (prints a Markdown table)
set -euo pipefail
before=$1 after=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "date: $(date -u +%Y-%m-%dT%H:%MZ); before: $("$before" --version), after: $("$after" --version)"
echo
echo "| directory | statements translated | diff lines before | diff lines after | added lines before | added lines after | after/before (diff lines) |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for dir in "$@"; do
  row=()
  for bin in "$before" "$after"; do
    "$bin" translate "$dir" > "$work/diff" 2> "$work/err" || true
    row+=("$(wc -l < "$work/diff")" "$(grep -c '^+[^+]\|^+$' "$work/diff" || true)")
    translated=$(grep -o '[0-9]* statements\? translated' "$work/err" | tail -1 | cut -d' ' -f1)
  done
  ratio=$(awk -v a="${row[2]}" -v b="${row[0]}" 'BEGIN { printf (b > 0 ? "%.2f" : "-"), a / b }')
  echo "| \`$dir\` | ${translated:-0} | ${row[0]} | ${row[2]} | ${row[1]} | ${row[3]} | $ratio |"
done
