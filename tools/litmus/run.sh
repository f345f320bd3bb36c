#!/usr/bin/env bash
# Step 2 (on an NVIDIA GPU): builds the litmus and contention programs twice — against the
# original PTX (orig/) and against ptx2hip's translation (trans/) — plus the float-atomic probe,
# and runs them. Exits 1 if any forbidden outcome or broken invariant is seen.
# Usage: run.sh [STAGING_DIR]
set -uo pipefail
cd "${1:-$(dirname "$0")}"
echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
echo "nvcc: $(nvcc --version | tail -1)"
b() { nvcc -std=c++17 -arch=sm_90 -O2 -w "$@"; }
for v in orig trans; do
  b -I "$v" litmus.cu -o "/tmp/litmus_$v" &
  b -I "$v" contention.cu -o "/tmp/contention_$v" &
done
b probe_fatomics.cu -o /tmp/probe_fatomics &
wait
status=0
/tmp/probe_fatomics || status=1
for v in orig trans; do
  label=$([ "$v" = orig ] && echo original || echo ptx2hip)
  "/tmp/contention_$v" "$label" || status=1
  "/tmp/litmus_$v" "$label" || status=1
done
exit $status
