#!/usr/bin/env python3
"""Converts the model-validation data of github.com/north-numerical-computing/MATLAB-tensor-core
(a checkout: REPO/model_validation/) to the raw-bit lines of tensor-cores.txt (README.md).

    derive.py REPO OUT_DIR [CASES]   # one file per set; CASES per set (default: all 5,000)
"""
import os
import struct
import sys

# (GPU directory, format directory, K): the sets the model reproduces.
SETS = [("H100", "fp16", 16), ("H100", "bf16", 16), ("H100", "tf32", 4), ("H100", "E4M3", 32),
        ("H100", "E5M2", 32), ("A100", "fp16", 8), ("A100", "bf16", 8), ("A100", "tf32", 4)]
NAMES = {"fp16": "f16", "bf16": "bf16", "tf32": "tf32", "E4M3": "e4m3", "E5M2": "e5m2"}


def f32(bits):
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def f16_bits(x):
    """The f16 encoding of x rounded to nearest even (struct's 'e' packing rounds so)."""
    return struct.unpack("<H", struct.pack("<e", x))[0]


def fp8_codes(ebits, fbits, e4m3):
    """value -> code for every finite OCP fp8 code (e4m3: no Inf, only S.1111.111 is NaN)."""
    codes = {}
    bias = (1 << (ebits - 1)) - 1
    for code in range(256):
        f, m = (code >> fbits) & ((1 << ebits) - 1), code & ((1 << fbits) - 1)
        if (e4m3 and f == 15 and m == 7) or (not e4m3 and f == (1 << ebits) - 1):
            continue
        v = m / (1 << fbits) * 2.0 ** (1 - bias) if f == 0 else (1 + m / (1 << fbits)) * 2.0 ** (f - bias)
        codes.setdefault(-v if code & 0x80 else v, code)
    return codes


FP8 = {"E4M3": fp8_codes(4, 3, True), "E5M2": fp8_codes(5, 2, False)}


def element(fmt, word):
    x = f32(word)
    if fmt == "fp16":
        bits = f16_bits(x)
        assert struct.unpack("<e", struct.pack("<H", bits))[0] == x, "not an f16 value"
        return bits
    if fmt == "bf16":
        assert word & 0xFFFF == 0, "not a bf16 value"
        return word >> 16
    if fmt == "tf32":
        return word
    return 0x80 if x == 0 and word >> 31 else FP8[fmt][x]


def main():
    repo, out = sys.argv[1], sys.argv[2]
    limit = int(sys.argv[3]) if len(sys.argv) > 3 else None
    os.makedirs(out, exist_ok=True)
    for gpu, fmt, k in SETS:
        base = os.path.join(repo, "model_validation", gpu, fmt)
        read = lambda name: open(os.path.join(base, f"{name}_{gpu}_{fmt}.txt" if name in "ab" else name)).read().split()
        a, b = read("a"), read("b")
        c = open(os.path.join(base, f"c_{gpu}_fp32.txt")).read().split()
        for out_fmt in ("fp32", "fp16"):
            path = os.path.join(base, f"d_{gpu}_{out_fmt}.txt")
            if not os.path.exists(path) or (out_fmt == "fp16" and fmt != "fp16"):
                continue
            d = open(path).read().split()
            arch = "sm90" if gpu == "H100" else "sm80"
            lines = []
            for i in range(len(d) if limit is None else limit):
                ci, di = int(c[i], 2), int(d[i], 2)
                if gpu == "H100" and fmt in FP8:
                    ci = 0  # recorded with wgmma, D = A·B
                if out_fmt == "fp16":
                    ci, di = f16_bits(f32(ci)), f16_bits(f32(di))
                xs = [element(fmt, int(x, 16)) for x in a[i * k:(i + 1) * k]]
                ys = [element(fmt, int(x, 16)) for x in b[i * k:(i + 1) * k]]
                acc = "f32" if out_fmt == "fp32" else "f16"
                lines.append(f"{arch} {NAMES[fmt]} {acc} {ci:x} {di:x} " + ",".join(f"{v:x}" for v in xs)
                             + " " + ",".join(f"{v:x}" for v in ys))
            with open(os.path.join(out, f"{gpu}_{fmt}_{out_fmt}.txt"), "w") as f:
                f.write("\n".join(lines) + "\n")


main()
