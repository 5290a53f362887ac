//===- TensorMapCache.cpp - tensor maps reused across launches ------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "TensorMapCache.h"

#include <cassert>
#include <string_view>

using namespace attnc::rt;

TensorMapCache::Key TensorMapCache::keyOf(const TensorMapRequest &request) {
  Key key = {};
  size_t i = 0;
  key[i++] = reinterpret_cast<uintptr_t>(request.address);
  for (cuuint64_t dim : request.dims)
    key[i++] = dim;
  for (cuuint64_t stride : request.byteStrides)
    key[i++] = stride;
  for (cuuint32_t box : request.box)
    key[i++] = box;
  key[i++] = uint64_t(request.dtype) | uint64_t(request.swizzle) << 16 |
             uint64_t(request.oobFill) << 32;
  key[i++] = request.rank;
  assert(i == key.size() && "every word of the key is a field's");
  return key;
}

size_t TensorMapCache::KeyHash::operator()(const Key &key) const noexcept {
  return std::hash<std::string_view>()(std::string_view(
      reinterpret_cast<const char *>(key.data()), sizeof(key)));
}

bool TensorMapCache::lookup(const TensorMapRequest &request,
                            CUtensorMap &map) const {
  Key key = keyOf(request);
  std::lock_guard<std::mutex> lock(mutex);
  auto it = maps.find(key);
  if (it == maps.end())
    return false;
  map = it->second;
  return true;
}

void TensorMapCache::insert(const TensorMapRequest &request,
                            const CUtensorMap &map) {
  Key key = keyOf(request);
  std::lock_guard<std::mutex> lock(mutex);
  if (maps.size() >= kCapacity)
    maps.clear();
  maps.insert_or_assign(key, map);
}
