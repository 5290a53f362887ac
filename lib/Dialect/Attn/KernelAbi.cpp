//===- KernelAbi.cpp - #attn.kernel_abi and the kernel manifest -----------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "attnc/Dialect/Attn/KernelAbi.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::attn;

namespace rt = attnc::rt;

namespace {

/// Reads the parameters of an #attn.kernel_abi into a manifest.
struct ManifestWriter {
  function_ref<InFlightDiagnostic()> emitError;
  rt::Manifest m;

  /// `parse(text)` or an error naming `what` and `text`.
  template <typename T, typename Parse>
  FailureOr<T> name(StringRef what, StringRef text, Parse parse) {
    if (std::optional<T> value = parse(std::string_view(text)))
      return *value;
    return emitError() << "#attn.kernel_abi: unknown " << what << " '" << text
                       << "'";
  }

  /// `dims` into `out`; `what` names the attribute's field in errors.
  LogicalResult grid(ArrayAttr dims, std::array<rt::GridDim, 3> &out,
                     StringRef what = "grid") {
    if (dims.size() != 3)
      return emitError() << "#attn.kernel_abi: " << what
                         << " must have 3 dimensions (x, y, z), got "
                         << dims.size();
    for (auto [i, attr] : llvm::enumerate(dims)) {
      auto dim = dyn_cast<GridDimAttr>(attr);
      if (!dim)
        return emitError() << "#attn.kernel_abi: " << what << "[" << i
                           << "] must be an #attn.grid_dim";
      out[i].ceilDiv = dim.getCeilDiv();
      size_t index = i; // a structured binding is not capturable in C++17
      auto symbols = [&](ArrayAttr names, StringRef role,
                         std::vector<rt::Symbol> &into) -> LogicalResult {
        for (Attribute symbol : names) {
          auto text = dyn_cast<StringAttr>(symbol);
          if (!text)
            return emitError() << "#attn.kernel_abi: " << what << "[" << index
                               << "] must " << role << " symbol names";
          FailureOr<rt::Symbol> s =
              name<rt::Symbol>("symbol", text.getValue(), rt::parseSymbol);
          if (failed(s))
            return failure();
          into.push_back(*s);
        }
        return success();
      };
      if (failed(symbols(dim.getProduct(), "multiply", out[i].product)))
        return failure();
      if (ArrayAttr plus = dim.getPlus())
        if (failed(symbols(plus, "add", out[i].plus)))
          return failure();
    }
    return success();
  }

  /// The swizzle of `bytes` (0: none).
  FailureOr<rt::Swizzle> swizzle(int64_t bytes, StringRef what) {
    for (rt::Swizzle s : {rt::Swizzle::None, rt::Swizzle::B32, rt::Swizzle::B64,
                          rt::Swizzle::B128})
      if (rt::swizzleBytes(s) == bytes)
        return s;
    return emitError() << "#attn.kernel_abi: " << what << ": swizzle must be "
                       << "0, 32, 64 or 128 bytes, got " << bytes;
  }

