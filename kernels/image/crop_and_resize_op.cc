// CropAndResize on the CPU: crops [num_boxes, crop_h, crop_w, depth] (float) of NHWC images
// [batch, h, w, depth]; box b ([y1, x1, y2, x2], normalized: 0 and 1 are the first and last pixel
// centres) is cut from image box_ind[b] and sampled on a crop_h x crop_w grid. Along a dim of
// crop size n > 1, sample i is at y1 * (h - 1) + i * (y2 - y1) * (h - 1) / (n - 1); with n == 1 at
// the box centre 0.5 * (y1 + y2) * (h - 1). Samples outside [0, h - 1] are extrapolation_value;
// others are bilinear (lerp of the floor / ceil neighbours, in float) or nearest (roundf) reads.
// Boxes may be flipped (y1 > y2) and reach outside the image.
//
// Errors: InvalidArgument "input image must be 4-D[2,3]", "image dimensions must be positive",
// "boxes must be 2-D[4]", "boxes must have 4 columns", "box_index must be 1-D[]", "box_index has
// incompatible shape", "crop_size must be 1-D[]", "crop_size must have two elements[3]", "crop
// dimensions must be positive", "Boxes contains at least one element that is not finite";
// OutOfRange "box_index has values outside [0, batch_size)".
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

#define RILL_CROP_TYPES half, float, double, int8_t, int16_t, int32_t, int64_t, uint8_t

