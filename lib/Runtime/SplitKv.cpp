//===- SplitKv.cpp - split-KV launch arithmetic -----------------*- C++ -*-===//
//
// The split heuristic, the ATTNC_KV_SPLITS override and the workspace layout
// of a split-KV launch (SplitKv.h).
//
//===----------------------------------------------------------------------===//

#include "SplitKv.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

using namespace attnc::rt;

int64_t attnc::rt::chooseKvSplits(int64_t tiles, int64_t kvBlocks,
                                  int64_t numSms) {
  // A grid that (nearly) fills the machine gains nothing from splitting but
  // pays for the combine; one kv block has nothing to split.
  if (numSms < 1 || tiles >= 0.8 * double(numSms) || kvBlocks < 2)
    return 1;
  auto balanced = int64_t(splitBalance(tiles) * std::sqrt(double(kvBlocks)));
  int64_t maxSplits = std::min({numSms, kvBlocks, kMaxKvSplits, balanced});
  auto blocksPerSplit = [&](int64_t s) { return (kvBlocks + s - 1) / s; };
  // A count that leaves the blocks per split as they were for one split
  // fewer only adds splits without keys.
  auto eligible = [&](int64_t s) {
    return s == 1 || blocksPerSplit(s) != blocksPerSplit(s - 1);
  };
  // The SMs' busy share: tiles * s blocks are w waves of work, run in
  // ceil(w) waves.
  auto efficiency = [&](int64_t s) {
    float waves = float(tiles * s) / float(numSms);
    return waves / std::ceil(waves);
  };
  float best = 0;
  for (int64_t s = 1; s <= maxSplits; ++s)
    if (eligible(s))
      best = std::max(best, efficiency(s));
  // The fewest splits near the best: each split adds workspace traffic.
  for (int64_t s = 1; s <= maxSplits; ++s)
    if (eligible(s) && efficiency(s) >= kSplitEfficiencyShare * best)
      return s;
  return 1;
}

int64_t attnc::rt::chooseLaunchKvSplits(int64_t tiles, int64_t seqK,
                                        int64_t kvBlock, int64_t numSms) {
  if (seqK <= kMaxUnsplitKeys)
    return 1;
  return chooseKvSplits(tiles, (seqK + kvBlock - 1) / kvBlock, numSms);
}

bool attnc::rt::kvSplitsOverride(int64_t &out, std::string &error) {
  out = 0;
  const char *text = std::getenv(kKvSplitsVariable);
  if (!text || !*text)
    return true;
  errno = 0;
  char *end = nullptr;
  long long value = std::strtoll(text, &end, 10);
  if (errno == ERANGE || end == text || *end || value < 1 ||
      value > INT32_MAX) {
    error = std::string(kKvSplitsVariable) + " is \"" + text +
            "\"; expected a split count in 1.." + std::to_string(INT32_MAX) +
            " (or unset, for the split heuristic's choice)";
    return false;
  }
  out = value;
  return true;
}

namespace {
/// a * b into `out`; false on overflow.
bool multiply(uint64_t a, uint64_t b, uint64_t &out) {
  return !__builtin_mul_overflow(a, b, &out);
}
} // namespace

bool attnc::rt::splitWorkspace(int64_t splits, int64_t batch, int64_t heads,
                               int64_t seqQ, int64_t headDimV,
                               SplitWorkspace &out) {
  const uint64_t f32 = 4, align = kWorkspaceAlignment;
  uint64_t rows = 1, oElements = 0, oBytes = 0, lseBytes = 0;
  for (int64_t n : {splits, batch, heads, seqQ})
    if (n < 1 || !multiply(rows, uint64_t(n), rows))
      return false;
  if (headDimV < 1 || !multiply(rows, uint64_t(headDimV), oElements) ||
      !multiply(oElements, f32, oBytes) || !multiply(rows, f32, lseBytes) ||
      oBytes > UINT64_MAX - (align - 1))
    return false;
  out.lsePartialOffset = (oBytes + align - 1) / align * align;
  if (lseBytes > UINT64_MAX - out.lsePartialOffset)
    return false;
  out.bytes = out.lsePartialOffset + lseBytes;
  return true;
}
