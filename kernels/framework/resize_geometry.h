// The geometry of a 4-D image resize (ResizeBilinear, ResizeNearestNeighbor, ResizeBicubic,
// ResizeArea): the input [batch, in_h, in_w, channels], the size input's out_h and out_w, and the
// source-per-output scales. Errors are TensorFlow's InvalidArgument texts: "If
// half_pixel_centers is True, align_corners must be False.", "input must be 4-dimensional[...]",
// "image must have at least one channel", "input image must be of non-zero size", "shape_t must
// be 1-D[...]", "shape_t must have two elements[...]", "output dimensions must be positive".
#ifndef RILL_KERNELS_FRAMEWORK_RESIZE_GEOMETRY_H_
#define RILL_KERNELS_FRAMEWORK_RESIZE_GEOMETRY_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "kernels/framework/op_kernel.h"

namespace rill {

struct ResizeGeometry {
  int64_t batch, in_h, in_w, channels, out_h, out_w;
  float scale_h, scale_w;
};

// Input pixels per output pixel along one axis: (in - 1) / (out - 1) with align_corners (and more
// than one output pixel), else in / out.
float ResizeScale(int64_t in, int64_t out, bool align_corners);

// Checks input 0 (the images) and input 1 (the int32 size) of `ctx` and computes the geometry.
absl::StatusOr<ResizeGeometry> ResizeGeometryOf(const OpKernelContext& ctx, bool align_corners,
                                                bool half_pixel_centers);

}  // namespace rill

#endif  // RILL_KERNELS_FRAMEWORK_RESIZE_GEOMETRY_H_
