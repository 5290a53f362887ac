//===- Unraised.cpp - run attention graphs as written and raised ----------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Unraised.h"

#include "attnc/Transforms/Passes.h"

#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

LogicalResult attnc::run::raiseAttention(ModuleOp module) {
  PassManager pm(module.getContext());
  OpPassManager &funcPm = pm.nest<func::FuncOp>();
  funcPm.addPass(attn::createAttnRaiseAttentionPass());
  funcPm.addPass(createCanonicalizerPass());
  funcPm.addPass(createCSEPass());
  return pm.run(module);
}

LogicalResult attnc::run::lowerUnraised(ModuleOp module) {
  PassManager pm(module.getContext());
  tosa::addTosaToLinalgPasses(pm, TosaToLinalgOptions{});
  pm.addPass(createTosaToArithPass());  // tosa.const
  pm.addPass(createTosaToTensorPass()); // tosa.reshape
  if (failed(pm.run(module)))
    return failure();
  IRRewriter rewriter(module.getContext());
  WalkResult result = module.walk([&](linalg::AggregatedOpInterface op) {
    rewriter.setInsertionPoint(op);
    FailureOr<SmallVector<Value>> decomposed = op.decomposeOperation(rewriter);
    if (failed(decomposed)) {
      op->emitError("attnc-run: cannot decompose this op");
      return WalkResult::interrupt();
    }
    rewriter.replaceOp(op, *decomposed);
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}
