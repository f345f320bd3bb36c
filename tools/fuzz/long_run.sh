#!/usr/bin/env bash
# The long fuzz run of docs/FUZZING.md: every target of tests/it/fuzz.rs with CASES cases in all (default
# 1,000,000), split over JOBS processes (default: the cores) with the fixed seeds 1..JOBS, so that any
# failure is replayed by `PROPTEST_RNG_SEED=<seed> PROPTEST_CASES=<per process> cargo test --release
# --test it fuzz::<target>`. A failing process's log holds the shrunk input.
#
# Usage: tools/fuzz/long_run.sh FUZZ_TEST_BINARY [CASES] [JOBS] [TARGET_REGEX]
#   FUZZ_TEST_BINARY: `cargo test --release --test it --no-run` prints its path. It reads the corpus
#   from the checkout it was built in (CARGO_MANIFEST_DIR): run it there, or link that path to a copy.
set -uo pipefail
bin=$1
cases=${2:-1000000}
jobs=${3:-$(nproc)}
only=${4:-.}
per=$(((cases + jobs - 1) / jobs))
logs=${LOGS:-fuzz-logs}
mkdir -p "$logs"
echo "date: $(date -u +%Y-%m-%dT%H:%MZ), cores: $(nproc), jobs: $jobs, cases per process: $per"
status=0
for target in $("$bin" --list 2>/dev/null | sed -n 's/^fuzz::\(fuzz_[a-z_]*\): test$/\1/p' | grep -E "$only"); do
  start=$(date +%s)
  seq 1 "$jobs" | xargs -P "$jobs" -I{} sh -c \
    "PROPTEST_CASES=$per PROPTEST_RNG_SEED={} '$bin' --exact fuzz::$target -q > '$logs/${target}_{}.log' 2>&1; echo \$? > '$logs/${target}_{}.rc'"
  failed=$(cat "$logs/${target}"_*.rc | grep -vc '^0$')
  echo "$target: $((per * jobs)) cases, seeds 1..$jobs, $(($(date +%s) - start)) s, failing processes: $failed"
  if [ "$failed" -ne 0 ]; then
    status=1
    grep -l -v '^0$' "$logs/${target}"_*.rc | sed 's/\.rc$/.log/' | head -3 | xargs -r tail -n 40
  fi
done
exit $status
