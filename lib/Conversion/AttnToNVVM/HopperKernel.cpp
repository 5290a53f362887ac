//===- HopperKernel.cpp - build the sm_90a attention kernel ---------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One CTA computes block_m query rows of one (batch, head), and of one kv
// split of a split tile: block_m / 64 consumer warpgroups (128 threads
// each, 64 rows each) share every K/V tile. With warp
// specialization (the default on sm_90a) a producer warpgroup is added:
// setmaxnreg moves its registers to the consumers, and one of its threads
// streams Q and every K/V block into a ring of 2-3 stages (separate K and V
// mbarriers, so S = Q K^T starts before V lands), waiting on per-stage
// "empty" mbarriers that each consumer warpgroup arrives on once it is done
// with a stage (with two stages, separate ones for K and V: K is handed
// back a step before V). Without it, consumer thread 0 issues the loads and a
// block barrier ends every step. Per kv block, in each consumer warpgroup:
//
//   S   = wgmma SS (Q from smem, K from smem; both K-major, 128B swizzle)
//   S   = mask(S)                         (only in the masked loops)
//   m'  = max(m, rowmax S); a = exp2((m - m') c); P = exp2(S c - m' c)
//   l   = a l + rowsum P;  O = a O
//   O  += wgmma RS (P from registers as bf16/f16, V from smem, MN-major)
//
// With two consumer warpgroups they take turns issuing S (ping-pong on named
// barriers), so one's softmax overlaps the other's GEMMs. The kv loops that
// attn-pipeline-kv-loops rotated run the softmax of block j while P V of
// block j-1 is in flight; O *= alpha(j-1) then runs while S(j) is in
// flight. Each step's ops are converted in IR order, one pattern per op
// (TileOpPatterns.cpp); this file holds the kernel's structure. The
// epilogue normalizes O, writes it into #attn.shared_memory's output buffer
// (the Q buffer as attn-allocate-shared-memory lays it out) in the swizzled
// box layout and stores it with TMA; LSE is stored directly.
//
// Named barriers: 0 = whole CTA; the others as attn-allocate-shared-memory
// gave them out (#attn.shared_memory): one per consumer warpgroup, and with
// ping-pong one turn barrier per consumer warpgroup.
//
// Accumulator layout: #attn.wgmma_accumulator's (its description states the
// register order, WgmmaAccumulatorAttr has its arithmetic, FragmentTypes.h a
// thread's values of each tile type). A thread holds two rows, shared by
// the 4 threads of a quad, so row reductions combine the quad (shuffles by
// 1 and 2). The register order makes consecutive value pairs of S exactly
// the A-fragment registers of the RS wgmma, so P never leaves registers.
//
//===----------------------------------------------------------------------===//

#include "CombineKernel.h"
#include "KernelEmitter.h"
#include "TileScale.h"

#include "attnc/Dialect/Attn/KernelAbi.h"
#include "attnc/Runtime/Manifest.h"
#include "attnc/Transforms/TileOrder.h"

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::hopper;

namespace rt = attnc::rt;

Value KernelEmitter::smemPtr(int64_t offset, Value dynamicOffset) {
  Value off = c32(offset);
  if (dynamicOffset)
    off = add(off, dynamicOffset);
  return LLVM::GEPOp::create(b, loc, smemBase.getType(), b.getI8Type(),
                             smemBase, ValueRange{off});
}

Value KernelEmitter::smemAddr32(int64_t offset, Value dynamicOffset) {
  Value ptr = smemPtr(offset, dynamicOffset);
  return LLVM::PtrToIntOp::create(b, loc, i32(), ptr);
}

void KernelEmitter::loadTile(Value tensorMap, SwizzledAtoms atoms,
                             int64_t dstOffset, Value dstDynamicOffset,
                             int64_t rows, int64_t cols,
                             ArrayRef<Value> outerCoords, Value bar) {
  // The bytes TMA delivers: whole boxes (the columns past the tensor arrive
  // zero-filled and count), not the buffer's stride.
  expectBytes(bar, atoms.tileBytes(rows, cols));
  for (int64_t atom = 0; atom < atoms.count(cols); ++atom) {
    SmallVector<Value> coords = {c32(atom * atoms.columns())};
    llvm::append_range(coords, outerCoords);
    tmaLoad(tensorMap,
            smemPtr(dstOffset + atom * atoms.atomBytes(rows), dstDynamicOffset),
            coords, bar);
  }
}

SmallVector<int64_t>
mlir::attn::hopper::queryMapBox(const TiledAttention &tiled, int64_t columns,
                                int64_t rows) {
  int64_t group = tiled.packedQueryHeads();
  if (group == 1)
    return {columns, rows, 1, 1};
  if (tiled.packsOneToken())
    return {columns, rows, 1, 1, 1};
  assert(rows % group == 0 && "verifyTiledAttention: g divides the rows");
  return {columns, group, rows / group, 1, 1};
}

SmallVector<Value> KernelEmitter::queryMapCoordinates(Value row, Value head,
                                                      Value batch) {
  int64_t group = tiled.packedQueryHeads();
  if (group == 1)
    return {row, head, batch};
  if (tiled.packsOneToken())
    return {row, c32(0), head, batch};
  return {c32(0), packedToken(row, group), head, batch};
}

void KernelEmitter::tmaLoad(Value tensorMap, Value dst, ArrayRef<Value> coords,
                            Value bar) {
  auto clusterPtr = LLVM::LLVMPointerType::get(b.getContext(), 7);
  dst = LLVM::AddrSpaceCastOp::create(b, loc, clusterPtr, dst);
  NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
      b, loc, dst, tensorMap, coords, bar, ValueRange{}, Value(), Value(),
      NVVM::TMALoadMode::TILE, /*isCTAOnly=*/false, nullptr, Value());
}

