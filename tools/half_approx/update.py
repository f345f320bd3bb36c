#!/usr/bin/env python3
"""Rewrites the recorded-exception tables of rules/helpers/half.h from exhaustive H100 tables.

Usage: tools/half_approx/update.py TABLES_DIR
TABLES_DIR holds the recordings of record/run.sh (`tanh_f16.bin.gz`, `tanh_f16x2.bin.gz`, ...,
`ex2_ftz_bf16.bin.gz`, `ex2_ftz_bf16x2.bin.gz`). Builds derive.cpp with g++ (libquadmath), runs it
for each function and format, and replaces each `ptx2hip_<op>_<fmt>_recorded` hash table (with its `_mult` and `_shift`) in place."""
import os, re, subprocess, sys, tempfile

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
tables = sys.argv[1]
exe = os.path.join(tempfile.mkdtemp(), 'derive')
subprocess.run(['g++', '-O2', '-o', exe, os.path.join(here, 'derive.cpp'), '-lquadmath'], check=True)
header = os.path.join(root, 'rules/helpers/half.h')
text = open(header).read()
for op, fmt, stem in [('tanh', 'f16', 'tanh_f16'), ('tanh', 'bf16', 'tanh_bf16'),
                      ('ex2', 'f16', 'ex2_f16'), ('ex2', 'bf16', 'ex2_ftz_bf16')]:
    scalar = os.path.join(tables, stem + '.bin.gz')
    x2 = os.path.join(tables, stem + 'x2.bin.gz')
    out = subprocess.run([exe, op, fmt, scalar, x2], capture_output=True, text=True)
    sys.stderr.write(out.stderr)
    if out.returncode != 0:
        sys.exit(f'{op}.{fmt}: the recording contradicts the helpers\' NaN or lane assumptions')
    pattern = re.compile(r'constexpr uint32_t ptx2hip_%s_%s_mult = [^;]*;\s*constexpr int ptx2hip_%s_%s_shift = '
                         r'[^;]*;\s*static __device__ const uint32_t ptx2hip_%s_%s_recorded\[\d+\] = \{[^}]*\};'
                         % ((op, fmt) * 3))
    assert len(pattern.findall(text)) == 1, (op, fmt)
    text = pattern.sub(lambda _: out.stdout.strip(), text)
open(header, 'w').write(text)
subprocess.run(['clang-format-19', '-i', header], check=True)
