#include "tools/npy/npy.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/errno_status.h"
#include "core/status_macros.h"

namespace rill {
namespace {

static_assert(sizeof(bool) == 1, ".npy bools are one byte");
static_assert(sizeof(half) == 2 && sizeof(complex64) == 8 && sizeof(complex128) == 16,
              "element layouts must match numpy's");
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "tools/npy assumes a little-endian host"
#endif

constexpr absl::string_view kMagic("\x93NUMPY", 6);
constexpr int kArrayAlign = 64;           // numpy.lib.format.ARRAY_ALIGN
constexpr int kGrowthAxisMaxDigits = 21;  // numpy.lib.format.GROWTH_AXIS_MAX_DIGITS
constexpr int kMaxLiteralDepth = 32;
// The longest header ReadNpy reads: a rank-kNpyMaxRank shape of 20-digit dims needs about 6 KB.
constexpr uint64_t kNpyMaxHeaderBytes = 1 << 20;

// ---------------------------------------------------------------------------------------------
// Errors.

absl::Status Malformed(absl::string_view name, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat(name, " is not a valid .npy file: ", why));
}

// A failed system call on `path`, with the code TensorFlow gives `err` (ErrnoToCode).
absl::Status ErrnoStatus(int err, absl::string_view what, const std::string& path) {
  return absl::Status(ErrnoToCode(err), absl::StrCat(what, " '", path, "': ", std::strerror(err)));
}

// At most `max` bytes of `s`, C-escaped, for messages.
std::string Snippet(absl::string_view s, size_t max = 80) {
  if (s.size() <= max) return absl::CHexEscape(s);
  return absl::StrCat(absl::CHexEscape(s.substr(0, max)), "...");
}

// Python's repr of a shape tuple: "()", "(3,)", "(2, 3)".
std::string ShapeRepr(absl::Span<const int64_t> dims) {
  if (dims.size() == 1) return absl::StrCat("(", dims[0], ",)");
  return absl::StrCat("(", absl::StrJoin(dims, ", "), ")");
}

// ---------------------------------------------------------------------------------------------
// The header: a Python literal (ast.literal_eval) holding a dict. This parses the subset numpy
// headers use: str, int (with Python 2's 'L' suffix), True/False/None, tuple, list, dict.

struct PyValue {
  enum Kind { kStr, kInt, kBool, kNone, kTuple, kList, kDict };
  Kind kind = kNone;
  std::string str;
  int64_t i = 0;
  bool b = false;
  std::vector<PyValue> items;                        // tuple, list
  std::vector<std::pair<PyValue, PyValue>> entries;  // dict

  std::string KindName() const {
    switch (kind) {
      case kStr:
        return "str";
      case kInt:
        return "int";
      case kBool:
        return "bool";
      case kNone:
        return "None";
      case kTuple:
        return "tuple";
      case kList:
        return "list";
      case kDict:
        return "dict";
    }
    return "?";
  }
};

class LiteralParser {
 public:
  explicit LiteralParser(absl::string_view text) : text_(text) {}

  // The whole text as one literal (surrounding whitespace allowed). Error strings say why.
  absl::StatusOr<PyValue> ParseAll() {
    RILL_ASSIGN_OR_RETURN(PyValue v, Parse(0));
    SkipSpace();
    if (pos_ != text_.size()) return Error("unexpected text after the literal");
    return v;
  }

