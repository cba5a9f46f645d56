// LRN (local response normalization) on the CPU over the last dimension of a 4-D input:
//   sqr_sum[n,h,w,d] = sum of in[n,h,w,k]^2 for k in [d - depth_radius, d + depth_radius] (clipped
//   to the depth), out = in * (bias + alpha * sqr_sum)^-beta,
// with TensorFlow's forms for the power: 1 / t for beta 1, 1 / sqrt(t) for beta 0.5, else
// exp(log(t) * -beta). half is computed in float; pixels run in parallel over the kernel's
// intra-op threads (OpKernelContext::ParallelFor).
// Errors are InvalidArgument with TensorFlow's texts: "depth_radius = -1 larger than int max" (a
// negative or too large depth_radius, at construction), "in must be 4-dimensional".
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"
#include "kernels/nn/lrn_params.h"

namespace rill {
namespace {

#define RILL_LRN_TYPES half, float

class LRNOp final : public OpKernel {
 public:
  explicit LRNOp(OpKernelConstruction& ctx) : OpKernel(ctx) { ReadLrnParams(ctx, &p_); }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    if (in.shape().rank() != 4) return absl::InvalidArgumentError("in must be 4-dimensional");
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, in.shape()));
    if (out->NumElements() == 0) return absl::OkStatus();
    const int64_t depth = in.shape().dim(3);
    const int64_t pixels = in.NumElements() / depth;
    return VisitKernelTypes<RILL_LRN_TYPES>(*this, in.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using cwise_internal::Load;
      using cwise_internal::Store;
      const T* x = in.flat<T>().data();
      T* y = out->flat<T>().data();
      ctx.ParallelFor(pixels, depth * (2 * p_.radius + 20), [&](int64_t begin, int64_t end) {
        std::vector<float> sq(depth);
        for (int64_t p = begin; p < end; ++p) {
          const T* xr = x + p * depth;
          T* yr = y + p * depth;
          for (int64_t d = 0; d < depth; ++d) {
            const float v = static_cast<float>(Load(xr[d]));
            sq[d] = v * v;
          }
          for (int64_t d = 0; d < depth; ++d) {
            const int64_t lo = std::max<int64_t>(0, d - p_.radius);
            const int64_t hi = std::min<int64_t>(depth - 1, d + p_.radius);
            float sum = 0;
            for (int64_t k = lo; k <= hi; ++k) sum += sq[k];
            const float t = sum * p_.alpha + p_.bias;
            float scale;
            if (p_.beta == 1.0f) {
              scale = 1.0f / t;
            } else if (p_.beta == 0.5f) {
              scale = 1.0f / std::sqrt(t);
            } else {
              scale = std::exp(std::log(t) * -p_.beta);
            }
            yr[d] = Store<T>(static_cast<float>(Load(xr[d])) * scale);
          }
        }
      });
      return absl::OkStatus();
    });
  }

 private:
  LrnParams p_;
};

REGISTER_KERNEL(
    KernelDefBuilder("LRN").Device(kDeviceCpu).TypeConstraint("T", DataTypesOf<RILL_LRN_TYPES>()),
    LRNOp);

}  // namespace
}  // namespace rill
