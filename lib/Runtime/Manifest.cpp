//===- Manifest.cpp - attnc kernel manifest parser and writer ---*- C++ -*-===//
//
// A small JSON reader (just enough for manifests: positions for syntax
// errors, a depth limit, no exceptions) and the mapping between its values and
// attnc::rt::Manifest. Errors name the key path ("params[3].box[1]") and what
// was expected, so a bad artifact is fixed from the message alone.
//
//===----------------------------------------------------------------------===//

#include "attnc/Runtime/Manifest.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <cstdio>
#include <initializer_list>

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
constexpr EnumName<TensorName> kTensorNames[] = {{TensorName::Q, "q"},
                                                 {TensorName::K, "k"},
                                                 {TensorName::V, "v"},
                                                 {TensorName::O, "o"},
                                                 {TensorName::Lse, "lse"}};
constexpr EnumName<TensorDim> kTensorDims[] = {{TensorDim::D, "d"},
                                               {TensorDim::S, "s"},
                                               {TensorDim::H, "h"},
                                               {TensorDim::B, "b"}};
constexpr EnumName<Symbol> kSymbols[] = {
    {Symbol::Batch, "batch"},      {Symbol::HeadsQ, "heads_q"},
    {Symbol::HeadsKv, "heads_kv"}, {Symbol::HeadsRatio, "heads_ratio"},
    {Symbol::SeqQ, "seq_q"},       {Symbol::SeqK, "seq_k"},
    {Symbol::HeadDim, "head_dim"}, {Symbol::HeadDimV, "head_dim_v"},
    {Symbol::NumSms, "num_sms"},   {Symbol::One, "one"},
    {Symbol::Scale, "scale"},      {Symbol::ScaleLog2, "scale_log2"}};

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

/// Recursive descent over the whole text; fails on the first error.
class JsonParser {
public:
  JsonParser(std::string_view text, std::string &error)
      : text(text), error(error) {}

  bool parseDocument(JsonValue &out) {
    skipSpace();
    if (!parseValue(out, 0))
      return false;
    skipSpace();
    if (pos != text.size())
      return fail("unexpected " + describeNext() +
                  " after the top-level value");
    return true;
  }

private:
  static constexpr int kMaxDepth = 64;
  std::string_view text;
  std::string &error;
  size_t pos = 0;

