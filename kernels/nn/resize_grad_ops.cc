// ResizeBilinearGrad and ResizeNearestNeighborGrad on the CPU: the gradients of ResizeBilinear
// and ResizeNearestNeighbor (kernels/nn/resize_ops.cc) with respect to their NHWC images. Each
// pixel of `grads` (the resized size) is scattered onto the original image with the forward's
// coordinate rules (scale = original / resized, or (original - 1) / (resized - 1) with
// align_corners):
//   bilinear: to the 4 neighbours of i * scale (or (i + 0.5) * scale - 0.5 with
//     half_pixel_centers), floor clamped at 0 and ceil at the last pixel, weighted by the lerps;
//     each share is computed in float, converted to T and added in T (half rounds after each
//     add), as TensorFlow's;
//   nearest: to floor(i * scale) (round with align_corners, floor((i + 0.5) * scale) with
//     half_pixel_centers), clamped into the image; accumulated in T (half rounds after each add,
//     as TensorFlow's).
// Pixels are visited batch, row, column, channel, as TensorFlow's CPU kernels, so float sums
// agree; batches run in parallel over the kernel's intra-op threads.
// Errors are InvalidArgument with TensorFlow's texts: "If half_pixel_centers is True,
// align_corners must be False.", "input_grad must be 4-dimensional[...]", "original_image must be
// 4-dimensional[...]", "resized dimensions must be positive", "original dimensions must be
// positive", "original_image and input_grad must have same batch size", "input must be
// 4-dimensional[...]", "shape_t must be 1-D[...]", "shape_t must have two elements[...]".
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/resize_geometry.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

class ResizeGradBase : public OpKernel {
 public:
  explicit ResizeGradBase(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("align_corners", &align_corners_));
    ctx.SetStatus(ctx.GetAttr("half_pixel_centers", &half_pixel_centers_));
    if (half_pixel_centers_ && align_corners_) {
      ctx.SetStatus(absl::InvalidArgumentError(
          "If half_pixel_centers is True, align_corners must be False."));
    }
  }

 protected:
  bool align_corners_ = false;
  bool half_pixel_centers_ = false;
};

// Where resized index i reads in the original image: lower/upper neighbours, weight of upper.
struct Lerp {
  int64_t lower, upper;
  float lerp;
};

std::vector<Lerp> BilinearLerps(int64_t resized, int64_t original, float scale,
                                bool half_pixel_centers) {
  std::vector<Lerp> out(resized);
  for (int64_t i = 0; i < resized; ++i) {
    const float x = half_pixel_centers ? (static_cast<float>(i) + 0.5f) * scale - 0.5f
                                       : static_cast<float>(i) * scale;
    const float x_floor = std::floor(x);
    out[i].upper = std::min(static_cast<int64_t>(std::ceil(x)), original - 1);
    out[i].lower = std::min(std::max(static_cast<int64_t>(x_floor), int64_t{0}), out[i].upper);
    out[i].lerp = x - x_floor;
  }
  return out;
}

class ResizeBilinearGradOp final : public ResizeGradBase {
 public:
  explicit ResizeBilinearGradOp(OpKernelConstruction& ctx) : ResizeGradBase(ctx) {}

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
    if (image.shape().dim(0) != batch) {
      return absl::InvalidArgumentError("original_image and input_grad must have same batch size");
    }
    if (image.shape().dim(3) != channels) {
      return absl::InvalidArgumentError(
          "original_image and input_grad must have the same number of channels");
    }
    RILL_ASSIGN_OR_RETURN(const TensorShape out_shape,
                          TensorShape::FromDims({batch, oh, ow, channels}));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    const std::vector<Lerp> ys =
        BilinearLerps(rh, oh, ResizeScale(oh, rh, align_corners_), half_pixel_centers_);
    const std::vector<Lerp> xs =
        BilinearLerps(rw, ow, ResizeScale(ow, rw, align_corners_), half_pixel_centers_);
    return VisitKernelTypes<half, float, double>(*this, image.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using cwise_internal::Load;
      using cwise_internal::Store;
      const float* g = grads.flat<float>().data();
      T* z = out->flat<T>().data();
      std::fill(z, z + out->NumElements(), Store<T>(0.f));
      ctx.ParallelFor(batch, rh * rw * channels * 8, [&](int64_t begin, int64_t end) {
        for (int64_t n = begin; n < end; ++n) {
          auto add = [&](int64_t h, int64_t w, int64_t c, float v) {
            T& dst = z[((n * oh + h) * ow + w) * channels + c];
            dst = Store<T>(Load(dst) + Load(Store<T>(v)));
          };
          for (int64_t y = 0; y < rh; ++y) {
            const float dy = ys[y].lerp, inv_dy = 1.0f - dy;
            for (int64_t x = 0; x < rw; ++x) {
              const float dx = xs[x].lerp, inv_dx = 1.0f - dx;
              const float* gp = g + ((n * rh + y) * rw + x) * channels;
              for (int64_t c = 0; c < channels; ++c) {
                add(ys[y].lower, xs[x].lower, c, gp[c] * inv_dy * inv_dx);
                add(ys[y].lower, xs[x].upper, c, gp[c] * inv_dy * dx);
                add(ys[y].upper, xs[x].lower, c, gp[c] * dy * inv_dx);
                add(ys[y].upper, xs[x].upper, c, gp[c] * dy * dx);
              }
            }
          }
        }
      });
      return absl::OkStatus();
    });
  }
};

