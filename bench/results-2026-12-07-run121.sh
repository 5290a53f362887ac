#!/usr/bin/env bash
# Run 121 (H200): every head dim of issue 11 item 6 (32 to 256) against cuDNN
# and FA2 at N = 4k and 16k, and the softcap's cost at D = 64, 128 and 256
# (kernels-softcap: the same kernels with softcap = 30, median of 3
# alternating rounds). Artifacts as run 119's, without the other ablations.
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
timeout 420 python3 bench/gpu_check.py --artifacts artifacts --no-sweep --no-flex --seqlens 4096,16384 \
  --head-dims 32,40,64,80,96,128,160,192,224,256 --ab-rounds 3 --json $OUT/run121.json > $OUT/run121.log 2>&1
echo "table rc=$?"; grep -A80 "^benchmark table" $OUT/run121.log | head -90
