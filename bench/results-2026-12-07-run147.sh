#!/usr/bin/env bash
# Run 147 (session 41), same artifacts and machine as runs 145-146
# (token-major-packing at e015b92): the varlen benchmark and the prefill
# sweep + standard table against cuDNN (bench/gpu_check.py, no FlexAttention)
# on the H200, figures owed since session 37.
# Prediction: varlen >= 0.95x dense and above cuDNN padded; the sweep passes;
# the table at 0.94-1.10x cuDNN from 4k on, as on the H200 before.
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
timeout 120 python3 bench/varlen.py --artifacts artifacts --json $OUT/run147-varlen.json > $OUT/run147-varlen.log 2>&1
echo "varlen rc=$?"; tail -8 $OUT/run147-varlen.log
timeout 330 python3 bench/gpu_check.py --artifacts artifacts --no-flex --json $OUT/run147-gpu-check.json \
  > $OUT/run147-gpu-check.log 2>&1
echo "gpu_check rc=$?"; grep -E "sweep|FAIL" $OUT/run147-gpu-check.log | head -5; tail -24 $OUT/run147-gpu-check.log
