// String kernels on the CPU:
//   StringJoin(inputs..., separator): elementwise concatenation; scalar inputs broadcast against
//     the others, which must share one shape.
//   AsString(input): each element formatted as TensorFlow does, with printf's conversions: %d/%lld
//     for signed and %u/%llu for unsigned integers, %f (or %e with `scientific`, %g with
//     `shortest`) for floats (half through double), "(re,im)" for complex64 and complex128 with
//     each part formatted as a double would be, "true"/"false" for bool, strings as they are;
//     `width` pads (with `fill`, one character) and `precision` sets the digits (of each part).
// Errors are InvalidArgument with TensorFlow's texts: "Input shapes do not match: [2] vs. [3]",
// "Cannot select both scientific and shortest notation", "Fill string must be one or fewer
// characters", "Fill argument not supported: \"n\"" (fill must be one of ' +-0#'), "scientific
// not supported for type int32" (also shortest, precision, fill). The printf format is one of a
// fixed table ("%<flag>*.*<conversion>"); no attr text ever reaches it. AsString results that
// would not fit the host's physical memory (a width of 2^31 - 1 over many elements) are
// ResourceExhausted "OOM when allocating AsString's output: ...", never std::bad_alloc.
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/memory/host_memory.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"
#include "re2/re2.h"

namespace rill {
namespace {

class StringJoinOp final : public OpKernel {
 public:
  explicit StringJoinOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("separator", &separator_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const int n = ctx.num_inputs();
    std::vector<Tensor> inputs;
    TensorShape shape;
    bool have_shape = false;
    for (int i = 0; i < n; ++i) {
      inputs.push_back(ctx.input(i));
      const Tensor& t = inputs.back();
      if (t.shape().rank() == 0) continue;
      if (!have_shape) {
        shape = t.shape();
        have_shape = true;
      } else if (t.shape() != shape) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Input shapes do not match: ", shape.DebugString(), " vs. ", t.shape().DebugString()));
      }
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, shape));
    auto z = out->flat<std::string>();
    for (int64_t e = 0; e < out->NumElements(); ++e) {
      std::string s;
      for (int i = 0; i < n; ++i) {
        if (i > 0) s += separator_;
        const auto v = inputs[i].flat<std::string>();
        s += inputs[i].shape().rank() == 0 ? v[0] : v[e];
      }
      z[e] = std::move(s);
    }
    return absl::OkStatus();
  }

 private:
  std::string separator_;
};

