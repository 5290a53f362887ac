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
// (O = 0, LSE = -inf where every split was empty). How a CTA's four warps
// share rows is the runtime's choice at launch from the split count S
// (rt::combineRowsPerCta), which the kernel takes as its combine_rows
// parameter, its grid's x being ceil_div(Nq, combine_rows):
//   - S > 16 (few rows: MQA at B = 1 has 32 rows of 128 splits): CTA x takes
//     row x, and warp w weighs splits 16 w to 16 w + 15, then those 64
//     further on, so that a row's loads are in flight on four warps at once;
//   - S <= 16 (many rows, which fill the machine with tiles): warp w of CTA
//     x takes row 4 x + w (at MQA B = 64, one row a CTA, four
//     times the CTAs each with three idle warps, took 7.7 us; four rows a
//     CTA on a grid of Nq CTAs, three in four exiting at once, 5.7 us).
// Every warp reduces its row's split maxima itself (a lane a split, then a
// butterfly) and weighs its columns (two adjacent ones per 64, one 8-byte
// load each, so a warp reads a row's 64-column chunk as 256 contiguous
// bytes), sixteen splits an iteration, all their loads issued before the
// first weight. The warps' sums meet in shared memory, where a thread a
// column pair of a row adds those of the row's warps, and each row goes out
// by a TMA store of its own (an unswizzled box of one row); the LSE is
// stored directly. As a programmatic dependent launch (#attn.split_kv's
// programmatic_launch) it computes its rows' indices, then waits for the
// attention grid.
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

/// The warps of a CTA: four rows, or one row's four shares of its splits.
using attnc::rt::kCombineWarps;
constexpr int64_t kCombineThreads = 32 * kCombineWarps;
/// Columns of a row one pass of a warp covers (two per lane).
constexpr int64_t kColumnsPerPass = 64;
/// The kernel's nvvm.minctasm (see lowerCombineSplits) for value head dim
/// `dv`: 4 where every pass over a row is whole, else 3.
int64_t combineCtasPerSm(int64_t dv) {
  return dv % kColumnsPerPass == 0 ? 4 : 3;
}
/// Splits a warp weighs per loop iteration (their loads in flight at once):
/// each iteration waits one memory round trip, so a row of S > 16 splits
/// takes ceil(S / 64) of them on its four warps.
constexpr int64_t kSplitsPerStep = attnc::rt::kCombineSplitsPerStep;
/// The combine kernel's shared memory, in bytes: the CTA's rows of O in the
/// element type (the TMA stores' sources, each row 128-byte aligned), then
/// each warp's weighted columns (f32, Dv a warp), sum of weights and M.
struct CombineSmem {
  explicit CombineSmem(const CombineShape &shape)
      : stagedRowStride(llvm::alignTo(
            shape.valueHeadDim * shape.elementType.getIntOrFloatBitWidth() / 8,
            128)),
        partials(kCombineWarps * stagedRowStride),
        sums(partials + kCombineWarps * shape.valueHeadDim * 4),
        maxima(sums + kCombineWarps * 4), size(maxima + kCombineWarps * 4) {}
  int64_t stagedRowStride, partials, sums, maxima, size;
};

class CombineEmitter : KernelBuilder {
public:
  CombineEmitter(OpBuilder &b, Location loc, const CombineShape &shape,
                 SplitKvAttr abi)
      : KernelBuilder(b, loc), shape(shape), abi(abi) {}