ArrayRef<Value> KernelEmitter::pagesOfBlock(Value kvBlock) {
  auto [it, inserted] = blockPages->try_emplace(kvBlock);
  if (!inserted)
    return it->second;
  auto globalPtr = LLVM::LLVMPointerType::get(b.getContext(), 1);
  int64_t pageSize = tiled.paged().getPageSize(), boxRows = tiled.kvBoxRows();
  Value row = toI32(mul(kvBlock, cIdx(tiled.blockN())));
  Value lastSlot = arith::SubIOp::create(b, loc, pagesPerSeq, c32(1));
  // The block table's entries of the parts' tokens: all loads first, so they
  // are in flight together. An entry is read only for a token the sequence
  // has (the others may hold anything); the slot is clamped into the row,
  // and -1, outside the pool, is what TMA reads as zeros for the others.
  for (int64_t part = 0; part < tiled.blockN() / boxRows; ++part) {
    Value token = add(row, c32(part * boxRows));
    Value slot = arith::MinUIOp::create(
        b, loc, arith::DivUIOp::create(b, loc, token, c32(pageSize)), lastSlot);
    Value index = i64Of(add(mul(batch, pagesPerSeq), slot));
    Value ptr = LLVM::GEPOp::create(b, loc, globalPtr, i32(), blockTable,
                                    ValueRange{index});
    Value entry = LLVM::LoadOp::create(b, loc, i32(), ptr, 4);
    Value cached =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, token, keys);
    it->second.push_back(
        arith::SelectOp::create(b, loc, cached, entry, c32(-1)));
  }
  return it->second;
}

void KernelEmitter::loadPagedTile(Value tensorMap, SwizzledAtoms atoms,
                                  int64_t dstOffset, Value dstDynamicOffset,
                                  int64_t cols, Value kvBlock, Value bar) {
  ArrayRef<Value> pages = pagesOfBlock(kvBlock);
  expectBytes(bar, atoms.tileBytes(tiled.blockN(), cols));
  int64_t pageSize = tiled.paged().getPageSize(), boxRows = tiled.kvBoxRows();
  Value row = toI32(mul(kvBlock, cIdx(tiled.blockN())));
  for (auto [part, page] : llvm::enumerate(pages)) {
    // The part's first row in its page (0 where pages are block parts).
    Value inPage = arith::RemUIOp::create(
        b, loc, add(row, c32(int64_t(part) * boxRows)), c32(pageSize));
    for (int64_t atom = 0; atom < atoms.count(cols); ++atom)
      tmaLoad(tensorMap,
              smemPtr(dstOffset + atom * atoms.atomBytes(tiled.blockN()) +
                          atoms.atomBytes(int64_t(part) * boxRows),
                      dstDynamicOffset),
              {c32(atom * atoms.columns()), inPage, kvHead, page}, bar);
  }
}

void KernelEmitter::issueKvLoad(bool isKey, Value stage, Value kvBlock) {
  Value tensorMap = isKey ? tmKey : tmValue;
  SwizzledAtoms atoms = isKey ? tiled.keyAtoms() : tiled.valueAtoms();
  int64_t stages = isKey ? smem.getKeys() : smem.getValues();
  int64_t columns = isKey ? tiled.headDim() : tiled.valueHeadDim();
  Value bar = isKey ? keyBarrier(stage) : valueBarrier(stage);
  Value offset = mul(
      stage, c32(isKey ? smem.getKeyStageBytes() : smem.getValueStageBytes()));
  if (tiled.paged())
    return loadPagedTile(tensorMap, atoms, stages, offset, columns, kvBlock,
                         bar);
  // A varlen block's rows start at its sequence's first key.
  Value row = toI32(mul(kvBlock, cIdx(tiled.blockN())));
  if (tiled.varlen())
    row =
        add(toI32(index.lower(b, tiled.keyLoad().getVarlen().getBegin())), row);
  loadTile(tensorMap, atoms, stages, offset, tiled.blockN(), columns,
           {row, kvHead, batch}, bar);
}

SmallVector<Value> KernelEmitter::lowerProducerLoad(bool isKey,
                                                    bool waitsForStage,
                                                    Value kvBlock,
                                                    Value rangeBegin) {
  auto [stage, phase] = stageAndPhase(ringIteration(kvBlock, rangeBegin));
  // The first use of a stage waits on the phase before the barrier's
  // first, which counts as complete.
  Value parity = arith::XOrIOp::create(b, loc, phase, c32(1));
  // With one empty barrier per stage (K and V released together) the
  // stage's first load waits for it; with two, each load for its own.
  if (smem.releasesKeysEarly())
    waitBarrier(isKey ? keyEmptyBarrier(stage) : valueEmptyBarrier(stage),
                parity);
  else if (waitsForStage)
    waitBarrier(valueEmptyBarrier(stage), parity);
  issueKvLoad(isKey, stage, kvBlock);
  return {stage, phase};
}

