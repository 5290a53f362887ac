//===- CombineKernel.cpp - attn.combine_splits as the second kernel -------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A split-KV attention's attention kernel leaves, for every query row and kv
// split s, the split's normalized O_s and LSE_s in the workspace (f32
// [S, B, H, Sq, Dv] and [S, B, H, Sq]). The combine kernel merges them as
// attn.combine_splits defines:
//
//   M = max_s LSE_s,  w_s = exp(LSE_s - M),
//   O = sum_s w_s O_s / sum_s w_s,  LSE = M + log(sum_s w_s)
//
// (O = 0, LSE = -inf where every split was empty). One CTA computes one
// row, its warps sharing the row's splits so that a row's loads are in
// flight on several warps at once (a row's splits are many where rows are
// few: MQA at B = 1 has 32 rows and 64 splits each). Every warp reduces the
// split maxima itself (a lane a split, then a butterfly); warp w then walks
// splits 16 w, ..., 16 w + 15, then those 64 further on, weighting its
// columns (two adjacent ones per 64, one 8-byte load each, so a warp reads
// a row's 64-column chunk as 256 contiguous bytes). The warps' sums meet in
// shared memory, a thread a column pair adds them, and the row goes out by
// one TMA store (an unswizzled box of one row); the LSE is stored directly.
// As a programmatic dependent launch (#attn.split_kv's programmatic_launch)
// it computes its row's indices, then waits for the attention grid.
//
//===----------------------------------------------------------------------===//

#include "CombineKernel.h"
#include "KernelBuilder.h"
#include "KernelEmitter.h"

#include "attnc/Dialect/Attn/KernelAbi.h"
#include "attnc/Runtime/Manifest.h"

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::hopper;

namespace rt = attnc::rt;

namespace {

/// The warps that share one query row's splits (a CTA is one row).
constexpr int64_t kCombineWarps = 4;
constexpr int64_t kCombineThreads = 32 * kCombineWarps;
/// Columns of a row one pass of a warp covers (two per lane).
constexpr int64_t kColumnsPerPass = 64;
/// Splits a warp weighs per loop iteration (their loads in flight at once):
/// each iteration waits one memory round trip, so a row of S splits takes
/// ceil(S / 64) of them on its four warps.
constexpr int64_t kSplitsPerStep = 16;
/// Bytes of the CTA's shared memory before the warps' partial sums: the row
/// of O in the element type (the TMA store's source), rounded up to 16.
int64_t stagedRowBytes(const CombineShape &shape) {
  return llvm::alignTo(
      shape.valueHeadDim * shape.elementType.getIntOrFloatBitWidth() / 8, 16);
}
/// The whole shared memory: the staged row, then each warp's weighted
/// columns (f32, Dv a warp), then each warp's sum of weights (f32).
int64_t combineSharedBytes(const CombineShape &shape) {
  return stagedRowBytes(shape) +
         kCombineWarps * (shape.valueHeadDim + 1) * int64_t(sizeof(float));
}

class CombineEmitter : KernelBuilder {
public:
  CombineEmitter(OpBuilder &b, Location loc, const CombineShape &shape,
                 SplitKvAttr abi)
      : KernelBuilder(b, loc), shape(shape), abi(abi) {}

  void emit(LLVM::LLVMFuncOp func);

private:
  Value global(Value base, Type element, Value index) {
    auto ptr = LLVM::LLVMPointerType::get(b.getContext(), 1);
    return LLVM::GEPOp::create(b, loc, ptr, element, base, ValueRange{index});
  }
  Value i64Of(Value v) { return arith::ExtUIOp::create(b, loc, i64(), v); }

  const CombineShape &shape;
  SplitKvAttr abi;
};

} // namespace

