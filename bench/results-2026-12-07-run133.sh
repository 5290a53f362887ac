#!/usr/bin/env bash
# Run 133 (session 38): decode-step kernels at 3169adf (64-key blocks at
# D = 128) against the same with 2 and 4 K/V stages (`s2`, `s4`; s4 not at
# D = 256, whose four 64 x 80 stages do not fit) and with 32-key blocks
# (`bn32`: 16 KB of K a stage at D = 256, as 64-key blocks at D = 128),
# every decode kernel at the three shapes, graphs and single calls.
# Artifacts: run 132's plus those three directories.
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
rm -rf artifacts/decode-{bm64,no-pack,pack-all,split,split-bm64,split-bm64-no-pdl}
timeout 400 python3 bench/decode.py --artifacts artifacts --no-check \
  --shapes 1x32768,8x8192,64x4096 --graphs --json $OUT/run133-decode.json > $OUT/run133-decode.log 2>&1
echo "decode rc=$?"; grep -A16 "^graphs" $OUT/run133-decode.log; grep -B1 -A16 "^benchmark table" $OUT/run133-decode.log | head -20
