#!/bin/bash
# H100 (sm_90) recordings for the half-precision set / tanh / ex2 rules (tools/half_approx/README.md):
#  1. golden vectors of every rule of the `half` family (H001-H029) with ptx2hip's own generator
#     (`vectors gen`, its run.sh, `vectors import`): out/vec/half.bin.gz (+ manifest.json when
#     ptxas rejects forms), logs in out/logs;
#  2. exhaustive tables of tanh/ex2.approx on f16/bf16 (all 65,536 inputs; x2 forms: both lanes
#     exhaustive plus 65,536 random words), the f32 approximations on the same values, and probes
#     of forms that may need sm_100 (ex2 without .ftz on bf16, bf16x2 <-> fp8 conversions):
#     out/tables/<name>.bin.gz (u32 count, then (input, output) u32 pairs), SASS in out/sass.
# usage: bash run.sh DIR, DIR holding this script, table.cu, tables.tsv and the stripped `vectors`
# binary built from the same commit (docs/VECTORS.md)
set -u
D=$(cd "${1:-$(dirname "$0")}" && pwd)
OUT=$D/out
W=/tmp/numeric_rec_work
rm -rf "$W" "$OUT"
mkdir -p "$W/bin" "$W/src" "$W/tab" "$OUT/vec" "$OUT/logs" "$OUT/tables" "$OUT/sass"
RULES=""
for c in H001 H002 H003 H004 H005 H006 H007 H008 H020 H021 H022 H023 H024 H025 H026 H027 H028 H029; do
  RULES="$RULES --rule $c"
done
chmod +x "$D/vectors"

echo "== golden vectors"
"$D/vectors" gen --out "$W/gen" $RULES > "$OUT/logs/gen.txt" 2>&1 || echo "gen failed"
tail -1 "$OUT/logs/gen.txt"
# The generated run.sh keeps its binaries in /tmp/p2h: give this run its own directory.
sed -i "s#/tmp/p2h#$W/p2h#g" "$W/gen/run.sh"
RES="$W/res" bash "$W/gen/run.sh" > "$OUT/logs/golden_run.txt" 2>&1
tail -2 "$OUT/logs/golden_run.txt"
"$D/vectors" import --gen "$W/gen" --results "$W/res" --vectors "$OUT/vec" $RULES > "$OUT/logs/import.txt" 2>&1 || echo "import failed"
grep -c REJECTED "$OUT/logs/import.txt" | sed 's/^/rejected forms: /'
cp "$W/res/gpu.txt" "$W/res/nvcc.txt" "$W/res/date.txt" "$OUT/logs/" 2>/dev/null
ls -la "$OUT/vec"

echo "== approximation tables"
while IFS=$'\t' read -r name kind mode stmt; do
  printf '#define KIND %s\n#define MODE %s\n#define STMT "%s"\n#include "%s/table.cu"\n' \
    "$kind" "$mode" "$stmt" "$D" > "$W/src/$name.cu"
done < "$D/tables.tsv"
cut -f1 "$D/tables.tsv" | xargs -P 16 -I{} sh -c \
  "nvcc -gencode arch=compute_90a,code=sm_90a -O2 -o '$W/bin/{}' '$W/src/{}.cu' > '$OUT/logs/{}.compile.txt' 2>&1 || echo '{}: did not compile'"
ok=0
for name in $(cut -f1 "$D/tables.tsv"); do
  [ -x "$W/bin/$name" ] || continue
  cuobjdump -sass "$W/bin/$name" > "$OUT/sass/$name.sass" 2>&1
  if "$W/bin/$name" "$W/tab/$name.bin" > /dev/null 2> "$OUT/logs/$name.run.txt"; then
    gzip -9 -c "$W/tab/$name.bin" > "$OUT/tables/$name.bin.gz"; ok=$((ok + 1))
  else
    echo "$name: failed at run time"
  fi
done
echo "tables recorded: $ok of $(wc -l < "$D/tables.tsv")"
du -sh "$OUT"

pass=1
[ -s "$OUT/vec/half.bin.gz" ] || { echo "no half.bin.gz"; pass=0; }
for t in tanh_f16 tanh_bf16 tanh_f16x2 tanh_bf16x2 ex2_f16 ex2_f16x2 ex2_ftz_bf16 ex2_ftz_bf16x2; do
  [ -s "$OUT/tables/$t.bin.gz" ] || { echo "missing table $t"; pass=0; }
done
[ $pass = 1 ] && echo PASS || echo FAIL
