// AdjustContrast (the first tf.image.adjust_contrast, in graphs of GraphDef version 1) on the CPU:
// images [..., h, w, c] of uint8, int8, int16, int32, float or double (TensorFlow 2.21's CPU
// registrations) cast to float; per image and channel the mean over h * w (summed in order, then
// divided by h * w, as TensorFlow's reduction does), and (x - mean) * contrast_factor + mean
// clamped to [min_value, max_value], float out. Errors are TensorFlow's texts (InvalidArgument):
// "input must be at least 3-D, got shape[5,3]", "contrast_factor must be scalar: [1]",
// "min_value must be scalar: [1]", "max_value must be scalar: [1]". Kernels are immutable after
// construction; Compute is thread-safe.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

absl::StatusOr<float> Scalar(const Tensor& t, const char* name) {
  if (t.shape().rank() != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, " must be scalar: ", t.shape().DebugString()));
  }
  return t.flat<float>()[0];
}

class AdjustContrastOp final : public OpKernel {
 public:
  explicit AdjustContrastOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    const TensorShape& s = in.shape();
    if (s.rank() < 3) {
      return absl::InvalidArgumentError(
          absl::StrCat("input must be at least 3-D, got shape", s.DebugString()));
    }
    RILL_ASSIGN_OR_RETURN(const float factor, Scalar(ctx.input(1), "contrast_factor"));
    RILL_ASSIGN_OR_RETURN(const float lo, Scalar(ctx.input(2), "min_value"));
    RILL_ASSIGN_OR_RETURN(const float hi, Scalar(ctx.input(3), "max_value"));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, s));
    if (in.NumElements() == 0) return absl::OkStatus();
    const int64_t channels = s.dim(s.rank() - 1);
    const int64_t pixels = s.dim(s.rank() - 3) * s.dim(s.rank() - 2);
    const int64_t plane = pixels * channels;
    const int64_t images = in.NumElements() / plane;
    std::vector<float> x(in.NumElements());
    const absl::Status cast = VisitKernelTypes<uint8_t, int8_t, int16_t, int32_t, float, double>(
        *this, in.dtype(), [&](auto tag) {
          using T = typename decltype(tag)::type;
          const T* p = in.flat<T>().data();
          for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(p[i]);
          return absl::OkStatus();
        });
    if (!cast.ok()) return cast;
    float* y = out->flat<float>().data();
    const float count = static_cast<float>(pixels);
    for (int64_t b = 0; b < images; ++b) {
      const float* xp = x.data() + b * plane;
      std::vector<float> mean(channels, 0.0f);
      for (int64_t p = 0; p < pixels; ++p) {
        for (int64_t c = 0; c < channels; ++c) mean[c] += xp[p * channels + c];
      }
      for (float& m : mean) m /= count;
      for (int64_t k = 0; k < plane; ++k) {
        const float m = mean[k % channels];
        const float v = (xp[k] - m) * factor + m;
        y[b * plane + k] = std::max(std::min(v, hi), lo);
      }
    }
    return absl::OkStatus();
  }
};

REGISTER_KERNEL(KernelDefBuilder("AdjustContrast")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T",
                                    {DT_UINT8, DT_INT8, DT_INT16, DT_INT32, DT_FLOAT, DT_DOUBLE}),
                AdjustContrastOp);

}  // namespace
}  // namespace rill
