//===- Manifest.cpp - attnc kernel manifest parser and writer ---*- C++ -*-===//
//
// JSON through nlohmann-json (header-only; its SAX parser, driven without
// exceptions, with a linear duplicate-key check and a depth limit) and the
// mapping between its values and attnc::rt::Manifest. Errors name the key path
// ("params[3].box[1]") and what was expected, so a bad artifact is fixed from
// the message alone.
//
//===----------------------------------------------------------------------===//

#include "attnc/Runtime/Manifest.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <sstream>
#include <unordered_set>

using namespace attnc::rt;

//===----------------------------------------------------------------------===//
// Enum names
//===----------------------------------------------------------------------===//

namespace {
template <typename E> struct EnumName {
  E value;
  const char *name;
};

constexpr EnumName<DType> kDTypes[] = {
    {DType::BF16, "bf16"}, {DType::F16, "f16"}, {DType::F32, "f32"}};
constexpr EnumName<Swizzle> kSwizzles[] = {{Swizzle::None, "none"},
                                           {Swizzle::B32, "32B"},
                                           {Swizzle::B64, "64B"},
                                           {Swizzle::B128, "128B"}};
constexpr EnumName<OobFill> kOobFills[] = {{OobFill::Zero, "zero"},
                                           {OobFill::NaN, "nan"}};
constexpr EnumName<ParamKind> kParamKinds[] = {
    {ParamKind::TensorMap, "tensor_map"},
    {ParamKind::Pointer, "pointer"},
    {ParamKind::I32, "i32"},
    {ParamKind::F32, "f32"}};
constexpr EnumName<TensorName> kTensorNames[] = {
    {TensorName::Q, "q"},
    {TensorName::K, "k"},
    {TensorName::V, "v"},
    {TensorName::O, "o"},
    {TensorName::Lse, "lse"},
    {TensorName::OPartial, "o_partial"},
    {TensorName::LsePartial, "lse_partial"},
    {TensorName::BlockTable, "block_table"},
    {TensorName::CacheLengths, "cache_lengths"},
    {TensorName::CuSeqlensQ, "cu_seqlens_q"},
    {TensorName::CuSeqlensK, "cu_seqlens_k"}};
constexpr EnumName<TensorDim> kTensorDims[] = {{TensorDim::D, "d"},
                                               {TensorDim::S, "s"},
                                               {TensorDim::H, "h"},
                                               {TensorDim::B, "b"},
                                               {TensorDim::G, "g"}};
constexpr EnumName<Symbol> kSymbols[] = {{Symbol::Batch, "batch"},
                                         {Symbol::HeadsQ, "heads_q"},
                                         {Symbol::HeadsKv, "heads_kv"},
                                         {Symbol::HeadsRatio, "heads_ratio"},
                                         {Symbol::SeqQ, "seq_q"},
                                         {Symbol::SeqK, "seq_k"},
                                         {Symbol::HeadDim, "head_dim"},
                                         {Symbol::HeadDimV, "head_dim_v"},
                                         {Symbol::NumSms, "num_sms"},
                                         {Symbol::One, "one"},
                                         {Symbol::KvSplits, "kv_splits"},
                                         {Symbol::PagesPerSeq, "pages_per_seq"},
                                         {Symbol::CombineRows, "combine_rows"},
                                         {Symbol::CombineCtas, "combine_ctas"},
                                         {Symbol::Scale, "scale"},
                                         {Symbol::ScaleLog2, "scale_log2"}};

template <typename E, size_t N>
const char *nameOf(const EnumName<E> (&table)[N], E value) {
  for (const EnumName<E> &entry : table)
    if (entry.value == value)
      return entry.name;
  return "?";
}

template <typename E, size_t N>
std::optional<E> valueOf(const EnumName<E> (&table)[N], std::string_view text) {
  for (const EnumName<E> &entry : table)
    if (text == entry.name)
      return entry.value;
  return std::nullopt;
}

/// "a, b or c" for error messages, filtered by `keep`.
template <typename E, size_t N, typename Pred>
std::string listNames(const EnumName<E> (&table)[N], Pred keep) {
  std::vector<const char *> names;
  for (const EnumName<E> &entry : table)
    if (keep(entry.value))
      names.push_back(entry.name);
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i)
      out += i + 1 == names.size() ? " or " : ", ";
    out += names[i];
  }
  return out;
}
template <typename E, size_t N>
std::string listNames(const EnumName<E> (&table)[N]) {
  return listNames(table, [](E) { return true; });
}
} // namespace

const char *attnc::rt::toString(DType v) { return nameOf(kDTypes, v); }
const char *attnc::rt::toString(Swizzle v) { return nameOf(kSwizzles, v); }
const char *attnc::rt::toString(OobFill v) { return nameOf(kOobFills, v); }
const char *attnc::rt::toString(ParamKind v) { return nameOf(kParamKinds, v); }
const char *attnc::rt::toString(TensorName v) {
  return nameOf(kTensorNames, v);
}
const char *attnc::rt::toString(TensorDim v) { return nameOf(kTensorDims, v); }
const char *attnc::rt::toString(Symbol v) { return nameOf(kSymbols, v); }

std::optional<DType> attnc::rt::parseDType(std::string_view t) {
  return valueOf(kDTypes, t);
}
std::optional<Swizzle> attnc::rt::parseSwizzle(std::string_view t) {
  return valueOf(kSwizzles, t);
}
std::optional<OobFill> attnc::rt::parseOobFill(std::string_view t) {
  return valueOf(kOobFills, t);
}
std::optional<ParamKind> attnc::rt::parseParamKind(std::string_view t) {
  return valueOf(kParamKinds, t);
}
std::optional<TensorName> attnc::rt::parseTensorName(std::string_view t) {
  return valueOf(kTensorNames, t);
}
std::optional<TensorDim> attnc::rt::parseTensorDim(std::string_view t) {
  return valueOf(kTensorDims, t);
}
std::optional<Symbol> attnc::rt::parseSymbol(std::string_view t) {
  return valueOf(kSymbols, t);
}

int64_t attnc::rt::elementSize(DType dtype) {
  return dtype == DType::F32 ? 4 : 2;
}

int64_t attnc::rt::swizzleBytes(Swizzle swizzle) {
  switch (swizzle) {
  case Swizzle::None:
    return 0;
  case Swizzle::B32:
    return 32;
  case Swizzle::B64:
    return 64;
  case Swizzle::B128:
    return 128;
  }
  return 0;
}

bool attnc::rt::isGridSymbol(Symbol s) {
  return s != Symbol::Scale && s != Symbol::ScaleLog2;
}
bool attnc::rt::isI32Symbol(Symbol s) {
  return isGridSymbol(s) && s != Symbol::One;
}
bool attnc::rt::isF32Symbol(Symbol s) {
  return s == Symbol::Scale || s == Symbol::ScaleLog2;
}

//===----------------------------------------------------------------------===//
// JSON reader
//===----------------------------------------------------------------------===//

namespace {
/// The parsed document. nlohmann-json tokenizes and checks the syntax; its SAX
/// events build this tree rather than a nlohmann::json because the reader
/// needs what neither DOM keeps at once: keys in document order (ordered_json
/// inserts in quadratic time, json sorts them), a linear duplicate-key check,
/// and the source text of numbers ("1e39", "384.0") for error messages and
/// compile options.
struct JsonValue {
  enum class Kind { Null, Bool, Number, String, Array, Object };
  Kind kind = Kind::Null;
  bool boolean = false;
  std::string text;       // string contents, or a number's source text
  bool isInteger = false; // number without fraction/exponent that fits int64
  int64_t integer = 0;
  std::vector<JsonValue> elements; // array elements, or object values
  std::vector<std::string> keys;   // object keys, parallel to elements
};

/// nlohmann SAX handler that builds a JsonValue. Returning false from an event
/// stops the parse; the handler then holds the error.
class JsonBuilder {
public:
  using Json = nlohmann::json;

  explicit JsonBuilder(JsonValue &root) : root(root) {}

  /// "<line>:<column>: <what>" for syntax errors, "<key path>: <what>" for
  /// duplicate keys and nesting.
  std::string error;

