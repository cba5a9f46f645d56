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
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

// The forward's sampling kernels, by name; radius in input pixels before antialias widening.
struct Filter {
  enum Kind { kLanczos, kGaussian, kBox, kTriangle, kKeysCubic, kMitchellCubic } kind = kLanczos;
  float radius = 3.0f;

  float operator()(float x) const {
    x = std::abs(x);
    switch (kind) {
      case kLanczos: {
        constexpr float kPi = 3.14159265359f;
        if (x > radius) return 0.0f;
        if (x <= 1e-3f) return 1.0f;
        return radius * std::sin(kPi * x) * std::sin(kPi * x / radius) / (kPi * kPi * x * x);
      }
      case kGaussian: {
        const float sigma = radius / 3.0f;
        if (x >= radius) return 0.0f;
        return static_cast<float>(std::exp(-x * x / (2.0 * sigma * sigma)));
      }
      case kBox:
        return x < 0.5f ? 1.0f : x == 0.5f ? 0.5f : 0.0f;
      case kTriangle:
        return x < 1.0f ? 1.0f - x : 0.0f;
      case kKeysCubic:
        if (x >= 2.0f) return 0.0f;
        if (x >= 1.0f) return ((-0.5f * x + 2.5f) * x - 4.0f) * x + 2.0f;
        return ((1.5f * x - 2.5f) * x) * x + 1.0f;
      case kMitchellCubic:
        if (x >= 2.0f) return 0.0f;
        if (x >= 1.0f) {
          return (((-7.0f / 18.0f) * x + 2.0f) * x - 10.0f / 3.0f) * x + 16.0f / 9.0f;
        }
        return (((7.0f / 6.0f) * x - 2.0f) * x) * x + 8.0f / 9.0f;
    }
    return 0.0f;
  }
};

bool FilterFromName(const std::string& name, Filter* f) {
  if (name == "lanczos1" || name == "lanczos3" || name == "lanczos5") {
    *f = {Filter::kLanczos, static_cast<float>(name.back() - '0')};
  } else if (name == "gaussian") {
    *f = {Filter::kGaussian, 1.5f};
  } else if (name == "box") {
    *f = {Filter::kBox, 1.0f};
  } else if (name == "triangle") {
    *f = {Filter::kTriangle, 1.0f};
  } else if (name == "keyscubic") {
    *f = {Filter::kKeysCubic, 2.0f};
  } else if (name == "mitchellcubic") {
    *f = {Filter::kMitchellCubic, 2.0f};
  } else {
    return false;
  }
  return true;
}

// Per index i: weights[i * size + k] applies to index starts[i] + k of the other side.
struct Spans {
  int64_t size = 0;
  std::vector<int64_t> starts;
  std::vector<float> weights;
};

// The forward's spans: for each of `out_size` output indices, its input span and weights.
Spans ForwardSpans(const Filter& filter, int64_t out_size, int64_t in_size, float scale,
                   float translate, bool antialias) {
  const float inv_scale = static_cast<float>(1.0 / scale);
  const float inv_translate = -inv_scale * translate;
  const float kernel_scale = antialias ? std::max(inv_scale, 1.0f) : 1.0f;
  const float reach = filter.radius * kernel_scale;
  Spans spans;
  const double span = 2.0 * std::ceil(static_cast<double>(reach)) + 1.0;
  spans.size = std::min<int64_t>(
      span > static_cast<double>(in_size) ? in_size : static_cast<int64_t>(span), in_size);
  spans.starts.assign(out_size, 0);
  spans.weights.assign(out_size * spans.size, 0.0f);
  const float one_over_kernel_scale = 1.0f / kernel_scale;
  std::vector<float> temp;
  for (int64_t x = 0; x < out_size; ++x) {
    const float sample = (static_cast<float>(x) + 0.5f) * inv_scale + inv_translate;
    if (!(sample >= 0 && sample <= static_cast<float>(in_size))) continue;
    const double lo = std::ceil(static_cast<double>(sample - reach - 0.5f));
    const double hi = std::floor(static_cast<double>(sample + reach - 0.5f));
    const int64_t start = static_cast<int64_t>(std::clamp(lo, 0.0, double(in_size - 1)));
    const int64_t end = static_cast<int64_t>(std::clamp(hi, 0.0, double(in_size - 1))) + 1;
    const int64_t n = std::min(end - start, spans.size);
    float total = 0.0f;
    temp.clear();
    for (int64_t i = start; i < start + n; ++i) {
      const float w =
          filter(std::abs((static_cast<float>(i) + 0.5f - sample) * one_over_kernel_scale));
      total += w;
      temp.push_back(w);
    }
    if (std::abs(total) >= 1000.0f * std::numeric_limits<float>::min()) {
      const float inv = 1.0f / total;
      for (int64_t k = 0; k < n; ++k) spans.weights[x * spans.size + k] = temp[k] * inv;
    }
    spans.starts[x] = start;
  }
  return spans;
}

