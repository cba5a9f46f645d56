// Op definitions of the sparse-tensor ops: SparseToDense, SparseTensorDenseMatMul,
// SparseReduceSum/Max, SparseAdd, SparseReorder, SparseReshape, SparseFillEmptyRows, SparseCross
// (V1, V2, Hashed), SparseSlice, SparseSoftmax, SparseTensorDenseAdd, SparseDenseCwiseMul/Add/Div,
// EditDistance. Signatures read from TensorFlow's registry (tests/tfgen/dump_op_specs.py).
//
// Shape functions never fail: the kernels report bad values with TensorFlow's texts. Shapes that
// depend on input values (the dense shapes, the number of entries a sum keeps) are unknown.
#include <cstdint>
#include <vector>

#include "core/status_macros.h"
#include "ops/attr_value_util.h"
#include "ops/op_registry.h"
#include "ops/shape_inference.h"

namespace rill {
namespace {

// SparseToDense: output_shape's values when constant.
absl::Status SparseToDenseShape(ShapeInferenceContext& c) {
  std::vector<int64_t> dims;
  if (c.ConstantIndexValues(1, &dims)) {
    for (int64_t& d : dims) d = d < 0 ? -1 : d;
    c.set_output(0, PartialTensorShape(std::move(dims)));
  }
  return absl::OkStatus();
}

absl::Status SparseMatMulShape(ShapeInferenceContext& c) {
  c.set_output(0, PartialTensorShape({-1, -1}));
  return absl::OkStatus();
}

// SparseReorder: the inputs' shapes.
absl::Status SparseReorderShape(ShapeInferenceContext& c) {
  c.set_output(0, c.input(0));
  c.set_output(1, c.input(1));
  return absl::OkStatus();
}

// SparseAdd and SparseSlice: [?, rank] indices (rank from input 0's columns), [?] values, and
// input 2's shape (the dense shape vector).
absl::Status SparseIndicesValuesShape(ShapeInferenceContext& c) {
  const PartialTensorShape& ai = c.input(0);
  const int64_t rank = !ai.unknown_rank() && ai.rank() == 2 ? ai.dims()[1] : -1;
  c.set_output(0, PartialTensorShape({-1, rank}));
  c.set_output(1, PartialTensorShape({-1}));
  c.set_output(2, c.input(2));
  return absl::OkStatus();
}

REGISTER_OP("SparseToDense")
    .Input("sparse_indices: Tindices")
    .Input("output_shape: Tindices")
    .Input("sparse_values: T")
    .Input("default_value: T")
    .Output("dense: T")
    .Attr("validate_indices: bool = true")
    .Attr("T: type")
    .Attr("Tindices: {int32, int64}")
    .SetShapeFn(SparseToDenseShape);

REGISTER_OP("SparseTensorDenseMatMul")
    .Input("a_indices: Tindices")
    .Input("a_values: T")
    .Input("a_shape: int64")
    .Input("b: T")
    .Output("product: T")
    .Attr("T: type")
    .Attr("Tindices: {int32, int64} = int64")
    .Attr("adjoint_a: bool = false")
    .Attr("adjoint_b: bool = false")
    .SetShapeFn(SparseMatMulShape);

REGISTER_OP("SparseReduceSum")
    .Input("input_indices: int64")
    .Input("input_values: T")
    .Input("input_shape: int64")
    .Input("reduction_axes: int32")
    .Output("output: T")
    .Attr("keep_dims: bool = false")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, "
        "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}")
    .SetShapeFn(shape_fns::Unknown);

REGISTER_OP("SparseReduceMax")
    .Input("input_indices: int64")
    .Input("input_values: T")
    .Input("input_shape: int64")
    .Input("reduction_axes: int32")
    .Output("output: T")
    .Attr("keep_dims: bool = false")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
        "uint64}")
    .SetShapeFn(shape_fns::Unknown);

