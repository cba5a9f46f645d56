// String kernels on the CPU:
//   StringJoin(inputs..., separator): elementwise concatenation; scalar inputs broadcast against
//     the others, which must share one shape.
//   AsString(input): each element formatted as TensorFlow does, with printf's conversions: %d/%lld
//     for signed and %u/%llu for unsigned integers, %f (or %e with `scientific`, %g with
//     `shortest`) for floats (half through float), "true"/"false" for bool, strings as they are;
//     `width` pads (with `fill`, one character) and `precision` sets the digits.
// Errors are InvalidArgument with TensorFlow's texts: "Input shapes do not match: [2] vs. [3]",
// "Cannot select both scientific and shortest notation", "Fill string must be one or fewer
// characters", "scientific not supported for type int32" (also shortest, precision, fill).
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <cstdint>
#include <cstdio>
#include <regex>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"

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
    const bool is_float = dtype == DT_FLOAT || dtype == DT_DOUBLE || dtype == DT_HALF;
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
    format_ = "%";
    if (width > -1) absl::StrAppend(&format_, fill, width);
    if (precision > -1) absl::StrAppend(&format_, ".", precision);
    switch (dtype) {
      case DT_INT8:
      case DT_INT16:
      case DT_INT32:
        format_ += "d";
        break;
      case DT_INT64:
        format_ += "lld";
        break;
      case DT_UINT8:
        format_ += "u";
        break;
      case DT_STRING:
        format_ += "s";
        break;
      default:
        format_ += shortest ? "g" : scientific ? "e" : "f";
    }
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
        z[i] = Format(in.flat<std::string>()[i].c_str());
      }
      return absl::OkStatus();
    }
    return VisitKernelTypes<half, float, double, int8_t, int16_t, int32_t, int64_t, uint8_t>(
        *this, in.dtype(), [&](auto tag) {
          using T = typename decltype(tag)::type;
          for (int64_t i = 0; i < in.NumElements(); ++i) {
            const auto v = cwise_internal::Load(in.flat<T>()[i]);
            if constexpr (std::is_same_v<T, int64_t>) {
              z[i] = Format(static_cast<long long>(v));  // NOLINT: matches %lld
            } else if constexpr (std::is_integral_v<T>) {
              z[i] = Format(static_cast<int>(v));
            } else {
              z[i] = Format(static_cast<double>(v));
            }
          }
          return absl::OkStatus();
        });
  }

 private:
  template <typename V>
  std::string Format(V value) const {
    char buf[256];
    const int len = std::snprintf(buf, sizeof(buf), format_.c_str(), value);
    if (len < static_cast<int>(sizeof(buf))) return std::string(buf, len > 0 ? len : 0);
    std::string big(static_cast<size_t>(len) + 1, '\0');
    std::snprintf(big.data(), big.size(), format_.c_str(), value);
    big.resize(len);
    return big;
  }

  std::string format_;
};

// StaticRegexFullMatch: whether each string matches `pattern` whole. TensorFlow uses RE2;
// Rill compiles the pattern once with std::regex (ECMAScript), which agrees with RE2 on the
// patterns graphs carry (anchors, classes, alternation, repetition). A pattern that does not
// compile fails construction with InvalidArgument naming it.
class StaticRegexFullMatchOp final : public OpKernel {
 public:
  explicit StaticRegexFullMatchOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    std::string pattern;
    absl::Status s = ctx.GetAttr("pattern", &pattern);
    if (s.ok()) {
      try {
        regex_ = std::regex(pattern, std::regex::ECMAScript | std::regex::optimize);
      } catch (const std::regex_error& e) {
        s = absl::InvalidArgumentError(
            absl::StrCat("Invalid pattern: ", pattern, ", error: ", e.what()));
      }
    }
    ctx.SetStatus(s);
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, in.shape()));
    auto strings = in.flat<std::string>();
    auto result = out->flat<bool>();
    for (size_t i = 0; i < strings.size(); ++i) result[i] = std::regex_match(strings[i], regex_);
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }

 private:
  std::regex regex_;
};

REGISTER_KERNEL(KernelDefBuilder("StringJoin").Device(kDeviceCpu), StringJoinOp);
REGISTER_KERNEL(KernelDefBuilder("StaticRegexFullMatch").Device(kDeviceCpu),
                StaticRegexFullMatchOp);
REGISTER_KERNEL(KernelDefBuilder("AsString")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_HALF, DT_FLOAT, DT_DOUBLE, DT_INT8, DT_INT16, DT_INT32,
                                          DT_INT64, DT_UINT8, DT_BOOL, DT_STRING}),
                AsStringOp);

}  // namespace
}  // namespace rill
