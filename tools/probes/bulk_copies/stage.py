#!/usr/bin/env python3
"""Stages the bulk-copy GPU run (rules/bulk.toml) in DIR: the probe (bulk_probe.cu) and the two
corpus kernels (corpus/bulk_ring.cu, corpus/bulk_reduce.cu) with the harnesses of tools/e2e/gen.py,
each next to its `--target portable` translation under trans/, and native_only.cu (evidence for
refusals, run natively only). Then, on an H100/H200:
`bash DIR/run.sh DIR`.

Usage: tools/probes/bulk_copies/stage.py DIR
"""
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.join(ROOT, "tools", "e2e"))
import gen  # noqa: E402  (the e2e harness writer)


def main():
    out = os.path.abspath(sys.argv[1])
    if os.path.exists(out):
        shutil.rmtree(out)
    for d in ("orig", "trans"):
        os.makedirs(os.path.join(out, d))
    subprocess.run(["cargo", "build", "--release", "-q"], cwd=ROOT, check=True)
    tool = os.path.join(ROOT, "target", "release", "ptx2hip")
    sources = [os.path.join(HERE, "bulk_probe.cu")] + [
        os.path.join(ROOT, "corpus", f) for f in ("bulk_ring.cu", "bulk_reduce.cu")]
    for src in sources:
        shutil.copy(src, os.path.join(out, "orig"))
        subprocess.run([tool, "translate", "--emit", "replace", "--target", "portable", "--out-dir",
                        os.path.join(out, "trans"), src], check=True)
        if "corpus" in src:
            text = open(src).read()
            m = gen.KERNEL.search(text)
            name = os.path.splitext(os.path.basename(src))[0]
            with open(os.path.join(out, f"harness_{name}.cu"), "w") as h:
                h.write(gen.harness(name, m.group(2), gen.params(m.group(3)), int(m.group(1) or 256)))
    shutil.copy(os.path.join(HERE, "run.sh"), out)
    shutil.copy(os.path.join(HERE, "native_only.cu"), out)
    print(f"staged {out}")


if __name__ == "__main__":
    main()
