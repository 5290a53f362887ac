#!/usr/bin/env bash
# Run 151 (session 43), 7c9c103: the H200 decode table of this tree (owed
# since runs 145-147; no decode kernel's PTX changed since 90a30b6, whose
# kernels equal 4e38e99's but for the order of integer ops in packed LSE
# stores). artifacts/decode (bench/decode.mlir), artifacts/decode-step (one
# static query token).
# Prediction (H200): from graphs GQA D 128 B = 1, 32k ~3.6 TB/s, 8 x 8k
# ~4.07, 64 x 4k ~4.38 (cuDNN ~3.59 / 4.08 / 4.50; copy ~4.24).
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
timeout 300 python3 bench/decode.py --artifacts artifacts --shapes 1x32768,8x8192,64x4096 --graphs \
  --json $OUT/run151-decode.json > $OUT/run151-decode.log 2>&1
echo "decode rc=$?"; grep -E "FAIL|sweep|passed|TB/s|copy" $OUT/run151-decode.log | head -40
