#!/usr/bin/env python3
"""What `ptx2hip check` makes of every wgmma form of the 49 real repositories (issue 21).

Usage: bench/wgmma_census.py [--forms TSV] [--tool BIN] [--keep FILE]

Reads the per-form census `real-world-forms.tsv`, keeps the forms of `wgmma`, writes one CUDA
file with one statement per form as CUTLASS writes it (D `"+f"`/`"+r"`, descriptors `"l"`, scale-d
a predicate set from an `"r"` operand, the immediates `"n"` operands; sparse forms with their
metadata and selector), runs `ptx2hip check --format json` on it and prints a Markdown summary:
the census statements of the translated forms per rule, and those left with each reason. The
operand counts follow the form (D: N/2 registers, N/4 for f16 accumulators); A is a descriptor
(the census names forms, and A in registers has the same name).
"""
import argparse
import collections
import json
import os
import re
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def statement(form):
    """One asm statement of `form` in CUTLASS's spelling."""
    mods = form.split(".")
    shape = next(m for m in mods if re.fullmatch(r"m\d+n\d+k\d+", m))
    n = int(re.fullmatch(r"m\d+n(\d+)k\d+", shape).group(1))
    types = [m for m in mods if m in ("f32", "f16", "s32", "bf16", "tf32", "e4m3", "e5m2", "s8", "u8", "b1")]
    dtype, atype = types[0], types[1]
    sparse = "sp" in mods
    regs = n // 4 if dtype == "f16" else n // 2
    letter, ctype = ("+f", "float") if dtype == "f32" else ("+r", "uint32_t")
    ops = [f'"{letter}"(d[{i}])' for i in range(regs)]
    text = ["{" + ", ".join(f"%{i}" for i in range(regs)) + "}"]
    ops.append('"l"(desc_a)')
    text.append(f"%{len(ops) - 1}")
    ops.append('"l"(desc_b)')
    text.append(f"%{len(ops) - 1}")
    if sparse:
        ops.append('"r"(meta)')
        text.append(f"%{len(ops) - 1}")
        text.append("0")
    ops.append('"r"(scale_d)')
    setp = f"setp.ne.b32 p, %{len(ops) - 1}, 0;"
    text.append("p")
    if atype in ("f16", "bf16"):
        imms = ["int32_t(1)", "int32_t(1)", "int32_t(0)", "int32_t(0)"]
    elif atype in ("tf32", "e4m3", "e5m2"):
        imms = ["int32_t(1)", "int32_t(1)"]
    else:
        imms = []
    for v in imms:
        ops.append(f'"n"({v})')
        text.append(f"%{len(ops) - 1}")
    outs = [o for o in ops if o.startswith('"+')]
    ins = [o for o in ops if not o.startswith('"+')]
    ptx = f"{{ .reg .pred p; {setp} {form} {', '.join(text)}; }}"
    return ctype, f'  asm volatile("{ptx}" : {", ".join(outs)} : {", ".join(ins)});'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--forms", default=os.path.join(ROOT, "..", "shared", "reference", "real-world-forms.tsv"))
    ap.add_argument("--tool", default=os.path.join(ROOT, "target", "release", "ptx2hip"))
    ap.add_argument("--keep", help="also write the generated CUDA file here")
    args = ap.parse_args()
    rows = []
    with open(args.forms) as f:
        next(f)
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if cols[1].split(".")[0] == "wgmma":
                rows.append((cols[1], int(cols[4])))
    lines = ["#include <cstdint>"]
    for k, (form, _) in enumerate(rows):
        if form.split(".")[1] != "mma_async":
            tail = " %0" if "wait_group" in form else ""
            ops = ' :: "n"(0) : "memory"' if tail else ' ::: "memory"'
            lines.append(f'__device__ void form_{k}() {{ asm volatile("{form}{tail};"{ops}); }}')
            continue
        ctype, stmt = statement(form)
        lines.append(f"__device__ void form_{k}({ctype}* d, uint64_t desc_a, uint64_t desc_b, uint32_t meta, uint32_t scale_d) {{")
        lines.append(stmt)
        lines.append("}")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "wgmma_census.cu")
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        if args.keep:
            with open(args.keep, "w") as f:
                f.write("\n".join(lines) + "\n")
        out = subprocess.run([args.tool, "check", "--format", "json", path], capture_output=True, text=True).stdout
    findings = json.loads(out)
    translated = collections.Counter()
    left = collections.defaultdict(list)
    for k, (form, stmts) in enumerate(rows):
        fnd = next(x for x in findings if form in x["instructions"])
        if fnd["status"] == "translatable":
            translated[next(r for r in fnd["rules"] if r.startswith("Y"))] += stmts
        else:
            reason = fnd["message"].rsplit(f"`{form}`: ", 1)[-1]
            left[reason[:160]].append((form, stmts))
    total = sum(s for _, s in rows)
    done = sum(translated.values())
    print(f"wgmma: {len(rows)} forms, {total} statements; translated {done} ({100 * done / max(total, 1):.0f} %), left {total - done}\n")
    print("| rule | statements |\n|---|---|")
    for code, n in sorted(translated.items()):
        print(f"| {code} | {n} |")
    print("\n| left as written because | statements | forms |\n|---|---|---|")
    for reason, forms in sorted(left.items(), key=lambda kv: -sum(s for _, s in kv[1])):
        names = ", ".join(f"`{f}`" for f, _ in forms[:3]) + (" ..." if len(forms) > 3 else "")
        print(f"| {reason} | {sum(s for _, s in forms)} | {names} |")


if __name__ == "__main__":
    main()
