#include "tools/session_runner/numpy_format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "core/quantized_types.h"

namespace rill {
namespace {

constexpr int kLineWidth = 75;
constexpr int64_t kThreshold = 1000;
constexpr int kEdgeItems = 3;

// A finite value's shortest round-trip decimal: digits d1 d2 ... (no trailing zeros; "0" for
// zero) standing for d1.d2... x 10^exp, and its sign.
struct Decimal {
  bool negative = false;
  std::string digits;
  int exp = 0;
};

// Parses std::to_chars' scientific output ("-1.25e-05") into a Decimal.
Decimal ParseScientific(const std::string& s) {
  Decimal d;
  size_t i = 0;
  if (i < s.size() && s[i] == '-') {
    d.negative = true;
    ++i;
  }
  const size_t e = s.find('e', i);
  for (size_t k = i; k < e; ++k) {
    if (s[k] != '.') d.digits.push_back(s[k]);
  }
  if (e != std::string::npos) (void)absl::SimpleAtoi(s.substr(e + 1), &d.exp);
  while (d.digits.size() > 1 && d.digits.back() == '0') d.digits.pop_back();
  return d;
}

std::string ToChars(double v, std::chars_format format, int precision) {
  char buf[400];
  auto r = std::to_chars(buf, buf + sizeof(buf), v, format, precision);
  return std::string(buf, r.ptr);
}

// The numpy floating types, each printed with its own shortest digits (numpy's dragon4 on it).
enum class FloatKind { kHalf, kFloat, kDouble };

// The fewest significant digits of finite `v` (a value of `kind` widened to double) that read
// back to the same value of `kind`.
Decimal ShortestDecimal(double v, FloatKind kind) {
  char buf[64];
  if (kind == FloatKind::kDouble) {
    auto r = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::scientific);
    return ParseScientific(std::string(buf, r.ptr));
  }
  if (kind == FloatKind::kFloat) {
    auto r =
        std::to_chars(buf, buf + sizeof(buf), static_cast<float>(v), std::chars_format::scientific);
    return ParseScientific(std::string(buf, r.ptr));
  }
  for (int digits = 1; digits < 17; ++digits) {
    const std::string s = ToChars(v, std::chars_format::scientific, digits - 1);
    const float back = static_cast<float>(std::strtod(s.c_str(), nullptr));
    if (static_cast<float>(half(back)) == static_cast<float>(v)) return ParseScientific(s);
  }
  return ParseScientific(ToChars(v, std::chars_format::scientific, 16));
}

// numpy's element digits with at most kPrecision (8) digits after the point: the shortest
// round-trip digits when they fit, else the value rounded there (trailing zeros dropped).
constexpr int kPrecision = 8;

// Positional "int.frac" parts (sign in the int part; '+' for non-negatives when plus_sign).
std::pair<std::string, std::string> PositionalParts(double v, FloatKind kind, bool plus_sign) {
  const Decimal d = ShortestDecimal(v, kind);
  std::string ip, fp;
  const int n = static_cast<int>(d.digits.size());
  const bool zero = d.digits == "0";
  if (!zero && n - 1 - d.exp > kPrecision) {
    std::string s = ToChars(std::fabs(v), std::chars_format::fixed, kPrecision);
    while (s.back() == '0') s.pop_back();
    const size_t dot = s.find('.');
    ip = s.substr(0, dot);
    fp = s.substr(dot + 1);
  } else if (zero) {
    ip = "0";
  } else if (d.exp >= 0) {
    ip = d.digits.substr(0, std::min(n, d.exp + 1));
    if (d.exp + 1 > n) ip.append(d.exp + 1 - n, '0');
    if (d.exp + 1 < n) fp = d.digits.substr(d.exp + 1);
  } else {
    ip = "0";
    fp = std::string(-d.exp - 1, '0') + d.digits;
  }
  const char* sign = d.negative ? "-" : (plus_sign ? "+" : "");
  return {sign + ip, fp};
}

// Scientific parts: "int", "frac" (mantissa digits after the point, at most kPrecision) and the
// exponent's value.
struct SciParts {
  std::string ip, fp;
  int exp = 0;
};
SciParts ScientificParts(double v, FloatKind kind, bool plus_sign) {
  Decimal d = ShortestDecimal(v, kind);
  if (static_cast<int>(d.digits.size()) - 1 > kPrecision) {
    d = ParseScientific(ToChars(v, std::chars_format::scientific, kPrecision));
  }
  SciParts p;
  p.ip = std::string(d.negative ? "-" : (plus_sign ? "+" : "")) + d.digits.substr(0, 1);
  p.fp = d.digits.size() > 1 && d.digits != "0" ? d.digits.substr(1) : "";
  p.exp = d.digits == "0" ? 0 : d.exp;
  return p;
}

std::string ExponentString(int exp, int width) {
  std::string digits = absl::StrCat(std::abs(exp));
  if (static_cast<int>(digits.size()) < width) digits.insert(0, width - digits.size(), '0');
  return absl::StrCat(exp < 0 ? "e-" : "e+", digits);
}

// numpy's FloatingFormat (precision 8, floatmode 'maxprec', sign '-' or '+'): fixed from the
// values shown, then applied to each. Scientific notation when the largest finite magnitude is
// 10^min(8, the type's decimal digits) or more (1e3 for half, 1e6 for float, 1e8 for double), or
// the smallest non-zero one below 1e-4 or a thousandth of the largest; then every mantissa has
// the most fractional digits any needs, the further ones the value's own digits (1.2341e-03 beside
// 1.2344e+02 for half), as numpy's min_digits does.
class FloatingFormat {
 public:
  FloatingFormat(const std::vector<double>& vals, FloatKind kind, bool plus_sign)
      : kind_(kind), plus_(plus_sign) {
    double max_abs = 0, min_abs = INFINITY;
    bool any_finite = false, any_nonfinite = false, neg_inf = false;
    for (double v : vals) {
      if (!std::isfinite(v)) {
        any_nonfinite = true;
        neg_inf |= std::isinf(v) && v < 0;
        continue;
      }
      any_finite = true;
      const double a = std::fabs(v);
      if (a == 0) continue;
      max_abs = std::max(max_abs, a);
      min_abs = std::min(min_abs, a);
    }
    // numpy's cutoff: 10^min(8, decimal digits the type holds).
    const double cutoff = kind == FloatKind::kHalf ? 1e3 : (kind == FloatKind::kFloat ? 1e6 : 1e8);
    sci_ = min_abs != INFINITY && (max_abs >= cutoff || min_abs < 1e-4 || max_abs / min_abs > 1e3);
    if (any_finite && sci_) {
      int exp_len = 0;
      for (double v : vals) {
        if (!std::isfinite(v)) continue;
        const SciParts p = ScientificParts(v, kind_, plus_);
        pad_left_ = std::max(pad_left_, static_cast<int>(p.ip.size()));
        precision_ = std::max(precision_, static_cast<int>(p.fp.size()));
        exp_len = std::max(exp_len, static_cast<int>(ExponentString(p.exp, 2).size()) - 1);
      }
      exp_size_ = exp_len - 1;
      pad_right_ = exp_size_ + 2 + precision_;
    } else if (any_finite) {
      for (double v : vals) {
        if (!std::isfinite(v)) continue;
        const auto [ip, fp] = PositionalParts(v, kind_, plus_);
        pad_left_ = std::max(pad_left_, static_cast<int>(ip.size()));
        pad_right_ = std::max(pad_right_, static_cast<int>(fp.size()));
      }
    }
    if (any_nonfinite) {
      const int offset = pad_right_ + 1;
      const int inf_len = 3 + ((plus_ || neg_inf) ? 1 : 0);
      pad_left_ = std::max({pad_left_, 3 - offset, inf_len - offset});
    }
  }