LogicalResult KernelEmitter::emit(LLVM::LLVMFuncOp func) {
  Block *entry = func.addEntryBlock(b);
  b.setInsertionPointToStart(entry);
  MLIRContext *ctx = b.getContext();
  auto sharedPtr = LLVM::LLVMPointerType::get(ctx, 3);
  smemBase = LLVM::AddressOfOp::create(b, loc, sharedPtr, "attn_smem");
  // The kernel's parameter of `kind` and `name` in its #attn.kernel_abi;
  // null for an optional one the kernel does not take.
  // (`name` is the tensor's or the problem symbol's.)
  auto param = [&](rt::ParamKind kind, auto name) -> Value {
    std::optional<unsigned> i = findKernelParam(abi.getParamList(), kind, name);
    return i ? entry->getArgument(*i) : Value();
  };
  auto required = [&](rt::ParamKind kind, auto name) -> Value {
    Value v = param(kind, name);
    assert(v && "buildKernelAbi gives every kernel this parameter");
    return v;
  };
  tmQuery = required(rt::ParamKind::TensorMap, rt::TensorName::Q);
  tmKey = required(rt::ParamKind::TensorMap, rt::TensorName::K);
  tmValue = required(rt::ParamKind::TensorMap, rt::TensorName::V);
  // A split-KV kernel writes its split's partial O and LSE into the
  // workspace; the combine kernel writes O and the LSE (but at one split:
  // below).
  outputDest = tiled.kvSplit()
                   ? required(rt::ParamKind::Pointer, rt::TensorName::OPartial)
               : tiled.varlen()
                   ? required(rt::ParamKind::Pointer, rt::TensorName::O)
                   : required(rt::ParamKind::TensorMap, rt::TensorName::O);
  lseDest = tiled.kvSplit()
                ? required(rt::ParamKind::Pointer, rt::TensorName::LsePartial)
                : param(rt::ParamKind::Pointer, rt::TensorName::Lse);
  if (tiled.kvSplit() && tiled.kvSplitsArgument())
    splitCount = required(rt::ParamKind::I32, rt::Symbol::KvSplits);
  // A split kernel whose count is chosen at launch writes O and the LSE
  // itself when the count is 1 (TiledAttention::writesOutputAtOneSplit).
  if (tiled.writesOutputAtOneSplit()) {
    singleSplit = eqI(splitCount, c32(1));
    singleSplitOutput = required(tiled.varlen() ? rt::ParamKind::Pointer
                                                : rt::ParamKind::TensorMap,
                                 rt::TensorName::O);
    singleSplitLse = param(rt::ParamKind::Pointer, rt::TensorName::Lse);
  }
  seqQ = required(rt::ParamKind::I32, rt::Symbol::SeqQ);
  // A paged tile's keys are its sequence's cache length (setTile).
  seqK =
      tiled.paged() ? Value() : required(rt::ParamKind::I32, rt::Symbol::SeqK);
  if (tiled.paged()) {
    blockTable = required(rt::ParamKind::Pointer, rt::TensorName::BlockTable);
    pagesPerSeq = required(rt::ParamKind::I32, rt::Symbol::PagesPerSeq);
    index.mapIndexTensor(
        getElementArgument(tiled.paged().getLength()),
        required(rt::ParamKind::Pointer, rt::TensorName::CacheLengths));
  }
  if (tiled.varlen()) {
    queryOffsets = required(rt::ParamKind::Pointer, rt::TensorName::CuSeqlensQ);
    index.mapIndexTensor(tiled.queryOffsets(), queryOffsets);
    index.mapIndexTensor(
        getElementArgument(tiled.keyLoad().getVarlen().getBegin()),
        required(rt::ParamKind::Pointer, rt::TensorName::CuSeqlensK));
  }
  batchCount = param(rt::ParamKind::I32, rt::Symbol::Batch);
  index.setLengths(toIndex(seqQ), seqK ? toIndex(seqK) : Value());
  if (splitCount)
    index.map(tiled.kvSplitsArgument(), toIndex(splitCount));
  // The scale values of the IR, once per thread, from the scale parameters
  // or from constants.
  if (BlockArgument scale = getScaleArgument(tiled.forall))
    index.map(scale, required(rt::ParamKind::F32, rt::Symbol::Scale));
  Value scaleLog2 = getScaleLog2(tiled.forall);
  if (takesScaleLog2(tiled.forall))
    index.map(scaleLog2, required(rt::ParamKind::F32, rt::Symbol::ScaleLog2));
  // The exp2 multiplier and the LSE's scale (LSE = scale * m + log(l)).
  Value lseScale = tiled.finalize().getScale();
  Value loweredScaleLog2 = index.lower(b, scaleLog2);
  Value loweredLseScale = index.lower(b, lseScale);
  // The tile ops' scale operands are these values.
  index.map(scaleLog2, loweredScaleLog2);
  index.map(lseScale, loweredLseScale);
  // The forall's query-block bound, which the tile order's index
  // arithmetic reads (attn-order-tiles): the grid's x size (the grid is the
  // forall's iteration space).
  if (auto bound = dyn_cast<Value>(
          tiled.forall.getMixedUpperBound()[tiled.queryBlockIv()]))
    index.map(bound, toIndex(NVVM::GridDimXOp::create(b, loc, i32())));

  // Q, K and P are K-major (the leading byte offset is unused with a
  // swizzle); V is the MN-major B operand of P V: its atoms of Dv columns
  // are a V tile's atom apart.
  kMajorDescriptor = descriptorBase(tiled.keyAtoms(), 16);
  valueMajorDescriptor = descriptorBase(
      tiled.valueAtoms(), tiled.valueAtoms().atomBytes(tiled.blockN()));
  tid = NVVM::ThreadIdXOp::create(b, loc, i32());
  lane = arith::AndIOp::create(b, loc, tid, c32(31));
  // Consumer warpgroup wg owns rows [64 wg, 64 wg + 64) of the query block;
  // with warp specialization warpgroup 0 is the producer.
  ctaWarpgroup = arith::ShRUIOp::create(b, loc, tid, c32(7));
  warpgroup =
      tiled.warpSpecialize()
          ? arith::SubIOp::create(b, loc, ctaWarpgroup, c32(1)).getResult()
          : ctaWarpgroup;
  warpInGroup = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, tid, c32(5)), c32(3));
  isLeader = eqI(tid, c32(0));
  // Grid x and y are the tile space's first two dims, z the others
  // (getTileSpace). The IR's index arithmetic on the forall's induction
  // variables gives the tile order (attn-order-tiles).
  SmallVector<TileDim> space = getTileSpace(tiled);
  SmallVector<Value> coords = {NVVM::BlockIdXOp::create(b, loc, i32()),
                               NVVM::BlockIdYOp::create(b, loc, i32())};
  SmallVector<Value> zExtents =
      tileExtents(ArrayRef(space).drop_front(2).drop_back());
  llvm::append_range(
      coords, delinearize(NVVM::BlockIdZOp::create(b, loc, i32()), zExtents));
  setTile(space, coords);

  // Barriers: one arrival (the leader's expect_tx) plus the TMA bytes; the
  // empty ones one per consumer warpgroup.
  ifThen(isLeader, [&] {
    NVVM::MBarrierInitOp::create(b, loc, queryBarrier(), c32(1), Value());
    for (int64_t i = 0; i < smem.getStages(); ++i)
      NVVM::MBarrierInitOp::create(b, loc, keyBarrier(c32(i)), c32(1),
                                   Value());
    for (int64_t i = 0; i < smem.getStages(); ++i)
      NVVM::MBarrierInitOp::create(b, loc, valueBarrier(c32(i)), c32(1),
                                   Value());
    for (int64_t i = 0; i < smem.getStages(); ++i) {
      if (smem.releasesKeysEarly())
        NVVM::MBarrierInitOp::create(b, loc, keyEmptyBarrier(c32(i)),
                                     c32(tiled.consumerWarpgroups()), Value());
      NVVM::MBarrierInitOp::create(b, loc, valueEmptyBarrier(c32(i)),
                                   c32(tiled.consumerWarpgroups()), Value());
    }
    // Make the initialized barriers visible to the TMA unit.
    NVVM::FenceMbarrierInitOp::create(b, loc);
    prefetchTensorMaps(entry);
  });
  NVVM::Barrier0Op::create(b, loc);
  tileBounds();
  LogicalResult converted = lowerTile();
  LLVM::ReturnOp::create(b, loc, ValueRange{});
  return converted;
}

