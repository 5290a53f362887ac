#!/usr/bin/env bash
# Run 146 (session 41), same artifacts as run 145 (token-major-packing at
# e015b92): the decode sweep (every decode kernel at Nq 1 and 4: the packed
# ones now token-major) and the decode benchmark from CUDA graphs.
# Prediction: sweep passes; Nq = 1 figures as run 142 within the run's
# scatter (the orders coincide at one token: only the maps' rank changed).
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
timeout 400 python3 bench/decode.py --artifacts artifacts --shapes 1x32768,8x8192,64x4096 --graphs \
  --json $OUT/run146-decode.json > $OUT/run146-decode.log 2>&1
echo "decode rc=$?"; grep -E "sweep|FAIL" $OUT/run146-decode.log | head -5
grep -A16 "^graphs" $OUT/run146-decode.log; grep -B1 -A16 "^benchmark table" $OUT/run146-decode.log | head -20
