// Without a GPU, --backend=gpu is a clear error and --backend=auto says it
// falls back to the CPU reference backend.
// UNSUPPORTED: cuda-gpu
// RUN: not attnc-run --backend=gpu %s 2>&1 | FileCheck %s --check-prefix=GPU
// RUN: attnc-run --backend=auto %s | FileCheck %s --check-prefix=AUTO
// GPU: attnc-run: --backend=gpu needs a GPU: attnc_init(0): {{.*}}libcuda.so.1
// AUTO: backend: cpu (no GPU usable: {{.*}})
// AUTO: backend: cpu (MLIR ExecutionEngine; no GPU used)
// AUTO: 1 passed, 0 failed
func.func @small(%q: tensor<1x2x17x64xbf16>, %k: tensor<1x2x33x64xbf16>,
                 %v: tensor<1x2x33x64xbf16>) -> tensor<1x2x17x64xbf16> {
  %o = attn.attention %q, %k, %v mask = causal_bottom_right
      : tensor<1x2x17x64xbf16>, tensor<1x2x33x64xbf16>, tensor<1x2x33x64xbf16>
      -> tensor<1x2x17x64xbf16>
  return %o : tensor<1x2x17x64xbf16>
}
