#!/usr/bin/env bash
# Run 143 (session 40), tree as run 142: (1) the Python GPU check (kernels
# compiled by the pipeline through the attnc package; artifacts/pyk from
# python/tests/gpu_check_attnc.py --precompile); (2) varlen prefill against
# the dense kernel and cuDNN on the padded batch; (3) attnc-run-artifact over
# the decode steps; (4) the A/B of issue 11 for the kernels of dynamic Nq
# that now split at launch above D = 64: the default against
# kernels-whole-dynamic-rows (bench/kernels.mlir --split-kv-dynamic-rows=off),
# D 64/128/256 x N 1k/4k/16k, causal or not, three alternating rounds.
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
ATTNC_KERNEL_DIR=$PWD/artifacts/pyk ATTNC_RUNTIME_LIB=$PWD/artifacts/lib/libAttncRuntime.so \
  timeout 150 python3 python/tests/gpu_check_attnc.py > $OUT/run143-python.log 2>&1
echo "python rc=$?"; grep -E "FAIL" $OUT/run143-python.log | head; tail -1 $OUT/run143-python.log
timeout 100 python3 bench/varlen.py --artifacts artifacts --json $OUT/run143-varlen.json > $OUT/run143-varlen.log 2>&1
echo "varlen rc=$?"; grep -E "FAIL" $OUT/run143-varlen.log | head -3; tail -12 $OUT/run143-varlen.log
timeout 40 artifacts/bin/attnc-run-artifact artifacts/decode-step/* \
  --shapes=1:1:1,2:1:33,1:1:1000,3:1:4097 > $OUT/run143-artifact.log 2>&1
echo "artifact rc=$?"; grep -c PASS $OUT/run143-artifact.log; grep -c FAIL $OUT/run143-artifact.log
rm -rf artifacts/kernels-pack-all
timeout 280 python3 bench/gpu_check.py --artifacts artifacts --no-sweep --no-flex --ab-rounds 3 \
  --json $OUT/run143-ab.json > $OUT/run143-ab.log 2>&1
echo "ab rc=$?"; grep -A20 "^A/B" $OUT/run143-ab.log; grep -A20 "^benchmark table" $OUT/run143-ab.log