 private:
  absl::Status Error(absl::string_view why) const {
    return absl::InvalidArgumentError(absl::StrCat(why, " at offset ", pos_));
  }
  void SkipSpace() {
    while (pos_ < text_.size() && absl::ascii_isspace(static_cast<unsigned char>(text_[pos_]))) {
      ++pos_;
    }
  }
  bool Consume(char c) {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  absl::StatusOr<PyValue> Parse(int depth) {
    if (depth > kMaxLiteralDepth) return Error("literal nested too deeply");
    SkipSpace();
    if (pos_ >= text_.size()) return Error("unexpected end of header");
    const char c = text_[pos_];
    if (c == '{') return ParseDict(depth);
    if (c == '(') return ParseSequence(depth, ')', PyValue::kTuple);
    if (c == '[') return ParseSequence(depth, ']', PyValue::kList);
    if (c == '\'' || c == '"') return ParseString();
    if ((c == 'u' || c == 'b') && pos_ + 1 < text_.size() &&
        (text_[pos_ + 1] == '\'' || text_[pos_ + 1] == '"')) {
      ++pos_;  // u'...' (Python 2 unicode) and b'...' prefixes.
      return ParseString();
    }
    if (c == '-' || c == '+' || absl::ascii_isdigit(static_cast<unsigned char>(c))) {
      return ParseInt();
    }
    if (absl::ascii_isalpha(static_cast<unsigned char>(c))) {
      const size_t start = pos_;
      while (pos_ < text_.size() &&
             (absl::ascii_isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
        ++pos_;
      }
      const absl::string_view word = text_.substr(start, pos_ - start);
      PyValue v;
      if (word == "True" || word == "False") {
        v.kind = PyValue::kBool;
        v.b = word == "True";
        return v;
      }
      if (word == "None") return v;
      pos_ = start;
      return Error(absl::StrCat("'", word, "' is not a literal"));
    }
    return Error(
        absl::StrCat("unexpected character '", absl::CHexEscape(text_.substr(pos_, 1)), "'"));
  }

  absl::StatusOr<PyValue> ParseString() {
    const char quote = text_[pos_++];
    PyValue v;
    v.kind = PyValue::kStr;
    while (pos_ < text_.size() && text_[pos_] != quote) {
      char c = text_[pos_++];
      if (c == '\n') return Error("newline inside a string");
      if (c == '\\') {
        if (pos_ >= text_.size()) break;
        c = text_[pos_++];
        switch (c) {
          case 'n':
            c = '\n';
            break;
          case 't':
            c = '\t';
            break;
          case 'r':
            c = '\r';
            break;
          case '0':
            c = '\0';
            break;
          case '\\':
          case '\'':
          case '"':
            break;
          default:
            v.str.push_back('\\');
            break;
        }
      }
      v.str.push_back(c);
    }
    if (pos_ >= text_.size()) return Error("unterminated string");
    ++pos_;  // closing quote
    return v;
  }

  absl::StatusOr<PyValue> ParseInt() {
    const size_t start = pos_;
    bool negative = false;
    if (text_[pos_] == '-' || text_[pos_] == '+') negative = text_[pos_++] == '-';
    SkipSpace();
    if (pos_ >= text_.size() || !absl::ascii_isdigit(static_cast<unsigned char>(text_[pos_]))) {
      return Error("expected digits");
    }
    uint64_t magnitude = 0;
    constexpr uint64_t kLimit = uint64_t{1} << 63;
    while (pos_ < text_.size() && absl::ascii_isdigit(static_cast<unsigned char>(text_[pos_]))) {
      const int digit = text_[pos_++] - '0';
      if (magnitude > (kLimit - digit) / 10) {
        pos_ = start;
        return Error("integer does not fit in int64");
      }
      magnitude = magnitude * 10 + digit;
    }
    if (!negative && magnitude == kLimit) {
      pos_ = start;
      return Error("integer does not fit in int64");
    }
    if (pos_ < text_.size() && (text_[pos_] == 'L' || text_[pos_] == 'l')) ++pos_;  // Python 2
    if (pos_ < text_.size() && (absl::ascii_isalpha(static_cast<unsigned char>(text_[pos_])) ||
                                text_[pos_] == '.' || text_[pos_] == '_')) {
      return Error("only decimal integers are supported");
    }
    PyValue v;
    v.kind = PyValue::kInt;
    v.i = negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
    return v;
  }

  // "(...)" or "[...]". A parenthesized single value without a comma is that value, as in Python.
  absl::StatusOr<PyValue> ParseSequence(int depth, char close, PyValue::Kind kind) {
    ++pos_;  // opening bracket
    PyValue v;
    v.kind = kind;
    bool saw_comma = false;
    while (true) {
      if (Consume(close)) break;
      RILL_ASSIGN_OR_RETURN(PyValue item, Parse(depth + 1));
      v.items.push_back(std::move(item));
      if (Consume(',')) {
        saw_comma = true;
        continue;
      }
      if (Consume(close)) break;
      return Error(absl::StrCat("expected ',' or '", std::string(1, close), "'"));
    }
    if (kind == PyValue::kTuple && v.items.size() == 1 && !saw_comma) {
      return std::move(v.items[0]);
    }
    return v;
  }

  absl::StatusOr<PyValue> ParseDict(int depth) {
    ++pos_;  // '{'
    PyValue v;
    v.kind = PyValue::kDict;
    while (true) {
      if (Consume('}')) break;
      RILL_ASSIGN_OR_RETURN(PyValue key, Parse(depth + 1));
      if (!Consume(':')) return Error("expected ':' after a dict key");
      RILL_ASSIGN_OR_RETURN(PyValue value, Parse(depth + 1));
      v.entries.emplace_back(std::move(key), std::move(value));
      if (Consume(',')) continue;
      if (Consume('}')) break;
      return Error("expected ',' or '}'");
    }
    return v;
  }

  absl::string_view text_;
  size_t pos_ = 0;
};

// ---------------------------------------------------------------------------------------------
// descr strings.

struct Descr {
  enum Kind { kNumeric, kBool, kBytes, kUnicode };
  Kind kind = kNumeric;
  DataType dtype = DT_INVALID;
  int64_t itemsize = 0;  // bytes per element in the file
  int swap_unit = 0;     // bytes per unit to reverse for big-endian data; 0: no swapping
};

absl::StatusOr<Descr> ParseDescr(const std::string& descr, absl::string_view name) {
  const std::string quoted = absl::StrCat("'", absl::CHexEscape(descr), "'");
  auto unsupported = [&](absl::string_view what) {
    return absl::UnimplementedError(
        absl::StrCat(name, ": dtype ", quoted, " (", what, ") is not supported by Rill"));
  };
  auto invalid = [&]() {
    return Malformed(name, absl::StrCat("descr ", quoted, " is not a numpy dtype descriptor"));
  };
  absl::string_view d = descr;
  bool big_endian = false;
  if (!d.empty() && (d[0] == '<' || d[0] == '>' || d[0] == '|' || d[0] == '=')) {
    big_endian = d[0] == '>';
    d.remove_prefix(1);
  }
  if (d.empty()) return invalid();
  const char kind = d[0];
  absl::string_view rest = d.substr(1);
  if (kind == 'O') {
    return absl::InvalidArgumentError(absl::StrCat(
        name, " holds an object array (descr ", quoted,
        ": pickled Python objects), which Rill does not read; save the array with a fixed-width "
        "dtype instead, e.g. np.save(path, a.astype(np.float32)), or a.astype('S') / "
        "a.astype('U') for strings"));
  }
  if (kind == 'M' || kind == 'm') {
    return unsupported(kind == 'M' ? "datetime64" : "timedelta64");
  }
  int64_t size = 0;
  if (rest.empty() || rest.size() > 15) return invalid();
  for (char c : rest) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(c))) return invalid();
    size = size * 10 + (c - '0');
  }
  Descr out;
  out.itemsize = size;
  auto numeric = [&](DataType dt, int swap_unit) -> absl::StatusOr<Descr> {
    out.kind = dt == DT_BOOL ? Descr::kBool : Descr::kNumeric;
    out.dtype = dt;
    out.swap_unit = big_endian && swap_unit > 1 ? swap_unit : 0;
    return out;
  };
  switch (kind) {
    case 'f':
      if (size == 2) return numeric(DT_HALF, 2);
      if (size == 4) return numeric(DT_FLOAT, 4);
      if (size == 8) return numeric(DT_DOUBLE, 8);
      if (size == 12 || size == 16) return unsupported("long double");
      return invalid();
    case 'i':
      if (size == 1) return numeric(DT_INT8, 1);
      if (size == 2) return numeric(DT_INT16, 2);
      if (size == 4) return numeric(DT_INT32, 4);
      if (size == 8) return numeric(DT_INT64, 8);
      return invalid();
    case 'u':
      if (size == 1) return numeric(DT_UINT8, 1);
      if (size == 2) return numeric(DT_UINT16, 2);
      if (size == 4) return numeric(DT_UINT32, 4);
      if (size == 8) return numeric(DT_UINT64, 8);
      return invalid();
    case 'b':
      if (size == 1) return numeric(DT_BOOL, 1);
      return invalid();
    case 'c':
      if (size == 8) return numeric(DT_COMPLEX64, 4);
      if (size == 16) return numeric(DT_COMPLEX128, 8);
      if (size == 24 || size == 32) return unsupported("complex long double");
      return invalid();
    case 'S':
      out.kind = Descr::kBytes;
      out.dtype = DT_STRING;
      return out;
    case 'U':
      if (size > std::numeric_limits<int64_t>::max() / 4) return invalid();
      out.kind = Descr::kUnicode;
      out.dtype = DT_STRING;
      out.itemsize = 4 * size;
      out.swap_unit = big_endian ? 4 : 0;
      return out;
    case 'V':
      return unsupported(
          size == 2 ? "raw 2-byte void; ml_dtypes saves bfloat16 this way, but the file does not "
                      "say so: cast to float32 before np.save"
                    : "raw void bytes");
    default:
      return invalid();
  }
}

