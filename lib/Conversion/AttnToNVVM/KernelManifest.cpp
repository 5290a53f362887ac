//===- KernelManifest.cpp - the kernel's runtime manifest -----------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the runtime needs to launch the kernel (docs/Runtime.md): threads,
// shared memory, grid, parameters in order, tensor-map boxes, and the
// compile options for reproducibility.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::hopper;

namespace rt = attnc::rt;

rt::Manifest mlir::attn::hopper::buildManifest(const KernelPlan &plan,
                                               const SharedMemoryLayout &smem) {
  rt::Manifest m;
  m.attncVersion = ATTNC_VERSION;
  m.entry = plan.name;
  m.ptx = "kernel.ptx";
  m.threadsPerBlock = kWarpgroupThreads * plan.warpgroups();
  m.dynamicSmemBytes = smem.total;
  if (plan.persistent) {
    m.grid[0] = {{rt::Symbol::NumSms}, 1};
    m.grid[1] = {{rt::Symbol::One}, 1};
    m.grid[2] = {{rt::Symbol::One}, 1};
  } else {
    m.grid[0] = {{rt::Symbol::SeqQ}, plan.blockM};
    m.grid[1] = {{rt::Symbol::HeadsQ}, 1};
    m.grid[2] = {{rt::Symbol::Batch}, 1};
  }
  m.problem.dtype =
      plan.elementType.isBF16() ? rt::DType::BF16 : rt::DType::F16;
  m.problem.headDim = plan.headDim;
  m.problem.headDimV = plan.valueHeadDim;
  m.problem.layout = plan.layout == Layout::BHSD ? "bhsd" : "bshd";
  m.problem.mask = stringifyMaskKind(plan.mask.kind).str();
  m.problem.gqa = plan.headsQ != plan.headsKV;
  m.problem.hasLse = plan.hasLse;
  auto tensorMap = [&](rt::TensorName t, int64_t rows) {
    rt::KernelParam p;
    p.kind = rt::ParamKind::TensorMap;
    p.tensor = t;
    p.dims = {rt::TensorDim::D, rt::TensorDim::S, rt::TensorDim::H,
              rt::TensorDim::B};
    p.box = {kAtomElems, rows, 1, 1};
    p.swizzle = rt::Swizzle::B128;
    return p;
  };
  auto pointer = [](rt::TensorName t) {
    rt::KernelParam p;
    p.kind = rt::ParamKind::Pointer;
    p.tensor = t;
    return p;
  };
  auto scalar = [](rt::Symbol s, rt::ParamKind kind = rt::ParamKind::I32) {
    rt::KernelParam p;
    p.kind = kind;
    p.value = s;
    return p;
  };
  m.params = {tensorMap(rt::TensorName::Q, plan.blockM),
              tensorMap(rt::TensorName::K, plan.blockN),
              tensorMap(rt::TensorName::V, plan.blockN),
              tensorMap(rt::TensorName::O, kWarpgroupRows)};
  if (plan.hasLse)
    m.params.push_back(pointer(rt::TensorName::Lse));
  m.params.push_back(scalar(rt::Symbol::SeqQ));
  m.params.push_back(scalar(rt::Symbol::SeqK));
  if (plan.persistent)
    m.params.push_back(scalar(rt::Symbol::Batch));
  if (plan.scaleArgument)
    m.params.push_back(scalar(rt::Symbol::Scale, rt::ParamKind::F32));
  if (plan.scaleLog2IsParameter)
    m.params.push_back(scalar(rt::Symbol::ScaleLog2, rt::ParamKind::F32));
  auto option = [&](StringRef name, int64_t v) {
    m.options.push_back({name.str(), std::to_string(v), false});
  };
  option("block_m", plan.blockM);
  option("block_n", plan.blockN);
  option("stages", smem.stages);
  option("consumer_warpgroups", plan.consumerWarpgroups());
  option("warp_specialized", plan.warpSpecialize);
  option("ping_pong", plan.pingPong());
  option("intra_warpgroup_overlap", plan.overlapSoftmax());
  option("probs_in_registers", plan.probsInRegisters);
  option("longest_first", plan.longestFirst);
  option("conditional_rescale", plan.conditionalRescale);
  option("persistent", plan.persistent);
  option("heads_q", plan.headsQ);
  option("heads_kv", plan.headsKV);
  // A compiled-in scale; without one the launch's scale is a parameter.
  if (plan.constantScale)
    m.options.push_back(
        {"scale", llvm::formatv("{0:e8}", *plan.constantScale).str(), false});
  if (plan.softcap)
    m.options.push_back(
        {"softcap", llvm::formatv("{0:e8}", *plan.softcap).str(), false});
  if (plan.mask.window) {
    option("window_left", (*plan.mask.window)[0]);
    option("window_right", (*plan.mask.window)[1]);
  }
  return m;
}
