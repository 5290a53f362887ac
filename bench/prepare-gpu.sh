#!/usr/bin/env bash
# Builds (here, where MLIR is) everything the GPU machine needs into the
# git-ignored artifacts/ folder: the runtime library, the compiled kernels of
# bench/kernels.mlir and a copy of the peers script. Then on the GPU machine:
#   bash bench/gpu-check.sh        (correctness sweep + benchmark, one run)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
ninja -C "$BUILD_DIR" attnc-compile AttncRuntime attnc-run-artifact
rm -rf artifacts && mkdir -p artifacts/lib artifacts/bin
cp "$BUILD_DIR/lib/libAttncRuntime.so" artifacts/lib/
cp "$BUILD_DIR/bin/attnc-run-artifact" artifacts/bin/
# The examples as the README's run command would compile them (GPU-capable
# ones; softcap/f32 are CPU-only and are rejected with a diagnostic).
for f in examples/*.mlir; do
  "$BUILD_DIR/bin/attnc-compile" "$f" -o artifacts/examples > /dev/null 2>&1 || true
done
"$BUILD_DIR/bin/attnc-compile" bench/kernels.mlir -o artifacts/kernels
cp ../shared/bench/peers.py artifacts/peers.py
for k in artifacts/kernels/*/; do
  /usr/local/cuda/bin/ptxas -arch=sm_90a -v "$k/kernel.ptx" -o /dev/null 2>&1 \
    | grep -A2 "entry function '$(basename "$k")'" | tr -s ' ' | paste -sd' ' \
    | sed "s/^/ptxas: /"
done > artifacts/ptxas.txt
cat artifacts/ptxas.txt
# auto: the sm_90a table (a producer everywhere, ping-pong where it keeps it)
"$BUILD_DIR/bin/attnc-compile" bench/tune.mlir --warp-specialize=auto -o artifacts/tune > /dev/null
# Ablation: the same kernels without the producer warpgroup.
"$BUILD_DIR/bin/attnc-compile" bench/kernels.mlir --warp-specialize=off \
  -o artifacts/kernels-no-ws > /dev/null
"$BUILD_DIR/bin/attnc-compile" bench/kernels.mlir --intra-warpgroup-overlap=true \
  -o artifacts/kernels-overlap > /dev/null
"$BUILD_DIR/bin/attnc-compile" bench/kernels.mlir --ping-pong=false \
  -o artifacts/kernels-no-pingpong > /dev/null
"$BUILD_DIR/bin/attnc-compile" bench/kernels.mlir --conditional-rescale=true \
  -o artifacts/kernels-conditional-rescale > /dev/null
# Ping-pong wherever two consumers allow it (the table drops it at D = 256).
"$BUILD_DIR/bin/attnc-compile" bench/kernels.mlir --warp-specialize=on --ping-pong=true \
  -o artifacts/kernels-pingpong-all > /dev/null
"$BUILD_DIR/bin/attnc-compile" bench/kernels.mlir --intra-warpgroup-overlap=true --ping-pong=false \
  -o artifacts/kernels-overlap-no-pingpong > /dev/null
# P through shared memory (another block_m x block_n buffer) does not fit
# next to the D = 256 tiles (128 x 80), a third K/V stage not next to any
# D > 128 tile: those kernels are left out of these two ablations.
without() { grep -v -e '^//' bench/kernels.mlir | awk "/^func.func @d($1)_/{skip=1} skip&&/^}/{skip=0;next} !skip"; }
without 256 > artifacts/kernels-up-to-d192.mlir
without '192|256' > artifacts/kernels-up-to-d128.mlir
"$BUILD_DIR/bin/attnc-compile" artifacts/kernels-up-to-d192.mlir --probs-in-registers=false \
  -o artifacts/kernels-no-rs > /dev/null
"$BUILD_DIR/bin/attnc-compile" artifacts/kernels-up-to-d128.mlir --stages=3 \
  -o artifacts/kernels-3-stages > /dev/null
"$BUILD_DIR/bin/attnc-compile" bench/kernels.mlir --tile-order=in-order \
  -o artifacts/kernels-in-order > /dev/null
