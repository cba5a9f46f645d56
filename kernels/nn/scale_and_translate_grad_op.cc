// ScaleAndTranslateGrad on the CPU: the gradient of ScaleAndTranslate (kernels/image/
// scale_and_translate_op.cc) with respect to its NHWC float image. The forward samples each output
// pixel from a span of input pixels with normalized kernel weights (rows, then columns); the
// gradient inverts those spans (TensorFlow's ComputeGradSpans: per input index, the output indices
// that read it and their weights, as a span from the first of them) and gathers `grads` through
// them, rows first into a [orig_h, grads_w] buffer, then columns, in float.
// Kernels (kernel_type) as the forward's: lanczos1/3/5, gaussian, box, triangle, keyscubic,
// mitchellcubic; antialias widens the kernel by 1 / scale when downsampling.
// Errors are InvalidArgument with TensorFlow's texts: "Unrecognized kernel type: foo",
// "input_grad must be 4-dimensional[...]", "original_image must be 4-dimensional[...]",
// "original_image and input_grad must have same batch size", "original_image and input_grad must
// have same number of channels", "scale must be a vector of 2 elements, got shape [...]",
// "translation must be a vector of 2 elements, got shape [...]", "Scale must be greater than
// zero.".
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/image/sampling_spans.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

using sampling::ComputeSpans;
using sampling::KernelFromName;
using sampling::SamplingKernel;
using sampling::Spans;

// The transpose of `forward` (out_size outputs over in_size inputs): per input index, the span of
// output indices that read it, from the first, with their weights.
Spans GradSpans(const Spans& forward, int64_t out_size, int64_t in_size) {
  struct Part {
    int64_t index;
    float weight;
  };
  std::vector<std::vector<Part>> parts(in_size);
  for (int64_t o = 0; o < out_size; ++o) {
    for (int64_t k = 0; k < forward.span_size; ++k) {
      const int64_t i = forward.starts[o] + k;
      const float w = forward.weights[o * forward.span_size + k];
      if (w != 0.0f && i < in_size) parts[i].push_back({o, w});
    }
  }
  Spans grad;
  for (const std::vector<Part>& p : parts) {
    if (!p.empty()) grad.span_size = std::max(grad.span_size, p.back().index - p.front().index + 1);
  }
  grad.starts.assign(in_size, 0);
  grad.weights.assign(in_size * grad.span_size, 0.0f);
  for (int64_t i = 0; i < in_size; ++i) {
    if (parts[i].empty()) continue;
    grad.starts[i] = parts[i].front().index;
    for (const Part& p : parts[i])
      grad.weights[i * grad.span_size + p.index - grad.starts[i]] += p.weight;
  }
  return grad;
}

class ScaleAndTranslateGradOp final : public OpKernel {
 public:
  explicit ScaleAndTranslateGradOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    std::string name;
    absl::Status s = ctx.GetAttr("kernel_type", &name);
    if (s.ok() && !KernelFromName(name, &filter_)) {
      s = absl::InvalidArgumentError(absl::StrCat("Unrecognized kernel type: ", name));
    }
    ctx.SetStatus(s);
    ctx.SetStatus(ctx.GetAttr("antialias", &antialias_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& grads = ctx.input(0);
    const Tensor& image = ctx.input(1);
    const Tensor& scale = ctx.input(2);
    const Tensor& translation = ctx.input(3);
    if (grads.shape().rank() != 4) {
      return absl::InvalidArgumentError(
          absl::StrCat("input_grad must be 4-dimensional", grads.shape().DebugString()));
    }
    if (image.shape().rank() != 4) {
      return absl::InvalidArgumentError(
          absl::StrCat("original_image must be 4-dimensional", image.shape().DebugString()));
    }
    const int64_t batch = grads.shape().dim(0), gh = grads.shape().dim(1);
    const int64_t gw = grads.shape().dim(2), channels = grads.shape().dim(3);
    const int64_t oh = image.shape().dim(1), ow = image.shape().dim(2);
    if (image.shape().dim(0) != batch) {
      return absl::InvalidArgumentError("original_image and input_grad must have same batch size");
    }
    if (image.shape().dim(3) != channels) {
      return absl::InvalidArgumentError(
          "original_image and input_grad must have same number of channels");
    }
    if (scale.shape().rank() != 1 || scale.NumElements() != 2) {
      return absl::InvalidArgumentError(absl::StrCat(
          "scale must be a vector of 2 elements, got shape ", scale.shape().DebugString()));
    }
    if (translation.shape().rank() != 1 || translation.NumElements() != 2) {
      return absl::InvalidArgumentError(
          absl::StrCat("translation must be a vector of 2 elements, got shape ",
                       translation.shape().DebugString()));
    }
    const float row_scale = scale.flat<float>()[0], col_scale = scale.flat<float>()[1];
    if (!(row_scale > 0 && col_scale > 0)) {
      return absl::InvalidArgumentError("Scale must be greater than zero.");
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, image.shape()));
    float* z = out->flat<float>().data();
    std::fill(z, z + out->NumElements(), 0.0f);
    if (out->NumElements() == 0 || grads.NumElements() == 0) return absl::OkStatus();
    const Spans rows = GradSpans(
        ComputeSpans(filter_, gh, oh, row_scale, translation.flat<float>()[0], antialias_), gh, oh);
    const Spans cols = GradSpans(
        ComputeSpans(filter_, gw, ow, col_scale, translation.flat<float>()[1], antialias_), gw, ow);
    const float* g = grads.flat<float>().data();
    const int64_t g_row = gw * channels, o_row = ow * channels;
    ctx.ParallelFor(batch * oh, g_row * rows.span_size + o_row * cols.span_size,
                    [&](int64_t begin, int64_t end) {
                      std::vector<float> buf(static_cast<size_t>(g_row));
                      for (int64_t r = begin; r < end; ++r) {
                        const int64_t n = r / oh, y = r % oh;
                        std::fill(buf.begin(), buf.end(), 0.0f);
                        const int64_t ry = rows.starts[y];
                        const int64_t rn = std::min(rows.span_size, gh - ry);
                        const float* rw = &rows.weights[y * rows.span_size];
                        for (int64_t k = 0; k < rn; ++k) {
                          if (rw[k] == 0.0f) continue;
                          const float* src = g + (n * gh + ry + k) * g_row;
                          for (int64_t i = 0; i < g_row; ++i) buf[i] += rw[k] * src[i];
                        }
                        float* dst = z + r * o_row;
                        for (int64_t x = 0; x < ow; ++x) {
                          const int64_t cx = cols.starts[x];
                          const int64_t cn = std::min(cols.span_size, gw - cx);
                          const float* cw = &cols.weights[x * cols.span_size];
                          float* p = dst + x * channels;
                          for (int64_t k = 0; k < cn; ++k) {
                            if (cw[k] == 0.0f) continue;
                            const float* q = buf.data() + (cx + k) * channels;
                            for (int64_t c = 0; c < channels; ++c) p[c] += cw[k] * q[c];
                          }
                        }
                      }
                    });
    return absl::OkStatus();
  }

 private:
  SamplingKernel filter_;
  bool antialias_ = true;
};

REGISTER_KERNEL(KernelDefBuilder("ScaleAndTranslateGrad")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<float>())
                    .HostMemory("scale")
                    .HostMemory("translation"),
                ScaleAndTranslateGradOp);

}  // namespace
}  // namespace rill
