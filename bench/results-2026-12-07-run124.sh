#!/usr/bin/env bash
# Run 124 (H200): the decode sweep (float64 reference, Nq 1 and 4, Nk 1 to
# 4097, B 1 and 3, every decode kernel) and the decode benchmark of the
# D = 64 and D = 256 kernels (single calls and CUDA graphs, cuDNN and FA2 in
# the same process), then the varlen prefill benchmark (16 sequences of
# 100-4000 tokens against the dense kernel and the peers on the padded batch).
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
timeout 200 python3 bench/decode.py --artifacts artifacts --kernels decode_d64_gqa,decode_d256_gqa \
  --shapes 1x32768,8x8192 --graphs --json $OUT/run124-decode.json > $OUT/run124-decode.log 2>&1
echo "decode rc=$?"; grep -E "passed|FAIL" $OUT/run124-decode.log | tail -2; grep -A6 "^graphs" $OUT/run124-decode.log
grep -A5 "^benchmark table" $OUT/run124-decode.log | head -6
timeout 150 python3 bench/varlen.py --artifacts artifacts --no-check --json $OUT/run124-varlen.json > $OUT/run124-varlen.log 2>&1
echo "varlen rc=$?"; tail -12 $OUT/run124-varlen.log