  bool fail(const std::string &message) {
    unsigned line = 1, column = 1;
    for (size_t i = 0; i < pos && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    error =
        std::to_string(line) + ":" + std::to_string(column) + ": " + message;
    return false;
  }

  std::string describeNext() const {
    if (pos >= text.size())
      return "end of input";
    unsigned char c = text[pos];
    if (c >= 0x20 && c < 0x7f)
      return std::string("'") + static_cast<char>(c) + "'";
    char buf[16];
    std::snprintf(buf, sizeof(buf), "byte 0x%02x", c);
    return buf;
  }

  void skipSpace() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' ||
                                 text[pos] == '\n' || text[pos] == '\r'))
      ++pos;
  }

  bool expect(char c, const char *context) {
    skipSpace();
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return fail(std::string("expected '") + c + "' " + context + ", found " +
                describeNext());
  }

  bool parseValue(JsonValue &out, int depth) {
    if (depth > kMaxDepth)
      return fail("values nested deeper than 64 levels");
    skipSpace();
    if (pos >= text.size())
      return fail("unexpected end of input, expected a value");
    char c = text[pos];
    if (c == '{')
      return parseObject(out, depth);
    if (c == '[')
      return parseArray(out, depth);
    if (c == '"') {
      out.kind = JsonValue::Kind::String;
      return parseString(out.text);
    }
    if (c == '-' || (c >= '0' && c <= '9'))
      return parseNumber(out);
    for (const char *word : {"true", "false", "null"}) {
      if (text.substr(pos, std::char_traits<char>::length(word)) == word) {
        pos += std::char_traits<char>::length(word);
        out.kind =
            word[0] == 'n' ? JsonValue::Kind::Null : JsonValue::Kind::Bool;
        out.boolean = word[0] == 't';
        return true;
      }
    }
    return fail("expected a value, found " + describeNext());
  }

  bool parseObject(JsonValue &out, int depth) {
    out.kind = JsonValue::Kind::Object;
    ++pos; // '{'
    skipSpace();
    if (pos < text.size() && text[pos] == '}') {
      ++pos;
      return true;
    }
    while (true) {
      skipSpace();
      if (pos >= text.size() || text[pos] != '"')
        return fail("expected a string key in object, found " + describeNext());
      size_t keyPos = pos;
      std::string key;
      if (!parseString(key))
        return false;
      if (std::find(out.keys.begin(), out.keys.end(), key) != out.keys.end()) {
        pos = keyPos;
        return fail("duplicate key \"" + key + "\"");
      }
      if (!expect(':', "after an object key"))
        return false;
      JsonValue value;
      if (!parseValue(value, depth + 1))
        return false;
      out.keys.push_back(std::move(key));
      out.elements.push_back(std::move(value));
      skipSpace();
      if (pos < text.size() && text[pos] == ',') {
        ++pos;
        continue;
      }
      if (pos < text.size() && text[pos] == '}') {
        ++pos;
        return true;
      }
      return fail("expected ',' or '}' in object, found " + describeNext());
    }
  }

  bool parseArray(JsonValue &out, int depth) {
    out.kind = JsonValue::Kind::Array;
    ++pos; // '['
    skipSpace();
    if (pos < text.size() && text[pos] == ']') {
      ++pos;
      return true;
    }
    while (true) {
      JsonValue value;
      if (!parseValue(value, depth + 1))
        return false;
      out.elements.push_back(std::move(value));
      skipSpace();
      if (pos < text.size() && text[pos] == ',') {
        ++pos;
        continue;
      }
      if (pos < text.size() && text[pos] == ']') {
        ++pos;
        return true;
      }
      return fail("expected ',' or ']' in array, found " + describeNext());
    }
  }

  bool parseHex4(unsigned &out) {
    out = 0;
    for (int i = 0; i < 4; ++i, ++pos) {
      if (pos >= text.size())
        return fail("unexpected end of input in a \\u escape");
      char c = text[pos];
      unsigned digit;
      if (c >= '0' && c <= '9')
        digit = c - '0';
      else if (c >= 'a' && c <= 'f')
        digit = c - 'a' + 10;
      else if (c >= 'A' && c <= 'F')
        digit = c - 'A' + 10;
      else
        return fail("expected a hex digit in a \\u escape, found " +
                    describeNext());
      out = out * 16 + digit;
    }
    return true;
  }

  static void appendUtf8(std::string &out, unsigned cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xc0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xe0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
      out += static_cast<char>(0x80 | (cp & 0x3f));
    } else {
      out += static_cast<char>(0xf0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
      out += static_cast<char>(0x80 | (cp & 0x3f));
    }
  }

  bool parseString(std::string &out) {
    ++pos; // opening quote
    while (true) {
      if (pos >= text.size())
        return fail("unexpected end of input inside a string");
      unsigned char c = text[pos];
      if (c == '"') {
        ++pos;
        return true;
      }
      if (c < 0x20)
        return fail("unescaped control character in a string");
      if (c != '\\') {
        out += static_cast<char>(c);
        ++pos;
        continue;
      }
      ++pos;
      if (pos >= text.size())
        return fail("unexpected end of input inside a string");
      char e = text[pos++];
      switch (e) {
      case '"':
      case '\\':
      case '/':
        out += e;
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        unsigned cp;
        if (!parseHex4(cp))
          return false;
        if (cp >= 0xd800 && cp < 0xdc00 && text.substr(pos, 2) == "\\u") {
          pos += 2;
          unsigned low;
          if (!parseHex4(low))
            return false;
          if (low < 0xdc00 || low >= 0xe000)
            return fail("invalid UTF-16 surrogate pair in a \\u escape");
          cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
        }
        appendUtf8(out, cp);
        break;
      }
      default:
        --pos;
        return fail("invalid escape '\\" + std::string(1, e) + "' in a string");
      }
    }
  }

  bool parseNumber(JsonValue &out) {
    size_t start = pos;
    auto digits = [&] {
      size_t begin = pos;
      while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9')
        ++pos;
      return pos - begin;
    };
    if (text[pos] == '-')
      ++pos;
    size_t intDigits = digits();
    if (intDigits == 0)
      return fail("expected a digit in a number, found " + describeNext());
    if (intDigits > 1 && text[pos - intDigits] == '0') {
      pos -= intDigits;
      return fail("numbers must not have leading zeros");
    }
    bool integral = true;
    if (pos < text.size() && text[pos] == '.') {
      ++pos;
      integral = false;
      if (digits() == 0)
        return fail("expected a digit after '.' in a number, found " +
                    describeNext());
    }
    if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
      ++pos;
      integral = false;
      if (pos < text.size() && (text[pos] == '+' || text[pos] == '-'))
        ++pos;
      if (digits() == 0)
        return fail("expected a digit in a number's exponent, found " +
                    describeNext());
    }
    out.kind = JsonValue::Kind::Number;
    out.text = std::string(text.substr(start, pos - start));
    if (!integral)
      return true;
    // Accumulate negatively so that INT64_MIN is representable.
    bool negative = out.text[0] == '-';
    int64_t value = 0;
    for (size_t i = negative ? 1 : 0; i < out.text.size(); ++i) {
      int digit = out.text[i] - '0';
      if (value < (INT64_MIN + digit) / 10)
        return true; // out of range: stays a non-integer number
      value = value * 10 - digit;
    }
    if (!negative && value == INT64_MIN)
      return true;
    out.isInteger = true;
    out.integer = negative ? value : -value;
    return true;
  }
};