class CropAndResizeOp final : public OpKernel {
 public:
  explicit CropAndResizeOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    std::string method;
    absl::Status s = ctx.GetAttr("method", &method);
    if (s.ok() && method != "bilinear" && method != "nearest") {
      s = absl::InvalidArgumentError(
          absl::StrCat("method must be 'bilinear' or 'nearest'", method));
    }
    nearest_ = method == "nearest";
    ctx.SetStatus(s);
    ctx.SetStatus(ctx.GetAttr("extrapolation_value", &extrapolation_value_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& image = ctx.input(0);
    const Tensor& boxes = ctx.input(1);
    const Tensor& box_ind = ctx.input(2);
    const Tensor& crop_size = ctx.input(3);
    const TensorShape is = image.shape();
    if (is.rank() != 4) {
      return absl::InvalidArgumentError(absl::StrCat("input image must be 4-D", is.DebugString()));
    }
    const int64_t batch = is.dim(0), height = is.dim(1), width = is.dim(2), depth = is.dim(3);
    if (height <= 0 || width <= 0) {
      return absl::InvalidArgumentError("image dimensions must be positive");
    }
    int64_t num_boxes = 0;
    if (boxes.NumElements() != 0 || box_ind.NumElements() != 0) {
      if (boxes.shape().rank() != 2) {
        return absl::InvalidArgumentError(
            absl::StrCat("boxes must be 2-D", boxes.shape().DebugString()));
      }
      num_boxes = boxes.shape().dim(0);
      if (boxes.shape().dim(1) != 4) {
        return absl::InvalidArgumentError("boxes must have 4 columns");
      }
      if (box_ind.shape().rank() != 1) {
        return absl::InvalidArgumentError(
            absl::StrCat("box_index must be 1-D", box_ind.shape().DebugString()));
      }
      if (box_ind.shape().dim(0) != num_boxes) {
        return absl::InvalidArgumentError("box_index has incompatible shape");
      }
    }
    if (crop_size.shape().rank() != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("crop_size must be 1-D", crop_size.shape().DebugString()));
    }
    if (crop_size.NumElements() != 2) {
      return absl::InvalidArgumentError(
          absl::StrCat("crop_size must have two elements", crop_size.shape().DebugString()));
    }
    const int64_t crop_h = crop_size.flat<int32_t>()[0];
    const int64_t crop_w = crop_size.flat<int32_t>()[1];
    if (crop_h <= 0 || crop_w <= 0) {
      return absl::InvalidArgumentError("crop dimensions must be positive");
    }
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape,
                          TensorShape::FromDims({num_boxes, crop_h, crop_w, depth}));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    if (num_boxes == 0) return absl::OkStatus();
    const int32_t* bi = box_ind.flat<int32_t>().data();
    for (int64_t b = 0; b < num_boxes; ++b) {
      if (bi[b] < 0 || bi[b] >= batch) {
        return absl::OutOfRangeError("box_index has values outside [0, batch_size)");
      }
    }
    const float* bx = boxes.flat<float>().data();
    for (int64_t i = 0; i < num_boxes * 4; ++i) {
      if (!std::isfinite(bx[i])) {
        return absl::InvalidArgumentError("Boxes contains at least one element that is not finite");
      }
    }
    if (out->NumElements() == 0) return absl::OkStatus();
    return VisitKernelTypes<RILL_CROP_TYPES>(*this, image.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using cwise_internal::Load;
      const T* x = image.flat<T>().data();
      float* z = out->flat<float>().data();
      const float hm1 = static_cast<float>(height - 1), wm1 = static_cast<float>(width - 1);
      auto at = [&](int64_t n, int64_t yy, int64_t xx, int64_t d) {
        return static_cast<float>(Load(x[((n * height + yy) * width + xx) * depth + d]));
      };
      // Rows over the intra-op threads, each at the CPU's vector width (RunSimd).
      ctx.ParallelFor(num_boxes * crop_h, crop_w * depth * 8, [&](int64_t begin, int64_t end) {
        cwise_internal::RunSimdFor<T>([&] {
          for (int64_t row = begin; row < end; ++row) {
            const int64_t b = row / crop_h, y = row % crop_h;
            const float y1 = bx[b * 4], x1 = bx[b * 4 + 1], y2 = bx[b * 4 + 2], x2 = bx[b * 4 + 3];
            const int64_t n = bi[b];
            const float h_scale =
                crop_h > 1 ? (y2 - y1) * hm1 / static_cast<float>(crop_h - 1) : 0.0f;
            const float w_scale =
                crop_w > 1 ? (x2 - x1) * wm1 / static_cast<float>(crop_w - 1) : 0.0f;
            const float in_y = crop_h > 1 ? y1 * hm1 + static_cast<float>(y) * h_scale
                                          : static_cast<float>(0.5 * (y1 + y2) * hm1);
            float* zr = z + row * crop_w * depth;
            if (in_y < 0 || in_y > hm1) {
              std::fill_n(zr, crop_w * depth, extrapolation_value_);
              continue;
            }
            const int64_t top = static_cast<int64_t>(std::floor(in_y));
            const int64_t bottom = static_cast<int64_t>(std::ceil(in_y));
            const float y_lerp = in_y - static_cast<float>(top);
            const int64_t near_y = static_cast<int64_t>(std::round(in_y));
            for (int64_t xo = 0; xo < crop_w; ++xo) {
              float* zp = zr + xo * depth;
              const float in_x = crop_w > 1 ? x1 * wm1 + static_cast<float>(xo) * w_scale
                                            : static_cast<float>(0.5 * (x1 + x2) * wm1);
              if (in_x < 0 || in_x > wm1) {
                std::fill_n(zp, depth, extrapolation_value_);
                continue;
              }
              if (nearest_) {
                const int64_t near_x = static_cast<int64_t>(std::round(in_x));
                for (int64_t d = 0; d < depth; ++d) zp[d] = at(n, near_y, near_x, d);
                continue;
              }
              const int64_t left = static_cast<int64_t>(std::floor(in_x));
              const int64_t right = static_cast<int64_t>(std::ceil(in_x));
              const float x_lerp = in_x - static_cast<float>(left);
              // The four corner pixels' channels, contiguous (one vector loop over depth).
              const T* ptl = x + ((n * height + top) * width + left) * depth;
              const T* ptr = x + ((n * height + top) * width + right) * depth;
              const T* pbl = x + ((n * height + bottom) * width + left) * depth;
              const T* pbr = x + ((n * height + bottom) * width + right) * depth;
              for (int64_t d = 0; d < depth; ++d) {
                const float tl = static_cast<float>(Load(ptl[d]));
                const float tr = static_cast<float>(Load(ptr[d]));
                const float bl = static_cast<float>(Load(pbl[d]));
                const float br = static_cast<float>(Load(pbr[d]));
                const float t = tl + (tr - tl) * x_lerp;
                const float bo = bl + (br - bl) * x_lerp;
                zp[d] = t + (bo - t) * y_lerp;
              }
            }
          }
        });
      });
      return absl::OkStatus();
    });
  }

 private:
  bool nearest_ = false;
  float extrapolation_value_ = 0.0f;
};

REGISTER_KERNEL(KernelDefBuilder("CropAndResize")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_CROP_TYPES>())
                    .HostMemory("crop_size"),
                CropAndResizeOp);

}  // namespace
}  // namespace rill
