#!/usr/bin/env python3
"""Per-repository census of what ptx2hip makes of the asm in real CUDA trees (issue 12).

Usage: bench/census.py [--repos DIR] [--tsv FILE] [--out FILE] [-D NAME[=V]]... [REPO...]

For every repository of the TSV (`owner/name<TAB>commit`, extracted under DIR as `owner+name`):
counts the `asm`/`__asm__`/`__asm` keywords in code with its own lexer (not ptx2hip's), runs
`cargo run --release -p ptx2hip-verify --bin census` over the tree, and checks that every keyword ended as a
statement, a diagnostic or a skipped entry at its own offset (a keyword that did not is a silent
drop). Writes a Markdown report (default docs/REAL_WORLD.md) with, per repository: keywords,
statements, diagnostics, skipped keywords by reason, silent drops, findings that do not look like
PTX, PTX the parser rejects, templates that cannot be read (with reasons) and the share of
statements translated; then the details. Re-run it after rules or scanner changes.
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
EXTENSIONS = {"cu", "cuh", "h", "hpp", "hh", "cpp", "cc", "cxx", "inl", "hip"}
KEYWORDS = {b"asm", b"__asm__", b"__asm"}
# Root opcodes of PTX (as crates/ptx2hip-core/src/ptx/opcodes.rs; kept separately so the report checks the tool).
PTX_ROOTS = set("""abs activemask add addc alloca and applypriority atom bar barrier bfe bfi bfind bmsk
bra brev brkpt brx call clusterlaunchcontrol clz cnot copysign cos cp createpolicy cvt cvta discard
div dp2a dp4a elect ex2 exit fence fma fns getctarank griddepcontrol isspacep istypep ld ldmatrix ldu
lg2 lop3 mad mad24 madc mapa match max mbarrier membar min mma mov movmatrix mul mul24 multimem
nanosleep neg not or pmevent popc prefetch prefetchu prmt rcp red redux rem ret rsqrt sad selp set
setmaxnreg setp shf shfl shl shr sin slct sqrt st stackrestore stacksave stmatrix sub subc suld suq
sured sust szext tanh tcgen05 tensormap testp tex tld4 trap txq vabsdiff vabsdiff2 vabsdiff4 vadd
vadd2 vadd4 vavrg2 vavrg4 vmad vmax vmax2 vmax4 vmin vmin2 vmin4 vote vset vset2 vset4 vshl vshr
vsub vsub2 vsub4 wgmma wmma xor""".split())


def code_keywords(src):
    """Offsets of asm keywords in code: outside comments, literals and preprocessor lines other
    than #define bodies (the body is code once expanded; the macro's own name is not)."""
    out = []
    i, n = 0, len(src)
    line_start = True
    directive = None  # None, "define" or "other"
    ident = re.compile(rb"[A-Za-z_$\x80-\xff][A-Za-z0-9_$\x80-\xff]*")
    while i < n:
        c = src[i]
        if line_start and directive is None:
            line_start = False
            m = re.compile(rb"[ \t\v\f]*#[ \t]*([A-Za-z_]*)").match(src, i)
            if m:
                if m.group(1) == b"define":
                    d = re.compile(rb"[ \t]*(?:\\\r?\n)?[ \t]*[A-Za-z_]\w*(?:\([^)]*\))?").match(src, m.end())
                    i = d.end() if d else m.end()
                    directive = "define"
                else:
                    i = m.end()
                    directive = "other"
                continue
        line_start = False
        if c == 0x0A:
            k = i - 1
            if k >= 0 and src[k] == 0x0D:
                k -= 1
            if not (k >= 0 and src[k] == 0x5C):
                directive = None
            line_start = True
            i += 1
        elif src.startswith(b"//", i):
            while True:
                e = src.find(b"\n", i)
                if e < 0:
                    i = n
                    break
                if src[e - 1:e] == b"\\" or src[e - 2:e] == b"\\\r":
                    i = e + 1
                    continue
                i = e
                break
        elif src.startswith(b"/*", i):
            e = src.find(b"*/", i + 2)
            i = n if e < 0 else e + 2
        elif c == 0x22:
            i = string_end(src, i)
        elif c == 0x27:
            j = i + 1
            while j < n and src[j] not in (0x27, 0x0A):
                j += 2 if src[j] == 0x5C else 1
            i = j + 1 if j < n and src[j] == 0x27 else j
        elif 48 <= c <= 57 or (c == 0x2E and i + 1 < n and 48 <= src[i + 1] <= 57):
            j = i + 1
            while j < n and (chr(src[j]).isalnum() or src[j] in b"._" or
                             (src[j] == 0x27 and j + 1 < n and chr(src[j + 1]).isalnum()) or
                             (src[j] in b"+-" and src[j - 1] in b"eEpP")):
                j += 1
            i = j
        else:
            m = ident.match(src, i)
            if not m:
                i += 1
                continue
            word = m.group(0)
            j = m.end()
            if j < n and src[j] == 0x22 and word in (b"R", b"u8R", b"uR", b"UR", b"LR"):
                i = raw_end(src, j)
            elif j < n and src[j] == 0x22 and word in (b"u8", b"u", b"U", b"L"):
                i = string_end(src, j)
            else:
                if word in KEYWORDS and directive != "other":
                    out.append(i)
                i = j
    return out


