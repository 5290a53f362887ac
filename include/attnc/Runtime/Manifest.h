//===- Manifest.h - attnc kernel manifest -----------------------*- C++ -*-===//
//
// The manifest is the contract between the compiler and the runtime: a JSON
// file beside the PTX that says how to launch the kernel (block, cluster,
// shared memory, grid as a function of the problem) and how to build its
// parameters (tensor maps, pointers, scalars). This header holds the data
// structure, a parser with precise errors and a writer (JSON through the
// header-only nlohmann-json, which only Manifest.cpp includes), so that the
// compiler side (which never links CUDA) emits exactly what the runtime reads.
// It must not include cuda.h.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_RUNTIME_MANIFEST_H
#define ATTNC_RUNTIME_MANIFEST_H

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnc::rt {

/// The format tag and the only version this code reads and writes.
inline constexpr const char *kManifestFormat = "attnc-kernel-manifest";
inline constexpr int64_t kManifestVersion = 1;
/// The only target the runtime launches.
inline constexpr const char *kManifestTarget = "sm_90a";

enum class DType { BF16, F16, F32 };
enum class Swizzle { None, B32, B64, B128 };
enum class OobFill { Zero, NaN };
enum class ParamKind { TensorMap, Pointer, I32, F32 };
/// The tensors of an attention call; Lse only as a raw pointer. OPartial and
/// LsePartial (pointers only) are the runtime's workspace for a split-KV
/// artifact (SplitKv): f32 [kv_splits, B, H, Sq, Dv] and [kv_splits, B, H,
/// Sq], contiguous, in the kernel's view (B, H, Sq as the symbols batch,
/// heads_q and seq_q give them). BlockTable and CacheLengths (pointers only)
/// are the index inputs of a paged KV cache (Problem::pageSize): int32
/// [batch, pages_per_seq] and [batch], contiguous. CuSeqlensQ and
/// CuSeqlensK (pointers only) are the cumulative offsets of a varlen batch
/// (Problem::varlen): int32 [batch + 1] each, contiguous.
enum class TensorName {
  Q,
  K,
  V,
  O,
  Lse,
  OPartial,
  LsePartial,
  BlockTable,
  CacheLengths,
  CuSeqlensQ,
  CuSeqlensK
};
/// A logical tensor dimension in BHSD terms. G is a query head within its
/// kv head's group, in the map of a Q or O whose query heads the kernel packs
/// (problem.packed_query_heads = g): H is then the kv head (the caller's
/// head h * g + j is (j, h)), and the map is (d, g, s, h, b).
enum class TensorDim { D, S, H, B, G };
/// Problem quantities that grids and scalar parameters are built from.
enum class Symbol {
  Batch,
  HeadsQ,
  HeadsKv,
  HeadsRatio,
  SeqQ,
  SeqK,
  HeadDim,
  HeadDimV,
  NumSms,
  One,
  /// The launch's kv split count (SplitKv): the artifact's fixed count, or
  /// the runtime's split heuristic's choice; 1 without SplitKv.
  KvSplits,
  /// The block table's columns (block_table.shape[1]); only in a paged
  /// artifact (Problem::pageSize), where seq_k is the capacity
  /// pages_per_seq * page_size.
  PagesPerSeq,
  /// The query rows a CTA of a split artifact's combine kernel merges at
  /// this launch: combineRowsPerCta(kv_splits).
  CombineRows,
  /// The combine kernel's CTAs along the query rows:
  /// ceil_div(seq_q, combine_rows).
  CombineCtas,
  Scale,
  ScaleLog2,
};
/// The number of Symbol values (the last is ScaleLog2).
inline constexpr int kNumSymbols = static_cast<int>(Symbol::ScaleLog2) + 1;

/// log2(e) in f32: kernels use exp2, and the scale_log2 parameter (and the
/// tile IR's exp2 multiplier) is the f32 product scale * kLog2E.
inline constexpr float kLog2E = 1.44269504088896340736f;

/// The warps of a combine CTA (a split artifact's second kernel), and the
/// splits a warp weighs per loop iteration, their loads in flight at once.
inline constexpr int64_t kCombineWarps = 4;
inline constexpr int64_t kCombineSplitsPerStep = 16;
/// The query rows a combine CTA merges for a launch of `splits` kv splits:
/// a row of at most kCombineSplitsPerStep splits (many rows, whose tiles
/// fill the machine) takes a warp, kCombineWarps rows a CTA; a row of more
/// (few rows) takes the CTA's warps, which share its splits.
inline constexpr int64_t combineRowsPerCta(int64_t splits) {
  return splits > kCombineSplitsPerStep ? 1 : kCombineWarps;
}

const char *toString(DType dtype);
const char *toString(Swizzle swizzle);
const char *toString(OobFill fill);
const char *toString(ParamKind kind);
const char *toString(TensorName tensor);
const char *toString(TensorDim dim);
const char *toString(Symbol symbol);
std::optional<DType> parseDType(std::string_view text);
std::optional<Swizzle> parseSwizzle(std::string_view text);
std::optional<OobFill> parseOobFill(std::string_view text);
std::optional<ParamKind> parseParamKind(std::string_view text);
std::optional<TensorName> parseTensorName(std::string_view text);
std::optional<TensorDim> parseTensorDim(std::string_view text);
std::optional<Symbol> parseSymbol(std::string_view text);

/// Whether a paged KV cache of `tokens` per page is one the runtime launches
/// (problem.page_size): a power of two from 16 to 256.
inline bool isSupportedPageSize(int64_t tokens) {
  return tokens >= 16 && tokens <= 256 && (tokens & (tokens - 1)) == 0;
}

/// Bytes per element.
int64_t elementSize(DType dtype);
/// Swizzle span in bytes (0 for none).
int64_t swizzleBytes(Swizzle swizzle);
/// Whether a symbol may appear in a grid product (integers known at launch).
bool isGridSymbol(Symbol symbol);
/// Whether a symbol may be an i32 kernel parameter.
bool isI32Symbol(Symbol symbol);
/// Whether a symbol may be an f32 kernel parameter.
bool isF32Symbol(Symbol symbol);

/// One grid dimension: ceil_div(product of symbols, ceilDiv) plus the sum
/// of the symbols in `plus` (a varlen kernel's query tiles).
struct GridDim {
  std::vector<Symbol> product;
  int64_t ceilDiv = 1;
  std::vector<Symbol> plus;
};

/// What the kernel was compiled for; launches are checked against it.
struct Problem {
  DType dtype = DType::BF16;
  int64_t headDim = 0;
  int64_t headDimV = 0;
  std::string layout = "bhsd"; // bhsd | bshd; informational for the runtime
  std::string mask = "none";   // none | causal; informational for the runtime
  bool gqa = false;
  bool hasLse = false;
  /// Query heads of the caller's Q per head of the kernel's (attn-pack-gqa;
  /// 1: not packed). The kernel computes Hkv heads of g * Nq token-major
  /// rows: its Q and O maps are over (d, g, s, h, b) of the caller's
  /// tensors, and it writes the caller's [B, Hq, Nq] LSE.
  int64_t packedQueryHeads = 1;
  /// Tokens per page of a paged KV cache (problem.page_size: a power of two
  /// in 16..256), or 0: not paged. A paged kernel reads K and V from page
  /// pools, [num_pages, page_size, Hkv, D] in memory and passed as the
  /// logical [num_pages, Hkv, page_size, D] tensors (so the tensor maps of k
  /// and v describe the pool), through the block_table and cache_lengths
  /// pointers.
  int64_t pageSize = 0;
  /// A variable-length batch (problem.varlen; absent: false): Q, K, V and O
  /// pack the batch's sequences without padding in a batch of 1 ([1, Hq,
  /// total_q, D] and [1, Hkv, total_k, D] logically), and sequence b is rows
  /// cu_seqlens_q[b] .. cu_seqlens_q[b + 1] of Q, O and the LSE and rows
  /// cu_seqlens_k[b] .. cu_seqlens_k[b + 1] of K and V; the kernel reads
  /// both offset arrays through the cu_seqlens_q and cu_seqlens_k pointers.
  /// The symbol batch is then the number of sequences (cu_seqlens_q.shape[0]
  /// - 1), seq_q and seq_k the totals.
  bool varlen = false;
};

/// One kernel parameter, in launch order. Which fields matter depends on kind:
/// tensor_map uses tensor/dims/box/swizzle/oobFill, pointer uses tensor,
/// i32 and f32 use value.
struct KernelParam {
  ParamKind kind = ParamKind::I32;
  TensorName tensor = TensorName::Q;
  std::vector<TensorDim> dims; // innermost first
  std::vector<int64_t> box;    // innermost first, same rank as dims
  Swizzle swizzle = Swizzle::None;
  OobFill oobFill = OobFill::Zero;
  Symbol value = Symbol::One;
};

/// How one kernel of the artifact is launched: its entry in the PTX, block,
/// dynamic shared memory, grid and parameters in order.
struct KernelLaunch {
  std::string entry;
  int64_t threadsPerBlock = 0;
  int64_t dynamicSmemBytes = 0;
  std::array<GridDim, 3> grid;
  std::vector<KernelParam> params;
  /// The kernel waits on the GPU for the kernel launched before it
  /// (griddepcontrol.wait) before it reads that kernel's results, so the
  /// runtime may launch it while that kernel still runs (programmatic
  /// stream serialization). Optional in the JSON, false when absent.
  bool programmaticLaunch = false;
};

/// A split-KV artifact (flash-decoding): the attention kernel attends to
/// kv_splits contiguous ranges of every query row's keys and writes each
/// range's normalized f32 O and its LSE into the workspace (o_partial,
/// lse_partial); then the combine kernel merges them exactly into O and LSE.
/// The runtime allocates the workspace on the launch's stream
/// (cuMemAllocAsync), launches both kernels and frees it after them; at one
/// split of an artifact with writesOutputAtOneSplit it launches only the
/// attention kernel, which writes O and the LSE.
struct SplitKv {
  /// The split count compiled into the kernels (at least 2), or 0: the
  /// runtime chooses it at each launch from the lengths (docs/Runtime.md's
  /// split heuristic).
  int64_t splits = 0;
  /// Keys per kv block: the unit the split heuristic divides seq_k into.
  int64_t kvBlock = 0;
  /// At a launch of one split the attention kernel writes O and the LSE
  /// itself (it takes the O tensor map and, with has_lse, the lse pointer),
  /// and the runtime launches no combine kernel and needs no workspace.
  /// Optional in the JSON, false when absent; a runtime that does not know
  /// the key refuses the artifact instead of combining partials never
  /// written.
  bool writesOutputAtOneSplit = false;
  KernelLaunch combine;
};

/// A compile option, recorded for reproducibility; the runtime ignores it.
struct CompileOption {
  std::string name;
  std::string value;     // JSON text of a number/bool/null, or a string's text
  bool isString = false; // whether value is a JSON string
};

struct Manifest {
  std::string format = kManifestFormat;
  int64_t version = kManifestVersion;
  std::string attncVersion;
  std::string target = kManifestTarget;
  std::string entry;
  std::string ptx;   // file name beside the manifest
  std::string cubin; // optional file name beside the manifest; empty if none
  int64_t threadsPerBlock = 0;
  std::array<int64_t, 3> cluster = {1, 1, 1};
  int64_t dynamicSmemBytes = 0;
  std::array<GridDim, 3> grid;
  Problem problem;
  int64_t alignmentBytes = 16;
  std::vector<KernelParam> params;
  /// Present for a split-KV artifact; the top-level entry is then the
  /// attention kernel that writes the partials.
  std::optional<SplitKv> splitKv;
  std::vector<CompileOption> options;
};

/// Parses a manifest and validates it (validateManifest). On failure returns
/// false and sets `error` to "<source>: <key path>: <what was expected, what
/// was found>" or, for JSON syntax, "<source>:<line>:<column>: <what>"; with
/// an empty `sourceName` the "<source>" part and its separator are left out.
bool parseManifest(std::string_view json, Manifest &out, std::string &error,
                   std::string_view sourceName = {});

/// The largest artifact file readArtifactFile reads: 64 MiB, far above
/// any kernel's PTX.
inline constexpr std::uintmax_t kMaxArtifactFileBytes = 64u << 20;

/// Reads an artifact's file (its manifest, PTX or cubin) into `out`. On
/// failure returns false and sets `error` to "cannot read '<path>': <why>"
/// (a directory, a FIFO or device, and a file over kMaxArtifactFileBytes are
/// refused, not read).
bool readArtifactFile(const std::string &path, std::string &out,
                      std::string &error);

/// Whether the attention kernel's params pass O in the kind it writes it
/// (a tensor map; a varlen kernel's pointer, its rows ending at its
/// sequence's): a split-KV kernel takes it only to write O itself at one
/// split (`split_kv.writes_output_at_one_split`).
bool takesOutput(const Manifest &manifest);

/// Checks what the types alone do not: ranges, consistency between params and
/// the problem, and the TMA rules that can be checked without a tensor. Does
/// not need a device. Errors use the same key paths as the parser.
bool validateManifest(const Manifest &manifest, std::string &error);

/// Writes the manifest as indented JSON with keys in schema order. The output
/// parses back to an equal manifest.
std::string toJson(const Manifest &manifest);

} // namespace attnc::rt

#endif // ATTNC_RUNTIME_MANIFEST_H