class AsStringOp final : public OpKernel {
 public:
  explicit AsStringOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    int64_t precision = -1, width = -1;
    bool scientific = false, shortest = false;
    std::string fill;
    ctx.SetStatus(ctx.GetAttr("precision", &precision));
    ctx.SetStatus(ctx.GetAttr("scientific", &scientific));
    ctx.SetStatus(ctx.GetAttr("shortest", &shortest));
    ctx.SetStatus(ctx.GetAttr("width", &width));
    ctx.SetStatus(ctx.GetAttr("fill", &fill));
    DataType dtype = DT_INVALID;
    ctx.SetStatus(ctx.GetAttr("T", &dtype));
    if (!ctx.status().ok()) return;
    const bool is_float = dtype == DT_FLOAT || dtype == DT_DOUBLE || dtype == DT_HALF ||
                          dtype == DT_COMPLEX64 || dtype == DT_COMPLEX128;
    if (scientific && shortest) {
      ctx.SetStatus(
          absl::InvalidArgumentError("Cannot select both scientific and shortest notation"));
      return;
    }
    if (fill.size() > 1) {
      ctx.SetStatus(absl::InvalidArgumentError("Fill string must be one or fewer characters"));
      return;
    }
    const std::pair<bool, const char*> float_only[] = {
        {scientific, "scientific"}, {shortest, "shortest"}, {precision > -1, "precision"}};
    for (const auto& [set, what] : float_only) {
      if (set && !is_float) {
        ctx.SetStatus(absl::InvalidArgumentError(
            absl::StrCat(what, " not supported for type ", DataTypeString(dtype))));
        return;
      }
    }
    if (!fill.empty() && (dtype == DT_BOOL || dtype == DT_STRING)) {
      ctx.SetStatus(absl::InvalidArgumentError(
          absl::StrCat("fill not supported for type ", DataTypeString(dtype))));
      return;
    }
    // The format string is never built from an attr: the fill flag is picked from a fixed set
    // (TensorFlow's), and width and precision go to printf as `*` arguments.
    if (!fill.empty() && std::string_view(" +-0#").find(fill[0]) == std::string_view::npos) {
      ctx.SetStatus(
          absl::InvalidArgumentError(absl::StrCat("Fill argument not supported: \"", fill, "\"")));
      return;
    }
    for (const auto& [name, value] : {std::pair<const char*, int64_t>{"precision", precision},
                                      std::pair<const char*, int64_t>{"width", width}}) {
      if (value > std::numeric_limits<int>::max() || value < std::numeric_limits<int>::min()) {
        ctx.SetStatus(absl::InvalidArgumentError(
            absl::StrCat("Attr ", name, " has value ", value, " out of range for an int32")));
        return;
      }
    }
    width_ = width > -1 ? static_cast<int>(width) : -1;
    precision_ = precision > -1 ? static_cast<int>(precision) : -1;
    // Flags: index 0 for none, 1..5 for " +-0#". As in TensorFlow, the flag applies with or
    // without a width ("+" alone gives "+5").
    static constexpr std::string_view kFlags = " +-0#";
    const int flag = fill.empty() ? 0 : 1 + static_cast<int>(kFlags.find(fill[0]));
    Conversion conversion;
    switch (dtype) {
      case DT_INT8:
      case DT_INT16:
      case DT_INT32:
        conversion = kInt;
        break;
      case DT_INT64:
        conversion = kInt64;
        break;
      case DT_UINT8:
        conversion = kUnsigned;
        break;
      case DT_STRING:
        conversion = kString;
        break;
      default:
        conversion = shortest ? kShortest : scientific ? kScientific : kFixed;
    }
    format_ = kFormats[conversion][flag];
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, in.shape()));
    auto z = out->flat<std::string>();
    if (in.dtype() == DT_BOOL) {
      for (int64_t i = 0; i < in.NumElements(); ++i) z[i] = in.flat<bool>()[i] ? "true" : "false";
      return absl::OkStatus();
    }
    if (in.dtype() == DT_STRING) {
      for (int64_t i = 0; i < in.NumElements(); ++i) {
        const std::string& v = in.flat<std::string>()[i];
        if (width_ <= 0) {  // as TensorFlow: no width passes strings through (NULs included)
          z[i] = v;
        } else {
          RILL_RETURN_IF_ERROR(Format(v.c_str(), in.NumElements(), &z[i]));
        }
      }
      return absl::OkStatus();
    }
    if (in.dtype() == DT_COMPLEX64) return FormatComplex<complex64>(in, z);
    if (in.dtype() == DT_COMPLEX128) return FormatComplex<complex128>(in, z);
    return VisitKernelTypes<half, float, double, int8_t, int16_t, int32_t, int64_t, uint8_t>(
        *this, in.dtype(), [&](auto tag) {
          using T = typename decltype(tag)::type;
          for (int64_t i = 0; i < in.NumElements(); ++i) {
            const auto v = cwise_internal::Load(in.flat<T>()[i]);
            const int64_t n = in.NumElements();
            absl::Status s;
            if constexpr (std::is_same_v<T, int64_t>) {
              s = Format(static_cast<long long>(v), n, &z[i]);  // NOLINT: matches %lld
            } else if constexpr (std::is_integral_v<T>) {
              s = Format(static_cast<int>(v), n, &z[i]);
            } else {
              s = Format(static_cast<double>(v), n, &z[i]);
            }
            RILL_RETURN_IF_ERROR(s);
          }
          return absl::OkStatus();
        });
  }

 private:
  enum Conversion { kInt, kInt64, kUnsigned, kString, kFixed, kScientific, kShortest };
  // Every format AsString uses: [conversion][flag], each "%<flag>*.*<conversion>".
  static constexpr const char* kFormats[7][6] = {
      {"%*.*d", "% *.*d", "%+*.*d", "%-*.*d", "%0*.*d", "%#*.*d"},
      {"%*.*lld", "% *.*lld", "%+*.*lld", "%-*.*lld", "%0*.*lld", "%#*.*lld"},
      {"%*.*u", "% *.*u", "%+*.*u", "%-*.*u", "%0*.*u", "%#*.*u"},
      {"%*.*s", "% *.*s", "%+*.*s", "%-*.*s", "%0*.*s", "%#*.*s"},
      {"%*.*f", "% *.*f", "%+*.*f", "%-*.*f", "%0*.*f", "%#*.*f"},
      {"%*.*e", "% *.*e", "%+*.*e", "%-*.*e", "%0*.*e", "%#*.*e"},
      {"%*.*g", "% *.*g", "%+*.*g", "%-*.*g", "%0*.*g", "%#*.*g"},
  };

  // Formats one of `count` elements. InvalidArgument when the result would not fit printf's int
  // length (a width or precision near 2^31); ResourceExhausted, never std::bad_alloc, when
  // `count` results that long would not fit the host's physical memory (checked before anything
  // is allocated: a width of 2^31 - 1 over many elements) or the allocation fails.
  template <typename V>
  absl::Status Format(V value, int64_t count, std::string* out) const {
    // A negative `*` width means none; a negative `*` precision means the default.
    char buf[256];
    const int len = std::snprintf(buf, sizeof(buf), format_, width_, precision_, value);
    if (len < 0) return FormatError();
    if (len < static_cast<int>(sizeof(buf))) {
      out->assign(buf, len);
      return absl::OkStatus();
    }
    const absl::Status oom = absl::ResourceExhaustedError(
        absl::StrCat("OOM when allocating AsString's output: ", count, " strings of ", len,
                     " bytes (width ", width_, ", precision ", precision_, ")"));
    if (static_cast<uint64_t>(len) + 1 > PhysicalMemoryBytes() / static_cast<uint64_t>(count)) {
      return oom;
    }
    try {
      out->assign(static_cast<size_t>(len) + 1, '\0');
    } catch (const std::bad_alloc&) {
      return oom;
    }
    std::snprintf(out->data(), out->size(), format_, width_, precision_, value);
    out->resize(len);
    return absl::OkStatus();
  }

  // TensorFlow's "(<format>,<format>)": both parts through the float format, each padded to the
  // width on its own. The memory bound counts two parts per element.
  template <typename C>
  absl::Status FormatComplex(const Tensor& in, absl::Span<std::string> z) const {
    const auto values = in.flat<C>();
    const int64_t n = in.NumElements();
    std::string re, im;
    for (int64_t i = 0; i < n; ++i) {
      RILL_RETURN_IF_ERROR(Format(static_cast<double>(values[i].real()), 2 * n, &re));
      RILL_RETURN_IF_ERROR(Format(static_cast<double>(values[i].imag()), 2 * n, &im));
      try {
        z[i] = absl::StrCat("(", re, ",", im, ")");
      } catch (const std::bad_alloc&) {
        return absl::ResourceExhaustedError(absl::StrCat(
            "OOM when allocating AsString's output: ", n, " strings of ", re.size() + im.size() + 3,
            " bytes (width ", width_, ", precision ", precision_, ")"));
      }
    }
    return absl::OkStatus();
  }

  absl::Status FormatError() const {
    return absl::InvalidArgumentError(absl::StrCat("AsString output with width ", width_,
                                                   " and precision ", precision_,
                                                   " does not fit a string"));
  }

  const char* format_ = "%*.*d";
  int width_ = -1;
  int precision_ = -1;
};

