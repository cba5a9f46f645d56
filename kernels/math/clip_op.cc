// ClipByValue on the CPU: out = max(min(t, clip_value_max), clip_value_min) elementwise, where each
// bound is a scalar or has t's shape. As in TensorFlow: a NaN input stays NaN, and when min > max
// every element becomes min. half is computed in float. Errors: InvalidArgument "clip_value_min and
// clip_value_max must be either of the same shape as input, or a scalar. input shape:
// [2,3]clip_value_min shape: [3]clip_value_max shape: []" (TensorFlow's text, without separators).
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <cstdint>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

#define RILL_CLIP_TYPES half, float, double, int8_t, int16_t, int32_t, int64_t, uint8_t

// std::max(std::min(x, hi), lo), written out so NaN handling is explicit: comparisons with NaN are
// false, so a NaN x passes through both.
template <typename C>
C Clip(C x, C lo, C hi) {
  const C m = hi < x ? hi : x;
  return m < lo ? lo : m;
}

class ClipByValueOp final : public OpKernel {
 public:
  explicit ClipByValueOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& t = ctx.input(0);
    const Tensor& lo = ctx.input(1);
    const Tensor& hi = ctx.input(2);
    const auto fits = [&](const Tensor& bound) {
      return bound.shape() == t.shape() || bound.shape().rank() == 0;
    };
    if (!fits(lo) || !fits(hi)) {
      return absl::InvalidArgumentError(
          absl::StrCat("clip_value_min and clip_value_max must be either of "
                       "the same shape as input, or a "
                       "scalar. input shape: ",
                       t.shape().DebugString(), "clip_value_min shape: ", lo.shape().DebugString(),
                       "clip_value_max shape: ", hi.shape().DebugString()));
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, t.shape()));
    return VisitKernelTypes<RILL_CLIP_TYPES>(*this, t.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using cwise_internal::Load;
      const T* x = t.flat<T>().data();
      const T* l = lo.flat<T>().data();
      const T* h = hi.flat<T>().data();
      // A scalar bound has stride 0.
      const int64_t sl = lo.NumElements() == t.NumElements() ? 1 : 0;
      const int64_t sh = hi.NumElements() == t.NumElements() ? 1 : 0;
      T* z = out->flat<T>().data();
      ctx.ParallelFor(t.NumElements(), 1, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) {
          z[i] = cwise_internal::Store<T>(Clip(Load(x[i]), Load(l[i * sl]), Load(h[i * sh])));
        }
      });
      return absl::OkStatus();
    });
  }
  bool IsExpensive() const override { return false; }
};

REGISTER_KERNEL(KernelDefBuilder("ClipByValue")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_CLIP_TYPES>()),
                ClipByValueOp);

}  // namespace
}  // namespace rill
