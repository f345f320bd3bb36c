#!/usr/bin/env bash
# Speed of `ptx2hip check` against `grep -rlE 'asm|__asm'` and `rg -l 'asm|__asm'` on real source
# trees (issues 12 and 23).
# Usage: bench/real_tree.sh [-n RUNS] [--count] DIR...
#   (the trees of BENCHMARKS.md: bench/check_speed.sh runs both sets and prints its table)
# PTX2HIP=A[:B...] times those builds (interleaved, e.g. before:after) instead of building this
# checkout.
# Every command gets the same directories, in the same run, with a warm page cache. Each is run
# RUNS times (default 11), interleaved; the table gives the median wall time (high-resolution
# clock) and the median CPU time (user + system, from getrusage of the child), with the load
# average before and after: on a shared machine, compare only figures from one run. `rg` is left
# out where it is not installed (`apt-get install ripgrep`).
# A build with `check`'s cache is timed twice: `--no-cache` (every file scanned and lowered, as a
# first run or CI on a clean clone does) and with a warm cache (a cache directory of its own,
# filled by the warm-up run: a second run over unchanged files, as in a pre-commit hook or an
# editor).
# --count adds each command's instructions, counted once under valgrind (callgrind, every thread,
# user space only: the kernel's reading of the files is not in it): a figure that other jobs on the
# machine do not change.
set -euo pipefail
runs=11
count=0
while [ $# -gt 0 ]; do
  case "$1" in
    -n) runs=$2; shift 2 ;;
    --count) count=1; shift ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || { echo "usage: $0 [-n RUNS] [--count] DIR..." >&2; exit 2; }
here=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "${PTX2HIP:-}" ]; then
  cargo build --release --manifest-path "$here/Cargo.toml" -q
fi
bin="${PTX2HIP:-$here/target/release/ptx2hip}"
python3 - "$runs" "$count" "$bin" "$@" <<'PY'
import os, re, resource, shutil, statistics, subprocess, sys, time
runs, count, binaries, dirs = int(sys.argv[1]), sys.argv[2] == "1", sys.argv[3].split(":"), sys.argv[4:]
GREP, RG = "grep -rlE 'asm|__asm'", "rg -l 'asm|__asm'"
cmds = {GREP: ["grep", "-rlE", "asm|__asm", *dirs]}
if shutil.which("rg"):
    cmds[RG] = ["rg", "-l", "asm|__asm", *dirs]
import tempfile
caches = tempfile.mkdtemp(prefix="ptx2hip-bench-cache-")
for k, b in enumerate(binaries):
    name = "ptx2hip check" + (f" ({b})" if len(binaries) > 1 else "")
    helptext = subprocess.run([b, "check", "--help"], capture_output=True, text=True).stdout
    if "--no-cache" in helptext:
        cmds[name + ", no cache"] = [b, "check", "--no-cache", *dirs]
        cmds[name + ", warm cache"] = [b, "check", "--cache-dir", os.path.join(caches, str(k)), *dirs]
    else:
        cmds[name] = [b, "check", *dirs]
def once(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu
def instructions(cmd):
    run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    found = re.search(r"Collected : (\d+)", run.stderr)
    return int(found.group(1)) if found else float("nan")
load_before = os.getloadavg()[0]
for cmd in cmds.values():  # warm the page cache
    once(cmd)
samples = {name: [] for name in cmds}
for _ in range(runs):
    for name, cmd in cmds.items():
        samples[name].append(once(cmd))
load_after = os.getloadavg()[0]
counted = {name: instructions(cmd) for name, cmd in cmds.items()} if count else {}
size = sum(os.path.getsize(os.path.join(d, f)) for top in dirs for d, _, fs in os.walk(top) for f in fs
           if os.path.isfile(os.path.join(d, f)))
med = {n: (statistics.median(w for w, _ in s), statistics.median(c for _, c in s)) for n, s in samples.items()}
top = os.path.commonpath([os.path.abspath(d) for d in dirs]) if len(dirs) > 1 else os.path.dirname(os.path.abspath(dirs[0]))
print(f"trees: {' '.join(os.path.relpath(os.path.abspath(d), top) for d in dirs)} "
      f"({size / 1e6:.0f} MB); {runs} runs each, interleaved, medians; load average {load_before:.2f} before, "
      f"{load_after:.2f} after; {os.cpu_count()} CPUs")
print()
refs = [r for r in (GREP, RG) if r in cmds]
head = "| command | wall (s) | CPU (s) |" + "".join(f" wall / CPU vs `{r.split()[0]}` |" for r in refs)
head += " instructions (M) |" if count else ""
print(head)
print("|" + "---|" * (head.count("|") - 1))
for name, (w, c) in med.items():
    ratios = "".join(f" {w / med[r][0]:.2f}x / {c / med[r][1]:.2f}x |" for r in refs)
    shown = "`" + name.replace("|", "\\|") + "`" if name in refs else name
    row = f"| {shown} | {w:.3f} | {c:.3f} |{ratios}"
    if count:
        row += f" {counted[name] / 1e6:,.0f} ({counted[name] / counted[GREP]:.1f}x grep) |"
    print(row)
shutil.rmtree(caches, ignore_errors=True)
PY
