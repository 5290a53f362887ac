// Bad values of the GPU options are errors that name the option and the
// accepted values; tile IR the kernel lowering does not take is an error
// that names the rule.

// RUN: not attnc-opt %s --attn-lower-to-nvvm-pipeline="warp-specialize=maybe" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WS
// WS: for the --warp-specialize option: Cannot find option named 'maybe'!

// Options that contradict each other, or a stage before the one the kernel
// lowers, are refused by the GPU pipelines (as by attnc-compile), not
// dropped or left to a later pass's message.
// RUN: not attnc-opt %s --attn-lower-to-ptx-pipeline="warp-specialize=off ping-pong" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NO-PRODUCER
// NO-PRODUCER: error: attn-lower-to-ptx-pipeline: ping-pong needs the producer warpgroup, which warp-specialize=off leaves out; drop one (or pass warp-specialize=on)
// RUN: not attnc-opt %s --attn-lower-to-nvvm-pipeline="stop-after=tiled" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STOP-TILED
// STOP-TILED: error: attn-lower-to-nvvm-pipeline: stop-after=tiled leaves the kv loops unfused, and the kernel lowers the fused online softmax: stop after fused or split (attn-tiling-pipeline prints the earlier stages)
// RUN: not attnc-opt %s --pass-pipeline="builtin.module(attn-lower-to-nvvm-pipeline{stop-after=graph})" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STOP-GRAPH
// STOP-GRAPH: error: attn-lower-to-nvvm-pipeline: stop-after=graph leaves the kv loops unfused

// RUN: not attnc-opt %s --attn-lower-to-nvvm-pipeline="intra-warpgroup-overlap=maybe" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OVERLAP-VALUE
// RUN: not attnc-opt %s --attn-generalize-lengths --attn-tiling-pipeline --attn-warp-specialize="intra-warpgroup-overlap=maybe" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OVERLAP-VALUE
// OVERLAP-VALUE: for the --intra-warpgroup-overlap option: Cannot find option named 'maybe'!

// RUN: not attnc-opt %s --attn-generalize-lengths --attn-tiling-pipeline --attn-warp-specialize="stages=-1" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STAGES
// STAGES: error: attn-warp-specialize: stages must be 0 (the target's table) or at least 2, got -1

// RUN: not attnc-opt %s --attn-generalize-lengths --attn-tiling-pipeline --attn-warp-specialize="target=sm_100a" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WS-TARGET
// WS-TARGET: error: attn-warp-specialize: target must be one of sm_90a, sm_90a-fa3, generic (the tile tables; every kernel is sm_90a code), got 'sm_100a'

// RUN: not attnc-opt %s --attn-generalize-lengths --attn-tiling-pipeline --attn-warp-specialize="intra-warpgroup-overlap=true" \
// RUN:   --attn-assign-layouts --attn-allocate-shared-memory="probs-in-registers=false" --attn-insert-waits --convert-attn-to-nvvm 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OVERLAP
// OVERLAP: error: attn-allocate-shared-memory: the intra-warpgroup overlap (kv loops with attn.stage = 1) needs probs-in-registers

// Software-pipelined kv loops run as attn-pipeline-kv-loops rotates them;
// the conversion does not rotate them itself.
// RUN: not attnc-opt %s --attn-generalize-lengths --attn-tiling-pipeline --attn-warp-specialize="intra-warpgroup-overlap=true" \
// RUN:   --attn-assign-layouts --attn-allocate-shared-memory --attn-insert-waits --convert-attn-to-nvvm 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNROTATED
// UNROTATED: error: convert-attn-to-nvvm: software-pipelined kv loops (attn.stage) run as attn-pipeline-kv-loops rotates them: run that pass before this one

// The three-pass nest of attn-tile is not lowered: the kernel never
// substitutes the fused algorithm for the IR it was given.
// RUN: not attnc-opt %s --attn-generalize-lengths --attn-tiling-pipeline="stop-after=tiled" \
// RUN:   --attn-assign-layouts --attn-allocate-shared-memory --attn-insert-waits --convert-attn-to-nvvm 2>&1 | FileCheck %s --check-prefix=UNFUSED
// UNFUSED: error: convert-attn-to-nvvm: this kv loop is not one step of the fused online softmax (run attn-fuse-online-softmax first): it has no attn.rescale_factor

