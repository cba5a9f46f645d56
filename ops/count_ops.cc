// Op definitions of InTopKV2, BroadcastArgs, DenseBincount, Bincount, RaggedBincount,
// SparseBincount, Dense/Sparse/RaggedCountSparseOutput, Bucketize, LowerBound, UpperBound and
// HistogramFixedWidth. Signatures read from TensorFlow's registry (tests/tfgen/dump_op_specs.py).
#include <vector>

#include "core/status_macros.h"
#include "ops/op_registry.h"

namespace rill {
namespace {

// [batch] from the predictions' first dim or the targets' length.
absl::Status InTopKShape(ShapeInferenceContext& c) {
  const PartialTensorShape& predictions = c.input(0);
  const PartialTensorShape& targets = c.input(1);
  int64_t batch = -1;
  if (!predictions.unknown_rank() && predictions.rank() == 2) batch = predictions.dims()[0];
  if (batch < 0 && !targets.unknown_rank() && targets.rank() == 1) batch = targets.dims()[0];
  c.set_output(0, PartialTensorShape(std::vector<int64_t>{batch}));
  return absl::OkStatus();
}

// A vector as long as the longer shape vector, when both lengths are known.
absl::Status BroadcastArgsShape(ShapeInferenceContext& c) {
  const PartialTensorShape& s0 = c.input(0);
  const PartialTensorShape& s1 = c.input(1);
  int64_t n = -1;
  if (!s0.unknown_rank() && !s1.unknown_rank() && s0.rank() == 1 && s1.rank() == 1 &&
      s0.dims()[0] >= 0 && s1.dims()[0] >= 0) {
    n = s0.dims()[0] > s1.dims()[0] ? s0.dims()[0] : s1.dims()[0];
  }
  c.set_output(0, PartialTensorShape(std::vector<int64_t>{n}));
  return absl::OkStatus();
}

// [size] for a vector (or scalar) input, [rows, size] for a matrix; size when it is a constant.
absl::Status DenseBincountShape(ShapeInferenceContext& c) {
  const PartialTensorShape& input = c.input(0);
  if (input.unknown_rank() || input.rank() > 2) return absl::OkStatus();
  std::vector<int64_t> size;
  const int64_t n =
      c.ConstantIndexValues(1, &size) && size.size() == 1 && size[0] >= 0 ? size[0] : -1;
  if (input.rank() == 2) {
    c.set_output(0, PartialTensorShape(std::vector<int64_t>{input.dims()[0], n}));
  } else {
    c.set_output(0, PartialTensorShape(std::vector<int64_t>{n}));
  }
  return absl::OkStatus();
}

REGISTER_OP("InTopKV2")
    .Input("predictions: float")
    .Input("targets: T")
    .Input("k: T")
    .Output("precision: bool")
    .Attr("T: {int32, int64} = int32")
    .SetShapeFn(InTopKShape);

// InTopKV2 with k as an attr.
REGISTER_OP("InTopK")
    .Input("predictions: float")
    .Input("targets: T")
    .Output("precision: bool")
    .Attr("k: int")
    .Attr("T: {int32, int64} = int32")
    .SetShapeFn(InTopKShape);

REGISTER_OP("BroadcastArgs")
    .Input("s0: T")
    .Input("s1: T")
    .Output("r0: T")
    .Attr("T: {int32, int64} = int32")
    .SetShapeFn(BroadcastArgsShape);

REGISTER_OP("DenseBincount")
    .Input("input: Tidx")
    .Input("size: Tidx")
    .Input("weights: T")
    .Output("output: T")
    .Attr("Tidx: {int32, int64}")
    .Attr("T: {int32, int64, float, double}")
    .Attr("binary_output: bool = false")
    .SetShapeFn(DenseBincountShape);

// [rows, size]: rows one less than the splits' length, size when it is a constant.
absl::Status RaggedBincountShape(ShapeInferenceContext& c) {
  const PartialTensorShape& splits = c.input(0);
  int64_t rows = -1;
  if (!splits.unknown_rank() && splits.rank() == 1 && splits.dims()[0] > 0) {
    rows = splits.dims()[0] - 1;
  }
  std::vector<int64_t> size;
  const int64_t n =
      c.ConstantIndexValues(2, &size) && size.size() == 1 && size[0] >= 0 ? size[0] : -1;
  c.set_output(0, PartialTensorShape(std::vector<int64_t>{rows, n}));
  return absl::OkStatus();
}

REGISTER_OP("RaggedBincount")
    .Input("splits: int64")
    .Input("values: Tidx")
    .Input("size: Tidx")
    .Input("weights: T")
    .Output("output: T")
    .Attr("Tidx: {int32, int64}")
    .Attr("T: {int32, int64, float, double}")
    .Attr("binary_output: bool = false")
    .SetShapeFn(RaggedBincountShape);

// [size] or [rows, size] by the dense shape's length, which a graph rarely knows.
REGISTER_OP("SparseBincount")
    .Input("indices: int64")
    .Input("values: Tidx")
    .Input("dense_shape: int64")
    .Input("size: Tidx")
    .Input("weights: T")
    .Output("output: T")
    .Attr("Tidx: {int32, int64}")
    .Attr("T: {int32, int64, float, double}")
    .Attr("binary_output: bool = false")
    .SetShapeFn(shape_fns::Unknown);

// The *CountSparseOutput ops (tf.sparse.bincount): indices [?, inner], values [?], dense shape
// [inner]; inner is the dense input's rank, 2 for a ragged input, unknown for a sparse one (1 or 2
// by its dense shape's length).
absl::Status CountSparseOutputShape(ShapeInferenceContext& c, int64_t inner) {
  c.set_output(0, PartialTensorShape({-1, inner}));
  c.set_output(1, PartialTensorShape({-1}));
  c.set_output(2, PartialTensorShape({inner}));
  return absl::OkStatus();
}

REGISTER_OP("DenseCountSparseOutput")
    .Input("values: T")
    .Input("weights: output_type")
    .Output("output_indices: int64")
    .Output("output_values: output_type")
    .Output("output_dense_shape: int64")
    .Attr("T: {int32, int64}")
    .Attr("minlength: int >= -1 = -1")
    .Attr("maxlength: int >= -1 = -1")
    .Attr("binary_output: bool")
    .Attr("output_type: {int32, int64, float, double}")
    .SetShapeFn([](ShapeInferenceContext& c) {
      const PartialTensorShape& values = c.input(0);
      const int64_t rank = values.unknown_rank() ? -1 : values.rank();
      return CountSparseOutputShape(c, rank == 1 || rank == 2 ? rank : -1);
    });

REGISTER_OP("SparseCountSparseOutput")
    .Input("indices: int64")
    .Input("values: T")
    .Input("dense_shape: int64")
    .Input("weights: output_type")
    .Output("output_indices: int64")
    .Output("output_values: output_type")
    .Output("output_dense_shape: int64")
    .Attr("T: {int32, int64}")
    .Attr("minlength: int >= -1 = -1")
    .Attr("maxlength: int >= -1 = -1")
    .Attr("binary_output: bool")
    .Attr("output_type: {int32, int64, float, double}")
    .SetShapeFn([](ShapeInferenceContext& c) { return CountSparseOutputShape(c, -1); });

REGISTER_OP("RaggedCountSparseOutput")
    .Input("splits: int64")
    .Input("values: T")
    .Input("weights: output_type")
    .Output("output_indices: int64")
    .Output("output_values: output_type")
    .Output("output_dense_shape: int64")
    .Attr("T: {int32, int64}")
    .Attr("minlength: int >= -1 = -1")
    .Attr("maxlength: int >= -1 = -1")
    .Attr("binary_output: bool")
    .Attr("output_type: {int32, int64, float, double}")
    .SetShapeFn([](ShapeInferenceContext& c) { return CountSparseOutputShape(c, 2); });

REGISTER_OP("Bincount")
    .Input("arr: int32")
    .Input("size: int32")
    .Input("weights: T")
    .Output("bins: T")
    .Attr("T: {int32, int64, float, double}")
    .SetShapeFn(shape_fns::Unknown);

REGISTER_OP("Bucketize")
    .Input("input: T")
    .Output("output: int32")
    .Attr("T: {int32, int64, float, double}")
    .Attr("boundaries: list(float)")
    .SetShapeFn(shape_fns::Unchanged);

// LowerBound / UpperBound: both inputs matrices (when their ranks are known); the output has the
// values' shape.
absl::Status SearchSortedShape(ShapeInferenceContext& c) {
  RILL_RETURN_IF_ERROR(c.WithRank(0, 2));
  RILL_RETURN_IF_ERROR(c.WithRank(1, 2));
  c.set_output(0, c.input(1));
  return absl::OkStatus();
}

REGISTER_OP("LowerBound")
    .Input("sorted_inputs: T")
    .Input("values: T")
    .Output("output: out_type")
    .Attr("T: type")
    .Attr("out_type: {int32, int64} = int32")
    .SetShapeFn(SearchSortedShape);

REGISTER_OP("UpperBound")
    .Input("sorted_inputs: T")
    .Input("values: T")
    .Output("output: out_type")
    .Attr("T: type")
    .Attr("out_type: {int32, int64} = int32")
    .SetShapeFn(SearchSortedShape);

// [nbins] when nbins is a constant; a vector otherwise.
absl::Status HistogramFixedWidthShape(ShapeInferenceContext& c) {
  std::vector<int64_t> nbins;
  const int64_t n = c.ConstantIndexValues(2, &nbins) && nbins.size() == 1 ? nbins[0] : -1;
  c.set_output(0, PartialTensorShape(std::vector<int64_t>{n >= 0 ? n : -1}));
  return absl::OkStatus();
}

REGISTER_OP("HistogramFixedWidth")
    .Input("values: T")
    .Input("value_range: T")
    .Input("nbins: int32")
    .Output("out: dtype")
    .Attr("T: {int32, int64, float, double}")
    .Attr("dtype: {int32, int64} = int32")
    .SetShapeFn(HistogramFixedWidthShape);

}  // namespace
}  // namespace rill
