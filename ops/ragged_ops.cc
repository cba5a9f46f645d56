// Op definitions of RaggedTensorToTensor (RaggedTensor.to_tensor()), RaggedTensorToSparse
// (RaggedTensor.to_sparse()), RaggedRange (tf.ragged.range) and RaggedGather (tf.gather on a
// RaggedTensor). Signatures read from TensorFlow's registry (tests/tfgen/dump_op_specs.py).
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

// Splits [n + 1] where the broadcast length n of starts / limits / deltas is known (1 when all
// are scalars); values a vector.
absl::Status RaggedRangeShape(ShapeInferenceContext& c) {
  int64_t n = 1;
  for (int i = 0; i < 3; ++i) {
    const PartialTensorShape& s = c.input(i);
    if (s.unknown_rank()) {
      n = -1;
      break;
    }
    if (s.rank() == 1) {
      if (s.dims()[0] < 0) {
        n = -1;
        break;
      }
      n = s.dims()[0];
    }
  }
  c.set_output(0, PartialTensorShape(std::vector<int64_t>{n < 0 ? -1 : n + 1}));
  c.set_output(1, PartialTensorShape(std::vector<int64_t>{-1}));
  return absl::OkStatus();
}

// indices [nvals, rank], values [nvals], dense_shape [rank] with rank = RAGGED_RANK + the
// values' rank when that is known.
absl::Status RaggedTensorToSparseShape(ShapeInferenceContext& c) {
  const PartialTensorShape& values = c.input(c.num_inputs() - 1);
  const int64_t rank =
      values.unknown_rank() ? -1 : static_cast<int64_t>(c.num_inputs() - 1) + values.rank();
  c.set_output(0, PartialTensorShape(std::vector<int64_t>{-1, rank}));
  c.set_output(1, PartialTensorShape(std::vector<int64_t>{-1}));
  c.set_output(2, PartialTensorShape(std::vector<int64_t>{rank}));
  return absl::OkStatus();
}

REGISTER_OP("RaggedTensorToSparse")
    .Input("rt_nested_splits: RAGGED_RANK * Tsplits")
    .Input("rt_dense_values: T")
    .Output("sparse_indices: int64")
    .Output("sparse_values: T")
    .Output("sparse_dense_shape: int64")
    .Attr("RAGGED_RANK: int >= 1")
    .Attr("T: type")
    .Attr("Tsplits: {int32, int64} = int64")
    .SetShapeFn(RaggedTensorToSparseShape);

REGISTER_OP("RaggedRange")
    .Input("starts: T")
    .Input("limits: T")
    .Input("deltas: T")
    .Output("rt_nested_splits: Tsplits")
    .Output("rt_dense_values: T")
    .Attr("T: {bfloat16, float, double, int32, int64} = int32")
    .Attr("Tsplits: {int32, int64} = int64")
    .SetShapeFn(RaggedRangeShape);

REGISTER_OP("RaggedGather")
    .Input("params_nested_splits: PARAMS_RAGGED_RANK * Tsplits")
    .Input("params_dense_values: Tvalues")
    .Input("indices: Tindices")
    .Output("output_nested_splits: OUTPUT_RAGGED_RANK * Tsplits")
    .Output("output_dense_values: Tvalues")
    .Attr("Tvalues: type")
    .Attr("Tindices: {int32, int64}")
    .Attr("Tsplits: {int32, int64} = int64")
    .Attr("PARAMS_RAGGED_RANK: int >= 1")
    .Attr("OUTPUT_RAGGED_RANK: int >= 0")
    .SetShapeFn(shape_fns::Unknown);

}  // namespace
}  // namespace rill
