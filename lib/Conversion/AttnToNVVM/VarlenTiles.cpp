//===- VarlenTiles.cpp - the varlen kernel's tile scheduler and O stores --===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A variable-length batch packs its sequences without padding. Its grid
// holds ceil(total_q / block_m) + B tiles a head, and attn.sequence_tile
// maps each to the sequence and query block it is: every warp scans the
// sequences' block counts 32 at a time (a shuffle prefix sum over
// cu_seqlens_q, FlashAttention-3's varlen scheduler does the same) until it
// reaches the chunk holding the tile. O leaves through the output buffer as in
// the dense kernel, but with 16-byte stores that stop at the sequence's last
// row: a TMA box would write on into the next sequence's rows.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::hopper;

std::pair<Value, Value> KernelEmitter::lowerSequenceTile(Value tile,
                                                         Value offsets) {
  auto globalPtr = LLVM::LLVMPointerType::get(b.getContext(), 1);
  int64_t blockM = getSequenceTile(tiled.forall).getBlockM();
  Value lastSequence = arith::SubIOp::create(b, loc, batchCount, c32(1));
  auto shuffle = [&](NVVM::ShflKind kind, Value x, Value lanes, int clamp) {
    return NVVM::ShflOp::create(b, loc, i32(), c32(-1), x, lanes, c32(clamp),
                                kind, UnitAttr())
        .getResult();
  };
  auto offsetAt = [&](Value sequence) {
    Value ptr = LLVM::GEPOp::create(b, loc, globalPtr, i32(), offsets,
                                    ValueRange{i64Of(sequence)});
    return LLVM::LoadOp::create(b, loc, i32(), ptr, 4).getResult();
  };
  // One chunk of 32 sequences from `base`, lane i holding sequence base + i:
  // its blocks (of block_m offsets: tokens, g rows each where the kernel
  // packs query heads) and the inclusive prefix sum of the chunk's blocks.
  auto scanChunk = [&](Value base) -> std::pair<Value, Value> {
    Value sequence = add(base, lane);
    Value inBatch = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                          sequence, batchCount);
    Value safe = arith::MinUIOp::create(b, loc, sequence, lastSequence);
    Value length = arith::SubIOp::create(b, loc, offsetAt(add(safe, c32(1))),
                                         offsetAt(safe));
    length = arith::MaxSIOp::create(b, loc, length, c32(0));
    Value blocks = arith::DivUIOp::create(b, loc, add(length, c32(blockM - 1)),
                                          c32(blockM));
    blocks = arith::SelectOp::create(b, loc, inBatch, blocks, c32(0));
    Value prefix = blocks;
    for (int offset = 1; offset < 32; offset *= 2) {
      Value below = shuffle(NVVM::ShflKind::up, prefix, c32(offset), 0);
      Value hasBelow = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                             lane, c32(offset));
      prefix = add(prefix,
                   arith::SelectOp::create(b, loc, hasBelow, below, c32(0)));
    }
    return {blocks, prefix};
  };

  // Walk the chunks while the tile lies past the current one and another
  // follows; carried: the chunk's first sequence and first tile.
  SmallVector<Type> carriedTypes(2, i32());
  SmallVector<Type> resultTypes(4, i32());
  auto walk = scf::WhileOp::create(b, loc, resultTypes,
                                   ValueRange{c32(0), c32(0)});
  {
    OpBuilder::InsertionGuard guard(b);
    Block *before =
        b.createBlock(&walk.getBefore(), {}, carriedTypes, {loc, loc});
    Value base = before->getArgument(0), first = before->getArgument(1);
    auto [blocks, prefix] = scanChunk(base);
    Value chunkEnd = add(first, shuffle(NVVM::ShflKind::idx, prefix, c32(31),
                                        0x1f));
    Value past = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, tile,
                                       chunkEnd);
    Value more = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                       add(base, c32(32)), batchCount);
    scf::ConditionOp::create(b, loc, arith::AndIOp::create(b, loc, past, more),
                             ValueRange{base, first, blocks, prefix});
    Block *after =
        b.createBlock(&walk.getAfter(), {}, resultTypes, {loc, loc, loc, loc});
    Value nextFirst =
        add(after->getArgument(1),
            shuffle(NVVM::ShflKind::idx, after->getArgument(3), c32(31), 0x1f));
    scf::YieldOp::create(
        b, loc, ValueRange{add(after->getArgument(0), c32(32)), nextFirst});
  }
  Value base = walk.getResult(0), first = walk.getResult(1),
        blocks = walk.getResult(2), prefix = walk.getResult(3);
  // The tile's sequence: the first lane whose prefix passes the tile, or
  // the batch's last sequence for a tile past every block.
  Value local = arith::SubIOp::create(b, loc, tile, first);
  Value passes =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, local, prefix);
  Value ballot = NVVM::VoteSyncOp::create(
      b, loc, i32(), c32(-1), passes,
      NVVM::VoteSyncKindAttr::get(b.getContext(), NVVM::VoteSyncKind::ballot));
  Value lastLane = arith::MinUIOp::create(
      b, loc, arith::SubIOp::create(b, loc, lastSequence, base), c32(31));
  Value firstPassing =
      LLVM::CountTrailingZerosOp::create(b, loc, i32(), ballot, false);
  Value found = arith::SelectOp::create(b, loc, eqI(ballot, c32(0)), lastLane,
                                        firstPassing);
  Value before = shuffle(NVVM::ShflKind::idx,
                         arith::SubIOp::create(b, loc, prefix, blocks), found,
                         0x1f);
  Value sequence = add(base, found);
  // A tile past every block is the last sequence's block one past its
  // length (not further: its row must fit in 32 bits however many tiles
  // follow).
  Value sequenceBlocks = shuffle(NVVM::ShflKind::idx, blocks, found, 0x1f);
  Value block = arith::MinUIOp::create(
      b, loc, arith::SubIOp::create(b, loc, local, before), sequenceBlocks);
  return {sequence, block};
}