// The transpose of `forward` (out_size outputs over in_size inputs): per input index, the span of
// output indices that read it, from the first, with their weights.
Spans GradSpans(const Spans& forward, int64_t out_size, int64_t in_size) {
  struct Part {
    int64_t index;
    float weight;
  };
  std::vector<std::vector<Part>> parts(in_size);
  for (int64_t o = 0; o < out_size; ++o) {
    for (int64_t k = 0; k < forward.size; ++k) {
      const int64_t i = forward.starts[o] + k;
      const float w = forward.weights[o * forward.size + k];
      if (w != 0.0f && i < in_size) parts[i].push_back({o, w});
    }
  }
  Spans grad;
  for (const std::vector<Part>& p : parts) {
    if (!p.empty()) grad.size = std::max(grad.size, p.back().index - p.front().index + 1);
  }
  grad.starts.assign(in_size, 0);
  grad.weights.assign(in_size * grad.size, 0.0f);
  for (int64_t i = 0; i < in_size; ++i) {
    if (parts[i].empty()) continue;
    grad.starts[i] = parts[i].front().index;
    for (const Part& p : parts[i])
      grad.weights[i * grad.size + p.index - grad.starts[i]] += p.weight;
  }
  return grad;
}

class ScaleAndTranslateGradOp final : public OpKernel {
 public:
  explicit ScaleAndTranslateGradOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    std::string name;
    absl::Status s = ctx.GetAttr("kernel_type", &name);
    if (s.ok() && !FilterFromName(name, &filter_)) {
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
        ForwardSpans(filter_, gh, oh, row_scale, translation.flat<float>()[0], antialias_), gh, oh);
    const Spans cols = GradSpans(
        ForwardSpans(filter_, gw, ow, col_scale, translation.flat<float>()[1], antialias_), gw, ow);
    const float* g = grads.flat<float>().data();
    const int64_t g_row = gw * channels, o_row = ow * channels;
    ctx.ParallelFor(batch * oh, g_row * rows.size + o_row * cols.size,
                    [&](int64_t begin, int64_t end) {
                      std::vector<float> buf(static_cast<size_t>(g_row));
                      for (int64_t r = begin; r < end; ++r) {
                        const int64_t n = r / oh, y = r % oh;
                        std::fill(buf.begin(), buf.end(), 0.0f);
                        const int64_t ry = rows.starts[y];
                        const int64_t rn = std::min(rows.size, gh - ry);
                        const float* rw = &rows.weights[y * rows.size];
                        for (int64_t k = 0; k < rn; ++k) {
                          if (rw[k] == 0.0f) continue;
                          const float* src = g + (n * gh + ry + k) * g_row;
                          for (int64_t i = 0; i < g_row; ++i) buf[i] += rw[k] * src[i];
                        }
                        float* dst = z + r * o_row;
                        for (int64_t x = 0; x < ow; ++x) {
                          const int64_t cx = cols.starts[x];
                          const int64_t cn = std::min(cols.size, gw - cx);
                          const float* cw = &cols.weights[x * cols.size];
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
  Filter filter_;
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
