//===- AttnDialect.cpp - attn dialect registration ------------------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "attn/AttnDialect.h"
#include "attn/AttnOps.h"

using namespace mlir;
using namespace mlir::attn;

#include "attn/AttnDialect.cpp.inc"

void AttnDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "attn/AttnOps.cpp.inc"
      >();
}
