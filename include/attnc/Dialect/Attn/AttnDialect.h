//===- AttnDialect.h - attn dialect -------------------------------*- C++ -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_DIALECT_ATTN_ATTNDIALECT_H
#define ATTNC_DIALECT_ATTN_ATTNDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dialect.h"

#include "attnc/Dialect/Attn/AttnDialect.h.inc"

#endif // ATTNC_DIALECT_ATTN_ATTNDIALECT_H
