#!/usr/bin/env bash
# Run 152 (session 43), 43dfe1f (main after the varlen-split-kv merge; the
# kernels of runs 150-151): the H200 figures owed for varlen packing and the
# varlen split, and the H200 decode table of this tree. Same artifacts as
# runs 150-151.
# Prediction (H200): sweep 45/45; prefill 16 x 100..4000 ~1.0x whole, > 2x
# cuDNN padded; varlen decode 4 x 8000..32000 split ~3.2-3.6 TB/s against
# ~1.2 whole; 64 x 1000..4000 ~3.5-3.8; decode from graphs GQA D 128 step
# ~3.6 / 4.07 / 4.38 TB/s (cuDNN ~3.59 / 4.08 / 4.50; copy ~4.24).
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
timeout 250 python3 bench/varlen.py --artifacts artifacts --json $OUT/run152-varlen.json > $OUT/run152-varlen.log 2>&1
echo "varlen rc=$?"; grep -E "FAIL|sweep|TFLOP|TB/s|varlen |whole|unpacked" $OUT/run152-varlen.log | head -40
timeout 200 python3 bench/decode.py --artifacts artifacts --no-check --shapes 1x32768,8x8192,64x4096 --graphs \
  --json $OUT/run152-decode.json > $OUT/run152-decode.log 2>&1
echo "decode rc=$?"; sed -n '/^graphs/,$p' $OUT/run152-decode.log | head -20
