#!/usr/bin/env bash
# Run 150 (session 43), 90a30b6: the H200 figures owed for varlen packing
# (run 149 had an H100) and the decode table of this tree.
# artifacts/varlen (bench/varlen.mlir: GQA 32:8 kernels pack g = 4),
# artifacts/varlen-unpacked (varlen_d128_causal, --pack-gqa=false),
# artifacts/decode (bench/decode.mlir) and artifacts/decode-step (one static
# query token).
# Prediction (H200): varlen sweep 30/30; prefill 16 x 100..4000 packed
# ~1.05x unpacked, >= 0.95x dense at the mean length, > 2x cuDNN padded;
# 256 x 64..512 ~1.25x unpacked; the varlen decode step ~3.4-3.8 TB/s (run
# 149's H100: 2.62, 0.86 of copy). Decode from graphs GQA D 128 as runs
# 145-147: B = 1, 32k ~3.6 TB/s, 8 x 8k ~4.07, 64 x 4k ~4.38 (cuDNN 3.59 /
# 4.08 / 4.50).
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
timeout 270 python3 bench/varlen.py --artifacts artifacts --json $OUT/run150-varlen.json > $OUT/run150-varlen.log 2>&1
echo "varlen rc=$?"; grep -E "FAIL|sweep|TFLOP|TB/s|varlen " $OUT/run150-varlen.log | head -30
timeout 250 python3 bench/decode.py --artifacts artifacts --shapes 1x32768,8x8192,64x4096 --graphs \
  --json $OUT/run150-decode.json > $OUT/run150-decode.log 2>&1
echo "decode rc=$?"; grep -E "FAIL|sweep|passed|TB/s" $OUT/run150-decode.log | head -40