void CombineEmitter::emit(LLVM::LLVMFuncOp func) {
  Block *entry = func.addEntryBlock(b);
  b.setInsertionPointToStart(entry);
  auto param = [&](rt::ParamKind kind, auto name) -> Value {
    std::optional<unsigned> i =
        findKernelParam(abi.getParams().getValue(), kind, name);
    return i ? entry->getArgument(*i) : Value();
  };
  Value outputMap = param(rt::ParamKind::TensorMap, rt::TensorName::O);
  Value lse = param(rt::ParamKind::Pointer, rt::TensorName::Lse);
  Value partialO = param(rt::ParamKind::Pointer, rt::TensorName::OPartial);
  Value partialLse = param(rt::ParamKind::Pointer, rt::TensorName::LsePartial);
  Value seqQ = param(rt::ParamKind::I32, rt::Symbol::SeqQ);
  Value splits = param(rt::ParamKind::I32, rt::Symbol::KvSplits);
  assert(outputMap && partialO && partialLse && seqQ && splits &&
         "lowerCombineSplits gives the kernel these parameters");

  Value tid = NVVM::ThreadIdXOp::create(b, loc, i32());
  Value lane = arith::AndIOp::create(b, loc, tid, c32(31));
  Value warp = arith::ShRUIOp::create(b, loc, tid, c32(5));
  Value row = NVVM::BlockIdXOp::create(b, loc, i32());
  Value head = NVVM::BlockIdYOp::create(b, loc, i32());
  Value batch = NVVM::BlockIdZOp::create(b, loc, i32());
  // The workspace's heads are the partials' (the attention kernel's, which
  // the plan reader checked); its batches are the grid's z size, the
  // launch's batch. The grid's x size is Nq: every row exists.
  Value heads = c32(shape.heads);
  Value batches = NVVM::GridDimZOp::create(b, loc, i32());
  Value headRow = add(mul(i64Of(batch), i64Of(heads)), i64Of(head));
  Value rowIndex = add(mul(headRow, i64Of(seqQ)), i64Of(row));
  Value splitStride = mul(mul(i64Of(batches), i64Of(heads)), i64Of(seqQ));
  auto splitLse = [&](Value split) {
    Value index = add(mul(i64Of(toI32(split)), splitStride), rowIndex);
    return LLVM::LoadOp::create(b, loc, f32(), global(partialLse, f32(), index),
                                4)
        .getResult();
  };

  // A programmatic dependent launch may start before the attention grid
  // ends: nothing above reads what it writes, and the partials are read
  // only once it completed and its writes are visible.
  if (abi.getProgrammaticLaunch())
    NVVM::GriddepcontrolOp::create(b, loc, NVVM::GridDepActionKind::wait);

  // M, in every warp: each lane's maximum over splits lane, lane + 32, ...,
  // then the warp's (the LSEs are 4 bytes a split, cache hits after the
  // first warp; one barrier fewer than sharing them).
  auto maxLoop = scf::ForOp::create(b, loc, toIndex(lane), toIndex(splits),
                                    cIdx(32), ValueRange{negInf()});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(maxLoop.getBody());
    Value m = arith::MaximumFOp::create(b, loc, maxLoop.getRegionIterArgs()[0],
                                        splitLse(maxLoop.getInductionVar()));
    scf::YieldOp::create(b, loc, m);
  }
  Value maxLse = laneReduce(maxLoop.getResult(0), /*isMax=*/true, 32);
  // Every split empty: M = -inf, and exp(-inf - 0) = 0 weighs each split.
  Value offset =
      arith::SelectOp::create(b, loc, isNegInf(maxLse), cF32(0.0), maxLse);

  // Lane l holds columns 64 j + 2 l and + 1 of each pass j that reaches them
  // (a last partial pass where Dv is not a multiple of 64).
  int64_t dv = shape.valueHeadDim;
  int64_t passes = llvm::divideCeil(dv, kColumnsPerPass);
  Value pairColumn = mul(lane, c32(2));
  SmallVector<Value> columns, inRange;
  for (int64_t j = 0; j < passes; ++j) {
    Value col = add(pairColumn, c32(j * kColumnsPerPass));
    Value ok =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, col, c32(dv));
    inRange.push_back(ok);
    // A lane past Dv reads the row's last pair instead, and stores nothing.
    columns.push_back(
        arith::SelectOp::create(b, loc, ok, col, c32(dv - 2)).getResult());
  }
  auto pairType = VectorType::get({2}, f32());
  Value zeroPair = pairOf(cF32(0.0), cF32(0.0));
  SmallVector<Value> init = {cF32(0.0)};
  init.append(passes, zeroPair);
  Value splitCount = toIndex(splits);
  Value lastSplit = arith::SubIOp::create(b, loc, splitCount, cIdx(1));
  // One split's weight and weighted columns, added to `carried`. A split
  // past the count (in a warp's last iteration) reads the last split's
  // values again, which are in flight anyway, and weighs 0.
  auto weighSplit = [&](Value split, ValueRange carried) -> SmallVector<Value> {
    Value exists = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         split, splitCount);
    Value s = arith::MinUIOp::create(b, loc, split, lastSplit);
    Value weight = arith::SelectOp::create(
        b, loc, exists,
        exp2(arith::MulFOp::create(
            b, loc, arith::SubFOp::create(b, loc, splitLse(s), offset),
            cF32(attnc::rt::kLog2E))),
        cF32(0.0));
    Value rowStart =
        mul(add(mul(i64Of(toI32(s)), splitStride), rowIndex), c64(dv));
    Value weights = pairOf(weight, weight);
    SmallVector<Value> next = {
        arith::AddFOp::create(b, loc, carried[0], weight)};
    for (int64_t j = 0; j < passes; ++j) {
      Value ptr = global(partialO, f32(), add(rowStart, i64Of(columns[j])));
      Value pair = LLVM::LoadOp::create(b, loc, pairType, ptr, 8);
      next.push_back(
          LLVM::FMAOp::create(b, loc, weights, pair, carried[j + 1]));
    }
    return next;
  };
  // Warp w's iterations weigh splits g + 16 w, ..., g + 16 w + 15 for g =
  // 0, 64, ... (their loads in flight together; one at a time, each would
  // wait for the last); a warp that starts past the count weighs nothing.
  auto sumLoop = scf::ForOp::create(
      b, loc, toIndex(mul(warp, c32(kSplitsPerStep))), splitCount,
      cIdx(kSplitsPerStep * kCombineWarps), init);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(sumLoop.getBody());
    SmallVector<Value> carried(sumLoop.getRegionIterArgs());
    for (int64_t u = 0; u < kSplitsPerStep; ++u)
      carried = weighSplit(add(sumLoop.getInductionVar(), cIdx(u)), carried);
    scf::YieldOp::create(b, loc, carried);
  }

  // The warps' sums into shared memory: warp w's Dv weighted columns, then
  // after every warp's columns, its sum of weights.
  auto sharedPtr = LLVM::LLVMPointerType::get(b.getContext(), 3);
  Value smemBase = LLVM::AddressOfOp::create(b, loc, sharedPtr, "attn_smem");
  auto sharedAt = [&](Value byte) -> Value {
    return LLVM::GEPOp::create(b, loc, sharedPtr, b.getI8Type(), smemBase,
                               ValueRange{byte});
  };
  int64_t partialsBase = stagedRowBytes(shape);
  int64_t sumsBase = partialsBase + kCombineWarps * dv * int64_t(sizeof(float));
  auto partialByte = [&](Value w, Value column) {
    return add(c32(partialsBase), mul(add(mul(w, c32(dv)), column), c32(4)));
  };
  for (int64_t j = 0; j < passes; ++j)
    ifThen(inRange[j], [&] {
      LLVM::StoreOp::create(b, loc, sumLoop.getResult(j + 1),
                            sharedAt(partialByte(warp, columns[j])),
                            /*alignment=*/8);
    });
  ifThen(eqI(lane, c32(0)), [&] {
    LLVM::StoreOp::create(b, loc, sumLoop.getResult(0),
                          sharedAt(add(c32(sumsBase), mul(warp, c32(4)))),
                          /*alignment=*/4);
  });
  NVVM::Barrier0Op::create(b, loc);

  // The row's sum of weights (every thread adds the warps' sums), and O:
  // thread t adds the warps' columns 2 t and 2 t + 1, scales them by
  // 1 / sum and puts them in the element type into the staged row.
  Value sum = cF32(0.0);
  for (int64_t w = 0; w < kCombineWarps; ++w)
    sum = arith::AddFOp::create(
        b, loc, sum,
        LLVM::LoadOp::create(b, loc, f32(), sharedAt(c32(sumsBase + 4 * w)),
                             4));
  Value empty =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, sum, cF32(0.0));
  Value inv = arith::SelectOp::create(
      b, loc, empty, cF32(0.0), arith::DivFOp::create(b, loc, cF32(1.0), sum));
  Value ownPair = mul(tid, c32(2));
  ifThen(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, ownPair,
                               c32(dv)),
         [&] {
           Value o = zeroPair;
           for (int64_t w = 0; w < kCombineWarps; ++w)
             o = LLVM::FAddOp::create(
                 b, loc, o,
                 LLVM::LoadOp::create(b, loc, pairType,
                                      sharedAt(partialByte(c32(w), ownPair)),
                                      8));
           o = LLVM::FMulOp::create(b, loc, o, pairOf(inv, inv));
           auto narrowPair = VectorType::get({2}, shape.elementType);
           int64_t elementBytes = shape.elementType.getIntOrFloatBitWidth() / 8;
           LLVM::StoreOp::create(
               b, loc, LLVM::FPTruncOp::create(b, loc, narrowPair, o),
               sharedAt(mul(ownPair, c32(elementBytes))), /*alignment=*/4);
         });
  if (lse) {
    ifThen(eqI(tid, c32(0)), [&] {
      Value value = arith::AddFOp::create(
          b, loc, maxLse,
          arith::MulFOp::create(b, loc, log2(sum), cF32(M_LN2)));
      value = arith::SelectOp::create(b, loc, empty, negInf(), value);
      LLVM::StoreOp::create(b, loc, value, global(lse, f32(), rowIndex), 4);
    });
  }
  // The TMA store reads the row through the async proxy.
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
  NVVM::Barrier0Op::create(b, loc);
  ifThen(eqI(tid, c32(0)), [&] {
    NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(
        b, loc, outputMap, smemBase, ValueRange{c32(0), row, head, batch},
        Value(),
        NVVM::TMAStoreModeAttr::get(b.getContext(), NVVM::TMAStoreMode::TILE),
        Value());
    NVVM::CpAsyncBulkCommitGroupOp::create(b, loc);
    // Shared memory must outlive the reads of the store.
    NVVM::CpAsyncBulkWaitGroupOp::create(b, loc, b.getI32IntegerAttr(0),
                                         b.getUnitAttr());
  });
  LLVM::ReturnOp::create(b, loc, ValueRange{});
}

