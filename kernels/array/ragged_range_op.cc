// RaggedRange on the CPU (tf.ragged.range): row i is range(starts[i], limits[i], deltas[i]),
// each operand a scalar (broadcast) or a vector of the rows. Values are accumulated (start,
// start + delta, ...) as TensorFlow's kernel does, so float rows match it bit for bit; integer
// rows wrap as two's complement past the end instead of overflowing.
//
// Errors (TensorFlow's texts): "starts must be a scalar or vector", "starts, limits, and deltas
// must have the same shape", "Requires delta != 0", "Requires ((limit - start) / delta) <=
// 2147483647" (a row longer than Tsplits holds, an infinite or NaN float row). A total past
// Tsplits, where TensorFlow's splits overflow, is an error too.
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/array/ragged_ops_util.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_math.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

// The length of range(start, limit, delta), or an error; `max` is Tsplits' largest value.
template <typename T>
absl::StatusOr<int64_t> RangeSize(T start, T limit, T delta, int64_t max) {
  if (delta == T(0)) return absl::InvalidArgumentError("Requires delta != 0");
  if ((delta > T(0) && limit < start) || (delta < T(0) && limit > start)) return 0;
  bool fits = false;
  int64_t size = 0;
  if constexpr (std::is_integral_v<T>) {
    const __int128 span = static_cast<__int128>(limit) - start;
    const __int128 step = delta < 0 ? -static_cast<__int128>(delta) : delta;
    const __int128 n = ((span < 0 ? -span : span) + step - 1) / step;
    fits = n <= max;
    size = fits ? static_cast<int64_t>(n) : 0;
  } else {
    const double n = static_cast<double>(std::ceil(std::abs((limit - start) / delta)));
    fits = n <= static_cast<double>(max);
    size = fits ? static_cast<int64_t>(n) : 0;
  }
  if (!fits) {
    return absl::InvalidArgumentError(absl::StrCat("Requires ((limit - start) / delta) <= ", max));
  }
  return size;
}

class RaggedRangeOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  absl::Status Compute(OpKernelContext& ctx) const override {
    const char* names[] = {"starts", "limits", "deltas"};
    int64_t rows = 1;
    bool any_vector = false;
    for (int i = 0; i < 3; ++i) {
      const TensorShape& s = ctx.input(i).shape();
      if (s.rank() > 1) {
        return absl::InvalidArgumentError(absl::StrCat(names[i], " must be a scalar or vector"));
      }
      if (s.rank() == 1) {
        if (any_vector && s.dim(0) != rows) {
          return absl::InvalidArgumentError("starts, limits, and deltas must have the same shape");
        }
        rows = s.dim(0);
        any_vector = true;
      }
    }
    Tensor* splits_out = nullptr;
    const bool int32_splits = output_type(0) == DT_INT32;
    const int64_t max =
        int32_splits ? std::numeric_limits<int32_t>::max() : std::numeric_limits<int64_t>::max();
    return VisitKernelTypes<float, double, int32_t, int64_t>(
        *this, ctx.input(0).dtype(), [&](auto tag) -> absl::Status {
          using T = typename decltype(tag)::type;
          auto at = [&](int i, int64_t row) {
            const Tensor& t = ctx.input(i);
            return t.flat<T>()[t.shape().rank() == 0 ? 0 : row];
          };
          std::vector<int64_t> splits(static_cast<size_t>(rows) + 1, 0);
          for (int64_t r = 0; r < rows; ++r) {
            RILL_ASSIGN_OR_RETURN(const int64_t size,
                                  RangeSize<T>(at(0, r), at(1, r), at(2, r), max));
            if (size > max - splits[r]) {
              return absl::InvalidArgumentError(absl::StrCat(
                  "The ragged range's total number of values exceeds ", max, " (Tsplits)"));
            }
            splits[r + 1] = splits[r] + size;
          }
          RILL_ASSIGN_OR_RETURN(splits_out, ctx.allocate_output(0, TensorShape({rows + 1})));
          ragged::WriteSplits(splits, splits_out);
          RILL_ASSIGN_OR_RETURN(Tensor * values,
                                ctx.allocate_output(1, TensorShape({splits[rows]})));
          T* v = values->flat<T>().data();
          for (int64_t r = 0; r < rows; ++r) {
            T value = at(0, r);
            const T delta = at(2, r);
            for (int64_t j = splits[r]; j < splits[r + 1]; ++j) {
              v[j] = value;
              value = cwise_math::WrapAdd(value, delta);
            }
          }
          return absl::OkStatus();
        });
  }
};

REGISTER_KERNEL(KernelDefBuilder("RaggedRange")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64})
                    .TypeConstraint("Tsplits", {DT_INT32, DT_INT64}),
                RaggedRangeOp);

}  // namespace
}  // namespace rill