def string_end(src, i):
    j = i + 1
    while j < len(src) and src[j] not in (0x22, 0x0A):
        j += 2 if src[j] == 0x5C else 1
    return j + 1 if j < len(src) and src[j] == 0x22 else j


def raw_end(src, quote):
    o = src.find(b"(", quote, quote + 18)
    if o < 0:
        return string_end(src, quote)
    close = b")" + src[quote + 1:o] + b'"'
    e = src.find(close, o)
    return len(src) if e < 0 else e + len(close)


def source_files(root):
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if not x.startswith("."))
        for f in sorted(files):
            if not f.startswith(".") and "." in f and f.rsplit(".", 1)[1].lower() in EXTENSIONS:
                yield os.path.join(d, f)


def roots_of(head):
    """First word of each instruction of a template's start (labels, predicates, braces and
    directives left out)."""
    roots = []
    for stmt in re.split(r"[;\n]", head):
        stmt = re.sub(r"^[\s{}]*(?:[A-Za-z_$][\w$%=]*:(?!:))?[\s{}]*(?:@!?%?[\w$]+\s*)?", "", stmt)
        m = re.match(r"[A-Za-z_][\w$.]*", stmt)
        if m:
            roots.append(m.group(0).lower())
    return roots


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repos", default="/work/repos")
    ap.add_argument("--tsv", default="/work/shared/reference/real-world-repos.tsv")
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "REAL_WORLD.md"))
    ap.add_argument("-D", action="append", default=[], dest="defines")
    ap.add_argument("only", nargs="*")
    args = ap.parse_args()
    repos = []
    with open(args.tsv) as f:
        for line in f.read().splitlines()[1:]:
            name, commit = line.split("\t")[:2]
            if args.only and name not in args.only:
                continue
            repos.append((name, commit, os.path.join(args.repos, name.replace("/", "+"))))
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "ptx2hip-verify", "--bin", "census"], cwd=ROOT, check=True)
    census = os.path.join(ROOT, "target", "release", "census")
    flags = [x for d in args.defines for x in ("-D", d)]
    rows, details = [], collections.defaultdict(list)
    totals = collections.Counter()
    for name, commit, path in repos:
        keywords = {}
        for p in source_files(path):
            with open(p, "rb") as f:
                src = f.read()
            if b"asm" in src:
                ks = code_keywords(src)
                if ks:
                    keywords[p] = ks
        run = subprocess.run([census, *flags, path], capture_output=True, check=True)
        found = {}
        c = collections.Counter()
        for line in run.stdout.decode().splitlines():
            rec = json.loads(line)
            found[rec["file"]] = rec
        for p in sorted(set(keywords) | set(found)):
            rec = found.get(p, {"statements": [], "diagnostics": [], "skipped": []})
            rel = os.path.relpath(p, path)
            accounted = {e["at"] for k in ("statements", "diagnostics", "skipped") for e in rec[k]}
            for at in keywords.get(p, []):
                if at not in accounted:
                    c["drops"] += 1
                    details["drops"].append(f"{name} `{rel}` byte {at}")
            c["keywords"] += len(keywords.get(p, []))
            c["diagnostics"] += len(rec["diagnostics"])
            for d in rec["diagnostics"]:
                details["diagnostics"].append(f"{name} `{rel}:{d['line']}`: {d['message']}")
            for s in rec["skipped"]:
                c["skip:" + s["why"]] += 1
            for s in rec["statements"]:
                c["statements"] += 1
                where = f"{name} `{rel}:{s['line']}`"
                if s["template"] != "known":
                    c["unresolved"] += 1
                    details["unresolved"].append((s["template"], where))
                elif s["parse"]:
                    c["rejected"] += 1
                    details["rejected"].append((s["parse"]["message"], where, s["parse"]["near"]))
                roots = roots_of(s["head"]) if s["template"] == "known" else []
                # PTX-shaped text (`opcode.modifier`) with an unknown opcode is PTX with a typo or
                # an instruction the table lacks: a real finding. Text with neither is suspect.
                if roots and not any(r.split(".")[0] in PTX_ROOTS or "." in r for r in roots):
                    c["not_ptx"] += 1
                    details["not_ptx"].append(f"{where}: `{s['head'][:60]}`")
                if s["outcome"] == "translatable":
                    c["translatable"] += 1
        totals.update(c)
        rows.append((name, commit, c))
    write_report(args, rows, totals, details)


# Why the parser's remaining rejections are not PTX that ptxas accepts on its own, by the start of
# the parser's message (reviewed by hand on the census; a new message shows up unexplained).
WHY_REJECTED = {
    "unterminated '{'": "a `{ }` scope split over several asm statements (opened here, closed by a "
                        "later statement): PTX only as the concatenation ptxas sees; one statement "
                        "alone cannot be translated",
    "unmatched '}'": "the closing half of a scope split over several asm statements (see above)",
    "expected ',' or ';' after operand, found 'cvt'": "a missing `;` after `cvta.to.shared.u64 p1, %1`: "
                        "ptxas rejects it (DeepSpeed compiles it only with CUDA < 11)",
}


