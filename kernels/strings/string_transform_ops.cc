// String transformation kernels on the CPU:
//   StringLength: bytes (unit BYTE) or UTF-8 characters (UTF8_CHAR: bytes that are not
//     continuation bytes 10xxxxxx) of each string, int32.
//   StringLower / StringUpper: ASCII case mapping (encoding "" or "utf-8"; TensorFlow maps
//     non-ASCII characters too with "utf-8": those strings fail with Unimplemented here).
//   Substr: the substring at pos of length len (bytes or UTF-8 characters): pos < 0 counts from
//     the end, len past the end takes the rest; in bytes a negative len takes the rest, in
//     UTF-8 characters nothing (pos >= 0) or an error (pos < 0), as TensorFlow's kernel does
//     (Utf8Span). pos and len have one shape: the input's
//     (elementwise), a scalar (for every string), or one the input broadcasts with.
//   StringStrip: leading and trailing ASCII whitespace removed.
//   StringToNumber: float / double as strtof / strtod (decimal, hex, inf, nan; overflow is inf),
//     int32 / int64 as optionally signed decimal digits, out-of-range failing; surrounding ASCII
//     whitespace allowed, nothing else.
//   (StringToHashBucketFast and the other hashes are in hash_ops.cc.)
//   StaticRegexReplace, RegexReplace: RE2 Replace (first match) or GlobalReplace of each string
//     (a malformed rewrite is no error: RE2's result, as in TensorFlow);
//     RegexFullMatch: RE2 FullMatch, pattern a scalar input (the last pattern's RE2 is kept).
//   StringSplitV2: a vector of strings split on sep (every occurrence, empty pieces kept) or, with
//     sep "", on runs of whitespace (empty pieces dropped), at most maxsplit splits (-1: no
//     limit); the pieces as a sparse [rows, max pieces] matrix (indices, values, dense shape).
//   ReduceJoin: the strings along reduction_indices joined with separator, the first listed
//     dimension varying fastest (TensorFlow's order); keep_dims keeps them as 1s.
// Errors are TensorFlow's texts: "pos 3 out of range for string b'ab' at index 1", "pos and len
// should have the same shape, got: [] vs. [2]", "StringToNumberOp could not correctly convert
// string: 1.5abc", "only utf-8 or '' (no encoding) is supported, received latin", "input must be a
// vector, got shape: [2,2]", "Invalid reduction dimension 2 for input with 2 dimension(s)"
// (OutOfRange), "Duplicate reduction dimension -1", "Invalid pattern: (, error: ...".
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "core/mutex.h"
#include "core/status_macros.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"
#include "re2/re2.h"

namespace rill {
namespace {

bool IsContinuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

int64_t Utf8Length(absl::string_view s) {
  int64_t n = 0;
  for (char c : s) n += IsContinuation(c) ? 0 : 1;
  return n;
}

bool IsUtf8Unit(const std::string& unit) { return unit == "UTF8_CHAR"; }

// --- StringLength, StringLower / StringUpper, StringStrip ------------------------------------
class StringLengthOp final : public OpKernel {
 public:
  explicit StringLengthOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    std::string unit;
    ctx.SetStatus(ctx.GetAttr("unit", &unit));
    utf8_ = IsUtf8Unit(unit);
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, in.shape()));
    auto s = in.flat<std::string>();
    auto z = out->flat<int32_t>();
    for (size_t i = 0; i < s.size(); ++i) {
      z[i] = static_cast<int32_t>(utf8_ ? Utf8Length(s[i]) : static_cast<int64_t>(s[i].size()));
    }
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }

 private:
  bool utf8_ = false;
};

