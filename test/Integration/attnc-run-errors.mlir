// attnc-run rejects input it cannot check with a diagnostic and a non-zero
// exit status, never a crash (`not` fails on a crash); and runs the
// near misses that it can check (BRANCH).

// A function that computes attention on something else than (q, k, v).
// RUN: not attnc-run %s 2>&1 | FileCheck %s
// CHECK: attnc-run-errors.mlir:[[@LINE+1]]:1: error: attnc-run: function @swapped must take exactly the 3 arguments (q, k, v) and pass them to attn.attention as they are, in that order: k is argument #2, not #1
func.func @swapped(%q: tensor<1x2x16x32xf32>, %k: tensor<1x2x16x32xf32>,
                   %v: tensor<1x2x16x32xf32>) -> tensor<1x2x16x32xf32> {
  %o = attn.attention %q, %v, %k
      : tensor<1x2x16x32xf32>, tensor<1x2x16x32xf32>, tensor<1x2x16x32xf32>
      -> tensor<1x2x16x32xf32>
  return %o : tensor<1x2x16x32xf32>
}

// A raised 3-D graph: the message names the view between Q and the
// attention, not only the rule.
// RUN: not attnc-run --raise %S/Inputs/raise-3d.mlir 2>&1 | FileCheck %s --check-prefix=RAISE-VIEW
// RAISE-VIEW: error: attnc-run: function @bmm_3d must take exactly the 3 arguments (q, k, v) and pass them to attn.attention as they are, in that order: q is computed by tensor.expand_shape in the function, not an argument

// RUN: not attnc-run %S/Inputs/extra-argument.mlir 2>&1 | FileCheck %s --check-prefix=EXTRA-ARGUMENT
// EXTRA-ARGUMENT: error: attnc-run: function @extra must take exactly the 3 arguments (q, k, v) and pass them to attn.attention as they are, in that order: the function has 4 arguments (after them it may take only the attention's scale_value and kv_splits)

// Bad command lines.
// RUN: not attnc-run --stages=graph,bogus %s 2>&1 | FileCheck %s --check-prefix=STAGE
// STAGE: attnc-run: unknown stage 'bogus' (expected graph, tiled, fused or split)
// RUN: not attnc-run --tile-passes=attn-no-such-pass %s 2>&1 | FileCheck %s --check-prefix=TILE-PASSES
// TILE-PASSES: 'attn-no-such-pass' does not refer to a registered pass or pass pipeline
// TILE-PASSES: attnc-run: --tile-passes: 'attn-no-such-pass' is not a func.func pass pipeline
// RUN: not attnc-run --backend=cuda %s 2>&1 | FileCheck %s --check-prefix=BACKEND
// BACKEND: attnc-run: unknown --backend 'cuda' (available: cpu, gpu, auto)
// RUN: not attnc-run --sweep=nightly 2>&1 | FileCheck %s --check-prefix=SWEEP
// SWEEP: attnc-run: unknown --sweep 'nightly' (available: ci)
// RUN: not attnc-run --sweep=ci %s 2>&1 | FileCheck %s --check-prefix=SWEEP-FILE
// SWEEP-FILE: attnc-run: --sweep=ci runs generated problems; drop the input file '{{.*}}attnc-run-errors.mlir'
// RUN: not attnc-run --sweep=ci --seq-q=5 2>&1 | FileCheck %s --check-prefix=SWEEP-SIZE
// SWEEP-SIZE: attnc-run: --sweep=ci runs generated problems of their own sizes; drop --seq-q
// RUN: not attnc-run --sweep=ci --raise 2>&1 | FileCheck %s --check-prefix=SWEEP-RAISE
// SWEEP-RAISE: attnc-run: --sweep=ci generates attn.attention functions, which have nothing to raise; drop --raise
// RUN: not attnc-run --sweep= 2>&1 | FileCheck %s --check-prefix=UNNAMED-SWEEP
// UNNAMED-SWEEP: attnc-run: --sweep needs a sweep's name (available: ci)
// RUN: not attnc-run %s --iterations=-1 2>&1 | FileCheck %s --check-prefix=ITERATIONS
// ITERATIONS: attnc-run: --iterations must be >= 0, got -1
// RUN: not attnc-run %S/Inputs/does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: attnc-run: cannot open input file '{{.*}}does-not-exist.mlir': No such file or directory