//===----------------------------------------------------------------------===//
// JSON -> Manifest
//===----------------------------------------------------------------------===//

std::string describe(const JsonValue &v) {
  switch (v.kind) {
  case JsonValue::Kind::Null:
    return "null";
  case JsonValue::Kind::Bool:
    return v.boolean ? "a boolean (true)" : "a boolean (false)";
  case JsonValue::Kind::Number:
    return (v.isInteger ? "an integer (" : "a number (") + v.text + ")";
  case JsonValue::Kind::String:
    return "a string (\"" + v.text + "\")";
  case JsonValue::Kind::Array:
    return "an array";
  case JsonValue::Kind::Object:
    return "an object";
  }
  return "?";
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

  static std::string join(const std::string &path, std::string_view key) {
    return path.empty() ? std::string(key) : path + "." + std::string(key);
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
      return fail(path, std::string("unknown ") + what + " \"" + text +
                            "\"; expected " + listNames(table));
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

  bool readGrid(const JsonValue &root, Manifest &m);
  bool readProblem(const JsonValue &root, Problem &p);
  bool readParam(const JsonValue &v, const std::string &path, KernelParam &p);
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
    return fail("format", "found \"" + m.format + "\", expected \"" +
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
                  "params", "options"}))
    return false;
  // Likewise the target: an artifact for another arch is not worth reading on.
  if (!readString(root, "", "target", m.target))
    return false;
  if (m.target != kManifestTarget)
    return fail("target", "found \"" + m.target + "\", expected \"" +
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
      !readGrid(root, m) || !readProblem(root, m.problem) ||
      !readInt(root, "", "alignment_bytes", m.alignmentBytes))
    return false;

  const JsonValue *params = readArray(root, "", "params");
  if (!params)
    return false;
  m.params.assign(params->elements.size(), KernelParam());
  for (size_t i = 0; i < m.params.size(); ++i)
    if (!readParam(params->elements[i], index("params", i), m.params[i]))
      return false;

  m.options.clear();
  if (const JsonValue *options = member(root, "", "options", false))
    if (!readOptions(*options, m.options))
      return false;
  return true;
}