template <bool kUpper>
class StringCaseOp final : public OpKernel {
 public:
  explicit StringCaseOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    absl::Status s = ctx.GetAttr("encoding", &encoding_);
    if (s.ok() && !encoding_.empty() && encoding_ != "utf-8") {
      s = absl::InvalidArgumentError(
          absl::StrCat("only utf-8 or '' (no encoding) is supported, received ", encoding_));
    }
    ctx.SetStatus(s);
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, in.shape()));
    auto s = in.flat<std::string>();
    auto z = out->flat<std::string>();
    for (size_t i = 0; i < s.size(); ++i) {
      if (!encoding_.empty()) {
        for (char c : s[i]) {
          if (static_cast<unsigned char>(c) >= 0x80) {
            return absl::UnimplementedError(
                "case mapping of non-ASCII UTF-8 characters is not supported");
          }
        }
      }
      z[i] = kUpper ? absl::AsciiStrToUpper(s[i]) : absl::AsciiStrToLower(s[i]);
    }
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }

 private:
  std::string encoding_;
};

class StringStripOp final : public OpKernel {
 public:
  explicit StringStripOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, in.shape()));
    auto s = in.flat<std::string>();
    auto z = out->flat<std::string>();
    for (size_t i = 0; i < s.size(); ++i) z[i] = std::string(absl::StripAsciiWhitespace(s[i]));
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }
};

