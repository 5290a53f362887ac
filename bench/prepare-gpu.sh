#!/usr/bin/env bash
# Builds (here, where MLIR is) everything the GPU machine needs into the
# git-ignored artifacts/ folder: the runtime libraries and the compiled kernels
# of bench/kernels.mlir (the peers are timed by bench/peers.py, a tracked file
# that travels with the working tree). Then on the GPU machine:
#   bash bench/gpu-check.sh        (correctness sweep + benchmark, one run)
#   python3 bench/decode.py --artifacts artifacts --json decode.json
#                                  (the decode kernels of bench/decode.mlir)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
ninja -C "$BUILD_DIR" attnc-compile AttncRuntime AttncRuntimeTesting attnc-run-artifact
rm -rf artifacts && mkdir -p artifacts/lib artifacts/bin
cp "$BUILD_DIR/lib/libAttncRuntime.so" "$BUILD_DIR/lib/libAttncRuntimeTesting.so" artifacts/lib/
cp "$BUILD_DIR/bin/attnc-run-artifact" artifacts/bin/
# The examples as the README's run command would compile them (GPU-capable
# ones; softcap/f32 are CPU-only and are rejected with a diagnostic).
for f in examples/*.mlir; do
  "$BUILD_DIR/bin/attnc-compile" "$f" -o artifacts/examples > /dev/null 2>&1 || true
done
"$BUILD_DIR/bin/attnc-compile" bench/kernels.mlir -o artifacts/kernels
# Every other head dim (padded atoms) and split head dims, next to them.
"$BUILD_DIR/bin/attnc-compile" bench/head-dims.mlir -o artifacts/kernels
# The sweep checks every kernel here against float64 attention: also causal
# softcap kernels with every exponential of P computed by the FMA-pipe
# polynomial (software-exp2-period=1: all of its error, and the -inf / empty
# row cases); the default soft-capped kernels compute one pair in four so at
# D = 64 and one in three at D = 128 (the sm_90a table), and SOFTCAP_TUNE=1
# below times other periods.
grep -v -e '^//' bench/kernels.mlir \
  | awk '/^func.func @/{keep=/^func.func @d(64|128)_causal\(/} keep' \
  | sed -E 's/^func.func @(d[0-9]+_causal)\(/func.func @\1_softcap_sw_exp2(/; s/(attn.attention %q, %k, %v mask = causal)/\1 softcap = 30.0/' \
  > artifacts/sw-exp2-check.mlir
"$BUILD_DIR/bin/attnc-compile" artifacts/sw-exp2-check.mlir --software-exp2-period=1 -o artifacts/kernels
for k in artifacts/kernels/*/; do
  /usr/local/cuda/bin/ptxas -arch=sm_90a -v "$k/kernel.ptx" -o /dev/null 2>&1 \
    | grep -A2 "entry function '$(basename "$k")'" | tr -s ' ' | paste -sd' ' \
    | sed "s/^/ptxas: /"
done > artifacts/ptxas.txt
cat artifacts/ptxas.txt
# auto: the sm_90a table (a producer everywhere, ping-pong where it keeps it)
"$BUILD_DIR/bin/attnc-compile" bench/tune.mlir --warp-specialize=auto -o artifacts/tune > /dev/null
# Ablations: the same kernels compiled with one option changed; gpu_check.py
# times every artifacts/kernels-<label>/ as a column next to the default.
ablation() {
  local label=$1 source=$2; shift 2
  "$BUILD_DIR/bin/attnc-compile" "$source" "$@" -o "artifacts/kernels-$label" > /dev/null
}
# P through shared memory (another block_m x block_n buffer) does not fit
# next to the D = 256 tiles (128 x 80), a third K/V stage not next to any
# D > 128 tile: those kernels are left out of these two ablations.
without() { grep -v -e '^//' bench/kernels.mlir | awk "/^func.func @d($1)_/{skip=1} skip&&/^}/{skip=0;next} !skip"; }
without 256 > artifacts/kernels-up-to-d192.mlir
without '192|256' > artifacts/kernels-up-to-d128.mlir
# The default schedule at D = 128 is the overlap with 3 stages (the table);
# no-overlap is the schedule before it (2 stages, = run 15's kernels).
# QUICK=1 leaves the standard ablations out (a short A/B run).
if [[ -z "${QUICK:-}" ]]; then
ablation no-overlap bench/kernels.mlir --intra-warpgroup-overlap=off --stages=2
ablation no-overlap-3-stages bench/kernels.mlir --intra-warpgroup-overlap=off
ablation no-pingpong bench/kernels.mlir --ping-pong=false
ablation no-rs artifacts/kernels-up-to-d192.mlir --probs-in-registers=false
ablation no-ws bench/kernels.mlir --warp-specialize=off
ablation in-order bench/kernels.mlir --tile-order=in-order
# K and V are released separately, so the overlap may no longer need a third
# stage at D = 128 either (at D = 64 the carried P makes 160-register
# consumers spill).
only() { grep -v -e '^//' bench/kernels.mlir | awk "/^func.func @/{keep=/^func.func @($1)\\(/} keep"; }
only 'd128_full|d128_causal' > artifacts/kernels-d128.mlir
ablation overlap-2-stages artifacts/kernels-d128.mlir --stages=2
fi
# The same kernels with a softcap: its cost next to the kernel without it.
sed -E '/^func.func @d(64|128|256)_(full|causal)\(/,/^}/ s/(attn.attention %q, %k, %v( mask = causal)?)/\1 softcap = 30.0/' \
  bench/kernels.mlir > artifacts/kernels-softcap.mlir
