#!/usr/bin/env bash
# Run 137 (session 38): run 135's A/B again, to see whether the split form's
# cost on prefill launches (up to 6 %) repeats. kernels-splitcap is now what
# --split-kv-dynamic-rows compiles (bench/kernels.mlir's six standard
# kernels; byte-identical to run 135's hand-made ones). Artifacts: QUICK=1
# bash bench/prepare-gpu.sh, then those six copied into
# artifacts/kernels-splitcap; the decode, paged and varlen ones removed.
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
timeout 200 python3 bench/gpu_check.py --artifacts artifacts --no-sweep --no-flex --ab-rounds 3 \
  --json $OUT/run137.json > $OUT/run137.log 2>&1
echo "table rc=$?"; grep -A20 "^A/B" $OUT/run137.log | head -22