// --- Substr ---------------------------------------------------------------------------------
class SubstrOp final : public OpKernel {
 public:
  explicit SubstrOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    std::string unit;
    ctx.SetStatus(ctx.GetAttr("unit", &unit));
    utf8_ = IsUtf8Unit(unit);
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    const Tensor& pos_t = ctx.input(1);
    const Tensor& len_t = ctx.input(2);
    if (pos_t.shape() != len_t.shape()) {
      return absl::InvalidArgumentError(
          absl::StrCat("pos and len should have the same shape, got: ", pos_t.shape().DebugString(),
                       " vs. ", len_t.shape().DebugString()));
    }
    const std::vector<int64_t> pos = IndexValues(pos_t);
    const std::vector<int64_t> len = IndexValues(len_t);
    auto s = in.flat<std::string>();
    const TensorShape is = in.shape(), ps = pos_t.shape();
    if (is == ps || ps.rank() == 0) {
      RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, is));
      auto z = out->flat<std::string>();
      const bool scalar = ps.rank() == 0;
      for (size_t i = 0; i < s.size(); ++i) {
        RILL_RETURN_IF_ERROR(
            One(s[i], pos[scalar ? 0 : i], len[scalar ? 0 : i], i, !scalar, &z[i]));
      }
      return absl::OkStatus();
    }
    // Broadcasting: numpy rules over the input and pos shapes.
    const int rank = std::max(is.rank(), ps.rank());
    std::vector<int64_t> out_dims(rank);
    for (int d = 0; d < rank; ++d) {
      const int di = d - (rank - is.rank()), dp = d - (rank - ps.rank());
      const int64_t a = di >= 0 ? is.dim(di) : 1, b = dp >= 0 ? ps.dim(dp) : 1;
      if (a != b && a != 1 && b != 1) {
        return absl::InvalidArgumentError(
            absl::StrCat("Incompatible shapes: ", is.DebugString(), " vs. ", ps.DebugString()));
      }
      out_dims[d] = a == 1 ? b : a;
    }
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::FromDims(out_dims));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    auto z = out->flat<std::string>();
    const int64_t n = out_shape.num_elements();
    std::vector<int64_t> idx(rank, 0);
    for (int64_t o = 0; o < n; ++o) {
      int64_t oi = 0, op = 0;
      for (int d = 0; d < rank; ++d) {
        const int di = d - (rank - is.rank()), dp = d - (rank - ps.rank());
        if (di >= 0) oi = oi * is.dim(di) + (is.dim(di) == 1 ? 0 : idx[d]);
        if (dp >= 0) op = op * ps.dim(dp) + (ps.dim(dp) == 1 ? 0 : idx[d]);
      }
      RILL_RETURN_IF_ERROR(One(s[oi], pos[op], len[op], o, false, &z[o]));
      for (int d = rank - 1; d >= 0; --d) {
        if (++idx[d] < out_dims[d]) break;
        idx[d] = 0;
      }
    }
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }

 private:
  absl::Status One(const std::string& s, int64_t pos, int64_t len, int64_t index, bool show_string,
                   std::string* out) const {
    if (utf8_) {
      int64_t begin = 0, end = 0;
      if (!Utf8Span(s, pos, len, &begin, &end)) {
        return absl::InvalidArgumentError(
            absl::StrCat("pos ", pos, " out of range for string at index ", index));
      }
      *out = s.substr(static_cast<size_t>(begin), static_cast<size_t>(end - begin));
      return absl::OkStatus();
    }
    const int64_t size = static_cast<int64_t>(s.size());
    const int64_t p = pos < 0 ? pos + size : pos;
    if (p < 0 || p > size) {
      return absl::InvalidArgumentError(
          absl::StrCat("pos ", pos, " out of range for string",
                       show_string ? absl::StrCat(" b'", absl::CEscape(s), "'") : std::string(),
                       " at index ", index));
    }
    const int64_t l = (len < 0 || len > size - p) ? size - p : len;
    *out = s.substr(static_cast<size_t>(p), static_cast<size_t>(l));
    return absl::OkStatus();
  }

  // Moves byte offset *at of s forward (backward) over n UTF-8 characters, a character being a
  // byte and the continuation bytes after it (TensorFlow's stepping, which malformed strings
  // follow too); false when s ends (starts) first. n <= 0 moves nothing; false for n < 0.
  static bool Forward(absl::string_view s, int64_t n, int64_t* at) {
    const int64_t size = static_cast<int64_t>(s.size());
    int64_t counted = 0;
    while (counted < n && *at < size) {
      do {
        ++*at;
      } while (*at < size && IsContinuation(s[*at]));
      ++counted;
    }
    return counted == n;
  }
  static bool Back(absl::string_view s, int64_t n, int64_t* at) {
    int64_t counted = 0;
    while (counted<n&& * at> 0) {
      do {
        --*at;
      } while (*at > 0 && IsContinuation(s[*at]));
      ++counted;
    }
    return counted == n;
  }

  // The bytes [*begin, *end) of Substr in UTF8_CHAR units, by TensorFlow's rules: pos >= 0 steps
  // pos characters from the start (out of range past the end), then len forward (a negative len
  // takes nothing, past the end takes the rest); pos < 0 skips max(0, -pos - len) characters back
  // from the end, then -pos - skip more (out of range where the string starts first, and
  // whenever len < 0). Computed in 128 bits: -pos - len of int64 extremes overflows int64.
  static bool Utf8Span(absl::string_view s, int64_t pos, int64_t len, int64_t* begin,
                       int64_t* end) {
    if (pos >= 0) {
      *begin = 0;
      if (!Forward(s, pos, begin)) return false;
      *end = *begin;
      Forward(s, len, end);
      return true;
    }
    const __int128 skip = std::max<__int128>(0, -static_cast<__int128>(pos) - len);
    const __int128 back = -static_cast<__int128>(pos) - skip;
    const __int128 limit = std::numeric_limits<int64_t>::max();
    if (skip > limit || back < 0 || back > limit) return false;
    *end = static_cast<int64_t>(s.size());
    if (!Back(s, static_cast<int64_t>(skip), end)) return false;
    *begin = *end;
    return Back(s, static_cast<int64_t>(back), begin);
  }

  bool utf8_ = false;
};

// --- StringToNumber ---------------------------------------------------------------------------
constexpr char kConvertError[] = "StringToNumberOp could not correctly convert string: ";