  void emit(LLVM::LLVMFuncOp func);

private:
  /// The combine kernel's parameters.
  struct CombineParams {
    Value outputMap, lse, partialO, partialLse, seqQ, splits, rowsPerCta;
    /// The rows the kernel stores: below Nq, or a varlen batch's from its
    /// first sequence's first row (rowBegin; null otherwise) to its last
    /// sequence's end.
    Value rowBegin, rowEnd;
  };
  /// Whether the kernel stores row `row` (i32) of `params`.
  Value storesRow(Value row, const CombineParams &params) {
    Value below = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row,
                                        params.rowEnd);
    if (!params.rowBegin)
      return below;
    return arith::AndIOp::create(
        b, loc, below,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, row,
                              params.rowBegin));
  }
  /// The rows of the CTA, from `firstRow` on.
  void emitRows(Value firstRow, Value head, Value batch, Value warpsPerRow,
                Value tid, Value lane, Value warp, const CombineParams &params);

  Value global(Value base, Type element, Value index) {
    auto ptr = LLVM::LLVMPointerType::get(b.getContext(), 1);
    return LLVM::GEPOp::create(b, loc, ptr, element, base, ValueRange{index});
  }

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
  Value combineRows = param(rt::ParamKind::I32, rt::Symbol::CombineRows);
  assert(outputMap && partialO && partialLse && seqQ && splits && combineRows &&
         "lowerCombineSplits gives the kernel these parameters");
  // A varlen batch's rows are its sequences' (the offsets count tokens, g
  // rows each): no tile wrote partials for rows before the first or past
  // the last, which the caller's O and LSE keep.
  Value rowBegin, rowEnd = seqQ;
  if (shape.varlen) {
    Value offsets = param(rt::ParamKind::Pointer, rt::TensorName::CuSeqlensQ);
    Value sequences = param(rt::ParamKind::I32, rt::Symbol::Batch);
    assert(offsets && sequences && "a varlen combine takes the offsets");
    auto firstRowOf = [&](Value sequence) {
      Value offset = LLVM::LoadOp::create(
          b, loc, i32(), global(offsets, i32(), i64Of(sequence)), 4);
      return mul(offset, c32(shape.packedQueryHeads));
    };
    rowBegin = firstRowOf(c32(0));
    rowEnd = arith::MinUIOp::create(b, loc, firstRowOf(sequences), seqQ);
  }

  Value tid = NVVM::ThreadIdXOp::create(b, loc, i32());
  Value lane = arith::AndIOp::create(b, loc, tid, c32(31));
  Value warp = arith::ShRUIOp::create(b, loc, tid, c32(5));
  Value cta = NVVM::BlockIdXOp::create(b, loc, i32());
  Value head = NVVM::BlockIdYOp::create(b, loc, i32());
  Value batch = NVVM::BlockIdZOp::create(b, loc, i32());

  // The CTA's rows: combine_rows from row combine_rows * x on, each taking
  // kCombineWarps / combine_rows warps. combine_rows is one of two constants
  // (rt::combineRowsPerCta), and selecting between them lets LLVM turn the
  // divisions by the rows and warps into shifts and masks: dividing by the
  // parameter itself (div.u32 in the PTX, and 128 instead of 163 registers)
  // made the few-row combines 0.2-0.5 us slower.
  static_assert(rt::combineRowsPerCta(kSplitsPerStep) == kCombineWarps &&
                    rt::combineRowsPerCta(kSplitsPerStep + 1) == 1,
                "combine_rows is kCombineWarps or 1");
  Value sharedRow = eqI(combineRows, c32(1));
  Value rowsPerCta =
      arith::SelectOp::create(b, loc, sharedRow, c32(1), c32(kCombineWarps));
  Value warpsPerRow =
      arith::SelectOp::create(b, loc, sharedRow, c32(kCombineWarps), c32(1));
  emitRows(
      mul(cta, rowsPerCta), head, batch, warpsPerRow, tid, lane, warp,
      {outputMap, lse, partialO, partialLse, seqQ, splits, rowsPerCta, rowBegin,
       rowEnd});
  LLVM::ReturnOp::create(b, loc, ValueRange{});
}

