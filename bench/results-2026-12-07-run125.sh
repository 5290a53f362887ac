#!/usr/bin/env bash
# Run 125: speculative steps of 16 and 32 tokens (GQA 32:8, D = 128) on the
# decode-step kernels that attnc.attention now compiles for up to 128 packed
# rows per kv head, against the general kernel, both checked against float64
# first (bench/speculative.py; kernels precompiled into artifacts/pyk).
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
ATTNC_KERNEL_DIR=$PWD/artifacts/pyk ATTNC_RUNTIME_LIB=$PWD/artifacts/lib/libAttncRuntime.so PYTHONPATH=$PWD/python \
  timeout 200 python3 bench/speculative.py --json $OUT/run125-speculative.json > $OUT/run125-speculative.log 2>&1
echo "speculative rc=$?"; cat $OUT/run125-speculative.log | tail -14
