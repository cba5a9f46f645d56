// Op definitions of the ops that repeat their input: Tile, BroadcastTo. Signatures read from
// TensorFlow's registry (tests/tfgen/dump_op_specs.py). Their output dims come from a value
// input: known when it is a constant, else only the rank is.
#include <algorithm>

#include "ops/op_registry.h"

namespace rill {
namespace {

// Tile: input dim * multiples[d] where both are known; the input's rank otherwise.
absl::Status TileShape(ShapeInferenceContext& c) {
  const PartialTensorShape& in = c.input(0);
  if (in.unknown_rank()) return absl::OkStatus();
  std::vector<int64_t> out(in.rank(), -1);
  std::vector<int64_t> multiples;
  if (c.ConstantIndexValues(1, &multiples) && static_cast<int>(multiples.size()) == in.rank()) {
    for (int d = 0; d < in.rank(); ++d) {
      if (in.dims()[d] >= 0 && multiples[d] >= 0) out[d] = in.dims()[d] * multiples[d];
    }
  }
  c.set_output(0, PartialTensorShape(std::move(out)));
  return absl::OkStatus();
}

// BroadcastTo: the constant `shape`; else as many dims as the `shape` vector has elements.
absl::Status BroadcastToShape(ShapeInferenceContext& c) {
  std::vector<int64_t> dims;
  if (c.ConstantIndexValues(1, &dims) &&
      std::all_of(dims.begin(), dims.end(), [](int64_t d) { return d >= 0; })) {
    c.set_output(0, PartialTensorShape(std::move(dims)));
    return absl::OkStatus();
  }
  const PartialTensorShape& shape = c.input(1);
  if (shape.rank() == 1 && shape.dims()[0] >= 0) {
    c.set_output(0, PartialTensorShape(std::vector<int64_t>(shape.dims()[0], -1)));
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
