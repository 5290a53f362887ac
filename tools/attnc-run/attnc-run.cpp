//===- attnc-run.cpp - compile, run, check and time attention -------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// For every function of the input that computes one attn.attention from its
// three arguments, attnc-run lowers it to a pipeline stage, runs it on seeded
// normal random inputs, compares the outputs (and LSE) with the float64
// reference and prints one line per function and stage. Exits non-zero when
// any result is off by more than the element type's tolerance.
//
//===----------------------------------------------------------------------===//

#include "CpuBackend.h"
#include "GpuBackend.h"
#include "Problem.h"
#include "Reference.h"
#include "Sweep.h"
#include "Unraised.h"

#include "attnc/Dialect/Attn/AttnOps.h"
#include "attnc/InitAll.h"
#include "attnc/Pipelines/Pipelines.h"
#include "attnc/Pipelines/Registration.h"
#include "attnc/Target/KernelArtifact.h"
#include "attnc/Tools/InputNesting.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>
#include <tuple>

using namespace mlir;
using namespace attnc::run;
namespace cl = llvm::cl;

// --help lists these, not the LLVM options that libLLVM registers.
static cl::OptionCategory runCategory("attnc-run options");
static cl::opt<std::string> inputFile(cl::Positional,
                                      cl::desc("<input .mlir file>"),
                                      cl::cat(runCategory), cl::init("-"));
static cl::opt<std::string>
    backend("backend",
            cl::desc("Where to run: cpu (JIT-compiled reference lowering), "
                     "gpu (sm_90a kernel through the runtime), auto (gpu "
                     "when a GPU is present, else cpu)"),
            cl::cat(runCategory), cl::init("cpu"));
static cl::opt<int>
    timingIterations("iterations",
                     cl::desc("GPU: timed launches after the checked one"),
                     cl::cat(runCategory), cl::init(20));
static cl::opt<std::string>
    stages("stages",
           cl::desc("Comma-separated pipeline stages to run each function "
                    "at: graph, tiled, fused, split"),
           cl::cat(runCategory), cl::init("split"));
static cl::opt<std::string> tilePasses(
    "tile-passes",
    cl::desc("CPU: a func.func pass pipeline run on the tile IR after each "
             "stage (for example "
             "\"attn-defer-softcap-cap,attn-softcap-fixed-max\"): the "
             "numerics of GPU-pipeline passes on the reference backend"),
    cl::cat(runCategory), cl::init(""));
static cl::opt<std::string>
    sweep("sweep", cl::desc("Run a generated sweep instead of a file (ci)"),
          cl::cat(runCategory), cl::init(""));
static cl::opt<int64_t> blockM("block-m",
                               cl::desc("Query tile rows (0: table)"),
                               cl::cat(runCategory), cl::init(0));
static cl::opt<int64_t> blockN("block-n", cl::desc("Key tile rows (0: table)"),
                               cl::cat(runCategory), cl::init(0));
static cl::opt<int64_t> batchSize("batch",
                                  cl::desc("Size of a dynamic batch dim"),
                                  cl::cat(runCategory), cl::init(2));
static cl::opt<int64_t> seqQ("seq-q",
                             cl::desc("Size of a dynamic query length"),
                             cl::cat(runCategory), cl::init(113));
static cl::opt<int64_t> seqK("seq-k", cl::desc("Size of a dynamic key length"),
                             cl::cat(runCategory), cl::init(203));
static cl::opt<float> scaleArgument(
    "scale",
    cl::desc("The value passed to a function's scale_value argument (0: "
             "1/sqrt(D)); functions without one keep their scale"),
    cl::cat(runCategory), cl::init(0.0f));
static cl::opt<int64_t> kvSplitsArgument(
    "kv-splits",
    cl::desc("CPU: the count passed to a function's kv_splits argument (on "
             "the GPU the runtime chooses it at launch)"),
    cl::cat(runCategory), cl::init(3));
static cl::opt<uint64_t> seed("seed", cl::desc("Random seed"),
                              cl::cat(runCategory), cl::init(1));
static cl::opt<bool> raiseInput(
    "raise",
    cl::desc("The input is linalg or TOSA attention graphs: run them raised "
             "by attn-raise-attention at every stage, and as written "
             "(stage 'unraised', lowered by upstream passes)"),
    cl::cat(runCategory), cl::init(false));

