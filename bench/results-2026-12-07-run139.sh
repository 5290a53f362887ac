#!/usr/bin/env bash
# Run 139 (session 39): what --split-kv-dynamic-rows gives a decode step run
# by a kernel compiled for any Nq (bench/decode.mlir as it is: the `default`
# column, unsplit). Artifacts: run 138's, plus
#   build/bin/attnc-compile bench/decode.mlir --split-kv-dynamic-rows -o artifacts/decode-dynsplit
# timed by decode.py as its `dynsplit` column beside `default` and `step`.
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
rm -rf artifacts/decode-{bm64,no-pack,pack-all,split,split-bm64,split-bm64-no-pdl}
timeout 300 python3 bench/decode.py --artifacts artifacts --shapes 1x32768,8x8192,64x4096 --graphs \
  --json $OUT/run139-decode.json > $OUT/run139-decode.log 2>&1
echo "decode rc=$?"; grep -E "sweep|FAIL" $OUT/run139-decode.log | head -5
grep -A16 "^graphs" $OUT/run139-decode.log; grep -B1 -A16 "^benchmark table" $OUT/run139-decode.log | head -20
