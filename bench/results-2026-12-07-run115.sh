#!/usr/bin/env bash
# Run 115: the default kernels after the sm_90a table's period 4 for a
# fixed-max softcap at D <= 128: every correctness check of the sweep and
# attnc-run-artifact over the soft-capped kernels, then the softcap's cost
# (the table's kernels against the same with softcap = 30) at 4k and 16k.
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
timeout 45 artifacts/bin/attnc-run-artifact artifacts/kernels-softcap/* artifacts/kernels/*softcap* \
  --shapes=1:1:1,2:17:33,1:113:203,1:200:100,1:257:513 > $OUT/run115-artifact.log 2>&1
echo "artifact rc=$?"; grep -c PASS $OUT/run115-artifact.log; grep -E "FAIL" $OUT/run115-artifact.log | head
timeout 200 python3 bench/gpu_check.py --artifacts artifacts --no-flex --ab-rounds 3 --seqlens 4096,16384 \
  --json $OUT/run115.json > $OUT/run115.log 2>&1; echo "table rc=$?"
grep -E "passed|FAIL" $OUT/run115.log | tail -3
sed -n '/^benchmark table/,$p' $OUT/run115.log
