#!/usr/bin/env bash
# On the GPU machine: compute-sanitizer's memcheck over every kernel in
# artifacts/kernels, and racecheck and synccheck over one kernel of each
# family (head dims, masks, GQA/MQA, BSHD, with and without LSE, softcap,
# split head dims), at ragged shapes. Needs artifacts/ from
# bench/prepare-gpu.sh. Exit status 1 if any tool reports an error.
set -uo pipefail
cd "$(dirname "$0")/.."
SAN=${COMPUTE_SANITIZER:-compute-sanitizer}
RUN="artifacts/bin/attnc-run-artifact --iterations=1 --shapes=1:113:203,2:65:1"
FAMILIES="d32_causal d40_full d64_causal d64_mqa d80_causal d96_full d128_window d128_bshd_causal
  d128_nolse d128_gqa4_causal d128_causal_br d128_f16 d128_softcap d160_causal d192v128_causal
  d224_full d256_causal"
status=0
echo "== memcheck: every kernel"
$SAN --tool memcheck --error-exitcode 1 $RUN artifacts/kernels/* | tail -3 || status=1
for tool in racecheck synccheck; do
  for k in $FAMILIES; do
    out=$($SAN --tool $tool --error-exitcode 1 $RUN "artifacts/kernels/$k" 2>&1)
    rc=$?
    echo "== $tool $k: rc=$rc $(echo "$out" | grep -E 'SUMMARY|passed' | tr '\n' ' ')"
    [ $rc = 0 ] || { status=1; echo "$out" | tail -20; }
  done
done
exit $status