// ---------------------------------------------------------------------------------------------
// Decoding the data.

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// The elements of Fortran-order `data` (column-major, `dims`) rearranged into C (row-major) order.
std::string FortranToC(absl::string_view data, absl::Span<const int64_t> dims, int64_t itemsize) {
  std::string out(data.size(), '\0');
  const int rank = static_cast<int>(dims.size());
  std::vector<int64_t> fstride(rank), idx(rank, 0);
  int64_t stride = 1;
  for (int k = 0; k < rank; ++k) {
    fstride[k] = stride;
    stride *= dims[k];
  }
  const int64_t n = static_cast<int64_t>(data.size()) / itemsize;
  int64_t f = 0;  // Fortran element offset of the C-order multi-index `idx`.
  for (int64_t c = 0; c < n; ++c) {
    std::memcpy(&out[c * itemsize], data.data() + f * itemsize, itemsize);
    for (int k = rank - 1; k >= 0; --k) {  // odometer, last axis fastest
      if (++idx[k] < dims[k]) {
        f += fstride[k];
        break;
      }
      idx[k] = 0;
      f -= fstride[k] * (dims[k] - 1);
    }
  }
  return out;
}

absl::Status DecodeInto(const Descr& descr, absl::string_view data, absl::string_view name,
                        Tensor* t) {
  const int64_t n = t->NumElements();
  switch (descr.kind) {
    case Descr::kNumeric: {
      char* dst = static_cast<char*>(t->raw_data());
      if (!data.empty()) std::memcpy(dst, data.data(), data.size());
      if (descr.swap_unit > 1) {
        const int u = descr.swap_unit;
        for (size_t off = 0; off + u <= data.size(); off += u) {
          for (int a = 0, b = u - 1; a < b; ++a, --b) std::swap(dst[off + a], dst[off + b]);
        }
      }
      return absl::OkStatus();
    }
    case Descr::kBool: {
      bool* dst = static_cast<bool*>(t->raw_data());
      for (int64_t i = 0; i < n; ++i) dst[i] = data[i] != 0;
      return absl::OkStatus();
    }
    case Descr::kBytes: {
      auto out = t->flat<std::string>();
      const size_t item = static_cast<size_t>(descr.itemsize);
      for (int64_t i = 0; i < n; ++i) {
        absl::string_view e = data.substr(i * item, item);
        while (!e.empty() && e.back() == '\0') e.remove_suffix(1);
        out[i] = std::string(e);
      }
      return absl::OkStatus();
    }
    case Descr::kUnicode: {
      auto out = t->flat<std::string>();
      const size_t units = static_cast<size_t>(descr.itemsize / 4);
      const auto* p = reinterpret_cast<const unsigned char*>(data.data());
      for (int64_t i = 0; i < n; ++i) {
        const unsigned char* e = p + i * units * 4;
        auto unit = [&](size_t k) -> uint32_t {
          const unsigned char* b = e + 4 * k;
          return descr.swap_unit
                     ? (uint32_t{b[0]} << 24 | uint32_t{b[1]} << 16 | uint32_t{b[2]} << 8 | b[3])
                     : (uint32_t{b[3]} << 24 | uint32_t{b[2]} << 16 | uint32_t{b[1]} << 8 | b[0]);
        };
        size_t len = units;
        while (len > 0 && unit(len - 1) == 0) --len;
        std::string s;
        s.reserve(len);
        for (size_t k = 0; k < len; ++k) {
          const uint32_t cp = unit(k);
          if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
            return Malformed(
                name,
                absl::StrCat("element ", i, " holds U+",
                             absl::AsciiStrToUpper(absl::StrCat(absl::Hex(cp, absl::kZeroPad4))),
                             ", which is not a Unicode scalar value and has no "
                             "UTF-8 encoding"));
          }
          AppendUtf8(cp, &s);
        }
        out[i] = std::move(s);
      }
      return absl::OkStatus();
    }
  }
  return absl::InternalError("unreachable");
}

