//===- AttnDialect.cpp - attn dialect registration ------------------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "attnc/Dialect/Attn/AttnDialect.h"
#include "attnc/Dialect/Attn/AttnOps.h"

using namespace mlir;
using namespace mlir::attn;

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/TypeSwitch.h"

#include "attnc/Dialect/Attn/AttnDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "attnc/Dialect/Attn/AttnAttrs.cpp.inc"

LogicalResult SharedMemoryAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, int64_t query,
    int64_t queryBytes, int64_t output, int64_t outputBytes, int64_t keys,
    int64_t values, int64_t stages, int64_t keyStageBytes,
    int64_t valueStageBytes, std::optional<int64_t> probs,
    std::optional<int64_t> probsBytes, SwizzledSharedAttr probsLayout,
    int64_t queryFull, int64_t keyFull, int64_t valueFull, int64_t keyEmpty,
    int64_t valueEmpty, int64_t size, ArrayRef<int64_t> warpgroupBarriers,
    ArrayRef<int64_t> turnBarriers) {
  // Bounds first, so that no product or sum below can overflow.
  constexpr int64_t kMaxBytes = int64_t(1) << 31;
  if (stages < 1 || stages > 64)
    return emitError() << "stages must be 1..64, got " << stages;
  for (int64_t v :
       {query, queryBytes, output, outputBytes, keys, values, keyStageBytes,
        valueStageBytes, queryFull, keyFull, valueFull, keyEmpty, valueEmpty,
        size, probs.value_or(0), probsBytes.value_or(0)})
    if (v < 0 || v > kMaxBytes)
      return emitError() << "offsets and sizes must be 0..2^31, got " << v;
  if (keyStageBytes == 0 || valueStageBytes == 0 || queryBytes == 0 ||
      outputBytes == 0)
    return emitError() << "buffer bytes must be positive";
  // Every stage starts 1024-aligned, as the 128-byte swizzle needs.
  if (keyStageBytes % 1024 || valueStageBytes % 1024 ||
      probsBytes.value_or(0) % 1024)
    return emitError() << "stage and P bytes must be multiples of 1024";
  if (probs.has_value() != probsBytes.has_value() ||
      probs.has_value() != bool(probsLayout))
    return emitError() << "probs, probs_bytes and probs_layout go together";
  struct Region {
    StringRef name;
    int64_t begin, bytes, alignment;
  };
  SmallVector<Region> regions = {
      {"query", query, queryBytes, 1024},
      {"keys", keys, stages * keyStageBytes, 1024},
      {"values", values, stages * valueStageBytes, 1024},
      {"query_full", queryFull, 8, 8},
      {"key_full", keyFull, 8 * stages, 8},
      {"value_full", valueFull, 8 * stages, 8},
      {"value_empty", valueEmpty, 8 * stages, 8}};
  if (keyEmpty != valueEmpty)
    regions.push_back({"key_empty", keyEmpty, 8 * stages, 8});
  if (probs)
    regions.push_back({"probs", *probs, *probsBytes, 1024});
  // O staged over Q (the allocation's choice) shares the Q buffer; anywhere
  // else it is a buffer of its own.
  if (output == query && outputBytes > queryBytes)
    return emitError() << "output staged over query (" << outputBytes
                       << " bytes) must fit in query_bytes = " << queryBytes;
  if (output != query)
    regions.push_back({"output", output, outputBytes, 1024});
  for (const Region &r : regions) {
    if (r.begin < 0 || r.begin % r.alignment != 0 || r.begin + r.bytes > size)
      return emitError() << r.name << " = " << r.begin << " (" << r.bytes
                         << " bytes) must be " << r.alignment
                         << "-byte aligned and inside size = " << size;
  }
  for (size_t i = 0; i < regions.size(); ++i)
    for (size_t j = i + 1; j < regions.size(); ++j) {
      const Region &a = regions[i], &b = regions[j];
      if (a.begin < b.begin + b.bytes && b.begin < a.begin + a.bytes)
        return emitError() << a.name << " and " << b.name << " overlap";
    }
  // bar.sync takes ids 0..15; 0 is the whole CTA's (bar.sync 0).
  if (warpgroupBarriers.empty())
    return emitError() << "warpgroup_barriers needs one id per consumer "
                          "warpgroup, got none";
  SmallVector<int64_t> seen;
  for (auto [name, ids] : {std::pair{"warpgroup_barriers", warpgroupBarriers},
                           std::pair{"turn_barriers", turnBarriers}})
    for (int64_t id : ids) {
      if (id < 1 || id >= kNamedBarriers)
        return emitError() << name << " ids must be 1.." << kNamedBarriers - 1
                           << " (0 is the CTA's barrier), got " << id;
      if (llvm::is_contained(seen, id))
        return emitError() << "named barrier " << id << " is allocated twice";
      seen.push_back(id);
    }
  return success();
}