template <typename T>
bool ParseNumber(absl::string_view text, T* out) {
  const absl::string_view s = absl::StripAsciiWhitespace(text);
  if (s.empty()) return false;
  const std::string buf(s);
  if constexpr (std::is_floating_point_v<T>) {
    char* end = nullptr;
    if constexpr (std::is_same_v<T, float>) {
      *out = std::strtof(buf.c_str(), &end);
    } else {
      *out = std::strtod(buf.c_str(), &end);
    }
    return end == buf.c_str() + buf.size() && buf.find('(') == std::string::npos;
  } else {
    size_t i = 0;
    bool negative = false;
    if (buf[0] == '+' || buf[0] == '-') {
      negative = buf[0] == '-';
      i = 1;
    }
    if (i == buf.size()) return false;
    // Accumulate the magnitude as unsigned 64-bit, checking overflow, then the range of T.
    uint64_t v = 0;
    for (; i < buf.size(); ++i) {
      if (buf[i] < '0' || buf[i] > '9') return false;
      const uint64_t digit = static_cast<uint64_t>(buf[i] - '0');
      if (v > (std::numeric_limits<uint64_t>::max() - digit) / 10) return false;
      v = v * 10 + digit;
    }
    const uint64_t max_pos = static_cast<uint64_t>(std::numeric_limits<T>::max());
    const uint64_t max_neg = max_pos + 1;  // |min| of a signed T
    if (negative) {
      if (v > max_neg) return false;
      *out = v == max_neg ? std::numeric_limits<T>::min() : -static_cast<T>(v);
    } else {
      if (v > max_pos) return false;
      *out = static_cast<T>(v);
    }
    return true;
  }
}

class StringToNumberOp final : public OpKernel {
 public:
  explicit StringToNumberOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, in.shape()));
    auto s = in.flat<std::string>();
    return VisitKernelTypes<float, double, int32_t, int64_t>(*this, out->dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      auto z = out->flat<T>();
      for (size_t i = 0; i < s.size(); ++i) {
        if (!ParseNumber<T>(s[i], &z[i])) {
          return absl::InvalidArgumentError(absl::StrCat(kConvertError, s[i]));
        }
      }
      return absl::OkStatus();
    });
  }
  bool IsExpensive() const override { return false; }
};

// --- regular expressions --------------------------------------------------------------------
absl::StatusOr<std::unique_ptr<RE2>> Compile(const std::string& pattern) {
  RE2::Options options;
  options.set_log_errors(false);
  auto re = std::make_unique<RE2>(pattern, options);
  if (!re->ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("Invalid pattern: ", pattern, ", error: ", re->error()));
  }
  return re;
}

// The compiled RE2 of the last pattern a kernel whose pattern is an input was run with (a graph
// feeds the same pattern on every run; TensorFlow keeps one the same way). Thread-safe.
class LastRegex {
 public:
  absl::StatusOr<std::shared_ptr<const RE2>> Get(const std::string& pattern) {
    {
      MutexLock lock(&mu_);
      if (re_ != nullptr && pattern_ == pattern) return re_;
    }
    RILL_ASSIGN_OR_RETURN(std::unique_ptr<RE2> compiled, Compile(pattern));  // outside the lock
    std::shared_ptr<const RE2> re(std::move(compiled));
    MutexLock lock(&mu_);
    pattern_ = pattern;
    re_ = re;
    return re;
  }

 private:
  Mutex mu_;
  std::string pattern_;            // guarded by mu_
  std::shared_ptr<const RE2> re_;  // guarded by mu_
};

// The rewrite is not checked, as in TensorFlow: RE2 leaves a string whose rewrite names a group
// the pattern lacks ("\\9") as it is, and one whose rewrite has a trailing or unknown escape as
// it is with Replace, while GlobalReplace puts the rewrite's text before the escape in place of
// each match.
absl::Status ReplaceAll(const Tensor& in, const RE2& re, const std::string& rewrite, bool global,
                        Tensor* out) {
  auto s = in.flat<std::string>();
  auto z = out->flat<std::string>();
  for (size_t i = 0; i < s.size(); ++i) {
    z[i] = s[i];
    if (global) {
      RE2::GlobalReplace(&z[i], re, rewrite);
    } else {
      RE2::Replace(&z[i], re, rewrite);
    }
  }
  return absl::OkStatus();
}

