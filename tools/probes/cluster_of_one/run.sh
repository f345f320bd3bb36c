#!/bin/bash
# bash run.sh <dir>: clusters of one on an H100/H200. facts.cu prints what the hardware answers
# for mapa/getctarank of the own CTA (native only); values.cu and the corpus ring
# (corpus/cluster_of_one.cu through ring_main.cu) run native against ptx2hip's portable
# translation (trans/, made before by `ptx2hip translate --emit replace --target portable`) and
# their answer files are compared byte for byte; hang.cu's translation must trap (the watchdog of
# PTX spin loops around mbarrier waits). Results in <dir>/out/.
D="${1:-.}"; cd "$D" || exit 1
mkdir -p out; : > out/summary.txt
NV="nvcc -gencode arch=compute_90a,code=sm_90a -O2"
build() { $NV -o "out/$1" "${@:2}" > "out/$1.build.txt" 2>&1 || echo "$1: build FAILED" >> out/summary.txt; }
build facts facts.cu &
build values_native values.cu &
build values_emulated trans/values.cu &
build ring_native -DRING_FILE='"cluster_of_one.cu"' ring_main.cu &
build ring_emulated -DRING_FILE='"trans/cluster_of_one.cu"' ring_main.cu &
build hang_emulated -DPTX2HIP_SPIN_LIMIT_SECONDS=2 trans/hang.cu &
wait
[ -x out/facts ] && timeout 60 ./out/facts > out/facts.txt 2>&1; echo "facts: rc $?" >> out/summary.txt
for p in values ring; do
  for v in native emulated; do
    if [ -x out/${p}_$v ]; then timeout 120 ./out/${p}_$v out/${p}_$v.bin > out/${p}_$v.txt 2>&1
      echo "$p $v: rc $? $(head -c 300 out/${p}_$v.txt)" >> out/summary.txt; fi
  done
  if [ -s out/${p}_native.bin ] && [ -s out/${p}_emulated.bin ] && cmp -s out/${p}_native.bin out/${p}_emulated.bin; then
    echo "$p: IDENTICAL ($(stat -c %s out/${p}_native.bin) bytes)" >> out/summary.txt
  else echo "$p: DIFFER or missing" >> out/summary.txt; fi
done
# The watchdog: the translated lost-arrival kernel must trap with the statement's file and line.
if [ -x out/hang_emulated ]; then
  start=$(date +%s.%N); timeout 60 ./out/hang_emulated > out/hang.txt 2>&1; rc=$?
  echo "hang emulated: rc $rc after $(awk "BEGIN{print $(date +%s.%N) - $start}") s: $(tr '\n' ' ' < out/hang.txt | head -c 400)" >> out/summary.txt
  if [ $rc -ne 0 ] && [ $rc -ne 124 ]; then echo "watchdog: TRAPPED" >> out/summary.txt; else echo "watchdog: NO TRAP" >> out/summary.txt; fi
fi
gzip -f out/*.bin 2>/dev/null
rm -f out/facts out/values_native out/values_emulated out/ring_native out/ring_emulated out/hang_emulated
cat out/facts.txt out/summary.txt
if grep -q "IDENTICAL" <(grep "^values:" out/summary.txt) && grep -q "IDENTICAL" <(grep "^ring:" out/summary.txt) && grep -q "watchdog: TRAPPED" out/summary.txt; then echo "PASS"; else echo "FAIL"; fi
