//===- TileConfig.cpp - per-target attention tile table -------------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "attnc/Transforms/TileConfig.h"

#include "attnc/Dialect/Attn/AttnOps.h"

#include <algorithm>

using namespace mlir::attn;

namespace {

/// The tile tables (getTileTargets names them).
enum class TileTable { Sm90a, Sm90aFa3, Generic };

struct NamedTileTable {
  TileTable table;
  llvm::StringLiteral name;
};
constexpr NamedTileTable kTileTables[] = {{TileTable::Sm90a, "sm_90a"},
                                          {TileTable::Sm90aFa3, "sm_90a-fa3"},
                                          {TileTable::Generic, "generic"}};

/// The table `target` names. The passes reject other names
/// (verifyTileTarget); a caller of these functions that passes one gets the
/// generic table.
TileTable tableOf(llvm::StringRef target) {
  for (const NamedTileTable &entry : kTileTables)
    if (entry.name == target)
      return entry.table;
  return TileTable::Generic;
}

/// Whether `target`'s table is one of the two measured for sm_90a kernels.
bool isHopperTable(llvm::StringRef target) {
  return tableOf(target) != TileTable::Generic;
}

} // namespace

bool mlir::attn::getDefaultWarpSpecialization(int64_t headDim,
                                              llvm::StringRef target) {
  (void)headDim; // with ping-pong every head dim measured faster with it
  return isHopperTable(target);
}

llvm::cl::ValuesClass mlir::attn::tableChoiceValues(llvm::StringRef onMeans) {
  return llvm::cl::values(clEnumValN(TableChoice::Off, "off", "never"),
                          clEnumValN(TableChoice::Off, "false", "never"),
                          clEnumValN(TableChoice::On, "on", onMeans),
                          clEnumValN(TableChoice::On, "true", onMeans),
                          clEnumValN(TableChoice::Auto, "auto",
                                     "where the target's table says so"));
}

bool mlir::attn::getDefaultDynamicRowSplit(int64_t headDim,
                                           llvm::StringRef target) {
  // A prefill launch of such a kernel runs one split, where it writes O
  // itself; the split form then costs D = 64 causal 3-6 % (its three
  // 128-register consumer warpgroups; two H100 runs agree) and D = 128 and
  // 256, the head dims measured above 64, 0-1.4 % (runs 135, 137, 141;
  // run 143 had one shape, D = 128 4k, at 3.6 %, within that run's scatter
  // of one shape's own timings).
  // Its decode launches at small batch fill the SMs instead of B x Hkv of
  // them: 2.59 TB/s instead of 0.39 at B = 1, 32k (run 139).
  return isHopperTable(target) && headDim > 64;
}

bool mlir::attn::getDefaultPingPong(int64_t headDim, llvm::StringRef target) {
  // Timed as the peers are, with the fma softmax and hoisted descriptors,
  // turn-taking costs 3-6 % at D = 256 (a 128 x 80 block's
  // softmax is short next to its D = 256 GEMMs) and is neutral at D = 128.
  return tableOf(target) != TileTable::Sm90a || headDim <= 128;
}

int64_t mlir::attn::getDefaultSoftwareExp2Period(int64_t headDim,
                                                 bool fixedMaxSoftcap,
                                                 llvm::StringRef target) {
  // A soft-capped score takes two MUFU ops (tanh.approx, ex2.approx:
  // 16/clk/SM each), as many cycles per score as the D = 128 GEMMs and
  // twice those at D = 64. With the running max its other instructions
  // filled the issue slots too, and emulating exponentials on the FMA pipe
  // (11 instructions for one MUFU op) was slower at periods 2 and 4. With
  // the fixed max (attn-softcap-fixed-max: no max, no rescale) a score
  // issues 5.5 instructions, and an unmasked step's software exp2 takes 8
  // (buildBoundedSoftwareExp2). Measured on an H100 (the kernel without
  // softcap's speed over the softcap's, 4k and 16k, causal or not): at
  // D = 64 period 4 1.16-1.29 (every exponential on MUFU: 1.39-1.51;
  // period 2 1.22-1.29, period 3 1.18-1.31); at D = 128 period 3 1.11-1.16,
  // period 4 1.12-1.18, period 2 1.14-1.17. Without softcap one MUFU op
  // per score keeps up with the GEMMs.
  if (tableOf(target) != TileTable::Sm90a || !fixedMaxSoftcap)
    return 0;
  if (headDim <= 64)
    return 4;
  if (headDim <= 128)
    return 3;
  return 0;
}

