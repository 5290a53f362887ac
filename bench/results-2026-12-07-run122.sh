#!/usr/bin/env bash
# Run 122 (H200): issue 11's no-regression A/B, the standard table (D 64, 128,
# 256 x N 1k, 4k, 16k x causal or not) against the kernels of 43d6c15 (the
# last commit before the lowering work; compiled by /work/base43's build,
# carried as kernels-base43), median of 3 alternating rounds, cuDNN and FA2
# in the same process.
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
timeout 400 python3 bench/gpu_check.py --artifacts artifacts --no-sweep --no-flex --ab-rounds 3 \
  --json $OUT/run122.json > $OUT/run122.log 2>&1
echo "table rc=$?"; grep -A45 "^benchmark table" $OUT/run122.log | head -45
