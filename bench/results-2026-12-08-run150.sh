#!/usr/bin/env bash
# Run 150 (session 43), 7c9c103 (branch varlen-split-kv): varlen batches
# split over the keys at launch (attn-split-kv, dynamic-rows=auto: above
# D = 64). artifacts/varlen (bench/varlen.mlir: D 128, 192/128 and 80 split;
# D 64 not), artifacts/varlen-whole (varlen_d128_causal,
# --split-kv-dynamic-rows=off), artifacts/varlen-unpacked (--pack-gqa=false,
# split too), artifacts/pyk (the Python check's kernels).
# Prediction (H200 wanted; an H100 gives ~0.7x the TB/s):
# - varlen sweep 45/45 (which launches split checked), incl. the new split batches (4 decode sequences up
#   to 30000 keys, one without keys; a 2-sequence speculative batch; one
#   200-token chunk over 30000 keys) and 3 spare rows that stay NaN;
# - prefill 16 x 100..4000 and 256 x 64..512: split-capable at 0.98-1.01x
#   the whole kernel (one split; dense runs 135-143 saw 0-1.4 %);
# - varlen decode 64 x 1000..4000: one split, as whole (~3.4-3.8 TB/s H200);
# - varlen decode 4 x 8000..32000: whole runs 32 CTAs (~0.5-0.8 TB/s), split
#   ~2.5-3.5 TB/s, within ~10 % of the dense split kernel at the mean length;
# - attnc-run-artifact all pass; Python check all but possibly the H100
#   host-overhead case (new varlen split shape passes).
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
timeout 280 python3 bench/varlen.py --artifacts artifacts --json $OUT/run150-varlen.json > $OUT/run150-varlen.log 2>&1
echo "varlen rc=$?"; grep -E "FAIL|sweep|TFLOP|TB/s|varlen |whole|unpacked" $OUT/run150-varlen.log | head -40
timeout 60 artifacts/bin/attnc-run-artifact artifacts/varlen/varlen_* > $OUT/run150-run-artifact.log 2>&1
echo "run-artifact rc=$?"; grep -E "FAIL|passed" $OUT/run150-run-artifact.log | head -8
ATTNC_KERNEL_DIR=$PWD/artifacts/pyk ATTNC_RUNTIME_LIB=$PWD/artifacts/lib/libAttncRuntime.so \
  timeout 160 python3 python/tests/gpu_check_attnc.py > $OUT/run150-python.log 2>&1
echo "python rc=$?"; grep -E "FAIL|SUMMARY|passed" $OUT/run150-python.log | head -12
