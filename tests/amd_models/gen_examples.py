#!/usr/bin/env python3
"""Writes a .cu file with one __global__ kernel per rule example of the float families (compare,
float, half); used by run_float_check.sh for the AMD compile check and the host semantic check."""
import os, sys, tomllib
ty = {'f': 'float', 'd': 'double', 'r': 'unsigned', 'h': 'unsigned short', 'l': 'unsigned long long'}
root = os.path.join(os.path.dirname(__file__), '..', '..')
lines = ['#include <stdint.h>', '']
for name in ['compare', 'float', 'half']:
    path = os.path.join(root, 'rules', name + '.toml')
    if not os.path.exists(path):
        continue
    for r in tomllib.load(open(path, 'rb')).get('rule', []):
        ex = r['example']
        cons = ex['constraints'].split(',')
        args, outs, ins = [], [], []
        for i, c in enumerate(cons):
            args.append(f'{ty[c.lstrip("=+")]} *v{i}')
            (outs if c[0] in '=+' else ins).append(f'"{c}"(*v{i})')
        ptx = ex['ptx'].replace('"', '\\"')
        lines += [f'__global__ void t_{r["code"]}({", ".join(args)}) {{',
                  f'  asm volatile("{ptx}" : {", ".join(outs)} : {", ".join(ins)});', '}']
open(sys.argv[1], 'w').write('\n'.join(lines) + '\n')