int64_t NearestIndex(int64_t i, int64_t original, float scale, bool align_corners,
                     bool half_pixel_centers) {
  const float x =
      half_pixel_centers ? (static_cast<float>(i) + 0.5f) * scale : static_cast<float>(i) * scale;
  int64_t k =
      std::min(static_cast<int64_t>(align_corners ? std::round(x) : std::floor(x)), original - 1);
  if (half_pixel_centers) k = std::max<int64_t>(0, k);
  return k;
}

class ResizeNearestNeighborGradOp final : public ResizeGradBase {
 public:
  explicit ResizeNearestNeighborGradOp(OpKernelConstruction& ctx) : ResizeGradBase(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& grads = ctx.input(0);
    const Tensor& size = ctx.input(1);
    if (grads.shape().rank() != 4) {
      return absl::InvalidArgumentError(
          absl::StrCat("input must be 4-dimensional", grads.shape().DebugString()));
    }
    if (size.shape().rank() != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("shape_t must be 1-D", size.shape().DebugString()));
    }
    if (size.NumElements() != 2) {
      return absl::InvalidArgumentError(
          absl::StrCat("shape_t must have two elements", size.shape().DebugString()));
    }
    const std::vector<int64_t> hw = IndexValues(size);
    const int64_t batch = grads.shape().dim(0), rh = grads.shape().dim(1);
    const int64_t rw = grads.shape().dim(2), channels = grads.shape().dim(3);
    const int64_t oh = hw[0], ow = hw[1];
    RILL_ASSIGN_OR_RETURN(const TensorShape out_shape,
                          TensorShape::FromDims({batch, oh, ow, channels}));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    const float scale_h = ResizeScale(oh, rh, align_corners_);
    const float scale_w = ResizeScale(ow, rw, align_corners_);
    std::vector<int64_t> ys(rh), xs(rw);
    for (int64_t i = 0; i < rh; ++i) {
      ys[i] = NearestIndex(i, oh, scale_h, align_corners_, half_pixel_centers_);
    }
    for (int64_t i = 0; i < rw; ++i) {
      xs[i] = NearestIndex(i, ow, scale_w, align_corners_, half_pixel_centers_);
    }
    return VisitKernelTypes<half, float, double, int8_t, uint8_t, int32_t>(
        *this, grads.dtype(), [&](auto tag) {
          using T = typename decltype(tag)::type;
          using cwise_internal::Load;
          using cwise_internal::Store;
          const T* g = grads.flat<T>().data();
          T* z = out->flat<T>().data();
          std::fill(z, z + out->NumElements(), Store<T>(decltype(Load(g[0]))(0)));
          ctx.ParallelFor(batch, rh * rw * channels, [&](int64_t begin, int64_t end) {
            for (int64_t n = begin; n < end; ++n) {
              for (int64_t y = 0; y < rh; ++y) {
                for (int64_t x = 0; x < rw; ++x) {
                  const T* gp = g + ((n * rh + y) * rw + x) * channels;
                  T* zp = z + ((n * oh + ys[y]) * ow + xs[x]) * channels;
                  for (int64_t c = 0; c < channels; ++c)
                    zp[c] = Store<T>(Load(zp[c]) + Load(gp[c]));
                }
              }
            }
          });
          return absl::OkStatus();
        });
  }
};

REGISTER_KERNEL(KernelDefBuilder("ResizeBilinearGrad")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<half, float, double>()),
                ResizeBilinearGradOp);
REGISTER_KERNEL(KernelDefBuilder("ResizeNearestNeighborGrad")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T",
                                    DataTypesOf<half, float, double, int8_t, uint8_t, int32_t>())
                    .HostMemory("size"),
                ResizeNearestNeighborGradOp);

}  // namespace
}  // namespace rill
