#!/usr/bin/env bash
# Instruction counts of ptx2hip's AMD translations of atomics, fences, barriers and cp.async next
# to the HIP API calls a careful port would write (bench/sync_api/pairs.cu). Counting as
# examples/isa_count.rs does: machine instructions between a function's label and its .Lfunc_end,
# without the s_setpc_b64 return and the leading s_waitcnt of the calling convention; static
# (a compare-and-swap loop's body counts once). Usage: bench/sync_api.sh [workdir]
set -euo pipefail
work=${1:-/tmp/ptx2hip-sync-api}
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$work"
cargo build --release --manifest-path "$here/Cargo.toml" -q
"$here/target/release/ptx2hip" translate --emit replace --target amd --out-dir "$work" "$here/bench/sync_api/pairs.cu"
src=$(find "$work" -name pairs.cu | head -1)
echo "date: $(date -u +%Y-%m-%d); $(clang-19 --version | head -1)"
# The HIP API's fences and barriers live in the device libraries (ockl): link them, as a HIP
# build does, so the API side is counted inlined rather than as a call. Debian's rocm-device-libs
# have no gfx942/gfx1100 version library: the closest ones (940, 1030) only select code the
# functions counted here do not use.
libs=${DEVLIBS:-/usr/lib/x86_64-linux-gnu/amdgcn/bitcode}
for arch in gfx90a gfx942 gfx1100; do
  case $arch in gfx90a) isa=90a; w=on ;; gfx942) isa=940; w=on ;; gfx1100) isa=1030; w=off ;; esac
  bc=()
  for lib in hip opencl ocml ockl oclc_isa_version_$isa oclc_wavefrontsize64_$w oclc_daz_opt_off oclc_unsafe_math_off \
             oclc_finite_only_off oclc_correctly_rounded_sqrt_on oclc_abi_version_500; do
    bc+=(-Xclang -mlink-builtin-bitcode -Xclang "$libs/$lib.bc")
  done
  clang-19 -x hip -std=c++17 -include hip/hip_runtime.h --offload-arch=$arch --cuda-device-only -nogpulib \
    "${bc[@]}" -O2 -S "$src" -o "$work/pairs_$arch.s"
done
python3 - "$work" <<'PY'
import re, sys
work = sys.argv[1]
counts = {}
for arch in ("gfx90a", "gfx942", "gfx1100"):
    text = open(f"{work}/pairs_{arch}.s").read()
    for m in re.finditer(r"^(ptx|api)_(\w+):[^\n]*\n(.*?)^\.Lfunc_end", text, re.S | re.M):
        n = 0
        first = True
        for line in m.group(3).split("\n"):
            line = line.split(";")[0].strip()
            if not line or line.startswith(".") or line.endswith(":"):
                continue
            if line.startswith("s_setpc_b64"):
                continue
            if first and line.startswith("s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)"):
                first = False
                continue
            first = False
            n += 1
        counts.setdefault(m.group(2), {}).setdefault(arch, {})[m.group(1)] = n
print()
print("| statement | gfx90a ptx2hip / API | gfx942 ptx2hip / API | gfx1100 ptx2hip / API |")
print("|---|---:|---:|---:|")
for name, per in counts.items():
    cells = [f"{per[a]['ptx']} / {per[a]['api']}" for a in ("gfx90a", "gfx942", "gfx1100")]
    print(f"| {name} | " + " | ".join(cells) + " |")
PY
