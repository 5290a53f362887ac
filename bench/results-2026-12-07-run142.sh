#!/usr/bin/env bash
# Run 142 (session 40), tree 0433b1f + bench/gqa_prefill.py. (1) What packing
# a causal GQA kernel of dynamic Nq costs its prefill launches
# (bench/gqa_prefill.py: d128_gqa4_causal as pack-gqa=auto leaves it, unpacked,
# against kernels-pack-all, --pack-gqa=all; checked at ragged shapes, then
# three alternating rounds at B * N = 16k, N 1000..16k, cuDNN beside);
# (2) the decode benchmark from CUDA graphs: the default, decode-whole,
# decode-pack-all (the causal kernel packed and split at launch) and the
# decode step; (3) paged decode. Artifacts: QUICK=1 bash bench/prepare-gpu.sh,
# then build/bin/attnc-compile artifacts/gqa-causal.mlir --pack-gqa=all
# -o artifacts/kernels-pack-all (d128_gqa4_causal alone).
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
timeout 120 python3 bench/gqa_prefill.py --artifacts artifacts --json $OUT/run142-gqa-prefill.json \
  > $OUT/run142-gqa-prefill.log 2>&1
echo "gqa-prefill rc=$?"; grep -E "FAIL|checks:|^B " $OUT/run142-gqa-prefill.log
timeout 300 python3 bench/decode.py --artifacts artifacts --shapes 1x32768,8x8192,64x4096 --graphs \
  --json $OUT/run142-decode.json > $OUT/run142-decode.log 2>&1
echo "decode rc=$?"; grep -E "sweep|FAIL" $OUT/run142-decode.log | head -5
grep -A16 "^graphs" $OUT/run142-decode.log; grep -B1 -A16 "^benchmark table" $OUT/run142-decode.log | head -20
timeout 90 python3 bench/decode_paged.py --artifacts artifacts --json $OUT/run142-paged.json > $OUT/run142-paged.log 2>&1
echo "paged rc=$?"; grep -E "FAIL" $OUT/run142-paged.log | head -3; tail -12 $OUT/run142-paged.log