REGISTER_OP("SparseAdd")
    .Input("a_indices: int64")
    .Input("a_values: T")
    .Input("a_shape: int64")
    .Input("b_indices: int64")
    .Input("b_values: T")
    .Input("b_shape: int64")
    .Input("thresh: Treal")
    .Output("sum_indices: int64")
    .Output("sum_values: T")
    .Output("sum_shape: int64")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, "
        "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}")
    .Attr(
        "Treal: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
        "uint64}")
    .SetShapeFn(SparseIndicesValuesShape);

REGISTER_OP("SparseReorder")
    .Input("input_indices: int64")
    .Input("input_values: T")
    .Input("input_shape: int64")
    .Output("output_indices: int64")
    .Output("output_values: T")
    .Attr("T: type")
    .SetShapeFn(SparseReorderShape);

// SparseReshape: [nnz, len(new_shape)] and new_shape's shape.
absl::Status SparseReshapeShape(ShapeInferenceContext& c) {
  const PartialTensorShape& in = c.input(0);
  const PartialTensorShape& ns = c.input(2);
  const int64_t nnz = !in.unknown_rank() && in.rank() == 2 ? in.dims()[0] : -1;
  const int64_t rank = !ns.unknown_rank() && ns.rank() == 1 ? ns.dims()[0] : -1;
  c.set_output(0, PartialTensorShape({nnz, rank}));
  c.set_output(1, PartialTensorShape({rank}));
  return absl::OkStatus();
}

// SparseFillEmptyRows: [?, rank], [?], [?], [nnz].
absl::Status SparseFillEmptyRowsShape(ShapeInferenceContext& c) {
  const PartialTensorShape& in = c.input(0);
  const bool known = !in.unknown_rank() && in.rank() == 2;
  c.set_output(0, PartialTensorShape({-1, known ? in.dims()[1] : -1}));
  c.set_output(1, PartialTensorShape({-1}));
  c.set_output(2, PartialTensorShape({-1}));
  c.set_output(3, PartialTensorShape({known ? in.dims()[0] : -1}));
  return absl::OkStatus();
}

REGISTER_OP("SparseReshape")
    .Input("input_indices: int64")
    .Input("input_shape: int64")
    .Input("new_shape: int64")
    .Output("output_indices: int64")
    .Output("output_shape: int64")
    .SetShapeFn(SparseReshapeShape);

REGISTER_OP("SparseFillEmptyRows")
    .Input("indices: int64")
    .Input("values: T")
    .Input("dense_shape: int64")
    .Input("default_value: T")
    .Output("output_indices: int64")
    .Output("output_values: T")
    .Output("empty_row_indicator: bool")
    .Output("reverse_index_map: int64")
    .Attr("T: type")
    .SetShapeFn(SparseFillEmptyRowsShape);

// SparseCross: [?, 2] indices, [?] values, [2] shape.
absl::Status SparseCrossShape(ShapeInferenceContext& c) {
  c.set_output(0, PartialTensorShape({-1, 2}));
  c.set_output(1, PartialTensorShape({-1}));
  c.set_output(2, PartialTensorShape({2}));
  return absl::OkStatus();
}

REGISTER_OP("SparseCross")
    .Input("indices: N * int64")
    .Input("values: sparse_types")
    .Input("shapes: N * int64")
    .Input("dense_inputs: dense_types")
    .Output("output_indices: int64")
    .Output("output_values: out_type")
    .Output("output_shape: int64")
    .Attr("N: int >= 0")
    .Attr("hashed_output: bool")
    .Attr("num_buckets: int >= 0")
    .Attr("hash_key: int")
    .Attr("sparse_types: list({int64, string}) >= 0")
    .Attr("dense_types: list({int64, string}) >= 0")
    .Attr("out_type: {int64, string}")
    .Attr("internal_type: {int64, string}")
    .SetShapeFn(SparseCrossShape);

// tf.sparse.cross: the string crosses joined with the scalar `sep`.
REGISTER_OP("SparseCrossV2")
    .Input("indices: N * int64")
    .Input("values: sparse_types")
    .Input("shapes: N * int64")
    .Input("dense_inputs: dense_types")
    .Input("sep: string")
    .Output("output_indices: int64")
    .Output("output_values: string")
    .Output("output_shape: int64")
    .Attr("N: int >= 0")
    .Attr("sparse_types: list({int64, string}) >= 0")
    .Attr("dense_types: list({int64, string}) >= 0")
    .SetShapeFn(SparseCrossShape);

