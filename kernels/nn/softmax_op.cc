// Softmax and LogSoftmax on the CPU over the last dimension, numerically stable (the row's max is
// subtracted first): softmax = exp(x - max) / sum(exp(x - max)); log_softmax = (x - max) -
// log(sum(exp(x - max))). half is computed in float; rows run in parallel over the kernel's
// intra-op threads (OpKernelContext::ParallelFor).
// Errors: InvalidArgument "logits must have >= 1 dimension, got []" (TensorFlow's text).
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/kernel_shapes.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

#define RILL_SOFTMAX_TYPES half, float, double

// One row of `n` logits into `z`.
template <bool kLog, typename T>
void SoftmaxRow(const T* x, int64_t n, T* z) {
  using cwise_internal::Load;
  using cwise_internal::Store;
  using C = decltype(Load(x[0]));
  C max = Load(x[0]);
  for (int64_t i = 1; i < n; ++i) max = std::max(max, Load(x[i]));
  C sum = 0;
  if constexpr (kLog) {
    for (int64_t i = 0; i < n; ++i) sum += std::exp(Load(x[i]) - max);
    const C log_sum = std::log(sum);
    for (int64_t i = 0; i < n; ++i) z[i] = Store<T>(Load(x[i]) - max - log_sum);
  } else {
    // exp once per element: written to z (in the compute type for half, via a second pass).
    if constexpr (std::is_same_v<C, T>) {
      for (int64_t i = 0; i < n; ++i) sum += (z[i] = std::exp(x[i] - max));
      const C inv = C(1) / sum;
      for (int64_t i = 0; i < n; ++i) z[i] *= inv;
    } else {
      for (int64_t i = 0; i < n; ++i) sum += std::exp(Load(x[i]) - max);
      for (int64_t i = 0; i < n; ++i) z[i] = Store<T>(std::exp(Load(x[i]) - max) / sum);
    }
  }
}

template <bool kLog>
class SoftmaxOp final : public OpKernel {
 public:
  explicit SoftmaxOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& logits = ctx.input(0);
    const TensorShape& shape = logits.shape();
    RILL_RETURN_IF_ERROR(CheckSoftmaxLogits(shape));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, shape));
    const int64_t n = shape.dim(shape.rank() - 1);
    if (out->NumElements() == 0) return absl::OkStatus();
    const int64_t rows = logits.NumElements() / n;
    return VisitKernelTypes<RILL_SOFTMAX_TYPES>(*this, logits.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* x = logits.flat<T>().data();
      T* z = out->flat<T>().data();
      ctx.ParallelFor(rows, n * 20, [&](int64_t begin, int64_t end) {
        for (int64_t r = begin; r < end; ++r) SoftmaxRow<kLog>(x + r * n, n, z + r * n);
      });
      return absl::OkStatus();
    });
  }
};

REGISTER_KERNEL(KernelDefBuilder("Softmax")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_SOFTMAX_TYPES>()),
                SoftmaxOp<false>);
REGISTER_KERNEL(KernelDefBuilder("LogSoftmax")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_SOFTMAX_TYPES>()),
                SoftmaxOp<true>);

}  // namespace
}  // namespace rill
