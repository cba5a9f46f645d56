// Op definitions of the ops that move blocks of space into the batch dimension and back:
// SpaceToBatchND, BatchToSpaceND (what TensorFlow emits around a dilated convolution), and the
// older 4-D SpaceToBatch and BatchToSpace. Signatures read from TensorFlow's registry
// (tests/tfgen/dump_op_specs.py).
//
// Shape functions: the output has the input's rank; the block dims' sizes depend on the
// block_shape / paddings / crops values, so they (and the batch) are unknown; the dims after the
// block dims are the input's. Nothing here fails: the kernels report bad values with TensorFlow's
// texts.
#include <cstdint>
#include <vector>

#include "ops/op_registry.h"

namespace rill {
namespace {

// The input's shape with the batch and the `block_dims` dims after it unknown; unknown when the
// input's rank or the number of block dims is unknown or too large.
PartialTensorShape BlockedShape(const PartialTensorShape& in, int64_t block_dims) {
  if (in.unknown_rank() || block_dims < 0 || in.rank() < 1 + block_dims) {
    return PartialTensorShape();
  }
  std::vector<int64_t> dims = in.dims();
  for (int64_t d = 0; d <= block_dims; ++d) dims[d] = -1;
  return PartialTensorShape(dims);
}

// SpaceToBatchND / BatchToSpaceND: block_shape (input 1) is a vector of M block sizes.
absl::Status BlockNdShape(ShapeInferenceContext& c) {
  const PartialTensorShape& block = c.input(1);
  c.set_output(0, BlockedShape(c.input(0), block.rank() == 1 ? block.dims()[0] : -1));
  return absl::OkStatus();
}

// SpaceToBatch / BatchToSpace: 4-D NHWC, two block dims.
absl::Status Block4dShape(ShapeInferenceContext& c) {
  const PartialTensorShape& in = c.input(0);
  c.set_output(0, in.rank() == 4 ? BlockedShape(in, 2) : PartialTensorShape());
  return absl::OkStatus();
}

REGISTER_OP("SpaceToBatchND")
    .Input("input: T")
    .Input("block_shape: Tblock_shape")
    .Input("paddings: Tpaddings")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tblock_shape: {int32, int64} = int32")
    .Attr("Tpaddings: {int32, int64} = int32")
    .SetShapeFn(BlockNdShape);

REGISTER_OP("BatchToSpaceND")
    .Input("input: T")
    .Input("block_shape: Tblock_shape")
    .Input("crops: Tcrops")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tblock_shape: {int32, int64} = int32")
    .Attr("Tcrops: {int32, int64} = int32")
    .SetShapeFn(BlockNdShape);

REGISTER_OP("SpaceToBatch")
    .Input("input: T")
    .Input("paddings: Tpaddings")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tpaddings: {int32, int64} = int32")
    .Attr("block_size: int >= 2")
    .SetShapeFn(Block4dShape);

REGISTER_OP("BatchToSpace")
    .Input("input: T")
    .Input("crops: Tidx")
    .Output("output: T")
    .Attr("T: type")
    .Attr("block_size: int >= 2")
    .Attr("Tidx: {int32, int64} = int32")
    .SetShapeFn(Block4dShape);

}  // namespace
}  // namespace rill