class StaticRegexReplaceOp final : public OpKernel {
 public:
  explicit StaticRegexReplaceOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    std::string pattern;
    absl::Status s = ctx.GetAttr("pattern", &pattern);
    if (s.ok()) s = ctx.GetAttr("rewrite", &rewrite_);
    if (s.ok()) s = ctx.GetAttr("replace_global", &global_);
    if (s.ok()) {
      absl::StatusOr<std::unique_ptr<RE2>> re = Compile(pattern);
      if (re.ok()) {
        re_ = *std::move(re);
      } else {
        s = re.status();
      }
    }
    ctx.SetStatus(s);
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, in.shape()));
    return ReplaceAll(in, *re_, rewrite_, global_, out);
  }
  bool IsExpensive() const override { return false; }

 private:
  std::unique_ptr<RE2> re_;
  std::string rewrite_;
  bool global_ = true;
};

absl::Status ScalarString(const Tensor& t, const char* what, std::string* out) {
  if (t.shape().rank() != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " must be scalar, but received ", t.shape().DebugString()));
  }
  *out = t.flat<std::string>()[0];
  return absl::OkStatus();
}

class RegexReplaceOp final : public OpKernel {
 public:
  explicit RegexReplaceOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("replace_global", &global_));
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    std::string pattern, rewrite;
    RILL_RETURN_IF_ERROR(ScalarString(ctx.input(1), "Pattern", &pattern));
    RILL_RETURN_IF_ERROR(ScalarString(ctx.input(2), "Rewrite", &rewrite));
    RILL_ASSIGN_OR_RETURN(std::shared_ptr<const RE2> re, last_.Get(pattern));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, in.shape()));
    return ReplaceAll(in, *re, rewrite, global_, out);
  }

 private:
  bool global_ = true;
  mutable LastRegex last_;
};

class RegexFullMatchOp final : public OpKernel {
 public:
  explicit RegexFullMatchOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    std::string pattern;
    RILL_RETURN_IF_ERROR(ScalarString(ctx.input(1), "Pattern", &pattern));
    RILL_ASSIGN_OR_RETURN(std::shared_ptr<const RE2> re, last_.Get(pattern));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, in.shape()));
    auto s = in.flat<std::string>();
    auto z = out->flat<bool>();
    for (size_t i = 0; i < s.size(); ++i) z[i] = RE2::FullMatch(s[i], *re);
    return absl::OkStatus();
  }

 private:
  mutable LastRegex last_;
};

// --- StringSplitV2 --------------------------------------------------------------------------
bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

std::vector<absl::string_view> SplitOne(absl::string_view s, absl::string_view sep,
                                        int64_t maxsplit) {
  std::vector<absl::string_view> parts;
  if (sep.empty()) {
    size_t i = 0;
    while (true) {
      while (i < s.size() && IsSpace(s[i])) ++i;
      if (i == s.size()) break;
      if (maxsplit >= 0 && static_cast<int64_t>(parts.size()) == maxsplit) {
        parts.push_back(s.substr(i));
        break;
      }
      size_t j = i;
      while (j < s.size() && !IsSpace(s[j])) ++j;
      parts.push_back(s.substr(i, j - i));
      i = j;
    }
    return parts;
  }
  size_t start = 0;
  while (true) {
    const size_t at = (maxsplit >= 0 && static_cast<int64_t>(parts.size()) == maxsplit)
                          ? absl::string_view::npos
                          : s.find(sep, start);
    if (at == absl::string_view::npos) {
      parts.push_back(s.substr(start));
      break;
    }
    parts.push_back(s.substr(start, at - start));
    start = at + sep.size();
  }
  return parts;
}

