#!/usr/bin/env python3
"""Static AMD instruction counts of the wgmma translations (rules/warpgroup.toml).

Usage: bench/wgmma_cost.py [--tool BIN] [--clang CLANG] [--out DIR] [--n 8,64,256]

For each type class (f16 with f32 and f16 accumulators, bf16, tf32, e4m3 with f32 and f16
accumulators, s8; A and B descriptors, K-major) and each N, one kernel of one warpgroup
(`__launch_bounds__(128)`) loads the accumulators from global memory, runs the statement as
CUTLASS writes it (translated by `ptx2hip translate --target amd --emit replace`) and stores them
back; a twin kernel does the loads and stores alone. Both are compiled with
`clang -x hip --cuda-device-only -O2 -S` for gfx942 and gfx1100, and the statement's cost is the
difference of their instruction counts (instructions between a kernel's label and its end, as
isa_count counts them). The column blocks of the translation are a loop that is not unrolled
(ptx2hip_wgmma_each): the table gives the static count, the loop body (instructions from its
label to its backward branch) and the instructions one thread executes, static + (trips - 1) x
body, with N/8 blocks in trips of U (4 for f16/bf16/tf32/s8 where N/8 allows, else 2 or 1;
fp8 1). Also the scratch bytes (spills), the compile time of the file, and the counts per block.
"""
import argparse
import os
import re
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (label, A/B type, D type, K, blocks per loop trip at most)
KINDS = [
    ("f16 -> f32", "f16", "f32", 16, 4),
    ("f16 -> f16", "f16", "f16", 16, 4),
    ("bf16 -> f32", "bf16", "f32", 16, 4),
    ("tf32 -> f32", "tf32", "f32", 8, 4),
    ("e4m3 -> f32", "e4m3", "f32", 32, 1),
    ("e4m3 -> f16", "e4m3", "f16", 32, 1),
    ("s8 -> s32", "s8", "s32", 32, 4),
]


def kernel(k, ab, dt, kk, n):
    regs = n // 4 if dt == "f16" else n // 2
    letter, ctype = ("+f", "float") if dt == "f32" else ("+r", "uint32_t")
    imms = {"f16": ["1", "1", "0", "0"], "bf16": ["1", "1", "0", "0"], "tf32": ["1", "1"], "e4m3": ["1", "1"]}.get(ab, [])
    d = "{" + ", ".join(f"%{i}" for i in range(regs)) + "}"
    form = f"wgmma.mma_async.sync.aligned.m64n{n}k{kk}.{dt}.{ab}.{ab}"
    ptx = f"{{ .reg .pred p; setp.ne.b32 p, %{regs + 2}, 0; {form} {d}, %{regs}, %{regs + 1}, p{''.join(', ' + v for v in imms)}; }}"
    outs = ", ".join(f'"{letter}"(d[{i}])' for i in range(regs))
    vs = ", ".join(f'"+v"(x[{i}])' for i in range(regs))
    return f"""
// {form}
extern "C" __global__ void __launch_bounds__(128) form_{k}({ctype}* d, uint64_t da, uint64_t db, int sd) {{
  asm volatile("{ptx}" : {outs} : "l"(da), "l"(db), "r"(sd));
}}
extern "C" __global__ void __launch_bounds__(128) base_{k}({ctype}* d) {{
  {ctype} x[{regs}];
  for (int j = 0; j < {regs}; ++j) x[j] = d[j];
  asm volatile("" : {vs});
  for (int j = 0; j < {regs}; ++j) d[j] = x[j];
}}
"""


def functions(asm):
    """Per kernel label: its instruction lines."""
    out, cur = {}, None
    for line in asm.split("\n"):
        m = re.match(r"^((form|base)_\d+):", line)
        if m:
            cur = m.group(1)
            out[cur] = []
        elif cur and line.startswith(".Lfunc_end"):
            cur = None
        elif cur:
            out[cur].append(line.strip())
    return out