bool ManifestReader::readGrid(const JsonValue &root, Manifest &m) {
  const JsonValue *grid = readArray(root, "", "grid", 3);
  if (!grid)
    return false;
  for (size_t i = 0; i < 3; ++i) {
    std::string path = index("grid", i);
    const JsonValue &entry = grid->elements[i];
    if (!asObject(entry, path) ||
        !checkKeys(entry, path, {"product", "ceil_div"}))
      return false;
    const JsonValue *product = readArray(entry, path, "product");
    if (!product)
      return false;
    GridDim &dim = m.grid[i];
    dim.product.assign(product->elements.size(), Symbol::One);
    for (size_t j = 0; j < dim.product.size(); ++j)
      if (!enumValue(product->elements[j], index(join(path, "product"), j),
                     kSymbols, "symbol", dim.product[j]))
        return false;
    dim.ceilDiv = 1;
    if (const JsonValue *ceilDiv = member(entry, path, "ceil_div", false))
      if (!asInt(*ceilDiv, join(path, "ceil_div"), dim.ceilDiv))
        return false;
  }
  return true;
}

bool ManifestReader::readProblem(const JsonValue &root, Problem &p) {
  const JsonValue *problem = member(root, "", "problem");
  const std::string path = "problem";
  return problem && asObject(*problem, path) &&
         checkKeys(*problem, path,
                   {"dtype", "head_dim", "head_dim_v", "layout", "mask", "gqa",
                    "has_lse"}) &&
         readEnum(*problem, path, "dtype", kDTypes, "dtype", p.dtype) &&
         readInt(*problem, path, "head_dim", p.headDim) &&
         readInt(*problem, path, "head_dim_v", p.headDimV) &&
         readString(*problem, path, "layout", p.layout) &&
         readString(*problem, path, "mask", p.mask) &&
         readBool(*problem, path, "gqa", p.gqa) &&
         readBool(*problem, path, "has_lse", p.hasLse);
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
    return fail(join(path, "kind"), "unknown parameter kind \"" + kindText +
                                        "\"; expected " +
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

bool validateTensorMap(const Manifest &m, const KernelParam &p,
                       const std::string &path, std::string &error) {
  if (p.tensor == TensorName::Lse)
    return fail(error, path + ".tensor",
                "lse cannot be a tensor_map; pass it as a pointer");
  // A full permutation keeps the map's geometry a pure function of the caller's
  // strides; d first because TMA's innermost dimension must be contiguous.
  bool seen[4] = {false, false, false, false};
  for (size_t i = 0; i < p.dims.size(); ++i) {
    int d = static_cast<int>(p.dims[i]);
    if (seen[d])
      return fail(error, path + ".dims[" + std::to_string(i) + "]",
                  std::string("dim \"") + toString(p.dims[i]) +
                      "\" appears twice");
    seen[d] = true;
  }
  if (p.dims.size() != 4)
    return fail(error, path + ".dims",
                "expected the 4 dims d, s, h, b in some order, found " +
                    std::to_string(p.dims.size()));
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
  return true;
}

bool validateSymbols(const std::vector<Symbol> &product,
                     const std::string &path, std::string &error) {
  if (product.empty())
    return fail(error, path,
                "expected at least one symbol (use [\"one\"] for a size of 1)");
  for (size_t i = 0; i < product.size(); ++i)
    if (!isGridSymbol(product[i]))
      return fail(error, path + "[" + std::to_string(i) + "]",
                  std::string("\"") + toString(product[i]) +
                      "\" is not an integer; expected " +
                      listNames(kSymbols, isGridSymbol));
  return true;
}
} // namespace

bool attnc::rt::validateManifest(const Manifest &m, std::string &error) {
  if (m.format != kManifestFormat)
    return fail(error, "format",
                "found \"" + m.format + "\", expected \"" + kManifestFormat +
                    "\"");
  if (m.version != kManifestVersion)
    return fail(error, "version",
                "found " + std::to_string(m.version) + ", expected " +
                    std::to_string(kManifestVersion));
  if (m.target != kManifestTarget)
    return fail(error, "target",
                "found \"" + m.target + "\", expected \"" + kManifestTarget +
                    "\" (the runtime launches only sm_90a kernels)");
  if (!isPtxIdentifier(m.entry))
    return fail(error, "entry",
                "\"" + m.entry + "\" is not a valid PTX entry name");
  if (!isPlainFileName(m.ptx))
    return fail(error, "ptx",
                "expected a file name beside the manifest, found \"" + m.ptx +
                    "\"");
  if (!m.cubin.empty() && !isPlainFileName(m.cubin))
    return fail(error, "cubin",
                "expected a file name beside the manifest, found \"" + m.cubin +
                    "\"");
  if (m.threadsPerBlock < 1 || m.threadsPerBlock > 1024)
    return fail(error, "threads_per_block",
                "expected 1..1024, found " + std::to_string(m.threadsPerBlock));
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
  if (m.dynamicSmemBytes < 0)
    return fail(error, "dynamic_smem_bytes",
                "expected a non-negative byte count, found " +
                    std::to_string(m.dynamicSmemBytes));
  for (size_t i = 0; i < 3; ++i) {
    std::string path = "grid[" + std::to_string(i) + "]";
    if (!validateSymbols(m.grid[i].product, path + ".product", error))
      return false;
    if (m.grid[i].ceilDiv < 1)
      return fail(error, path + ".ceil_div",
                  "expected a positive integer, found " +
                      std::to_string(m.grid[i].ceilDiv));
  }

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
                "unknown layout \"" + p.layout + "\"; expected bhsd or bshd");
  if (p.mask != "none" && p.mask != "causal" &&
      p.mask != "causal_bottom_right")
    return fail(error, "problem.mask",
                "unknown mask \"" + p.mask +
                    "\"; expected none, causal or causal_bottom_right");
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
  int64_t headsQ = 0, headsKV = 0, side = 0;
  if (!integer("heads_q", 1, headsQ) || !integer("heads_kv", 1, headsKV) ||
      !integer("window_left", 0, side) || !integer("window_right", 0, side))
    return false;
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

  if (m.params.empty())
    return fail(error, "params", "expected at least one kernel parameter");
  bool passesLse = false;
  for (size_t i = 0; i < m.params.size(); ++i) {
    const KernelParam &param = m.params[i];
    std::string path = "params[" + std::to_string(i) + "]";
    switch (param.kind) {
    case ParamKind::TensorMap:
      if (!validateTensorMap(m, param, path, error))
        return false;
      break;
    case ParamKind::Pointer:
      if (param.tensor == TensorName::Lse) {
        if (!p.hasLse)
          return fail(error, path + ".tensor",
                      "passes the lse pointer but problem.has_lse is false");
        passesLse = true;
      }
      break;
    case ParamKind::I32:
      if (!isI32Symbol(param.value))
        return fail(error, path + ".value",
                    std::string("\"") + toString(param.value) +
                        "\" is not an i32 value; expected " +
                        listNames(kSymbols, isI32Symbol));
      break;
    case ParamKind::F32:
      if (!isF32Symbol(param.value))
        return fail(error, path + ".value",
                    std::string("\"") + toString(param.value) +
                        "\" is not an f32 value; expected " +
                        listNames(kSymbols, isF32Symbol));
      break;
    }
  }
  if (p.hasLse && !passesLse)
    return fail(error, "problem.has_lse",
                "is true but no params entry passes the lse pointer");
  return true;
}

