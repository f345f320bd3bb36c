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
# Builds target sm_90a through an explicit compute_90a: wgmma and the other arch-specific Hopper
# instructions need it (nvcc 13's -arch=sm_90a gave ptxas compute_90 PTX, which refuses them).
# Every translated file compiles with nvcc (issue 18: a portable translation must build on NVIDIA
# too), not only the files with a harness: headers included. An original that nvcc cannot compile
# on its own is reported and its translation is not held to it.
compile_one() {
  f=$(basename "$1")
  if ! nvcc -std=c++17 -gencode arch=compute_90a,code=sm_90a -x cu -c "orig/$f" -o /dev/null > /dev/null 2>&1; then echo skipped > "compile_$f.status"
  elif nvcc -std=c++17 -gencode arch=compute_90a,code=sm_90a -x cu -c "$1" -o /dev/null > "compile_$f.log" 2>&1; then echo ok > "compile_$f.status"
  else echo failed > "compile_$f.status"; fi
}
export -f compile_one
ls trans/* | xargs -P 16 -I{} bash -c 'compile_one {}'
compiled=0; compile_failed=0; compile_skipped=0
for t in trans/*; do
  f=$(basename "$t")
  case $(cat "compile_$f.status") in
    ok) compiled=$((compiled + 1)) ;;
    skipped) echo "$f: original does not compile on its own; translation not checked"; compile_skipped=$((compile_skipped + 1)) ;;
    *) echo "$f: TRANSLATION DOES NOT COMPILE WITH NVCC"; head -20 "compile_$f.log"; compile_failed=$((compile_failed + 1)); status=1 ;;
  esac
done
echo "nvcc compile: $compiled translated files compile, $compile_failed do not, $compile_skipped originals not standalone"
build() { nvcc -std=c++17 -gencode arch=compute_90a,code=sm_90a -O2 -w -DCORPUS_FILE="\"$1/$2\"" "${@:5}" "$3" -o "$4" 2> "$4.log"; }
python3 - <<'PY' > files.txt
import json
for e in json.load(open("manifest.json")):
    print(e["file"], e["harness"], e["statements"], e["translated"], e.get("amd_translated", "-"))
PY
total_files=0; total_stmts=0; total_trans=0; total_bad=0
while read -r file harness stmts translated amd; do
  base=${harness%.cu}
  (build orig "$file" "$harness" "$base.orig" && build trans "$file" "$harness" "$base.trans") &
  # The --target amd translation on this GPU through the shim (a wave32 AMD wave, modelled).
  # The tensor model's constexpr member functions are host-only to nvcc: --expt-relaxed-constexpr.
  if [ "$amd" != "-" ]; then build amd "$file" "$harness" "$base.amd" -I. --expt-relaxed-constexpr & fi
done < files.txt
wait
amd_files=0; amd_stmts=0; amd_bad=0
while read -r file harness stmts translated amd; do
  [ "$amd" != "-" ] || continue
  base=${harness%.cu}
  if [ ! -x "$base.amd" ]; then
    echo "$file (--target amd through the shim): BUILD FAILED"; head -30 "$base.amd.log"; status=1; continue
  fi
  timeout 120 ./"$base.orig" "$base.orig.bin" && timeout 120 ./"$base.amd" "$base.amd.bin" || { echo "$file (--target amd): RUN FAILED"; status=1; continue; }
  bad=$(cmp -l "$base.orig.bin" "$base.amd.bin" 2>/dev/null | wc -l)
  echo "$file (--target amd through the shim): translated $amd of $stmts, mismatching bytes $bad"
  amd_files=$((amd_files + 1)); amd_stmts=$((amd_stmts + amd)); amd_bad=$((amd_bad + bad))
  [ "$bad" -eq 0 ] || status=1
done < files.txt
echo "summary --target amd on this GPU: files $amd_files, translated statements $amd_stmts, mismatching bytes $amd_bad"
while read -r file harness stmts translated amd; do
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
