// ResizeBicubicGrad on the CPU: the gradient of ResizeBicubic (kernels/image) with respect to its
// NHWC image. Each pixel of `grads` (the resized size) is spread over the 4 x 4 original pixels it
// was interpolated from, with the forward's weights: resized index i samples x = i * scale
// (legacy, align_corners) or (i + 0.5) * scale - 0.5 (half_pixel_centers), taps floor(x) - 1 ..
// floor(x) + 2 clamped into the image, Keys' cubic weights from a 1025-entry table at round((x -
// floor(x)) * 1024) with a = -0.75 (legacy) or -0.5 (half_pixel_centers, where taps outside the
// image get weight 0 and the rest are renormalized). Shares are computed in T and added in T, row
// tap by column tap, as TensorFlow's CPU kernel; batches run in parallel over the kernel's
// intra-op threads.
// Errors are InvalidArgument with TensorFlow's texts: "If half_pixel_centers is True,
// align_corners must be False.", "input_grad must be 4-dimensional[...]", "original_image must be
// 4-dimensional[...]", "resized dimensions must be positive", "original dimensions must be
// positive".
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/resize_geometry.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

constexpr int kTable = 1024;

// Keys' cubic convolution weights: entry 2i for |d| = i / 1024, 2i + 1 for |d| = 1 + i / 1024.
std::vector<float> KeysWeights(double a) {
  std::vector<float> w((kTable + 1) * 2);
  for (int i = 0; i <= kTable; ++i) {
    float d = static_cast<float>(i * 1.0 / kTable);
    w[i * 2] = static_cast<float>(((a + 2) * d - (a + 3)) * d * d + 1);
    d += 1.0f;
    w[i * 2 + 1] = static_cast<float>(((a * d - 5 * a) * d + 8 * a) * d - 4 * a);
  }
  return w;
}

struct Cubic {
  std::array<int64_t, 4> index;
  std::array<float, 4> weight;
};

std::vector<Cubic> CubicWeights(int64_t resized, int64_t original, float scale,
                                bool half_pixel_centers) {
  static const std::vector<float>* legacy = new std::vector<float>(KeysWeights(-0.75));
  static const std::vector<float>* keys = new std::vector<float>(KeysWeights(-0.5));
  const std::vector<float>& tab = half_pixel_centers ? *keys : *legacy;
  std::vector<Cubic> out(resized);
  for (int64_t i = 0; i < resized; ++i) {
    const float x = half_pixel_centers ? (static_cast<float>(i) + 0.5f) * scale - 0.5f
                                       : static_cast<float>(i) * scale;
    const int64_t loc = static_cast<int64_t>(std::floor(x));
    const int64_t off = std::lrint((x - static_cast<float>(loc)) * kTable);
    Cubic& c = out[i];
    c.weight = {tab[off * 2 + 1], tab[off * 2], tab[(kTable - off) * 2],
                tab[(kTable - off) * 2 + 1]};
    for (int k = 0; k < 4; ++k) {
      c.index[k] = std::min(original - 1, std::max<int64_t>(0, loc - 1 + k));
      if (half_pixel_centers && c.index[k] != loc - 1 + k) c.weight[k] = 0.0f;
    }
    if (half_pixel_centers) {
      const float sum = c.weight[0] + c.weight[1] + c.weight[2] + c.weight[3];
      if (std::abs(sum) >= 1000.0f * std::numeric_limits<float>::min()) {
        const float inv = 1.0f / sum;
        for (float& w : c.weight) w *= inv;
      }
    }
  }
  return out;
}

class ResizeBicubicGradOp final : public OpKernel {
 public:
  explicit ResizeBicubicGradOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("align_corners", &align_corners_));
    ctx.SetStatus(ctx.GetAttr("half_pixel_centers", &half_pixel_centers_));
    if (half_pixel_centers_ && align_corners_) {
      ctx.SetStatus(absl::InvalidArgumentError(
          "If half_pixel_centers is True, align_corners must be False."));
    }
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& grads = ctx.input(0);
    const Tensor& image = ctx.input(1);
    if (grads.shape().rank() != 4) {
      return absl::InvalidArgumentError(
          absl::StrCat("input_grad must be 4-dimensional", grads.shape().DebugString()));
    }
    if (image.shape().rank() != 4) {
      return absl::InvalidArgumentError(
          absl::StrCat("original_image must be 4-dimensional", image.shape().DebugString()));
    }
    const int64_t batch = grads.shape().dim(0), rh = grads.shape().dim(1);
    const int64_t rw = grads.shape().dim(2), channels = grads.shape().dim(3);
    const int64_t oh = image.shape().dim(1), ow = image.shape().dim(2);
    // TensorFlow's checks (the scales divide by these sizes).
    if (rh <= 0 || rw <= 0) {
      return absl::InvalidArgumentError("resized dimensions must be positive");
    }
    if (oh <= 0 || ow <= 0) {
      return absl::InvalidArgumentError("original dimensions must be positive");
    }
    RILL_ASSIGN_OR_RETURN(const TensorShape out_shape,
                          TensorShape::FromDims({batch, oh, ow, channels}));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    const std::vector<Cubic> ys =
        CubicWeights(rh, oh, ResizeScale(oh, rh, align_corners_), half_pixel_centers_);
    const std::vector<Cubic> xs =
        CubicWeights(rw, ow, ResizeScale(ow, rw, align_corners_), half_pixel_centers_);
    return VisitKernelTypes<float, double>(*this, image.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const float* g = grads.flat<float>().data();
      T* z = out->flat<T>().data();
      std::fill(z, z + out->NumElements(), T(0));
      ctx.ParallelFor(batch, rh * rw * channels * 64, [&](int64_t begin, int64_t end) {
        for (int64_t n = begin; n < end; ++n) {
          for (int64_t y = 0; y < rh; ++y) {
            const Cubic& cy = ys[y];
            for (int64_t x = 0; x < rw; ++x) {
              const Cubic& cx = xs[x];
              const float* gp = g + ((n * rh + y) * rw + x) * channels;
              for (int64_t c = 0; c < channels; ++c) {
                const T v = gp[c];
                for (int i = 0; i < 4; ++i) {
                  T* row = z + ((n * oh + cy.index[i]) * ow) * channels + c;
                  for (int j = 0; j < 4; ++j) {
                    row[cx.index[j] * channels] += v * cy.weight[i] * cx.weight[j];
                  }
                }
              }
            }
          }
        }
      });
      return absl::OkStatus();
    });
  }

 private:
  bool align_corners_ = false;
  bool half_pixel_centers_ = false;
};

REGISTER_KERNEL(KernelDefBuilder("ResizeBicubicGrad")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<float, double>()),
                ResizeBicubicGradOp);

}  // namespace
}  // namespace rill