ablation softcap artifacts/kernels-softcap.mlir
# The soft-capped kernels as before attn-softcap-fixed-max: the running max
# and, as the table then gives, every exponential on MUFU.EX2.
ablation softcap-running-max artifacts/kernels-softcap.mlir --softcap-fixed-max=false
# The fixed max with every exponential on MUFU.EX2: what the table's period 4
# adds to it.
ablation softcap-mufu-exp2 artifacts/kernels-softcap.mlir --software-exp2-period=-1
# SOFTCAP_TUNE=1: the soft-capped kernels at D <= 128 with one schedule
# choice changed, where a softcap still costs more than 5 %: the software
# exp2 period (the table's: 4 at D = 64, 3 at D = 128; run 116 timed 2, 3
# and 4 at both), no ping-pong and the sequential step at D = 128 (three
# consumers at D = 64 take no turns), and two consumers (block_m = 128,
# with and without the overlap) at D = 64.
if [[ -n "${SOFTCAP_TUNE:-}" ]]; then
  softcap_only() { awk "/^func.func @/{keep=/^func.func @d($1)_(full|causal)\\(/} keep" artifacts/kernels-softcap.mlir; }
  softcap_only '64|128' > artifacts/softcap-up-to-d128.mlir
  softcap_only 64 > artifacts/softcap-d64.mlir
  softcap_only 128 > artifacts/softcap-d128.mlir
  for period in 2 3 4 8; do
    ablation softcap-p$period artifacts/softcap-up-to-d128.mlir --software-exp2-period=$period
  done
  ablation softcap-no-pingpong artifacts/softcap-d128.mlir --ping-pong=false
  ablation softcap-seq artifacts/softcap-d128.mlir --intra-warpgroup-overlap=off --stages=2
  ablation softcap-bm128 artifacts/softcap-d64.mlir --block-m=128
  ablation softcap-bm128-overlap artifacts/softcap-d64.mlir --block-m=128 --intra-warpgroup-overlap=on
fi
# A same-run A/B against kernels compiled at another commit:
# BASE_KERNELS=<attnc-compile output of bench/kernels.mlir at that commit>.
if [[ -n "${BASE_KERNELS:-}" ]]; then
  cp -r "$BASE_KERNELS" artifacts/kernels-base
fi
# Settled in runs 13-21 (bench/HISTORY.md); ALL_ABLATIONS=1 measures them again.
if [[ -n "${ALL_ABLATIONS:-}" ]]; then
  # The overlap where the table leaves it off: D = 64 (three consumers).
  ablation overlap-all bench/kernels.mlir --intra-warpgroup-overlap=on
  ablation conditional-rescale bench/kernels.mlir --conditional-rescale=true
  # Ping-pong wherever two consumers allow it (the table drops it at D = 256).
  ablation pingpong-all bench/kernels.mlir --warp-specialize=on --ping-pong=true
  ablation 3-stages artifacts/kernels-up-to-d128.mlir --stages=3
  # The kv split count taken at launch by every kernel (one split at the
  # table's shapes; runs 135 and 137: 3-6 % slower at D = 64 causal, which
  # auto leaves whole), and by none.
  ablation split-dynamic-rows bench/kernels.mlir --split-kv-dynamic-rows=on
  ablation whole-dynamic-rows bench/kernels.mlir --split-kv-dynamic-rows=off
