#!/bin/bash
# bash prepare.sh DIR: a self-contained run directory for run.sh (run there as `bash run.sh DIR` on
# an H100/H200 with nvcc): this probe's files, corpus/named_barriers.cu, and the portable
# translation of both kernels by the ptx2hip built in target/release.
set -e
HERE="$(cd "$(dirname "$0")" && pwd)"; ROOT="$HERE/../../.."
D="$1"; mkdir -p "$D/trans"
cp "$HERE"/{stress.cu,harness_named.cu,harness_stress.cu,run.sh} "$ROOT/corpus/named_barriers.cu" "$D/"
"$ROOT/target/release/ptx2hip" translate --emit replace --target portable --out-dir "$D/trans" \
  "$D/named_barriers.cu" "$D/stress.cu"
