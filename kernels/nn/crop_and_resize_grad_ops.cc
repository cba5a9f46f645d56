// CropAndResizeGradImage and CropAndResizeGradBoxes on the CPU: the gradients of CropAndResize
// (kernels/image) with respect to the NHWC image and the boxes [num_boxes, 4] = (y1, x1, y2, x2)
// in normalized coordinates, TensorFlow's formulas. Crop pixel (y, x) of box b samples the image
// at in_y = y1 * (h - 1) + y * (y2 - y1) * (h - 1) / (crop_h - 1) (the box's centre 0.5 * (y1 +
// y2) * (h - 1), computed in double, for crop_h 1), likewise in_x; samples outside the image (or
// NaN, from NaN boxes) get no gradient.
//   GradImage: bilinear spreads grads over the 4 neighbours with the lerps; nearest adds grads to
//     the rounded position; each share is cast to T and added in T.
//   GradBoxes: the bilinear image gradient along y / x times grads, scaled by the derivative of
//     in_y / in_x with respect to y1, y2 / x1, x2, summed in float.
// Errors are InvalidArgument with TensorFlow's texts: "grads image must be 4-D[...]", "grads
// dimensions must be positive", "boxes must be 2-D[...]", "boxes must have 4 columns", "box_index
// must be 1-D[...]", "box_index has incompatible shape", "boxes and grads have incompatible
// shape", "image_size must be 1-D[...]", "image_size must have 4 elements[...]", "image dimensions
// must be positive", "image_size and grads are incompatible", "input image must be 4-D[...]",
// "image, grads depth differ", "method must be 'bilinear'"; OutOfRange "box_index has values
// outside [0, batch_size)".
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

// The checks the two kernels share: grads [num_boxes, crop_h, crop_w, depth], boxes, box_ind.
absl::Status CheckGradsAndBoxes(const Tensor& grads, const Tensor& boxes, const Tensor& box_ind) {
  if (grads.shape().rank() != 4) {
    return absl::InvalidArgumentError(
        absl::StrCat("grads image must be 4-D", grads.shape().DebugString()));
  }
  if (grads.shape().dim(1) <= 0 || grads.shape().dim(2) <= 0) {
    return absl::InvalidArgumentError("grads dimensions must be positive");
  }
  int64_t num_boxes = 0;
  if (boxes.NumElements() != 0 || box_ind.NumElements() != 0) {
    if (boxes.shape().rank() != 2) {
      return absl::InvalidArgumentError(
          absl::StrCat("boxes must be 2-D", boxes.shape().DebugString()));
    }
    num_boxes = boxes.shape().dim(0);
    if (boxes.shape().dim(1) != 4) return absl::InvalidArgumentError("boxes must have 4 columns");
    if (box_ind.shape().rank() != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("box_index must be 1-D", box_ind.shape().DebugString()));
    }
    if (box_ind.shape().dim(0) != num_boxes) {
      return absl::InvalidArgumentError("box_index has incompatible shape");
    }
  }
  if (grads.shape().dim(0) != num_boxes) {
    return absl::InvalidArgumentError("boxes and grads have incompatible shape");
  }
  return absl::OkStatus();
}

absl::Status CheckBoxIndex(const Tensor& box_ind, int64_t batch) {
  for (int32_t b : box_ind.flat<int32_t>()) {
    if (b < 0 || b >= batch) {
      return absl::OutOfRangeError("box_index has values outside [0, batch_size)");
    }
  }
  return absl::OkStatus();
}

// Where crop pixel i of a box samples along one axis of an image of `size` pixels.
struct Axis {
  int64_t size, crop;
  float lo, hi;
  float scale() const { return crop > 1 ? (hi - lo) * (size - 1) / (crop - 1) : 0.f; }
  float At(int64_t i, float scale) const {
    return crop > 1 ? lo * (size - 1) + i * scale
                    : static_cast<float>(0.5 * (lo + hi) * (size - 1));
  }
};

