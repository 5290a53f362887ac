#!/usr/bin/env bash
# Run 129 (session 38): issue 12's decode shapes from CUDA graphs next to
# what reading the same K and V costs with no attention (decode.py's new
# `read K,V` column: a PyTorch sum of K and of V replayed the same way), and
# the phases (attention kernel, combine) at this tree. Artifacts: run 128's
# (`QUICK=1 SOFTCAP_TUNE=1 bash bench/prepare-gpu.sh`), decode and decode-step
# directories only.
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
rm -rf artifacts/kernels-* artifacts/decode-{bm64,no-pack,pack-all,split,split-bm64,split-bm64-no-pdl}
timeout 300 python3 bench/decode.py --artifacts artifacts --no-check --kernels decode_d128_gqa,decode_d128_mqa \
  --shapes 1x32768,8x8192,64x4096 --graphs --phases --json $OUT/run129-decode.json > $OUT/run129-decode.log 2>&1
echo "decode rc=$?"; grep -A12 "^graphs" $OUT/run129-decode.log; grep -B1 -A10 "^benchmark table" $OUT/run129-decode.log | head -14
grep -A16 "^phases" $OUT/run129-decode.log | head -20