  /// params[i] into `out`; `what` names the attribute's field in errors.
  LogicalResult param(Attribute attr, size_t i,
                      std::vector<rt::KernelParam> &out,
                      StringRef what = "params") {
    std::string path = (what + "[" + Twine(i) + "]").str();
    auto param = dyn_cast<KernelParamAttr>(attr);
    if (!param)
      return emitError() << "#attn.kernel_abi: " << path
                         << " must be an #attn.kernel_param";
    rt::KernelParam p;
    FailureOr<rt::ParamKind> kind = name<rt::ParamKind>(
        "parameter kind", param.getKind(), rt::parseParamKind);
    if (failed(kind))
      return failure();
    p.kind = *kind;
    bool isTensor =
        p.kind == rt::ParamKind::TensorMap || p.kind == rt::ParamKind::Pointer;
    if (isTensor) {
      FailureOr<rt::TensorName> tensor =
          name<rt::TensorName>("tensor", param.getValue(), rt::parseTensorName);
      if (failed(tensor))
        return failure();
      p.tensor = *tensor;
    } else {
      FailureOr<rt::Symbol> symbol =
          name<rt::Symbol>("symbol", param.getValue(), rt::parseSymbol);
      if (failed(symbol))
        return failure();
      p.value = *symbol;
    }
    if (p.kind == rt::ParamKind::TensorMap) {
      // The tiles' shared-memory layout over (d, s, h, b), or (d, g, s, h, b)
      // where a box of rank 5 holds whole tokens of packed query heads.
      if (param.getBox().size() == 5)
        p.dims = {rt::TensorDim::D, rt::TensorDim::G, rt::TensorDim::S,
                  rt::TensorDim::H, rt::TensorDim::B};
      else
        p.dims = {rt::TensorDim::D, rt::TensorDim::S, rt::TensorDim::H,
                  rt::TensorDim::B};
      p.box.assign(param.getBox().begin(), param.getBox().end());
      FailureOr<rt::Swizzle> s = swizzle(param.getSwizzle(), path);
      if (failed(s))
        return failure();
      p.swizzle = *s;
    } else if (!param.getBox().empty() || param.getSwizzle() != 128) {
      return emitError() << "#attn.kernel_abi: " << path
                         << ": only a tensor_map has a box and a swizzle";
    }
    out.push_back(std::move(p));
    return success();
  }

  LogicalResult splitKv(SplitKvAttr split) {
    rt::SplitKv &out = m.splitKv.emplace();
    out.splits = split.getSplits();
    out.kvBlock = split.getKvBlock();
    out.combine.entry = split.getEntry().str();
    out.combine.threadsPerBlock = split.getThreads();
    out.combine.dynamicSmemBytes = split.getSharedMemory();
    out.combine.programmaticLaunch = split.getProgrammaticLaunch();
    if (failed(grid(split.getGrid(), out.combine.grid, "split_kv.grid")))
      return failure();
    for (auto [i, param] : llvm::enumerate(split.getParams()))
      if (failed(this->param(param, i, out.combine.params, "split_kv.params")))
        return failure();
    return success();
  }

  /// problem.`key` as an `AttrT`, or an error saying it must be `what`.
  template <typename AttrT>
  FailureOr<AttrT> field(DictionaryAttr problem, StringRef key,
                         StringRef what) {
    if (auto value = problem.getAs<AttrT>(key))
      return value;
    return emitError() << "#attn.kernel_abi: problem." << key << " must be "
                       << what;
  }

  LogicalResult problem(DictionaryAttr problem) {
    FailureOr<StringAttr> dtype =
        field<StringAttr>(problem, "dtype", "a string");
    if (failed(dtype))
      return failure();
    FailureOr<rt::DType> parsed =
        name<rt::DType>("dtype", dtype->getValue(), rt::parseDType);
    if (failed(parsed))
      return failure();
    m.problem.dtype = *parsed;
    for (auto [key, out] :
         {std::pair<StringRef, int64_t *>{"head_dim", &m.problem.headDim},
          {"head_dim_v", &m.problem.headDimV}}) {
      FailureOr<IntegerAttr> value =
          field<IntegerAttr>(problem, key, "an integer");
      if (failed(value))
        return failure();
      *out = value->getInt();
    }
    for (auto [key, out] :
         {std::pair<StringRef, std::string *>{"layout", &m.problem.layout},
          {"mask", &m.problem.mask}}) {
      FailureOr<StringAttr> value = field<StringAttr>(problem, key, "a string");
      if (failed(value))
        return failure();
      *out = value->str();
    }
    for (auto [key, out] : {std::pair<StringRef, bool *>{"gqa", &m.problem.gqa},
                            {"has_lse", &m.problem.hasLse}}) {
      FailureOr<BoolAttr> value =
          field<BoolAttr>(problem, key, "true or false");
      if (failed(value))
        return failure();
      *out = value->getValue();
    }
    if (problem.contains("page_size")) {
      FailureOr<IntegerAttr> value =
          field<IntegerAttr>(problem, "page_size", "an integer");
      if (failed(value))
        return failure();
      m.problem.pageSize = value->getInt();
    }
    if (problem.contains("varlen")) {
      FailureOr<BoolAttr> value =
          field<BoolAttr>(problem, "varlen", "true or false");
      if (failed(value))
        return failure();
      m.problem.varlen = value->getValue();
    }
    if (problem.contains("packed_query_heads")) {
      FailureOr<IntegerAttr> value =
          field<IntegerAttr>(problem, "packed_query_heads", "an integer");
      if (failed(value))
        return failure();
      m.problem.packedQueryHeads = value->getInt();
    }
    return success();
  }

