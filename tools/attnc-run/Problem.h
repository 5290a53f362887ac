//===- Problem.h - one attention problem and its host data --------*- C++ -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The concrete problem attnc-run executes (shapes resolved, attributes read
// off the attn.attention op) and host tensors in the element type the kernel
// consumes. Independent of MLIR so the reference can never share code with
// the lowering it checks.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_RUN_PROBLEM_H
#define ATTNC_RUN_PROBLEM_H

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace attnc::run {

enum class ElementType { F32, BF16, F16 };
enum class Mask { None, Causal, CausalBottomRight };

const char *toString(ElementType type);
const char *toString(Mask mask);
size_t byteWidth(ElementType type);

struct Problem {
  std::string function;
  ElementType dtype = ElementType::F32;
  int64_t batch = 1, headsQ = 1, headsKV = 1, seqQ = 1, seqK = 1;
  int64_t headDim = 64, valueHeadDim = 64;
  Mask mask = Mask::None;
  std::optional<std::pair<int64_t, int64_t>> window; // [left, right]
  float scale = 1.0f;
  std::optional<float> softcap;
  bool bshd = false; // layout of Q/K/V/O; false = bhsd
  bool hasLse = false;
  /// A paged KV cache (attn.attention pages(...)): K and V are pools
  /// [numPages, pageSize, Hkv, D] read through a [batch, maxPages] block
  /// table, and sequence b has cacheLengths[b] keys (seqK is the longest).
  struct Paged {
    int64_t pageSize = 0, maxPages = 0, numPages = 0;
    std::vector<int64_t> cacheLengths;
  };
  std::optional<Paged> paged;
  /// A variable-length batch (attn.attention varlen(...)): Q, K, V and O
  /// have batch 1 and pack the `batch` sequences (seqQ and seqK are the
  /// totals); sequence b has seqLensQ[b] query rows and seqLensK[b] keys.
  /// With packed query heads its rows are g a token, and the offsets the
  /// kernel takes (makeIndexInputs) count tokens.
  struct Varlen {
    std::vector<int64_t> seqLensQ, seqLensK;
  };
  std::optional<Varlen> varlen;
  /// Packed query heads (attn.attention packed_query_heads): each head's
  /// seqQ rows are this many query heads' seqQ / packedQueryHeads tokens,
  /// token-major: masks see row i at query position i / packedQueryHeads.
  int64_t packedQueryHeads = 1;
  /// The kv split count (attn.attention kv_splits): compiled in, or the
  /// value of a kv_splits argument on the CPU (on the GPU the runtime
  /// chooses it). The CPU stages hold every split's partial O and LSE.
  int64_t kvSplits = 1;
  /// The function's arguments after its tensors, in order: the attention's
  /// scale_value (f32, passed `scale`) and kv_splits (index, passed
  /// `kvSplits`) where it takes them as arguments.
  enum class LaunchArgument { Scale, KvSplits };
  std::vector<LaunchArgument> launchArguments;

  /// The number of query rows and keys of sequence `b`.
  int64_t seqQOf(int64_t b) const {
    return varlen ? varlen->seqLensQ[b] : seqQ;
  }
  int64_t seqKOf(int64_t b) const {
    if (varlen)
      return varlen->seqLensK[b];
    return paged ? paged->cacheLengths[b] : seqK;
  }
  /// Where sequence `b` starts in the tensors: its batch index and its
  /// first query row and key (a varlen batch packs them in batch 0).
  int64_t tensorBatchOf(int64_t b) const { return varlen ? 0 : b; }
  int64_t queryOffsetOf(int64_t b) const;
  int64_t keyOffsetOf(int64_t b) const;

  /// Physical shapes of Q, K, V and O.
  std::vector<int64_t> queryShape() const;
  std::vector<int64_t> keyShape() const;
  std::vector<int64_t> valueShape() const;
  std::vector<int64_t> outputShape() const;
  /// "B=2 Hq=8 Hkv=2 Nq=113 Nk=203 D=64"
  std::string describeShape() const;
  std::string describeMask() const;
};

/// A dense row-major host tensor stored in `type`; values are kept as the
/// exact doubles the stored elements represent.
struct HostTensor {
  ElementType type = ElementType::F32;
  std::vector<int64_t> shape;
  std::vector<uint8_t> bytes;

  int64_t numElements() const;
  double get(int64_t i) const;
  void set(int64_t i, double value); // rounds to nearest even
  void *data() { return bytes.data(); }
};

/// The tools' limit on the host memory of one problem.
inline constexpr double kMaxHostBytes = 8.0 * 1024 * 1024 * 1024;
/// Why `tool` cannot check `p` within kMaxHostBytes ("" if it can): Q, K, V
/// (a paged cache's pools) and the kernel's O in the element type, O and
/// LSE of the float64 reference and the partial O and LSE of each kv split,
/// at 8 bytes an element as an upper bound (computed in double: static
/// sizes may be far beyond int64 products).
std::string hostMemoryError(const Problem &p, const std::string &tool);

HostTensor makeTensor(ElementType type, std::vector<int64_t> shape);
/// Fills with N(0, 1) samples; never all zeros.
void fillNormal(HostTensor &t, std::mt19937_64 &rng);

/// The index inputs of a paged problem (the block table, [batch, maxPages]
/// row-major, and the cache lengths) or of a varlen one (the cumulative
/// offsets, [batch + 1] each); empty for a dense one.
struct IndexInputs {
  std::vector<int32_t> blockTable, cacheLengths;
  int64_t maxPages = 0;
  std::vector<int32_t> cuSeqlensQ, cuSeqlensK;
};

/// The cache lengths of a paged problem's `batch` sequences: `seqK` keys,
/// one and none in turn (the longest, a single token, an empty sequence).
std::vector<int64_t> pagedCacheLengths(int64_t batch, int64_t seqK);

/// A paged cache of pages of `pageSize` tokens for `p.batch` sequences of
/// at most `p.seqK` keys (pagedCacheLengths): `maxPages` table columns and
/// `numPages` pool pages, or, where 0, one spare column and three spare
/// pages beyond what the sequences need.
Problem::Paged pagedCache(const Problem &p, int64_t pageSize,
                          int64_t maxPages = 0, int64_t numPages = 0);

/// Makes `p` a varlen batch of `p.batch` sequences of at most `p.seqQ` query
/// rows and `p.seqK` keys: p.seqQ rows and p.seqK keys, then one row and
/// half the keys, a third of the rows and one key, and none at all, in turn
/// (one sequence much longer than the rest, single tokens, an empty
/// sequence); p.seqQ and p.seqK become the totals, the tensors' sequence
/// dims.
void makeVarlen(Problem &p);

/// The pages a paged problem's sequences need, at least 1: the longest
/// sequence's (a row of the table) and all of them (the pool).
int64_t pagesPerSequence(const Problem &p, int64_t pageSize);

/// A block table for `p`: each sequence's pages drawn without replacement
/// from a shuffled pool; the entries past a sequence's pages are -1 (never
/// read).
std::vector<int32_t> shuffledBlockTable(const Problem &p, std::mt19937_64 &rng);

/// The index inputs of `p` (empty for a dense one); a paged problem's table
/// is shuffledBlockTable's.
IndexInputs makeIndexInputs(const Problem &p, std::mt19937_64 &rng);

} // namespace attnc::run

#endif // ATTNC_RUN_PROBLEM_H
