// Op definitions of the layout ops, whose kernels move elements without
// computing on them: Transpose, ConcatV2, Pack, Unpack, Split, SplitV, Slice,
// StridedSlice, Pad, PadV2, MirrorPad. Signatures read from TensorFlow's
// registry (tools/tfgen/dump_op_specs.py).
//
// Shape functions: shape inference sees no constant input values yet, so dims
// that depend on perm/axis/begin/paddings values are unknown (-1) while ranks
// that follow from shapes and attrs are known. Inputs that contradict each
// other leave the output unknown: the kernel then reports TensorFlow's exact
// error at run time.
#include <cstdint>
#include <vector>

#include "core/status_macros.h"
#include "ops/attr_value_util.h"
#include "ops/op_registry.h"

namespace rill {
namespace {

// A known-rank shape of `rank` unknown dims; unknown rank when rank < 0.
PartialTensorShape UnknownDims(int64_t rank) {
  if (rank < 0) return PartialTensorShape();
  return PartialTensorShape(
      std::vector<int64_t>(static_cast<size_t>(rank), -1));
}

// The number of elements of a known-shape vector input, else -1.
int64_t VectorLength(const PartialTensorShape& s) {
  return s.rank() == 1 ? s.dims()[0] : -1;
}

// Transpose: x's rank (or perm's length); a rank-0/1 input comes out unchanged.
absl::Status TransposeShape(ShapeInferenceContext& c) {
  const PartialTensorShape& x = c.input(0);
  if (x.rank() == 0 || x.rank() == 1) {
    c.set_output(0, x);
    return absl::OkStatus();
  }
  c.set_output(
      0, UnknownDims(x.unknown_rank() ? VectorLength(c.input(1)) : x.rank()));
  return absl::OkStatus();
}

REGISTER_OP("Transpose")
    .Input("x: T")
    .Input("perm: Tperm")
    .Output("y: T")
    .Attr("T: type")
    .Attr("Tperm: {int32, int64} = int32")
    .SetShapeFn(TransposeShape);

}  // namespace
}  // namespace rill
