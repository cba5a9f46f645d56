// BatchNormWithGlobalNormalization, the batch norm of TF1 graphs from 2015 (the first Inception
// graph): per channel of a 4-D NHWC input, scale = rsqrt(v + variance_epsilon), times gamma when
// scale_after_normalization, and out = (t - m) * scale + beta, computed in that order as
// TensorFlow's CPU kernel does (half rounded to half after each step, as its Eigen expression).
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <cmath>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

class BatchNormWithGlobalNormalizationOp final : public OpKernel {
 public:
  explicit BatchNormWithGlobalNormalizationOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("variance_epsilon", &epsilon_));
    ctx.SetStatus(ctx.GetAttr("scale_after_normalization", &scale_after_normalization_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& t = ctx.input(0);
    if (t.shape().rank() != 4) {
      return absl::InvalidArgumentError(
          absl::StrCat("input must be 4-dimensional", t.shape().DebugString()));
    }
    const int64_t depth = t.shape().dim(3);
    const char* names[] = {"mean", "var", "beta", "gamma"};
    for (int i = 1; i <= 4; ++i) {
      const Tensor& p = ctx.input(i);
      if (p.shape().rank() != 1) {
        return absl::InvalidArgumentError(
            absl::StrCat(names[i - 1], " must be 1-dimensional", p.shape().DebugString()));
      }
      if (p.NumElements() != depth) {
        return absl::InvalidArgumentError(absl::StrCat(
            names[i - 1], " must have ", depth,
            " elements, one per channel of the input, got shape ", p.shape().DebugString()));
      }
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, t.shape()));
    return VisitKernelTypes<half, float, double>(*this, t.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using cwise_internal::Load;
      using cwise_internal::Store;
      using C = decltype(Load(T{}));
      // Rounded to T after each operation, so half follows TensorFlow's half arithmetic.
      auto r = [](C v) { return Load(Store<T>(v)); };
      const T* m = ctx.input(1).flat<T>().data();
      const T* v = ctx.input(2).flat<T>().data();
      const T* beta = ctx.input(3).flat<T>().data();
      const T* gamma = ctx.input(4).flat<T>().data();
      const C eps = r(static_cast<C>(epsilon_));
      std::vector<C> scale(depth);
      for (int64_t c = 0; c < depth; ++c) {
        scale[c] = r(C(1) / std::sqrt(r(Load(v[c]) + eps)));
        if (scale_after_normalization_) scale[c] = r(scale[c] * Load(gamma[c]));
      }
      const T* x = t.flat<T>().data();
      T* z = out->flat<T>().data();
      const int64_t rows = depth == 0 ? 0 : t.NumElements() / depth;
      for (int64_t i = 0; i < rows; ++i) {
        for (int64_t c = 0; c < depth; ++c) {
          const int64_t k = i * depth + c;
          z[k] = Store<T>(r(r(Load(x[k]) - Load(m[c])) * scale[c]) + Load(beta[c]));
        }
      }
      return absl::OkStatus();
    });
  }

 private:
  float epsilon_ = 0;
  bool scale_after_normalization_ = false;
};

REGISTER_KERNEL(KernelDefBuilder("BatchNormWithGlobalNormalization")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<half, float, double>()),
                BatchNormWithGlobalNormalizationOp);

}  // namespace
}  // namespace rill
