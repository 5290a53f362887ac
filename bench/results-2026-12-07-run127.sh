#!/usr/bin/env bash
# Run 127 (written in session 37, not yet run): the stall reasons of the
# soft-capped D = 128 kernel, which run 117's sections did not break down.
# Nsight Compute with the warp-state sampling (stall reasons per
# instruction, summed) for d128_full without softcap, with it at period 3
# (the table's default) and at period 4. Artifacts:
# QUICK=1 SOFTCAP_TUNE=1 bash bench/prepare-gpu.sh.
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
NCU="ncu --clock-control none --kernel-name regex:^d128_full$ --section WarpStateStats --section SourceCounters \
  --metrics smsp__pcsamp_warps_issue_stalled_barrier,smsp__pcsamp_warps_issue_stalled_long_scoreboard,smsp__pcsamp_warps_issue_stalled_math_pipe_throttle,smsp__pcsamp_warps_issue_stalled_mio_throttle,smsp__pcsamp_warps_issue_stalled_short_scoreboard,smsp__pcsamp_warps_issue_stalled_wait,smsp__pcsamp_warps_issue_stalled_dispatch_stall,smsp__pcsamp_warps_issue_stalled_selected,smsp__pcsamp_warps_issue_stalled_membar,smsp__pcsamp_warps_issue_stalled_sleeping"
timeout 300 $NCU python3 bench/ncu_softcap.py 128 artifacts/kernels artifacts/kernels-softcap artifacts/kernels-softcap-p4 \
  > $OUT/run127-ncu-d128.log 2>&1
echo "ncu rc=$?"; grep -E "d128_full|stalled|Warp Cycles Per Issued" $OUT/run127-ncu-d128.log | head -60