def count(lines):
    """Instructions, and the bodies of the loops (label to backward branch)."""
    n, labels, loops = 0, {}, []
    for s in lines:
        m = re.match(r"^(\.LBB\w+):", s)
        if m:
            labels[m.group(1)] = n
            continue
        if not s or s.startswith((".", ";", "//")) or s.endswith(":"):
            continue
        if s.startswith("s_setpc_b64") or s.startswith("s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)"):
            continue
        m = re.match(r"s_(?:cbranch_\w+|branch)\s+(\.LBB\w+)", s)
        if m and m.group(1) in labels:
            loops.append(n + 1 - labels[m.group(1)])
        n += 1
    return n, loops


def scratch(asm):
    """Per kernel label: its ScratchSize."""
    out, cur = {}, None
    for line in asm.split("\n"):
        m = re.match(r"^((form|base)_\d+):", line)
        if m:
            cur = m.group(1)
        m = re.search(r"; ScratchSize: (\d+)", line)
        if m and cur:
            out.setdefault(cur, int(m.group(1)))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", default=os.path.join(ROOT, "target", "release", "ptx2hip"))
    ap.add_argument("--clang", default="clang-19")
    ap.add_argument("--out", help="keep the sources and assembly here")
    ap.add_argument("--n", default="8,64,256")
    args = ap.parse_args()
    ns = [int(x) for x in args.n.split(",")]
    work = args.out or tempfile.mkdtemp()
    os.makedirs(work, exist_ok=True)
    cases = [(label, ab, dt, kk, u, n) for (label, ab, dt, kk, u) in KINDS for n in ns]
    src = os.path.join(work, "wgmma_cost.cu")
    with open(src, "w") as f:
        f.write("#include <stdint.h>\n")
        for k, (_, ab, dt, kk, _, n) in enumerate(cases):
            f.write(kernel(k, ab, dt, kk, n))
    out = os.path.join(work, "amd")
    subprocess.run([args.tool, "translate", "--target", "amd", "--emit", "replace", "--no-provenance", "--out-dir", out, src],
                   check=True, capture_output=True)
    hip = os.path.join(work, "wgmma_cost.hip")
    os.replace(os.path.join(out, "wgmma_cost.cu"), hip)
    results = {}
    for arch in ("gfx942", "gfx1100"):
        asm_path = os.path.join(work, f"wgmma_cost-{arch}.s")
        start = time.time()
        subprocess.run([args.clang, "-x", "hip", "-std=c++17", "-include", "hip/hip_runtime.h", "--cuda-device-only", "-nogpulib",
                        "-O2", "-S", f"--offload-arch={arch}", hip, "-o", asm_path], check=True)
        seconds = time.time() - start
        asm = open(asm_path).read()
        fns, spill = functions(asm), scratch(asm)
        for k, (_, _, _, _, u, n) in enumerate(cases):
            total, loops = count(fns[f"form_{k}"])
            base, _ = count(fns[f"base_{k}"])
            blocks = n // 8
            u = next(x for x in (u, 2, 1) if x <= u and blocks % x == 0)
            body = max(loops) if loops else 0
            executed = total - base + (blocks // u - 1) * body if body else total - base
            results[(arch, k)] = (total - base, body, executed, spill.get(f"form_{k}", 0))
        results[(arch, "time")] = seconds
    print(f"Compile time of the {len(cases)} kernels: gfx942 {results[('gfx942', 'time')]:.1f} s, gfx1100 {results[('gfx1100', 'time')]:.1f} s\n")
    print("| form | N | gfx942 static / loop body / executed / scratch B | per block executed | gfx1100 static / loop body / executed / scratch B | per block executed |")
    print("|---|---:|---|---:|---|---:|")
    for k, (label, _, _, _, _, n) in enumerate(cases):
        cells = []
        for arch in ("gfx942", "gfx1100"):
            s, b, e, sp = results[(arch, k)]
            cells.append(f"{s:,} / {b:,} / {e:,} / {sp}")
            cells.append(f"{e // (n // 8):,}")
        print(f"| {label} | {n} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
