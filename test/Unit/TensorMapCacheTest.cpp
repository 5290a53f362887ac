//===- TensorMapCacheTest.cpp - the runtime's tensor-map cache ------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// attnc-tensor-map-cache-test: lib/Runtime/TensorMapCache.h without a
// driver. Each "map" stored is a stand-in whose words name its request, so a
// hit that returned another request's map is seen. Checks that a hit returns
// the map of exactly its request (every field of the request is part of the
// key), that the cache starts over past kCapacity instead of growing, and
// that threads sharing one cache (one kernel handle launched from several
// threads) only ever read their own requests' maps. Prints one line per
// check and exits 1 on a failure (test/Runtime/tensor-map-cache-unit.test).
//
//===----------------------------------------------------------------------===//

#include "TensorMapCache.h"

#include <atomic>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

using namespace attnc::rt;

namespace {

/// A request that `seed` makes distinct: its address and its dims.
TensorMapRequest requestOf(uint64_t seed) {
  TensorMapRequest r;
  r.dtype = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  r.address = reinterpret_cast<void *>(0x7f0000000000ull + 256 * seed);
  for (int i = 0; i < 4; ++i)
    r.dims[i] = 128 + seed + i;
  for (int i = 0; i < 3; ++i)
    r.byteStrides[i] = 256u << i;
  r.box[0] = 64;
  r.box[1] = 128;
  r.box[2] = r.box[3] = 1;
  r.swizzle = CU_TENSOR_MAP_SWIZZLE_128B;
  r.oobFill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
  return r;
}

/// The stand-in map of `r`: its address, dims and the enums in its words.
CUtensorMap mapOf(const TensorMapRequest &r) {
  CUtensorMap map;
  std::memset(&map, 0, sizeof(map));
  map.opaque[0] = reinterpret_cast<uintptr_t>(r.address);
  for (int i = 0; i < 4; ++i)
    map.opaque[1 + i] = r.dims[i];
  map.opaque[5] =
      uint64_t(r.dtype) | uint64_t(r.swizzle) << 16 | uint64_t(r.oobFill) << 32;
  map.opaque[6] = r.box[1];
  return map;
}

bool sameMap(const CUtensorMap &a, const CUtensorMap &b) {
  return std::memcmp(&a, &b, sizeof(a)) == 0;
}

int failures = 0;
void report(bool ok, const char *what) {
  std::printf("%s %s\n", ok ? "PASS" : "FAIL", what);
  failures += !ok;
}

void checkKey() {
  TensorMapCache cache;
  TensorMapRequest r = requestOf(1);
  CUtensorMap map;
  report(!cache.lookup(r, map), "an empty cache misses");
  cache.insert(r, mapOf(r));
  report(cache.lookup(r, map) && sameMap(map, mapOf(r)),
         "a hit returns the map inserted for the request");
  // Each field of the request on its own makes another request.
  auto misses = [&](TensorMapRequest other) {
    CUtensorMap unused;
    return !cache.lookup(other, unused);
  };
  TensorMapRequest other = r;
  bool allMiss = true;
  other.address = static_cast<char *>(r.address) + 16;
  allMiss &= misses(other);
  // (Rank 4 leaves the fifth slots zero: a rank-5 request of the same first
  // four differs in them and in its rank.)
  for (unsigned i = 0; i < TensorMapRequest::kMaxRank; ++i) {
    other = r;
    ++other.dims[i];
    allMiss &= misses(other);
    other = r;
    ++other.box[i];
    allMiss &= misses(other);
  }
  for (unsigned i = 0; i + 1 < TensorMapRequest::kMaxRank; ++i) {
    other = r;
    other.byteStrides[i] += 16;
    allMiss &= misses(other);
  }
  other = r;
  other.rank = 5;
  allMiss &= misses(other);
  other = r;
  other.dtype = CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  allMiss &= misses(other);
  other = r;
  other.swizzle = CU_TENSOR_MAP_SWIZZLE_64B;
  allMiss &= misses(other);
  other = r;
  other.oobFill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA;
  allMiss &= misses(other);
  report(allMiss, "a request that differs in any one field misses");
}

void checkCapacity() {
  TensorMapCache cache;
  for (uint64_t i = 0; i < TensorMapCache::kCapacity; ++i)
    cache.insert(requestOf(i), mapOf(requestOf(i)));
  CUtensorMap map;
  bool full = true;
  for (uint64_t i = 0; i < TensorMapCache::kCapacity; ++i)
    full &=
        cache.lookup(requestOf(i), map) && sameMap(map, mapOf(requestOf(i)));
  report(full, "kCapacity requests are all held");
  TensorMapRequest next = requestOf(TensorMapCache::kCapacity);
  cache.insert(next, mapOf(next));
  report(!cache.lookup(requestOf(0), map) && cache.lookup(next, map),
         "one more starts over: the earlier maps are gone, the new one held");
}

void checkThreads() {
  TensorMapCache cache;
  constexpr int kThreads = 8, kRequests = 64, kRounds = 2000;
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int round = 0; round < kRounds; ++round) {
        // Requests shared by all threads and the thread's own.
        uint64_t seed = round % 2 ? round % kRequests
                                  : kRequests * (1 + t) + round % kRequests;
        TensorMapRequest r = requestOf(seed);
        CUtensorMap map;
        if (cache.lookup(r, map)) {
          if (!sameMap(map, mapOf(r)))
            ++wrong;
        } else {
          cache.insert(r, mapOf(r));
        }
      }
    });
  for (std::thread &thread : threads)
    thread.join();
  report(wrong == 0, "threads sharing a cache only read their requests' maps");
}

} // namespace

int main() {
  checkKey();
  checkCapacity();
  checkThreads();
  return failures ? 1 : 0;
}
