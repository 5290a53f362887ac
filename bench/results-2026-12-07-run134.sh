#!/usr/bin/env bash
# Run 134 (session 38): issue 12's decode figures at 3169adf on the card the
# issue names (asked for the H200 kind): the decode sweep, then single calls
# and CUDA graphs with cuDNN, FA2 and a read of the same K and V, and the
# phases of the decode-step kernels. Artifacts: run 132's. RUN names the
# output files (run 136 is this script with RUN=run136).
RUN=${RUN:-run134}
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
rm -rf artifacts/decode-{bm64,no-pack,pack-all,split,split-bm64,split-bm64-no-pdl}
timeout 300 python3 bench/decode.py --artifacts artifacts --shapes 1x32768,8x8192,64x4096 --graphs --phases \
  --json $OUT/$RUN-decode.json > $OUT/$RUN-decode.log 2>&1
echo "decode rc=$?"; grep -E "sweep|FAIL" $OUT/$RUN-decode.log | head -5
grep -A16 "^graphs" $OUT/$RUN-decode.log; grep -B1 -A16 "^benchmark table" $OUT/$RUN-decode.log | head -20
grep -E "^step .*decode_d128_gqa " $OUT/$RUN-decode.log