namespace {
/// Short aliases for the tile layouts, which every tile type of a placed
/// kernel carries (#acc, #rows, #shared, as Triton prints #mma and #shared).
struct AttnOpAsmInterface final : OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<WgmmaAccumulatorAttr>(attr))
      os << "acc";
    else if (isa<AccumulatorRowsAttr>(attr))
      os << "rows";
    else if (isa<SwizzledSharedAttr>(attr))
      os << "shared";
    else
      return AliasResult::NoAlias;
    return AliasResult::OverridableAlias;
  }
};
} // namespace

void AttnDialect::initialize() {
  addInterfaces<AttnOpAsmInterface>();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "attnc/Dialect/Attn/AttnAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "attnc/Dialect/Attn/AttnOps.cpp.inc"
      >();
}

Operation *AttnDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

LogicalResult AttnDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  if (attr.getName() != getStageAttrName())
    return success();
  auto stage = dyn_cast<IntegerAttr>(attr.getValue());
  if (!stage || !stage.getType().isInteger(64) || stage.getInt() < 0 ||
      stage.getInt() > 1)
    return op->emitError() << "'" << getStageAttrName()
                           << "' must be 0 or 1 (an i64), got "
                           << attr.getValue();
  // A rotated loop's epilogue (attn-pipeline-kv-loops, an scf.if) runs
  // stage 1 of its last block.
  if (op->getDialect() != this ||
      !isa_and_nonnull<LoopLikeOpInterface, scf::IfOp>(op->getParentOp()))
    return op->emitError() << "'" << getStageAttrName()
                           << "' belongs on an attn tile op in a kv loop "
                              "(or in the epilogue of rotated kv loops)";
  return success();
}

LogicalResult AttnDialect::verifyRegionArgAttribute(Operation *op,
                                                    unsigned regionIndex,
                                                    unsigned argIndex,
                                                    NamedAttribute attr) {
  // A function declaration has no entry block: its argument types are those
  // of its function type.
  Type type;
  if (auto func = dyn_cast<FunctionOpInterface>(op))
    type = func.getArgumentTypes()[argIndex];
  else
    type = op->getRegion(regionIndex).getArgument(argIndex).getType();
  if (attr.getName() == getScaleArgAttrName()) {
    auto scale = dyn_cast<FloatAttr>(attr.getValue());
    if (!scale || !scale.getType().isF32() || !type.isF32())
      return op->emitError() << "'" << getScaleArgAttrName()
                             << "' must be an f32 value on an f32 argument";
    return success();
  }
  if (attr.getName() == getPackedQueryHeadsAttrName()) {
    auto heads = dyn_cast<IntegerAttr>(attr.getValue());
    // A tensor, or what the CPU pipeline makes of one: a memref, then LLVM
    // descriptor pointers.
    auto shaped = dyn_cast<ShapedType>(type);
    bool carrier = shaped ? shaped.hasRank() && shaped.getRank() == 4
                          : type.getDialect().getNamespace() == "llvm";
    if (!heads || !heads.getType().isInteger(64) || heads.getInt() < 2 ||
        !carrier)
      return op->emitError() << "'" << getPackedQueryHeadsAttrName()
                             << "' must be an i64 of at least 2 on a 4-D "
                                "tensor or memref argument "
                                "(the query heads each packed head holds), got "
                             << attr.getValue() << " on " << type;
    return success();
  }
  return op->emitError() << "unknown argument attribute '"
                         << attr.getName().getValue()
                         << "' of the attn dialect";
}