/// Brings the kernel's tensor maps (its #attn.kernel_abi's) into the
/// descriptor cache while the barriers are set up, so that the first TMA load
/// and the epilogue's TMA store do not wait for a descriptor fetch (as
/// CUTLASS's producers do).
void KernelEmitter::prefetchTensorMaps(Block *entry) {
  for (auto [i, param] : llvm::enumerate(abi.getParamList()))
    if (cast<KernelParamAttr>(param).getKind() ==
        rt::toString(rt::ParamKind::TensorMap))
      NVVM::PrefetchOp::create(b, loc, /*cacheLevel=*/nullptr,
                               /*evictPriority=*/nullptr, entry->getArgument(i),
                               /*predicate=*/Value(), /*tensormap=*/true,
                               /*uniform=*/false, /*in_param_space=*/true);
}

/// The load of the Q tile that the consumer region of `op` reads (its
/// attn.qk's query; verifyTiledAttention): a load before
/// `op`, which the conversion replaced already but keeps until it ends.
static TileLoad queryLoadOf(WarpSpecializeOp op) {
  TileLoad query;
  op.getConsumer().walk([&](QKOp qk) {
    query = TileLoad::of(qk.getQuery());
    return WalkResult::interrupt();
  });
  assert(query && "verifyTiledAttention");
  return query;
}

