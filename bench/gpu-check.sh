#!/usr/bin/env bash
# On the GPU machine (no MLIR there): correctness sweep, then the benchmark
# next to cuDNN / FA2 / FlexAttention (bench/peers.py), in one run. Needs
# artifacts/ from bench/prepare-gpu.sh and nothing outside the repository.
# Writes gpu-check.json to $OUT (or .), and next to it gpu-check.md and
# gpu-check.png (bench/summarize.py) where matplotlib is importable.
set -euo pipefail
cd "$(dirname "$0")/.."
phase() { echo "== gpu-check: $*"; }
phase "device"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader || true
# attnc-run's GPU backend (MLIR-free build) on the compiled examples and on
# the benchmark kernels, float64 reference on the CPU.
phase "attnc-run-artifact on the examples and kernels"
artifacts/bin/attnc-run-artifact artifacts/examples/* artifacts/kernels/* \
  --shapes=1:1:1,2:17:33,1:113:203,1:200:100,1:257:513 || true
# The runtime from 8 threads at once, one stream each (load, launch, check).
phase "runtime from 8 threads"
PYTHONUNBUFFERED=1 python3 bench/threads_check.py --artifacts artifacts --threads 8 || true
# SANITIZE=1: compute-sanitizer memcheck, racecheck and synccheck (minutes).
if [[ -n "${SANITIZE:-}" ]]; then phase "compute-sanitizer"; bash bench/sanitize.sh || true; fi
# Where ptxas put the wgmma waits around the softmax (the overlap's SASS check).
phase "SASS report"
python3 bench/sass_report.py artifacts/kernels/d128_full artifacts/kernels/d128_causal || true
OUT_DIR=${OUT:-.}
OUT_JSON=$OUT_DIR/gpu-check.json
phase "gpu_check.py: sweep, then benchmark"
status=0
PYTHONUNBUFFERED=1 python3 bench/gpu_check.py --artifacts artifacts --json "$OUT_JSON" "$@" || status=$?
# Decode (bench/decode.py): its sweep (packed GQA kernels, Nq 1 and 4,
# ragged Nk), then bandwidth next to cuDNN and FA2; DECODE=0 leaves it out.
if [[ "${DECODE:-1}" != 0 ]]; then
  phase "decode.py: sweep, then bandwidth"
  PYTHONUNBUFFERED=1 python3 bench/decode.py --artifacts artifacts --json "$OUT_DIR/decode.json" || status=$?
fi
# Varlen prefill (bench/varlen.py): its sweep, then TFLOP/s next to the
# dense kernel and cuDNN on the padded batch; VARLEN=0 leaves it out.
if [[ "${VARLEN:-1}" != 0 ]]; then
  phase "varlen.py: sweep, then TFLOP/s"
  PYTHONUNBUFFERED=1 python3 bench/varlen.py --artifacts artifacts --json "$OUT_DIR/varlen.json" || status=$?
fi
if [[ -f "$OUT_JSON" ]]; then
  if python3 -c "import matplotlib" 2>/dev/null; then
    phase "summarize.py: $OUT_DIR/gpu-check.md, $OUT_DIR/gpu-check.png"
    python3 bench/summarize.py "$OUT_JSON" --markdown "$OUT_DIR/gpu-check.md" --png "$OUT_DIR/gpu-check.png" || true
  else
    phase "no matplotlib here: run 'python3 bench/summarize.py gpu-check.json' where it is"
    python3 bench/summarize.py "$OUT_JSON" --no-plot --markdown "$OUT_DIR/gpu-check.md" || true
  fi
fi
exit $status
