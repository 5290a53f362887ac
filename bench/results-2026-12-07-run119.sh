#!/usr/bin/env bash
# Run 119: the runtime's tensor-map cache (c1e1d59). (1) The host cost of a
# launch through this runtime and through the runtime of 4d71d06 (built from
# a worktree, carried as artifacts/lib-old), twice in turn; (2) the Python
# check of attnc.attention on the GPU (float64 references, poisoned outputs,
# the per-call overhead on a cache hit) and attnc-run-artifact at ragged
# shapes, both through the new runtime. Artifacts: those of runs 117-118,
# the new libAttncRuntime.so in artifacts/lib, `python3
# python/tests/gpu_check_attnc.py --precompile artifacts/pyk`.
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
timeout 90 python3 bench/host_probe.py artifacts/lib/libAttncRuntime.so artifacts/lib-old/libAttncRuntime.so \
  > $OUT/run119-host.log 2>&1; echo "host probe rc=$?"; cat $OUT/run119-host.log
ATTNC_KERNEL_DIR=$PWD/artifacts/pyk ATTNC_RUNTIME_LIB=$PWD/artifacts/lib/libAttncRuntime.so \
  timeout 150 python3 python/tests/gpu_check_attnc.py > $OUT/run119-python.log 2>&1
echo "python rc=$?"; grep -E "FAIL|overhead" $OUT/run119-python.log | head; tail -2 $OUT/run119-python.log
timeout 60 artifacts/bin/attnc-run-artifact artifacts/examples/* artifacts/kernels/* artifacts/decode-step/* \
  --shapes=1:1:1,2:17:33,1:113:203,1:200:100,1:257:513 > $OUT/run119-artifact.log 2>&1
echo "artifact rc=$?"; grep -c PASS $OUT/run119-artifact.log; grep -c FAIL $OUT/run119-artifact.log
