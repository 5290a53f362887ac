#!/usr/bin/env bash
# Run 138 (session 39): issue 12's decode figures at 6aee49f on the card the
# issue names (asked for the H200 kind), then a probe: the decode-step
# kernels with two CTAs an SM. Artifacts: QUICK=1 bash bench/prepare-gpu.sh
# at 6aee49f, plus artifacts/two/decode-step: artifacts/decode-step's
# d128_gqa, d64_gqa and d128_mqa with their PTX edited by hand
#   sed -i -e 's/^\.minnctapersm 1$/.minnctapersm 2/' \
#     -e 's/setmaxnreg.inc.sync.aligned.u32 \t232;/setmaxnreg.inc.sync.aligned.u32 \t216;/'
# (ptxas: 128 registers at launch, 0 spills; 112 KiB of shared memory at
# D <= 128 leaves room for two CTAs; 40 + 216 registers a thread is
# 128 x 256 x 2 = 64K for two). The split counts are forced (the
# heuristic counts 132 SMs, not 264 slots).
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
RUN=run138 timeout 300 bash bench/results-2026-12-07-run134.sh
for dir in artifacts artifacts/two; do
  tag=$([ $dir = artifacts ] && echo one || echo two)
  timeout 200 python3 bench/split_sweep.py --artifacts $dir --kernels decode_d128_gqa,decode_d64_gqa,decode_d128_mqa \
    --shapes 1x32768,8x8192,64x4096 --splits 2,4,8,16,32,33,64,66 --json $OUT/run138-splits-$tag.json \
    > $OUT/run138-splits-$tag.log 2>&1
  echo "splits $tag rc=$?"; tail -1 $OUT/run138-splits-$tag.log
done
paste <(cut -c1-60 $OUT/run138-splits-one.log) <(cut -c33-60 $OUT/run138-splits-two.log) | grep -vE "cuDNN|kernel " | head -90
