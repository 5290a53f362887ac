#!/usr/bin/env bash
# (The option was withdrawn after this run: tanh.approx.f16x2 is two
# MUFU.TANH.F16 operations on sm_90a; bench/HISTORY.md, run 128. The diff
# that added it is described there.)
# Run 128 (session 38): attn.softcap's packed_f16_tanh (--packed-tanh=on:
# tanh.approx.f16x2, one MUFU operation for two scores). (1) The sweep,
# which now checks soft-capped kernels at scale 2 too (scale * s / cap near
# 1, where tanh bends), with d64_causal / d128_causal / d128 soft-capped
# kernels compiled packed; (2) the MUFU operations of a D = 128 kv step in
# SASS, packed and not; (3) the softcap's cost at D = 64 and 128, 4k and
# 16k: kernels-softcap (the table: f32 tanh, exp2 period 4 / 3), -p4, and
# the packed tanh with the table's period, with every exp2 on MUFU and
# with period 4 (median of 3 alternating rounds). Artifacts:
# QUICK=1 SOFTCAP_TUNE=1 bash bench/prepare-gpu.sh, less the SOFTCAP_TUNE
# ablations other than p4 and the packed ones.
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
timeout 200 python3 bench/gpu_check.py --artifacts artifacts --no-bench --json $OUT/run128-sweep.json \
  > $OUT/run128-sweep.log 2>&1
echo "sweep rc=$?"; grep -E "FAIL|correctness sweep" $OUT/run128-sweep.log | head -20
grep -E "softcap" $OUT/run128-sweep.log | sort -k6 -g | tail -12
for k in artifacts/kernels/d128_softcap artifacts/kernels/d128_softcap_packed_tanh \
         artifacts/kernels/d64_causal_softcap_packed_tanh artifacts/kernels-softcap/d64_causal; do
  /usr/local/cuda/bin/ptxas -arch=sm_90a $k/kernel.ptx -o /tmp/k.cubin && /usr/local/cuda/bin/cuobjdump -sass /tmp/k.cubin > /tmp/k.sass
  echo "$k: $(grep -c 'MUFU.TANH' /tmp/k.sass) MUFU.TANH, $(grep -c 'MUFU.EX2' /tmp/k.sass) MUFU.EX2," \
    "$(grep -oE 'MUFU\.TANH[.A-Z0-9_]*' /tmp/k.sass | sort | uniq -c | tr '\n' ' ')"
done
timeout 330 python3 bench/gpu_check.py --artifacts artifacts --no-sweep --no-flex --seqlens 4096,16384 \
  --head-dims 64,128 --ab-rounds 3 --json $OUT/run128.json > $OUT/run128.log 2>&1
echo "table rc=$?"; grep -E "^ +[0-9]|A/B" $OUT/run128.log | head -40
