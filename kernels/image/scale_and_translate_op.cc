// ScaleAndTranslate on the CPU (tf.image.resize's lanczos, gaussian, mitchellcubic... methods):
// NHWC images [batch, h, w, c] resampled to [batch, size[0], size[1], c] (float). Along a dim,
// output pixel x samples input coordinate s = (x + 0.5) / scale - translation / scale; when s is
// outside [0, in] the pixel is 0. Otherwise the input pixels i with centres i + 0.5 within the
// kernel's radius (times max(1 / scale, 1) with antialias, which also widens the kernel) of s get
// weight kernel(|i + 0.5 - s| / kernel_scale), normalized to sum 1. Rows are resampled first
// (into a [h_out, w_in] buffer), then columns, in float.
//
// Kernels (kernel_type): lanczos1/3/5 (r sin(pi x) sin(pi x / r) / (pi x)^2, radius r), gaussian
// (sigma 0.5, radius 1.5), box (1 below 0.5, 0.5 at it, radius 1), triangle (1 - x, radius 1),
// keyscubic (Keys a = -0.5, radius 2), mitchellcubic (B = C = 1/3, radius 2).
//
// Errors are InvalidArgument with TensorFlow's texts: "Unrecognized kernel type: foo", "input must
// be 4-dimensional[2,3]", "output_shape_t must be 1-dimensional", "output_shape_t must have two
// elements", "output dimensions must be positive", "image must have at least one channel", "input
// image must be of non-zero size", "Scale must be greater than zero.".
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

#define RILL_SCALE_TYPES half, float, double, int8_t, int16_t, int32_t, int64_t, uint8_t

class ScaleAndTranslateOp final : public OpKernel {
 public:
  explicit ScaleAndTranslateOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    std::string name;
    absl::Status s = ctx.GetAttr("kernel_type", &name);
    if (s.ok() && !KernelFromName(name, &kernel_)) {
      s = absl::InvalidArgumentError(absl::StrCat("Unrecognized kernel type: ", name));
    }
    ctx.SetStatus(s);
    ctx.SetStatus(ctx.GetAttr("antialias", &antialias_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& images = ctx.input(0);
    const Tensor& size = ctx.input(1);
    const TensorShape is = images.shape();
    if (is.rank() != 4) {
      return absl::InvalidArgumentError(
          absl::StrCat("input must be 4-dimensional", is.DebugString()));
    }
    if (size.shape().rank() != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("output_shape_t must be 1-dimensional", size.shape().DebugString()));
    }
    if (size.NumElements() != 2) {
      return absl::InvalidArgumentError(
          absl::StrCat("output_shape_t must have two elements", size.shape().DebugString()));
    }
    const int64_t out_h = size.flat<int32_t>()[0], out_w = size.flat<int32_t>()[1];
    const int64_t batch = is.dim(0), in_h = is.dim(1), in_w = is.dim(2), channels = is.dim(3);
    if (out_h <= 0 || out_w <= 0) {
      return absl::InvalidArgumentError("output dimensions must be positive");
    }
    if (channels <= 0) return absl::InvalidArgumentError("image must have at least one channel");
    if (in_h <= 0 || in_w <= 0) {
      return absl::InvalidArgumentError("input image must be of non-zero size");
    }
    const Tensor& scale = ctx.input(2);
    const Tensor& translation = ctx.input(3);
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
    const float row_shift = translation.flat<float>()[0];
    const float col_shift = translation.flat<float>()[1];
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape,
                          TensorShape::FromDims({batch, out_h, out_w, channels}));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    const Spans rows = ComputeSpans(kernel_, out_h, in_h, row_scale, row_shift, antialias_);
    const Spans cols = ComputeSpans(kernel_, out_w, in_w, col_scale, col_shift, antialias_);
    return VisitKernelTypes<RILL_SCALE_TYPES>(*this, images.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using cwise_internal::Load;
      const T* x = images.flat<T>().data();
      float* z = out->flat<float>().data();
      const int64_t in_row = in_w * channels, out_row = out_w * channels;
      ctx.ParallelFor(batch * out_h, in_row * rows.span_size + out_row * cols.span_size,
                      [&](int64_t begin, int64_t end) {
                        std::vector<float> buf(static_cast<size_t>(in_row));
                        for (int64_t r = begin; r < end; ++r) {
                          const int64_t n = r / out_h, y = r % out_h;
                          // Rows: buf = sum_k w[k] * image row (start + k).
                          std::fill(buf.begin(), buf.end(), 0.0f);
                          const int64_t ry = rows.starts[y];
                          const int64_t rn = std::min(rows.span_size, in_h - ry);
                          const float* rw = &rows.weights[y * rows.span_size];
                          for (int64_t k = 0; k < rn; ++k) {
                            const T* src = x + (n * in_h + ry + k) * in_row;
                            for (int64_t i = 0; i < in_row; ++i) {
                              buf[i] += rw[k] * static_cast<float>(Load(src[i]));
                            }
                          }
                          // Columns.
                          float* dst = z + r * out_row;
                          for (int64_t ox = 0; ox < out_w; ++ox) {
                            const int64_t cx = cols.starts[ox];
                            const int64_t cn = std::min(cols.span_size, in_w - cx);
                            const float* cw = &cols.weights[ox * cols.span_size];
                            float* p = dst + ox * channels;
                            std::fill_n(p, channels, 0.0f);
                            for (int64_t k = 0; k < cn; ++k) {
                              const float* q = buf.data() + (cx + k) * channels;
                              for (int64_t c = 0; c < channels; ++c) p[c] += cw[k] * q[c];
                            }
                          }
                        }
                      });
      return absl::OkStatus();
    });
  }

 private:
  SamplingKernel kernel_;
  bool antialias_ = true;
};

REGISTER_KERNEL(KernelDefBuilder("ScaleAndTranslate")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_SCALE_TYPES>())
                    .HostMemory("size")
                    .HostMemory("scale")
                    .HostMemory("translation"),
                ScaleAndTranslateOp);

}  // namespace
}  // namespace rill