  LogicalResult options(DictionaryAttr options) {
    for (NamedAttribute option : options) {
      rt::CompileOption o{option.getName().str(), "", false};
      if (auto i = dyn_cast<IntegerAttr>(option.getValue()))
        o.value = std::to_string(i.getValue().getSExtValue());
      else if (auto f = dyn_cast<FloatAttr>(option.getValue()))
        o.value = llvm::formatv("{0:e8}", f.getValueAsDouble()).str();
      else if (auto s = dyn_cast<StringAttr>(option.getValue()))
        o = {o.name, s.str(), true};
      else
        return emitError() << "#attn.kernel_abi: options." << o.name
                           << " must be an integer, a float or a string";
      m.options.push_back(std::move(o));
    }
    return success();
  }
};

FailureOr<rt::Manifest>
writeManifest(function_ref<InFlightDiagnostic()> emitError, StringRef entry,
              int64_t threads, int64_t sharedMemory, ArrayAttr grid,
              ArrayAttr params, DictionaryAttr problem, DictionaryAttr options,
              SplitKvAttr splitKv) {
  ManifestWriter w{emitError, {}};
  w.m.attncVersion = ATTNC_VERSION;
  w.m.entry = entry.str();
  w.m.ptx = "kernel.ptx";
  w.m.threadsPerBlock = threads;
  w.m.dynamicSmemBytes = sharedMemory;
  if (failed(w.grid(grid, w.m.grid)) || failed(w.problem(problem)) ||
      failed(w.options(options)))
    return failure();
  for (auto [i, param] : llvm::enumerate(params))
    if (failed(w.param(param, i, w.m.params)))
      return failure();
  if (splitKv && failed(w.splitKv(splitKv)))
    return failure();
  // A split attention kernel that takes O writes it at one split
  // (TiledAttention::writesOutputAtOneSplit gives it the parameter).
  if (splitKv)
    w.m.splitKv->writesOutputAtOneSplit = rt::takesOutput(w.m);
  std::string error;
  if (!rt::validateManifest(w.m, error))
    return emitError() << "#attn.kernel_abi: " << error;
  return std::move(w.m);
}

} // namespace

LogicalResult
KernelAbiAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      int64_t threads, int64_t sharedMemory, ArrayAttr grid,
                      ArrayAttr params, DictionaryAttr problem,
                      DictionaryAttr options, SplitKvAttr splitKv) {
  // The entry is the kernel's symbol, not part of the attribute.
  return writeManifest(emitError, "kernel", threads, sharedMemory, grid, params,
                       problem, options, splitKv);
}

template <typename Name>
static std::optional<unsigned> findParam(ArrayRef<Attribute> params,
                                         rt::ParamKind kind, Name name) {
  for (auto [i, attr] : llvm::enumerate(params)) {
    auto param = cast<KernelParamAttr>(attr);
    if (param.getKind() == rt::toString(kind) &&
        param.getValue() == rt::toString(name))
      return i;
  }
  return std::nullopt;
}

std::optional<unsigned> mlir::attn::findKernelParam(ArrayRef<Attribute> params,
                                                    rt::ParamKind kind,
                                                    rt::TensorName tensor) {
  return findParam(params, kind, tensor);
}

std::optional<unsigned> mlir::attn::findKernelParam(ArrayRef<Attribute> params,
                                                    rt::ParamKind kind,
                                                    rt::Symbol symbol) {
  return findParam(params, kind, symbol);
}

FailureOr<rt::Manifest>
mlir::attn::toManifest(KernelAbiAttr abi, StringRef entry,
                       function_ref<InFlightDiagnostic()> emitError) {
  return writeManifest(emitError, entry, abi.getThreads(),
                       abi.getSharedMemory(), abi.getGrid(), abi.getParams(),
                       abi.getProblem(), abi.getOptions(), abi.getSplitKv());
}
