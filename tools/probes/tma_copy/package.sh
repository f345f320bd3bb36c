#!/bin/bash
# bash package.sh DIR: a self-contained run directory for run.sh at DIR (the generated kernels,
# their portable translation by this checkout's ptx2hip, the encoder header, the host program).
set -e
HERE="$(cd "$(dirname "$0")" && pwd)"
OUT="$1"
cd "$HERE"
python3 gen_kernels.py > tma_kernels.cu
python3 gen_encoder.py > ptx2hip_tensor_map.h
rm -rf trans
../../../target/debug/ptx2hip translate --isolated --emit replace --target portable --out-dir trans tma_kernels.cu
rm -rf "$OUT.new" && mkdir -p "$OUT.new/trans"
cp tma_kernels.cu tma_probe.cu tma_probe.h ptx2hip_tensor_map.h run.sh "$OUT.new/"
cp trans/tma_kernels.cu "$OUT.new/trans/"
rm -rf "$OUT" && mv "$OUT.new" "$OUT"