// ---------------------------------------------------------------------------------------------
// Writing.

absl::StatusOr<std::string> WriteDescr(const Tensor& t, size_t* string_width) {
  switch (t.dtype()) {
    case DT_HALF:
      return std::string("<f2");
    case DT_FLOAT:
      return std::string("<f4");
    case DT_DOUBLE:
      return std::string("<f8");
    // A quantized tensor is written as its integers, as TensorFlow's session.run returns it.
    case DT_INT8:
    case DT_QINT8:
      return std::string("|i1");
    case DT_INT16:
    case DT_QINT16:
      return std::string("<i2");
    case DT_INT32:
    case DT_QINT32:
      return std::string("<i4");
    case DT_INT64:
      return std::string("<i8");
    case DT_UINT8:
    case DT_QUINT8:
      return std::string("|u1");
    case DT_UINT16:
    case DT_QUINT16:
      return std::string("<u2");
    case DT_UINT32:
      return std::string("<u4");
    case DT_UINT64:
      return std::string("<u8");
    case DT_BOOL:
      return std::string("|b1");
    case DT_COMPLEX64:
      return std::string("<c8");
    case DT_COMPLEX128:
      return std::string("<c16");
    case DT_STRING: {
      size_t width = 1;  // numpy turns 'S0' into 'S1' too.
      for (const std::string& s : t.flat<std::string>()) width = std::max(width, s.size());
      *string_width = width;
      return absl::StrCat("|S", width);
    }
    case DT_BFLOAT16:
      return absl::UnimplementedError(
          "cannot write a bfloat16 tensor as .npy: numpy has no bfloat16 dtype (ml_dtypes' '<V2' "
          "does not record that the bytes are bfloat16); cast it to float32 first");
    case DT_INVALID:
      return absl::InvalidArgumentError("cannot write an uninitialized Tensor as .npy");
    default:
      return absl::UnimplementedError(absl::StrCat("cannot write a tensor of dtype ",
                                                   DataTypeString(t.dtype()),
                                                   " as .npy: numpy has no such dtype"));
  }
}

