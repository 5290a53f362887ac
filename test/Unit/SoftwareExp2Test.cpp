//===- SoftwareExp2Test.cpp - the software exp2 against std::exp2 ---------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// JIT-compiles buildSoftwareExp2 (the ops attn.exp_diff's
// software_exp2_period emits in the sm_90a kernel: arith and llvm.intr.fma,
// IEEE f32 without flushing, as the kernel's add.rn / fma.rn / mul.rn are)
// for the host CPU and compares it with std::exp2 in double:
//  - relative error at most kSoftwareExp2MaxRelativeError for every f32 in
//    (-2, -0.5] and [0.25, 1) (every reduced argument f at full density)
//    and every 61st f32 in [-126, 127] (every binade, x near 0 too);
//  - exactly +0 for every 61st f32 below -126 down to -130, for x just
//    below -126, -127.5, -1e30, -FLT_MAX and -inf (a fully masked row must
//    sum to l = 0);
//  - NaN for NaN, 1 within the bound for +-0.
// And buildBoundedSoftwareExp2 (2^(s m) without the underflow select, for
// |s m| <= 126): within the same bound of exp2(s m) in double for every 61st
// f32 s in [-126, 126] and at full density in (-2, -0.5] and [0.25, 1)
// with m = 1, and (rounding the product itself) for every 37th f32 s in
// (-1, 1) with the multiplier of a
// fixed-max softcap of 30 (30 log2(e)) and the largest, 126; NaN for
// NaN.
// Prints the largest error and "N passed, M failed"; exits non-zero on a
// failure.
//
//===----------------------------------------------------------------------===//

#include "attnc/Conversion/SoftwareExp2.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

using namespace mlir;

namespace {

using Exp2Fn = float (*)(float);
using BoundedExp2Fn = float (*)(float, float);

float fromBits(uint32_t u) {
  float x;
  std::memcpy(&x, &u, sizeof(x));
  return x;
}

uint32_t toBits(float x) {
  uint32_t u;
  std::memcpy(&u, &x, sizeof(u));
  return u;
}

/// @software_exp2(f32) -> f32 and @bounded_software_exp2(f32, f32) -> f32,
/// compiled for the host.
std::unique_ptr<ExecutionEngine> compile(MLIRContext &ctx) {
  OpBuilder b(&ctx);
  Location loc = b.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());
  Type f32 = b.getF32Type();
  auto general = func::FuncOp::create(b, loc, "software_exp2",
                                      b.getFunctionType({f32}, {f32}));
  auto bounded = func::FuncOp::create(b, loc, "bounded_software_exp2",
                                      b.getFunctionType({f32, f32}, {f32}));
  b.setInsertionPointToEnd(general.addEntryBlock());
  func::ReturnOp::create(
      b, loc, attn::buildSoftwareExp2(b, loc, general.getArgument(0)));
  b.setInsertionPointToEnd(bounded.addEntryBlock());
  func::ReturnOp::create(
      b, loc,
      attn::buildBoundedSoftwareExp2(b, loc, bounded.getArgument(0),
                                     bounded.getArgument(1)));
  PassManager pm(&ctx);
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  if (failed(pm.run(*module)))
    return nullptr;
  ExecutionEngineOptions options;
  options.transformer = makeOptimizingTransformer(
      /*optLevel=*/2, /*sizeLevel=*/0, /*targetMachine=*/nullptr);
  auto engine = ExecutionEngine::create(*module, options);
  if (!engine) {
    llvm::errs() << "JIT compilation failed: "
                 << llvm::toString(engine.takeError()) << "\n";
    return nullptr;
  }
  return std::move(*engine);
}

/// The address of `name` in `engine`, or null after printing why.
void *lookup(ExecutionEngine &engine, StringRef name) {
  llvm::Expected<void *> symbol = engine.lookup(name);
  if (!symbol) {
    llvm::errs() << "no " << name << ": " << llvm::toString(symbol.takeError())
                 << "\n";
    return nullptr;
  }
  return *symbol;
}

struct Checker {
  Exp2Fn exp2;
  BoundedExp2Fn boundedExp2;
  int64_t passed = 0, failed = 0;
  double maxError = 0;
  float worst = 0;

