// RUN: attnc-opt %s -split-input-file --attn-softcap-fixed-max="max-exponent=127" -verify-diagnostics -o /dev/null
// RUN: not attnc-opt %s -split-input-file --attn-softcap-fixed-max="max-exponent=-1" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NEGATIVE

// 2^E must stay a finite f32: a max-exponent above 126 (or below 0) is an
// error, whatever the function holds.
// expected-error @+2 {{attn-softcap-fixed-max: max-exponent must be in [0, 126], got 1.270000e+02}}
// NEGATIVE: error: attn-softcap-fixed-max: max-exponent must be in [0, 126], got -1.000000e+00
func.func @any() {
  return
}
