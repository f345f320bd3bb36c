#!/usr/bin/env bash
# What the operand glue (ptx2hip_in_r(x), ptx2hip_out_r(y) = v) costs on AMD: every fully
# translatable corpus file, translated with --emit replace --target amd by two ptx2hip binaries
# (one without the glue, e.g. built from the commit before it, and one with it), compiled for gfx942
# with clang-19 -O2, machine instructions counted per file (labels, directives, comments excluded).
# Usage: bench/operand_glue.sh OLD_PTX2HIP NEW_PTX2HIP [workdir]   (prints a Markdown table)
set -euo pipefail
old=$1 new=$2 work=${3:-/tmp/ptx2hip-glue}
here=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$work" && mkdir -p "$work/old" "$work/new"
count() { { grep -E '^\s+[a-z_][a-z0-9_]*(\s|$)' "$1" || true; } | grep -cvE '^\s+(\.|;)' || true; }
echo "date: $(date -u +%Y-%m-%d); $(clang-19 --version | head -1)"
echo
echo "| file | without glue | with glue |"
echo "|---|---:|---:|"
total_old=0 total_new=0
for f in "$here"/corpus/*.cu "$here"/corpus/*.cuh; do
  b=$(basename "$f")
  # Only files whose every statement translates compile for AMD.
  "$new" check --format json "$f" > "$work/check.json" || true
  grep -q '"unsupported"' "$work/check.json" && continue
  n=()
  for v in old new; do
    bin=${!v}
    "$bin" translate --emit replace --target amd --out-dir "$work/$v" "$f" 2>/dev/null
    if clang-19 -x hip -std=c++17 --offload-arch=gfx942 --cuda-device-only -nogpulib -O2 -S \
         -include hip/hip_runtime.h "$work/$v/$b" -o "$work/$v/$b.s" 2> "$work/$v/$b.err"; then
      n+=("$(count "$work/$v/$b.s")")
    else
      n+=("does not compile")
    fi
  done
  echo "| \`$b\` | ${n[0]} | ${n[1]} |"
  if [[ ${n[0]} =~ ^[0-9]+$ && ${n[1]} =~ ^[0-9]+$ && $b != name_capture.cu ]]; then
    total_old=$((total_old + n[0])) total_new=$((total_new + n[1]))
  fi
done
echo "| total (files both compile, name_capture.cu excluded) | $total_old | $total_new |"
