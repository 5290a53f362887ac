#!/usr/bin/env bash
# Run 135 (session 38): what a prefill kernel pays for taking its kv split
# count at launch. The standard table's kernels (bench/kernels.mlir, D 64 /
# 128 / 256, causal or not, dynamic Nq) also compiled with kv_splits(%splits)
# (`kernels-splitcap`: the runtime's heuristic picks 1 split at every shape
# of the table, where the kernel writes O itself), A/B against the default
# (median of 3 alternating rounds); the same split-capable kernels are in
# the float64 sweep as <name>_splitcap, whose small shapes (e.g. Nq 113, Nk
# 203: 32 tiles) split and run the combine. Artifacts: run 132's, plus those,
# made (after QUICK=1 bash bench/prepare-gpu.sh) by:
#   grep -v -e '^//' bench/kernels.mlir \
#     | awk '/^func.func @/{keep=/^func.func @d(64|128|256)_(full|causal)\(/} keep' \
#     | sed -E 's/(%v: tensor<[^>]*>)\)/\1, %splits: index)/; /attn.attention/ s/$/ kv_splits(%splits)/' \
#     > /tmp/kernels-split.mlir
#   build/bin/attnc-compile /tmp/kernels-split.mlir -o artifacts/kernels-splitcap
#   sed -E 's/^func.func @(d[0-9]+_[a-z]+)\(/func.func @\1_splitcap(/' /tmp/kernels-split.mlir \
#     > /tmp/kernels-splitcap-check.mlir
#   build/bin/attnc-compile /tmp/kernels-splitcap-check.mlir -o artifacts/kernels-splitcheck
# (what --split-kv-dynamic-rows, added after this run, compiles them to).
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
mv artifacts/kernels artifacts/allkernels && mkdir artifacts/kernels
cp -r artifacts/allkernels/d{64,128,256}_{full,causal} artifacts/kernels-splitcheck/* artifacts/kernels/
timeout 120 python3 bench/gpu_check.py --artifacts artifacts --no-bench --json $OUT/run135-sweep.json \
  > $OUT/run135-sweep.log 2>&1; echo "sweep rc=$?"; grep -E "FAIL|correctness sweep" $OUT/run135-sweep.log | head
rm -rf artifacts/kernels-splitcheck
timeout 400 python3 bench/gpu_check.py --artifacts artifacts --no-sweep --no-flex --ab-rounds 3 \
  --json $OUT/run135.json > $OUT/run135.log 2>&1
echo "table rc=$?"; grep -A20 "^A/B" $OUT/run135.log | head -22
