// ListDiff (tf.compat.v1.setdiff1d): the elements of vector x that are not in vector y, in x's
// order and with repeats, and their positions in x (out_idx int32 or int64). Values match as
// TensorFlow's hash set finds them: NaN never; float and double as numbers (0 matches -0);
// half by its bits (Eigen hashes a half's bits, so 0 and -0 land apart).
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <unordered_set>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

// The set key of a value: half's bits (its NaNs are skipped by the caller), the value otherwise.
template <typename T>
auto Key(const T& v) {
  if constexpr (std::is_same_v<T, half>) {
    return v.bits;
  } else {
    return v;
  }
}

template <typename T>
bool IsNaN(const T& v) {
  if constexpr (std::is_same_v<T, half>) {
    return std::isnan(static_cast<float>(v));
  } else if constexpr (std::is_floating_point_v<T>) {
    return std::isnan(v);
  } else {
    return false;
  }
}

class ListDiffOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& x = ctx.input(0);
    const Tensor& y = ctx.input(1);
    if (x.shape().rank() != 1) return absl::InvalidArgumentError("x should be a 1D vector.");
    if (y.shape().rank() != 1) return absl::InvalidArgumentError("y should be a 1D vector.");
    return VisitKernelTypes<half, float, double, int32_t, int64_t, uint8_t, int8_t, int16_t,
                            std::string>(*this, x.dtype(), [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::type;
      auto xs = x.flat<T>();
      auto ys = y.flat<T>();
      std::unordered_set<decltype(Key(xs[0]))> drop;
      for (const T& v : ys) drop.insert(Key(v));
      std::vector<int64_t> keep;
      for (size_t k = 0; k < xs.size(); ++k) {
        if (IsNaN(xs[k]) || drop.count(Key(xs[k])) == 0) keep.push_back(static_cast<int64_t>(k));
      }
      const int64_t n = static_cast<int64_t>(keep.size());
      RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, TensorShape({n})));
      RILL_ASSIGN_OR_RETURN(Tensor * idx, ctx.allocate_output(1, TensorShape({n})));
      auto o = out->flat<T>();
      for (int64_t k = 0; k < n; ++k) {
        o[k] = xs[keep[k]];
        if (idx->dtype() == DT_INT32) {
          idx->flat<int32_t>()[k] = static_cast<int32_t>(keep[k]);
        } else {
          idx->flat<int64_t>()[k] = keep[k];
        }
      }
      return absl::OkStatus();
    });
  }
  bool IsExpensive() const override { return false; }
};

REGISTER_KERNEL(KernelDefBuilder("ListDiff")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_HALF, DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64,
                                          DT_UINT8, DT_INT8, DT_INT16, DT_STRING})
                    .TypeConstraint("out_idx", {DT_INT32, DT_INT64}),
                ListDiffOp);

}  // namespace
}  // namespace rill