std::pair<Operation *, Operation *>
KernelEmitter::lowerWarpSpecialize(WarpSpecializeOp op) {
  auto role = scf::IfOp::create(b, loc, eqI(ctaWarpgroup, c32(0)),
                                /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(role.thenBlock()->getTerminator());
  NVVM::SetMaxRegisterOp::create(b, loc, op.getProducerRegisters(),
                                 NVVM::SetMaxRegisterAction::decrease);
  auto leader = scf::IfOp::create(b, loc, isLeader);
  b.setInsertionPoint(leader.thenBlock()->getTerminator());
  issueQueryLoad(queryLoadOf(op));
  b.setInsertionPoint(role.elseBlock()->getTerminator());
  NVVM::SetMaxRegisterOp::create(b, loc, op.getConsumerRegisters(),
                                 NVVM::SetMaxRegisterAction::increase);
  return {leader.thenBlock()->getTerminator(),
          role.elseBlock()->getTerminator()};
}

Value KernelEmitter::symbolValue(rt::Symbol symbol) {
  switch (symbol) {
  case rt::Symbol::SeqQ:
    return seqQ;
  case rt::Symbol::HeadsQ:
    return c32(tiled.headsQ());
  case rt::Symbol::Batch:
    assert(batchCount && "buildKernelAbi gives the kernel the batch parameter");
    return batchCount;
  case rt::Symbol::KvSplits:
    return splitCount ? splitCount : c32(*tiled.fixedKvSplits());
  case rt::Symbol::One:
    return c32(1);
  default:
    llvm_unreachable("not a symbol of the tile space");
  }
}

SmallVector<Value> KernelEmitter::tileExtents(ArrayRef<TileDim> dims) {
  return llvm::map_to_vector(dims, [&](const TileDim &dim) {
    Value extent = symbolValue(dim.symbol);
    if (dim.ceilDiv > 1)
      extent = arith::DivUIOp::create(b, loc, add(extent, c32(dim.ceilDiv - 1)),
                                      c32(dim.ceilDiv));
    return dim.plus ? add(extent, symbolValue(*dim.plus)) : extent;
  });
}

SmallVector<Value> KernelEmitter::delinearize(Value linear,
                                              ArrayRef<Value> extents) {
  SmallVector<Value> coords;
  for (Value extent : extents) {
    coords.push_back(arith::RemUIOp::create(b, loc, linear, extent));
    linear = arith::DivUIOp::create(b, loc, linear, extent);
  }
  coords.push_back(linear);
  return coords;
}

void KernelEmitter::setTile(ArrayRef<TileDim> space, ArrayRef<Value> coords) {
  // This CTA's tile is the forall's (batch, query head, query block, and a
  // split tile's kv split), its induction variables cast outermost first
  // (the order of the kernels' casts before the tile space, whose PTX the
  // benchmarks timed).
  for (auto [dim, coord] : llvm::reverse(llvm::zip_equal(space, coords)))
    index.map(tiled.forall.getInductionVar(dim.iv), toIndex(coord));
  // Once per tile, not at every use in the loops (a division by block_m).
  if (Value reversed = getReversedQueryBlock(tiled.forall))
    index.map(reversed, index.lower(b, reversed));
  // A varlen tile's sequence and query block, from its linear index. The
  // rows of its sequence are read from the offsets where they are used
  // (sequenceEnd(), the stores' offsets), not held through the kv loops.
  if (tiled.varlen()) {
    SequenceTileOp tile = getSequenceTile(tiled.forall);
    auto [sequence, block] =
        lowerSequenceTile(toI32(index.lower(b, tile.getTile())), queryOffsets);
    index.map(tile.getSequence(), toIndex(sequence));
    index.map(tile.getQueryBlock(), toIndex(block));
  }
  // A paged tile's keys, once per tile: its sequence's cache length.
  if (tiled.paged()) {
    Value length = tiled.paged().getLength();
    Value lowered = index.lower(b, length);
    index.map(length, lowered);
    keys = toI32(lowered);
  }
  // The batch and kv head the IR loads K and V at (GQA: the query head's
  // kv head; a varlen batch's packed batch 0).
  Value keyBatch = tiled.keyLoad().getBatch();
  batch = keyBatch ? toI32(index.lower(b, keyBatch)) : c32(0);
  kvHead = toI32(index.lower(b, tiled.keyLoad().getHead()));
  rowInTile = add(mul(warpgroup, c32(kWarpgroupRows)), fragmentRow());
}

Value KernelEmitter::kvRangeBegin() const { return tiled.kvBegin(); }

void KernelEmitter::tileBounds() {
  // Only a CTA without a producer fills and refills the ring itself, from
  // the range's start up to its end; with one, each role counts from the
  // start it computes after its setmaxnreg (lowerTileOps).
  if (hasProducer())
    return;
  Value end = tiled.kvEnd();
  kvBegin = index.lower(b, kvRangeBegin());
  kvEnd = index.lower(b, end);
}

void KernelEmitter::issueQueryLoad(TileLoad query) {
  // A varlen tile's rows start at its sequence's first in the packed batch
  // (whose batch is 0).
  Value row = toI32(query.getRow());
  if (Value begin = query.getSequenceBegin())
    row = add(toI32(begin), row);
  Value batchIndex = query.getBatch() ? toI32(query.getBatch()) : c32(0);
  auto type =
      cast<RankedTensorType>(query.getOperation()->getResult(0).getType());
  loadTile(tmQuery, cast<SwizzledSharedAttr>(type.getEncoding()).getAtoms(),
           smem.getQuery(), Value(), type.getDimSize(0), type.getDimSize(1),
           queryMapCoordinates(row, toI32(query.getHead()), batchIndex),
           queryBarrier());
}

SmallVector<Value> KernelEmitter::lowerQueryLoad(TileLoad query) {
  // With a producer its leader thread issues the load once its warpgroup
  // gave up its registers (lowerWarpSpecialize): issued before, it held
  // up the consumers' setmaxnreg.inc, which waits for those registers (10 %
  // slower at D = 32 causal, whose tiles are short).
  if (!hasProducer())
    ifThen(isLeader, [&] { issueQueryLoad(query); });
  // Q's one buffer: stage 0, filled once (phase 0).
  return {c32(0), c32(0)};
}

/// The forall's body (what verifyTiledAttention's verifyTileTopLevel admits)
/// and the stores of its terminator, converted in IR order but for the
/// varlen tile scheduler's attn.sequence_tile (setTile's) and the scalar
/// arithmetic, which `index` computes where it is read
/// (lowerScalarOperands).
LogicalResult KernelEmitter::lowerTile() {
  Block *body = tiled.forall.getBody();
  assert(tiled.queryLoad().getOperation()->getBlock() == body &&
         "verifyTiledAttention's verifyTileTopLevel");
  SmallVector<Operation *> ops;
  for (Operation &op : body->without_terminator()) {
    // The scalar arithmetic is computed where it is read (`index`).
    bool computed = isMemoryEffectFree(&op) && op.getNumRegions() == 0 &&
                    !isa<AttnDialect>(op.getDialect()) &&
                    llvm::none_of(op.getResultTypes(), [](Type type) {
                      return isa<TensorType>(type);
                    });
    if (isa<SequenceTileOp>(op) || computed)
      continue;
    ops.push_back(&op);
  }
  for (Operation &store : tiled.forall.getTerminator().getYieldingOps())
    ops.push_back(&store);
  return lowerTileOps(ops);
}

std::pair<Value, KernelEmitter::RowValues>
KernelEmitter::lowerFinalize(FinalizeOp op, Value acc, ValueRange rowSum,
                             ValueRange rowMax, Value scale) {
  // l is each thread's partial sum of its rows: reduce it over the quad
  // first. A row without a visible key (l = 0) gives O = 0, LSE = -inf.
  RowValues l = {quadReduce(rowSum[0], false), quadReduce(rowSum[1], false)};
  RowValues empty, inv, lse;
  for (int r = 0; r < kRowsPerThread; ++r) {
    empty[r] = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, l[r],
                                     cF32(0.0));
    inv[r] =
        arith::SelectOp::create(b, loc, empty[r], cF32(0.0),
                                arith::DivFOp::create(b, loc, cF32(1.0), l[r]));
  }
  // O = acc / l in the output's registers: f32 values (a split's partial
  // O), or element pairs rounded to 16 bits.
  RankedTensorType output = op.getOutput().getType();
  SmallVector<Value> o = unpackTile(acc);
  SmallVector<Value> values;
  for (auto [i, value] : llvm::enumerate(o))
    values.push_back(arith::MulFOp::create(
        b, loc, value, inv[WgmmaAccumulatorAttr::getRegisterRow(i)]));
  if (!output.getElementType().isF32())
    values = packPairs(values, output.getElementType());
  for (int r = 0; r < kRowsPerThread; ++r) {
    Value value = arith::AddFOp::create(
        b, loc, arith::MulFOp::create(b, loc, rowMax[r], scale),
        arith::MulFOp::create(b, loc, log2(l[r]), cF32(M_LN2)));
    lse[r] = arith::SelectOp::create(b, loc, empty[r], negInf(), value);
  }
  return {pack(values, fragments.convertAccumulatorType(output)), lse};
}

