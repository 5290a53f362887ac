#!/usr/bin/env bash
# Run 116 (prepared with QUICK=1 SOFTCAP_TUNE=1 bash bench/prepare-gpu.sh):
# 1. run 115's owed check of the default kernels since the table's period 4
#    for a fixed-max softcap at D <= 128: attnc-run-artifact over the
#    soft-capped kernels and the new tuning variants, then the sweep;
# 2. the soft-capped kernels at D <= 128 with one schedule choice changed
#    (periods 2, 3, 8; no ping-pong; sequential step; two consumers at
#    D = 64), and the default and period-2 kernels of ef16536, before the
#    bounded software exp2 of 49940e4 (as amended by the review's commit) (kernels-softcap-select,
#    kernels-softcap-p2-select: copied in by hand after prepare-gpu.sh),
#    alternating rounds against the kernel without softcap, 4k/16k.
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
timeout 60 artifacts/bin/attnc-run-artifact artifacts/kernels-softcap*/d{64,128}_{full,causal} artifacts/kernels/*softcap* \
  --shapes=1:1:1,2:17:33,1:113:203,1:200:100,1:257:513 > $OUT/run116-artifact.log 2>&1
echo "artifact rc=$?"; grep -c PASS $OUT/run116-artifact.log; grep -E "FAIL" $OUT/run116-artifact.log | head
timeout 170 python3 bench/gpu_check.py --artifacts artifacts --no-flex --no-bench \
  --json $OUT/run116-sweep.json > $OUT/run116-sweep.log 2>&1; echo "sweep rc=$?"
grep -E "passed|FAIL" $OUT/run116-sweep.log | tail -5
# The table times every artifacts/kernels-*: only the tuning set.
rm -rf artifacts/kernels-softcap-running-max artifacts/kernels-softcap-mufu-exp2
timeout 330 python3 bench/gpu_check.py --artifacts artifacts --no-flex --no-sweep --ab-rounds 3 \
  --head-dims 64,128 --seqlens 4096,16384 --json $OUT/run116.json > $OUT/run116.log 2>&1; echo "table rc=$?"
sed -n '/^benchmark table/,$p' $OUT/run116.log; grep -A40 "attnc: 8 shapes" $OUT/run116.log | head -40
# The instruction mix of the soft-capped kernels and the ones without
# softcap (whole kernel, static counts) for the note's accounting.
for k in kernels/d64_full kernels-softcap/d64_full kernels/d128_full kernels-softcap/d128_full; do
  /usr/local/cuda/bin/ptxas -arch=sm_90a artifacts/$k/kernel.ptx -o /tmp/k.cubin && cuobjdump -sass /tmp/k.cubin > /tmp/k.sass
  printf "%-26s" $k
  sed -nE 's#^\s+/\*[0-9a-f]{4}\*/\s+(@!?U?P[0-9T]+\s+)?([A-Z0-9_]+(\.[A-Z0-9]+)?).*#\2#p' /tmp/k.sass \
    | sort | uniq -c | sort -rn | head -16 | awk '{printf " %s:%s", $2, $1}'; echo
done
