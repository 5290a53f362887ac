#!/usr/bin/env bash
# Run 126: the Python check of attnc.attention on the GPU at 4fc0c99 (its
# BHSD GQA cases now run Sq = 17 on decode-step kernels: 68 packed rows at
# 4:1), float64 references and poisoned outputs, through the runtime with
# the tensor-map cache. Kernels: python3 python/tests/gpu_check_attnc.py
# --precompile artifacts/pyk.
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
ATTNC_KERNEL_DIR=$PWD/artifacts/pyk ATTNC_RUNTIME_LIB=$PWD/artifacts/lib/libAttncRuntime.so \
  timeout 200 python3 python/tests/gpu_check_attnc.py > $OUT/run126-python.log 2>&1
echo "python rc=$?"; grep -E "FAIL|overhead|q17" $OUT/run126-python.log | head; tail -2 $OUT/run126-python.log