KernelEmitter::StoreCoordinates
KernelEmitter::storeCoordinates(tensor::ParallelInsertSliceOp store,
                                bool isOutput) {
  SmallVector<Value> offsets = llvm::map_to_vector(
      store.getMixedOffsets(), [&](OpFoldResult offset) -> Value {
        if (auto value = dyn_cast<Value>(offset))
          return toI32(value);
        return c32(*getConstantIntValue(offset));
      });
  StoreCoordinates at;
  ArrayRef<Value> logical = offsets;
  if (tiled.kvSplit()) {
    at.split = logical.front();
    logical = logical.drop_front();
  }
  // O is in Q's layout; the LSE and a split's partials are [B, H, Nq].
  auto position = [&](unsigned dim) {
    return isOutput && !tiled.kvSplit() ? physicalDim(dim, tiled.layout())
                                        : dim;
  };
  at.batch = logical[position(0)];
  at.head = logical[position(1)];
  at.row = logical[position(2)];
  return at;
}

void KernelEmitter::lowerOutputStore(Value output, const StoreCoordinates &at) {
  SmallVector<Value> values = unpackTile(output);
  // A split tile's O is its f32 partial (verifyTiledAttention's); at one split
  // (chosen at launch) it is the attention's O, which the tile writes in
  // O's element type.
  if (singleSplit)
    ifThenElse(
        singleSplit,
        [&]() -> SmallVector<Value> {
          SmallVector<Value> pairs = packPairs(values, tiled.elementType());
          if (tiled.varlen())
            storeSequenceRows(pairs, singleSplitOutput, at);
          else
            storeOutputTile(pairs, singleSplitOutput, at);
          return {};
        },
        [&]() -> SmallVector<Value> {
          storePartialOutput(values, outputDest, at);
          return {};
        });
  else if (tiled.kvSplit())
    storePartialOutput(values, outputDest, at);
  else if (tiled.varlen())
    storeSequenceRows(values, outputDest, at);
  else
    storeOutputTile(values, outputDest, at);
}

void KernelEmitter::lowerLseStore(ValueRange lse, const StoreCoordinates &at) {
  assert(lseDest && "buildKernelAbi gives a kernel that stores the LSE its "
                    "pointer");
  // At one split the LSE goes to the caller's buffer, or nowhere.
  Value dest = lseDest, lseWritten;
  if (singleSplit && singleSplitLse)
    dest = arith::SelectOp::create(b, loc, singleSplit, singleSplitLse, dest);
  else if (singleSplit)
    lseWritten = arith::XOrIOp::create(
        b, loc, singleSplit, arith::ConstantIntOp::create(b, loc, 1, 1));
  auto globalPtr = LLVM::LLVMPointerType::get(b.getContext(), 1);
  Value isQuadLead =
      eqI(arith::AndIOp::create(
              b, loc, lane, c32(WgmmaAccumulatorAttr::kLanesPerRowPair - 1)),
          c32(0));
  // A varlen tile's rows are its sequence's rows (packed: g a token), which
  // end at the next sequence's first.
  Value end = tiled.varlen() ? sequenceEnd() : seqQ;
  for (int r = 0; r < kRowsPerThread; ++r) {
    Value row = threadRow(at.row, r);
    Value rowOk = arith::AndIOp::create(
        b, loc, isQuadLead,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, row, end));
    if (lseWritten)
      rowOk = arith::AndIOp::create(b, loc, rowOk, lseWritten);
    ifThen(rowOk, [&] {
      // A split's partial LSE keeps the packed rows; the caller's is
      // [B, Hq, Nq] (at one split the row goes to one of the two).
      int64_t group = tiled.packedQueryHeads();
      auto callerIndex = [&] {
        Value kvHeadRow =
            add(mul(i64Of(at.batch), c64(tiled.headsQ())), i64Of(at.head));
        return callerLseIndex(kvHeadRow, seqQ, row, group);
      };
      Value index;
      if (group > 1 && !tiled.kvSplit()) {
        index = callerIndex();
      } else {
        index = rowIndex(at, row);
        if (group > 1 && singleSplit && singleSplitLse)
          index = arith::SelectOp::create(b, loc, singleSplit, callerIndex(),
                                          index);
      }
      Value ptr = LLVM::GEPOp::create(b, loc, globalPtr, f32(), dest,
                                      ValueRange{index});
      LLVM::StoreOp::create(b, loc, lse[r], ptr, /*alignment=*/4);
    });
  }
}

