// Op definitions of the ops that repeat their input: Tile, BroadcastTo.
// Signatures read from TensorFlow's registry (tools/tfgen/dump_op_specs.py).
// Their output dims come from a value input, so shape inference knows the rank
// only.
#include "ops/op_registry.h"

namespace rill {
namespace {

// Tile: the input's rank, dims unknown.
absl::Status TileShape(ShapeInferenceContext& c) {
  const PartialTensorShape& in = c.input(0);
  if (!in.unknown_rank())
    c.set_output(0, PartialTensorShape(std::vector<int64_t>(in.rank(), -1)));
  return absl::OkStatus();
}

// BroadcastTo: as many dims as the `shape` vector has elements.
absl::Status BroadcastToShape(ShapeInferenceContext& c) {
  const PartialTensorShape& shape = c.input(1);
  if (shape.rank() == 1 && shape.dims()[0] >= 0) {
    c.set_output(0,
                 PartialTensorShape(std::vector<int64_t>(shape.dims()[0], -1)));
  }
  return absl::OkStatus();
}

REGISTER_OP("Tile")
    .Input("input: T")
    .Input("multiples: Tmultiples")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tmultiples: {int32, int64} = int32")
    .SetShapeFn(TileShape);

REGISTER_OP("BroadcastTo")
    .Input("input: T")
    .Input("shape: Tidx")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tidx: {int32, int64} = int32")
    .SetShapeFn(BroadcastToShape);

}  // namespace
}  // namespace rill
