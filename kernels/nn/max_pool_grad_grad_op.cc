// MaxPoolGradGrad on the CPU, NHWC: the gradient of MaxPoolGrad with respect to its `grad`
// input. For each pooled output (n, oh, ow, c), the first element of its window (scanned row by
// row, padding excluded) equal to orig_output[n, oh, ow, c] picks the value of `grad` at that
// input position; 0 when none is equal (TensorFlow's CPU kernel).
// Errors are InvalidArgument with TensorFlow's texts: "Default MaxPoolingGradGradOp only supports
// NHWC on device type CPU", "Sliding window ksize field must specify 4 dimensions", "Sliding
// window strides field must specify 4 dimensions", "Pooling is not yet supported on the batch
// dimension." (Unimplemented), "tensor_in must be 4-dimensional", "tensor_out must be
// 4-dimensional", "out_grad_backprop must be 4-dimensional", "grad should have the same shape as
// orig_input", "Expected orig_output shape to be [...], but got [...]", and the window errors of
// ops/window_geometry.h.
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"
#include "ops/window_geometry.h"

namespace rill {
namespace {

class MaxPoolGradGradOp final : public OpKernel {
 public:
  explicit MaxPoolGradGradOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    std::string format = "NHWC", padding;
    ctx.SetStatus(ctx.GetAttr("data_format", &format));
    ctx.SetStatus(ctx.GetAttr("ksize", &ksize_));
    ctx.SetStatus(ctx.GetAttr("strides", &strides_));
    ctx.SetStatus(ctx.GetAttr("padding", &padding));
    padding_ = PaddingFromString(padding);
    if (format != "NHWC") {
      ctx.SetStatus(absl::InvalidArgumentError(
          "Default MaxPoolingGradGradOp only supports NHWC on device type CPU"));
    } else if (ksize_.size() != 4) {
      ctx.SetStatus(
          absl::InvalidArgumentError("Sliding window ksize field must specify 4 dimensions"));
    } else if (strides_.size() != 4) {
      ctx.SetStatus(
          absl::InvalidArgumentError("Sliding window strides field must specify 4 dimensions"));
    } else if (ksize_[0] != 1 || strides_[0] != 1) {
      ctx.SetStatus(
          absl::UnimplementedError("Pooling is not yet supported on the batch dimension."));
    } else if (ksize_[3] != 1 || strides_[3] != 1) {
      ctx.SetStatus(absl::UnimplementedError(
          "MaxPoolingGradGrad is not yet supported on the depth dimension."));
    }
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    const Tensor& pooled = ctx.input(1);
    const Tensor& grad = ctx.input(2);
    if (in.shape().rank() != 4) {
      return absl::InvalidArgumentError("tensor_in must be 4-dimensional");
    }
    if (pooled.shape().rank() != 4) {
      return absl::InvalidArgumentError("tensor_out must be 4-dimensional");
    }
    if (grad.shape().rank() != 4) {
      return absl::InvalidArgumentError("out_grad_backprop must be 4-dimensional");
    }
    if (grad.shape() != in.shape()) {
      return absl::InvalidArgumentError("grad should have the same shape as orig_input");
    }
    const int64_t batch = in.shape().dim(0), in_h = in.shape().dim(1);
    const int64_t in_w = in.shape().dim(2), depth = in.shape().dim(3);
    RILL_ASSIGN_OR_RETURN(Window h, ComputeWindow(in_h, ksize_[1], strides_[1], 1, padding_));
    RILL_ASSIGN_OR_RETURN(Window w, ComputeWindow(in_w, ksize_[2], strides_[2], 1, padding_));
    RILL_ASSIGN_OR_RETURN(const TensorShape out_shape,
                          TensorShape::FromDims({batch, h.out, w.out, depth}));
    if (pooled.shape() != out_shape) {
      return absl::InvalidArgumentError(absl::StrCat("Expected orig_output shape to be ",
                                                     out_shape.DebugString(), ", but got ",
                                                     pooled.shape().DebugString()));
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    return VisitKernelTypes<half, float, double, int32_t, int64_t>(
        *this, in.dtype(), [&](auto tag) {
          using T = typename decltype(tag)::type;
          using cwise_internal::Load;
          const T* x = in.flat<T>().data();
          const T* y = pooled.flat<T>().data();
          const T* g = grad.flat<T>().data();
          T* z = out->flat<T>().data();
          const int64_t pixels = batch * h.out * w.out;
          ctx.ParallelFor(pixels, ksize_[1] * ksize_[2] * depth, [&](int64_t begin, int64_t end) {
            for (int64_t p = begin; p < end; ++p) {
              const int64_t n = p / (h.out * w.out);
              const int64_t oh = (p / w.out) % h.out, ow = p % w.out;
              const int64_t h_start = oh * strides_[1] - h.pad_before;
              const int64_t w_start = ow * strides_[2] - w.pad_before;
              const int64_t h0 = std::max<int64_t>(0, h_start);
              const int64_t h1 = std::min(in_h, h_start + ksize_[1]);
              const int64_t w0 = std::max<int64_t>(0, w_start);
              const int64_t w1 = std::min(in_w, w_start + ksize_[2]);
              for (int64_t c = 0; c < depth; ++c) {
                const auto target = Load(y[p * depth + c]);
                T value = T();
                bool found = false;
                for (int64_t ih = h0; ih < h1 && !found; ++ih) {
                  for (int64_t iw = w0; iw < w1 && !found; ++iw) {
                    const int64_t at = ((n * in_h + ih) * in_w + iw) * depth + c;
                    if (Load(x[at]) == target) {
                      value = g[at];
                      found = true;
                    }
                  }
                }
                z[p * depth + c] = value;
              }
            }
          });
          return absl::OkStatus();
        });
  }

 private:
  std::vector<int64_t> ksize_, strides_;
  Padding padding_ = Padding::kValid;
};

REGISTER_KERNEL(KernelDefBuilder("MaxPoolGradGrad")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<half, float, double, int32_t, int64_t>()),
                MaxPoolGradGradOp);

}  // namespace
}  // namespace rill
