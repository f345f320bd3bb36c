#!/usr/bin/env bash
# Speed of `ptx2hip check` against `grep -rlE 'asm|__asm'` on real source trees (issue 12).
# Usage: bench/real_tree.sh [-n RUNS] DIR...   (e.g. the eight trees named in BENCHMARKS.md)
# PTX2HIP=A[:B...] times those builds (interleaved, e.g. before:after) instead of building this
# checkout.
# Both commands get the same directories, in the same run, with a warm page cache. Each is run
# RUNS times (default 11), alternating; the table gives the median wall time (high-resolution
# clock) and the median CPU time (user + system, from getrusage of the child), with the load
# average before and after: on a shared machine, compare only figures from one run.
set -euo pipefail
runs=11
if [ "${1:-}" = "-n" ]; then runs=$2; shift 2; fi
[ $# -gt 0 ] || { echo "usage: $0 [-n RUNS] DIR..." >&2; exit 2; }
here=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "${PTX2HIP:-}" ]; then
  cargo build --release --manifest-path "$here/Cargo.toml" -q
fi
bin="${PTX2HIP:-$here/target/release/ptx2hip}"
python3 - "$runs" "$bin" "$@" <<'PY'
import os, resource, statistics, subprocess, sys, time
runs, binaries, dirs = int(sys.argv[1]), sys.argv[2].split(":"), sys.argv[3:]
GREP = "grep -rlE 'asm|__asm'"
cmds = {GREP: ["grep", "-rlE", "asm|__asm", *dirs]}
for b in binaries:
    cmds["ptx2hip check" + (f" ({b})" if len(binaries) > 1 else "")] = [b, "check", *dirs]
def once(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu
load_before = os.getloadavg()[0]
for cmd in cmds.values():  # warm the page cache
    once(cmd)
samples = {name: [] for name in cmds}
for _ in range(runs):
    for name, cmd in cmds.items():
        samples[name].append(once(cmd))
load_after = os.getloadavg()[0]
size = sum(os.path.getsize(os.path.join(d, f)) for top in dirs for d, _, fs in os.walk(top) for f in fs
           if os.path.isfile(os.path.join(d, f)))
med = {n: (statistics.median(w for w, _ in s), statistics.median(c for _, c in s)) for n, s in samples.items()}
g = med[GREP]
print(f"trees: {' '.join(os.path.basename(d.rstrip('/')) for d in dirs)} ({size / 1e6:.0f} MB); "
      f"{runs} runs each, medians; load average {load_before:.2f} before, {load_after:.2f} after; {os.cpu_count()} CPUs")
print()
print("| command | wall (s) | CPU (s) |")
print("|---|---|---|")
for name, (w, c) in med.items():
    ratio = "" if name == GREP else f" (**{w / g[0]:.2f}x** / **{c / g[1]:.2f}x** grep)"
    shown = name.replace("|", "\\|")
    print(f"| {shown}{ratio} | {w:.3f} | {c:.3f} |")
PY
