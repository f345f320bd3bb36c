#!/usr/bin/env bash
# The table of BENCHMARKS.md "Tool speed": `ptx2hip check` against grep and
# rg, wall and CPU, on the two sets of trees the issue names, each in one run with its references
# (bench/real_tree.sh does the timing).
# Usage: bench/check_speed.sh [-n RUNS] [--count] [REPOS]
#   REPOS: where the census repositories are extracted as OWNER+NAME (default /work/repos).
#   The eight trees: cutlass, cccl, flashinfer, llama.cpp, faiss, DeepSpeed, nccl, torchsparse,
#   whole. Asm-dense source: cutlass/include and flashinfer/include, the two libraries' headers,
#   where their inline PTX lives (cute/arch, cutlass/arch, flashinfer's mma and copy headers).
# PTX2HIP as for bench/real_tree.sh. Run it on a quiet machine: a loaded one makes wall times
# approach CPU times for `check`'s worker threads, not for the single-threaded grep.
set -euo pipefail
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    -n) args+=(-n "$2"); shift 2 ;;
    --count) args+=(--count); shift ;;
    *) break ;;
  esac
done
repos=${1:-/work/repos}
here=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "${PTX2HIP:-}" ]; then
  cargo build --release --manifest-path "$here/Cargo.toml" -q
  export PTX2HIP="$here/target/release/ptx2hip"
fi
eight=()
for t in NVIDIA+cutlass NVIDIA+cccl flashinfer-ai+flashinfer ggerganov+llama.cpp \
         facebookresearch+faiss microsoft+DeepSpeed NVIDIA+nccl mit-han-lab+torchsparse; do
  eight+=("$repos/$t")
done
dense=("$repos/NVIDIA+cutlass/include" "$repos/flashinfer-ai+flashinfer/include")
echo "### The eight trees"
echo
"$here/bench/real_tree.sh" "${args[@]}" "${eight[@]}"
echo
echo "### Asm-dense source (cutlass/include, flashinfer/include)"
echo
"$here/bench/real_tree.sh" "${args[@]}" "${dense[@]}"
