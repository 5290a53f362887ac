//===- Registration.cpp - what attnc's GPU pipelines need registered ------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "attnc/Pipelines/Registration.h"

#include "attnc/Conversion/Passes.h"
#include "attnc/Dialect/Attn/AttnDialect.h"
#include "attnc/Pipelines/Passes.h"
#include "attnc/Pipelines/Pipelines.h"
#include "attnc/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/LLVMTranslationInterface.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::attn;

/// A dialect the input graph is written in: its parser needs it registered.
template <typename DialectT>
static AttncRequirement dialect(StringRef name, StringRef registeredBy) {
  return {name, registeredBy,
          [](DialectRegistry &registry) { registry.insert<DialectT>(); },
          [](MLIRContext *context) {
            StringRef ns = DialectT::getDialectNamespace();
            std::vector<StringRef> available = context->getAvailableDialects();
            return context->getLoadedDialect(ns) ||
                   std::find(available.begin(), available.end(), ns) !=
                       available.end();
          }};
}

/// The translation of a dialect's ops and attributes to LLVM IR
/// (gpu-module-to-binary translates the gpu.module).
template <typename DialectT, void (*Register)(DialectRegistry &)>
static AttncRequirement translation(StringRef name, StringRef registeredBy) {
  return {name, registeredBy, Register, [](MLIRContext *context) {
            auto *loaded = context->getLoadedDialect<DialectT>();
            return loaded && loaded->template getRegisteredInterface<
                                 LLVMTranslationDialectInterface>();
          }};
}

static bool hasNVVMTargetInterface(MLIRContext *context) {
  if (!context->getLoadedDialect<NVVM::NVVMDialect>())
    return false;
  return NVVM::NVVMTargetAttr::get(context).getAbstractAttribute().hasInterface(
      TypeID::get<gpu::TargetAttrInterface>());
}

ArrayRef<AttncRequirement> mlir::attn::getAttncRequirements() {
  static const AttncRequirement requirements[] = {
      dialect<AttnDialect>("the attn dialect", "registry.insert<AttnDialect>"),
      dialect<func::FuncDialect>("the func dialect",
                                 "registry.insert<func::FuncDialect>"),
      {"the NVVM target attribute interface",
       "NVVM::registerNVVMTargetInterfaceExternalModels",
       [](DialectRegistry &registry) {
         NVVM::registerNVVMTargetInterfaceExternalModels(registry);
       },
       hasNVVMTargetInterface},
      translation<BuiltinDialect, registerBuiltinDialectTranslation>(
          "the builtin dialect's translation to LLVM IR",
          "registerBuiltinDialectTranslation"),
      translation<LLVM::LLVMDialect, registerLLVMDialectTranslation>(
          "the LLVM dialect's translation to LLVM IR",
          "registerLLVMDialectTranslation"),
      translation<gpu::GPUDialect, registerGPUDialectTranslation>(
          "the GPU dialect's translation to LLVM IR",
          "registerGPUDialectTranslation"),
      translation<NVVM::NVVMDialect, registerNVVMDialectTranslation>(
          "the NVVM dialect's translation to LLVM IR",
          "registerNVVMDialectTranslation"),
  };
  return requirements;
}

void mlir::attn::registerAttncDialects(DialectRegistry &registry) {
  for (const AttncRequirement &requirement : getAttncRequirements())
    requirement.insert(registry);
}

void mlir::attn::registerAttncRaisingDialects(DialectRegistry &registry) {
  registry.insert<arith::ArithDialect, linalg::LinalgDialect, math::MathDialect,
                  tensor::TensorDialect, tosa::TosaDialect>();
}

void mlir::attn::registerAttncPasses() {
  registerAttnTransformsPasses();
  registerAttnConversionPasses();
  registerAttnPipelinesPasses();
  registerAttnPipelines();
}

LogicalResult mlir::attn::checkAttncRequirements(Operation *root) {
  // The dialects whose attributes and interfaces are checked (already loaded
  // when attn-check-requirements runs: they are its dependent dialects).
  MLIRContext *context = root->getContext();
  context->getOrLoadDialect<gpu::GPUDialect>();
  context->getOrLoadDialect<LLVM::LLVMDialect>();
  context->getOrLoadDialect<NVVM::NVVMDialect>();
  bool complete = true;
  for (const AttncRequirement &requirement : getAttncRequirements()) {
    if (requirement.isRegistered(context))
      continue;
    root->emitError("attnc pipeline needs ")
        << requirement.name << " registered (" << requirement.registeredBy
        << "; call registerAttncDialects or attncRegisterDialects)";
    complete = false;
  }
  return success(complete);
}