// StringSplit (tf.compat.v1.string_split): every byte of `delimiter` splits (an empty one
// splits into single bytes); empty pieces are dropped when skip_empty, and an empty string gives
// no piece.
std::vector<absl::string_view> SplitOnAnyOf(absl::string_view s, absl::string_view delimiters,
                                            bool skip_empty) {
  std::vector<absl::string_view> parts;
  if (s.empty()) return parts;
  if (delimiters.empty()) {
    for (size_t i = 0; i < s.size(); ++i) parts.push_back(s.substr(i, 1));
    return parts;
  }
  size_t start = 0;
  while (true) {
    const size_t at = s.find_first_of(delimiters, start);
    const absl::string_view piece =
        s.substr(start, at == absl::string_view::npos ? absl::string_view::npos : at - start);
    if (!skip_empty || !piece.empty()) parts.push_back(piece);
    if (at == absl::string_view::npos) break;
    start = at + 1;
  }
  return parts;
}

// StringSplitV2, and StringSplit (v1: `delimiter` a set of bytes, skip_empty).
class StringSplitV2Op final : public OpKernel {
 public:
  explicit StringSplitV2Op(OpKernelConstruction& ctx) : OpKernel(ctx) {
    v1_ = ctx.def().op() == "StringSplit";
    ctx.SetStatus(v1_ ? ctx.GetAttr("skip_empty", &skip_empty_)
                      : ctx.GetAttr("maxsplit", &maxsplit_));
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    const Tensor& sep_t = ctx.input(1);
    if (in.shape().rank() != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("input must be a vector, got shape: ", in.shape().DebugString()));
    }
    if (sep_t.shape().rank() != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(v1_ ? "delimiter" : "sep",
                       " must be a scalar, got shape: ", sep_t.shape().DebugString()));
    }
    const std::string& sep = sep_t.flat<std::string>()[0];
    auto s = in.flat<std::string>();
    std::vector<std::vector<absl::string_view>> rows(s.size());
    int64_t total = 0, widest = 0;
    for (size_t i = 0; i < s.size(); ++i) {
      rows[i] = v1_ ? SplitOnAnyOf(s[i], sep, skip_empty_) : SplitOne(s[i], sep, maxsplit_);
      total += static_cast<int64_t>(rows[i].size());
      widest = std::max<int64_t>(widest, static_cast<int64_t>(rows[i].size()));
    }
    RILL_ASSIGN_OR_RETURN(Tensor * indices, ctx.allocate_output(0, TensorShape({total, 2})));
    RILL_ASSIGN_OR_RETURN(Tensor * values, ctx.allocate_output(1, TensorShape({total})));
    RILL_ASSIGN_OR_RETURN(Tensor * shape, ctx.allocate_output(2, TensorShape({2})));
    auto ix = indices->flat<int64_t>();
    auto v = values->flat<std::string>();
    int64_t k = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
      for (size_t j = 0; j < rows[i].size(); ++j, ++k) {
        ix[2 * k] = static_cast<int64_t>(i);
        ix[2 * k + 1] = static_cast<int64_t>(j);
        v[k] = std::string(rows[i][j]);
      }
    }
    shape->flat<int64_t>()[0] = static_cast<int64_t>(s.size());
    shape->flat<int64_t>()[1] = widest;
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }

 private:
  bool v1_ = false;
  int64_t maxsplit_ = -1;
  bool skip_empty_ = true;
};