mlir::attn::SharedMemoryLayout::SharedMemoryLayout(
    TileConfig tile, int64_t headDim, int64_t valueHeadDim,
    SharedTileLayouts layouts, int64_t stages, bool probsInRegisters)
    : stages(stages) {
  keyStageBytes = layouts.key.tileBytes(tile.blockN, headDim);
  valueStageBytes = layouts.value.tileBytes(tile.blockN, valueHeadDim);
  query = 0;
  // O is staged over Q: each consumer warpgroup writes its rows of O after
  // its last S GEMM, over its rows of Q, which no other warpgroup reads. The
  // Q buffer holds either tile.
  output = query;
  outputBytes = layouts.query.tileBytes(tile.blockM, valueHeadDim);
  queryBytes =
      std::max(layouts.query.tileBytes(tile.blockM, headDim), outputBytes);
  keyStages = query + queryBytes;
  valueStages = keyStages + stages * keyStageBytes;
  int64_t barriers = valueStages + stages * valueStageBytes;
  if (!probsInRegisters) {
    probs = barriers;
    probsBytes = layouts.probs.tileBytes(tile.blockM, tile.blockN);
    barriers += *probsBytes;
  }
  // Q, then per stage full K, full V, empty K and empty V mbarriers (the
  // empty-K slot is allocated, and unused, when one arrival releases K and
  // V).
  queryFull = barriers;
  keyFull = queryFull + 8;
  valueFull = keyFull + 8 * stages;
  valueEmpty = valueFull + 16 * stages;
  // With two stages consumers hand K back on its own barrier (after the S
  // wait in the sequential step, at the end of its own step with the
  // overlap) and V after P V: with the overlap V(j) is read a step after
  // K(j), and K(j + 2) loads meanwhile (+2-6 % at D = 256 from 4k tokens
  // on). With three, the producer is far enough ahead and one arrival per
  // stage measured 2-4 % faster.
  keyEmpty = stages == 2 ? valueFull + 8 * stages : valueEmpty;
  total = valueEmpty + 8 * stages;
}

void mlir::attn::SharedMemoryLayout::allocateNamedBarriers(
    int64_t consumerWarpgroups, bool pingPong) {
  int64_t next = 1;
  warpgroupBarriers.clear();
  turnBarriers.clear();
  for (int64_t w = 0; w < consumerWarpgroups; ++w)
    warpgroupBarriers.push_back(next++);
  if (pingPong)
    for (int64_t w = 0; w < consumerWarpgroups; ++w)
      turnBarriers.push_back(next++);
}

ConsumerSchedule
mlir::attn::getDefaultConsumerSchedule(TileConfig tile, int64_t headDim,
                                       int64_t valueHeadDim, bool slidingWindow,
                                       llvm::StringRef target) {
  // With the overlap the V of block j-1 is released a
  // softmax later; with two stages K is released on its own (the kernel's
  // releasesKeysEarly), so they keep up at D = 256 (+2-6 % from 4k tokens
  // on) and match three at D = 128, where a third stage fits and is kept.
  // At D = 64 (three 160-register consumers per CTA: block_m = 192) the
  // overlap spilled while P crossed the loop's back edge in f32; carried in
  // bf16 it does not, but it runs 4-10 % slower on causal tiles and at 1k
  // tokens, so D = 64 keeps the sequential step, and so does
  // a sliding window above D = 128 (its two masked loops next to a
  // 128-register O spilled 92 bytes).
  // While the softmax of block j runs, O, S(j) and P(j-1) (bf16) are live:
  // up to 188 registers per thread assembled without spills (128 x 80 at
  // D = 256: 188; 128 x 160 at D = 128: 184), 128 x 176 (196) spilled 948
  // bytes.
  int64_t overlapRegisters =
      valueHeadDim / 2 + tile.blockN / 2 + tile.blockN / 4;
  if (tableOf(target) != TileTable::Sm90a || headDim <= 64 ||
      tile.blockM > 128 || overlapRegisters > 188 ||
      (slidingWindow && headDim > 128))
    return {2, false};
  int64_t threeStageBytes =
      SharedMemoryLayout(tile, headDim, valueHeadDim,
                         getDefaultSharedTileLayouts(),
                         /*stages=*/3, /*probsInRegisters=*/true)
          .total;
  return {threeStageBytes <= kSm90aMaxSharedMemoryBytes ? 3 : 2, true};
}

RegisterBudget
mlir::attn::getWarpSpecializedRegisterBudget(int64_t consumerWarpgroups,
                                             bool pagedKv) {
  // Each sums to at most 65536 / 128 registers per thread-slot of a 4- (3-,
  // 2-) warpgroup CTA: 24 + 2 * 240 = 504 = 56 + 2 * 224.
  if (consumerWarpgroups == 1)
    return pagedKv ? RegisterBudget{56, 224} : RegisterBudget{40, 232};
  if (consumerWarpgroups == 2)
    return pagedKv ? RegisterBudget{56, 224} : RegisterBudget{24, 240};
  return pagedKv ? RegisterBudget{48, 152} : RegisterBudget{32, 160};
}

