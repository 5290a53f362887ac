#!/usr/bin/env bash
# Run 130 (session 38): can two decode CTAs an SM close B = 64, Nk = 4k's gap
# to cuDNN? The decode-step kernels (artifacts/decode-step.mlir) also
# compiled without warp specialization and with 64-key blocks (`nows64`:
# 128 threads, 82 KB of shared memory, 137 registers: two CTAs fit an SM,
# so one's start-up overlaps the other's streaming), without warp
# specialization alone (`nows`, 148 KB: one CTA) and with 64-key blocks
# alone (`bn64`, 232 registers x 256 threads: one CTA). Artifacts: run
# 129's plus those three directories.
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
rm -rf artifacts/kernels-* artifacts/decode-{bm64,no-pack,pack-all,split,split-bm64,split-bm64-no-pdl}
timeout 300 python3 bench/decode.py --artifacts artifacts --no-check --kernels decode_d128_gqa \
  --shapes 64x4096,8x8192 --graphs --json $OUT/run130-decode.json > $OUT/run130-decode.log 2>&1
echo "decode rc=$?"; grep -A6 "^graphs" $OUT/run130-decode.log; grep -B1 -A6 "^benchmark table" $OUT/run130-decode.log | head -10
