#!/usr/bin/env bash
# Run 117: (1) attnc-run-artifact over the D = 128 soft-capped kernels of
# period 3 (the sm_90a table's default; byte-identical to run 116's
# kernels-softcap-p3) and the D = 64 default, at ragged shapes; (2) Nsight
# Compute's stall reasons and pipe utilization of d128_full without softcap,
# with it at period 3 (the default) and at period 4, and of d64_full without
# and with softcap (period 4), one launch each at the 4k shape.
# Artifacts: QUICK=1 SOFTCAP_TUNE=1 bash bench/prepare-gpu.sh.
cd "$(dirname "$0")/.."
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "GPU: $GPU"
timeout 40 artifacts/bin/attnc-run-artifact artifacts/kernels-softcap/d128_{full,causal} artifacts/kernels-softcap/d64_{full,causal} \
  --shapes=1:1:1,2:17:33,1:113:203,1:200:100,1:257:513 > $OUT/run117-artifact.log 2>&1
echo "artifact rc=$?"; grep -c PASS $OUT/run117-artifact.log; grep -c FAIL $OUT/run117-artifact.log
# (3) The host cost of a launch and of the driver calls in it.
timeout 60 python3 bench/host_probe.py > $OUT/run117-host.log 2>&1; echo "host probe rc=$?"; cat $OUT/run117-host.log
NCU="ncu --clock-control none --section SpeedOfLight --section ComputeWorkloadAnalysis --section WarpStateStats --section InstructionStats --section SchedulerStats"
timeout 150 $NCU python3 bench/ncu_softcap.py 128 artifacts/kernels artifacts/kernels-softcap artifacts/kernels-softcap-p4 > $OUT/run117-ncu-d128.log 2>&1
echo "ncu d128 rc=$?"
timeout 100 $NCU python3 bench/ncu_softcap.py 64 artifacts/kernels artifacts/kernels-softcap > $OUT/run117-ncu-d64.log 2>&1
echo "ncu d64 rc=$?"; tail -3 $OUT/run117-ncu-d64.log
