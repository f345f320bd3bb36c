#!/usr/bin/env python3
"""What `ptx2hip check` makes of Hopper's asynchronous machinery on the census repositories (issue 22).

Usage: bench/async_census.py BINARY [--repos DIR] [--tsv FILE] [--md]

Every statement `check --format json` reports is put in the issue's family of its first
instruction that belongs to one (mbarrier, bulk and tensor copies, bulk reductions, tensor maps
and their fences, cluster barriers, st.async/red.async, mapa/getctarank, cp.async.mbarrier.arrive,
barriers with a thread count); statements with none are not counted. A barrier has a thread count
when its instruction in the statement's source text has a second operand (`bar.sync 1, 256;`):
the JSON names instructions without their operands. Per family: statements, translatable, and
the reasons of the others (the message after "not translated:", the instruction left out).
Run it with two builds to compare before and after.
"""
import argparse
import collections
import json
import os
import re
import subprocess

FAMILIES = [
    ("cp.async.bulk.tensor", re.compile(r"^cp\.async\.bulk\.(prefetch\.)?tensor\b")),
    ("cp.reduce.async.bulk.tensor", re.compile(r"^cp\.reduce\.async\.bulk\.tensor\b")),
    ("cp.reduce.async.bulk", re.compile(r"^cp\.reduce\.async\.bulk\b")),
    ("cp.async.mbarrier.arrive", re.compile(r"^cp\.async\.mbarrier\.arrive\b")),
    ("cp.async.bulk", re.compile(r"^cp\.async\.bulk\b")),
    ("mbarrier", re.compile(r"^mbarrier\b")),
    ("tensormap", re.compile(r"^(tensormap\b|prefetch(\.\w+)*\.tensormap\b)")),
    ("fence.proxy.tensormap", re.compile(r"^fence\.proxy\.tensormap")),
    ("barrier.cluster", re.compile(r"^barrier\.cluster\b")),
    ("st.async/red.async", re.compile(r"^(st|red)\.async\b")),
    ("mapa/getctarank", re.compile(r"^(mapa|getctarank)\b")),
]
COUNTED_OPCODE = re.compile(r"^(bar|barrier)(\.cta)?\.(sync|arrive|red)\b")
# A barrier instruction in source text with at least two operands (`bar.sync 1, 128`); for
# bar.red: `bar.red.popc.u32 d, a, b, p` (four) against `d, a, p` (three).
COUNTED_TEXT = re.compile(
    r"\b(?:bar|barrier)(?:\.cta)?\.(sync|arrive|red)((?:\.\w+)*)\s+([^;\"]*?)(?:;|\"|\\n)", re.S)


def counted_in(text):
    for m in COUNTED_TEXT.finditer(text):
        operands = [o for o in m.group(3).split(",") if o.strip()]
        if len(operands) >= (4 if m.group(1) == "red" else 2):
            return True
    return False


def span_text(path, f, cache):
    if path not in cache:
        with open(path, "rb") as fh:
            cache[path] = fh.read().decode("utf-8", "replace").split("\n")
    lines = cache[path]
    first, last = f["line"] - 1, f.get("end_line", f["line"]) - 1
    return "\n".join(lines[first:last + 1])


def family_of(finding, path, cache):
    for insn in finding.get("instructions") or []:
        for name, pattern in FAMILIES:
            if pattern.match(insn):
                return name
        if COUNTED_OPCODE.match(insn) and counted_in(span_text(path, finding, cache)):
            return "counted barriers"
    return None


def reason(message):
    if "not translated:" not in message:
        return message[:120]
    text = message.split("not translated:", 1)[1].strip()
    text = re.sub(r"^`[^`]*`:\s*", "", text)
    return text[:140]


def census(binary, root, stats, reasons):
    run = subprocess.run([binary, "check", "--format", "json", root], capture_output=True)
    cache = {}
    for f in json.loads(run.stdout or b"[]"):
        path = f["file"] if os.path.isabs(f["file"]) else os.path.join(root, f["file"])
        family = family_of(f, path, cache)
        if family is None:
            continue
        stats[family]["statements"] += 1
        if f.get("status") == "translatable":
            stats[family]["translatable"] += 1
        else:
            reasons[family][reason(f.get("message", ""))] += 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--repos", default="/work/repos")
    ap.add_argument("--tsv", default="/work/shared/reference/real-world-repos.tsv")
    args = ap.parse_args()
    stats = collections.defaultdict(collections.Counter)
    reasons = collections.defaultdict(collections.Counter)
    per_repo = []
    with open(args.tsv) as f:
        repos = [line.split("\t")[0] for line in f.read().splitlines()[1:]]
    for name in repos:
        repo_stats = collections.defaultdict(collections.Counter)
        census(args.binary, os.path.join(args.repos, name.replace("/", "+")), repo_stats, reasons)
        total = sum(s["statements"] for s in repo_stats.values())
        if total:
            per_repo.append((name, total, sum(s["translatable"] for s in repo_stats.values())))
        for k, v in repo_stats.items():
            stats[k].update(v)
    order = [n for n, _ in FAMILIES] + ["counted barriers"]
    print("| family | statements | translatable |\n|---|---|---|")
    for name in order:
        s = stats.get(name)
        if s:
            print(f"| {name} | {s['statements']} | {s['translatable']} |")
    all_s = sum(s["statements"] for s in stats.values())
    all_t = sum(s["translatable"] for s in stats.values())
    print(f"| **total** | {all_s} | {all_t} |\n")
    print("| repository | statements | translatable |\n|---|---|---|")
    for name, total, translated in sorted(per_repo, key=lambda r: -r[1]):
        print(f"| {name} | {total} | {translated} |")
    print("\nWhy the rest are not translated (statements, reason):")
    for name in order:
        for text, n in reasons[name].most_common(8):
            print(f"- {name}: {n} × {text}")


if __name__ == "__main__":
    main()
