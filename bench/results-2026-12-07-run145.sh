#!/usr/bin/env bash
# Run 145 (session 41), branch token-major-packing at e015b92 + the g = 6
# Python case: packed rows token-major (row n * g + j), Q and O maps over
# (d, g, s, h, b). (1) The Python GPU check (packed decode-step kernels of
# 1, 4 and 17 tokens in both layouts, g = 6 one token); (2)
# bench/gqa_prefill.py: d128_gqa4_causal unpacked (pack-gqa=auto) against
# kernels-pack-all (--pack-gqa=all, now token-major), checks then three
# alternating rounds; (3) paged decode.
# Prediction: every check passes; packed/unpacked prefill time 0.97-1.03 at
# every N (run 142, head-major: 1.17 at N = 1000, 1.055 at 3000), since no
# tile straddles two heads and the kv blocks visited are the same.
# Artifacts: QUICK=1 bash bench/prepare-gpu.sh; artifacts/gqa-causal.mlir
# (d128_gqa4_causal of bench/kernels.mlir) --pack-gqa=all -o
# artifacts/kernels-pack-all; gpu_check_attnc.py --precompile artifacts/pyk.
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
ATTNC_KERNEL_DIR=$PWD/artifacts/pyk ATTNC_RUNTIME_LIB=$PWD/artifacts/lib/libAttncRuntime.so \
  timeout 200 python3 python/tests/gpu_check_attnc.py > $OUT/run145-python.log 2>&1
echo "python rc=$?"; grep -E "FAIL|SUMMARY" $OUT/run145-python.log | head -12
timeout 150 python3 bench/gqa_prefill.py --artifacts artifacts --json $OUT/run145-gqa-prefill.json \
  > $OUT/run145-gqa-prefill.log 2>&1
echo "gqa-prefill rc=$?"; grep -E "FAIL|checks:|^B |ratio|N=" $OUT/run145-gqa-prefill.log | head -30
timeout 120 python3 bench/decode_paged.py --artifacts artifacts --json $OUT/run145-paged.json > $OUT/run145-paged.log 2>&1
echo "paged rc=$?"; grep -E "FAIL" $OUT/run145-paged.log | head -3; tail -12 $OUT/run145-paged.log
