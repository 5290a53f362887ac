#!/usr/bin/env bash
# Run 117: attnc-run-artifact over the D = 128 soft-capped kernels of
# period 3 (the sm_90a table's default since this commit; byte-identical to
# run 116's kernels-softcap-p3) and the D = 64 default, at ragged shapes.
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
timeout 40 artifacts/bin/attnc-run-artifact artifacts/kernels-softcap-p3/d128_{full,causal} artifacts/kernels-softcap/d64_causal \
  --shapes=1:1:1,2:17:33,1:113:203,1:200:100,1:257:513 > $OUT/run117-artifact.log 2>&1
echo "artifact rc=$?"; grep -c PASS $OUT/run117-artifact.log; grep -c FAIL $OUT/run117-artifact.log
