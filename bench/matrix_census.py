#!/usr/bin/env python3
"""What ptx2hip makes of the matrix-fragment forms of the 49 real repositories (issue 20).

Usage: bench/matrix_census.py [--forms TSV] [--tool BIN]

Reads the per-form census `real-world-forms.tsv` (opcode form as written, repositories,
statement count), keeps the sm_80 tensor-core family (`mma`, `ldmatrix`, `stmatrix`, `movmatrix`,
`wmma`), asks `ptx2hip explain FORM` whether a rule translates the form or why not, and prints a
Markdown summary: statements translated, and the statements left with each reason. It judges
forms, not statements: a statement of a translated form whose operands do not fit (a register of
the wrong width) would still be refused, which the per-statement census (bench/census.py over the
fetched trees) counts.
"""
import argparse
import collections
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FAMILY = ("mma", "ldmatrix", "stmatrix", "movmatrix", "wmma")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--forms", default=os.path.join(ROOT, "..", "shared", "reference", "real-world-forms.tsv"))
    ap.add_argument("--tool", default=os.path.join(ROOT, "target", "release", "ptx2hip"))
    args = ap.parse_args()
    rows = []
    with open(args.forms) as f:
        next(f)
        for line in f:
            cols = line.rstrip("\n").split("\t")
            form, repos, stmts = cols[1], int(cols[2]), int(cols[4])
            if form.split(".")[0] in FAMILY:
                rows.append((form, repos, stmts))
    translated = collections.Counter()
    left = collections.defaultdict(list)
    for form, _, stmts in rows:
        out = subprocess.run([args.tool, "explain", form], capture_output=True, text=True).stdout
        first = out.split("\n")[0]
        if " is translated by " in first:
            translated[first.split(" is translated by ")[1].split(" ")[0]] += stmts
        else:
            reason = first.split(" is not translated: ", 1)[-1]
            left[reason[:160]].append((form, stmts))
    total = sum(s for _, _, s in rows)
    done = sum(translated.values())
    print(f"sm_80 tensor-core family: {len(rows)} forms, {total} statements; "
          f"translated {done} ({100 * done / max(total, 1):.0f} %), left {total - done}\n")
    print("| rule | statements |\n|---|---|")
    for code, n in sorted(translated.items()):
        print(f"| {code} | {n} |")
    print("\n| left as written because | statements | forms |\n|---|---|---|")
    for reason, forms in sorted(left.items(), key=lambda kv: -sum(s for _, s in kv[1])):
        names = ", ".join(f"`{f}`" for f, _ in forms[:3]) + (" ..." if len(forms) > 3 else "")
        print(f"| {reason} | {sum(s for _, s in forms)} | {names} |")


if __name__ == "__main__":
    main()