/// attn.launch_dependents: the kernel's programmatic dependents (a split
/// tile's combine kernel) may launch once every CTA executed it; they wait
/// for the whole grid before they read its outputs.
void KernelEmitter::lowerLaunchDependents() {
  NVVM::GriddepcontrolOp::create(b, loc,
                                 NVVM::GridDepActionKind::launch_dependents);
}

Value KernelEmitter::sequenceEnd() {
  return toI32(index.lower(b, tiled.varlen().getEnd()));
}

Value KernelEmitter::rowIndex(const StoreCoordinates &at, Value row) {
  Value batchRow = i64Of(at.batch);
  // The workspace's batches are the launch's; a varlen batch's sequences
  // share its one batch of packed rows.
  if (at.split)
    batchRow = add(tiled.varlen() ? i64Of(at.split)
                                  : mul(i64Of(at.split), i64Of(batchCount)),
                   batchRow);
  return add(
      mul(add(mul(batchRow, c64(tiled.headsQ())), i64Of(at.head)), i64Of(seqQ)),
      i64Of(row));
}

/// Writes this thread's rows of O into its split's part of the f32 partial
/// O [S, B, H, Sq, Dv] (rows below Nq; a varlen tile's below its
/// sequence's end, where the next sequence's tiles write theirs): each
/// value pair of a row is two adjacent columns, one 8-byte store.
void KernelEmitter::storePartialOutput(ArrayRef<Value> o, Value partial,
                                       const StoreCoordinates &at) {
  auto globalPtr = LLVM::LLVMPointerType::get(b.getContext(), 1);
  Value quadColumn = fragmentColumn(lane);
  Value end = tiled.varlen() ? sequenceEnd() : seqQ;
  for (int r = 0; r < kRowsPerThread; ++r) {
    Value row = threadRow(at.row, r);
    Value rowOk =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, row, end);
    ifThen(rowOk, [&] {
      Value rowStart = mul(rowIndex(at, row), c64(tiled.valueHeadDim()));
      // Registers 4j + 2r and 4j + 2r + 1 hold row r's adjacent columns.
      for (size_t i = 2 * r; i < o.size(); i += 4) {
        Value pair = pairOf(o[i], o[i + 1]);
        Value col = arith::ExtUIOp::create(
            b, loc, i64(),
            add(quadColumn, c32(WgmmaAccumulatorAttr::getRegisterColumn(i))));
        Value ptr = LLVM::GEPOp::create(b, loc, globalPtr, f32(), partial,
                                        ValueRange{add(rowStart, col)});
        LLVM::StoreOp::create(b, loc, pair, ptr, /*alignment=*/8);
      }
    });
  }
}

/// Writes this warpgroup's 64 rows of an accumulator-layout tile, given as
/// packed element pairs (pair k holds values 2k and 2k+1), into the buffer
/// at `bufferOffset` in the 128-byte swizzled layout `atoms` of a TMA box /
/// wgmma operand: 64-column atoms `bufferRows` rows apart.
void KernelEmitter::storeRowsSwizzled(ArrayRef<Value> pairs,
                                      SwizzledAtoms atoms, int64_t bufferOffset,
                                      int64_t bufferRows) {
  assert(atoms.swizzle == kSm90aSharedTileSwizzle &&
         "a 128-byte swizzled buffer (swizzledChunk)");
  Value tileRowBase = mul(warpgroup, c32(kWarpgroupRows));
  Value localRow = fragmentRow();
  Value quadColumn = fragmentColumn(lane);
  for (int r = 0; r < kRowsPerThread; ++r) {
    Value row =
        add(tileRowBase,
            add(localRow, c32(WgmmaAccumulatorAttr::kRowPairDistance * r)));
    Value rowBytes = mul(row, c32(atoms.swizzle));
    Value phase = swizzlePhase(row);
    for (size_t i = 2 * r; i < 2 * pairs.size(); i += 4) {
      int64_t colBase = WgmmaAccumulatorAttr::getRegisterColumn(i);
      int64_t atom = colBase / atoms.columns();
      int64_t chunk = (colBase % atoms.columns()) *
                      SwizzledAtoms::kElementBytes / SwizzledAtoms::kChunkBytes;
      Value swizzled = mul(swizzledChunk(c32(chunk), phase),
                           c32(SwizzledAtoms::kChunkBytes));
      Value offset = add(add(rowBytes, swizzled), mul(quadColumn, c32(2)));
      Value ptr =
          smemPtr(bufferOffset + atom * atoms.atomBytes(bufferRows), offset);
      LLVM::StoreOp::create(b, loc, pairs[i / 2], ptr, /*alignment=*/4);
    }
  }
}

/// Makes this warpgroup's generic-proxy writes to shared memory visible to
/// the async proxy (wgmma, TMA) and waits until all of its threads made them
/// (the warpgroup's named barrier).
void KernelEmitter::publishWarpgroupWrites() {
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
  NVVM::BarrierOp::create(b, loc, Type(), warpgroupBarrier(),
                          c32(kWarpgroupThreads), nullptr, Value());
}

