// Op definitions of the image resizing ops: ResizeBilinear, ResizeNearestNeighbor. Signatures read
// from TensorFlow's registry (tests/tfgen/dump_op_specs.py). Shape functions never fail on values
// the kernel checks.
#include <cstdint>
#include <vector>

#include "core/status_macros.h"
#include "ops/op_registry.h"

namespace rill {
namespace {

// [batch, size[0], size[1], channels] from a 4-D images input and the constant size input (its
// dims unknown when size is not constant or not 2 non-negative values).
absl::Status ResizeShape(ShapeInferenceContext& c) {
  const PartialTensorShape& images = c.input(0);
  std::vector<int64_t> out = {-1, -1, -1, -1};
  if (images.rank() == 4) {
    out[0] = images.dims()[0];
    out[3] = images.dims()[3];
  } else if (!images.unknown_rank()) {
    return absl::OkStatus();
  }
  std::vector<int64_t> size;
  if (c.ConstantIndexValues(1, &size) && size.size() == 2 && size[0] >= 0 && size[1] >= 0) {
    out[1] = size[0];
    out[2] = size[1];
  }
  c.set_output(0, PartialTensorShape(std::move(out)));
  return absl::OkStatus();
}

REGISTER_OP("ResizeBilinear")
    .Input("images: T")
    .Input("size: int32")
    .Output("resized_images: float")
    .Attr("T: {int8, uint8, int16, uint16, int32, int64, bfloat16, half, float, double}")
    .Attr("align_corners: bool = false")
    .Attr("half_pixel_centers: bool = false")
    .SetShapeFn(ResizeShape);

REGISTER_OP("ResizeNearestNeighbor")
    .Input("images: T")
    .Input("size: int32")
    .Output("resized_images: T")
    .Attr("T: {int8, uint8, int16, uint16, int32, int64, half, float, double, bfloat16}")
    .Attr("align_corners: bool = false")
    .Attr("half_pixel_centers: bool = false")
    .SetShapeFn(ResizeShape);

}  // namespace
}  // namespace rill
