#!/bin/bash
# bash run.sh <dir>: the H100's TMA (tma_kernels.cu, maps from the driver's encoder) against
# ptx2hip's portable translation (trans/tma_kernels.cu, maps from ptx2hip_cuTensorMapEncodeTiled),
# case by case (tma_probe.cu); results in <dir>/out/. trans/ is made before with
# `ptx2hip translate --isolated --emit replace --target portable --out-dir trans tma_kernels.cu`.
D="${1:-.}"; cd "$D" || exit 1
mkdir -p out
rm -f out/results.txt out/native_bytes.bin out/summary.txt
NVCC="nvcc -gencode arch=compute_90a,code=sm_90a -O2 -I."
$NVCC -DTMA_VARIANT=native -c tma_kernels.cu -o out/native.o > out/build_native.txt 2>&1 &
$NVCC -DTMA_VARIANT=emulated -c trans/tma_kernels.cu -o out/emulated.o > out/build_emulated.txt 2>&1 &
$NVCC -c tma_probe.cu -o out/probe.o > out/build_probe.txt 2>&1 &
wait
if ! $NVCC out/probe.o out/native.o out/emulated.o -lcuda -o out/tma_probe > out/build_link.txt 2>&1; then
  echo "build FAILED" | tee out/summary.txt
  tail -n 20 out/build_*.txt
  echo "FAIL"
  exit 1
fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > out/gpu.txt 2>&1
start=0; restarts=0
while true; do
  timeout 500 ./out/tma_probe out "$start" >> out/probe_log.txt 2>&1
  rc=$?
  [ $rc -eq 0 ] && break
  last=$(grep -o "^FAULT case [0-9]*" out/probe_log.txt | tail -1 | grep -o "[0-9]*$")
  if [ $rc -ne 3 ] || [ -z "$last" ] || [ $restarts -ge 100 ]; then
    echo "probe stopped: rc $rc after case ${last:-?} ($restarts restarts)" >> out/summary.txt
    break
  fi
  start=$((last + 1)); restarts=$((restarts + 1))
done
./out/tma_probe --expected-faults > out/expected_faults.txt 2>/dev/null
rm -f out/tma_probe out/*.o
gzip -f out/native_bytes.bin 2>/dev/null
{
  echo "gpu: $(cat out/gpu.txt)"
  for k in validate load load_cta store reduce replace; do
    echo "$k: $(grep -c " $k SAME\| validate .* SAME" <(grep " $k " out/results.txt)) same, $(grep " $k " out/results.txt | grep -c DIFFER) differ, $(grep " $k " out/results.txt | grep -c ENCODE) encode-refused, $(grep " $k " out/results.txt | grep -c SKIP) skipped"
  done
  echo "faults: $(grep -c FAULT out/results.txt)"
  grep " validate " out/results.txt | grep DIFFER | head -40
  grep -v " validate " out/results.txt | grep "DIFFER\|FAULT\|ENCODE" | head -60
} >> out/summary.txt
cat out/summary.txt
# Faults are expected where the hardware refuses the case (the translation traps there too).
unexpected=$(grep -o "^case [0-9]* FAULT" out/results.txt | awk '{print $2}' | sort -u | comm -23 - <(sort -u out/expected_faults.txt))
echo "expected faults: $(grep -c FAULT out/results.txt) of $(wc -l < out/expected_faults.txt); unexpected: ${unexpected:-none}" | tee -a out/summary.txt
if grep " validate \| load\| store \| reduce \| replace " out/results.txt | grep -q "DIFFER" || [ -n "$unexpected" ] || grep -q "stopped\|FAILED" out/summary.txt; then
  echo "FAIL"
else
  echo "PASS (every tensor copy, store, reduction and map edit identical, encoder answers identical, faults only where the hardware refuses)"
fi
