#!/bin/sh
# Compile check of every float/compare/half rule example for gfx90a, gfx942, gfx1100 (clang-19),
# then the host semantic check of the helpers (float_check.cpp) against fesetround references.
set -e
here=$(cd "$(dirname "$0")" && pwd)
bin=${PTX2HIP:-$here/../../target/debug/ptx2hip}
w=$(mktemp -d)
python3 "$here/gen_examples.py" "$w/all.cu"
"$bin" translate --emit replace --target amd --out-dir "$w/amd" "$w/all.cu" >/dev/null || true
"$bin" translate --emit replace --target portable --out-dir "$w/port" "$w/all.cu" >/dev/null || true
for a in gfx90a gfx942 gfx1100; do
  (echo '#include <hip/hip_runtime.h>'; cat "$w/amd/all.cu") > "$w/amd.hip"
  clang-19 -x hip -std=c++17 --offload-arch=$a --cuda-device-only -nogpulib -O2 -emit-llvm -S "$w/amd.hip" -o /dev/null
  echo "amd compile $a: ok"
done
for t in amd port; do
  sed -n '/ptx2hip helpers: generated/,/end of ptx2hip helpers/p' "$w/$t/all.cu" > "$w/helpers_$t.inc"
done
g++ -std=c++17 -O1 -ffp-contract=off -frounding-math -I"$w" -include "$here/float.h" \
  -DHELPERS_AMD='"helpers_amd.inc"' -DHELPERS_PORT='"helpers_port.inc"' "$here/float_check.cpp" -o "$w/check"
"$w/check"