def skipped_text(c):
    labels = [("nvidia-only", "NV-only"), ("not-nvidia", "not NV"), ("never-compiled", "`#if 0`"),
              ("barrier", "barrier"), ("not-ptx:host", "host"), ("not-ptx:amdgcn", "AMDGCN"),
              ("not-ptx:label", "label"), ("keyword-alias", "alias"),
              ("other-arch", "other arch")]
    parts = [f"{c['skip:' + k]} {v}" for k, v in labels if c["skip:" + k]]
    return ", ".join(parts) or "0"


def share(c):
    return f"{c['translatable']} ({100 * c['translatable'] / c['statements']:.0f}%)" if c["statements"] else "0"


def write_report(args, rows, totals, details):
    out = ["# ptx2hip on 49 real CUDA repositories", "",
           "Produced by `bench/census.py` (re-run it after scanner or rule changes; it rewrites this file)",
           "over the repositories of `real-world-repos.tsv` at the commits listed, extracted without",
           "their `.git` (so no `.gitignore` applies). Columns: **keywords** — `asm`/`__asm__`/`__asm`",
           "in code, counted by the script's own lexer; **statements** — asm statements ptx2hip reports;",
           "**diag.** — keywords reported as unreadable, each at its own line; **skipped** — keywords",
           "that are not PTX to port (NV-only: only NVIDIA compiles them; not NV: AMD- or host-only",
           "arms; other arch: an `__CUDA_ARCH__` arm the AMD build never compiles (`--cuda-arch`);",
           "barrier: empty template; host/AMDGCN/label: another dialect); **drops** — keywords",
           "that ended as none of these (must be 0); **non-PTX** — reported statements with neither a",
           "PTX opcode nor a PTX-shaped `opcode.modifier` instruction, by the script's own opcode list",
           "(must be 0); **rejected** — readable templates the PTX parser",
           "rejects; **unresolved** — templates that cannot be read (reasons below); **translated** —",
           "statements translated for `--target amd` (share of statements).",
           ""]
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                          text=True).stdout.strip()
    out += [f"ptx2hip at commit `{head}` (plus uncommitted changes, if any, when this was written).", ""]
    if args.defines:
        out += [f"Macros declared: {' '.join('-D ' + d for d in args.defines)}", ""]
    out += ["| repository | commit | keywords | statements | diag. | skipped | drops | non-PTX | rejected | unresolved | translated |",
            "|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, commit, c in rows + [("**total**", "", totals)]:
        out.append(f"| {name} | {commit[:10]} | {c['keywords']} | {c['statements']} | {c['diagnostics']} | "
                   f"{skipped_text(c)} | {c['drops']} | {c['not_ptx']} | {c['rejected']} | {c['unresolved']} | {share(c)} |")
    out += ["", "## Silent drops", ""]
    out += [f"- {d}" for d in details["drops"]] or ["None."]
    out += ["", "## Reported statements that do not look like PTX", ""]
    out += [f"- {d}" for d in details["not_ptx"]] or ["None."]
    out += ["", "## PTX the parser rejects", "",
            "Grouped by the parser's message; each group says why the text is not PTX that ptxas accepts."]
    groups = collections.defaultdict(list)
    for message, where, near in details["rejected"]:
        groups[message].append((where, near))
    for message, items in sorted(groups.items(), key=lambda g: -len(g[1])):
        why = next((w for k, w in WHY_REJECTED.items() if message.startswith(k)), "not yet reviewed")
        near = "; ".join(f"{w} near `{' '.join(n.split())[:40]}`" for w, n in items[:6])
        more = f"; … {len(items) - 6} more" if len(items) > 6 else ""
        out += ["", f"- **{message}** ({len(items)}) — {why}. {near}{more}"]
    out += ["", "## Templates that cannot be read", ""]
    reasons = collections.defaultdict(list)
    for reason, where in details["unresolved"]:
        reasons[reason].append(where)
    for reason, wheres in sorted(reasons.items(), key=lambda r: -len(r[1])):
        out.append(f"- {reason} ({len(wheres)}): " + ", ".join(wheres[:4]) + (" …" if len(wheres) > 4 else ""))
    if not reasons:
        out.append("None.")
    out += ["", "## Diagnostics", ""]
    out += [f"- {d}" for d in details["diagnostics"]] or ["None."]
    with open(args.out, "w") as f:
        f.write("\n".join(out) + "\n")
    print(f"wrote {args.out}: {totals['keywords']} keywords, {totals['statements']} statements, "
          f"{totals['drops']} drops, {totals['not_ptx']} non-PTX, {totals['rejected']} rejected, "
          f"{totals['unresolved']} unresolved", file=sys.stderr)


if __name__ == "__main__":
    main()
