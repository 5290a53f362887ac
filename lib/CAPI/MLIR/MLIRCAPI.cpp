//===- MLIRCAPI.cpp - libAttncMLIRCAPI.so: MLIR's C API of the IR ---------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Intentionally empty: the library is libMLIRCAPIIR.a linked in whole
// (../CMakeLists.txt says why it is a library of its own).
//
//===----------------------------------------------------------------------===//
