//===- TileScale.h - the scale values of a tile -----------------*- C++ -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The softmax scale reaches the tile IR as operands of its ops: the exp2
// multiplier of attn.exp_diff and attn.rescale_factor, the LSE's scale of
// attn.finalize, and attn.softcap's. They are computed from constants or
// from the function's f32 argument (attn-generalize-scale), which the kernel
// then takes as its `scale` parameter. verifyTiledAttention checks these values
// (one exp2 multiplier, at most one f32 argument, each value computable at
// the kernel's entry); the kernel and its ABI read them with these queries.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_LIB_CONVERSION_ATTNTONVVM_TILESCALE_H
#define ATTNC_LIB_CONVERSION_ATTNTONVVM_TILESCALE_H

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <optional>

namespace mlir::attn {

/// The scale operands of the tile's ops, with the op that takes each:
/// attn.finalize's scale first, then in IR order each attn.exp_diff's and
/// attn.rescale_factor's scale_log2 and each attn.softcap's scale.
SmallVector<std::pair<Operation *, Value>> getScaleOperands(scf::ForallOp tile);

/// The exp2 multiplier the tile's attn.exp_diff and attn.rescale_factor take
/// (the first one's; verifyTiledAttention checks that they take one value).
Value getScaleLog2(scf::ForallOp tile);

/// The f32 argument of the tile's function that a scale operand is computed
/// from (the kernel's `scale` parameter), if any: the function's first.
BlockArgument getScaleArgument(scf::ForallOp tile);

/// Whether the exp2 multiplier is the scale argument times log2(e), which
/// the kernel then takes as a second parameter (the runtime's scale_log2,
/// the same f32 product): the exp2 FMAs read it from the parameter bank, as
/// they read a compiled-in constant, instead of holding it in a register.
bool takesScaleLog2(scf::ForallOp tile);

/// The softmax scale when it is compiled in: no operand is computed from the
/// scale argument, and the softmax scale (attn.softcap's with a softcap,
/// else attn.finalize's) is a constant. The manifest records it; the runtime
/// checks a launch's scale against it.
std::optional<float> getConstantScale(scf::ForallOp tile);

} // namespace mlir::attn

#endif // ATTNC_LIB_CONVERSION_ATTNTONVVM_TILESCALE_H