// tf.sparse.cross_hashed: the crosses hashed into num_buckets (strong_hash: SipHash keyed by salt).
REGISTER_OP("SparseCrossHashed")
    .Input("indices: N * int64")
    .Input("values: sparse_types")
    .Input("shapes: N * int64")
    .Input("dense_inputs: dense_types")
    .Input("num_buckets: int64")
    .Input("strong_hash: bool")
    .Input("salt: int64")
    .Output("output_indices: int64")
    .Output("output_values: int64")
    .Output("output_shape: int64")
    .Attr("N: int >= 0")
    .Attr("sparse_types: list({int64, string}) >= 0")
    .Attr("dense_types: list({int64, string}) >= 0")
    .SetShapeFn(SparseCrossShape);

REGISTER_OP("SparseSlice")
    .Input("indices: int64")
    .Input("values: T")
    .Input("shape: int64")
    .Input("start: int64")
    .Input("size: int64")
    .Output("output_indices: int64")
    .Output("output_values: T")
    .Output("output_shape: int64")
    .Attr("T: type")
    .SetShapeFn(SparseIndicesValuesShape);

REGISTER_OP("SparseSoftmax")
    .Input("sp_indices: int64")
    .Input("sp_values: T")
    .Input("sp_shape: int64")
    .Output("output: T")
    .Attr("T: {half, float, double}")
    .SetShapeFn([](ShapeInferenceContext& c) {
      c.set_output(0, c.input(1));
      return absl::OkStatus();
    });

// SparseDenseCwiseMul / Add / Div: [nnz], the entries of the sparse operand op the dense one
// broadcast to its shape. Known-rank sp_indices must be a matrix (TensorFlow's shape function).
absl::Status SparseDenseCwiseShape(ShapeInferenceContext& c) {
  RILL_RETURN_IF_ERROR(c.WithRank(0, 2));
  const PartialTensorShape& indices = c.input(0);
  c.set_output(0, PartialTensorShape({indices.unknown_rank() ? -1 : indices.dims()[0]}));
  return absl::OkStatus();
}

#define RILL_SPARSE_DENSE_CWISE_OP(name)                                                    \
  REGISTER_OP(name)                                                                         \
      .Input("sp_indices: int64")                                                           \
      .Input("sp_values: T")                                                                \
      .Input("sp_shape: int64")                                                             \
      .Input("dense: T")                                                                    \
      .Output("output: T")                                                                  \
      .Attr(                                                                                \
          "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, " \
          "qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}")   \
      .SetShapeFn(SparseDenseCwiseShape)

RILL_SPARSE_DENSE_CWISE_OP("SparseDenseCwiseMul");
RILL_SPARSE_DENSE_CWISE_OP("SparseDenseCwiseAdd");
RILL_SPARSE_DENSE_CWISE_OP("SparseDenseCwiseDiv");

#undef RILL_SPARSE_DENSE_CWISE_OP

REGISTER_OP("SparseTensorDenseAdd")
    .Input("a_indices: Tindices")
    .Input("a_values: T")
    .Input("a_shape: Tindices")
    .Input("b: T")
    .Output("output: T")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, "
        "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}")
    .Attr("Tindices: {int32, int64}")
    .SetShapeFn([](ShapeInferenceContext& c) {
      c.set_output(0, c.input(3));
      return absl::OkStatus();
    });

// tf.edit_distance: the Levenshtein distance between the sequences of two sparse tensors,
// grouped by all but their last index; the output's shape depends on the shape inputs' values.
REGISTER_OP("EditDistance")
    .Input("hypothesis_indices: int64")
    .Input("hypothesis_values: T")
    .Input("hypothesis_shape: int64")
    .Input("truth_indices: int64")
    .Input("truth_values: T")
    .Input("truth_shape: int64")
    .Output("output: float")
    .Attr("normalize: bool = true")
    .Attr("T: type")
    .SetShapeFn(shape_fns::Unknown);

}  // namespace
}  // namespace rill
