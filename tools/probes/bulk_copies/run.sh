#!/usr/bin/env bash
# bash run.sh DIR (staged by stage.py) on an H100/H200: builds the probe and the two corpus
# harnesses natively (orig/) and as ptx2hip's portable translation (trans/), runs each pair and
# compares every answer byte. Results in DIR/out/; the last line is PASS or FAIL.
set -uo pipefail
cd "${1:-$(dirname "$0")}" || exit 1
mkdir -p out
{
  echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
  echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
  echo "nvcc: $(nvcc --version | tail -1)"
} > out/summary.txt
NVCC="nvcc -std=c++17 -gencode arch=compute_90a,code=sm_90a -O2"
build() {   # build NAME VARIANT: out/NAME.VARIANT
  local name=$1 v=$2
  if [ "$name" = bulk_probe ]; then $NVCC -o "out/$name.$v" "$v/$name.cu" > "out/build_$name.$v.txt" 2>&1
  else $NVCC -w -DCORPUS_FILE="\"$v/$name.cu\"" -o "out/$name.$v" "harness_$name.cu" > "out/build_$name.$v.txt" 2>&1; fi
}
export -f build; export NVCC
printf '%s\n' bulk_probe.orig bulk_probe.trans bulk_ring.orig bulk_ring.trans bulk_reduce.orig bulk_reduce.trans |
  xargs -P 6 -I{} bash -c 'n={}; build "${n%.*}" "${n##*.}"'
status=0
for name in bulk_probe bulk_ring bulk_reduce; do
  for v in orig trans; do
    if [ ! -x "out/$name.$v" ]; then echo "$name ($v): BUILD FAILED" >> out/summary.txt; head -20 "out/build_$name.$v.txt" >> out/summary.txt; status=1; continue; fi
    timeout 120 "./out/$name.$v" "out/$name.$v.bin" > "out/$name.$v.txt" 2>&1
    echo "$name ($v): rc $?" >> out/summary.txt
  done
  if [ -f "out/$name.orig.bin" ] && [ -f "out/$name.trans.bin" ]; then
    if cmp -s "out/$name.orig.bin" "out/$name.trans.bin"; then
      echo "$name: native and translation IDENTICAL ($(stat -c %s "out/$name.orig.bin") bytes)" >> out/summary.txt
    else
      echo "$name: native and translation DIFFER ($(cmp -l "out/$name.orig.bin" "out/$name.trans.bin" | wc -l) bytes)" >> out/summary.txt
      status=1
    fi
  else
    status=1
  fi
done
grep -h "differ from the host\|FAIL" out/bulk_probe.*.txt >> out/summary.txt 2>/dev/null
grep -q "FAIL" out/bulk_probe.orig.txt out/bulk_probe.trans.txt 2>/dev/null && status=1
diff out/bulk_probe.orig.txt out/bulk_probe.trans.txt > out/probe_stdout.diff 2>&1
# The probe's answers are kept; the corpus dumps (inputs included) only when they differ.
for name in bulk_ring bulk_reduce; do
  cmp -s "out/$name.orig.bin" "out/$name.trans.bin" && rm -f "out/$name.orig.bin" "out/$name.trans.bin"
done
gzip -f out/*.bin
rm -f out/bulk_probe.orig out/bulk_probe.trans out/bulk_ring.orig out/bulk_ring.trans out/bulk_reduce.orig out/bulk_reduce.trans
# Native-only evidence for refusals (not part of PASS/FAIL): own-CTA st.async, red.async and
# shared::cta -> shared::cluster bulk copies, one process each; f16/bf16 bulk min/max recorded.
if [ -f native_only.cu ] && $NVCC -o out/native_only native_only.cu > out/build_native_only.txt 2>&1; then
  for c in own_st_async own_red_async own_bulk_copy; do timeout 60 ./out/native_only $c >> out/native_only.txt 2>&1 || echo "$c: rc $?" >> out/native_only.txt; done
  timeout 60 ./out/native_only half_minmax out/half_minmax.bin >> out/native_only.txt 2>&1
  rm -f out/native_only
  cat out/native_only.txt >> out/summary.txt
fi
[ $status = 0 ] && echo PASS >> out/summary.txt || echo FAIL >> out/summary.txt
cat out/summary.txt