void CombineEmitter::emitRows(Value firstRow, Value head, Value batch,
                              Value warpsPerRow, Value tid, Value lane,
                              Value warp, const CombineParams &params) {
  // The warp's row: the CTA holds rows firstRow, ..., firstRow +
  // rowsPerCta - 1. A row past Nq reads row Nq - 1 and stores nothing.
  Value seqQ = params.seqQ, splits = params.splits;
  Value rowsPerCta = params.rowsPerCta;
  Value rowInCta = arith::DivUIOp::create(b, loc, warp, warpsPerRow);
  Value warpInRow = arith::RemUIOp::create(b, loc, warp, warpsPerRow);
  Value lastRow = arith::SubIOp::create(b, loc, seqQ, c32(1));
  Value row = arith::MinUIOp::create(b, loc, add(firstRow, rowInCta), lastRow)
                  .getResult();
  // The workspace's heads are the partials' (the attention kernel's, which
  // verifyTiledAttention checked); its batches are the grid's z size, the
  // launch's batch.
  Value heads = c32(shape.heads);
  Value batches = NVVM::GridDimZOp::create(b, loc, i32());
  Value headRow = add(mul(i64Of(batch), i64Of(heads)), i64Of(head));
  auto rowIndexOf = [&](Value r) {
    return add(mul(headRow, i64Of(seqQ)), i64Of(r));
  };
  Value rowIndex = rowIndexOf(row);
  // The caller's LSE [B, Hq, Nq] and O map at packed row r = n * g + j:
  // query head head * g + j, token n.
  int64_t group = shape.packedQueryHeads;
  auto callerLseIndexOf = [&](Value r) {
    return group == 1 ? rowIndexOf(r) : callerLseIndex(headRow, seqQ, r, group);
  };
  auto outputCoordinatesOf = [&](Value r) -> SmallVector<Value> {
    if (group == 1)
      return {c32(0), r, head, batch};
    return {c32(0), packedHeadInGroup(r, group), packedToken(r, group), head,
            batch};
  };
  Value splitStride = mul(mul(i64Of(batches), i64Of(heads)), i64Of(seqQ));
  auto splitLse = [&](Value split) {
    Value index = add(mul(i64Of(toI32(split)), splitStride), rowIndex);
    return LLVM::LoadOp::create(b, loc, f32(),
                                global(params.partialLse, f32(), index), 4)
        .getResult();
  };

  // A programmatic dependent launch may start before the attention grid
  // ends: nothing above reads what it writes, and the partials are read
  // only once it completed and its writes are visible.
  if (abi.getProgrammaticLaunch())
    NVVM::GriddepcontrolOp::create(b, loc, NVVM::GridDepActionKind::wait);

  // M, in every warp of the row: each lane's maximum over splits lane,
  // lane + 32, ..., then the warp's (the LSEs are 4 bytes a split, cache
  // hits after the first warp; one barrier fewer than sharing them).
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
  // One split's loads: its LSE and its pairs of columns. A split past the
  // count (in a warp's last iteration) reads the last split's values again,
  // which are in flight anyway, and weighs 0.
  struct SplitLoads {
    Value exists, lse;
    SmallVector<Value> pairs;
  };
  auto loadSplit = [&](Value split) {
    SplitLoads loads;
    loads.exists = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         split, splitCount);
    Value s = arith::MinUIOp::create(b, loc, split, lastSplit);
    loads.lse = splitLse(s);
    Value rowStart =
        mul(add(mul(i64Of(toI32(s)), splitStride), rowIndex), c64(dv));
    for (int64_t j = 0; j < passes; ++j) {
      Value ptr =
          global(params.partialO, f32(), add(rowStart, i64Of(columns[j])));
      loads.pairs.push_back(LLVM::LoadOp::create(b, loc, pairType, ptr, 8));
    }
    return loads;
  };
  // Its weight exp2((LSE - M) log2 e) and weighted columns, added to
  // `carried`.
  auto weighSplit = [&](const SplitLoads &loads,
                        ValueRange carried) -> SmallVector<Value> {
    Value weight = arith::SelectOp::create(
        b, loc, loads.exists,
        exp2(arith::MulFOp::create(
            b, loc, arith::SubFOp::create(b, loc, loads.lse, offset),
            cF32(attnc::rt::kLog2E))),
        cF32(0.0));
    Value weights = pairOf(weight, weight);
    SmallVector<Value> next = {
        arith::AddFOp::create(b, loc, carried[0], weight)};
    for (int64_t j = 0; j < passes; ++j)
      next.push_back(
          LLVM::FMAOp::create(b, loc, weights, loads.pairs[j], carried[j + 1]));
    return next;
  };
  // The warp's iterations weigh splits g + 16 i, ..., g + 16 i + 15, i its
  // place among its row's warps, for g = 0, 16 warpsPerRow, ...; a warp
  // that starts past the count weighs nothing. An iteration issues all its
  // loads before the first weight so that they are in flight together
  // (with the kernel's nvvm.minctasm ptxas keeps them there; interleaved
  // with the FMAs, it issued two splits' loads at a time).
  Value firstSplit = toIndex(mul(warpInRow, c32(kSplitsPerStep)));
  Value splitStep = toIndex(mul(warpsPerRow, c32(kSplitsPerStep)));
  auto sumLoop =
      scf::ForOp::create(b, loc, firstSplit, splitCount, splitStep, init);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(sumLoop.getBody());
    SmallVector<SplitLoads> loads;
    for (int64_t u = 0; u < kSplitsPerStep; ++u)
      loads.push_back(loadSplit(add(sumLoop.getInductionVar(), cIdx(u))));
    SmallVector<Value> carried(sumLoop.getRegionIterArgs());
    for (const SplitLoads &split : loads)
      carried = weighSplit(split, carried);
    scf::YieldOp::create(b, loc, carried);
  }

  // Each warp's sums into shared memory (CombineSmem): its Dv weighted
  // columns, its sum of weights and its M.
  auto sharedPtr = LLVM::LLVMPointerType::get(b.getContext(), 3);
  Value smemBase = LLVM::AddressOfOp::create(b, loc, sharedPtr, "attn_smem");
  auto sharedAt = [&](Value byte) -> Value {
    return LLVM::GEPOp::create(b, loc, sharedPtr, b.getI8Type(), smemBase,
                               ValueRange{byte});
  };
  CombineSmem smem(shape);
  auto partialByte = [&](Value w, Value column) {
    return add(c32(smem.partials), mul(add(mul(w, c32(dv)), column), c32(4)));
  };
  auto warpSlot = [&](int64_t base, Value w) {
    return sharedAt(add(c32(base), mul(w, c32(4))));
  };
  for (int64_t j = 0; j < passes; ++j)
    ifThen(inRange[j], [&] {
      LLVM::StoreOp::create(b, loc, sumLoop.getResult(j + 1),
                            sharedAt(partialByte(warp, columns[j])),
                            /*alignment=*/8);
    });
  ifThen(eqI(lane, c32(0)), [&] {
    LLVM::StoreOp::create(b, loc, sumLoop.getResult(0),
                          warpSlot(smem.sums, warp), /*alignment=*/4);
    LLVM::StoreOp::create(b, loc, maxLse, warpSlot(smem.maxima, warp),
                          /*alignment=*/4);
  });
  NVVM::Barrier0Op::create(b, loc);

  // Row r of the CTA: the sums of its warps (warpsPerRow r, ...), and O,
  // a column pair a thread: the warps' columns added, scaled by 1 / sum and
  // put in the element type into the row's staged copy; its LSE, M + ln(sum).
  int64_t pairs = dv / 2;
  Value items = mul(rowsPerCta, c32(pairs));
  int64_t elementBytes = shape.elementType.getIntOrFloatBitWidth() / 8;
  for (int64_t k = 0; k * kCombineThreads < kCombineWarps * pairs; ++k) {
    Value item = add(tid, c32(k * kCombineThreads));
    ifThen(
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, item, items),
        [&] {
          Value r = arith::DivUIOp::create(b, loc, item, c32(pairs));
          Value column =
              mul(arith::RemUIOp::create(b, loc, item, c32(pairs)), c32(2));
          Value sum = cF32(0.0);
          Value o = zeroPair;
          for (int64_t w = 0; w < kCombineWarps; ++w) {
            Value inRow =
                eqI(arith::DivUIOp::create(b, loc, c32(w), warpsPerRow), r);
            Value warpSum = LLVM::LoadOp::create(
                b, loc, f32(), warpSlot(smem.sums, c32(w)), 4);
            Value warpColumns = LLVM::LoadOp::create(
                b, loc, pairType, sharedAt(partialByte(c32(w), column)), 8);
            sum = arith::SelectOp::create(
                b, loc, inRow, arith::AddFOp::create(b, loc, sum, warpSum),
                sum);
            o = arith::SelectOp::create(
                b, loc, inRow, LLVM::FAddOp::create(b, loc, o, warpColumns), o);
          }
          Value empty = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                              sum, cF32(0.0));
          Value inv = arith::SelectOp::create(
              b, loc, empty, cF32(0.0),
              arith::DivFOp::create(b, loc, cF32(1.0), sum));
          o = LLVM::FMulOp::create(b, loc, o, pairOf(inv, inv));
          auto narrowPair = VectorType::get({2}, shape.elementType);
          Value byte = add(mul(r, c32(smem.stagedRowStride)),
                           mul(column, c32(elementBytes)));
          LLVM::StoreOp::create(b, loc,
                                LLVM::FPTruncOp::create(b, loc, narrowPair, o),
                                sharedAt(byte), /*alignment=*/4);
          if (!params.lse)
            return;
          Value rowOfItem = add(firstRow, r);
          Value firstColumn = eqI(column, c32(0));
          Value storesLse = arith::AndIOp::create(
              b, loc, firstColumn, storesRow(rowOfItem, params));
          ifThen(storesLse, [&] {
            Value m = LLVM::LoadOp::create(
                b, loc, f32(), warpSlot(smem.maxima, mul(r, warpsPerRow)), 4);
            Value value = arith::AddFOp::create(
                b, loc, m,
                arith::MulFOp::create(b, loc, log2(sum), cF32(M_LN2)));
            value = arith::SelectOp::create(b, loc, empty, negInf(), value);
            LLVM::StoreOp::create(
                b, loc, value,
                global(params.lse, f32(), callerLseIndexOf(rowOfItem)), 4);
          });
        });
  }
  // The TMA stores read the rows through the async proxy: thread r stores
  // the CTA's row r (one row a box), where the kernel stores it
  // (storesRow).
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
  NVVM::Barrier0Op::create(b, loc);
  Value storedRow = add(firstRow, tid);
  Value ownRow =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, tid, rowsPerCta);
  ifThen(arith::AndIOp::create(b, loc, ownRow, storesRow(storedRow, params)),
         [&] {
    NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(
        b, loc, params.outputMap, sharedAt(mul(tid, c32(smem.stagedRowStride))),
        outputCoordinatesOf(storedRow), Value(),
        NVVM::TMAStoreModeAttr::get(b.getContext(), NVVM::TMAStoreMode::TILE),
        Value());
    NVVM::CpAsyncBulkCommitGroupOp::create(b, loc);
    // Shared memory must outlive the reads of the store.
    NVVM::CpAsyncBulkWaitGroupOp::create(b, loc, b.getI32IntegerAttr(0),
                                         b.getUnitAttr());
  });
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
  auto gridDim = [&](rt::Symbol symbol) -> Attribute {
    return GridDimAttr::get(ctx, {symbol});
  };
  auto param = [&](rt::ParamKind kind, auto name) -> Attribute {
    return KernelParamAttr::get(ctx, kind, name);
  };
  // O's box is the CTA's row, unswizzled (TMA takes up to 256 elements a
  // row without a swizzle), over (d, s, h, b) or packed (d, g, s, h, b).
  SmallVector<int64_t> outputBox = {shape.valueHeadDim, 1, 1, 1};
  if (shape.packedQueryHeads > 1)
    outputBox.push_back(1);
  SmallVector<Attribute> params = {
      KernelParamAttr::get(ctx, rt::ParamKind::TensorMap, rt::TensorName::O,
                           outputBox, /*swizzle=*/0)};
  if (shape.writesLse)
    params.push_back(param(rt::ParamKind::Pointer, rt::TensorName::Lse));
  params.push_back(param(rt::ParamKind::Pointer, rt::TensorName::OPartial));
  params.push_back(param(rt::ParamKind::Pointer, rt::TensorName::LsePartial));
  params.push_back(param(rt::ParamKind::I32, rt::Symbol::SeqQ));
  params.push_back(param(rt::ParamKind::I32, rt::Symbol::KvSplits));
  params.push_back(param(rt::ParamKind::I32, rt::Symbol::CombineRows));
  if (shape.varlen) {
    params.push_back(param(rt::ParamKind::Pointer, rt::TensorName::CuSeqlensQ));
    params.push_back(param(rt::ParamKind::I32, rt::Symbol::Batch));
  }
  // The grid's z is the workspace's batch: a varlen batch's one.
  auto abi = SplitKvAttr::get(
      ctx, launch.splits, launch.kvBlock, launch.entry, kCombineThreads,
      CombineSmem(shape).size,
      b.getArrayAttr(
          {gridDim(rt::Symbol::CombineCtas), gridDim(rt::Symbol::HeadsQ),
           gridDim(shape.varlen ? rt::Symbol::One : rt::Symbol::Batch)}),
      b.getArrayAttr(params), launch.programmatic);
  // A thread of the CTA scales and stores a pair of O's columns: Dv is the
  // attention's, at most 256 (verifyTiledAttention's tile-shape rule).
  assert(shape.valueHeadDim <= 2 * kCombineThreads &&
         "the combine kernel stores a column pair a thread");
  auto func = declareKernel(b, loc, abi.getEntry(), abi.getParams().getValue(),
                            kCombineThreads);
  // CTAs an SM must hold at once: ptxas then gives a warp the registers of
  // its sixteen splits' loads (128 at 4, up to 168 at 3). Without it ptxas
  // kept 32 registers and issued two splits' loads at a time; at 8
  // and 16 CTAs (64 and 32 registers) MQA at B = 1 and 8 was 2-7 % slower.
  // At 4, MQA B = 64's combine (four rows a CTA, 4096 CTAs) took
  // 4.4 instead of 5.5 us and the rows of more splits the same time as at 3
  // (on an H100); but the column predicates of a partial last pass made
  // Dv = 80, 96 and 112 spill 16 B there, so those keep 3.
  func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                b.getI32IntegerAttr(combineCtasPerSm(shape.valueHeadDim)));
  CombineEmitter(b, loc, shape, abi).emit(func);
  return abi;
}
