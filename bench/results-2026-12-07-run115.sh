#!/usr/bin/env bash
# Run 115: the default kernels after the sm_90a table's period 4 for a
# fixed-max softcap at D <= 128 (8b9cf99): the correctness sweep, whose
# d128_softcap and d128_causal_softcap now compute one exponential pair in
# four on the FMA pipe, and attnc-run-artifact over the soft-capped kernels.
# (The timings of these kernels are run 114's period-4 column: their PTX is
# byte-identical.)
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
timeout 45 artifacts/bin/attnc-run-artifact artifacts/kernels-softcap/* artifacts/kernels/*softcap* \
  --shapes=1:1:1,2:17:33,1:113:203,1:200:100,1:257:513 > $OUT/run115-artifact.log 2>&1
echo "artifact rc=$?"; grep -c PASS $OUT/run115-artifact.log; grep -E "FAIL" $OUT/run115-artifact.log | head
timeout 150 python3 bench/gpu_check.py --artifacts artifacts --no-flex --no-bench \
  --json $OUT/run115.json > $OUT/run115.log 2>&1; echo "sweep rc=$?"
grep -E "passed|FAIL" $OUT/run115.log | tail -5
