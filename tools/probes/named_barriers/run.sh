#!/bin/bash
# bash run.sh <dir>: counted barriers (issue 22, S030-S033), native PTX against ptx2hip's portable
# emulation (trans/: `ptx2hip translate --emit replace --target portable`), on an H100/H200.
#  - named_barriers.cu (corpus/): warp-specialised producer/consumer kernel, every byte compared
#  - stress.cu: 14 barrier phases per iteration per block; sums compared, errors must be 0
# Make the directory with prepare.sh (copies the corpus kernel, translates both files).
D="${1:-.}"; cd "$D" || exit 1
mkdir -p out; : > out/summary.txt
NV="nvcc -gencode arch=compute_90a,code=sm_90a -O2"
build() { $NV -DCORPUS_FILE="\"$2\"" -o out/$1 $3 > out/$1_build.txt 2>&1 || echo "$1 build FAILED" >> out/summary.txt; }
build named_native named_barriers.cu harness_named.cu &
build named_emulated trans/named_barriers.cu harness_named.cu &
build stress_native stress.cu harness_stress.cu &
build stress_emulated trans/stress.cu harness_stress.cu &
wait
ok=1
for v in named_native named_emulated; do
  if [ -x out/$v ]; then timeout 120 ./out/$v out/$v.bin 3 > out/$v.txt 2>&1; rc=$?; echo "$v: rc $rc $(tail -c 400 out/$v.txt)" >> out/summary.txt; [ $rc = 0 ] || ok=0; else ok=0; fi
done
for v in stress_native stress_emulated; do
  for it in 1000 100000; do
    if [ -x out/$v ]; then timeout 240 ./out/$v out/${v}_$it.bin $it > out/${v}_$it.txt 2>&1; rc=$?; echo "$v $it: rc $rc $(tail -c 400 out/${v}_$it.txt)" >> out/summary.txt; [ $rc = 0 ] || ok=0; else ok=0; fi
  done
done
cmpf() {
  if [ -f out/$1.bin ] && [ -f out/$2.bin ]; then
    if cmp -s out/$1.bin out/$2.bin; then echo "$1 vs $2: IDENTICAL ($(stat -c %s out/$1.bin) bytes)" >> out/summary.txt
    else echo "$1 vs $2: DIFFER ($(cmp -l out/$1.bin out/$2.bin | wc -l) bytes)" >> out/summary.txt; ok=0; fi
  else echo "$1 vs $2: missing" >> out/summary.txt; ok=0; fi
}
cmpf named_native named_emulated
cmpf stress_native_1000 stress_emulated_1000
cmpf stress_native_100000 stress_emulated_100000
gzip -f out/*.bin
rm -f out/named_native out/named_emulated out/stress_native out/stress_emulated
[ $ok = 1 ] && echo "PASS" >> out/summary.txt || echo "FAIL" >> out/summary.txt
cat out/summary.txt