  void fail(float x, float y, const char *what) {
    if (++failed <= 10)
      llvm::errs() << llvm::format("FAIL x = %a (%.9g): got %a (%.9g), %s\n", x,
                                   x, y, y, what);
  }
  /// y within the bound of 2^x, x in double.
  void within(float at, float y, double x) {
    double ref = std::exp2(x);
    double error = std::fabs(static_cast<double>(y) - ref) / ref;
    if (error > maxError) {
      maxError = error;
      worst = at;
    }
    if (!(error <= attn::kSoftwareExp2MaxRelativeError))
      return fail(at, y, "relative error above the bound");
    ++passed;
  }
  /// Within the bound of exp2 (double) for x in [-126, 127].
  void accurate(float x) { within(x, exp2(x), x); }
  /// The bounded exp2 of s m within the bound of 2^(s m) in double.
  void bounded(float s, float m) {
    double x = static_cast<double>(s) * m;
    within(static_cast<float>(x), boundedExp2(s, m), x);
  }
  void isNaN(float x, float y) {
    if (!std::isnan(y))
      return fail(x, y, "expected NaN");
    ++passed;
  }
  /// Exactly +0 (x < -126, -inf).
  void zero(float x) {
    float y = exp2(x);
    if (toBits(y) != 0)
      return fail(x, y, "expected exactly +0");
    ++passed;
  }
  void check(float x) {
    if (x < -126.0f)
      zero(x);
    else
      accurate(x);
  }
};

} // namespace

int main() {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  DialectRegistry registry;
  registry.insert<arith::ArithDialect, func::FuncDialect, LLVM::LLVMDialect>();
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  std::unique_ptr<ExecutionEngine> engine = compile(ctx);
  if (!engine)
    return 1;
  void *general = lookup(*engine, "software_exp2");
  void *bounded = lookup(*engine, "bounded_software_exp2");
  if (!general || !bounded)
    return 1;
  Checker c{reinterpret_cast<Exp2Fn>(general),
            reinterpret_cast<BoundedExp2Fn>(bounded)};

  // Every f32 in [-2, -0.5) and [0.25, 1): they reduce to every f in
  // [-0.5, 0.5] at the precision x has there (2^-25 next to f = 0.5).
  for (uint32_t u = toBits(-0.5f); u < toBits(-2.0f); ++u)
    c.check(fromBits(u));
  for (uint32_t u = toBits(0.25f); u < toBits(1.0f); ++u)
    c.check(fromBits(u));
  // Every 61st f32 in [-130, 127]: every binade (x near 0 too: the row
  // max's own score), both sides of -126.
  for (uint32_t u = 0x80000000u; u <= toBits(-130.0f); u += 61)
    c.check(fromBits(u));
  for (uint32_t u = 0; u <= toBits(127.0f); u += 61)
    c.check(fromBits(u));
  // The edges and special values.
  c.accurate(-126.0f);
  c.accurate(127.0f);
  c.accurate(0.0f);
  c.accurate(-0.0f);
  for (float x :
       {std::nextafter(-126.0f, -INFINITY), -126.5f, -127.0f, -127.5f, -128.0f,
        -1e30f, -std::numeric_limits<float>::max(), -INFINITY})
    c.zero(x);
  for (float nan : {std::numeric_limits<float>::quiet_NaN(),
                    -std::numeric_limits<float>::quiet_NaN(),
                    fromBits(0x7fffffffu), fromBits(0x7fc001ffu)}) {
    c.isNaN(nan, c.exp2(nan));
    c.isNaN(nan, c.boundedExp2(nan, 1.0f));
    c.isNaN(nan, c.boundedExp2(0.5f, nan));
  }

  // The bounded form: s m itself (m = 1) over its domain, then soft-capped
  // scores in (-1, 1) times the multipliers of a cap of 30 and of the
  // largest cap the domain allows.
  for (uint32_t u = toBits(-0.5f); u < toBits(-2.0f); ++u)
    c.bounded(fromBits(u), 1.0f);
  for (uint32_t u = toBits(0.25f); u < toBits(1.0f); ++u)
    c.bounded(fromBits(u), 1.0f);
  for (uint32_t u = 0x80000000u; u <= toBits(-126.0f); u += 61)
    c.bounded(fromBits(u), 1.0f);
  for (uint32_t u = 0; u <= toBits(126.0f); u += 61)
    c.bounded(fromBits(u), 1.0f);
  for (float m : {30.0f * 1.44269504f, 126.0f})
    for (uint32_t u = 0; u < toBits(1.0f); u += 37) {
      c.bounded(fromBits(u), m);
      c.bounded(-fromBits(u), m);
    }
  for (float x : {-126.0f, 126.0f, 0.0f, -0.0f})
    c.bounded(x, 1.0f);

  llvm::outs() << llvm::format(
      "software exp2: max relative error %.4e at x = %a (bound %.1e)\n",
      c.maxError, c.worst, attn::kSoftwareExp2MaxRelativeError);
  llvm::outs() << "software exp2: " << c.passed << " passed, " << c.failed
               << " failed\n";
  return c.failed ? 1 : 0;
}
