// Op definitions of the ops that repeat their input: Tile, BroadcastTo. Signatures read from
// TensorFlow's registry (tests/tfgen/dump_op_specs.py). Their output dims come from a value
// input: known, in part, when it is a constant or built from shapes (ShapeFromShapeTensor).
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "ops/op_registry.h"

namespace rill {
namespace {

// Tile: input dim * multiples[d] where both are known (TensorFlow's error when the product
// overflows int64); the input's rank otherwise.
absl::Status TileShape(ShapeInferenceContext& c) {
  const PartialTensorShape& in = c.input(0);
  if (in.unknown_rank()) return absl::OkStatus();
  std::vector<int64_t> out(in.rank(), -1);
  std::vector<int64_t> multiples;
  if (c.PartialIndexValues(1, &multiples) && static_cast<int>(multiples.size()) == in.rank()) {
    for (int d = 0; d < in.rank(); ++d) {
      if (in.dims()[d] < 0 || multiples[d] < 0) continue;
      if (__builtin_mul_overflow(in.dims()[d], multiples[d], &out[d])) {
        return absl::InvalidArgumentError(
            absl::StrCat("Negative dimension size caused by overflow when multiplying ",
                         in.dims()[d], " and ", multiples[d]));
      }
    }
  }
  c.set_output(0, PartialTensorShape(std::move(out)));
  return absl::OkStatus();
}

// BroadcastTo: the `shape` input as a shape (ShapeFromShapeTensor).
absl::Status BroadcastToShape(ShapeInferenceContext& c) {
  c.set_output(0, c.ShapeFromShapeTensor(1));
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
