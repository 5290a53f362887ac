#!/usr/bin/env bash
# Run 151 (session 43), 7c9c103 + bench/varlen.py's corrected split
# expectations (run 150 expected the 40-sequence decode batch unsplit, but
# the D = 80 kernel's 8:2 heads make 84 tiles, which split, so that one check
# never launched): the varlen sweep again, then the decode table of this tree
# (artifacts/decode: bench/decode.mlir; artifacts/decode-step: one static
# query token; no decode kernel's PTX changed since 90a30b6).
# Prediction: varlen sweep 45/45. Decode from graphs, GQA D 128 (H100, as
# runs 138-143): B = 1, 32k ~2.7 TB/s, 8 x 8k ~2.95, 64 x 4k ~3.17, cuDNN
# within 2 % of each.
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
timeout 150 python3 bench/varlen.py --artifacts artifacts --check-only --json $OUT/run151-varlen.json > $OUT/run151-varlen.log 2>&1
echo "varlen rc=$?"; grep -E "FAIL|sweep" $OUT/run151-varlen.log | head
timeout 300 python3 bench/decode.py --artifacts artifacts --shapes 1x32768,8x8192,64x4096 --graphs \
  --json $OUT/run151-decode.json > $OUT/run151-decode.log 2>&1
echo "decode rc=$?"; grep -E "FAIL|sweep|passed|TB/s|copy" $OUT/run151-decode.log | head -40