bool attnc::rt::parseManifest(std::string_view json, Manifest &out,
                              std::string &error, std::string_view sourceName) {
  std::string source(sourceName);
  JsonValue root;
  JsonParser parser(json, error);
  if (!parser.parseDocument(root)) {
    // "file:line:col: message", as compilers print positions.
    if (!source.empty())
      error = source + ":" + error;
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
std::string quote(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\t':
      out += "\\t";
      break;
    case '\r':
      out += "\\r";
      break;
    default:
      if (static_cast<unsigned char>(c) < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof(buf), "\\u%04x", c);
        out += buf;
      } else {
        out += c;
      }
    }
  }
  return out + "\"";
}

template <typename Range, typename Fn>
std::string list(const Range &range, Fn element) {
  std::string out = "[";
  bool first = true;
  for (const auto &value : range) {
    out += first ? "" : ", ";
    out += element(value);
    first = false;
  }
  return out + "]";
}

std::string writeParam(const KernelParam &p) {
  std::string out = "{\"kind\": " + quote(toString(p.kind));
  switch (p.kind) {
  case ParamKind::TensorMap:
    out += ", \"tensor\": " + quote(toString(p.tensor));
    out += ", \"dims\": " +
           list(p.dims, [](TensorDim d) { return quote(toString(d)); });
    out += ", \"box\": " +
           list(p.box, [](int64_t b) { return std::to_string(b); });
    out += ", \"swizzle\": " + quote(toString(p.swizzle));
    out += ", \"oob_fill\": " + quote(toString(p.oobFill));
    break;
  case ParamKind::Pointer:
    out += ", \"tensor\": " + quote(toString(p.tensor));
    break;
  case ParamKind::I32:
  case ParamKind::F32:
    out += ", \"value\": " + quote(toString(p.value));
    break;
  }
  return out + "}";
}
} // namespace

