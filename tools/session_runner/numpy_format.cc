#include "tools/session_runner/numpy_format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <vector>

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
  // Scientific: mantissa digits trimmed, "." kept, exponent with a sign and two digits at least.
  std::vector<std::pair<std::string, std::string>> parts;  // mantissa, exponent
  size_t mant_frac_w = 0;
  for (F v : vals) {
    std::string s = ShortestScientific(v);
    size_t e = s.find('e');
    std::string mant = e == std::string::npos ? s : s.substr(0, e);
    std::string exp = e == std::string::npos ? "" : s.substr(e + 1);
    if (mant.find('.') == std::string::npos) mant += ".";
    int ev = exp.empty() ? 0 : std::stoi(exp);
    std::string es = absl::StrCat(ev < 0 ? "e-" : "e+", std::abs(ev) < 10 ? "0" : "", std::abs(ev));
    mant_frac_w = std::max(mant_frac_w, mant.size() - mant.find('.'));
    parts.emplace_back(mant, es);
  }
  size_t w = 0;
  std::vector<std::string> tmp;
  for (auto& [m, e] : parts) {
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

// Element strings for every element, padded to a common width.
std::vector<std::string> ElementStrings(const Tensor& t) {
  std::vector<std::string> out;
  const int64_t n = t.NumElements();
  switch (t.dtype()) {
    case DT_FLOAT: {
      auto f = t.flat<float>();
      return FormatFloats(std::vector<float>(f.begin(), f.end()));
    }
    case DT_DOUBLE: {
      auto f = t.flat<double>();
      return FormatFloats(std::vector<double>(f.begin(), f.end()));
    }
    case DT_HALF: {
      std::vector<float> v;
      for (half h : t.flat<half>()) v.push_back(static_cast<float>(h));
      return FormatFloats(v);
    }
    case DT_BFLOAT16: {
      std::vector<float> v;
      for (bfloat16 h : t.flat<bfloat16>()) v.push_back(static_cast<float>(h));
      return FormatFloats(v);
    }
    case DT_BOOL:
      for (bool b : t.flat<bool>()) out.push_back(b ? " True" : "False");
      return out;
    case DT_STRING:
      for (const std::string& s : t.flat<std::string>()) out.push_back(absl::StrCat("b'", s, "'"));
      return out;
    case DT_COMPLEX64:
    case DT_COMPLEX128: {
      for (int64_t i = 0; i < n; ++i) {
        complex128 c = t.dtype() == DT_COMPLEX64 ? complex128(t.flat<complex64>()[i])
                                                 : t.flat<complex128>()[i];
        out.push_back(absl::StrCat(Shortest(c.real()), c.imag() < 0 ? "-" : "+",
                                   Shortest(std::fabs(c.imag())), "j"));
      }
      return PadLeft(out);
    }
    default: {
      absl::Status s = VisitDataType(t.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_integral_v<T>) {
          for (T v : t.flat<T>()) out.push_back(absl::StrCat(static_cast<int64_t>(v)));
          if constexpr (std::is_same_v<T, uint64_t>) {
            out.clear();
            for (T v : t.flat<T>()) out.push_back(absl::StrCat(v));
          }
        }
        return absl::OkStatus();
      });
      (void)s;
      return PadLeft(out);
    }
  }
}

// Recursively formats dims [d..) of the block starting at flat offset `off`.
void Format(const Tensor& t, const std::vector<std::string>& elems, int d, int64_t off,
            bool summarize, const std::string& indent, std::string* out) {
  const int rank = t.shape().rank();
  int64_t stride = 1;
  for (int k = d + 1; k < rank; ++k) stride *= t.shape().dim(k);
  const int64_t n = t.shape().dim(d);
  std::vector<int64_t> idx;
  bool gap = summarize && n > 2 * kEdgeItems;
  for (int64_t i = 0; i < n; ++i) {
    if (gap && i == kEdgeItems) {
      idx.push_back(-1);
      i = n - kEdgeItems - 1;
      continue;
    }
    idx.push_back(i);
  }
  out->append("[");
  if (d == rank - 1) {
    size_t line_start = out->rfind('\n');
    line_start = line_start == std::string::npos ? 0 : line_start + 1;
    bool first = true;
    for (int64_t i : idx) {
      std::string s = i < 0 ? "..." : elems[off + i];
      const size_t col = out->size() - line_start;
      if (!first) {
        if (col + 1 + s.size() + 1 > static_cast<size_t>(kLineWidth)) {
          out->append("\n" + indent + " ");
          line_start = out->size() - indent.size() - 1;
        } else {
          out->append(" ");
        }
      }
      out->append(s);
      first = false;
    }
  } else {
    bool first = true;
    const std::string sep(rank - d - 1, '\n');
    for (int64_t i : idx) {
      if (!first) out->append(sep.substr(0, sep.size() - 1) + "\n" + indent + " ");
      if (i < 0) {
        out->append("...");
      } else {
        Format(t, elems, d + 1, off + i * stride, summarize, indent + " ", out);
      }
      first = false;
    }
  }
  out->append("]");
}

}  // namespace

std::string FormatLikeNumpy(const Tensor& t) {
  const bool summarize = t.NumElements() > kThreshold;
  std::vector<std::string> elems = ElementStrings(t);
  if (t.shape().rank() == 0) {
    std::string s = elems.empty() ? "" : elems[0];
    size_t start = s.find_first_not_of(' ');
    s = start == std::string::npos ? s : s.substr(start);
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s;
  }
  if (t.NumElements() == 0) return "[]";
  std::string out;
  Format(t, elems, 0, 0, summarize, "", &out);
  return out;
}

}  // namespace rill