FailureOr<CombineShape>
mlir::attn::hopper::readCombineShape(CombineSplitsOp op) {
  ArrayRef<int64_t> partial = op.getPartialOutput().getType().getShape();
  SmallVector<int64_t, 4> output =
      toLogicalBHSD(op.getOutput().getType().getShape(), op.getLayout());
  // The op's verifier made the static sizes of a dimension agree.
  auto staticOf = [](std::initializer_list<int64_t> sizes) -> int64_t {
    for (int64_t size : sizes)
      if (!ShapedType::isDynamic(size))
        return size;
    return ShapedType::kDynamic;
  };
  CombineShape shape;
  shape.heads =
      staticOf({partial[2], op.getPartialLse().getType().getShape()[2],
                output[1], op.getLse().getType().getShape()[1]});
  shape.valueHeadDim = staticOf({partial[4], output[3]});
  if (ShapedType::isDynamic(shape.heads) ||
      ShapedType::isDynamic(shape.valueHeadDim))
    return op.emitError("convert-attn-to-nvvm: attn.combine_splits needs "
                        "static heads and value head dim in its types (the "
                        "combine kernel compiles in its rows' strides and "
                        "columns)");
  // A thread of the CTA scales and stores a pair of O's columns.
  if (shape.valueHeadDim > 2 * kCombineThreads)
    return op.emitError("convert-attn-to-nvvm: attn.combine_splits merges a "
                        "value head dim of ")
           << shape.valueHeadDim << "; the combine kernel takes at most "
           << 2 * kCombineThreads;
  shape.elementType = op.getOutput().getType().getElementType();
  shape.writesLse = !op.getLse().use_empty();
  return shape;
}

