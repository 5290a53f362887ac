//===- KernelAbi.h - a kernel's #attn.kernel_abi as manifest -*- C++ -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The runtime manifest of a kernel is its #attn.kernel_abi written out in the
// runtime's terms (attnc/Runtime/Manifest.h); the attribute's verifier uses
// the same translation and the runtime's validator.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_DIALECT_ATTN_KERNELABI_H
#define ATTNC_DIALECT_ATTN_KERNELABI_H

#include "attnc/Dialect/Attn/AttnOps.h"
#include "attnc/Runtime/Manifest.h"

namespace mlir::attn {

/// The manifest of the kernel `entry` launched as `abi` describes; emits an
/// error through `emitError` for a name or value the runtime does not know.
FailureOr<attnc::rt::Manifest>
toManifest(KernelAbiAttr abi, StringRef entry,
           function_ref<InFlightDiagnostic()> emitError);

/// The position of the first parameter of `kind` for `tensor` (`symbol`) in
/// `params`, a kernel's #attn.kernel_param list, if there is one.
std::optional<unsigned> findKernelParam(ArrayRef<Attribute> params,
                                        attnc::rt::ParamKind kind,
                                        attnc::rt::TensorName tensor);
std::optional<unsigned> findKernelParam(ArrayRef<Attribute> params,
                                        attnc::rt::ParamKind kind,
                                        attnc::rt::Symbol symbol);

} // namespace mlir::attn

#endif // ATTNC_DIALECT_ATTN_KERNELABI_H