// numpy.lib.format._write_array_header + _wrap_header for a C-order array: the dict, spare spaces
// for growing axis 0, then spaces and '\n' so that the data starts at a multiple of 64.
std::string Header(const std::string& descr, absl::Span<const int64_t> dims) {
  std::string dict = absl::StrCat("{'descr': '", descr,
                                  "', 'fortran_order': False, 'shape': ", ShapeRepr(dims), ", }");
  if (!dims.empty()) {
    const int digits = static_cast<int>(absl::StrCat(dims[0]).size());
    dict.append(std::max(0, kGrowthAxisMaxDigits - digits), ' ');
  }
  for (int major : {1, 2}) {
    const size_t prefix = kMagic.size() + 2 + (major == 1 ? 2 : 4);
    const size_t hlen = dict.size() + 1;
    const size_t padlen = kArrayAlign - (prefix + hlen) % kArrayAlign;  // 1..64, as numpy's
    const size_t total = hlen + padlen;
    if (major == 1 && total > 0xFFFF) continue;
    std::string out(kMagic);
    out.push_back(static_cast<char>(major));
    out.push_back('\0');
    for (size_t i = 0; i < prefix - kMagic.size() - 2; ++i) {
      out.push_back(static_cast<char>((total >> (8 * i)) & 0xFF));
    }
    out += dict;
    out.append(padlen, ' ');
    out.push_back('\n');
    return out;
  }
  return "";  // unreachable: version 2.0 takes 4 GiB headers
}

