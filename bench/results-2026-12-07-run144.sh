#!/usr/bin/env bash
# Run 144 (session 40): the split heuristic's new floor (deec222's kMaxUnsplitKvBlocks:
# at most 4 kv blocks run unsplit, FlashAttention's rule). (1) Decode steps
# at short caches from CUDA graphs with the new runtime (artifacts/lib) and
# the former one (artifacts/old/lib, 0433b1f's; the same kernels): the
# decode step's 64-key blocks at Nk 128 / 256 (2 and 4 blocks, split 2 and 4
# ways before, whole now), 512 (8 blocks, split by both); the kernel for
# every Nq (128-key blocks). (2) The Python GPU check with the new runtime
# (its overhead case has two 64-key blocks), first: the device time left
# was short.
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
ATTNC_KERNEL_DIR=$PWD/artifacts/pyk ATTNC_RUNTIME_LIB=$PWD/artifacts/lib/libAttncRuntime.so \
  timeout 150 python3 python/tests/gpu_check_attnc.py > $OUT/run144-python.log 2>&1
echo "python rc=$?"; grep -E "FAIL|overhead" $OUT/run144-python.log | head; tail -1 $OUT/run144-python.log
for rt in new old; do
  dir=artifacts; [[ $rt == old ]] && dir=artifacts/old
  timeout 50 python3 bench/decode.py --artifacts $dir --no-check --graphs --kernels decode_d128_gqa \
    --shapes 1x128,1x256,1x512 --json $OUT/run144-decode-$rt.json > $OUT/run144-decode-$rt.log 2>&1
  echo "decode $rt rc=$?"; grep -A12 "^graphs" $OUT/run144-decode-$rt.log
done
