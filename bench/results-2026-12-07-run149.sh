#!/usr/bin/env bash
# Run 149 (session 42), 3aed6f4: varlen batches pack GQA query heads
# (pack-gqa=auto): bench/varlen.mlir's five GQA 32:8 kernels pack g = 4
# (artifacts/varlen), next to varlen_d128_causal unpacked
# (artifacts/varlen-unpacked, --pack-gqa=false); the Python check's varlen
# GQA classes pack too (artifacts/pyk, gpu_check_attnc.py --precompile).
# Prediction: varlen sweep 30/30 (with the new decode and speculative
# batches); prefill 16 x 100..4000 packed at 0.97-1.05x unpacked (~480
# TFLOP/s useful), 256 x 64..512 likewise; the varlen decode step (64
# sequences of one token, 1000..4000 keys) packed 2.5-3.5 TB/s against
# 1.0-1.5 unpacked; attnc-run-artifact over artifacts/varlen all pass;
# Python check 143/143 (its host-overhead case fails on slow H100 hosts).
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
timeout 260 python3 bench/varlen.py --artifacts artifacts --json $OUT/run149-varlen.json > $OUT/run149-varlen.log 2>&1
echo "varlen rc=$?"; grep -E "FAIL|sweep|TFLOP|TB/s|varlen " $OUT/run149-varlen.log | head -30
timeout 60 artifacts/bin/attnc-run-artifact artifacts/varlen/varlen_* > $OUT/run149-run-artifact.log 2>&1
echo "run-artifact rc=$?"; grep -E "FAIL|passed" $OUT/run149-run-artifact.log | head -8
ATTNC_KERNEL_DIR=$PWD/artifacts/pyk ATTNC_RUNTIME_LIB=$PWD/artifacts/lib/libAttncRuntime.so \
  timeout 140 python3 python/tests/gpu_check_attnc.py > $OUT/run149-python.log 2>&1
echo "python rc=$?"; grep -E "FAIL|SUMMARY|passed" $OUT/run149-python.log | head -12
