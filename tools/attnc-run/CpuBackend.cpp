//===- CpuBackend.cpp - run attention functions through the JIT -----------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Functions are lowered with their tensors bufferized at the boundary to
// identity-layout memrefs and called through their C interface
// (`_mlir_ciface_<name>(results*, q*, k*, v*, ...)`, each a memref
// descriptor, then the index inputs' descriptors and the scale and split
// count where the function takes them), by way of the engine's packed
// wrapper, which takes a pointer to each argument.
//
//===----------------------------------------------------------------------===//

#include "CpuBackend.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/Error.h"

#include <chrono>
#include <cstdlib>

using namespace mlir;
using namespace attnc::run;

namespace {
template <int Rank>
struct MemRefDescriptor {
  void *allocated = nullptr;
  void *aligned = nullptr;
  int64_t offset = 0;
  int64_t sizes[Rank] = {};
  int64_t strides[Rank] = {};
};

MemRefDescriptor<4> describe(const HostTensor &t) {
  MemRefDescriptor<4> d;
  // The compiled function only reads its inputs.
  d.allocated = d.aligned = const_cast<uint8_t *>(t.bytes.data());
  int64_t stride = 1;
  for (int r = 3; r >= 0; --r) {
    d.sizes[r] = t.shape[r];
    d.strides[r] = stride;
    stride *= t.shape[r];
  }
  return d;
}

/// The C interface returns all results through one pointer to a struct of
/// descriptors; every field is 8 bytes wide, so the struct has no padding.
struct Results {
  MemRefDescriptor<4> output;
  MemRefDescriptor<3> lse;
};

/// A row-major i32 buffer as a memref of `sizes`.
template <int Rank>
MemRefDescriptor<Rank> describe(const std::vector<int32_t> &values,
                                const int64_t (&sizes)[Rank]) {
  MemRefDescriptor<Rank> d;
  d.allocated = d.aligned = const_cast<int32_t *>(values.data());
  int64_t stride = 1;
  for (int r = Rank - 1; r >= 0; --r) {
    d.sizes[r] = sizes[r];
    d.strides[r] = stride;
    stride *= sizes[r];
  }
  return d;
}
} // namespace

std::unique_ptr<ExecutionEngine>
attnc::run::compileForCpu(ModuleOp module,
                          const attn::AttnPipelineOptions &options,
                          StringRef tilePasses) {
  OwningOpRef<ModuleOp> clone(module.clone());
  Builder b(module.getContext());
  clone->walk([&](func::FuncOp f) {
    f->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(), b.getUnitAttr());
  });
  PassManager pm(module.getContext());
  attn::buildAttnTilingPipeline(pm.nest<func::FuncOp>(), options);
  if (!tilePasses.empty() &&
      failed(parsePassPipeline(tilePasses, pm.nest<func::FuncOp>())))
    return nullptr;
  attn::buildAttnToCPUPipeline(pm);
  if (failed(pm.run(*clone)))
    return nullptr;
  ExecutionEngineOptions engineOptions;
  static const StringRef runtimeLibs[] = {ATTNC_C_RUNNER_UTILS};
  engineOptions.sharedLibPaths = runtimeLibs;
  engineOptions.transformer = makeOptimizingTransformer(
      /*optLevel=*/2, /*sizeLevel=*/0, /*targetMachine=*/nullptr);
  auto engine = ExecutionEngine::create(*clone, engineOptions);
  if (!engine) {
    llvm::errs() << "attnc-run: JIT compilation failed: "
                 << llvm::toString(engine.takeError()) << "\n";
    return nullptr;
  }
  return std::move(*engine);
}

llvm::Expected<DeviceResult>
attnc::run::runOnCpu(ExecutionEngine &engine, const Problem &problem,
                     const HostTensor &q, const HostTensor &k,
                     const HostTensor &v, const IndexInputs &indices) {
  MemRefDescriptor<4> qd = describe(q), kd = describe(k), vd = describe(v);
  Results results;
  // The C interface's arguments: pointers to the results and to each
  // descriptor, then the scalars.
  SmallVector<void *, 8> pointers = {&results, &qd, &kd, &vd};
  MemRefDescriptor<2> table;
  MemRefDescriptor<1> lengths, cuQ, cuK;
  if (problem.paged) {
    table = describe(indices.blockTable, {problem.batch, indices.maxPages});
    lengths = describe(indices.cacheLengths, {problem.batch});
    pointers.append({&table, &lengths});
  } else if (problem.varlen) {
    cuQ = describe(indices.cuSeqlensQ, {problem.batch + 1});
    cuK = describe(indices.cuSeqlensK, {problem.batch + 1});
    pointers.append({&cuQ, &cuK});
  }
  // The packed wrapper reads each argument through a pointer to it.
  SmallVector<void *, 8> arguments = llvm::map_to_vector(
      pointers, [](void *&pointer) -> void * { return &pointer; });
  float scale = problem.scale;
  int64_t kvSplits = problem.kvSplits; // index lowers to i64
  for (Problem::LaunchArgument launch : problem.launchArguments)
    arguments.push_back(launch == Problem::LaunchArgument::Scale
                            ? static_cast<void *>(&scale)
                            : static_cast<void *>(&kvSplits));
  auto start = std::chrono::steady_clock::now();
  if (llvm::Error error =
          engine.invokePacked("_mlir_ciface_" + problem.function, arguments))
    return std::move(error);
  auto stop = std::chrono::steady_clock::now();

  DeviceResult r;
  r.milliseconds =
      std::chrono::duration<double, std::milli>(stop - start).count();
  r.output = makeTensor(problem.dtype, problem.outputShape());
  auto *base = static_cast<uint8_t *>(results.output.aligned);
  size_t width = byteWidth(problem.dtype);
  const auto &o = results.output;
  int64_t n = 0;
  for (int64_t i0 = 0; i0 < o.sizes[0]; ++i0)
    for (int64_t i1 = 0; i1 < o.sizes[1]; ++i1)
      for (int64_t i2 = 0; i2 < o.sizes[2]; ++i2)
        for (int64_t i3 = 0; i3 < o.sizes[3]; ++i3, ++n) {
          int64_t at = o.offset + i0 * o.strides[0] + i1 * o.strides[1] +
                       i2 * o.strides[2] + i3 * o.strides[3];
          std::memcpy(r.output.bytes.data() + n * width, base + at * width,
                      width);
        }
  std::free(results.output.allocated);
  if (problem.hasLse) {
    const auto &l = results.lse;
    auto *lse = static_cast<float *>(l.aligned);
    for (int64_t i0 = 0; i0 < l.sizes[0]; ++i0)
      for (int64_t i1 = 0; i1 < l.sizes[1]; ++i1)
        for (int64_t i2 = 0; i2 < l.sizes[2]; ++i2)
          r.lse.push_back(lse[l.offset + i0 * l.strides[0] +
                              i1 * l.strides[1] + i2 * l.strides[2]]);
    std::free(results.lse.allocated);
  }
  return r;
}
