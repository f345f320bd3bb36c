#!/usr/bin/env bash
# End-to-end verification, step 2 (on an NVIDIA GPU): for every harness, build it against the
# original corpus file and against its translation, run both over the same inputs and compare all
# output bytes. Prints one line per file and a summary; exits 1 on any mismatch.
# Usage: run.sh [STAGING_DIR]   (the directory tools/e2e/gen.py wrote)
set -uo pipefail
cd "${1:-$(dirname "$0")}"
echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
echo "nvcc: $(nvcc --version | tail -1)"
status=0
build() { nvcc -std=c++17 -arch=sm_90 -O2 -w -DCORPUS_FILE="\"$1/$2\"" "$3" -o "$4" 2> "$4.log"; }
python3 - <<'PY' > files.txt
import json
for e in json.load(open("manifest.json")):
    print(e["file"], e["harness"], e["statements"], e["translated"])
PY
total_files=0; total_stmts=0; total_trans=0; total_bad=0
while read -r file harness stmts translated; do
  base=${harness%.cu}
  (build orig "$file" "$harness" "$base.orig" && build trans "$file" "$harness" "$base.trans") &
done < files.txt
wait
while read -r file harness stmts translated; do
  base=${harness%.cu}
  if [ ! -x "$base.orig" ] || [ ! -x "$base.trans" ]; then
    echo "$file: BUILD FAILED"; cat "$base.orig.log" "$base.trans.log" 2>/dev/null | head -20; status=1; continue
  fi
  # A kernel that waits on flags (corpus/sys_flags.cu) must not stall the whole run if it hangs.
  timeout 120 ./"$base.orig" "$base.orig.bin" && timeout 120 ./"$base.trans" "$base.trans.bin" || { echo "$file: RUN FAILED"; status=1; continue; }
  bytes=$(stat -c %s "$base.orig.bin")
  bad=$(cmp -l "$base.orig.bin" "$base.trans.bin" 2>/dev/null | wc -l)
  echo "$file: statements $stmts, translated $translated, output bytes $bytes, mismatching bytes $bad"
  total_files=$((total_files + 1)); total_stmts=$((total_stmts + stmts)); total_trans=$((total_trans + translated)); total_bad=$((total_bad + bad))
  [ "$bad" -eq 0 ] || status=1
done < files.txt
echo "summary: files $total_files, statements $total_stmts, translated $total_trans, mismatching bytes $total_bad"
exit $status