// ---------------------------------------------------------------------------------------------

struct NpyHeader {
  Descr descr;
  std::string descr_str;
  std::vector<int64_t> dims;
  TensorShape shape;
  bool fortran_order;
  size_t data_offset;  // where the data starts in the file

  // Whether `size` bytes of data are not what the shape and dtype need.
  bool DataSizeDiffers(uint64_t size) const {
    const uint64_t n = static_cast<uint64_t>(shape.num_elements());
    const uint64_t item = static_cast<uint64_t>(descr.itemsize);
    const bool overflow = item != 0 && n > std::numeric_limits<uint64_t>::max() / item;
    return overflow || n * item != size;
  }
};

absl::Status DataSizeError(const NpyHeader& h, absl::string_view size, absl::string_view name) {
  const uint64_t n = static_cast<uint64_t>(h.shape.num_elements());
  const uint64_t item = static_cast<uint64_t>(h.descr.itemsize);
  const bool overflow = item != 0 && n > std::numeric_limits<uint64_t>::max() / item;
  return Malformed(name,
                   absl::StrCat("data is ", size, " bytes but shape ", ShapeRepr(h.dims), " of '",
                                absl::CHexEscape(h.descr_str), "' needs ",
                                overflow ? "more than 2^64" : absl::StrCat(n * item), " bytes"));
}

// The header of the .npy file whose first bytes are `bytes` (at least the magic, version,
// length field and header; the data may follow or not).
absl::StatusOr<NpyHeader> ParseNpyHeader(absl::string_view bytes, absl::string_view name) {
  if (bytes.size() < kMagic.size() || bytes.substr(0, kMagic.size()) != kMagic) {
    if (kMagic.substr(0, bytes.size()) == bytes) {
      return Malformed(name, absl::StrCat("truncated: only ", bytes.size(), " bytes"));
    }
    return Malformed(name, absl::StrCat("bad magic: it starts with \"", Snippet(bytes.substr(0, 6)),
                                        "\", not \"\\x93NUMPY\""));
  }
  if (bytes.size() < 8) {
    return Malformed(name, absl::StrCat("truncated header: only ", bytes.size(), " bytes"));
  }
  const int major = static_cast<unsigned char>(bytes[6]);
  const int minor = static_cast<unsigned char>(bytes[7]);
  if (major < 1 || major > 3 || minor != 0) {
    return Malformed(name, absl::StrCat("unsupported format version ", major, ".", minor,
                                        " (Rill reads 1.0, 2.0 and 3.0)"));
  }
  const size_t len_bytes = major == 1 ? 2 : 4;
  const size_t prefix = 8 + len_bytes;
  if (bytes.size() < prefix) {
    return Malformed(name, absl::StrCat("truncated header: only ", bytes.size(), " bytes"));
  }
  uint64_t header_len = 0;
  for (size_t i = 0; i < len_bytes; ++i) {
    header_len |= uint64_t{static_cast<unsigned char>(bytes[8 + i])} << (8 * i);
  }
  if (bytes.size() - prefix < header_len) {
    return Malformed(name, absl::StrCat("truncated header: its length field says ", header_len,
                                        " bytes but only ", bytes.size() - prefix, " follow"));
  }
  const absl::string_view header = bytes.substr(prefix, header_len);

  absl::StatusOr<PyValue> parsed = LiteralParser(header).ParseAll();
  if (!parsed.ok()) {
    return Malformed(name, absl::StrCat("header is not a Python literal (",
                                        parsed.status().message(), "): \"", Snippet(header), "\""));
  }
  if (parsed->kind != PyValue::kDict) {
    return Malformed(name, absl::StrCat("header must be a dict, not ", parsed->KindName(), ": \"",
                                        Snippet(header), "\""));
  }
  const PyValue* descr_v = nullptr;
  const PyValue* fortran_v = nullptr;
  const PyValue* shape_v = nullptr;
  for (const auto& [key, value] : parsed->entries) {
    const PyValue** slot = nullptr;
    if (key.kind == PyValue::kStr) {
      if (key.str == "descr") slot = &descr_v;
      if (key.str == "fortran_order") slot = &fortran_v;
      if (key.str == "shape") slot = &shape_v;
    }
    if (slot == nullptr) {
      return Malformed(name, absl::StrCat("header has an unexpected key ",
                                          key.kind == PyValue::kStr
                                              ? absl::StrCat("'", absl::CHexEscape(key.str), "'")
                                              : absl::StrCat("of type ", key.KindName()),
                                          " (expected 'descr', 'fortran_order', 'shape')"));
    }
    *slot = &value;
  }
  for (const auto& [v, key] : {std::pair<const PyValue*, const char*>{descr_v, "descr"},
                               {fortran_v, "fortran_order"},
                               {shape_v, "shape"}}) {
    if (v == nullptr) return Malformed(name, absl::StrCat("header has no '", key, "' key"));
  }
  if (fortran_v->kind != PyValue::kBool) {
    return Malformed(
        name, absl::StrCat("'fortran_order' must be True or False, not ", fortran_v->KindName()));
  }
  if (shape_v->kind != PyValue::kTuple) {
    return Malformed(name, absl::StrCat("'shape' must be a tuple, not ", shape_v->KindName()));
  }
  if (shape_v->items.size() > static_cast<size_t>(kNpyMaxRank)) {
    return Malformed(name, absl::StrCat("'shape' has rank ", shape_v->items.size(), ", more than ",
                                        kNpyMaxRank, " (TensorFlow's limit on a shape's rank)"));
  }
  std::vector<int64_t> dims;
  for (const PyValue& d : shape_v->items) {
    if (d.kind != PyValue::kInt) {
      return Malformed(name, absl::StrCat("'shape' must hold ints, not ", d.KindName()));
    }
    dims.push_back(d.i);
  }
  absl::StatusOr<TensorShape> shape = TensorShape::FromDims(dims);
  if (!shape.ok()) {
    return Malformed(name,
                     absl::StrCat("bad shape ", ShapeRepr(dims), ": ", shape.status().message()));
  }
  if (descr_v->kind == PyValue::kList) {
    return absl::UnimplementedError(
        absl::StrCat(name, ": structured dtypes (a list 'descr') are not supported by Rill"));
  }
  if (descr_v->kind != PyValue::kStr) {
    return Malformed(name, absl::StrCat("'descr' must be a str, not ", descr_v->KindName()));
  }
  RILL_ASSIGN_OR_RETURN(const Descr descr, ParseDescr(descr_v->str, name));
  NpyHeader h{descr, descr_v->str, std::move(dims), *shape, fortran_v->b, prefix + header_len};
  return h;
}