// --- ReduceJoin -----------------------------------------------------------------------------
class ReduceJoinOp final : public OpKernel {
 public:
  explicit ReduceJoinOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("keep_dims", &keep_dims_));
    ctx.SetStatus(ctx.GetAttr("separator", &separator_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    const TensorShape is = in.shape();
    const int rank = is.rank();
    const std::vector<int64_t> axes_in = IndexValues(ctx.input(1));
    std::vector<int> axes;  // normalized, in the given order
    std::vector<bool> reduced(rank, false);
    for (int64_t a : axes_in) {
      if (a < -rank || a >= rank) {
        return absl::OutOfRangeError(absl::StrCat("Invalid reduction dimension ", a,
                                                  " for input with ", rank, " dimension(s)"));
      }
      const int d = static_cast<int>(a < 0 ? a + rank : a);
      if (reduced[d]) {
        return absl::InvalidArgumentError(absl::StrCat("Duplicate reduction dimension ", a));
      }
      reduced[d] = true;
      axes.push_back(d);
    }
    std::vector<int64_t> out_dims, kept;
    for (int d = 0; d < rank; ++d) {
      if (!reduced[d]) {
        out_dims.push_back(is.dim(d));
        kept.push_back(d);
      } else if (keep_dims_) {
        out_dims.push_back(1);
      }
    }
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::FromDims(out_dims));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    std::vector<int64_t> stride(rank, 1);
    for (int d = rank - 2; d >= 0; --d) stride[d] = stride[d + 1] * is.dim(d + 1);
    int64_t group = 1;
    for (int d : axes) group *= is.dim(d);
    auto s = in.flat<std::string>();
    auto z = out->flat<std::string>();
    const int64_t n = out->NumElements();
    std::vector<int64_t> kidx(kept.size(), 0), ridx(axes.size(), 0);
    for (int64_t o = 0; o < n; ++o) {
      int64_t base = 0;
      for (size_t k = 0; k < kept.size(); ++k) base += kidx[k] * stride[kept[k]];
      std::string joined;
      std::fill(ridx.begin(), ridx.end(), 0);
      for (int64_t g = 0; g < group; ++g) {
        int64_t off = base;
        for (size_t r = 0; r < axes.size(); ++r) off += ridx[r] * stride[axes[r]];
        if (g > 0) joined += separator_;
        joined += s[off];
        for (size_t r = 0; r < axes.size(); ++r) {  // the first listed axis varies fastest
          if (++ridx[r] < is.dim(axes[r])) break;
          ridx[r] = 0;
        }
      }
      z[o] = std::move(joined);
      for (int k = static_cast<int>(kept.size()) - 1; k >= 0; --k) {
        if (++kidx[k] < is.dim(kept[k])) break;
        kidx[k] = 0;
      }
    }
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }

 private:
  bool keep_dims_ = false;
  std::string separator_;
};

REGISTER_KERNEL(KernelDefBuilder("StringLength").Device(kDeviceCpu), StringLengthOp);
REGISTER_KERNEL(KernelDefBuilder("StringLower").Device(kDeviceCpu), StringCaseOp<false>);
REGISTER_KERNEL(KernelDefBuilder("StringUpper").Device(kDeviceCpu), StringCaseOp<true>);
REGISTER_KERNEL(KernelDefBuilder("StringStrip").Device(kDeviceCpu), StringStripOp);
REGISTER_KERNEL(
    KernelDefBuilder("Substr").Device(kDeviceCpu).TypeConstraint("T", {DT_INT32, DT_INT64}),
    SubstrOp);
REGISTER_KERNEL(KernelDefBuilder("StringToNumber")
                    .Device(kDeviceCpu)
                    .TypeConstraint("out_type", {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64}),
                StringToNumberOp);
REGISTER_KERNEL(KernelDefBuilder("StaticRegexReplace").Device(kDeviceCpu), StaticRegexReplaceOp);
REGISTER_KERNEL(KernelDefBuilder("RegexReplace").Device(kDeviceCpu), RegexReplaceOp);
REGISTER_KERNEL(KernelDefBuilder("RegexFullMatch").Device(kDeviceCpu), RegexFullMatchOp);
REGISTER_KERNEL(KernelDefBuilder("StringSplitV2").Device(kDeviceCpu), StringSplitV2Op);
REGISTER_KERNEL(KernelDefBuilder("StringSplit").Device(kDeviceCpu), StringSplitV2Op);
REGISTER_KERNEL(KernelDefBuilder("ReduceJoin").Device(kDeviceCpu).HostMemory("reduction_indices"),
                ReduceJoinOp);

}  // namespace
}  // namespace rill
