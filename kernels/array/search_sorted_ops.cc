// LowerBound and UpperBound on the CPU (tf.searchsorted): for each row b, output[b, j] is the
// first index i of the sorted row sorted_inputs[b, :] with sorted_inputs[b, i] >= values[b, j]
// (LowerBound) or > values[b, j] (UpperBound): std::lower_bound / std::upper_bound, as
// TensorFlow's kernel. out_type int32 or int64; the output has the values' shape.
// Errors (TensorFlow's texts): either input not a matrix; the leading dims differ.
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

#define RILL_SEARCH_SORTED_TYPES float, double, half, int32_t, int64_t, uint8_t, int8_t, int16_t

template <bool kUpper>
class SearchSortedOp final : public OpKernel {
 public:
  explicit SearchSortedOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("out_type", &out_type_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& sorted = ctx.input(0);
    const Tensor& values = ctx.input(1);
    const char* names[] = {"sorted_inputs", "values"};
    for (int i = 0; i < 2; ++i) {
      if (ctx.input(i).shape().rank() != 2) {
        return absl::InvalidArgumentError(absl::StrCat("Shape must be rank 2 but is rank ",
                                                       ctx.input(i).shape().rank(), " for `",
                                                       names[i], "` argument"));
      }
    }
    if (sorted.shape().dim(0) != values.shape().dim(0)) {
      return absl::InvalidArgumentError("Leading dim_size of both tensors must match.");
    }
    const DataType out_type = out_type_;
    const int64_t n = sorted.shape().dim(1);
    if (out_type == DT_INT32 && n >= std::numeric_limits<int32_t>::max()) {
      return absl::InvalidArgumentError(
          "trailing dim_size must less than INT_MAX for int32 output type, was " +
          std::to_string(n));
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, values.shape()));
    const int64_t rows = values.shape().dim(0);
    const int64_t m = values.shape().dim(1);
    return VisitKernelTypes<RILL_SEARCH_SORTED_TYPES>(*this, sorted.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* s = sorted.flat<T>().data();
      const T* v = values.flat<T>().data();
      // half has no operator<; it is compared as float (exactly, as TensorFlow's Eigen::half).
      auto key = [](T v) {
        if constexpr (std::is_same_v<T, half>) {
          return static_cast<float>(v);
        } else {
          return v;
        }
      };
      auto less = [&](const T& a, const T& b) { return key(a) < key(b); };
      for (int64_t b = 0; b < rows; ++b) {
        const T* row = s + b * n;
        for (int64_t j = 0; j < m; ++j) {
          const T x = v[b * m + j];
          const int64_t at = (kUpper ? std::upper_bound(row, row + n, x, less)
                                     : std::lower_bound(row, row + n, x, less)) -
                             row;
          if (out_type == DT_INT32) {
            out->flat<int32_t>()[b * m + j] = static_cast<int32_t>(at);
          } else {
            out->flat<int64_t>()[b * m + j] = at;
          }
        }
      }
      return absl::OkStatus();
    });
  }

 private:
  DataType out_type_ = DT_INT32;
};

REGISTER_KERNEL(KernelDefBuilder("LowerBound")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_SEARCH_SORTED_TYPES>()),
                SearchSortedOp<false>);
REGISTER_KERNEL(KernelDefBuilder("UpperBound")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_SEARCH_SORTED_TYPES>()),
                SearchSortedOp<true>);

}  // namespace
}  // namespace rill
