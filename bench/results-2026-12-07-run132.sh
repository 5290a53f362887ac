#!/usr/bin/env bash
# Run 132 (session 38): the tree with 64-key decode blocks at 64 < D <= 128
# (3169adf). (1) The decode sweep (float64, poisoned outputs; cache lengths
# 1, 17, 1000, 4097; Nq 1 and 4; split, packed) and the decode benchmark of
# issue 12 from single calls and CUDA graphs, with cuDNN, FA2 and a read of
# the same K and V; (2) paged decode (pools of 16- and 256-token pages)
# checked and timed against dense; (3) the Python GPU check (decode steps
# compiled by the pipeline); (4) attnc-run-artifact over the decode steps.
# Artifacts: QUICK=1 bash bench/prepare-gpu.sh, then python3
# python/tests/gpu_check_attnc.py --precompile artifacts/pyk; no ablations.
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
rm -rf artifacts/decode-{bm64,no-pack,pack-all,split,split-bm64,split-bm64-no-pdl}
timeout 260 python3 bench/decode.py --artifacts artifacts --shapes 1x32768,8x8192,64x4096 --graphs \
  --json $OUT/run132-decode.json > $OUT/run132-decode.log 2>&1
echo "decode rc=$?"; grep -E "sweep|FAIL" $OUT/run132-decode.log | head -5
grep -A16 "^graphs" $OUT/run132-decode.log; grep -B1 -A16 "^benchmark table" $OUT/run132-decode.log | head -20
timeout 90 python3 bench/decode_paged.py --artifacts artifacts --json $OUT/run132-paged.json > $OUT/run132-paged.log 2>&1
echo "paged rc=$?"; grep -E "FAIL" $OUT/run132-paged.log | head -3; tail -12 $OUT/run132-paged.log
ATTNC_KERNEL_DIR=$PWD/artifacts/pyk ATTNC_RUNTIME_LIB=$PWD/artifacts/lib/libAttncRuntime.so \
  timeout 150 python3 python/tests/gpu_check_attnc.py > $OUT/run132-python.log 2>&1
echo "python rc=$?"; grep -E "FAIL" $OUT/run132-python.log | head; tail -1 $OUT/run132-python.log
timeout 60 artifacts/bin/attnc-run-artifact artifacts/decode-step/* \
  --shapes=1:1:1,2:1:33,1:1:1000,3:1:4097 > $OUT/run132-artifact.log 2>&1
echo "artifact rc=$?"; grep -c PASS $OUT/run132-artifact.log; grep -c FAIL $OUT/run132-artifact.log