class CropAndResizeGradImageOp final : public OpKernel {
 public:
  explicit CropAndResizeGradImageOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("method", &method_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& grads = ctx.input(0);
    const Tensor& boxes = ctx.input(1);
    const Tensor& box_ind = ctx.input(2);
    const Tensor& image_size = ctx.input(3);
    RILL_RETURN_IF_ERROR(CheckGradsAndBoxes(grads, boxes, box_ind));
    if (image_size.shape().rank() != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("image_size must be 1-D", image_size.shape().DebugString()));
    }
    if (image_size.NumElements() != 4) {
      return absl::InvalidArgumentError(
          absl::StrCat("image_size must have 4 elements", image_size.shape().DebugString()));
    }
    const std::vector<int64_t> dims = IndexValues(image_size);
    if (dims[1] <= 0 || dims[2] <= 0) {
      return absl::InvalidArgumentError("image dimensions must be positive");
    }
    if (grads.shape().dim(3) != dims[3]) {
      return absl::InvalidArgumentError("image_size and grads are incompatible");
    }
    RILL_ASSIGN_OR_RETURN(const TensorShape shape, TensorShape::FromDims(dims));
    RILL_RETURN_IF_ERROR(CheckBoxIndex(box_ind, dims[0]));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, shape));
    const int64_t h = dims[1], w = dims[2], depth = dims[3];
    const int64_t crop_h = grads.shape().dim(1), crop_w = grads.shape().dim(2);
    const bool bilinear = method_ == "bilinear";
    return VisitKernelTypes<half, float, double>(*this, out->dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using cwise_internal::Load;
      using cwise_internal::Store;
      T* z = out->flat<T>().data();
      std::fill(z, z + out->NumElements(), Store<T>(0.f));
      const float* g = grads.flat<float>().data();
      const float* bx = boxes.flat<float>().data();
      auto add = [&](int64_t n, int64_t y, int64_t x, int64_t d, float v) {
        T& dst = z[((n * h + y) * w + x) * depth + d];
        dst = Store<T>(Load(dst) + Load(Store<T>(v)));
      };
      for (int64_t b = 0; b < grads.shape().dim(0); ++b) {
        const int64_t n = box_ind.flat<int32_t>()[b];
        const Axis ay{h, crop_h, bx[b * 4], bx[b * 4 + 2]};
        const Axis ax{w, crop_w, bx[b * 4 + 1], bx[b * 4 + 3]};
        const float sy = ay.scale(), sx = ax.scale();
        for (int64_t y = 0; y < crop_h; ++y) {
          const float in_y = ay.At(y, sy);
          if (!(in_y >= 0 && in_y <= h - 1)) continue;  // NaN too
          const int64_t top = static_cast<int64_t>(std::floor(in_y));
          const int64_t bottom = static_cast<int64_t>(std::ceil(in_y));
          const float y_lerp = in_y - top;
          for (int64_t x = 0; x < crop_w; ++x) {
            const float in_x = ax.At(x, sx);
            if (!(in_x >= 0 && in_x <= w - 1)) continue;
            const float* gp = g + ((b * crop_h + y) * crop_w + x) * depth;
            if (bilinear) {
              const int64_t left = static_cast<int64_t>(std::floor(in_x));
              const int64_t right = static_cast<int64_t>(std::ceil(in_x));
              const float x_lerp = in_x - left;
              for (int64_t d = 0; d < depth; ++d) {
                const float dtop = (1 - y_lerp) * gp[d];
                add(n, top, left, d, (1 - x_lerp) * dtop);
                add(n, top, right, d, x_lerp * dtop);
                const float dbottom = y_lerp * gp[d];
                add(n, bottom, left, d, (1 - x_lerp) * dbottom);
                add(n, bottom, right, d, x_lerp * dbottom);
              }
            } else {
              const int64_t cy = static_cast<int64_t>(std::round(in_y));
              const int64_t cx = static_cast<int64_t>(std::round(in_x));
              for (int64_t d = 0; d < depth; ++d) add(n, cy, cx, d, gp[d]);
            }
          }
        }
      }
      return absl::OkStatus();
    });
  }

 private:
  std::string method_ = "bilinear";
};

