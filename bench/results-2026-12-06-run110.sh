#!/usr/bin/env bash
# Run 110: 1dc4edd's kernels (Q's load and the tile's stores at their ops'
# coordinates): every correctness check, then the standard table's A/B
# against cd67361's kernels (kernels-base) and, on an H200, 43d6c15's.
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
[[ "$GPU" == *H200* ]] || rm -rf artifacts/kernels-base43
timeout 30 artifacts/bin/attnc-run-artifact artifacts/examples/* artifacts/kernels/* \
  --shapes=1:1:1,2:17:33,1:113:203,1:200:100,1:257:513 > $OUT/run110-artifact.log 2>&1
echo "artifact rc=$?"; tail -1 $OUT/run110-artifact.log
timeout 60 python3 bench/varlen.py --artifacts artifacts --check-only --json $OUT/run110-varlen.json > $OUT/run110-varlen.log 2>&1
echo "varlen rc=$?"; tail -1 $OUT/run110-varlen.log
ATTNC_KERNEL_DIR=$PWD/artifacts/pyk ATTNC_RUNTIME_LIB=$PWD/artifacts/lib/libAttncRuntime.so \
  timeout 120 python3 python/tests/gpu_check_attnc.py > $OUT/run110-python.log 2>&1
echo "python rc=$?"; tail -2 $OUT/run110-python.log
timeout 90 python3 bench/decode_paged.py --artifacts artifacts --json $OUT/run110-paged.json > $OUT/run110-paged.log 2>&1
echo "paged rc=$?"; tail -3 $OUT/run110-paged.log
timeout 120 python3 bench/decode.py --artifacts artifacts --shapes 8x8192,1x32768 \
  --json $OUT/run110-decode.json > $OUT/run110-decode.log 2>&1; echo "decode rc=$?"
grep -E "passed|FAIL" $OUT/run110-decode.log | tail -2
timeout 330 python3 bench/gpu_check.py --artifacts artifacts --no-flex --ab-rounds 3 --json $OUT/run110.json \
  > $OUT/run110.log 2>&1; echo "table rc=$?"; grep -E "passed|FAIL" $OUT/run110.log | tail -3
tail -40 $OUT/run110.log