  std::string operator()(double v) const {
    if (!std::isfinite(v)) {
      const std::string s =
          std::isnan(v) ? (plus_ ? "+nan" : "nan") : (v < 0 ? "-inf" : (plus_ ? "+inf" : "inf"));
      const int width = pad_left_ + pad_right_ + 1;
      return std::string(std::max(0, width - static_cast<int>(s.size())), ' ') + s;
    }
    std::string ip, fp, tail;
    if (sci_) {
      // The value rounded to precision_ fractional mantissa digits (at least its shortest).
      const Decimal d = ParseScientific(ToChars(v, std::chars_format::scientific, precision_));
      ip = std::string(d.negative ? "-" : (plus_ ? "+" : "")) + d.digits.substr(0, 1);
      fp = d.digits.size() > 1 ? d.digits.substr(1) : "";
      fp.append(precision_ - fp.size(), '0');
      tail = ExponentString(d.digits == "0" ? 0 : d.exp, exp_size_);
    } else {
      std::tie(ip, fp) = PositionalParts(v, kind_, plus_);
      fp.append(pad_right_ - fp.size(), ' ');
    }
    return std::string(pad_left_ - ip.size(), ' ') + ip + "." + fp + tail;
  }

 private:
  FloatKind kind_;
  bool plus_;
  bool sci_ = false;
  int pad_left_ = 0, pad_right_ = 0, precision_ = 0, exp_size_ = 0;
};

std::vector<std::string> FormatFloats(const std::vector<double>& vals, FloatKind kind) {
  const FloatingFormat format(vals, kind, false);
  std::vector<std::string> out;
  out.reserve(vals.size());
  for (double v : vals) out.push_back(format(v));
  return out;
}

// numpy's ComplexFloatingFormat: the real parts as an array, the imaginary ones as another with
// an explicit sign, and "j" placed before the imaginary part's trailing padding.
std::vector<std::string> FormatComplex(const std::vector<double>& re, const std::vector<double>& im,
                                       FloatKind kind) {
  const FloatingFormat real(re, kind, false), imag(im, kind, true);
  std::vector<std::string> out;
  out.reserve(re.size());
  for (size_t i = 0; i < re.size(); ++i) {
    std::string b = imag(im[i]);
    const size_t end = b.find_last_not_of(' ') + 1;
    b.insert(end, "j");
    out.push_back(real(re[i]) + b);
  }
  return out;
}

// numpy's str of a floating scalar (a 0-d array prints so): positional with at least one
// fractional digit ("2.0") for zero and magnitudes in [1e-4, 10^k) (k: 4 for half, 8 for float,
// 16 for double), else scientific without trailing zeros ("1e+20", "1.5e-05");
// with trim_zero the positional form drops ".0" too (numpy's complex parts: "(1+2j)").
std::string ScalarString(double v, FloatKind kind, bool plus_sign, bool trim_zero) {
  if (std::isnan(v)) return plus_sign ? "+nan" : "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : (plus_sign ? "+inf" : "inf");
  const double limit = kind == FloatKind::kHalf ? 1e4 : (kind == FloatKind::kDouble ? 1e16 : 1e8);
  const double a = std::fabs(v);
  if (a == 0 || (a >= 1e-4 && a < limit)) {
    const Decimal d = ShortestDecimal(v, kind);
    const int n = static_cast<int>(d.digits.size());
    std::string ip, fp;
    if (d.digits == "0") {
      ip = "0";
    } else if (d.exp >= 0) {
      ip = d.digits.substr(0, std::min(n, d.exp + 1));
      if (d.exp + 1 > n) ip.append(d.exp + 1 - n, '0');
      if (d.exp + 1 < n) fp = d.digits.substr(d.exp + 1);
    } else {
      ip = "0";
      fp = std::string(-d.exp - 1, '0') + d.digits;
    }
    std::string s = std::string(d.negative ? "-" : (plus_sign ? "+" : "")) + ip;
    if (!fp.empty()) return s + "." + fp;
    return trim_zero ? s : s + ".0";
  }
  const Decimal d = ShortestDecimal(v, kind);
  std::string s = std::string(d.negative ? "-" : (plus_sign ? "+" : "")) + d.digits.substr(0, 1);
  if (d.digits.size() > 1) s += "." + d.digits.substr(1);
  return s + ExponentString(d.exp, 2);
}

std::vector<std::string> PadLeft(std::vector<std::string> v) {
  size_t w = 0;
  for (auto& s : v) w = std::max(w, s.size());
  for (auto& s : v) s = std::string(w - s.size(), ' ') + s;
  return v;
}

// Python's repr of a bytes object (numpy prints string elements so): b'...', or b"..." when the
// bytes hold ' and no ", with \\, \t, \n, \r and \xNN escapes. An element longer than
// kMaxStringShown bytes shows its first kMaxStringShown and then "...(N bytes)", so a fetched
// string of gigabytes prints in constant space (--output_dir writes it whole).
constexpr size_t kMaxStringShown = 1000;

std::string BytesRepr(const std::string& s) {
  const std::string_view shown = std::string_view(s).substr(0, kMaxStringShown);
  const char quote =
      shown.find('\'') != std::string_view::npos && shown.find('"') == std::string_view::npos
          ? '"'
          : '\'';
  std::string out = "b";
  out.reserve(shown.size() + 3);
  out += quote;
  static constexpr char kHex[] = "0123456789abcdef";
  for (unsigned char c : shown) {
    if (c == '\\' || c == static_cast<unsigned char>(quote)) {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c >= 0x7f) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  out += quote;
  if (s.size() > shown.size()) absl::StrAppend(&out, "...(", s.size(), " bytes)");
  return out;
}

// printf's "%g" (six significant digits; "nan", "inf", "-inf").
std::string GString(double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%g", v);
  return buf;
}

complex128 ComplexAt(const Tensor& t, int64_t o) {
  return t.dtype() == DT_COMPLEX64 ? complex128(t.flat<complex64>()[o]) : t.flat<complex128>()[o];
}
FloatKind ComplexKind(const Tensor& t) {
  return t.dtype() == DT_COMPLEX64 ? FloatKind::kFloat : FloatKind::kDouble;
}

// numpy's str of a 0-d array (its scalar's str) for the floating and complex dtypes; nullopt for
// the others, whose element string serves.
std::optional<std::string> ScalarStr(const Tensor& t) {
  switch (t.dtype()) {
    case DT_FLOAT:
      return ScalarString(t.flat<float>()[0], FloatKind::kFloat, false, false);
    case DT_DOUBLE:
      return ScalarString(t.flat<double>()[0], FloatKind::kDouble, false, false);
    case DT_HALF:
      return ScalarString(static_cast<float>(t.flat<half>()[0]), FloatKind::kHalf, false, false);
    case DT_BFLOAT16:
      return GString(static_cast<float>(t.flat<bfloat16>()[0]));
    case DT_COMPLEX64:
    case DT_COMPLEX128: {
      // "2j" when the real part is +0; else "(re+imj)", each part without ".0".
      const complex128 c = ComplexAt(t, 0);
      const std::string im = ScalarString(c.imag(), ComplexKind(t), true, true) + "j";
      if (c.real() == 0 && !std::signbit(c.real())) return im.substr(im[0] == '+' ? 1 : 0);
      return "(" + ScalarString(c.real(), ComplexKind(t), false, true) + im + ")";
    }
    default:
      return std::nullopt;
  }
}

// Element strings for the elements at flat offsets `offs` (in that order), padded to a common
// width computed over those elements only (numpy formats a summarized array from the items it
// shows, not from every element).
std::vector<std::string> ElementStrings(const Tensor& t, const std::vector<int64_t>& offs) {
  std::vector<std::string> out;
  out.reserve(offs.size());
  auto gather = [&](auto flat, auto convert) {
    using V = decltype(convert(flat[0]));
    std::vector<V> v;
    v.reserve(offs.size());
    for (int64_t o : offs) v.push_back(convert(flat[o]));
    return v;
  };
  switch (t.dtype()) {
    case DT_FLOAT:
      return FormatFloats(gather(t.flat<float>(), [](float x) { return double{x}; }),
                          FloatKind::kFloat);
    case DT_DOUBLE:
      return FormatFloats(gather(t.flat<double>(), [](double x) { return x; }), FloatKind::kDouble);
    case DT_HALF:
      return FormatFloats(
          gather(t.flat<half>(), [](half h) { return double{static_cast<float>(h)}; }),
          FloatKind::kHalf);
    case DT_BFLOAT16:
      // bfloat16 is ml_dtypes' type in numpy, not a numpy floating type: each element prints
      // as its str ("%g" of its value), unpadded: [1 0.5 100].
      for (int64_t o : offs) out.push_back(GString(static_cast<float>(t.flat<bfloat16>()[o])));
      return out;
    case DT_BOOL: {
      auto f = t.flat<bool>();
      for (int64_t o : offs) out.push_back(f[o] ? " True" : "False");
      return out;
    }
    case DT_STRING: {
      auto f = t.flat<std::string>();
      for (int64_t o : offs) out.push_back(BytesRepr(f[o]));
      return out;
    }
    case DT_COMPLEX64:
    case DT_COMPLEX128: {
      std::vector<double> re, im;
      for (int64_t o : offs) {
        const complex128 c = ComplexAt(t, o);
        re.push_back(c.real());
        im.push_back(c.imag());
      }
      return FormatComplex(re, im, ComplexKind(t));
    }
    default: {
      // Integers; a quantized dtype prints as its integers, as numpy prints what session.run
      // returns for it.
      absl::Status s = VisitDataType(QuantizedStorageType(t.dtype()), [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_integral_v<T>) {
          const T* f = static_cast<const T*>(t.raw_data());
          for (int64_t o : offs) {
            if constexpr (std::is_same_v<T, uint64_t>) {
              out.push_back(absl::StrCat(f[o]));
            } else {
              out.push_back(absl::StrCat(static_cast<int64_t>(f[o])));
            }
          }
        }
        return absl::OkStatus();
      });
      (void)s;
      return PadLeft(out);
    }
  }
}

// Walks the printed structure of an array of `shape` depth-first with an explicit stack (no
// recursion, so any rank is fine), calling on `v`: Open(d) / Close(d) for the brackets of an
// axis-d block, Separator(d) between two items of an axis-d block, Ellipsis(d) for the "..." of
// a summarized axis, and Element(offset) for each shown element (flat offset), in print order.
// Only the items shown are visited: a summarized axis shows kEdgeItems at each end.
template <typename Visitor>
void Walk(const TensorShape& shape, bool summarize, Visitor& v) {
  const int rank = shape.rank();
  std::vector<int64_t> stride(rank);
  int64_t s = 1;
  for (int d = rank - 1; d >= 0; --d) {
    stride[d] = s;
    s *= shape.dim(d);
  }
  auto gap = [&](int d) { return summarize && shape.dim(d) > 2 * kEdgeItems; };
  auto count = [&](int d) { return gap(d) ? 2 * kEdgeItems + 1 : shape.dim(d); };
  // The index along axis d of the p-th item shown, -1 for the "...".
  auto index = [&](int d, int64_t p) -> int64_t {
    if (!gap(d) || p < kEdgeItems) return p;
    if (p == kEdgeItems) return -1;
    return shape.dim(d) - 2 * kEdgeItems - 1 + p;
  };
  struct Frame {
    int64_t offset;  // flat offset of the block
    int64_t next;    // the next item to show
    int64_t count;   // items shown
  };
  std::vector<Frame> stack;
  stack.reserve(rank);
  v.Open(0);
  stack.push_back({0, 0, count(0)});
  while (!stack.empty()) {
    const int d = static_cast<int>(stack.size()) - 1;
    Frame& f = stack.back();
    if (f.next == f.count) {
      v.Close(d);
      stack.pop_back();
      continue;
    }
    const int64_t p = f.next++;
    if (p > 0) v.Separator(d);
    const int64_t i = index(d, p);
    if (i < 0) {
      v.Ellipsis(d);
    } else if (d == rank - 1) {
      v.Element(f.offset + i);
    } else {
      const int64_t child = f.offset + i * stride[d];
      v.Open(d + 1);
      stack.push_back({child, 0, count(d + 1)});
    }
  }
}

// Collects the flat offsets of the elements shown.
struct OffsetCollector {
  std::vector<int64_t> offsets;
  void Open(int) {}
  void Close(int) {}
  void Separator(int) {}
  void Ellipsis(int) {}
  void Element(int64_t offset) { offsets.push_back(offset); }
};

// Writes the text: rows wrap at kLineWidth, blocks of axis d are separated by rank-d-1 newlines
// and indented by one space per enclosing bracket.
struct Printer {
  int rank;
  const std::vector<std::string>& elems;
  std::string out;
  size_t next_elem = 0;
  size_t line_start = 0;  // where the current line of the current row starts
  bool first_in_row = true;

