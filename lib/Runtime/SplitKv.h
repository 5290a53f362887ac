//===- SplitKv.h - split-KV launch arithmetic -------------------*- C++ -*-===//
//
// What the runtime decides for a split-KV (flash-decoding) artifact at each
// launch, kept free of the driver so that tests can call it directly: the
// split count (the split heuristic, docs/Runtime.md), the ATTNC_KV_SPLITS
// override and the workspace layout.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_LIB_RUNTIME_SPLITKV_H
#define ATTNC_LIB_RUNTIME_SPLITKV_H

#include <cstdint>
#include <string>

namespace attnc::rt {

/// The most splits the heuristic chooses: beyond it, the combine's reads and
/// the workspace's traffic outgrow what a fuller machine gains.
inline constexpr int64_t kMaxKvSplits = 128;

/// The split count is at most splitBalance(tiles) * sqrt(kvBlocks). A
/// split's CTA streams its kv blocks (time ~ a * kvBlocks / s) and the
/// combine weighs every split of a row (time ~ b * s): their sum is least
/// at s = sqrt((a / b) kvBlocks). Forced counts on the H200 (bench/HISTORY.md,
/// with the combine before 8c484fc) fit 4 sqrt(kvBlocks). With the
/// combine that spreads a row of more than 16 splits over four warps, forced
/// counts for one to three tiles of 32 packed MQA rows (on an H100)
/// found the best at 32, 64, 64-128, 128 and 128 splits for 32, 64, 128, 256
/// and 512 kv blocks: 8 sqrt(kvBlocks) reaches each (4 took half, 8-18 %
/// slower), and the same held at 4 tiles (32 splits at 4k keys,
/// 7.1 us against 8.2 at the 16 of 4 sqrt(32)). Grids of a few tiles take
/// the larger bound; larger grids keep the smaller: at 8 tiles and 33
/// blocks (GQA 32:8, B = 1, 4224 keys) its 11 splits took 9.3 us, the 33
/// that 8 sqrt(33) allows 11.3.
inline constexpr float kSplitBalance = 4.0f;
inline constexpr float kFewTileSplitBalance = 8.0f;
inline constexpr int64_t kFewTiles = 4;
inline constexpr float splitBalance(int64_t tiles) {
  return tiles <= kFewTiles ? kFewTileSplitBalance : kSplitBalance;
}

/// The share of the best wave efficiency the chosen split count must reach.
/// FlashAttention's heuristic takes 85%; a decode step is memory-bound, so
/// an idle SM is bandwidth lost, while a split costs little (B = 1,
/// Hkv = 8, Nk = 32k measured bound by the 112 of 132 SMs that 85% gives,
/// 14 splits).
inline constexpr float kSplitEfficiencyShare = 0.95f;

/// The split count for an attention kernel of `tiles` blocks (its grid with
/// one split) over `kvBlocks` kv blocks on `numSms` SMs: 1 when the grid
/// already fills 80% of the SMs or there is one kv block; otherwise the
/// smallest count whose wave efficiency reaches kSplitEfficiencyShare of the
/// best, among counts up to min(numSms, kvBlocks, kMaxKvSplits,
/// splitBalance(tiles) * sqrt(kvBlocks)) that change the blocks per split
/// (after FlashAttention's num_splits_heuristic).
int64_t chooseKvSplits(int64_t tiles, int64_t kvBlocks, int64_t numSms);

/// The most keys a launch runs unsplit whatever its grid: splitting so few
/// saves less than the combine costs. Measured on decode steps (B = 1, GQA
/// 32:8, D = 128, an 8-tile grid) from CUDA graphs on an H100
/// (bench/HISTORY.md, run 144): at 128 keys the unsplit step was 1.3x the
/// one split over two 64-key blocks; at 256 they tied without a mask (four
/// 64-key blocks or two of 128 keys) and with a causal mask the unsplit
/// kernel of 128-key blocks was 1.15x; at 512 four splits of 128-key blocks
/// were 1.3x the unsplit kernel. MQA, D = 64 and D = 256 were not measured this
/// short. (FlashAttention never splits four kv blocks or fewer: 512-704 keys at
/// its D = 128 blocks.)
inline constexpr int64_t kMaxUnsplitKeys = 256;

/// The split count of a launch over `seqK` keys in kv blocks of `kvBlock`
/// keys: 1 up to kMaxUnsplitKeys keys, else chooseKvSplits's.
int64_t chooseLaunchKvSplits(int64_t tiles, int64_t seqK, int64_t kvBlock,
                             int64_t numSms);

/// The environment variable that forces the split count of artifacts that
/// choose it at launch (tests, tools).
inline constexpr const char *kKvSplitsVariable = "ATTNC_KV_SPLITS";

/// Reads ATTNC_KV_SPLITS: 0 when unset or empty, else the count (1 ..
/// INT32_MAX: it is an i32 kernel parameter). On a bad value returns false
/// and sets `error` to a message naming the variable and the value.
bool kvSplitsOverride(int64_t &out, std::string &error);

/// The workspace of one split-KV launch, one allocation: o_partial, f32
/// [splits, batch, heads, seqQ, headDimV] contiguous at offset 0, then
/// lse_partial, f32 [splits, batch, heads, seqQ] contiguous at the next
/// multiple of kWorkspaceAlignment.
struct SplitWorkspace {
  uint64_t lsePartialOffset = 0;
  uint64_t bytes = 0;
};

/// The alignment of each workspace tensor: that of a fresh allocation, so a
/// kernel may use the widest loads on either.
inline constexpr uint64_t kWorkspaceAlignment = 256;

/// Lays out the workspace for the kernel's view of the problem (batch, heads
/// and seqQ as the symbols batch, heads_q and seq_q give them). Returns false
/// when the byte count does not fit in 64 bits.
bool splitWorkspace(int64_t splits, int64_t batch, int64_t heads, int64_t seqQ,
                    int64_t headDimV, SplitWorkspace &out);

} // namespace attnc::rt

#endif // ATTNC_LIB_RUNTIME_SPLITKV_H