/// Writes this warpgroup's 64 x Dv output rows (element pairs) into its
/// rows of the output buffer (over Q: only this warpgroup read those rows),
/// then one thread stores them with TMA.
void KernelEmitter::storeOutputTile(ArrayRef<Value> pairs, Value outputMap,
                                    const StoreCoordinates &at) {
  // O is staged in #attn.shared_memory's output buffer, in Q's layout.
  SwizzledAtoms atoms = tiled.queryAtoms();
  storeRowsSwizzled(pairs, atoms, smem.getOutput(), tiled.blockM());
  Value tileRowBase = mul(warpgroup, c32(kWarpgroupRows));
  // The TMA store reads O through the async proxy.
  publishWarpgroupWrites();
  Value wgLeader = eqI(arith::AndIOp::create(b, loc, tid, c32(127)), c32(0));
  ifThen(wgLeader, [&] {
    Value rowInTile = mul(warpgroup, c32(atoms.atomBytes(kWarpgroupRows)));
    // TMA clips the last box at Dv.
    for (int64_t atom = 0; atom < atoms.count(tiled.valueHeadDim()); ++atom) {
      Value src = smemPtr(
          smem.getOutput() + atom * atoms.atomBytes(tiled.blockM()), rowInTile);
      SmallVector<Value> coords = {c32(atom * atoms.columns())};
      llvm::append_range(coords, queryMapCoordinates(add(at.row, tileRowBase),
                                                     at.head, at.batch));
      NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(
          b, loc, outputMap, src, coords, Value(),
          NVVM::TMAStoreModeAttr::get(b.getContext(), NVVM::TMAStoreMode::TILE),
          Value());
    }
    NVVM::CpAsyncBulkCommitGroupOp::create(b, loc);
    // Shared memory must outlive the reads of the store.
    NVVM::CpAsyncBulkWaitGroupOp::create(b, loc, b.getI32IntegerAttr(0),
                                         b.getUnitAttr());
  });
}

LLVM::LLVMFuncOp mlir::attn::hopper::declareKernel(OpBuilder &b, Location loc,
                                                   StringRef name,
                                                   ArrayRef<Attribute> params,
                                                   int64_t threads) {
  MLIRContext *ctx = b.getContext();
  // The attribute verifiers checked every kind against the runtime's.
  auto paramType = [&](KernelParamAttr param) -> Type {
    switch (*rt::parseParamKind(std::string_view(param.getKind()))) {
    case rt::ParamKind::TensorMap:
      return LLVM::LLVMPointerType::get(ctx);
    case rt::ParamKind::Pointer:
      return LLVM::LLVMPointerType::get(ctx, 1);
    case rt::ParamKind::I32:
      return b.getI32Type();
    case rt::ParamKind::F32:
      return b.getF32Type();
    }
    llvm_unreachable("every parameter kind has a type");
  };
  SmallVector<Type> types = llvm::map_to_vector(
      params, [&](Attribute a) { return paramType(cast<KernelParamAttr>(a)); });
  auto func = LLVM::LLVMFuncOp::create(
      b, loc, name,
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), types));
  func->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(), b.getUnitAttr());
  func->setAttr(NVVM::NVVMDialect::getReqntidAttrName(),
                b.getDenseI32ArrayAttr({int32_t(threads), 1, 1}));
  // Tensor maps by value (CUTLASS's __grid_constant__ const CUtensorMap).
  for (auto [i, attr] : llvm::enumerate(params)) {
    if (cast<KernelParamAttr>(attr).getKind() !=
        rt::toString(rt::ParamKind::TensorMap))
      continue;
    func.setArgAttr(
        i, LLVM::LLVMDialect::getByValAttrName(),
        TypeAttr::get(LLVM::LLVMArrayType::get(b.getI8Type(), 128)));
    func.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                    b.getI64IntegerAttr(64));
    func.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(),
                    b.getUnitAttr());
  }
  return func;
}

LLVM::LLVMFuncOp
mlir::attn::buildHopperAttentionKernel(OpBuilder &b, Location loc,
                                       gpu::GPUModuleOp module, StringRef name,
                                       const TiledAttention &tiled) {
  MLIRContext *ctx = b.getContext();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  // Dynamic shared memory: a public zero-size 1024-aligned global becomes
  // `.extern .shared .align 1024`; gpu.dynamic_shared_memory would overlap
  // static shared memory (see docs/RationaleAttn.md).
  if (!module.lookupSymbol("attn_smem"))
    LLVM::GlobalOp::create(b, loc, LLVM::LLVMArrayType::get(b.getI8Type(), 0),
                           /*isConstant=*/false, LLVM::Linkage::External,
                           "attn_smem", Attribute(), /*alignment=*/1024,
                           /*addrSpace=*/3);

  // A split-KV attention's second kernel (attn.combine_splits), which the
  // ABI names.
  SplitKvAttr splitKv;
  if (tiled.kvSplit())
    splitKv = hopper::lowerCombineSplits(
        b, loc, module, tiled.combineShape(),
        {combineKernelName(name),
         /*splits=*/tiled.fixedKvSplits().value_or(0),
         /*kvBlock=*/tiled.blockN(),
         /*programmatic=*/tiled.programmaticCombineLaunch()});
  // The signature is the ABI's parameter list.
  KernelAbiAttr abi = buildKernelAbi(ctx, tiled, splitKv);
  auto func = declareKernel(b, loc, name, abi.getParamList(), abi.getThreads());
  func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                b.getI32IntegerAttr(1));
  func->setAttr(AttnDialect::getKernelAbiAttrName(), abi);
  if (failed(KernelEmitter(b, loc, tiled, abi).emit(func)))
    return {};
  return func;
}
