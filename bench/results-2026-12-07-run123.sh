#!/usr/bin/env bash
# Run 123 (H200): the correctness checks at this session's head (the
# descriptor prefetch, the tensor-map cache): the sweep of gpu_check.py
# (float64 reference, NaN-poisoned outputs, ragged lengths, fully masked
# rows, several scales with one kernel, every head dim and softcap),
# the varlen and paged checks, and attnc-run-artifact over the examples,
# the kernels and the decode step at ragged shapes.
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
rm -rf artifacts/kernels-base43
timeout 200 python3 bench/gpu_check.py --artifacts artifacts --no-bench --json $OUT/run123-sweep.json \
  > $OUT/run123-sweep.log 2>&1; echo "sweep rc=$?"; grep -E "passed|FAIL" $OUT/run123-sweep.log | tail -3
timeout 60 python3 bench/varlen.py --artifacts artifacts --check-only --json $OUT/run123-varlen.json > $OUT/run123-varlen.log 2>&1
echo "varlen rc=$?"; tail -1 $OUT/run123-varlen.log
timeout 90 python3 bench/decode_paged.py --artifacts artifacts --json $OUT/run123-paged.json > $OUT/run123-paged.log 2>&1
echo "paged rc=$?"; tail -3 $OUT/run123-paged.log
timeout 90 artifacts/bin/attnc-run-artifact artifacts/examples/* artifacts/kernels/* artifacts/decode-step/* \
  --shapes=1:1:1,2:17:33,1:113:203,1:200:100,1:257:513 > $OUT/run123-artifact.log 2>&1
echo "artifact rc=$?"; grep -c PASS $OUT/run123-artifact.log; grep -c FAIL $OUT/run123-artifact.log