// Input that does not parse or does not verify.
// RUN: not attnc-run %S/Inputs/malformed.mlir 2>&1 | FileCheck %s --check-prefix=MALFORMED
// MALFORMED: malformed.mlir:4:80: error: expected ','
// RUN: not attnc-run %S/Inputs/invalid-op.mlir 2>&1 | FileCheck %s --check-prefix=INVALID
// INVALID: invalid-op.mlir:4:8: error: 'attn.attention' op key head dim 64 does not match query head dim 32

// Functions attnc-run cannot turn into one problem.
// RUN: not attnc-run %S/Inputs/two-attentions.mlir 2>&1 | FileCheck %s --check-prefix=TWO
// TWO: two-attentions.mlir:2:1: error: attnc-run: function @twice must contain exactly one attn.attention (found 2)
// RUN: not attnc-run %S/Inputs/no-return.mlir 2>&1 | FileCheck %s --check-prefix=RETURN
// RETURN: no-return.mlir:2:1: error: attnc-run: function @returns_query must return the results of attn.attention
// Every exit of a body of several blocks must; one that does runs.
// RUN: not attnc-run %S/Inputs/one-exit-returns-query.mlir 2>&1 | FileCheck %s --check-prefix=EXIT
// EXIT: one-exit-returns-query.mlir:2:1: error: attnc-run: function @two_exits must return the results of attn.attention
// RUN: attnc-run --backend=cpu --stages=split %S/Inputs/branch-body.mlir | FileCheck %s --check-prefix=BRANCH
// BRANCH: {{^}}branch {{.*}} PASS
// BRANCH: {{^}}1 passed, 0 failed
// RUN: not attnc-run %S/Inputs/empty.mlir 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: attnc-run: no function to run in {{.*}}empty.mlir

// Sizes are checked before allocating: a 2^40-query problem is an error that
// says what it would need, not std::length_error or an out-of-memory abort.
// RUN: not attnc-run --backend=cpu %S/Inputs/huge.mlir 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: attnc-run: @huge (B=1 Hq=1 Hkv=1 Nq=1099511627776 Nk=16 D=64) needs about 1.70e+15 bytes of host memory for its inputs, output and float64 reference, more than attnc-run's 8 GiB; use smaller sizes
// The count includes the partials of compiled-in kv splits and the page
// pools of a paged cache (a segfault in the JIT code and an out-of-memory
// abort before).
// RUN: not attnc-run --backend=cpu --stages=split --seq-q=1 --seq-k=50 %S/Inputs/huge-splits.mlir 2>&1 | FileCheck %s --check-prefix=HUGE-SPLITS
// HUGE-SPLITS: attnc-run: @s (B=1 Hq=2 Hkv=2 Nq=1 Nk=50 D=64) needs about 1.04e+11 bytes of host memory
// RUN: not attnc-run --backend=cpu --seq-q=1 --seq-k=300 --batch=3 %S/Inputs/huge-pages.mlir 2>&1 | FileCheck %s --check-prefix=HUGE-PAGES
// HUGE-PAGES: attnc-run: @p (B=3 Hq=8 Hkv=2 Nq=1 Nk=300 D=64 page=100000000) needs about 1.23e+12 bytes of host memory

// Zero key/value heads must be a verifier error, not a division by zero.
// RUN: not attnc-run %S/Inputs/zero-kv-heads.mlir 2>&1 | FileCheck %s --check-prefix=ZEROHEADS
// ZEROHEADS: zero-kv-heads.mlir:4:8: error: 'attn.attention' op
