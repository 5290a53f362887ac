//===- fuzz-manifest.cpp - libFuzzer target: manifest reader --------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Any bytes through the runtime's manifest parser and validator: a manifest
// is input from disk, so a malformed one must give an error, never a crash.
//
//===----------------------------------------------------------------------===//

#include "attnc/Runtime/Manifest.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  attnc::rt::Manifest manifest;
  std::string error;
  // parseManifest validates what it parsed.
  (void)attnc::rt::parseManifest(
      std::string_view(reinterpret_cast<const char *>(data), size), manifest,
      error, "fuzz");
  return 0;
}
