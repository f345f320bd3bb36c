#!/bin/bash
# bash run.sh <dir>: the native mbarrier (mbar_seq.cu) against ptx2hip's portable emulation
# (trans/mbar_seq.cu: `ptx2hip translate --emit replace --target portable --out-dir trans
# mbar_seq.cu`, made before) on an H100/H200; results in <dir>/out/.
D="${1:-.}"; cd "$D" || exit 1
mkdir -p out
( nvcc -gencode arch=compute_90a,code=sm_90a -O2 -o out/native mbar_seq.cu > out/native_build.txt 2>&1 || echo "native build FAILED" >> out/summary.txt ) &
( nvcc -gencode arch=compute_90a,code=sm_90a -O2 -o out/emulated trans/mbar_seq.cu > out/emulated_build.txt 2>&1 || echo "emulated build FAILED" >> out/summary.txt ) &
wait
for v in native emulated; do
  if [ -x out/$v ]; then timeout 120 ./out/$v out/$v.bin > out/$v.txt 2>&1; echo "$v: rc $? $(cat out/$v.txt)" >> out/summary.txt; fi
done
if [ -f out/native.bin ] && [ -f out/emulated.bin ]; then
  if cmp -s out/native.bin out/emulated.bin; then echo "answers: IDENTICAL" >> out/summary.txt
  else echo "answers: DIFFER ($(cmp -l out/native.bin out/emulated.bin | wc -l) bytes)" >> out/summary.txt; fi
  gzip -kf out/native.bin out/emulated.bin
fi
rm -f out/native out/emulated out/native.bin out/emulated.bin
cat out/summary.txt