class CropAndResizeGradBoxesOp final : public OpKernel {
 public:
  explicit CropAndResizeGradBoxesOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    std::string method;
    ctx.SetStatus(ctx.GetAttr("method", &method));
    if (method != "bilinear") {
      ctx.SetStatus(absl::InvalidArgumentError(absl::StrCat("method must be 'bilinear'", method)));
    }
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& grads = ctx.input(0);
    const Tensor& image = ctx.input(1);
    const Tensor& boxes = ctx.input(2);
    const Tensor& box_ind = ctx.input(3);
    if (grads.shape().rank() != 4) {
      return absl::InvalidArgumentError(
          absl::StrCat("grads image must be 4-D", grads.shape().DebugString()));
    }
    if (image.shape().rank() != 4) {
      return absl::InvalidArgumentError(
          absl::StrCat("input image must be 4-D", image.shape().DebugString()));
    }
    const int64_t batch = image.shape().dim(0), h = image.shape().dim(1);
    const int64_t w = image.shape().dim(2), depth = image.shape().dim(3);
    if (grads.shape().dim(1) <= 0 || grads.shape().dim(2) <= 0) {
      return absl::InvalidArgumentError("grads dimensions must be positive");
    }
    if (h <= 0 || w <= 0) return absl::InvalidArgumentError("image dimensions must be positive");
    if (grads.shape().dim(3) != depth) {
      return absl::InvalidArgumentError("image, grads depth differ");
    }
    RILL_RETURN_IF_ERROR(CheckGradsAndBoxes(grads, boxes, box_ind));
    RILL_RETURN_IF_ERROR(CheckBoxIndex(box_ind, batch));
    const int64_t num_boxes = grads.shape().dim(0);
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, TensorShape({num_boxes, 4})));
    float* gb = out->flat<float>().data();
    std::fill(gb, gb + out->NumElements(), 0.f);
    const int64_t crop_h = grads.shape().dim(1), crop_w = grads.shape().dim(2);
    return VisitKernelTypes<half, float, double, int8_t, uint8_t, int16_t, int32_t, int64_t>(
        *this, image.dtype(), [&](auto tag) {
          using T = typename decltype(tag)::type;
          using cwise_internal::Load;
          const T* im = image.flat<T>().data();
          const float* g = grads.flat<float>().data();
          const float* bx = boxes.flat<float>().data();
          for (int64_t b = 0; b < num_boxes; ++b) {
            const int64_t n = box_ind.flat<int32_t>()[b];
            const float y1 = bx[b * 4], x1 = bx[b * 4 + 1], y2 = bx[b * 4 + 2], x2 = bx[b * 4 + 3];
            const float h_ratio = crop_h > 1 ? static_cast<float>(h - 1) / (crop_h - 1) : 0.f;
            const float w_ratio = crop_w > 1 ? static_cast<float>(w - 1) / (crop_w - 1) : 0.f;
            const float h_scale = crop_h > 1 ? (y2 - y1) * h_ratio : 0.f;
            const float w_scale = crop_w > 1 ? (x2 - x1) * w_ratio : 0.f;
            float* o = gb + b * 4;
            auto at = [&](int64_t y, int64_t x, int64_t d) {
              return static_cast<float>(Load(im[((n * h + y) * w + x) * depth + d]));
            };
            for (int64_t y = 0; y < crop_h; ++y) {
              const float in_y = crop_h > 1 ? y1 * (h - 1) + y * h_scale
                                            : static_cast<float>(0.5 * (y1 + y2) * (h - 1));
              if (!(in_y >= 0 && in_y <= h - 1)) continue;  // NaN too
              const int64_t top = static_cast<int64_t>(std::floor(in_y));
              const int64_t bottom = static_cast<int64_t>(std::ceil(in_y));
              const float y_lerp = in_y - top;
              for (int64_t x = 0; x < crop_w; ++x) {
                const float in_x = crop_w > 1 ? x1 * (w - 1) + x * w_scale
                                              : static_cast<float>(0.5 * (x1 + x2) * (w - 1));
                if (!(in_x >= 0 && in_x <= w - 1)) continue;
                const int64_t left = static_cast<int64_t>(std::floor(in_x));
                const int64_t right = static_cast<int64_t>(std::ceil(in_x));
                const float x_lerp = in_x - left;
                for (int64_t d = 0; d < depth; ++d) {
                  const float tl = at(top, left, d), tr = at(top, right, d);
                  const float bl = at(bottom, left, d), br = at(bottom, right, d);
                  float grad_y = (1 - x_lerp) * (bl - tl) + x_lerp * (br - tr);
                  float grad_x = (1 - y_lerp) * (tr - tl) + y_lerp * (br - bl);
                  const float top_grad = g[((b * crop_h + y) * crop_w + x) * depth + d];
                  grad_y *= top_grad;
                  grad_x *= top_grad;
                  if (crop_h > 1) {
                    o[0] += grad_y * (h - 1 - y * h_ratio);
                    o[2] += grad_y * (y * h_ratio);
                  } else {
                    o[0] = static_cast<float>(o[0] + grad_y * 0.5 * (h - 1));
                    o[2] = static_cast<float>(o[2] + grad_y * 0.5 * (h - 1));
                  }
                  if (crop_w > 1) {
                    o[1] += grad_x * (w - 1 - x * w_ratio);
                    o[3] += grad_x * (x * w_ratio);
                  } else {
                    o[1] = static_cast<float>(o[1] + grad_x * 0.5 * (w - 1));
                    o[3] = static_cast<float>(o[3] + grad_x * 0.5 * (w - 1));
                  }
                }
              }
            }
          }
          return absl::OkStatus();
        });
  }
};

REGISTER_KERNEL(KernelDefBuilder("CropAndResizeGradImage")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<half, float, double>())
                    .HostMemory("image_size"),
                CropAndResizeGradImageOp);
REGISTER_KERNEL(KernelDefBuilder("CropAndResizeGradBoxes")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<half, float, double, int8_t, uint8_t, int16_t,
                                                     int32_t, int64_t>()),
                CropAndResizeGradBoxesOp);

}  // namespace
}  // namespace rill
