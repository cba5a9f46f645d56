// HistogramFixedWidth on the CPU (tf.histogram_fixed_width): counts `values` into nbins equal
// bins over value_range [lo, hi]; values below lo go to the first bin, values at or above hi to
// the last. A value's bin is computed as TensorFlow's kernel does:
// int((max(x, lo) - lo) [in T] / step [double]) capped at nbins - 1, step = (hi - lo) / nbins.
// Where TensorFlow's arithmetic is undefined the bin stays inside [0, nbins): an integer
// difference that overflows T is taken in double, and a quotient that is NaN or past the last bin
// (an infinite range or value) goes to the last bin.
// Output int32 or int64 (dtype).
// Errors (TensorFlow's texts): value_range not a vector of 2 elements with lo < hi; nbins not a
// positive scalar; a NaN value.
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

#define RILL_HISTOGRAM_TYPES float, double, int32_t, int64_t

// a - b as TensorFlow computes it (in T), in double where an integer T would overflow.
template <typename T>
double Difference(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    T d;
    if (__builtin_sub_overflow(a, b, &d)) return static_cast<double>(a) - static_cast<double>(b);
    return static_cast<double>(d);
  } else {
    return static_cast<double>(a - b);
  }
}

class HistogramFixedWidthOp final : public OpKernel {
 public:
  explicit HistogramFixedWidthOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("dtype", &out_type_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& values = ctx.input(0);
    const Tensor& range = ctx.input(1);
    const Tensor& nbins_t = ctx.input(2);
    if (range.shape().rank() != 1) {
      return absl::InvalidArgumentError("value_range should be a vector.");
    }
    if (range.NumElements() != 2) {
      return absl::InvalidArgumentError("value_range should be a vector of 2 elements.");
    }
    if (nbins_t.shape().rank() != 0) {
      return absl::InvalidArgumentError("nbins should be a scalar.");
    }
    const int32_t nbins = nbins_t.flat<int32_t>()[0];
    if (nbins <= 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("nbins should be a positive number, but got '", nbins, "'"));
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, TensorShape({int64_t{nbins}})));
    return VisitKernelTypes<RILL_HISTOGRAM_TYPES>(*this, values.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T lo = range.flat<T>()[0];
      const T hi = range.flat<T>()[1];
      if (!(lo < hi)) {
        return absl::InvalidArgumentError(
            absl::StrCat("value_range should satisfy value_range[0] < value_range[1], but got '[",
                         lo, ", ", hi, "]'"));
      }
      const double step = Difference(hi, lo) / static_cast<double>(nbins);
      const double last = static_cast<double>(nbins - 1);
      std::vector<int64_t> counts(nbins, 0);
      const T* x = values.flat<T>().data();
      for (int64_t i = 0; i < values.NumElements(); ++i) {
        if constexpr (std::is_floating_point_v<T>) {
          if (std::isnan(x[i])) {
            return absl::InvalidArgumentError("Histogram values must not contain NaN");
          }
        }
        const double bin = Difference(std::max(x[i], lo), lo) / step;  // >= 0 or NaN
        ++counts[bin < last ? static_cast<int32_t>(bin) : nbins - 1];
      }
      for (int32_t b = 0; b < nbins; ++b) {
        if (out_type_ == DT_INT32) {
          out->flat<int32_t>()[b] = static_cast<int32_t>(counts[b]);
        } else {
          out->flat<int64_t>()[b] = counts[b];
        }
      }
      return absl::OkStatus();
    });
  }

 private:
  DataType out_type_ = DT_INT32;
};

REGISTER_KERNEL(KernelDefBuilder("HistogramFixedWidth")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_HISTOGRAM_TYPES>()),
                HistogramFixedWidthOp);

}  // namespace
}  // namespace rill
