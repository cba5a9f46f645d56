// LRN (local response normalization) on the CPU over the last dimension of a 4-D input:
//   sqr_sum[n,h,w,d] = sum of in[n,h,w,k]^2 for k in [d - depth_radius, d + depth_radius] (clipped
//   to the depth), out = in * (bias + alpha * sqr_sum)^-beta,
// with TensorFlow's forms for the power: 1 / t for beta 1, 1 / sqrt(t) for beta 0.5, else
// exp(log(t) * -beta) (vector_math's ExpF and LogF). half is computed in float; each pixel's loops
// run at the CPU's vector width (RunSimd) and pixels in parallel over the kernel's intra-op
// threads (OpKernelContext::ParallelFor).
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
#include "kernels/math_lib/vector_math.h"
#include "kernels/nn/lrn_params.h"

namespace rill {
namespace {

#define RILL_LRN_TYPES half, float

// The per-pixel loops, with restrict-qualified pointers and parameters by value so the compiler
// sees they do not alias and vectorizes each (inside RunSimd's clones).

// sum[d] = sq[d - radius] + ... + sq[d + radius] for d < depth, where sq has `radius` zeros
// before and after its depth values.
inline void WindowSums(const float* __restrict sq, int64_t depth, int64_t radius,
                       float* __restrict sum) {
  for (int64_t d = 0; d < depth; ++d) sum[d] = 0.0f;
  for (int64_t o = 0; o <= 2 * radius; ++o) {
    const float* __restrict shifted = sq + o;
    for (int64_t d = 0; d < depth; ++d) sum[d] += shifted[d];
  }
}

// y[d] = x[d] * (sum[d] * alpha + bias)^-beta, with TensorFlow's forms for beta 1 and 0.5.
template <typename T>
void ScaleByPower(const T* __restrict x, const float* __restrict sum, int64_t depth, float alpha,
                  float bias, float beta, T* __restrict y) {
  using cwise_internal::Load;
  using cwise_internal::Store;
  if (beta == 1.0f) {
    for (int64_t d = 0; d < depth; ++d) {
      y[d] = Store<T>(static_cast<float>(Load(x[d])) * (1.0f / (sum[d] * alpha + bias)));
    }
  } else if (beta == 0.5f) {
    for (int64_t d = 0; d < depth; ++d) {
      const float scale = 1.0f / std::sqrt(sum[d] * alpha + bias);
      y[d] = Store<T>(static_cast<float>(Load(x[d])) * scale);
    }
  } else {
    for (int64_t d = 0; d < depth; ++d) {
      const float scale = vector_math::ExpF(vector_math::LogF(sum[d] * alpha + bias) * -beta);
      y[d] = Store<T>(static_cast<float>(Load(x[d])) * scale);
    }
  }
}

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
      const T* x = in.flat<T>().data();
      T* y = out->flat<T>().data();
      const int64_t radius = std::min<int64_t>(p_.radius, depth);
      const int64_t width = 2 * radius + 1;
      const float alpha = p_.alpha, bias = p_.bias, beta = p_.beta;
      ctx.ParallelFor(pixels, depth * (width + 20), [&](int64_t begin, int64_t end) {
        // sq: the pixel's squares with `radius` zeros on each side, so every window has
        // `width` terms (adding a zero changes no sum) and the window loop vectorizes over d.
        std::vector<float> sq(depth + 2 * radius, 0.0f), sum(depth);
        float* sqp = sq.data() + radius;
        float* s = sum.data();
        cwise_internal::RunSimdFor<T>([&] {
          for (int64_t p = begin; p < end; ++p) {
            const T* xr = x + p * depth;
            for (int64_t d = 0; d < depth; ++d) {
              const float v = static_cast<float>(Load(xr[d]));
              sqp[d] = v * v;
            }
            WindowSums(sq.data(), depth, radius, s);
            ScaleByPower<T>(xr, s, depth, alpha, bias, beta, y + p * depth);
          }
        });
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
