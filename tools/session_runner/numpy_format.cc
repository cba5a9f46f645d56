#include "tools/session_runner/numpy_format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace rill {
namespace {

constexpr int kLineWidth = 75;
constexpr int64_t kThreshold = 1000;
constexpr int kEdgeItems = 3;

template <typename F>
std::string Shortest(F v) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof(buf), v);
  return std::string(buf, r.ptr);
}

template <typename F>
std::string ShortestScientific(F v) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::scientific);
  return std::string(buf, r.ptr);
}

// Formats floating values numpy-style: returns one string per value, unpadded.
template <typename F>
std::vector<std::string> FormatFloats(const std::vector<F>& vals) {
  double max_abs = 0, min_abs = INFINITY;
  for (F v : vals) {
    double a = std::fabs(static_cast<double>(v));
    if (!std::isfinite(a) || a == 0) continue;
    max_abs = std::max(max_abs, a);
    min_abs = std::min(min_abs, a);
  }
  const bool sci = max_abs >= 1e8 || (min_abs < 1e-4 && min_abs != INFINITY) ||
                   (min_abs != INFINITY && max_abs / min_abs > 1e3);
  std::vector<std::string> out;
  if (!sci) {
    // Split into integer and fraction parts; pad both to common widths.
    std::vector<std::pair<std::string, std::string>> parts;
    size_t int_w = 0, frac_w = 0;
    for (F v : vals) {
      std::string s;
      if (std::isnan(static_cast<double>(v))) {
        s = "nan";
      } else if (std::isinf(static_cast<double>(v))) {
        s = v < 0 ? "-inf" : "inf";
      } else {
        s = Shortest(v);
        if (s.find('e') != std::string::npos) s = absl::StrCat(static_cast<double>(v));
        if (s.find('.') == std::string::npos) s += ".";
      }
      if (s == "nan" || s == "inf" || s == "-inf") {
        parts.emplace_back(s, "");
        continue;
      }
      size_t dot = s.find('.');
      std::string ip = dot == std::string::npos ? s : s.substr(0, dot);
      std::string fp = dot == std::string::npos ? "" : s.substr(dot);
      int_w = std::max(int_w, ip.size());
      frac_w = std::max(frac_w, fp.size());
      parts.emplace_back(ip, fp);
    }
    auto non_finite = [](const std::string& ip) {
      return ip == "nan" || ip == "inf" || ip == "-inf";
    };
    size_t width = int_w + frac_w;
    for (auto& [ip, fp] : parts) {
      if (non_finite(ip)) width = std::max(width, ip.size());
    }
    for (auto& [ip, fp] : parts) {
      if (non_finite(ip)) {  // right-aligned to the full width
        out.push_back(std::string(width - ip.size(), ' ') + ip);
        continue;
      }
      std::string s = std::string(width - int_w - frac_w + int_w - ip.size(), ' ') + ip + fp;
      if (fp.empty() && frac_w > 0) {
        s += std::string(frac_w, ' ');
      } else {
        s += std::string(frac_w - fp.size(), ' ');
      }
      out.push_back(s);
    }
    return out;
  }
  // Scientific: mantissa digits trimmed, "." kept, exponent with a sign and two digits at least;
  // nan, inf and -inf as themselves (no exponent), right-aligned.
  std::vector<std::pair<std::string, std::string>> parts;  // mantissa, exponent
  size_t mant_frac_w = 0;
  for (F v : vals) {
    const double d = static_cast<double>(v);
    if (!std::isfinite(d)) {
      parts.emplace_back(std::isnan(d) ? "nan" : (d < 0 ? "-inf" : "inf"), "");
      continue;
    }
    std::string s = ShortestScientific(v);
    size_t e = s.find('e');
    std::string mant = e == std::string::npos ? s : s.substr(0, e);
    std::string exp = e == std::string::npos ? "" : s.substr(e + 1);
    if (mant.find('.') == std::string::npos) mant += ".";
    int ev = 0;
    if (!exp.empty() && !absl::SimpleAtoi(exp, &ev)) ev = 0;
    std::string es = absl::StrCat(ev < 0 ? "e-" : "e+", std::abs(ev) < 10 ? "0" : "", std::abs(ev));
    mant_frac_w = std::max(mant_frac_w, mant.size() - mant.find('.'));
    parts.emplace_back(mant, es);
  }
  size_t w = 0;
  std::vector<std::string> tmp;
  for (auto& [m, e] : parts) {
    if (e.empty()) {  // non-finite
      tmp.push_back(m);
      w = std::max(w, m.size());
      continue;
    }
    std::string s = m + std::string(mant_frac_w - (m.size() - m.find('.')), '0') + e;
    tmp.push_back(s);
    w = std::max(w, s.size());
  }
  for (auto& s : tmp) out.push_back(std::string(w - s.size(), ' ') + s);
  return out;
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
      return FormatFloats(gather(t.flat<float>(), [](float x) { return x; }));
    case DT_DOUBLE:
      return FormatFloats(gather(t.flat<double>(), [](double x) { return x; }));
    case DT_HALF:
      return FormatFloats(gather(t.flat<half>(), [](half h) { return static_cast<float>(h); }));
    case DT_BFLOAT16:
      return FormatFloats(
          gather(t.flat<bfloat16>(), [](bfloat16 h) { return static_cast<float>(h); }));
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
      for (int64_t o : offs) {
        complex128 c = t.dtype() == DT_COMPLEX64 ? complex128(t.flat<complex64>()[o])
                                                 : t.flat<complex128>()[o];
        out.push_back(absl::StrCat(Shortest(c.real()), c.imag() < 0 ? "-" : "+",
                                   Shortest(std::fabs(c.imag())), "j"));
      }
      return PadLeft(out);
    }
    default: {
      absl::Status s = VisitDataType(t.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_integral_v<T>) {
          auto f = t.flat<T>();
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
      if (col + 1 + s.size() + 1 > static_cast<size_t>(kLineWidth)) {
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
