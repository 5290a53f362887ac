#!/usr/bin/env bash
# Run 148 (session 41), 27ec248: pack-gqa=auto now packs masked GQA
# attentions of any Nq, so the Python check's general kernels of the causal
# and windowed GQA classes (bhsd and bshd) are packed, token-major (50 of its
# 66 kernels pack). Artifacts: gpu_check_attnc.py --precompile artifacts/pyk
# at 27ec248 (the rest as run 145).
# Prediction: every check passes (143).
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
ATTNC_KERNEL_DIR=$PWD/artifacts/pyk ATTNC_RUNTIME_LIB=$PWD/artifacts/lib/libAttncRuntime.so \
  timeout 200 python3 python/tests/gpu_check_attnc.py > $OUT/run148-python.log 2>&1
echo "python rc=$?"; grep -E "FAIL|SUMMARY" $OUT/run148-python.log | head -12