namespace {

/// The table's tile for `headDim`, whatever the query rows.
mlir::attn::TileConfig tableTile(int64_t headDim, bool causal,
                                 llvm::StringRef target) {
  if (tableOf(target) == TileTable::Sm90a) {
    // Measured with bench/tune.py on the H200 (bench/RESULTS.md, tunes 4
    // and 5): block_m / 64 consumer warpgroups share each K/V tile. At D = 64
    // three consumers win from 4k tokens on (at 1k, 64 x 128 without a
    // producer warpgroup is 16 % faster). At D = 128, 128 x 160 loses to
    // 128 x 128 at every length; above it FA3's 128 x 80 beats 128 x 64 by
    // 3-14 % from 4k tokens on and ties at 1k.
    if (headDim <= 64)
      return {192, 128};
    if (headDim <= 128)
      return {128, 128};
    return {128, 80};
  }
  if (tableOf(target) == TileTable::Sm90aFa3) {
    // FlashAttention-3's table (hopper/tile_size.h), the goal once the kernel
    // is warp-specialized with 2-3 consumer warpgroups; 176-wide kv tiles
    // only pay off without a causal diagonal.
    if (headDim <= 64)
      return {192, 128};
    if (headDim <= 128)
      return {128, causal ? 128 : 176};
    if (headDim <= 192)
      return {128, 112};
    return {128, 80};
  }
  return {64, 64};
}

} // namespace

TileConfig mlir::attn::getDefaultTileConfig(int64_t headDim, bool causal,
                                            llvm::StringRef target,
                                            std::optional<int64_t> queryRows) {
  TileConfig tile = tableTile(headDim, causal, target);
  // A decode step's few rows (a token's packed query heads) fill one
  // warpgroup's 64 rows: a 128-row tile would issue the wgmma rows of a
  // second, empty warpgroup and hold its registers. 64-row decode tiles
  // were faster in every decode row measured (bench/HISTORY.md), by
  // 2-3 % at D = 128 and up to 21 % at D = 64.
  if (isHopperTable(target) && queryRows && *queryRows > 0) {
    int64_t rows = WgmmaAccumulatorAttr::kRowsPerWarpgroup;
    int64_t warpgroups = (*queryRows + rows - 1) / rows;
    tile.blockM = std::min(tile.blockM, warpgroups * rows);
  }
  return tile;
}

llvm::ArrayRef<llvm::StringLiteral> mlir::attn::getTileTargets() {
  static const llvm::SmallVector<llvm::StringLiteral> names =
      llvm::map_to_vector(
          kTileTables, [](const NamedTileTable &entry) { return entry.name; });
  return names;
}

llvm::LogicalResult mlir::attn::verifyTileTarget(Operation *op,
                                                 llvm::StringRef pass,
                                                 llvm::StringRef target) {
  if (llvm::is_contained(getTileTargets(), target))
    return llvm::success();
  return op->emitError(pass)
         << ": target must be one of " << llvm::join(getTileTargets(), ", ")
         << " (the tile tables; every kernel is sm_90a code), got '" << target
         << "'";
}

llvm::LogicalResult mlir::attn::verifyTileOptions(Operation *op,
                                                  llvm::StringRef pass,
                                                  llvm::StringRef target,
                                                  int64_t blockM,
                                                  int64_t blockN) {
  if (failed(verifyTileTarget(op, pass, target)))
    return llvm::failure();
  for (auto [name, value] :
       {std::pair<StringRef, int64_t>{"block-m", blockM}, {"block-n", blockN}})
    if (value < 0 || value > kMaxTileSize)
      return op->emitError(pass)
             << ": " << name
             << " must be 0 (the target's table) or a tile size of at most "
             << kMaxTileSize << ", got " << value;
  return llvm::success();
}

bool mlir::attn::takesDecodeKvBlocks(int64_t blockM, int64_t headDim,
                                     bool decodeStep, bool pagedKv,
                                     llvm::StringRef target) {
  // A one-warpgroup decode tile streams K and V. At D = 128, blocks of 64
  // keys (16 KB of K a stage, as D = 64's 128-key blocks) beat 128 in every
  // GQA decode row measured, by 1-2 % (bench/HISTORY.md run 131, H100: B = 1
  // at 32k, 8 at 8k, 64 at 4k, causal or not); MQA gained 1-2 % at B = 1
  // and 64 and lost 3 % at B = 8 from CUDA graphs (+1 % from single calls).
  // At D = 64 they lost 3-6 %, at D = 256 they tied. A paged cache's tiles
  // were not measured with them and keep 128 (a block is page parts).
  return tableOf(target) == TileTable::Sm90a && decodeStep && !pagedKv &&
         blockM == WgmmaAccumulatorAttr::kRowsPerWarpgroup && headDim > 64 &&
         headDim <= 128;
}

TileConfig mlir::attn::chooseTileConfig(AttentionOp op, int64_t blockM,
                                        int64_t blockN,
                                        llvm::StringRef target) {
  if (std::optional<ArrayRef<int64_t>> tiles = op.getTileSizes())
    return {(*tiles)[0], (*tiles)[1]};
  std::optional<int64_t> rows = op.getStaticQueryRows();
  TileConfig config = getDefaultTileConfig(
      op.getHeadDim(), op.getMask() != MaskKind::None, target, rows);
  if (blockM > 0)
    config.blockM = blockM;
  if (blockN > 0)
    config.blockN = blockN;
  else if (takesDecodeKvBlocks(config.blockM, op.getHeadDim(), rows.has_value(),
                               op.isPaged(), target))
    config.blockN = kDecodeKvBlock;
  return config;
}
