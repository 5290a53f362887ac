#!/usr/bin/env bash
# Run 114: with the fixed max (run 113) a soft-capped score issues 5.5
# instructions, two of them MUFU; the same kernels with one exponential pair
# in two (in four) computed on the FMA pipe (--software-exp2-period=2, 4) at
# D = 64 and 128, against the fixed-max softcap and the kernel without
# softcap, alternating rounds in one process, at 4k and 16k.
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
timeout 60 artifacts/bin/attnc-run-artifact artifacts/kernels-softcap-sw-exp2/* artifacts/kernels-softcap-sw-exp2-4/* \
  --shapes=1:1:1,2:17:33,1:113:203,1:200:100,1:257:513 > $OUT/run114-artifact.log 2>&1
echo "artifact rc=$?"; grep -c PASS $OUT/run114-artifact.log; grep -E "FAIL" $OUT/run114-artifact.log | head
timeout 300 python3 bench/gpu_check.py --artifacts artifacts --no-flex --no-sweep --ab-rounds 3 \
  --head-dims 64,128 --seqlens 4096,16384 --json $OUT/run114.json > $OUT/run114.log 2>&1; echo "table rc=$?"
sed -n '/^benchmark table/,$p' $OUT/run114.log
