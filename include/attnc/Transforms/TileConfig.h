//===- TileConfig.h - per-target attention tile table -------------*- C++ -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_TRANSFORMS_TILECONFIG_H
#define ATTNC_TRANSFORMS_TILECONFIG_H

#include "attnc/Dialect/Attn/SwizzledAtoms.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/LogicalResult.h"

#include <cstdint>
#include <optional>

namespace mlir {
class Operation;
} // namespace mlir

namespace mlir::attn {

class AttentionOp;

/// Rows of Q (block_m) and of K/V (block_n) handled per tile step.
struct TileConfig {
  int64_t blockM;
  int64_t blockN;
};

/// Whether the Hopper kernel for `headDim` should get a producer warpgroup
/// (measured per head dim; see bench/RESULTS.md).
bool getDefaultWarpSpecialization(int64_t headDim,
                                  llvm::StringRef target = "sm_90a");

/// Whether two consumer warpgroups should take ping-pong turns for
/// `headDim` on `target` (measured; bench/RESULTS.md has the table's timings).
bool getDefaultPingPong(int64_t headDim, llvm::StringRef target = "sm_90a");

/// Of every how many element pairs of a consumer thread's scores one
/// computes its exp2 on the FMA pipe instead of MUFU.EX2 (attn.exp_diff's
/// software_exp2_period), for `headDim` on `target`, for a soft-capped
/// softmax with a fixed max (attn-softcap-fixed-max: its tanh.approx shares
/// MUFU's 16/clk/SM, and no row max or rescale fills the issue slots) or
/// another; 0: none.
int64_t getDefaultSoftwareExp2Period(int64_t headDim, bool fixedMaxSoftcap,
                                     llvm::StringRef target = "sm_90a");

/// An on/off setting that can also be left to the target's table.
enum class TableChoice { Off, On, Auto };

/// The command-line values of a TableChoice option (off/false, on/true,
/// auto), for the passes' and the pipelines' declarations alike; `onMeans`
/// says what `on` applies to ("every tile").
llvm::cl::ValuesClass tableChoiceValues(llvm::StringRef onMeans);

/// Whether an attention whose query rows are dynamic (one kernel for
/// prefill and decode) takes a kv split count at launch (attn-split-kv's
/// `dynamic-rows=auto`), for `headDim` on `target` (measured: the split
/// form's cost at one split, bench/HISTORY.md runs 135, 137 and 141).
bool getDefaultDynamicRowSplit(int64_t headDim,
                               llvm::StringRef target = "sm_90a");

/// How the consumer warpgroups of a warp-specialized kernel run their kv
/// loop: K/V ring stages and whether the softmax of block j overlaps the
/// P V GEMM of block j-1 (which holds V a block longer: a third stage, or
/// with two the kernel's early K release, keeps the producer ahead).
struct ConsumerSchedule {
  int64_t stages;
  bool overlap;
};
/// The most dynamic shared memory one CTA may use on sm_90a (227 KiB).
inline constexpr int64_t kSm90aMaxSharedMemoryBytes = 232448;

/// How the Q, K and V tiles (and P, when it goes through shared memory) are
/// stored in shared memory: #attn.swizzled_shared's atoms.
struct SharedTileLayouts {
  SwizzledAtoms query, key, value, probs;
};

/// The swizzle of bf16/f16 tiles in shared memory on sm_90a, which
/// attn-assign-layouts records as #attn.swizzled_shared: 128 bytes, the
/// widest pattern (bank-conflict free for wgmma's 8-row core matrices) and
/// the one convert-attn-to-nvvm lowers. A tile whose width is not a
/// multiple of 64 columns is padded to whole atoms (TMA zero-fills the
/// columns past the tensor and clips them on stores).
inline constexpr int64_t kSm90aSharedTileSwizzle = 128;
/// The shared-memory layouts of the sm_90a table: every tile 128-byte
/// swizzled.
inline SharedTileLayouts getDefaultSharedTileLayouts() {
  SwizzledAtoms atoms{kSm90aSharedTileSwizzle};
  return {atoms, atoms, atoms, atoms};
}

/// Byte offsets of the sm_90a kernel's shared-memory buffers (1024-aligned,
/// as the 128-byte swizzle of TMA and wgmma requires) for a bf16/f16 tile:
/// the Q buffer (which is also O's staging buffer, `output`), the K and V
/// stages, P (only when it does not stay in registers), then the mbarriers.
/// attn-allocate-shared-memory records it in the IR (#attn.shared_memory)
/// and the table checks its 3-stage schedule against it, so a schedule the
/// table picks fits.
struct SharedMemoryLayout {
  SharedMemoryLayout(TileConfig tile, int64_t headDim, int64_t valueHeadDim,
                     SharedTileLayouts layouts, int64_t stages,
                     bool probsInRegisters);
  int64_t query = 0, keyStages = 0, valueStages = 0, total = 0;
  int64_t queryBytes = 0;
  /// Where the epilogue stages O (in Q's layout) before it stores it.
  int64_t output = 0, outputBytes = 0;
  /// P of every consumer warpgroup when it does not stay in registers.
  std::optional<int64_t> probs, probsBytes;
  int64_t keyStageBytes = 0, valueStageBytes = 0;
  int64_t stages;
  /// mbarriers: Q full; per stage K full, V full, K empty, V empty (K empty
  /// = V empty when one arrival releases both).
  int64_t queryFull = 0, keyFull = 0, valueFull = 0, keyEmpty = 0,
          valueEmpty = 0;
  /// Named barriers (bar.sync ids; 0 is the whole CTA's): one per consumer
  /// warpgroup for its own 128 threads, and with ping-pong one per consumer
  /// warpgroup that it waits on for its turn.
  llvm::SmallVector<int64_t> warpgroupBarriers, turnBarriers;
  /// Gives ids 1.. to the warpgroup barriers, then to the turn barriers.
  void allocateNamedBarriers(int64_t consumerWarpgroups, bool pingPong);
  static constexpr int64_t kMaxBytes = kSm90aMaxSharedMemoryBytes;
};

/// The measured schedule for a bf16/f16 `tile` with head dims `headDim` (Q,
/// K) and `valueHeadDim` (V) on `target` (measured; bench/HISTORY.md):
/// for D > 64, intra-warpgroup overlap with 3 stages where they fit, else 2;
/// 2 stages without overlap for D <= 64, three consumer warpgroups, tiles
/// whose O, S and carried P exceed the consumers' registers, `slidingWindow`
/// masks above D = 128, and the generic table.
ConsumerSchedule getDefaultConsumerSchedule(TileConfig tile, int64_t headDim,
                                            int64_t valueHeadDim,
                                            bool slidingWindow = false,
                                            llvm::StringRef target = "sm_90a");

/// setmaxnreg budgets of a warp-specialized CTA: the producer warpgroup
/// gives its registers to the consumers, within one SM's 64K registers.
struct RegisterBudget {
  int64_t producer;
  int64_t consumer;
};
/// FA3's 24/240 with two consumer warpgroups; 40/232 with one, 32/160 with
/// three. A producer reading a paged KV cache keeps a kv block's page
/// numbers (block_n / 16 at most) in registers: 56/224, 56/224 with one
/// consumer, 48/152 with three.
RegisterBudget getWarpSpecializedRegisterBudget(int64_t consumerWarpgroups,
                                                bool pagedKv = false);

/// The default tile for a head dim in a target's table (getTileTargets):
/// "sm_90a" (what the current Hopper kernel runs), "sm_90a-fa3"
/// (FlashAttention-3's table), "generic" (64 x 64; also what a name without a
/// table gets here, which the passes reject first). On the sm_90a tables, an
/// attention whose query rows are static (`queryRows`: a decode step, the
/// packed rows after attn-pack-gqa) takes no more 64-row warpgroups than its
/// rows fill.
TileConfig getDefaultTileConfig(int64_t headDim, bool causal,
                                llvm::StringRef target = "sm_90a",
                                std::optional<int64_t> queryRows = {});

/// The kv block of a decode step's one-warpgroup tile where
/// takesDecodeKvBlocks holds.
inline constexpr int64_t kDecodeKvBlock = 64;

/// Whether a tile of `blockM` rows takes kDecodeKvBlock-key blocks instead
/// of the table's: on sm_90a, a decode step's (static query rows) one
/// warpgroup of a dense cache at 64 < D <= 128 (measured faster there).
bool takesDecodeKvBlocks(int64_t blockM, int64_t headDim, bool decodeStep,
                         bool pagedKv, llvm::StringRef target = "sm_90a");

/// The tile of `op`, in order of precedence: its `tile_sizes`, the positive
/// `blockM` / `blockN`, the target's table (getDefaultTileConfig, with the
/// op's query rows where they are static; block_n as takesDecodeKvBlocks
/// says for the block_m chosen). attn-configure-tiles records it
/// on the op; attn-tile tiles by it.
TileConfig chooseTileConfig(AttentionOp op, int64_t blockM, int64_t blockN,
                            llvm::StringRef target);

/// The targets with a tile table: sm_90a (measured on the H200),
/// sm_90a-fa3 (FlashAttention-3's tiles) and generic (64 x 64 tiles, no
/// warp specialization). Every kernel is sm_90a code; the target picks the
/// table only.
llvm::ArrayRef<llvm::StringLiteral> getTileTargets();

/// Checks `target` (one of getTileTargets) and the block-m and block-n
/// options (0: the table's, else a tile size) of the pass `pass`; emits an
/// error at `op` naming the option otherwise.
llvm::LogicalResult verifyTileOptions(Operation *op, llvm::StringRef pass,
                                      llvm::StringRef target, int64_t blockM,
                                      int64_t blockN);
/// Checks that `target` is one of getTileTargets; emits an error at `op`
/// naming the pass `pass` otherwise.
llvm::LogicalResult verifyTileTarget(Operation *op, llvm::StringRef pass,
                                     llvm::StringRef target);

} // namespace mlir::attn

#endif // ATTNC_TRANSFORMS_TILECONFIG_H
