// Op definition of RaggedTensorToTensor (RaggedTensor.to_tensor()). Signature read from
// TensorFlow's registry (tests/tfgen/dump_op_specs.py).
#include <vector>

#include "ops/op_registry.h"

namespace rill {
namespace {

// The output's shape when `shape` is a constant vector (its -1 dims unknown); else unknown.
absl::Status RaggedTensorToTensorShape(ShapeInferenceContext& c) {
  std::vector<int64_t> dims;
  const PartialTensorShape& shape = c.input(0);
  if (!shape.unknown_rank() && shape.rank() == 1 && c.ConstantIndexValues(0, &dims)) {
    for (int64_t& d : dims) d = d < 0 ? -1 : d;
    c.set_output(0, PartialTensorShape(dims));
  }
  return absl::OkStatus();
}

REGISTER_OP("RaggedTensorToTensor")
    .Input("shape: Tshape")
    .Input("values: T")
    .Input("default_value: T")
    .Input("row_partition_tensors: num_row_partition_tensors * Tindex")
    .Output("result: T")
    .Attr("T: type")
    .Attr("Tindex: {int64, int32}")
    .Attr("Tshape: {int64, int32}")
    .Attr("num_row_partition_tensors: int >= 1")
    .Attr("row_partition_types: list(string)")
    .SetShapeFn(RaggedTensorToTensorShape);

}  // namespace
}  // namespace rill
