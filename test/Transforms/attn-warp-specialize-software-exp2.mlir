// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:     --attn-warp-specialize="software-exp2-period=2" | FileCheck %s --check-prefix=PERIOD2
// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:     --attn-warp-specialize="target=sm_90a software-exp2-period=4" | FileCheck %s --check-prefix=PERIOD4
// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:     --attn-warp-specialize | FileCheck %s --check-prefix=NONE --implicit-check-not=software_exp2_period
// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:     --attn-warp-specialize="target=sm_90a" | FileCheck %s --check-prefix=NONE --implicit-check-not=software_exp2_period
// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:     --attn-warp-specialize="target=sm_90a software-exp2-period=-1" | FileCheck %s --check-prefix=NONE --implicit-check-not=software_exp2_period
// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=128 block-n=64" --attn-softcap-fixed-max \
// RUN:     --attn-warp-specialize="target=sm_90a" | FileCheck %s --check-prefix=TABLE
// RUN: not attnc-opt %s --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:     --attn-warp-specialize="software-exp2-period=-2" 2>&1 | FileCheck %s --check-prefix=BAD

// With software-exp2-period = N, every attn.exp_diff of the kv loops of a
// specialized tile (here the full and the diagonal loop) computes one
// element pair in N of its exponentials on the FMA pipe; without it, or
// with the sm_90a table for a running max, or with -1, none does. The table
// gives a soft-capped softmax with a fixed max (attn-softcap-fixed-max)
// period 4 at D <= 64 and 3 at D <= 128 (below): its two MUFU ops a score
// bound the step, and the fixed max left room in the issue slots.
// PERIOD2-LABEL: func.func @causal_softcap(
// PERIOD2:         attn.warp_specialize
// PERIOD2:         } consumer {
// PERIOD2:           scf.for
// PERIOD2:             attn.exp_diff %{{.*}}, %{{.*}} scale_log2 %{{.*}} {software_exp2_period = 2 : i64}
// PERIOD2:           } {attn.kv_range = "full"}
// PERIOD2:           scf.for
// PERIOD2:             attn.exp_diff %{{.*}}, %{{.*}} scale_log2 %{{.*}} {software_exp2_period = 2 : i64}
// PERIOD2:           } {attn.kv_range = "tail"}
// PERIOD2-NOT:     attn.exp_diff
// PERIOD4-LABEL: func.func @causal_softcap(
// PERIOD4-COUNT-2: attn.exp_diff %{{.*}}, %{{.*}} scale_log2 %{{.*}} {software_exp2_period = 4 : i64}
// PERIOD4-NOT:     attn.exp_diff
// TABLE-LABEL: func.func @causal_softcap(
// TABLE-COUNT-2: attn.exp_diff %{{.*}}, %{{.*}} scale_log2 %{{.*}} {software_exp2_period = 4 : i64}
// TABLE-NOT:     attn.exp_diff
// NONE-LABEL: func.func @causal_softcap(
// NONE-COUNT-2:  attn.exp_diff
// BAD: error: attn-warp-specialize: software-exp2-period must be 0 (the target's table), -1 (off) or at least 1, got -2
func.func @causal_softcap(%q: tensor<?x4x?x64xbf16>, %k: tensor<?x4x?x64xbf16>,
                          %v: tensor<?x4x?x64xbf16>) -> tensor<?x4x?x64xbf16> {
  %o = attn.attention %q, %k, %v mask = causal softcap = 30.0
      : tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>
      -> tensor<?x4x?x64xbf16>
  return %o : tensor<?x4x?x64xbf16>
}

// D = 128: period 3 (measured faster than 4 there once the unmasked
// steps' software exp2 needed no select).
// PERIOD2-LABEL: func.func @d128_softcap(
// PERIOD4-LABEL: func.func @d128_softcap(
// NONE-LABEL: func.func @d128_softcap(
// TABLE-LABEL: func.func @d128_softcap(
// TABLE-COUNT-2: attn.exp_diff %{{.*}}, %{{.*}} scale_log2 %{{.*}} {software_exp2_period = 3 : i64}
// TABLE-NOT:     attn.exp_diff
func.func @d128_softcap(%q: tensor<?x4x?x128xbf16>, %k: tensor<?x4x?x128xbf16>,
                        %v: tensor<?x4x?x128xbf16>) -> tensor<?x4x?x128xbf16> {
  %o = attn.attention %q, %k, %v mask = causal softcap = 30.0
      : tensor<?x4x?x128xbf16>, tensor<?x4x?x128xbf16>, tensor<?x4x?x128xbf16>
      -> tensor<?x4x?x128xbf16>
  return %o : tensor<?x4x?x128xbf16>
}

// The table leaves a fixed-max softcap above D = 128 alone (the GEMMs, not
// MUFU, bound it); an explicit period still applies.
// PERIOD2-LABEL: func.func @d256_softcap(
// PERIOD2-COUNT-2: attn.exp_diff %{{.*}}, %{{.*}} scale_log2 %{{.*}} {software_exp2_period = 2 : i64}
// PERIOD4-LABEL: func.func @d256_softcap(
// TABLE-LABEL: func.func @d256_softcap(
// TABLE-NOT:     software_exp2_period
// TABLE:         return
// NONE-LABEL: func.func @d256_softcap(
func.func @d256_softcap(%q: tensor<?x4x?x256xbf16>, %k: tensor<?x4x?x256xbf16>,
                        %v: tensor<?x4x?x256xbf16>) -> tensor<?x4x?x256xbf16> {
  %o = attn.attention %q, %k, %v mask = causal softcap = 30.0
      : tensor<?x4x?x256xbf16>, tensor<?x4x?x256xbf16>, tensor<?x4x?x256xbf16>
      -> tensor<?x4x?x256xbf16>
  return %o : tensor<?x4x?x256xbf16>
}