SplitKvAttr mlir::attn::hopper::lowerCombineSplits(
    OpBuilder &b, Location loc, gpu::GPUModuleOp module,
    const CombineShape &shape, const CombineLaunch &launch) {
  MLIRContext *ctx = b.getContext();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(module.getBody());
  auto gridDim = [&](rt::Symbol symbol, int64_t ceilDiv) -> Attribute {
    return GridDimAttr::get(ctx, {symbol}, ceilDiv);
  };
  auto param = [&](rt::ParamKind kind, auto name) -> Attribute {
    return KernelParamAttr::get(ctx, kind, name);
  };
  // O's box is the CTA's row, unswizzled (TMA takes up to 256 elements a
  // row without a swizzle).
  SmallVector<Attribute> params = {
      KernelParamAttr::get(ctx, rt::ParamKind::TensorMap, rt::TensorName::O,
                           {shape.valueHeadDim, 1, 1, 1}, /*swizzle=*/0)};
  if (shape.writesLse)
    params.push_back(param(rt::ParamKind::Pointer, rt::TensorName::Lse));
  params.push_back(param(rt::ParamKind::Pointer, rt::TensorName::OPartial));
  params.push_back(param(rt::ParamKind::Pointer, rt::TensorName::LsePartial));
  params.push_back(param(rt::ParamKind::I32, rt::Symbol::SeqQ));
  params.push_back(param(rt::ParamKind::I32, rt::Symbol::KvSplits));
  auto abi = SplitKvAttr::get(ctx, launch.splits, launch.kvBlock, launch.entry,
                              kCombineThreads, combineSharedBytes(shape),
                              b.getArrayAttr({gridDim(rt::Symbol::SeqQ, 1),
                                              gridDim(rt::Symbol::HeadsQ, 1),
                                              gridDim(rt::Symbol::Batch, 1)}),
                              b.getArrayAttr(params), launch.programmatic);
  auto func = declareKernel(b, loc, abi.getEntry(), abi.getParams().getValue(),
                            kCombineThreads);
  CombineEmitter(b, loc, shape, abi).emit(func);
  return abi;
}