  bool null() { return add(JsonValue()); }
  bool boolean(bool value) {
    JsonValue v;
    v.kind = JsonValue::Kind::Bool;
    v.boolean = value;
    return add(std::move(v));
  }
  bool number_integer(Json::number_integer_t value) {
    return add(integer(value, std::to_string(value)));
  }
  bool number_unsigned(Json::number_unsigned_t value) {
    if (value > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      return add(number(std::to_string(value)));
    return add(integer(static_cast<int64_t>(value), std::to_string(value)));
  }
  bool number_float(Json::number_float_t, const Json::string_t &source) {
    return add(number(source));
  }
  bool string(Json::string_t &value) {
    JsonValue v;
    v.kind = JsonValue::Kind::String;
    v.text = std::move(value);
    return add(std::move(v));
  }
  bool binary(Json::binary_t &) { return fail("unexpected binary value"); }
  bool start_object(std::size_t) { return open(JsonValue::Kind::Object); }
  bool key(Json::string_t &key) {
    Frame &frame = stack.back();
    if (!frame.seen.insert(key).second)
      return fail(path(&key) + ": duplicate key");
    frame.pendingKey = std::move(key);
    return true;
  }
  bool end_object() { return close(); }
  bool start_array(std::size_t) { return open(JsonValue::Kind::Array); }
  bool end_array() { return close(); }
  bool parse_error(std::size_t, const std::string &,
                   const nlohmann::detail::exception &ex) {
    // "[json.exception.parse_error.101] parse error at line 3, column 7: ..."
    std::string what = ex.what();
    unsigned line = 0, column = 0;
    size_t at = what.find(" at line ");
    size_t colon = what.find(": ", at == std::string::npos ? 0 : at);
    if (at != std::string::npos && colon != std::string::npos &&
        std::sscanf(what.c_str() + at, " at line %u, column %u", &line,
                    &column) == 2)
      error = std::to_string(line) + ":" + std::to_string(column) + ": " +
              what.substr(colon + 2);
    else
      error = what;
    return false;
  }

private:
  static constexpr size_t kMaxDepth = 64;
  struct Frame {
    JsonValue value;
    std::string pendingKey;               // objects: the key being read
    std::unordered_set<std::string> seen; // objects: keys so far
  };
  JsonValue &root;
  std::vector<Frame> stack;

  static JsonValue number(std::string source) {
    JsonValue v;
    v.kind = JsonValue::Kind::Number;
    v.text = std::move(source);
    return v;
  }
  static JsonValue integer(int64_t value, std::string source) {
    JsonValue v = number(std::move(source));
    v.isInteger = true;
    v.integer = value;
    return v;
  }

  bool fail(std::string message) {
    error = std::move(message);
    return false;
  }

  /// The key path of the value being read ("params[3].box"), or of `key` in
  /// the innermost object when given.
  std::string path(const std::string *key = nullptr) const {
    std::string out;
    for (size_t i = 0; i < stack.size(); ++i) {
      const Frame &frame = stack[i];
      bool last = i + 1 == stack.size();
      if (frame.value.kind == JsonValue::Kind::Array) {
        out += "[" + std::to_string(frame.value.elements.size()) + "]";
        continue;
      }
      const std::string &name = last && key ? *key : frame.pendingKey;
      out += (out.empty() ? "" : ".") + name;
    }
    return out.empty() ? "(top level)" : out;
  }

  bool add(JsonValue value) {
    if (stack.empty()) {
      root = std::move(value);
      return true;
    }
    Frame &frame = stack.back();
    if (frame.value.kind == JsonValue::Kind::Object)
      frame.value.keys.push_back(std::move(frame.pendingKey));
    frame.value.elements.push_back(std::move(value));
    return true;
  }

  bool open(JsonValue::Kind kind) {
    if (stack.size() >= kMaxDepth)
      return fail(path() + ": values nested deeper than " +
                  std::to_string(kMaxDepth) + " levels");
    stack.emplace_back();
    stack.back().value.kind = kind;
    return true;
  }

  bool close() {
    JsonValue value = std::move(stack.back().value);
    stack.pop_back();
    return add(std::move(value));
  }
};

//===----------------------------------------------------------------------===//
// JSON -> Manifest
//===----------------------------------------------------------------------===//

/// `text` from the manifest as a JSON string literal, for messages: control
/// characters (a NUL would end the C ABI's error string) are escaped and
/// bytes that are not UTF-8 replaced.
std::string jsonQuoted(const std::string &text) {
  return nlohmann::json(text).dump(-1, ' ', /*ensure_ascii=*/false,
                                   nlohmann::json::error_handler_t::replace);
}

std::string describe(const JsonValue &v) {
  switch (v.kind) {
  case JsonValue::Kind::Null:
    return "null";
  case JsonValue::Kind::Bool:
    return v.boolean ? "a boolean (true)" : "a boolean (false)";
  case JsonValue::Kind::Number:
    return (v.isInteger ? "an integer (" : "a number (") + v.text + ")";
  case JsonValue::Kind::String:
    return "a string (" + jsonQuoted(v.text) + ")";
  case JsonValue::Kind::Array:
    return "an array";
  case JsonValue::Kind::Object:
    return "an object";
  }
  return "?";
}

/// The key path of `key` in the object at `path` ("" for the top level).
std::string join(const std::string &path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}

/// Reads typed members out of JSON objects; every failure records the key
/// path of the offending value.
class ManifestReader {
public:
  explicit ManifestReader(std::string &error) : error(error) {}

  bool fail(const std::string &path, const std::string &message) {
    error = path + ": " + message;
    return false;
  }

  static std::string index(const std::string &path, size_t i) {
    return path + "[" + std::to_string(i) + "]";
  }

  /// The member `key` of `obj`, or null (and an error when required).
  const JsonValue *member(const JsonValue &obj, const std::string &path,
                          std::string_view key, bool required = true) {
    for (size_t i = 0; i < obj.keys.size(); ++i)
      if (obj.keys[i] == key)
        return &obj.elements[i];
    if (required)
      fail(join(path, key), "required key is missing");
    return nullptr;
  }

  bool checkKeys(const JsonValue &obj, const std::string &path,
                 std::initializer_list<const char *> allowed) {
    for (const std::string &key : obj.keys) {
      if (std::find_if(allowed.begin(), allowed.end(), [&](const char *a) {
            return key == a;
          }) != allowed.end())
        continue;
      std::string list;
      for (const char *a : allowed)
        list += (list.empty() ? "" : ", ") + std::string(a);
      return fail(join(path, key), "unknown key; expected one of " + list);
    }
    return true;
  }

  bool expectKind(const JsonValue &v, JsonValue::Kind kind,
                  const std::string &path) {
    if (v.kind == kind)
      return true;
    static const char *const names[] = {"null",     "a boolean", "a number",
                                        "a string", "an array",  "an object"};
    return fail(path, std::string("expected ") + names[static_cast<int>(kind)] +
                          ", found " + describe(v));
  }

  bool asObject(const JsonValue &v, const std::string &path) {
    return expectKind(v, JsonValue::Kind::Object, path);
  }

  bool asInt(const JsonValue &v, const std::string &path, int64_t &out) {
    if (v.kind != JsonValue::Kind::Number || !v.isInteger)
      return fail(path, "expected an integer, found " + describe(v));
    out = v.integer;
    return true;
  }

  bool asString(const JsonValue &v, const std::string &path, std::string &out) {
    if (!expectKind(v, JsonValue::Kind::String, path))
      return false;
    out = v.text;
    return true;
  }

  bool readInt(const JsonValue &obj, const std::string &path,
               std::string_view key, int64_t &out) {
    const JsonValue *v = member(obj, path, key);
    return v && asInt(*v, join(path, key), out);
  }

  bool readString(const JsonValue &obj, const std::string &path,
                  std::string_view key, std::string &out) {
    const JsonValue *v = member(obj, path, key);
    return v && asString(*v, join(path, key), out);
  }

  bool readBool(const JsonValue &obj, const std::string &path,
                std::string_view key, bool &out) {
    const JsonValue *v = member(obj, path, key);
    if (!v || !expectKind(*v, JsonValue::Kind::Bool, join(path, key)))
      return false;
    out = v->boolean;
    return true;
  }

  /// Reads a string member naming one entry of an enum table.
  template <typename E, size_t N>
  bool readEnum(const JsonValue &obj, const std::string &path,
                std::string_view key, const EnumName<E> (&table)[N],
                const char *what, E &out) {
    const JsonValue *v = member(obj, path, key);
    return v && enumValue(*v, join(path, key), table, what, out);
  }