fi
# Decode (bench/decode.py): one query token per sequence against a KV cache,
# GQA 32:8 and MQA 32:1; the default, then variants with one option changed,
# each a directory of its own. Named decode[-<label>], not kernels-<label>,
# so that gpu_check.py does not time them as ablation columns.
decode_variant() {
  local label=$1; shift
  "$BUILD_DIR/bin/attnc-compile" bench/decode.mlir "$@" -o "artifacts/decode${label:+-$label}" > /dev/null
}
decode_variant ""
# The default splits the kernels of any Nq above D = 64 at launch
# (split-kv-dynamic-rows=auto); `whole` leaves them unsplit.
decode_variant whole --split-kv-dynamic-rows=off
# Without GQA packing (--pack-gqa: the query heads of a kv group as rows of
# one tile), and with 64-row tiles (one consumer warpgroup: a packed decode
# tile holds g * Nq rows, 4 at GQA 32:8).
decode_variant no-pack --pack-gqa=false
decode_variant bm64 --block-m=64
# GQA packing of unmasked attentions only (the masked decode kernel
# unpacked; pack-gqa=auto packs it).
decode_variant unmasked-pack --pack-gqa=unmasked
# The causal GQA prefill kernel unpacked (bench/gqa_prefill.py's variant).
grep -v -e '^//' bench/kernels.mlir | awk '/^func.func @/{keep=/^func.func @d128_gqa4_causal\(/} keep' \
  > artifacts/gqa-causal.mlir
"$BUILD_DIR/bin/attnc-compile" artifacts/gqa-causal.mlir --pack-gqa=unmasked -o artifacts/kernels-unpacked > /dev/null
# Split-KV (flash-decoding): the same graphs with kv_splits(%splits), a
# function argument, so the runtime chooses the split count at each launch
# (docs/Runtime.md's split heuristic); with 128-row and 64-row tiles.
sed -E 's/(%v: tensor<[^>]*>)\)/\1, %splits: index)/; /attn.attention/ s/$/ kv_splits(%splits)/' \
  bench/decode.mlir > artifacts/decode-split.mlir
"$BUILD_DIR/bin/attnc-compile" artifacts/decode-split.mlir -o artifacts/decode-split > /dev/null
"$BUILD_DIR/bin/attnc-compile" artifacts/decode-split.mlir --block-m=64 -o artifacts/decode-split-bm64 > /dev/null
# The combine kernel launched after the attention kernel's last CTA instead
# of as a programmatic dependent launch (the pipeline's default).
"$BUILD_DIR/bin/attnc-compile" artifacts/decode-split.mlir --block-m=64 --programmatic-launch=false \
  -o artifacts/decode-split-bm64-no-pdl > /dev/null
# A decode step as a graph states it, one static query token (vLLM's
# [B, Hq, 1, D]): the pipeline packs it (masked too), splits it at launch
# and gives it 64-row tiles by itself (attn-configure-tiles).
sed -E 's/tensor<\?x32x\?x/tensor<?x32x1x/g' bench/decode.mlir > artifacts/decode-step.mlir
"$BUILD_DIR/bin/attnc-compile" artifacts/decode-step.mlir -o artifacts/decode-step > /dev/null
# Paged decode (bench/decode_paged.py): pools of 16- and 256-token pages,
# split at launch, with the two tile heights of the dense split kernels.
"$BUILD_DIR/bin/attnc-compile" bench/decode-paged.mlir -o artifacts/paged > /dev/null
"$BUILD_DIR/bin/attnc-compile" bench/decode-paged.mlir --block-m=64 -o artifacts/paged-bm64 > /dev/null
# Varlen prefill (bench/varlen.py): packed sequences with cu_seqlens, and the
# dense kernel of the same graph.
"$BUILD_DIR/bin/attnc-compile" bench/varlen.mlir -o artifacts/varlen > /dev/null
# ... and its causal GQA kernel with the query heads unpacked (one head's
# rows a tile), next to the packed default.
grep -v -e '^//' bench/varlen.mlir | awk '/^func.func @/{keep=/^func.func @varlen_d128_causal\(/} keep' \
  > artifacts/varlen-causal.mlir
"$BUILD_DIR/bin/attnc-compile" artifacts/varlen-causal.mlir --pack-gqa=false -o artifacts/varlen-unpacked > /dev/null
# ... and unsplit (the default splits the keys at launch above D = 64).
"$BUILD_DIR/bin/attnc-compile" artifacts/varlen-causal.mlir --split-kv-dynamic-rows=off -o artifacts/varlen-whole > /dev/null
