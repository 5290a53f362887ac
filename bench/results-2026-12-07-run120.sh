#!/usr/bin/env bash
# Run 120: (1) run 119's host A/B again with the old runtime's testing
# library carried too; (2) on an H200, the decode targets of issue 12 from
# single calls and CUDA graphs (decode-step, GQA 32:8 and MQA, D = 128) with
# cuDNN and FA2 in the same process; (3) the standard table against cuDNN and
# FA2 (no ablations). Artifacts as run 119's.
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
timeout 90 python3 bench/host_probe.py artifacts/lib/libAttncRuntime.so artifacts/lib-old/libAttncRuntime.so \
  > $OUT/run120-host.log 2>&1; echo "host probe rc=$?"; cat $OUT/run120-host.log
rm -rf artifacts/kernels-* artifacts/decode-{bm64,no-pack,pack-all,split,split-bm64,split-bm64-no-pdl,noprefetch,step-noprefetch}
timeout 200 python3 bench/decode.py --artifacts artifacts --no-check --kernels decode_d128_gqa,decode_d128_mqa \
  --shapes 1x32768,8x8192,64x4096 --graphs --json $OUT/run120-decode.json > $OUT/run120-decode.log 2>&1
echo "decode rc=$?"; grep -A12 "^graphs" $OUT/run120-decode.log; grep -B1 -A10 "^benchmark table" $OUT/run120-decode.log | head -14
timeout 280 python3 bench/gpu_check.py --artifacts artifacts --no-sweep --no-flex --json $OUT/run120.json \
  > $OUT/run120.log 2>&1; echo "table rc=$?"; tail -22 $OUT/run120.log