namespace {

/// Resolves a possibly dynamic size.
int64_t resolve(int64_t size, int64_t dynamicValue) {
  return ShapedType::isDynamic(size) ? dynamicValue : size;
}

/// Reads the problem a function computes, or explains why it has none.
FailureOr<Problem> problemFromFunction(func::FuncOp func) {
  attn::AttentionOp op;
  int count = 0;
  func.walk([&](attn::AttentionOp found) {
    op = found;
    ++count;
  });
  auto fail = [&](const Twine &why) {
    func.emitError("attnc-run: function @")
        << func.getSymName() << " " << why;
    return failure();
  };
  if (count != 1)
    return fail("must contain exactly one attn.attention (found " +
                Twine(count) + ")");
  // The kernel's inputs are the function's arguments, in the kernel's
  // order (the manifest's names). After them the function may take the
  // attention's scale and kv split count, as the GPU pipeline's kernels do.
  SmallVector<Value> inputs = attn::getKernelInputs(op);
  std::vector<Problem::LaunchArgument> launchArguments;
  for (BlockArgument arg : func.getArguments().drop_front(
           std::min<size_t>(inputs.size(), func.getNumArguments()))) {
    if (arg == op.getScaleValue())
      launchArguments.push_back(Problem::LaunchArgument::Scale);
    else if (arg == op.getKvSplits())
      launchArguments.push_back(Problem::LaunchArgument::KvSplits);
    else
      break;
  }
  ValueRange tensorArguments =
      ValueRange(func.getArguments()).drop_back(launchArguments.size());
  if (tensorArguments != ValueRange(inputs)) {
    // Which input breaks the rule: a view or other op between an argument
    // and the attention (a raised 3-D graph keeps its reshapes), or an
    // argument in another position.
    std::string why;
    llvm::raw_string_ostream os(why);
    ArrayRef<attnc::rt::TensorName> names =
        attn::getKernelInputOrder(op.isPaged(), op.isVarlen());
    for (auto [position, input, name] : llvm::enumerate(inputs, names)) {
      auto arg = dyn_cast<BlockArgument>(input);
      if (arg && arg.getOwner()->getParentOp() == func &&
          arg.getArgNumber() == position)
        continue;
      os << ": " << attnc::rt::toString(name) << " is ";
      if (arg && arg.getOwner()->getParentOp() == func)
        os << "argument #" << arg.getArgNumber() << ", not #" << position;
      else if (Operation *def = input.getDefiningOp())
        os << "computed by " << def->getName()
           << " in the function, not an argument";
      else
        os << "not an argument of the function";
      break;
    }
    if (why.empty())
      os << ": the function has " << func.getNumArguments()
         << " arguments (after them it may take only the attention's "
            "scale_value and kv_splits)";
    return fail("must take exactly the " + Twine(inputs.size()) +
                " arguments (" +
                attn::getKernelInputList(op.isPaged(), op.isVarlen()) +
                ") and pass them to attn.attention as they are, in that "
                "order" +
                why);
  }
  // Every return (a body of several blocks has one per exit) gives back
  // what the attention computed.
  WalkResult returns = func.walk([&](func::ReturnOp ret) {
    return ret.getOperands() == op->getResults() ? WalkResult::advance()
                                                 : WalkResult::interrupt();
  });
  if (returns.wasInterrupted())
    return fail("must return the results of attn.attention");

  Problem p;
  p.function = func.getSymName().str();
  Type el = op.getQuery().getType().getElementType();
  p.dtype = el.isF32() ? ElementType::F32
                       : (el.isBF16() ? ElementType::BF16 : ElementType::F16);
  auto q = op.getLogicalShape(op.getQuery().getType());
  auto k = op.getLogicalShape(op.getKey().getType());
  p.batch = resolve(q[0], batchSize);
  p.headsQ = q[1];
  p.headsKV = op.getNumKVHeads();
  // --seq-q counts each packed head's tokens: its rows are that many per
  // packed query head.
  p.packedQueryHeads = op.getPackedQueryHeads().value_or(1);
  p.seqQ = resolve(q[2], seqQ * p.packedQueryHeads);
  p.seqK = op.isPaged() ? seqK : resolve(k[2], seqK);
  p.headDim = q[3];
  p.valueHeadDim = op.getValueHeadDim();
  p.mask = static_cast<Mask>(op.getMask());
  if (auto window = op.getWindow())
    p.window = std::make_pair((*window)[0], (*window)[1]);
  p.launchArguments = std::move(launchArguments);
  bool takesScale =
      llvm::is_contained(p.launchArguments, Problem::LaunchArgument::Scale);
  p.scale = takesScale && scaleArgument > 0.0f ? float(scaleArgument)
                                               : op.getStaticScale();
  if (auto cap = op.getSoftcap())
    p.softcap = cap->convertToFloat();
  p.bshd = op.getLayout() == attn::Layout::BSHD;
  p.hasLse = op.getLse() != nullptr;
  APInt splits;
  if (Value count = op.getKvSplits();
      count && matchPattern(count, m_ConstantInt(&splits)))
    p.kvSplits = splits.getSExtValue();
  if (llvm::is_contained(p.launchArguments, Problem::LaunchArgument::KvSplits))
    p.kvSplits = kvSplitsArgument;
  if (op.isVarlen()) {
    // Sequences of --seq-q rows and --seq-k keys, then of one row and half
    // the keys, a third of the rows and one key, and none at all, in turn:
    // one much longer than the rest, single tokens, empty sequences. The
    // tensors' sequence dims are the totals; offsets of a static size fix
    // the number of sequences. (makeVarlen, shared with
    // attnc-run-artifact.)
    int64_t offsets = op.getCuSeqlensQ().getType().getDimSize(0);
    p.batch = resolve(offsets, batchSize + 1) - 1;
    makeVarlen(p);
    for (auto [what, size, total] :
         {std::tuple<const char *, int64_t, int64_t>{"query", q[2], p.seqQ},
          {"key", k[2], p.seqK}})
      if (!ShapedType::isDynamic(size) && size != total)
        return fail(Twine("has a static ") + what + " length " + Twine(size) +
                    "; a varlen batch's sequence dims are " +
                    "the generated totals (" + Twine(total) +
                    "): make them dynamic");
  }
  if (op.isPaged()) {
    // Sequences of --seq-k keys, one key and none in turn, the cache just
    // large enough for the longest; the pool has spare pages (the table
    // shuffles them) and a dynamic table one spare column.
    // (pagedCache, shared with attnc-run-artifact.)
    int64_t needed = pagesPerSequence(p, op.getPageSize());
    int64_t columns = op.getBlockTable().getType().getDimSize(1);
    int64_t pool = op.getKey().getType().getDimSize(0);
    Problem::Paged paged =
        pagedCache(p, op.getPageSize(), resolve(columns, needed + 1),
                   resolve(pool, p.batch * needed + 3));
    if (paged.maxPages < needed)
      return fail("has a block_table of " + Twine(paged.maxPages) +
                  " columns, fewer than the " + Twine(needed) +
                  " pages --seq-k=" + Twine(p.seqK) + " needs");
    if (paged.numPages < p.batch * needed)
      return fail("has a pool of " + Twine(paged.numPages) +
                  " pages, fewer than the " + Twine(p.batch * needed) +
                  " its sequences need");
    p.paged = std::move(paged);
  }
  return p;
}

/// 4 * D * (number of visible (query, key) pairs) * batch * heads: the
/// matmul FLOPs the kernel must do (halved for a square causal mask).
double attentionFlops(const Problem &p) {
  double pairs = 0;
  for (int64_t b = 0; b < p.batch; ++b)
    for (int64_t i = 0; i < p.seqQOf(b); ++i)
      for (int64_t j = 0; j < p.seqKOf(b); ++j)
        pairs += keyVisible(p, b, i, j);
  return 2.0 * pairs * (p.headDim + p.valueHeadDim) * p.headsQ;
}

struct Inputs {
  HostTensor q, k, v;
  IndexInputs indices; // empty for a dense problem
  ReferenceResult ref;
};

class Report {
public:
  Report() {
    llvm::outs() << llvm::formatv(
        "{0,-12} {1,-5} {2,-40} {3,-16} {4,-9} {5,9} {6,9} {7,9} {8,6} "
        "{9,9} {10,7}  {11}\n",
        "function", "dtype", "shape", "mask", "stage", "max_abs", "rel_err",
        "lse_err", "empty", "ms", "TFLOP/s", "result");
  }
  void add(const Problem &p, StringRef stage, const DeviceResult &result,
           const ReferenceResult &ref, bool timed) {
    Comparison c = compareWithReference(p, result.output, result.lse, ref);
    bool ok = c.ok(p.dtype);
    std::string tflops = "-";
    if (timed && result.milliseconds > 0)
      tflops = llvm::formatv("{0:f0}", attentionFlops(p) /
                                           (result.milliseconds * 1e-3) / 1e12);
    llvm::outs() << llvm::formatv(
        "{0,-12} {1,-5} {2,-40} {3,-16} {4,-9} {5,9:e2} {6,9:e2} {7,9:e2} "
        "{8,6} {9,9:f3} {10,7}  {11}{12}\n",
        p.function, toString(p.dtype), p.describeShape(), p.describeMask(),
        stage, c.maxAbs, c.relErr, c.lseErr, c.emptyRows, result.milliseconds,
        tflops, ok ? "PASS" : "FAIL",
        c.problem.empty() ? "" : " (" + c.problem + ")");
    ok ? ++passes : ++failures;
  }
  void fail(const Problem &p, StringRef stage, const Twine &why) {
    llvm::outs() << llvm::formatv("{0,-12} {1,-5} {2,-40} {3,-16} {4,-9} ",
                                  p.function, toString(p.dtype),
                                  p.describeShape(), p.describeMask(), stage)
                 << "FAIL (" << why << ")\n";
    ++failures;
  }
  int passes = 0, failures = 0;
};

/// Runs every problem of `module` at every stage on the CPU backend.
void runOnCpuStages(ModuleOp module, ArrayRef<Problem> problems,
                    ArrayRef<Inputs> inputs,
                    ArrayRef<attn::AttnStage> stageList, Report &report) {
  for (attn::AttnStage stage : stageList) {
    attn::AttnPipelineOptions options;
    options.stopAfter = stage;
    options.blockM = blockM;
    options.blockN = blockN;
    std::unique_ptr<ExecutionEngine> engine =
        compileForCpu(module, options, tilePasses);
    std::string label = ("cpu:" + attn::stringifyAttnStage(stage)).str();
    if (!tilePasses.empty())
      label += "+passes";
    for (size_t i = 0; i < problems.size(); ++i) {
      if (!engine) {
        report.fail(problems[i], label, "compilation failed");
        continue;
      }
      auto result = runOnCpu(*engine, problems[i], inputs[i].q, inputs[i].k,
                             inputs[i].v, inputs[i].indices);
      if (!result) {
        report.fail(problems[i], label, llvm::toString(result.takeError()));
        continue;
      }
      report.add(problems[i], label, *result, inputs[i].ref, /*timed=*/false);
    }
  }
}

/// Runs every problem's function of `unraised` (the graphs as written) on
/// the CPU backend, after upstream lowering of what the CPU pipeline leaves.
void runUnraised(ModuleOp unraised, ArrayRef<Problem> problems,
                 ArrayRef<Inputs> inputs, Report &report) {
  std::unique_ptr<ExecutionEngine> engine;
  if (succeeded(lowerUnraised(unraised))) {
    attn::AttnPipelineOptions options;
    options.stopAfter = attn::AttnStage::Graph;
    engine = compileForCpu(unraised, options);
  }
  for (size_t i = 0; i < problems.size(); ++i) {
    if (!engine) {
      report.fail(problems[i], "cpu:unraised", "compilation failed");
      continue;
    }
    auto result = runOnCpu(*engine, problems[i], inputs[i].q, inputs[i].k,
                           inputs[i].v, inputs[i].indices);
    if (!result) {
      report.fail(problems[i], "cpu:unraised",
                  llvm::toString(result.takeError()));
      continue;
    }
    report.add(problems[i], "cpu:unraised", *result, inputs[i].ref,
               /*timed=*/false);
  }
}

/// Compiles each problem's function to an sm_90a kernel and runs it through
/// the runtime; with `fallBackToCpu`, functions the GPU lowering does not
/// support run on the CPU backend instead.
void runOnGpuKernels(ModuleOp module, ArrayRef<Problem> problems,
                     ArrayRef<Inputs> inputs, bool fallBackToCpu,
                     Report &report) {
  for (size_t i = 0; i < problems.size(); ++i) {
    const Problem &p = problems[i];
    OwningOpRef<ModuleOp> single(module.clone());
    for (auto f : llvm::make_early_inc_range(single->getOps<func::FuncOp>()))
      if (f.getSymName() != p.function)
        f.erase();
    attn::AttnPipelineOptions options;
    options.blockM = blockM;
    options.blockN = blockN;
    auto artifacts = attn::compileKernelArtifacts(*single, options);
    if (failed(artifacts)) {
      if (fallBackToCpu)
        runOnCpuStages(*single, {p}, {inputs[i]}, {attn::AttnStage::Split},
                       report);
      else
        report.fail(p, "gpu", "the GPU lowering rejected it (see above)");
      continue;
    }
    SmallString<128> dir;
    if (llvm::sys::fs::createUniqueDirectory("attnc-kernel", dir) ||
        failed(attn::writeKernelArtifact(artifacts->front(), dir,
                                         single->getLoc()))) {
      report.fail(p, "gpu", "cannot write the kernel artifact");
      continue;
    }
    DeviceResult result;
    std::string error;
    bool ran =
        runOnGpu(dir.str().str(), p, inputs[i].q, inputs[i].k, inputs[i].v,
                 timingIterations, result, error, inputs[i].indices);
    llvm::sys::fs::remove_directories(dir);
    if (!ran) {
      report.fail(p, "gpu", error);
      continue;
    }
    report.add(p, "gpu", result, inputs[i].ref, /*timed=*/true);
  }
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    os << "attnc-run " ATTNC_VERSION " (MLIR " << LLVM_VERSION_STRING << ")\n";
  });
  cl::HideUnrelatedOptions(runCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "attnc-run: compile attention graphs, run them, check them against a "
      "float64 reference\n");
  if (backend != "cpu" && backend != "gpu" && backend != "auto") {
    llvm::errs() << "attnc-run: unknown --backend '" << backend
                 << "' (available: cpu, gpu, auto)\n";
    return 2;
  }
  for (auto [flag, value] : {std::pair<const char *, int64_t>{"block-m", blockM},
                             {"block-n", blockN},
                             {"batch", batchSize},
                             {"seq-q", seqQ},
                             {"seq-k", seqK}})
    if (value < 0) {
      llvm::errs() << "attnc-run: --" << flag << " must be >= 0, got "
                   << value << "\n";
      return 2;
    }
  SmallVector<attn::AttnStage> stageList;
  for (StringRef name : llvm::split(stages, ',')) {
    std::optional<attn::AttnStage> stage = attn::parseAttnStage(name.trim());
    if (!stage) {
      llvm::errs() << "attnc-run: unknown stage '" << name
                   << "' (expected graph, tiled, fused or split)\n";
      return 2;
    }
    stageList.push_back(*stage);
  }
  if (!tilePasses.empty()) {
    // The CPU stages run attnc's passes by name.
    attn::registerAttncPasses();
    OpPassManager probe("func.func");
    if (failed(parsePassPipeline(tilePasses, probe))) {
      llvm::errs() << "attnc-run: --tile-passes: '" << tilePasses
                   << "' is not a func.func pass pipeline\n";
      return 2;
    }
  }

  DialectRegistry registry;
  attn::registerAttncCompiler(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  // A diagnostic names the op and the rule; the whole IR would bury it.
  context.printOpOnDiagnostic(false);

  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module;
  if (timingIterations < 0) {
    llvm::errs() << "attnc-run: --iterations must be >= 0, got "
                 << timingIterations << "\n";
    return 2;
  }
  if (!std::isfinite(scaleArgument) || scaleArgument < 0.0f) {
    llvm::errs() << "attnc-run: --scale must be a positive number (or 0 for "
                    "1/sqrt(D)), got "
                 << scaleArgument << "\n";
    return 2;
  }
  // The GPU lowering's bound on a compiled-in count (grid z).
  if (kvSplitsArgument < 1 || kvSplitsArgument > 65535) {
    llvm::errs() << "attnc-run: --kv-splits must be in [1, 65535], got "
                 << kvSplitsArgument << "\n";
    return 2;
  }
  if (sweep.getNumOccurrences() && sweep.empty()) {
    llvm::errs() << "attnc-run: --sweep needs a sweep's name (available: "
                    "ci)\n";
    return 2;
  }
  if (!sweep.empty()) {
    // The sweep generates its problems: an input file would go unread, and
    // so would the options that shape or raise a file's functions.
    if (inputFile.getNumOccurrences()) {
      llvm::errs() << "attnc-run: --sweep=" << sweep
                   << " runs generated problems; drop the input file '"
                   << inputFile << "'\n";
      return 2;
    }
    for (const cl::Option *ignored :
         std::initializer_list<const cl::Option *>{&seqQ, &seqK, &batchSize})
      if (ignored->getNumOccurrences()) {
        llvm::errs() << "attnc-run: --sweep=" << sweep
                     << " runs generated problems of their own sizes; drop --"
                     << ignored->ArgStr << "\n";
        return 2;
      }
    if (raiseInput) {
      llvm::errs() << "attnc-run: --sweep=" << sweep
                   << " generates attn.attention functions, which have "
                      "nothing to raise; drop --raise\n";
      return 2;
    }
    auto generated = sweepProblems(sweep);
    if (!generated) {
      llvm::errs() << "attnc-run: unknown --sweep '" << sweep
                   << "' (available: ci)\n";
      return 2;
    }
    std::string text;
    for (const Problem &p : *generated)
      text += attentionFunctionText(p);
    module = parseSourceString<ModuleOp>(text, &context);
  } else {
    std::string error;
    auto file = openInputFile(inputFile, &error);
    if (!file) {
      llvm::errs() << "attnc-run: " << error << "\n";
      return 1;
    }
    if (failed(attn::checkInputNesting(file->getBuffer(), inputFile)))
      return 1;
    sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
    module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  }
  if (!module)
    return 1;
  if (failed(verify(*module)))
    return 1;
  OwningOpRef<ModuleOp> unraised;
  if (raiseInput) {
    unraised = module->clone();
    if (failed(raiseAttention(*module)))
      return 1;
  }

  std::vector<Problem> problems;
  for (auto func : module->getOps<func::FuncOp>()) {
    if (func.isDeclaration())
      continue;
    FailureOr<Problem> p = problemFromFunction(func);
    if (failed(p))
      return 1;
    problems.push_back(*p);
  }
  if (problems.empty()) {
    llvm::errs() << "attnc-run: no function to run in " << inputFile << "\n";
    return 1;
  }
  bool useGpu = false;
  if (backend != "cpu") {
    if (std::string why = initGpu(); !why.empty()) {
      if (backend == "gpu") {
        llvm::errs() << "attnc-run: --backend=gpu needs a GPU: " << why << "\n";
        return 1;
      }
      llvm::outs() << "backend: cpu (no GPU usable: " << why << ")\n";
    } else {
      useGpu = true;
    }
  }

  // Sizes are checked before anything is allocated.
  for (const Problem &p : problems)
    if (std::string why = hostMemoryError(p, "attnc-run"); !why.empty()) {
      llvm::errs() << why << "\n";
      return 1;
    }

  std::mt19937_64 rng(seed);
  std::vector<Inputs> inputs;
  for (const Problem &p : problems) {
    Inputs in{makeTensor(p.dtype, p.queryShape()),
              makeTensor(p.dtype, p.keyShape()),
              makeTensor(p.dtype, p.valueShape()),
              {},
              {}};
    fillNormal(in.q, rng);
    fillNormal(in.k, rng);
    fillNormal(in.v, rng);
    in.indices = makeIndexInputs(p, rng);
    in.ref = referenceAttention(p, in.q, in.k, in.v, in.indices.blockTable);
    inputs.push_back(std::move(in));
  }
  Report report;
  if (useGpu)
    runOnGpuKernels(*module, problems, inputs, backend == "auto", report);
  else
    runOnCpuStages(*module, problems, inputs, stageList, report);
  if (unraised)
    runUnraised(*unraised, problems, inputs, report);
  llvm::outs() << (useGpu ? "backend: gpu (sm_90a kernels through "
                            "libAttncRuntime)\n"
                          : "backend: cpu (MLIR ExecutionEngine; no GPU used)\n");
  llvm::outs() << report.passes << " passed, " << report.failures
               << " failed\n";
  return report.failures == 0 ? 0 : 1;
}
