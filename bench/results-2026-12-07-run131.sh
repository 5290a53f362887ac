#!/usr/bin/env bash
# Run 131 (session 38): run 130's best variant, decode-step kernels with
# 64-key blocks (`bn64`), against the default decode-step kernels (`step`)
# at every decode kernel of bench/decode.mlir (GQA D 64 / 128 / 256, MQA,
# causal) and the three shapes, single calls and CUDA graphs. Artifacts: run
# 130's, less nows and nows64.
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
rm -rf artifacts/kernels-* artifacts/decode-{bm64,no-pack,pack-all,split,split-bm64,split-bm64-no-pdl,nows,nows64}
timeout 400 python3 bench/decode.py --artifacts artifacts --no-check \
  --shapes 1x32768,8x8192,64x4096 --graphs --json $OUT/run131-decode.json > $OUT/run131-decode.log 2>&1
echo "decode rc=$?"; grep -A16 "^graphs" $OUT/run131-decode.log; grep -B1 -A16 "^benchmark table" $OUT/run131-decode.log | head -20
