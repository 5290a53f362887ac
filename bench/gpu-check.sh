#!/usr/bin/env bash
# On the GPU machine (no MLIR there): correctness sweep, then the benchmark
# next to cuDNN / FA2 / FlexAttention, in one run. Needs artifacts/ from
# bench/prepare-gpu.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader || true
# attnc-run's GPU backend (MLIR-free build) on the compiled examples and on
# the benchmark kernels, float64 reference on the CPU.
artifacts/bin/attnc-run-artifact artifacts/examples/* artifacts/kernels/* \
  --shapes=1:1:1,2:17:33,1:113:203,1:200:100,1:257:513 || true
# The runtime from 8 threads at once, one stream each (load, launch, check).
PYTHONUNBUFFERED=1 python3 bench/threads_check.py --artifacts artifacts --threads 8 || true
# SANITIZE=1: compute-sanitizer memcheck, racecheck and synccheck (minutes).
if [[ -n "${SANITIZE:-}" ]]; then bash bench/sanitize.sh || true; fi
# Where ptxas put the wgmma waits around the softmax (the overlap's SASS check).
python3 bench/sass_report.py artifacts/kernels/d128_full artifacts/kernels/d128_causal || true
OUT_JSON=${OUT:-.}/gpu-check.json
PYTHONUNBUFFERED=1 python3 bench/gpu_check.py --artifacts artifacts --json "$OUT_JSON" "$@"