std::string attnc::rt::toJson(const Manifest &m) {
  auto boolText = [](bool b) { return b ? "true" : "false"; };
  auto num = [](int64_t v) { return std::to_string(v); };
  std::string out = "{\n";
  out += "  \"format\": " + quote(m.format) + ",\n";
  out += "  \"version\": " + num(m.version) + ",\n";
  out += "  \"attnc_version\": " + quote(m.attncVersion) + ",\n";
  out += "  \"target\": " + quote(m.target) + ",\n";
  out += "  \"entry\": " + quote(m.entry) + ",\n";
  out += "  \"ptx\": " + quote(m.ptx) + ",\n";
  if (!m.cubin.empty())
    out += "  \"cubin\": " + quote(m.cubin) + ",\n";
  out += "  \"threads_per_block\": " + num(m.threadsPerBlock) + ",\n";
  out += "  \"cluster\": " + list(m.cluster, num) + ",\n";
  out += "  \"dynamic_smem_bytes\": " + num(m.dynamicSmemBytes) + ",\n";
  out += "  \"grid\": [\n";
  for (size_t i = 0; i < 3; ++i) {
    const GridDim &g = m.grid[i];
    out += "    {\"product\": " +
           list(g.product, [](Symbol s) { return quote(toString(s)); });
    if (g.ceilDiv != 1)
      out += ", \"ceil_div\": " + num(g.ceilDiv);
    out += i + 1 < 3 ? "},\n" : "}\n";
  }
  out += "  ],\n";
  const Problem &p = m.problem;
  out += "  \"problem\": {\"dtype\": " + quote(toString(p.dtype)) +
         ", \"head_dim\": " + num(p.headDim) +
         ", \"head_dim_v\": " + num(p.headDimV) +
         ", \"layout\": " + quote(p.layout) + ", \"mask\": " + quote(p.mask) +
         ", \"gqa\": " + boolText(p.gqa) +
         ", \"has_lse\": " + boolText(p.hasLse) + "},\n";
  out += "  \"alignment_bytes\": " + num(m.alignmentBytes) + ",\n";
  out += "  \"params\": [\n";
  for (size_t i = 0; i < m.params.size(); ++i)
    out += "    " + writeParam(m.params[i]) +
           (i + 1 < m.params.size() ? ",\n" : "\n");
  out += "  ],\n";
  out += "  \"options\": {";
  for (size_t i = 0; i < m.options.size(); ++i) {
    const CompileOption &o = m.options[i];
    out += (i ? ", " : "") + quote(o.name) + ": " +
           (o.isString ? quote(o.value) : o.value);
  }
  out += "}\n}\n";
  return out;
}
