//===- TensorMapCache.h - tensor maps reused across launches ----*- C++ -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A launch encodes three or four tensor maps (cuTensorMapEncodeTiled, about
// 0.1 us of host time each). An encoded map is a function of the encode
// call's arguments alone (the base address, the dims, strides and box, the
// element type, the swizzle and the out-of-bounds fill), so a launch whose
// tensors match an earlier launch's reuses the earlier map instead, as a
// decode loop's calls on the same caches do: 0.3 us less of an unsplit
// launch's 5.9 us of host time (bench/HISTORY.md run 120).
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_LIB_RUNTIME_TENSORMAPCACHE_H
#define ATTNC_LIB_RUNTIME_TENSORMAPCACHE_H

#include <cuda.h>

#include <array>
#include <cstdint>
#include <mutex>
#include <unordered_map>

namespace attnc::rt {

/// The arguments of one cuTensorMapEncodeTiled call (rank 4, or 5 for a
/// packed Q or O) that vary between launches; the interleave (none), the L2
/// promotion (128 bytes) and the element strides (1) are the runtime's
/// constants.
struct TensorMapRequest {
  static constexpr unsigned kMaxRank = 5;
  CUtensorMapDataType dtype = CU_TENSOR_MAP_DATA_TYPE_UINT8;
  void *address = nullptr;
  unsigned rank = 4;
  cuuint64_t dims[kMaxRank] = {};
  cuuint64_t byteStrides[kMaxRank - 1] = {};
  cuuint32_t box[kMaxRank] = {};
  CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_NONE;
  CUtensorMapFloatOOBfill oobFill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
};

/// The maps that one kernel's launches encoded, by request; safe to use from
/// several threads. It holds at most kCapacity maps (nodes of about 384
/// bytes: a 128-byte-aligned map and its key) and starts over when full, so a
/// caller that cycles through more layouts re-encodes but never grows the
/// cache.
class TensorMapCache {
public:
  static constexpr size_t kCapacity = 256;

  /// Copies the map of `request` into `map` if an earlier insert holds it.
  bool lookup(const TensorMapRequest &request, CUtensorMap &map) const;
  /// Records `map` as the encoding of `request`.
  void insert(const TensorMapRequest &request, const CUtensorMap &map);

private:
  /// A request as words without padding, hashed and compared whole.
  /// (The address, the dims, strides and box, the enums' word and the rank.)
  using Key = std::array<uint64_t, 2 + 3 * TensorMapRequest::kMaxRank>;
  struct KeyHash {
    size_t operator()(const Key &key) const noexcept;
  };
  static Key keyOf(const TensorMapRequest &request);

  mutable std::mutex mutex;
  std::unordered_map<Key, CUtensorMap, KeyHash> maps;
};

} // namespace attnc::rt

#endif // ATTNC_LIB_RUNTIME_TENSORMAPCACHE_H