  void Open(int d) {
    out.push_back('[');
    if (d == rank - 1) {
      const size_t nl = out.rfind('\n');
      line_start = nl == std::string::npos ? 0 : nl + 1;
      first_in_row = true;
    }
  }
  void Close(int) { out.push_back(']'); }
  void Separator(int d) {
    if (d == rank - 1) return;  // rows place their own spaces and wraps (RowItem)
    out.append(rank - d - 1, '\n');
    out.append(d + 1, ' ');
  }
  void Ellipsis(int d) {
    if (d == rank - 1) {
      RowItem("...");
    } else {
      out.append("...");
    }
  }
  void Element(int64_t) { RowItem(elems[next_elem++]); }
  void RowItem(const std::string& s) {
    if (!first_in_row) {
      const size_t col = out.size() - line_start;
      // numpy's test: the line with its separator and this item past the width less one per
      // axis (the closing brackets that may follow).
      if (col + 1 + s.size() + rank > static_cast<size_t>(kLineWidth)) {
        // numpy strips a wrapped line's trailing padding (complex elements end in spaces).
        while (out.size() > line_start && out.back() == ' ') out.pop_back();
        out.push_back('\n');
        line_start = out.size();
        out.append(rank, ' ');  // the row's indent (rank - 1) plus one
      } else {
        out.push_back(' ');
      }
    }
    out.append(s);
    first_in_row = false;
  }
};

}  // namespace

std::string FormatLikeNumpy(const Tensor& t) {
  if (t.shape().rank() == 0) {
    if (std::optional<std::string> scalar = ScalarStr(t)) return *scalar;
    std::vector<std::string> elems = ElementStrings(t, {0});
    std::string s = elems.empty() ? "" : elems[0];
    size_t start = s.find_first_not_of(' ');
    s = start == std::string::npos ? s : s.substr(start);
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s;
  }
  if (t.NumElements() == 0) return "[]";
  const bool summarize = t.NumElements() > kThreshold;
  OffsetCollector shown;
  Walk(t.shape(), summarize, shown);
  const std::vector<std::string> elems = ElementStrings(t, shown.offsets);
  Printer printer{t.shape().rank(), elems};
  Walk(t.shape(), summarize, printer);
  return std::move(printer.out);
}

}  // namespace rill