// Static lengths would fold the kv loops for one shape: the conversion asks
// for attn-generalize-lengths (which attn-lower-to-nvvm-pipeline runs).
// RUN: not attnc-opt %s --attn-tiling-pipeline --attn-assign-layouts --attn-allocate-shared-memory --attn-insert-waits --convert-attn-to-nvvm 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STATIC
// STATIC: error: convert-attn-to-nvvm: the kernel takes the sequence lengths at launch time, but Q has the static type 'tensor<1x4x128x64xbf16>'; run attn-generalize-lengths before attn-tile (attn-lower-to-nvvm-pipeline does)

// An attention that was never tiled is an error, not a module left with
// attn ops and exit status 0.
// RUN: not attnc-opt %s --attn-assign-layouts --attn-allocate-shared-memory --attn-insert-waits --convert-attn-to-nvvm 2>&1 | FileCheck %s --check-prefix=UNTILED
// UNTILED: error: convert-attn-to-nvvm: 'attn.attention' is not part of a tiled attention (run attn-tile, attn-fuse-online-softmax and attn-split-masked-loops first, or attn-lower-to-nvvm-pipeline)

// The kernel reads where each tile value lives from its type's layout
// (attn-assign-layouts) and its shared memory from #attn.shared_memory
// (attn-allocate-shared-memory); without either, a diagnostic.
// RUN: not attnc-opt %s --attn-generalize-lengths --attn-tiling-pipeline --attn-insert-waits --convert-attn-to-nvvm 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NO-LAYOUT
// NO-LAYOUT: error: convert-attn-to-nvvm: 'attn.qk' result #0 'tensor<192x128xf32>' has no tile layout (run attn-assign-layouts; attn-lower-to-nvvm-pipeline does)
// RUN: not attnc-opt %s --attn-generalize-lengths --attn-tiling-pipeline --attn-assign-layouts --attn-insert-waits --convert-attn-to-nvvm 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NO-SMEM
// A compiled-in split count is a factor of grid z (at most 65535).
// RUN: sed 's/attn.attention %q, %k, %v/attn.attention %q, %k, %v kv_splits(%c)/; s/^  %o = /  %c = arith.constant 70000 : index\n  %o = /' %s \
// RUN:   | not attnc-opt --attn-lower-to-nvvm-pipeline 2>&1 | FileCheck %s --check-prefix=SPLIT-COUNT
// SPLIT-COUNT: error: convert-attn-to-nvvm: a compiled-in kv split count must be in [2, 65535] (grid z is batch x splits), got 70000

// The kernel follows the layouts it has a lowering for and names the others.
// RUN: attnc-opt %s --attn-generalize-lengths --attn-tiling-pipeline --attn-assign-layouts \
// RUN:   | sed 's/swizzle = 128/swizzle = 64/' \
// RUN:   | not attnc-opt --attn-allocate-shared-memory --attn-insert-waits --convert-attn-to-nvvm 2>&1 | FileCheck %s --check-prefix=SWIZZLE
// SWIZZLE: error: convert-attn-to-nvvm: 'attn.load_tile' result #0 'tensor<{{[0-9]+}}x64xbf16, #attn.swizzled_shared<swizzle = 64>>': the kernel lowers 128-byte swizzled shared tiles (#attn.swizzled_shared<swizzle = 128>)
// NO-SMEM: error: convert-attn-to-nvvm: the tile has no #attn.shared_memory (run attn-allocate-shared-memory; attn-lower-to-nvvm-pipeline does)

func.func @attention(%q: tensor<1x4x128x64xbf16>, %k: tensor<1x4x128x64xbf16>,
                     %v: tensor<1x4x128x64xbf16>) -> tensor<1x4x128x64xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<1x4x128x64xbf16>, tensor<1x4x128x64xbf16>, tensor<1x4x128x64xbf16>
      -> tensor<1x4x128x64xbf16>
  return %o : tensor<1x4x128x64xbf16>
}