// The Tensor `h` describes, from its `data`.
absl::StatusOr<Tensor> DecodeNpy(const NpyHeader& h, absl::string_view data,
                                 absl::string_view name) {
  if (h.DataSizeDiffers(data.size())) return DataSizeError(h, absl::StrCat(data.size()), name);
  const Descr& descr = h.descr;
  RILL_ASSIGN_OR_RETURN(Tensor t, Tensor::Allocate(CpuAllocator::Default(), descr.dtype, h.shape));
  if (h.fortran_order && h.dims.size() > 1 && !data.empty()) {
    const std::string c_order = FortranToC(data, h.dims, descr.itemsize);
    RILL_RETURN_IF_ERROR(DecodeInto(descr, c_order, name, &t));
  } else {
    RILL_RETURN_IF_ERROR(DecodeInto(descr, data, name, &t));
  }
  return t;
}

}  // namespace

absl::StatusOr<Tensor> ParseNpy(absl::string_view bytes, absl::string_view name) {
  RILL_ASSIGN_OR_RETURN(const NpyHeader h, ParseNpyHeader(bytes, name));
  return DecodeNpy(h, bytes.substr(h.data_offset), name);
}

absl::StatusOr<Tensor> ReadNpy(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return ErrnoStatus(errno, "cannot open .npy file", path);
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> closer(f, &std::fclose);
  // Reads up to `n` more bytes into `bytes` (fewer at the end of the file).
  auto read_up_to = [&](uint64_t n, std::string* bytes) {
    char buf[1 << 16];
    while (n > 0) {
      const size_t want = static_cast<size_t>(std::min<uint64_t>(n, sizeof(buf)));
      const size_t got = std::fread(buf, 1, want, f);
      bytes->append(buf, got);
      n -= got;
      if (got < want) break;
    }
  };
  // The magic, version and header length first, then the header: what the file holds is known
  // before its data is read, so a device or pipe (/dev/zero) is never read without bound.
  std::string bytes;
  read_up_to(8, &bytes);
  if (bytes.size() == 8 && absl::string_view(bytes).substr(0, kMagic.size()) == kMagic) {
    read_up_to(bytes[6] == 1 ? 2 : 4, &bytes);
  }
  if (std::ferror(f)) return ErrnoStatus(errno, "cannot read .npy file", path);
  if (bytes.size() < 10 || absl::string_view(bytes).substr(0, kMagic.size()) != kMagic ||
      bytes[6] < 1 || bytes[6] > 3 || bytes[7] != 0) {
    return ParseNpy(bytes, path);  // its message for a bad magic, version or truncation
  }
  uint64_t header_len = 0;
  for (size_t i = 8; i < bytes.size(); ++i) {
    header_len |= uint64_t{static_cast<unsigned char>(bytes[i])} << (8 * (i - 8));
  }
  if (header_len > kNpyMaxHeaderBytes) {
    return Malformed(path, absl::StrCat("its header length field says ", header_len,
                                        " bytes, more than the ", kNpyMaxHeaderBytes,
                                        " a .npy header of rank <= ", kNpyMaxRank, " needs"));
  }
  read_up_to(header_len, &bytes);
  if (std::ferror(f)) return ErrnoStatus(errno, "cannot read .npy file", path);
  RILL_ASSIGN_OR_RETURN(const NpyHeader h, ParseNpyHeader(bytes, path));
  const uint64_t n = static_cast<uint64_t>(h.shape.num_elements());
  const uint64_t item = static_cast<uint64_t>(h.descr.itemsize);
  const bool overflow = item != 0 && n > std::numeric_limits<uint64_t>::max() / item;
  struct stat st;
  if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode)) {
    const uint64_t size = static_cast<uint64_t>(st.st_size);
    const uint64_t data = size > h.data_offset ? size - h.data_offset : 0;
    if (h.DataSizeDiffers(data)) return DataSizeError(h, absl::StrCat(data), path);
    bytes.reserve(static_cast<size_t>(size) + 1);
  } else if (overflow) {
    return DataSizeError(h, "an unknown number of", path);
  }
  // One byte past the data the header promises: trailing bytes are an error.
  if (!overflow) read_up_to(n * item + 1, &bytes);
  if (std::ferror(f)) return ErrnoStatus(errno, "cannot read .npy file", path);
  const absl::string_view data = absl::string_view(bytes).substr(h.data_offset);
  if (data.size() > n * item) {
    return DataSizeError(h, absl::StrCat("more than ", n * item), path);
  }
  return DecodeNpy(h, data, path);
}

