#!/usr/bin/env bash
# Run 116 (prepared with QUICK=1 SOFTCAP_TUNE=1 bash bench/prepare-gpu.sh at
# 8cb517e, then the default and period-2 softcap kernels of ef16536, before
# the bounded software exp2, copied in by hand as kernels-softcap-select and
# kernels-softcap-p2-select; the running-max and MUFU-only sets removed):
# 1. attnc-run-artifact over every soft-capped kernel at ragged shapes;
# 2. the soft-capped kernels at D <= 128: the default (period 4, bounded
#    software exp2 in unmasked steps) against its select form (ef16536),
#    periods 2 (and its select form) and 3,
#    two consumers with the overlap at D = 64, alternating rounds against the
#    kernel without softcap, 4k and 16k;
# 3. run 115's owed sweep of the default kernels, in the time left;
# 4. the SASS instruction mix of the D <= 128 kernels with and without softcap.
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
rm -rf artifacts/kernels-softcap-p8 artifacts/kernels-softcap-no-pingpong artifacts/kernels-softcap-bm128 artifacts/kernels-softcap-seq
timeout 30 artifacts/bin/attnc-run-artifact artifacts/kernels-softcap*/d{64,128}_{full,causal} artifacts/kernels/*softcap* \
  --shapes=1:1:1,2:17:33,1:113:203,1:200:100,1:257:513 > $OUT/run116-artifact.log 2>&1
echo "artifact rc=$?"; grep -c PASS $OUT/run116-artifact.log; grep -E "FAIL" $OUT/run116-artifact.log | head
timeout 200 python3 bench/gpu_check.py --artifacts artifacts --no-flex --no-sweep --ab-rounds 3 \
  --head-dims 64,128 --seqlens 4096,16384 --json $OUT/run116.json > $OUT/run116.log 2>&1; echo "table rc=$? at ${SECONDS}s"
grep -A40 "attnc: 8 shapes" $OUT/run116.log | head -40
for k in kernels/d64_full kernels-softcap/d64_full kernels/d128_full kernels-softcap/d128_full; do
  /usr/local/cuda/bin/ptxas -arch=sm_90a artifacts/$k/kernel.ptx -o /tmp/k.cubin && cuobjdump -sass /tmp/k.cubin > /tmp/k.sass
  printf "%-26s" $k
  sed -nE 's#^\s+/\*[0-9a-f]{4}\*/\s+(@!?U?P[0-9T]+\s+)?([A-Z0-9_]+(\.[A-Z0-9]+)?).*#\2#p' /tmp/k.sass \
    | sort | uniq -c | sort -rn | head -16 | awk '{printf " %s:%s", $2, $1}'; echo
done
LEFT=$((${RUN_LIMIT:-575} - SECONDS)); echo "sweep gets ${LEFT}s"
timeout $LEFT python3 bench/gpu_check.py --artifacts artifacts --no-flex --no-bench \
  --json $OUT/run116-sweep.json > $OUT/run116-sweep.log 2>&1; echo "sweep rc=$?"
grep -E "passed|FAIL" $OUT/run116-sweep.log | tail -5
