#!/usr/bin/env bash
# Run 111: the standard table's A/B against 43d6c15's kernels
# (issue 11's no-regression oracle) with the softcap column, every other
# head dim against cuDNN at 4k and 16k, and the decode shapes of issue 12.
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
# On an H100 too: the device tool lends H100s for timings to report.
timeout 230 python3 bench/gpu_check.py --artifacts artifacts --no-flex --no-sweep --ab-rounds 3 \
  --json $OUT/run111.json > $OUT/run111.log 2>&1; echo "table rc=$?"
sed -n '/^benchmark table/,$p' $OUT/run111.log
rm -rf artifacts/kernels-base43 artifacts/kernels-softcap
timeout 120 python3 bench/gpu_check.py --artifacts artifacts --no-flex --no-sweep \
  --head-dims 32,40,80,96,160,192,224 --seqlens 4096,16384 --json $OUT/run111-hd.json \
  > $OUT/run111-hd.log 2>&1; echo "head dims rc=$?"
sed -n '/^benchmark table/,$p' $OUT/run111-hd.log
timeout 80 python3 bench/decode.py --artifacts artifacts --no-check --graphs \
  --shapes 1x32768,8x8192,64x4096 --kernels d128_gqa,d128_mqa --json $OUT/run111-decode.json \
  > $OUT/run111-decode.log 2>&1; echo "decode rc=$?"
sed -n '/^benchmark table/,$p' $OUT/run111-decode.log
