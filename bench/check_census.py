#!/usr/bin/env python3
"""What `ptx2hip check --format json` reports on the census repositories, for any build (issue 12).

Usage: bench/check_census.py BINARY [--repos DIR] [--tsv FILE] [REPO...]

`bench/census.py` accounts for every asm keyword through the scanner's own API (statements,
diagnostics, skipped entries), which older builds do not have. This script needs only the command
line, so a build before and after a change can be compared on the same trees: per repository and
in total, the asm keywords in code (census.py's lexer), the findings `check` reports (statements
and scan diagnostics), the keywords with no finding on their line (skipped on purpose or dropped:
`check` alone cannot tell which), findings whose instructions look like no PTX (census.py's
opcode test), PTX the parser rejects, templates that cannot be read, and the statements reported
translatable, also as a share of the statements whose instructions were read (as
bench/real_world_share.py counts it).
"""
import argparse
import collections
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from census import PTX_ROOTS, code_keywords, source_files  # noqa: E402

# findings = statements + diagnostics; read = statements whose instructions were read.
COLUMNS = ["keywords", "findings", "diagnostics", "not_reported", "not_ptx", "rejected",
           "unresolved", "read", "translatable"]


def line_of(src, offsets):
    """1-based line of each offset."""
    lines, line, at = [], 1, 0
    for o in sorted(offsets):
        line += src.count(b"\n", at, o)
        at = o
        lines.append(line)
    return lines


def looks_like_ptx(instructions):
    return any(i.split(".")[0].lower() in PTX_ROOTS or "." in i for i in instructions)


def census(binary, path):
    c = collections.Counter()
    lines = collections.defaultdict(set)
    for p in source_files(path):
        with open(p, "rb") as f:
            src = f.read()
        if b"asm" in src:
            ks = code_keywords(src)
            c["keywords"] += len(ks)
            lines[p] = line_of(src, ks)
    run = subprocess.run([binary, "check", "--format", "json", path], capture_output=True)
    findings = json.loads(run.stdout or b"[]")
    reported = collections.defaultdict(set)
    for f in findings:
        reported[f["file"]].add(f["line"])
        c["findings"] += 1
        message = f.get("message", "")
        instructions = f.get("instructions") or []
        if not message.startswith("non-portable inline PTX"):
            c["diagnostics"] += 1
        elif "PTX syntax error" in message:
            c["rejected"] += 1
        elif "template cannot be read" in message:
            c["unresolved"] += 1
        if instructions:
            c["read"] += 1
            if not looks_like_ptx(instructions):
                c["not_ptx"] += 1
        if f.get("status") == "translatable":
            c["translatable"] += 1
    for p, ls in lines.items():
        c["not_reported"] += sum(1 for line in ls if line not in reported[p])
    return c


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--repos", default="/work/repos")
    ap.add_argument("--tsv", default="/work/shared/reference/real-world-repos.tsv")
    ap.add_argument("only", nargs="*")
    args = ap.parse_args()
    totals = collections.Counter()
    print("| repository | " + " | ".join(COLUMNS) + " |")
    print("|---" * (len(COLUMNS) + 1) + "|")
    with open(args.tsv) as f:
        rows = [line.split("\t")[0] for line in f.read().splitlines()[1:]]
    for name in rows:
        if args.only and name not in args.only:
            continue
        c = census(args.binary, os.path.join(args.repos, name.replace("/", "+")))
        totals.update(c)
        print(f"| {name} | " + " | ".join(str(c[k]) for k in COLUMNS) + " |", flush=True)
    share = 100 * totals["translatable"] / max(totals["read"], 1)
    print("| **total** | " + " | ".join(str(totals[k]) for k in COLUMNS) + " |")
    print(f"\ntranslatable / statements read: {totals['translatable']} / {totals['read']} = {share:.1f}%")


if __name__ == "__main__":
    main()