void KernelEmitter::storeSequenceRows(ArrayRef<Value> pairs, Value output,
                                      const StoreCoordinates &at) {
  // O is staged in #attn.shared_memory's output buffer, in Q's layout
  // (128-byte swizzled atoms, as storeRowsSwizzled writes them).
  SwizzledAtoms atoms = tiled.queryAtoms();
  storeRowsSwizzled(pairs, atoms, smem.getOutput(), tiled.blockM());
  // The warpgroup's threads read each other's rows back.
  NVVM::BarrierOp::create(b, loc, Type(), warpgroupBarrier(),
                          c32(kWarpgroupThreads), nullptr, Value());
  auto globalPtr = LLVM::LLVMPointerType::get(b.getContext(), 1);
  auto chunkType = VectorType::get({4}, i32());
  constexpr int64_t kChunkBytes = SwizzledAtoms::kChunkBytes;
  int64_t elementBytes = tiled.elementType().getIntOrFloatBitWidth() / 8;
  int64_t rowChunks = tiled.valueHeadDim() * elementBytes / kChunkBytes;
  int64_t atomChunks = atoms.chunks();
  int64_t chunks = kWarpgroupRows * rowChunks;
  Value end = sequenceEnd();
  Value threadInGroup = arith::AndIOp::create(b, loc, tid, c32(127));
  Value tileRowBase = mul(warpgroup, c32(kWarpgroupRows));
  int64_t group = tiled.packedQueryHeads();
  for (int64_t first = 0; first < chunks; first += kWarpgroupThreads) {
    Value chunk = add(threadInGroup, c32(first));
    Value row = arith::DivUIOp::create(b, loc, chunk, c32(rowChunks));
    Value column = arith::RemUIOp::create(b, loc, chunk, c32(rowChunks));
    Value tileRow = add(tileRowBase, row);
    Value packedRow = add(at.row, tileRow);
    Value inSequence = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                             packedRow, end);
    if (first + kWarpgroupThreads > chunks)
      inSequence = arith::AndIOp::create(
          b, loc, inSequence,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, chunk,
                                c32(chunks)));
    ifThen(inSequence, [&] {
      Value atom = arith::DivUIOp::create(b, loc, column, c32(atomChunks));
      Value inAtom = arith::RemUIOp::create(b, loc, column, c32(atomChunks));
      Value swizzled = swizzledChunk(inAtom, swizzlePhase(tileRow));
      Value offset = add(add(mul(atom, c32(atoms.atomBytes(tiled.blockM()))),
                             mul(tileRow, c32(atoms.swizzle))),
                         mul(swizzled, c32(kChunkBytes)));
      Value value = LLVM::LoadOp::create(
          b, loc, chunkType, smemPtr(smem.getOutput(), offset), kChunkBytes);
      // The row of the caller's O, [1, H, total, Dv] or [1, total, H, Dv]:
      // packed row n * g + j is token n of query head head * g + j.
      Value token = packedToken(packedRow, group);
      auto queryHead = [&] {
        return packedQueryHead(i64Of(at.head), packedRow, group);
      };
      Value rowIndex;
      if (tiled.layout() == Layout::BSHD) {
        rowIndex =
            add(mul(i64Of(token), c64(tiled.headsQ() * group)), queryHead());
      } else {
        Value head = queryHead();
        rowIndex =
            add(mul(head, i64Of(packedToken(seqQ, group))), i64Of(token));
      }
      Value byte = add(mul(rowIndex, c64(tiled.valueHeadDim() * elementBytes)),
                       mul(i64Of(column), c64(kChunkBytes)));
      Value ptr = LLVM::GEPOp::create(b, loc, globalPtr, b.getI8Type(), output,
                                      ValueRange{byte});
      LLVM::StoreOp::create(b, loc, value, ptr, kChunkBytes);
    });
  }
}
