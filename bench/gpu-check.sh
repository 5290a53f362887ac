#!/usr/bin/env bash
# On the GPU machine (no MLIR there): correctness sweep, then the benchmark
# next to cuDNN / FA2 / FlexAttention, in one run. Needs artifacts/ from
# bench/prepare-gpu.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader || true
OUT_JSON=${OUT:-.}/gpu-check.json
PYTHONUNBUFFERED=1 python3 bench/gpu_check.py --artifacts artifacts --json "$OUT_JSON" "$@"