// StaticRegexFullMatch: whether each string matches `pattern` whole, with RE2 as in TensorFlow:
// linear time in the input whatever the pattern (no backtracking: `(a*)*b` on a long string and
// `(a|b)*` on a 20,000-character one are as fast as any other). A pattern RE2 rejects fails
// construction with TensorFlow's InvalidArgument "Invalid pattern: <pattern>, error: <why>".
class StaticRegexFullMatchOp final : public OpKernel {
 public:
  explicit StaticRegexFullMatchOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    std::string pattern;
    absl::Status s = ctx.GetAttr("pattern", &pattern);
    if (s.ok()) {
      RE2::Options options;
      options.set_log_errors(false);
      regex_ = std::make_unique<RE2>(pattern, options);
      if (!regex_->ok()) {
        s = absl::InvalidArgumentError(
            absl::StrCat("Invalid pattern: ", pattern, ", error: ", regex_->error()));
      }
    }
    ctx.SetStatus(s);
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, in.shape()));
    auto strings = in.flat<std::string>();
    auto result = out->flat<bool>();
    for (size_t i = 0; i < strings.size(); ++i) {
      result[i] = RE2::FullMatch(strings[i], *regex_);
    }
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }

 private:
  std::unique_ptr<RE2> regex_;
};

REGISTER_KERNEL(KernelDefBuilder("StringJoin").Device(kDeviceCpu), StringJoinOp);
REGISTER_KERNEL(KernelDefBuilder("StaticRegexFullMatch").Device(kDeviceCpu),
                StaticRegexFullMatchOp);
REGISTER_KERNEL(KernelDefBuilder("AsString")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_HALF, DT_FLOAT, DT_DOUBLE, DT_COMPLEX64, DT_COMPLEX128,
                                          DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_UINT8, DT_BOOL,
                                          DT_STRING}),
                AsStringOp);

}  // namespace
}  // namespace rill
