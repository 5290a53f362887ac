#!/usr/bin/env bash
# Run 113: attn-softcap-fixed-max (a soft-capped softmax subtracts a fixed
# max of 0 instead of a running one). Correctness of every soft-capped
# kernel, then the softcap's cost: the table's kernels against the same
# kernels with softcap = 30 (fixed max) and with the running max
# (--softcap-fixed-max=false), and with the fixed max and one exponential
# pair in two on the FMA pipe (--software-exp2-period=2, D = 64 only), alternating rounds
# in one process, at the issue's 4k and 16k.
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
timeout 90 artifacts/bin/attnc-run-artifact artifacts/kernels-softcap/* artifacts/kernels-softcap-running-max/* artifacts/kernels-softcap-sw-exp2/* \
  artifacts/kernels/*softcap* --shapes=1:1:1,2:17:33,1:113:203,1:200:100,1:257:513 > $OUT/run113-artifact.log 2>&1
echo "artifact rc=$?"; grep -E "FAIL" $OUT/run113-artifact.log | head; tail -1 $OUT/run113-artifact.log
timeout 380 python3 bench/gpu_check.py --artifacts artifacts --no-flex --ab-rounds 3 --seqlens 4096,16384 \
  --json $OUT/run113.json > $OUT/run113.log 2>&1; echo "table rc=$?"
grep -E "passed|FAIL" $OUT/run113.log | tail -5
sed -n '/^benchmark table/,$p' $OUT/run113.log
