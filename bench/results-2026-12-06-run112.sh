#!/usr/bin/env bash
# Run 112: compute-sanitizer over the kernels whose stores session 33 moved
# to their ops' offsets (pointer stores: split partials, LSE, varlen O) and
# a few standard ones: memcheck, then racecheck on one of each family.
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
SAN="timeout 60 compute-sanitizer --error-exitcode 1"
RUN="artifacts/bin/attnc-run-artifact --iterations=1"
check() {  # tool shapes kernel...
  local tool=$1 shapes=$2; shift 2
  for k in "$@"; do
    out=$($SAN --tool $tool $RUN --shapes=$shapes "$k" 2>&1); rc=$?
    echo "$tool $(basename $(dirname $k))/$(basename $k) rc=$rc $(echo "$out" | grep -E 'ERROR SUMMARY|passed' | tr '\n' ' ')"
    [ $rc = 0 ] || echo "$out" | grep -v PASS | tail -15
  done
}
check memcheck 1:113:203,2:65:1 artifacts/varlen/* artifacts/kernels/d128_causal \
  artifacts/kernels/d128_bshd_causal artifacts/kernels/d64_causal artifacts/kernels/d128_nolse
check memcheck 2:1:203,3:1:1000 artifacts/decode-split/* artifacts/paged/*
check racecheck 1:113:203 artifacts/varlen/$(ls artifacts/varlen | head -1) artifacts/kernels/d128_causal
check racecheck 2:1:1000 artifacts/decode-split/decode_d128_gqa artifacts/paged/$(ls artifacts/paged | head -1)
