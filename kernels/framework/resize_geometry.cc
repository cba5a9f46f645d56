#include "kernels/framework/resize_geometry.h"

#include "absl/strings/str_cat.h"

namespace rill {

float ResizeScale(int64_t in, int64_t out, bool align_corners) {
  return (align_corners && out > 1) ? static_cast<float>(in - 1) / static_cast<float>(out - 1)
                                    : static_cast<float>(in) / static_cast<float>(out);
}

absl::StatusOr<ResizeGeometry> ResizeGeometryOf(const OpKernelContext& ctx, bool align_corners,
                                                bool half_pixel_centers) {
  if (half_pixel_centers && align_corners) {
    return absl::InvalidArgumentError(
        "If half_pixel_centers is True, align_corners must be False.");
  }
  const TensorShape shape = ctx.input(0).shape();  // a copy: ctx.input() returns a temporary
  if (shape.rank() != 4) {
    return absl::InvalidArgumentError(
        absl::StrCat("input must be 4-dimensional", shape.DebugString()));
  }
  ResizeGeometry g;
  g.batch = shape.dim(0);
  g.in_h = shape.dim(1);
  g.in_w = shape.dim(2);
  g.channels = shape.dim(3);
  if (g.channels <= 0) {
    return absl::InvalidArgumentError("image must have at least one channel");
  }
  if (g.in_h <= 0 || g.in_w <= 0) {
    return absl::InvalidArgumentError("input image must be of non-zero size");
  }
  const Tensor& size = ctx.input(1);
  if (size.shape().rank() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("shape_t must be 1-D", size.shape().DebugString()));
  }
  if (size.NumElements() != 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("shape_t must have two elements", size.shape().DebugString()));
  }
  g.out_h = size.flat<int32_t>()[0];
  g.out_w = size.flat<int32_t>()[1];
  if (g.out_h <= 0 || g.out_w <= 0) {
    return absl::InvalidArgumentError("output dimensions must be positive");
  }
  g.scale_h = ResizeScale(g.in_h, g.out_h, align_corners);
  g.scale_w = ResizeScale(g.in_w, g.out_w, align_corners);
  return g;
}

}  // namespace rill
