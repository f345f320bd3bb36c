#!/bin/bash
# Probes: prints hardware facts; compile failures are facts too.
cd "$(dirname "$0")"
nvcc -arch=sm_90 -O2 -o probe probe.cu && ./probe
nvcc -arch=sm_90 -O2 -o probe_u32 probe_u32.cu 2>&1 | head -5 && ./probe_u32
echo "== .v8 on sm_90:"; nvcc -arch=sm_90 -O2 -c -o /dev/null probe_v8.cu 2>&1 | head -5; echo "rc=$?"
echo "== .v8 on sm_100:"; nvcc -arch=sm_100 -O2 -c -o /dev/null probe_v8.cu 2>&1 | head -5; echo "rc=$?"
