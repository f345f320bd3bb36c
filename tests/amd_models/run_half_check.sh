#!/bin/sh
# Host check of the half family: translate every form (tests/gpu_half/gen.py) with ptx2hip for both
# targets, compile the AMD translation for gfx90a/gfx942/gfx1100 when clang-19 is present, and compare
# the portable helpers with the independent reference of half_check.cpp (g++).
set -e
here=$(cd "$(dirname "$0")" && pwd)
bin=${PTX2HIP:-$here/../../target/debug/ptx2hip}
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
python3 "$here/../gpu_half/gen.py" "$w" >/dev/null
"$bin" translate --emit replace --target portable --out-dir "$w/port" "$w/forms.cuh" >/dev/null
"$bin" translate --emit replace --target amd --out-dir "$w/amd" "$w/forms.cuh" >/dev/null
"$bin" translate --emit replace --target amd --fast --out-dir "$w/fast" "$w/forms.cuh" >/dev/null
if grep -q 'asm(' "$w/port/forms.cuh" "$w/amd/forms.cuh"; then echo "untranslated half form"; exit 1; fi
cp "$w/port/forms.cuh" "$w/port.cuh"
cp "$w/amd/forms.cuh" "$w/amd.cuh"
cp "$w/fast/forms.cuh" "$w/fast.cuh"
if command -v clang-19 >/dev/null; then
  (echo '#include <hip/hip_runtime.h>'; cat "$w/amd/forms.cuh"
   sed 's/^static uint32_t W_\([0-9]*\)(/__device__ uint32_t W_\1(/' "$w/table.inc" | grep '^__device__'
   echo '__global__ void all_forms(uint32_t* p) {'
   n=$(grep -c '^__device__ uint32_t W_' "$w/table.inc" || true)
   grep -o '^static uint32_t W_[0-9]*' "$w/table.inc" | sed 's/.*W_//' | while read i; do echo "  p[$i] = W_$i(p[200], p[201], p[202]);"; done
   echo '}') > "$w/amd.hip"
  # The three processors compile side by side, next to the host builds below (front end only:
  # a builtin a processor lacks is an error there).
  for a in gfx90a gfx942 gfx1100; do
    clang-19 -x hip -std=c++17 --offload-arch=$a --cuda-device-only -nogpulib -O0 -emit-llvm -S "$w/amd.hip" -o /dev/null > "$w/compile_$a.log" 2>&1 &
    eval "pid_$a=\$!"
  done
fi
g++ -std=c++17 -O1 -ffp-contract=off -I"$w" "$here/half_check.cpp" -o "$w/check" &
gxx=$!
if command -v clang-19 >/dev/null; then
  clang-19 -x c++ -std=c++17 -O1 -ffp-contract=off -DAMD_MODEL -I"$w" "$here/half_check.cpp" -lstdc++ -lm -o "$w/check_amd"
  clang-19 -x c++ -std=c++17 -O1 -ffp-contract=off -DAMD_MODEL -DFAST_MODEL -I"$w" "$here/half_check.cpp" -lstdc++ -lm -o "$w/check_fast"
fi
wait $gxx
if command -v clang-19 >/dev/null; then
  for a in gfx90a gfx942 gfx1100; do
    eval "pid=\$pid_$a"
    if ! wait "$pid"; then cat "$w/compile_$a.log"; echo "amd compile $a: failed"; exit 1; fi
    echo "amd compile $a: ok"
  done
fi
echo "portable:"; "$w/check"
if command -v clang-19 >/dev/null; then
  echo "amd (hardware f16 fma modelled):"; "$w/check_amd"
  echo "amd --fast (hardware f16 fma modelled, its NaN results not NVIDIA's):"; "$w/check_fast"
fi
