"""The results: ratios, medians and worst cases, the Markdown section for BENCHMARKS.md."""

import statistics

def ratio(p, h):
    """ptx2hip / human; a count of 0 counts as 1 (an empty function costs its return anyway)."""
    return max(p, 1) / max(h, 1)


def summary_rows(rows, archs):
    """(label, n, {arch: (median, worst, worst id)}) for all pairs and the exact ones."""
    out = []
    for label, keep in (("all pairs", lambda r: True), ("human port exact", lambda r: r["verdict"] == "exact")):
        sel = [r for r in rows if keep(r)]
        stats = {}
        for a in archs:
            rs = [(r["ratio"][a], r["id"]) for r in sel if a in r["ratio"]]
            if rs:
                worst = max(rs)
                stats[a] = (statistics.median(x for x, _ in rs), worst[0], worst[1], len(rs))
        out.append((label, stats))
    return out


def markdown(rows, failures, archs, commits_note):
    s = []
    s.append(f"Pairs measured: {len(rows)} ({sum(r['verdict'] == 'exact' for r in rows)} with an exact human port); "
             f"not measured: {len(failures)}. {commits_note}\n")
    s.append("| pairs | " + " | ".join(f"{a} median | {a} worst" for a in archs) + " |")
    s.append("|---|" + "---:|---:|" * len(archs))
    for label, stats in summary_rows(rows, archs):
        cells = []
        for a in archs:
            if a in stats:
                med, worst, wid, n = stats[a]
                cells += [f"{med:.2f}", f"{worst:.2f} (`{wid}`)"]
            else:
                cells += ["-", "-"]
        s.append(f"| {label} (n={len([r for r in rows if label == 'all pairs' or r['verdict'] == 'exact'])}) | " + " | ".join(cells) + " |")
    s.append("")
    s.append("| category | pairs | exact | " + " | ".join(f"{a} median | {a} worst" for a in archs) + " |")
    s.append("|---|---:|---:|" + "---:|---:|" * len(archs))
    for cat in sorted({r["category"] for r in rows}):
        sel = [r for r in rows if r["category"] == cat]
        cells = []
        for a in archs:
            rs = [r["ratio"][a] for r in sel if a in r["ratio"]]
            cells += [f"{statistics.median(rs):.2f}", f"{max(rs):.2f}"] if rs else ["-", "-"]
        s.append(f"| {cat} | {len(sel)} | {sum(r['verdict'] == 'exact' for r in sel)} | " + " | ".join(cells) + " |")
    s.append("")
    s.append("| pair | category | PTX | " + " | ".join(f"{a} ptx2hip | {a} human | {a} ratio" for a in archs) + " | human port |")
    s.append("|---|---|---|" + "---:|---:|---:|" * len(archs) + "---|")
    for r in sorted(rows, key=lambda r: -max(r["ratio"].values(), default=0)):
        cells = []
        for a in archs:
            if a in r["ratio"]:
                cells += [str(r["ptx2hip"][a]), str(r["human"][a]), f"{r['ratio'][a]:.2f}"]
            else:
                cells += ["-", "-", "-"]
        s.append(f"| `{r['id']}` | {r['category']} | `{r['ptx_text']}` | " + " | ".join(cells) + f" | {r['verdict']}: {r['reason']} |")
    if failures:
        s.append("\nNot measured:\n")
        for pid, why in failures:
            s.append(f"- `{pid}`: {why}")
    return "\n".join(s) + "\n"
