// LRNGrad on the CPU: the gradient of LRN (kernels/nn/lrn_op.cc) over the last dimension of 4-D
// inputs, TensorFlow's formula: for each pixel and depth j, with the window k in
// [j - depth_radius, j + depth_radius] clipped to the depth,
//   norm = bias + alpha * sum of in[k]^2,
//   out[k] += grads[j] * (-2 * alpha * beta * in[k] * out_image[j] / norm + (k == j ? norm^-beta
//   : 0)).
// Computed in float (half too); pixels run in parallel over the kernel's intra-op threads.
// Errors are InvalidArgument with TensorFlow's texts: "depth_radius = -1 larger than int max" (at
// construction), "inputs must be 4-dimensional", "input_grads, input_image, and out_image should
// have the same shape".
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

class LRNGradOp final : public OpKernel {
 public:
  explicit LRNGradOp(OpKernelConstruction& ctx) : OpKernel(ctx) { ReadLrnParams(ctx, &p_); }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& grads = ctx.input(0);
    const Tensor& in = ctx.input(1);
    const Tensor& out_image = ctx.input(2);
    if (grads.shape().rank() != 4 || in.shape().rank() != 4) {
      return absl::InvalidArgumentError("inputs must be 4-dimensional");
    }
    if (in.shape() != grads.shape() || out_image.shape() != grads.shape()) {
      return absl::InvalidArgumentError(
          "input_grads, input_image, and out_image should have the same shape");
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, in.shape()));
    if (out->NumElements() == 0) return absl::OkStatus();
    const int64_t depth = in.shape().dim(3);
    const int64_t pixels = in.NumElements() / depth;
    return VisitKernelTypes<half, float>(*this, in.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using cwise_internal::Load;
      using cwise_internal::Store;
      const T* g = grads.flat<T>().data();
      const T* x = in.flat<T>().data();
      const T* y = out_image.flat<T>().data();
      T* z = out->flat<T>().data();
      ctx.ParallelFor(pixels, depth * (4 * p_.radius + 20), [&](int64_t begin, int64_t end) {
        std::vector<float> acc(depth);
        for (int64_t p = begin; p < end; ++p) {
          const int64_t row = p * depth;
          std::fill(acc.begin(), acc.end(), 0.f);
          for (int64_t j = 0; j < depth; ++j) {
            const int64_t k0 = std::max<int64_t>(0, j - p_.radius);
            const int64_t k1 = std::min<int64_t>(depth, j + p_.radius + 1);
            float norm = 0.f;
            for (int64_t k = k0; k < k1; ++k) {
              const float v = static_cast<float>(Load(x[row + k]));
              norm += v * v;
            }
            norm = p_.alpha * norm + p_.bias;
            const float pow_norm = std::pow(norm, -p_.beta);
            const float yj = static_cast<float>(Load(y[row + j]));
            const float gj = static_cast<float>(Load(g[row + j]));
            for (int64_t k = k0; k < k1; ++k) {
              float d =
                  -2.f * p_.alpha * p_.beta * static_cast<float>(Load(x[row + k])) * yj / norm;
              if (k == j) d += pow_norm;
              acc[k] += d * gj;
            }
          }
          for (int64_t k = 0; k < depth; ++k) z[row + k] = Store<T>(acc[k]);
        }
      });
      return absl::OkStatus();
    });
  }

 private:
  LrnParams p_;
};

REGISTER_KERNEL(
    KernelDefBuilder("LRNGrad").Device(kDeviceCpu).TypeConstraint("T", DataTypesOf<half, float>()),
    LRNGradOp);

}  // namespace
}  // namespace rill