absl::StatusOr<std::string> SerializeNpy(const Tensor& tensor) {
  size_t width = 0;
  RILL_ASSIGN_OR_RETURN(const std::string descr, WriteDescr(tensor, &width));
  std::string out = Header(descr, tensor.shape().dims());
  if (tensor.dtype() == DT_STRING) {
    out.reserve(out.size() + width * tensor.NumElements());
    for (const std::string& s : tensor.flat<std::string>()) {
      out += s;
      out.append(width - s.size(), '\0');
    }
  } else {
    if (tensor.TotalBytes() > 0) {
      out.append(static_cast<const char*>(tensor.raw_data()), tensor.TotalBytes());
    }
  }
  return out;
}

absl::Status WriteNpy(const std::string& path, const Tensor& tensor) {
  RILL_ASSIGN_OR_RETURN(const std::string bytes, SerializeNpy(tensor));
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return ErrnoStatus(errno, "cannot create .npy file", path);
  const size_t wrote = std::fwrite(bytes.data(), 1, bytes.size(), f);
  const int write_errno = errno;
  if (wrote != bytes.size()) {
    std::fclose(f);
    return ErrnoStatus(write_errno, "cannot write .npy file", path);
  }
  if (std::fclose(f) != 0) return ErrnoStatus(errno, "cannot write .npy file", path);
  return absl::OkStatus();
}

}  // namespace rill
