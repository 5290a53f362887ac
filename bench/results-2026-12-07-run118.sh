#!/usr/bin/env bash
# Run 118: the tensor maps' descriptors prefetched at the kernel's entry
# (prefetch.param.tensormap by thread 0 after the barriers' init), a
# same-run A/B against the kernels of the commit before it (kernels-noprefetch,
# decode-noprefetch, decode-step-noprefetch: artifacts/ as prepared before the
# change, copied in). Artifacts: QUICK=1 SOFTCAP_TUNE=1 bash bench/prepare-gpu.sh,
# then the three old directories copied in.
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
rm -rf artifacts/kernels-softcap* artifacts/decode-{bm64,no-pack,pack-all,split,split-bm64,split-bm64-no-pdl}
timeout 30 artifacts/bin/attnc-run-artifact artifacts/examples/* artifacts/kernels/* \
  --shapes=1:1:1,2:17:33,1:113:203,1:200:100,1:257:513 > $OUT/run118-artifact.log 2>&1
echo "artifact rc=$?"; tail -1 $OUT/run118-artifact.log
timeout 150 python3 bench/decode.py --artifacts artifacts --no-check --kernels decode_d128_gqa \
  --shapes 1x4096,1x32768,8x8192 --graphs --json $OUT/run118-decode.json > $OUT/run118-decode.log 2>&1
echo "decode rc=$?"; grep -v "^ *$" $OUT/run118-decode.log | tail -25
timeout 300 python3 bench/gpu_check.py --artifacts artifacts --no-sweep --no-flex --seqlens 1024,4096 \
  --ab-rounds 3 --json $OUT/run118.json > $OUT/run118.log 2>&1; echo "table rc=$?"
tail -30 $OUT/run118.log