  template <typename E, size_t N>
  bool enumValue(const JsonValue &v, const std::string &path,
                 const EnumName<E> (&table)[N], const char *what, E &out) {
    std::string text;
    if (!asString(v, path, text))
      return false;
    std::optional<E> value = valueOf(table, text);
    if (!value)
      return fail(path, std::string("unknown ") + what + " " +
                            jsonQuoted(text) + "; expected " +
                            listNames(table));
    out = *value;
    return true;
  }

  /// Reads an array member, with an exact size when `size` is non-zero.
  const JsonValue *readArray(const JsonValue &obj, const std::string &path,
                             std::string_view key, size_t size = 0) {
    const JsonValue *v = member(obj, path, key);
    if (!v || !expectKind(*v, JsonValue::Kind::Array, join(path, key)))
      return nullptr;
    if (size && v->elements.size() != size) {
      fail(join(path, key), "expected an array of " + std::to_string(size) +
                                " entries, found " +
                                std::to_string(v->elements.size()));
      return nullptr;
    }
    return v;
  }

  bool readManifest(const JsonValue &root, Manifest &m);

private:
  std::string &error;

  bool readGrid(const JsonValue &obj, const std::string &path,
                std::array<GridDim, 3> &grid);
  bool readSymbols(const JsonValue &obj, const std::string &path,
                   std::string_view key, std::vector<Symbol> &out);
  bool readProblem(const JsonValue &root, Problem &p);
  bool readPackedQueryHeads(const JsonValue &problem, const std::string &path,
                            Problem &p);
  bool readPageSize(const JsonValue &problem, const std::string &path,
                    Problem &p);
  bool readVarlen(const JsonValue &problem, const std::string &path,
                  Problem &p);
  bool readParams(const JsonValue &obj, const std::string &path,
                  std::vector<KernelParam> &params);
  bool readParam(const JsonValue &v, const std::string &path, KernelParam &p);
  bool readSplitKv(const JsonValue &root, std::optional<SplitKv> &out);
  bool readKernelLaunch(const JsonValue &v, const std::string &path,
                        KernelLaunch &k);
  bool readOptions(const JsonValue &v, std::vector<CompileOption> &options);
};

bool ManifestReader::readManifest(const JsonValue &root, Manifest &m) {
  if (root.kind != JsonValue::Kind::Object)
    return fail("(top level)", "expected an object, found " + describe(root));

  // Identity first: a manifest of another format or version may use other
  // keys, and its own mismatch is the error worth reporting.
  if (!readString(root, "", "format", m.format))
    return false;
  if (m.format != kManifestFormat)
    return fail("format", "found " + jsonQuoted(m.format) + ", expected \"" +
                              kManifestFormat + "\"");
  if (!readInt(root, "", "version", m.version))
    return false;
  if (m.version != kManifestVersion)
    return fail("version",
                "found " + std::to_string(m.version) + ", expected " +
                    std::to_string(kManifestVersion) + " (this runtime reads " +
                    kManifestFormat + " version " +
                    std::to_string(kManifestVersion) + ")");
  if (!checkKeys(root, "",
                 {"format", "version", "attnc_version", "target", "entry",
                  "ptx", "cubin", "threads_per_block", "cluster",
                  "dynamic_smem_bytes", "grid", "problem", "alignment_bytes",
                  "params", "split_kv", "options"}))
    return false;
  // Likewise the target: an artifact for another arch is not worth reading on.
  if (!readString(root, "", "target", m.target))
    return false;
  if (m.target != kManifestTarget)
    return fail("target", "found " + jsonQuoted(m.target) + ", expected \"" +
                              kManifestTarget +
                              "\" (the runtime launches only sm_90a kernels)");
  if (!readString(root, "", "attnc_version", m.attncVersion) ||
      !readString(root, "", "entry", m.entry) ||
      !readString(root, "", "ptx", m.ptx))
    return false;
  m.cubin.clear();
  if (const JsonValue *cubin = member(root, "", "cubin", /*required=*/false))
    if (!asString(*cubin, "cubin", m.cubin))
      return false;
  if (!readInt(root, "", "threads_per_block", m.threadsPerBlock))
    return false;
  const JsonValue *cluster = readArray(root, "", "cluster", 3);
  if (!cluster)
    return false;
  for (size_t i = 0; i < 3; ++i)
    if (!asInt(cluster->elements[i], index("cluster", i), m.cluster[i]))
      return false;
  if (!readInt(root, "", "dynamic_smem_bytes", m.dynamicSmemBytes) ||
      !readGrid(root, "", m.grid) || !readProblem(root, m.problem) ||
      !readInt(root, "", "alignment_bytes", m.alignmentBytes) ||
      !readParams(root, "", m.params) || !readSplitKv(root, m.splitKv))
    return false;

  m.options.clear();
  if (const JsonValue *options = member(root, "", "options", false))
    if (!readOptions(*options, m.options))
      return false;
  return true;
}

/// The 3 grid dims at `obj`.grid (`objPath` is obj's key path).
bool ManifestReader::readGrid(const JsonValue &obj, const std::string &objPath,
                              std::array<GridDim, 3> &out) {
  const JsonValue *grid = readArray(obj, objPath, "grid", 3);
  if (!grid)
    return false;
  for (size_t i = 0; i < 3; ++i) {
    std::string path = index(join(objPath, "grid"), i);
    const JsonValue &entry = grid->elements[i];
    if (!asObject(entry, path) ||
        !checkKeys(entry, path, {"product", "ceil_div", "plus"}))
      return false;
    GridDim &dim = out[i];
    if (!readSymbols(entry, path, "product", dim.product))
      return false;
    dim.ceilDiv = 1;
    if (const JsonValue *ceilDiv = member(entry, path, "ceil_div", false))
      if (!asInt(*ceilDiv, join(path, "ceil_div"), dim.ceilDiv))
        return false;
    // Optional: the symbols added to ceil_div(product, ceil_div) (a varlen
    // kernel's query tiles). An explicit empty list is refused here, where
    // it differs from an absent key (toJson leaves an empty one out).
    dim.plus.clear();
    if (member(entry, path, "plus", false)) {
      if (!readSymbols(entry, path, "plus", dim.plus))
        return false;
      if (dim.plus.empty())
        return fail(join(path, "plus"),
                    "is empty; leave it out for a grid dim without a sum");
    }
  }
  return true;
}

/// The array of symbol names at `obj`.`key`.
bool ManifestReader::readSymbols(const JsonValue &obj, const std::string &path,
                                 std::string_view key,
                                 std::vector<Symbol> &out) {
  const JsonValue *list = readArray(obj, path, key);
  if (!list)
    return false;
  out.assign(list->elements.size(), Symbol::One);
  for (size_t j = 0; j < out.size(); ++j)
    if (!enumValue(list->elements[j], index(join(path, key), j), kSymbols,
                   "symbol", out[j]))
      return false;
  return true;
}

bool ManifestReader::readProblem(const JsonValue &root, Problem &p) {
  const JsonValue *problem = member(root, "", "problem");
  const std::string path = "problem";
  return problem && asObject(*problem, path) &&
         checkKeys(*problem, path,
                   {"dtype", "head_dim", "head_dim_v", "layout", "mask", "gqa",
                    "has_lse", "packed_query_heads", "page_size", "varlen"}) &&
         readEnum(*problem, path, "dtype", kDTypes, "dtype", p.dtype) &&
         readInt(*problem, path, "head_dim", p.headDim) &&
         readInt(*problem, path, "head_dim_v", p.headDimV) &&
         readString(*problem, path, "layout", p.layout) &&
         readString(*problem, path, "mask", p.mask) &&
         readBool(*problem, path, "gqa", p.gqa) &&
         readBool(*problem, path, "has_lse", p.hasLse) &&
         readPackedQueryHeads(*problem, path, p) &&
         readPageSize(*problem, path, p) && readVarlen(*problem, path, p);
}

bool ManifestReader::readVarlen(const JsonValue &problem,
                                const std::string &path, Problem &p) {
  p.varlen = false;
  const JsonValue *v = member(problem, path, "varlen", false);
  if (!v)
    return true;
  if (!expectKind(*v, JsonValue::Kind::Bool, join(path, "varlen")))
    return false;
  p.varlen = v->boolean;
  return true;
}

bool ManifestReader::readPageSize(const JsonValue &problem,
                                  const std::string &path, Problem &p) {
  p.pageSize = 0;
  const JsonValue *v = member(problem, path, "page_size", false);
  if (!v)
    return true;
  const std::string key = join(path, "page_size");
  if (!asInt(*v, key, p.pageSize))
    return false;
  // An explicit 0 is refused here, where it differs from an absent key (0
  // means "not paged" in Problem); the range is checked in validateManifest.
  if (p.pageSize == 0)
    return fail(key, "is 0; leave it out for a dense (not paged) KV cache");
  return true;
}

bool ManifestReader::readPackedQueryHeads(const JsonValue &problem,
                                          const std::string &path, Problem &p) {
  const JsonValue *v = member(problem, path, "packed_query_heads", false);
  if (!v)
    return true;
  const std::string key = join(path, "packed_query_heads");
  // An explicit 1 is refused here, where it differs from an absent key; what
  // the packing needs of the rest of the problem is checked in
  // validateManifest, which the #attn.kernel_abi verifier runs too.
  if (!asInt(*v, key, p.packedQueryHeads))
    return false;
  if (p.packedQueryHeads < 2)
    return fail(key, "is " + std::to_string(p.packedQueryHeads) +
                         "; a packed head holds at least 2 query heads "
                         "(leave it out for an unpacked kernel)");
  return true;
}

/// The kernel parameters at `obj`.params (`path` is obj's key path).
bool ManifestReader::readParams(const JsonValue &obj, const std::string &path,
                                std::vector<KernelParam> &out) {
  const JsonValue *params = readArray(obj, path, "params");
  if (!params)
    return false;
  out.assign(params->elements.size(), KernelParam());
  for (size_t i = 0; i < out.size(); ++i)
    if (!readParam(params->elements[i], index(join(path, "params"), i), out[i]))
      return false;
  return true;
}

bool ManifestReader::readParam(const JsonValue &v, const std::string &path,
                               KernelParam &p) {
  if (!asObject(v, path))
    return false;
  const JsonValue *kind = member(v, path, "kind");
  if (!kind)
    return false;
  std::string kindText;
  if (!asString(*kind, join(path, "kind"), kindText))
    return false;
  std::optional<ParamKind> parsed = parseParamKind(kindText);
  if (!parsed)
    return fail(join(path, "kind"), "unknown parameter kind " +
                                        jsonQuoted(kindText) + "; expected " +
                                        listNames(kParamKinds));
  p.kind = *parsed;

  switch (p.kind) {
  case ParamKind::TensorMap: {
    if (!checkKeys(v, path,
                   {"kind", "tensor", "dims", "box", "swizzle", "oob_fill"}) ||
        !readEnum(v, path, "tensor", kTensorNames, "tensor", p.tensor))
      return false;
    const JsonValue *dims = readArray(v, path, "dims");
    if (!dims)
      return false;
    p.dims.assign(dims->elements.size(), TensorDim::D);
    for (size_t i = 0; i < p.dims.size(); ++i)
      if (!enumValue(dims->elements[i], index(join(path, "dims"), i),
                     kTensorDims, "tensor dim", p.dims[i]))
        return false;
    const JsonValue *box = readArray(v, path, "box");
    if (!box)
      return false;
    p.box.assign(box->elements.size(), 0);
    for (size_t i = 0; i < p.box.size(); ++i)
      if (!asInt(box->elements[i], index(join(path, "box"), i), p.box[i]))
        return false;
    return readEnum(v, path, "swizzle", kSwizzles, "swizzle", p.swizzle) &&
           readEnum(v, path, "oob_fill", kOobFills, "oob_fill", p.oobFill);
  }
  case ParamKind::Pointer:
    return checkKeys(v, path, {"kind", "tensor"}) &&
           readEnum(v, path, "tensor", kTensorNames, "tensor", p.tensor);
  case ParamKind::I32:
  case ParamKind::F32:
    return checkKeys(v, path, {"kind", "value"}) &&
           readEnum(v, path, "value", kSymbols, "value", p.value);
  }
  return true;
}

/// The optional split_kv object; `out` is left empty without one.
bool ManifestReader::readSplitKv(const JsonValue &root,
                                 std::optional<SplitKv> &out) {
  out.reset();
  const JsonValue *v = member(root, "", "split_kv", /*required=*/false);
  if (!v)
    return true;
  const std::string path = "split_kv";
  SplitKv &split = out.emplace();
  if (!asObject(*v, path) ||
      !checkKeys(
          *v, path,
          {"splits", "kv_block", "writes_output_at_one_split", "combine"}) ||
      !readInt(*v, path, "splits", split.splits) ||
      !readInt(*v, path, "kv_block", split.kvBlock))
    return false;
  split.writesOutputAtOneSplit = false;
  if (member(*v, path, "writes_output_at_one_split", /*required=*/false) &&
      !readBool(*v, path, "writes_output_at_one_split",
                split.writesOutputAtOneSplit))
    return false;
  const JsonValue *combine = member(*v, path, "combine");
  return combine &&
         readKernelLaunch(*combine, join(path, "combine"), split.combine);
}

/// A kernel of the artifact besides the top-level one (split_kv.combine).
bool ManifestReader::readKernelLaunch(const JsonValue &v,
                                      const std::string &path,
                                      KernelLaunch &k) {
  if (!asObject(v, path) ||
      !checkKeys(v, path,
                 {"entry", "threads_per_block", "dynamic_smem_bytes", "grid",
                  "params", "programmatic_launch"}) ||
      !readString(v, path, "entry", k.entry) ||
      !readInt(v, path, "threads_per_block", k.threadsPerBlock) ||
      !readInt(v, path, "dynamic_smem_bytes", k.dynamicSmemBytes) ||
      !readGrid(v, path, k.grid) || !readParams(v, path, k.params))
    return false;
  k.programmaticLaunch = false;
  return !member(v, path, "programmatic_launch", /*required=*/false) ||
         readBool(v, path, "programmatic_launch", k.programmaticLaunch);
}

bool ManifestReader::readOptions(const JsonValue &v,
                                 std::vector<CompileOption> &options) {
  if (!asObject(v, "options"))
    return false;
  for (size_t i = 0; i < v.keys.size(); ++i) {
    const JsonValue &value = v.elements[i];
    CompileOption option;
    option.name = v.keys[i];
    switch (value.kind) {
    case JsonValue::Kind::Null:
      option.value = "null";
      break;
    case JsonValue::Kind::Bool:
      option.value = value.boolean ? "true" : "false";
      break;
    case JsonValue::Kind::Number:
      option.value = value.text;
      break;
    case JsonValue::Kind::String:
      option.value = value.text;
      option.isString = true;
      break;
    default:
      return fail(join("options", v.keys[i]),
                  "expected a number, string, boolean or null, found " +
                      describe(value));
    }
    options.push_back(std::move(option));
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Validation
//===----------------------------------------------------------------------===//

bool fail(std::string &error, const std::string &path, const std::string &msg) {
  error = path + ": " + msg;
  return false;
}

bool isPtxIdentifier(const std::string &name) {
  if (name.empty())
    return false;
  auto isAlpha = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           c == '$';
  };
  for (size_t i = 0; i < name.size(); ++i)
    if (!isAlpha(name[i]) && !(i > 0 && name[i] >= '0' && name[i] <= '9'))
      return false;
  return true;
}

bool isPlainFileName(const std::string &name) {
  return !name.empty() && name != "." && name != ".." &&
         name.find('/') == std::string::npos &&
         name.find('\\') == std::string::npos;
}

/// The tensors that cannot be tensor maps: the LSE buffer and the split-KV
/// workspace, which have no shape of their own in attnc_attention_args, and
/// the int32 index inputs of a paged KV cache and of a varlen batch.
bool isPointerOnly(TensorName t) {
  return t == TensorName::Lse || t == TensorName::OPartial ||
         t == TensorName::LsePartial || t == TensorName::BlockTable ||
         t == TensorName::CacheLengths || t == TensorName::CuSeqlensQ ||
         t == TensorName::CuSeqlensK;
}

bool isPagedIndex(TensorName t) {
  return t == TensorName::BlockTable || t == TensorName::CacheLengths;
}

bool isVarlenIndex(TensorName t) {
  return t == TensorName::CuSeqlensQ || t == TensorName::CuSeqlensK;
}

bool isWorkspace(TensorName t) {
  return t == TensorName::OPartial || t == TensorName::LsePartial;
}

/// The symbols only a split artifact's combine kernel takes: its rows.
bool isCombineSymbol(Symbol s) {
  return s == Symbol::CombineRows || s == Symbol::CombineCtas;
}
/// The symbols whose values a launch has only with split_kv.
bool isSplitSymbol(Symbol s) {
  return s == Symbol::KvSplits || isCombineSymbol(s);
}

/// The error for a split-KV name (`what`) in a manifest without split_kv.
bool notSplit(std::string &error, const std::string &path,
              const std::string &what) {
  return fail(error, path,
              what + " belongs to a split-KV artifact, but the manifest has "
                     "no split_kv");
}

/// The error for a paged-cache name (`what`) in a manifest without
/// problem.page_size.
bool notPaged(std::string &error, const std::string &path,
              const std::string &what) {
  return fail(error, path,
              what + " belongs to a paged artifact, but the manifest has no "
                     "problem.page_size");
}

/// The error for a varlen name (`what`) in a manifest without
/// problem.varlen.
bool notVarlen(std::string &error, const std::string &path,
               const std::string &what) {
  return fail(error, path,
              what + " belongs to a varlen artifact, but the manifest's "
                     "problem.varlen is not true");
}

/// What the params of an artifact's kernels pass between them; the problem
/// needs some of it (has_lse the lse pointer, a paged cache and a varlen
/// batch their index inputs).
struct PassedPointers {
  bool lse = false, blockTable = false, cacheLengths = false;
  bool cuSeqlensQ = false, cuSeqlensK = false;
};

bool validateTensorMap(const Manifest &m, const KernelParam &p,
                       const std::string &path, std::string &error) {
  if (isPointerOnly(p.tensor))
    return fail(error, path + ".tensor",
                std::string(toString(p.tensor)) +
                    " cannot be a tensor_map; pass it as a pointer");
  // A full permutation keeps the map's geometry a pure function of the caller's
  // strides; d first because TMA's innermost dimension must be contiguous.
  bool seen[5] = {false, false, false, false, false};
  for (size_t i = 0; i < p.dims.size(); ++i) {
    int d = static_cast<int>(p.dims[i]);
    if (seen[d])
      return fail(error, path + ".dims[" + std::to_string(i) + "]",
                  std::string("dim \"") + toString(p.dims[i]) +
                      "\" appears twice");
    seen[d] = true;
  }
  // The query heads of a packing kernel's Q and O are (g, h): the view
  // holds whole tokens of a kv head's query heads (docs/Runtime.md).
  bool packedView = m.problem.packedQueryHeads > 1 &&
                    (p.tensor == TensorName::Q || p.tensor == TensorName::O);
  bool hasGroup = seen[static_cast<int>(TensorDim::G)];
  if (packedView && !hasGroup)
    return fail(error, path + ".dims",
                "has no \"g\", but problem.packed_query_heads is " +
                    std::to_string(m.problem.packedQueryHeads) +
                    ": a packing kernel's " + toString(p.tensor) +
                    " map is (d, g, s, h, b) (an artifact compiled before "
                    "token-major packing; recompile it)");
  if (!packedView && hasGroup)
    return fail(error, path + ".dims",
                std::string("has \"g\", which only the q and o maps of a "
                            "kernel with problem.packed_query_heads have"));
  size_t rank = packedView ? 5 : 4;
  if (p.dims.size() != rank)
    return fail(error, path + ".dims",
                std::string("expected the ") + std::to_string(rank) + " dims " +
                    (packedView ? "d, g, s, h, b" : "d, s, h, b") +
                    " in some order, found " + std::to_string(p.dims.size()));
  if (p.dims[0] != TensorDim::D)
    return fail(error, path + ".dims[0]",
                std::string("the innermost dim must be \"d\" (TMA needs a "
                            "contiguous innermost dim), found \"") +
                    toString(p.dims[0]) + "\"");
  if (p.box.size() != p.dims.size())
    return fail(error, path + ".box",
                "expected " + std::to_string(p.dims.size()) +
                    " entries (one per dim), found " +
                    std::to_string(p.box.size()));
  for (size_t i = 0; i < p.box.size(); ++i)
    if (p.box[i] < 1 || p.box[i] > 256)
      return fail(error, path + ".box[" + std::to_string(i) + "]",
                  "TMA box extents must be in 1..256, found " +
                      std::to_string(p.box[i]));
  int64_t innerBytes = p.box[0] * elementSize(m.problem.dtype);
  if (innerBytes % 16 != 0)
    return fail(error, path + ".box[0]",
                "the innermost box extent is " + std::to_string(innerBytes) +
                    " bytes of " + toString(m.problem.dtype) +
                    "; TMA needs a multiple of 16 bytes");
  if (p.swizzle != Swizzle::None && innerBytes > swizzleBytes(p.swizzle))
    return fail(error, path + ".box[0]",
                "the innermost box extent is " + std::to_string(innerBytes) +
                    " bytes, more than the " + toString(p.swizzle) +
                    " swizzle span");
  // A paged artifact's k and v maps describe the pool, whose s dim is one
  // page: a box of more rows would read zeros past the page's end.
  int64_t pageSize = m.problem.pageSize;
  if (pageSize && (p.tensor == TensorName::K || p.tensor == TensorName::V))
    for (size_t i = 0; i < p.dims.size(); ++i)
      if (p.dims[i] == TensorDim::S && p.box[i] > pageSize)
        return fail(error, path + ".box[" + std::to_string(i) + "]",
                    "a box of " + std::to_string(p.box[i]) + " rows of " +
                        toString(p.tensor) +
                        "'s page pool spans more than one page of " +
                        std::to_string(pageSize) +
                        " tokens (problem.page_size)");
  return true;
}

/// Which kernel of the artifact a grid or param list launches.
enum class Kernel { Attention, Combine };

/// That `symbol`, used at `at` in the launch of `kernel`, has a value there:
/// the split-KV symbols only with split_kv (the combine's rows only in the
/// combine kernel's launch, the runtime sets them after the split count),
/// pages_per_seq only with a paged cache.
bool validateSymbolUse(const Manifest &m, Symbol symbol, Kernel kernel,
                       const std::string &at, std::string &error) {
  std::string quoted = std::string("\"") + toString(symbol) + "\"";
  if (isSplitSymbol(symbol) && !m.splitKv)
    return notSplit(error, at, quoted);
  if (isCombineSymbol(symbol) && kernel != Kernel::Combine)
    return fail(error, at,
                quoted + " belongs to the combine kernel (split_kv.combine): "
                         "the attention kernel's launch cannot use it");
  if (symbol == Symbol::PagesPerSeq && !m.problem.pageSize)
    return notPaged(error, at, quoted);
  return true;
}

bool validateSymbols(const Manifest &m, const std::vector<Symbol> &product,
                     Kernel kernel, const std::string &path,
                     std::string &error) {
  if (product.empty())
    return fail(error, path,
                "expected at least one symbol (use [\"one\"] for a size of 1)");
  for (size_t i = 0; i < product.size(); ++i) {
    std::string at = path + "[" + std::to_string(i) + "]";
    if (!isGridSymbol(product[i]))
      return fail(error, at,
                  std::string("\"") + toString(product[i]) +
                      "\" is not an integer; expected " +
                      listNames(kSymbols, isGridSymbol));
    if (!validateSymbolUse(m, product[i], kernel, at, error))
      return false;
  }
  return true;
}

bool validateEntry(const std::string &entry, const std::string &path,
                   std::string &error) {
  if (isPtxIdentifier(entry))
    return true;
  return fail(error, path,
              jsonQuoted(entry) + " is not a valid PTX entry name");
}

bool validateThreads(int64_t threads, const std::string &path,
                     std::string &error) {
  if (threads >= 1 && threads <= 1024)
    return true;
  return fail(error, path,
              "expected 1..1024, found " + std::to_string(threads));
}

bool validateSmem(int64_t bytes, const std::string &path, std::string &error) {
  if (bytes >= 0)
    return true;
  return fail(error, path,
              "expected a non-negative byte count, found " +
                  std::to_string(bytes));
}

/// The grid at `prefix`.grid ("grid" for an empty prefix).
bool validateGrid(const Manifest &m, const std::array<GridDim, 3> &grid,
                  Kernel kernel, const std::string &prefix,
                  std::string &error) {
  for (size_t i = 0; i < 3; ++i) {
    std::string path = join(prefix, "grid") + "[" + std::to_string(i) + "]";
    if (!validateSymbols(m, grid[i].product, kernel, path + ".product", error))
      return false;
    // The summands are checked as the factors are; none is fine.
    if (!grid[i].plus.empty() &&
        !validateSymbols(m, grid[i].plus, kernel, path + ".plus", error))
      return false;
    if (grid[i].ceilDiv < 1)
      return fail(error, path + ".ceil_div",
                  "expected a positive integer, found " +
                      std::to_string(grid[i].ceilDiv));
  }
  return true;
}

/// The params at `path`; records in `passed` the pointers they pass.
bool validateParams(const Manifest &m, const std::vector<KernelParam> &params,
                    Kernel kernel, const std::string &path,
                    PassedPointers &passed, std::string &error) {
  if (params.empty())
    return fail(error, path, "expected at least one kernel parameter");
  for (size_t i = 0; i < params.size(); ++i) {
    const KernelParam &param = params[i];
    std::string at = path + "[" + std::to_string(i) + "]";
    switch (param.kind) {
    case ParamKind::TensorMap:
      if (!validateTensorMap(m, param, at, error))
        return false;
      break;
    case ParamKind::Pointer:
      if (isWorkspace(param.tensor) && !m.splitKv)
        return notSplit(error, at + ".tensor",
                        std::string(toString(param.tensor)) +
                            " (the runtime's split-KV workspace)");
      if (param.tensor == TensorName::Lse) {
        if (!m.problem.hasLse)
          return fail(error, at + ".tensor",
                      "passes the lse pointer but problem.has_lse is false");
        passed.lse = true;
      }
      if (isPagedIndex(param.tensor) && !m.problem.pageSize)
        return notPaged(error, at + ".tensor",
                        std::string(toString(param.tensor)) +
                            " (an index input of a paged KV cache)");
      if (isVarlenIndex(param.tensor) && !m.problem.varlen)
        return notVarlen(error, at + ".tensor",
                         std::string(toString(param.tensor)) +
                             " (an offset array of a varlen batch)");
      passed.blockTable |= param.tensor == TensorName::BlockTable;
      passed.cacheLengths |= param.tensor == TensorName::CacheLengths;
      passed.cuSeqlensQ |= param.tensor == TensorName::CuSeqlensQ;
      passed.cuSeqlensK |= param.tensor == TensorName::CuSeqlensK;
      break;
    case ParamKind::I32:
      if (!isI32Symbol(param.value))
        return fail(error, at + ".value",
                    std::string("\"") + toString(param.value) +
                        "\" is not an i32 value; expected " +
                        listNames(kSymbols, isI32Symbol));
      if (!validateSymbolUse(m, param.value, kernel, at + ".value", error))
        return false;
      break;
    case ParamKind::F32:
      if (!isF32Symbol(param.value))
        return fail(error, at + ".value",
                    std::string("\"") + toString(param.value) +
                        "\" is not an f32 value; expected " +
                        listNames(kSymbols, isF32Symbol));
      break;
    }
  }
  return true;
}

/// A varlen artifact's combine kernel: the workspace holds one batch of
/// packed rows (the runtime's layout), which grid z `one` covers, and the
/// kernel stores only the sequences' rows, from the offsets and the batch.
bool validateVarlenCombine(const Manifest &m, const KernelLaunch &c,
                           const std::string &path, std::string &error) {
  if (!m.problem.varlen)
    return true;
  const GridDim &z = c.grid[2];
  if (z.product != std::vector<Symbol>{Symbol::One} || !z.plus.empty() ||
      z.ceilDiv != 1)
    return fail(error, join(path, "grid") + "[2]",
                "must be one: a varlen artifact's workspace holds one batch "
                "of packed rows (problem.varlen)");
  bool offsets = std::any_of(c.params.begin(), c.params.end(),
                             [](const KernelParam &param) {
                               return param.kind == ParamKind::Pointer &&
                                      param.tensor == TensorName::CuSeqlensQ;
                             });
  bool batch = std::any_of(
      c.params.begin(), c.params.end(), [](const KernelParam &param) {
        return param.kind == ParamKind::I32 && param.value == Symbol::Batch;
      });
  if (!offsets || !batch)
    return fail(error, join(path, "params"),
                "must pass the cu_seqlens_q pointer and the i32 batch: a "
                "varlen combine kernel stores only its sequences' rows "
                "(problem.varlen)");
  return true;
}

/// split_kv: the split count, the kv block and the combine kernel, checked
/// as the top-level kernel is (the combine launches without a cluster).
bool validateSplitKv(const Manifest &m, PassedPointers &passed,
                     std::string &error) {
  const SplitKv &split = *m.splitKv;
  // The count is an i32 kernel parameter (kv_splits).
  if (split.splits != 0 && (split.splits < 2 || split.splits > INT32_MAX))
    return fail(error, "split_kv.splits",
                "expected 0 (the runtime chooses the count at each launch) or "
                "a fixed count in 2.." +
                    std::to_string(INT32_MAX) + ", found " +
                    std::to_string(split.splits));
  if (split.kvBlock < 1)
    return fail(error, "split_kv.kv_block",
                "expected a positive number of keys, found " +
                    std::to_string(split.kvBlock));
  const KernelLaunch &c = split.combine;
  const std::string path = "split_kv.combine";
  if (!validateEntry(c.entry, join(path, "entry"), error))
    return false;
  if (c.entry == m.entry)
    return fail(error, join(path, "entry"),
                jsonQuoted(c.entry) +
                    " is the attention kernel's entry too; the combine "
                    "kernel is another entry of the PTX");
  return validateThreads(c.threadsPerBlock, join(path, "threads_per_block"),
                         error) &&
         validateSmem(c.dynamicSmemBytes, join(path, "dynamic_smem_bytes"),
                      error) &&
         validateGrid(m, c.grid, Kernel::Combine, path, error) &&
         validateParams(m, c.params, Kernel::Combine, join(path, "params"),
                        passed, error) &&
         validateVarlenCombine(m, c, path, error);
}
} // namespace

bool attnc::rt::takesOutput(const Manifest &m) {
  ParamKind kind = m.problem.varlen ? ParamKind::Pointer : ParamKind::TensorMap;
  return std::any_of(
      m.params.begin(), m.params.end(), [&](const KernelParam &param) {
        return param.kind == kind && param.tensor == TensorName::O;
      });
}

bool attnc::rt::validateManifest(const Manifest &m, std::string &error) {
  if (m.format != kManifestFormat)
    return fail(error, "format",
                "found " + jsonQuoted(m.format) + ", expected \"" +
                    kManifestFormat + "\"");
  if (m.version != kManifestVersion)
    return fail(error, "version",
                "found " + std::to_string(m.version) + ", expected " +
                    std::to_string(kManifestVersion));
  if (m.target != kManifestTarget)
    return fail(error, "target",
                "found " + jsonQuoted(m.target) + ", expected \"" +
                    kManifestTarget +
                    "\" (the runtime launches only sm_90a kernels)");
  if (!validateEntry(m.entry, "entry", error))
    return false;
  if (!isPlainFileName(m.ptx))
    return fail(error, "ptx",
                "expected a file name beside the manifest, found " +
                    jsonQuoted(m.ptx));
  if (!m.cubin.empty() && !isPlainFileName(m.cubin))
    return fail(error, "cubin",
                "expected a file name beside the manifest, found " +
                    jsonQuoted(m.cubin));
  if (!validateThreads(m.threadsPerBlock, "threads_per_block", error))
    return false;
  int64_t clusterSize = 1;
  for (size_t i = 0; i < 3; ++i) {
    if (m.cluster[i] < 1 || m.cluster[i] > 8)
      return fail(error, "cluster[" + std::to_string(i) + "]",
                  "expected 1..8, found " + std::to_string(m.cluster[i]));
    clusterSize *= m.cluster[i];
  }
  if (clusterSize > 8)
    return fail(error, "cluster",
                "a cluster of " + std::to_string(clusterSize) +
                    " blocks exceeds the portable limit of 8");
  if (!validateSmem(m.dynamicSmemBytes, "dynamic_smem_bytes", error) ||
      !validateGrid(m, m.grid, Kernel::Attention, "", error))
    return false;

  const Problem &p = m.problem;
  if (p.headDim < 1)
    return fail(error, "problem.head_dim",
                "expected a positive integer, found " +
                    std::to_string(p.headDim));
  if (p.headDimV < 1)
    return fail(error, "problem.head_dim_v",
                "expected a positive integer, found " +
                    std::to_string(p.headDimV));
  if (p.layout != "bhsd" && p.layout != "bshd")
    return fail(error, "problem.layout",
                "unknown layout " + jsonQuoted(p.layout) +
                    "; expected bhsd or bshd");
  if (p.mask != "none" && p.mask != "causal" &&
      p.mask != "causal_bottom_right")
    return fail(error, "problem.mask",
                "unknown mask " + jsonQuoted(p.mask) +
                    "; expected none, causal or causal_bottom_right");
  // The sizes and constants compiled into the kernel (options) that the
  // runtime checks a launch against must be meaningful themselves.
  auto optionValue = [&](const char *name) -> const CompileOption * {
    for (const CompileOption &o : m.options)
      if (o.name == name)
        return &o;
    return nullptr;
  };
  // Integers as the runtime compares them (std::to_string form) and as the
  // tools read them (std::stoll), so none is refused or thrown later.
  auto integer = [&](const char *name, int64_t min, int64_t &out) {
    const CompileOption *o = optionValue(name);
    if (!o)
      return true;
    errno = 0;
    char *end = nullptr;
    long long v = std::strtoll(o->value.c_str(), &end, 10);
    if (o->isString || errno == ERANGE || end == o->value.c_str() || *end ||
        std::to_string(v) != o->value || v < min)
      return fail(error, std::string("options.") + name,
                  "expected an integer of at least " + std::to_string(min) +
                      ", found " + o->value);
    out = v;
    return true;
  };
  int64_t headsQ = 0, headsKV = 0, side = 0, seqQ = 0;
  if (!integer("heads_q", 1, headsQ) || !integer("heads_kv", 1, headsKV) ||
      !integer("window_left", 0, side) || !integer("window_right", 0, side) ||
      !integer("seq_q", 1, seqQ))
    return false;
  // A window has two sides (the tools read both).
  if (!optionValue("window_left") != !optionValue("window_right"))
    return fail(error,
                optionValue("window_left") ? "options.window_right"
                                           : "options.window_left",
                "is missing: a window has both sides (window_left and "
                "window_right)");
  // The runtime views the caller's Q and O as the packed ones (attn-pack-gqa;
  // the kernel's masks see a packed row's query position) whatever their
  // strides.
  // (toJson leaves a packing of 1 out, so any other value here would be
  // lost on the way to the artifact.)
  if (p.packedQueryHeads != 1) {
    const char *key = "problem.packed_query_heads";
    if (p.packedQueryHeads < 2)
      return fail(error, key,
                  "is " + std::to_string(p.packedQueryHeads) +
                      "; a packed head holds at least 2 query heads (leave "
                      "it out for an unpacked kernel)");
    if (!p.gqa)
      return fail(error, key,
                  "packs the query heads of a grouped-query (problem.gqa) "
                  "kernel only");
    if (headsQ && headsKV && headsQ != p.packedQueryHeads * headsKV)
      return fail(error, key,
                  "is " + std::to_string(p.packedQueryHeads) +
                      " but options.heads_q = " + std::to_string(headsQ) +
                      " is not that many times options.heads_kv = " +
                      std::to_string(headsKV));
  }
  if (headsQ && headsKV && headsQ % headsKV != 0)
    return fail(error, "options.heads_kv",
                std::to_string(headsKV) + " does not divide heads_q = " +
                    std::to_string(headsQ) +
                    " (each kv head serves a group of query heads)");
  for (const char *name : {"scale", "softcap"}) {
    const CompileOption *o = optionValue(name);
    if (!o)
      continue;
    char *end = nullptr;
    double v = std::strtod(o->value.c_str(), &end);
    // Read as f32 by the runtime and the tools.
    if (o->isString || end == o->value.c_str() || *end || !std::isfinite(v) ||
        v <= 0 || v > std::numeric_limits<float>::max())
      return fail(error, std::string("options.") + name,
                  "expected a finite positive f32, found " + o->value);
  }
  if (m.alignmentBytes < 1 || (m.alignmentBytes & (m.alignmentBytes - 1)))
    return fail(error, "alignment_bytes",
                "expected a power of two, found " +
                    std::to_string(m.alignmentBytes));

  // Checked before the params, whose rules for k and v depend on it.
  if (p.pageSize != 0 && !isSupportedPageSize(p.pageSize))
    return fail(error, "problem.page_size",
                "expected a power of two from 16 to 256 (tokens per page of "
                "the paged KV cache; leave it out for a dense one), found " +
                    std::to_string(p.pageSize));

  // A varlen batch packs dense sequences in a batch of 1: the kernel reads
  // K and V rows at the sequences' offsets and tiles each sequence's own
  // query rows (or packed rows, g of a token), which a page pool does not
  // combine with.
  if (p.varlen && p.pageSize)
    return fail(error, "problem.varlen",
                "is true but problem.page_size is " +
                    std::to_string(p.pageSize) +
                    ": a varlen kernel reads dense K and V, not a paged KV "
                    "cache");

  // A split-KV attention kernel writes lse_partial; its combine kernel
  // writes the lse (or, at one split, the attention kernel: below).
  PassedPointers passed;
  if (!validateParams(m, m.params, Kernel::Attention, "params", passed,
                      error) ||
      (m.splitKv && !validateSplitKv(m, passed, error)))
    return false;
  // A paged kernel reads both index inputs.
  for (auto [passes, name] :
       {std::pair<bool, const char *>{passed.blockTable, "block_table"},
        {passed.cacheLengths, "cache_lengths"}})
    if (p.pageSize && !passes)
      return fail(error, "problem.page_size",
                  "is " + std::to_string(p.pageSize) + " but no params " +
                      (m.splitKv ? "or split_kv.combine.params " : "") +
                      "entry passes the " + name +
                      " pointer (a paged kernel reads the block table and "
                      "the cache lengths)");
  // A varlen kernel reads both offset arrays.
  for (auto [passes, name] :
       {std::pair<bool, const char *>{passed.cuSeqlensQ, "cu_seqlens_q"},
        {passed.cuSeqlensK, "cu_seqlens_k"}})
    if (p.varlen && !passes)
      return fail(error, "problem.varlen",
                  std::string("is true but no params entry passes the ") +
                      name +
                      " pointer (a varlen kernel reads the offsets of its "
                      "sequences in q and in k and v)");
  if (p.hasLse && !passed.lse)
    return fail(error, "problem.has_lse",
                m.splitKv ? "is true but no params or split_kv.combine.params "
                            "entry passes the lse pointer"
                          : "is true but no params entry passes the lse "
                            "pointer");
  // At one split the attention kernel writes O and the LSE itself; only
  // then does it take them.
  bool takesO = takesOutput(m);
  bool takesLse = std::any_of(m.params.begin(), m.params.end(),
                              [](const KernelParam &param) {
                                return param.kind == ParamKind::Pointer &&
                                       param.tensor == TensorName::Lse;
                              });
  if (m.splitKv && m.splitKv->writesOutputAtOneSplit &&
      (!takesO || (p.hasLse && !takesLse)))
    return fail(error, "split_kv.writes_output_at_one_split",
                std::string("is true but params does not pass the ") +
                    (takesO     ? "lse pointer (problem.has_lse is true)"
                     : p.varlen ? "o pointer"
                                : "o tensor map") +
                    ": at one split the attention kernel writes O and the "
                    "LSE itself");
  if (m.splitKv && !m.splitKv->writesOutputAtOneSplit && takesO)
    return fail(error, "params",
                "passes o to a split-KV attention kernel, but "
                "split_kv.writes_output_at_one_split is not true: the "
                "combine kernel writes O");
  return true;
}

bool attnc::rt::parseManifest(std::string_view json, Manifest &out,
                              std::string &error, std::string_view sourceName) {
  std::string source(sourceName);
  JsonValue root;
  JsonBuilder builder(root);
  if (!nlohmann::json::sax_parse(json.begin(), json.end(), &builder)) {
    // "file:line:col: message", as compilers print positions; key paths as
    // the reader prints them.
    error = builder.error.empty() ? "invalid JSON" : builder.error;
    if (!source.empty())
      error =
          source +
          (std::isdigit(static_cast<unsigned char>(error[0])) ? ":" : ": ") +
          error;
    return false;
  }
  Manifest manifest;
  ManifestReader reader(error);
  if (!reader.readManifest(root, manifest) ||
      !validateManifest(manifest, error)) {
    if (!source.empty())
      error = source + ": " + error;
    return false;
  }
  out = std::move(manifest);
  return true;
}

//===----------------------------------------------------------------------===//
// Manifest -> JSON
//===----------------------------------------------------------------------===//

namespace {
using OrderedJson = nlohmann::ordered_json;

/// A scalar, array or object on one line with ", " and ": " separators.
void writeInline(const OrderedJson &j, std::string &out) {
  if (j.is_object()) {
    out += "{";
    bool first = true;
    for (const auto &[key, value] : j.items()) {
      out += first ? "" : ", ";
      out += OrderedJson(key).dump(-1, ' ', false,
                                   OrderedJson::error_handler_t::replace);
      out += ": ";
      writeInline(value, out);
      first = false;
    }
    out += "}";
  } else if (j.is_array()) {
    out += "[";
    for (size_t i = 0; i < j.size(); ++i) {
      out += i ? ", " : "";
      writeInline(j[i], out);
    }
    out += "]";
  } else {
    // Strings parsed by nlohmann are valid UTF-8; anything else is replaced
    // rather than thrown on.
    out += j.dump(-1, ' ', false, OrderedJson::error_handler_t::replace);
  }
}

/// A compile option's value: the text of a number, boolean or null as it was
/// read or given (so "8.83883476e-02" stays as the compiler wrote it), once
/// nlohmann accepts it as a JSON scalar; a string, or text that is not a JSON
/// scalar, as a JSON string.
void writeOption(const CompileOption &o, std::string &out) {
  if (!o.isString) {
    OrderedJson value = OrderedJson::parse(o.value, nullptr,
                                           /*allow_exceptions=*/false);
    if (!value.is_discarded() && value.is_primitive() && !value.is_string()) {
      out += o.value;
      return;
    }
  }
  writeInline(OrderedJson(o.value), out);
}

/// Whether `j` is an array of objects (grid, params) or an object that holds
/// one at any depth (the top level, split_kv and its combine).
bool holdsList(const OrderedJson &j) {
  if (j.is_array())
    return !j.empty() && j[0].is_object();
  if (j.is_object())
    for (const auto &item : j.items())
      if (holdsList(item.value()))
        return true;
  return false;
}

/// `j` at `indent`: an array of objects with one element per line, an object
/// that holds one with one key per line, anything else inline.
void writeBlock(const OrderedJson &j, const std::string &indent,
                std::string &out) {
  if (!holdsList(j)) {
    writeInline(j, out);
    return;
  }
  bool array = j.is_array();
  out += array ? "[\n" : "{\n";
  size_t i = 0;
  for (const auto &item : j.items()) {
    out += indent + "  ";
    if (array) {
      writeInline(item.value(), out);
    } else {
      out += OrderedJson(item.key()).dump() + ": "; // schema keys: ASCII
      writeBlock(item.value(), indent + "  ", out);
    }
    out += ++i < j.size() ? ",\n" : "\n";
  }
  out += indent + (array ? "]" : "}");
}

/// The manifest's layout: one top-level key per line, arrays of objects
/// (grid, params) one element per line, split_kv and its combine one key per
/// line, everything else inline; `options` last. The options are a list
/// rather than an ordered_json object, whose insertion is linear in its size.
std::string writeDocument(const OrderedJson &doc,
                          const std::vector<CompileOption> &options) {
  std::string out = "{\n";
  for (const auto &[key, value] : doc.items()) {
    out += "  " + OrderedJson(key).dump() + ": "; // schema keys: ASCII
    writeBlock(value, "  ", out);
    out += ",\n";
  }
  out += "  \"options\": {";
  for (size_t i = 0; i < options.size(); ++i) {
    out += i ? ", " : "";
    out += OrderedJson(options[i].name)
               .dump(-1, ' ', false, OrderedJson::error_handler_t::replace);
    out += ": ";
    writeOption(options[i], out);
  }
  return out + "}\n}\n";
}

OrderedJson gridJson(const std::array<GridDim, 3> &grid) {
  OrderedJson out = OrderedJson::array();
  for (const GridDim &g : grid) {
    OrderedJson product = OrderedJson::array();
    for (Symbol s : g.product)
      product.push_back(toString(s));
    OrderedJson dim = {{"product", std::move(product)}};
    if (g.ceilDiv != 1)
      dim["ceil_div"] = g.ceilDiv;
    if (!g.plus.empty()) {
      OrderedJson plus = OrderedJson::array();
      for (Symbol s : g.plus)
        plus.push_back(toString(s));
      dim["plus"] = std::move(plus);
    }
    out.push_back(std::move(dim));
  }
  return out;
}

OrderedJson paramJson(const KernelParam &p) {
  OrderedJson j = {{"kind", toString(p.kind)}};
  switch (p.kind) {
  case ParamKind::TensorMap: {
    j["tensor"] = toString(p.tensor);
    OrderedJson dims = OrderedJson::array();
    for (TensorDim d : p.dims)
      dims.push_back(toString(d));
    j["dims"] = std::move(dims);
    j["box"] = p.box;
    j["swizzle"] = toString(p.swizzle);
    j["oob_fill"] = toString(p.oobFill);
    break;
  }
  case ParamKind::Pointer:
    j["tensor"] = toString(p.tensor);
    break;
  case ParamKind::I32:
  case ParamKind::F32:
    j["value"] = toString(p.value);
    break;
  }
  return j;
}

OrderedJson paramsJson(const std::vector<KernelParam> &params) {
  OrderedJson out = OrderedJson::array();
  for (const KernelParam &param : params)
    out.push_back(paramJson(param));
  return out;
}

OrderedJson splitKvJson(const SplitKv &split) {
  const KernelLaunch &c = split.combine;
  OrderedJson combine = {{"entry", c.entry},
                         {"threads_per_block", c.threadsPerBlock},
                         {"dynamic_smem_bytes", c.dynamicSmemBytes}};
  combine["grid"] = gridJson(c.grid);
  combine["params"] = paramsJson(c.params);
  // Only where set, so that other manifests stay as they were.
  if (c.programmaticLaunch)
    combine["programmatic_launch"] = true;
  OrderedJson out = {{"splits", split.splits}, {"kv_block", split.kvBlock}};
  // Only where set, so that other manifests stay as they were.
  if (split.writesOutputAtOneSplit)
    out["writes_output_at_one_split"] = true;
  out["combine"] = std::move(combine);
  return out;
}
} // namespace

bool attnc::rt::readArtifactFile(const std::string &path, std::string &out,
                                 std::string &error) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    error = "cannot read '" + path + "': it is a directory";
    return false;
  }
  // A FIFO or a device (a link to /dev/zero) would be read forever, and a
  // huge file into memory: an artifact file is a regular file of bounded
  // size (kernel.ptx of the largest kernels is a few hundred KiB).
  std::filesystem::file_status status = std::filesystem::status(path, ec);
  if (!ec && std::filesystem::exists(status) &&
      !std::filesystem::is_regular_file(status)) {
    error = "cannot read '" + path + "': it is not a regular file";
    return false;
  }
  if (std::uintmax_t size = std::filesystem::file_size(path, ec);
      !ec && size > kMaxArtifactFileBytes) {
    error = "cannot read '" + path + "': it is " + std::to_string(size) +
            " bytes, more than the " + std::to_string(kMaxArtifactFileBytes) +
            " an artifact file may have";
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot read '" + path + "': " + std::strerror(errno);
    return false;
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  out = buffer.str();
  return true;
}

std::string attnc::rt::toJson(const Manifest &m) {
  OrderedJson doc;
  doc["format"] = m.format;
  doc["version"] = m.version;
  doc["attnc_version"] = m.attncVersion;
  doc["target"] = m.target;
  doc["entry"] = m.entry;
  doc["ptx"] = m.ptx;
  if (!m.cubin.empty())
    doc["cubin"] = m.cubin;
  doc["threads_per_block"] = m.threadsPerBlock;
  doc["cluster"] = m.cluster;
  doc["dynamic_smem_bytes"] = m.dynamicSmemBytes;
  doc["grid"] = gridJson(m.grid);
  const Problem &p = m.problem;
  doc["problem"] = {{"dtype", toString(p.dtype)},
                    {"head_dim", p.headDim},
                    {"head_dim_v", p.headDimV},
                    {"layout", p.layout},
                    {"mask", p.mask},
                    {"gqa", p.gqa},
                    {"has_lse", p.hasLse}};
  if (p.packedQueryHeads > 1)
    doc["problem"]["packed_query_heads"] = p.packedQueryHeads;
  if (p.pageSize)
    doc["problem"]["page_size"] = p.pageSize;
  if (p.varlen)
    doc["problem"]["varlen"] = true;
  doc["alignment_bytes"] = m.alignmentBytes;
  doc["params"] = paramsJson(m.params);
  if (m.splitKv)
    doc["split_kv"] = splitKvJson(*m.splitKv);
  return writeDocument(doc, m.options);
}
