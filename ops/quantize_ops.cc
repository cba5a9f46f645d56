// Op definitions of QuantizeV2, Dequantize, QuantizeAndDequantize (v1), RequantizationRange,
// Requantize, QuantizedRelu and QuantizedRelu6: what TF1 graphs written by quantize_weights (quint8
// weights Const + Dequantize), quantize_nodes and older quantization-aware exports hold. Signatures
// read from TensorFlow's registry (tests/tfgen/dump_op_specs.py); shape functions are TensorFlow's.
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "ops/attr_value_util.h"
#include "ops/op_registry.h"

namespace rill {
namespace {

// QuantizeV2 and Dequantize: output 0 has the input's shape; min_range and max_range are scalars
// (axis -1) or vectors, max_range as long as the input's dimension `axis`; QuantizeV2's
// output_min / output_max have max_range's shape.
absl::Status QuantizeShape(ShapeInferenceContext& c) {
  int64_t axis = -1;
  RILL_RETURN_IF_ERROR(GetNodeAttr(c.node(), "axis", &axis));
  if (axis < -1) {
    return absl::InvalidArgumentError(absl::StrCat("axis should be at least -1, got ", axis));
  }
  c.set_output(0, c.input(0));
  const int minmax_rank = axis == -1 ? 0 : 1;
  RILL_RETURN_IF_ERROR(c.WithRank(1, minmax_rank));
  RILL_RETURN_IF_ERROR(c.WithRank(2, minmax_rank));
  // As TensorFlow's: max_range's shape stands for both (min_range's size is the kernel's check).
  PartialTensorShape minmax = c.input(2);
  if (minmax.unknown_rank()) minmax = PartialTensorShape(std::vector<int64_t>(minmax_rank, -1));
  if (axis != -1) {
    const PartialTensorShape& in = c.input(0);
    if (!in.unknown_rank() && in.rank() < axis + 1) {
      return absl::InvalidArgumentError(absl::StrCat("Shape must be at least rank ", axis + 1,
                                                     " but is rank ", in.rank(), " for node '",
                                                     c.node().name(), "'"));
    }
    if (!in.unknown_rank() && !minmax.unknown_rank()) {
      int64_t depth;
      RILL_RETURN_IF_ERROR(
          c.MergeDim(minmax.dims()[0], in.dims()[axis], &depth, "max_range's size and depth"));
    }
  }
  if (c.num_outputs() > 1) {
    c.set_output(1, minmax);
    c.set_output(2, minmax);
  }
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("QuantizeV2")
    .Input("input: float")
    .Input("min_range: float")
    .Input("max_range: float")
    .Output("output: T")
    .Output("output_min: float")
    .Output("output_max: float")
    .Attr("T: {qint8, quint8, qint32, qint16, quint16}")
    .Attr("mode: {'MIN_COMBINED', 'MIN_FIRST', 'SCALED'} = \"MIN_COMBINED\"")
    .Attr("round_mode: {'HALF_AWAY_FROM_ZERO', 'HALF_TO_EVEN'} = \"HALF_AWAY_FROM_ZERO\"")
    .Attr("narrow_range: bool = false")
    .Attr("axis: int = -1")
    .Attr("ensure_minimum_range: float = 0.01")
    .SetShapeFn(QuantizeShape);

REGISTER_OP("Dequantize")
    .Input("input: T")
    .Input("min_range: float")
    .Input("max_range: float")
    .Output("output: dtype")
    .Attr("T: {qint8, quint8, qint32, qint16, quint16}")
    .Attr("mode: {'MIN_COMBINED', 'MIN_FIRST', 'SCALED'} = \"MIN_COMBINED\"")
    .Attr("narrow_range: bool = false")
    .Attr("axis: int = -1")
    .Attr("dtype: {bfloat16, float} = float")
    .SetShapeFn(QuantizeShape);

REGISTER_OP("QuantizeAndDequantize")
    .Input("input: T")
    .Output("output: T")
    .Attr("signed_input: bool = true")
    .Attr("num_bits: int = 8")
    .Attr("range_given: bool = false")
    .Attr("input_min: float = 0")
    .Attr("input_max: float = 0")
    .Attr("T: {bfloat16, half, float, double}")
    .SetShapeFn(shape_fns::Unchanged);

// The requantization pair of fully quantized (graph_transforms quantize_nodes) graphs: a qint32
// result's used range, and the result moved into a narrower type's requested range.
REGISTER_OP("RequantizationRange")
    .Input("input: Tinput")
    .Input("input_min: float")
    .Input("input_max: float")
    .Output("output_min: float")
    .Output("output_max: float")
    .Attr("Tinput: {qint8, quint8, qint32, qint16, quint16}")
    .SetShapeFn([](ShapeInferenceContext& c) {
      RILL_RETURN_IF_ERROR(c.WithRank(1, 0));
      RILL_RETURN_IF_ERROR(c.WithRank(2, 0));
      c.set_output(0, PartialTensorShape(std::vector<int64_t>{}));
      c.set_output(1, PartialTensorShape(std::vector<int64_t>{}));
      return absl::OkStatus();
    });

REGISTER_OP("Requantize")
    .Input("input: Tinput")
    .Input("input_min: float")
    .Input("input_max: float")
    .Input("requested_output_min: float")
    .Input("requested_output_max: float")
    .Output("output: out_type")
    .Output("output_min: float")
    .Output("output_max: float")
    .Attr("Tinput: {qint8, quint8, qint32, qint16, quint16}")
    .Attr("out_type: {qint8, quint8, qint32, qint16, quint16}")
    .SetShapeFn([](ShapeInferenceContext& c) {
      for (int i = 1; i <= 4; ++i) RILL_RETURN_IF_ERROR(c.WithRank(i, 0));
      c.set_output(0, c.input(0));
      c.set_output(1, PartialTensorShape(std::vector<int64_t>{}));
      c.set_output(2, PartialTensorShape(std::vector<int64_t>{}));
      return absl::OkStatus();
    });

namespace {

// QuantizedRelu / Relu6: the features' shape, the range as scalars.
absl::Status QuantizedActivationShape(ShapeInferenceContext& c) {
  RILL_RETURN_IF_ERROR(c.WithRank(1, 0));
  RILL_RETURN_IF_ERROR(c.WithRank(2, 0));
  c.set_output(0, c.input(0));
  c.set_output(1, PartialTensorShape(std::vector<int64_t>{}));
  c.set_output(2, PartialTensorShape(std::vector<int64_t>{}));
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("QuantizedRelu")
    .Input("features: Tinput")
    .Input("min_features: float")
    .Input("max_features: float")
    .Output("activations: out_type")
    .Output("min_activations: float")
    .Output("max_activations: float")
    .Attr("Tinput: {qint8, quint8, qint32, qint16, quint16}")
    .Attr("out_type: {qint8, quint8, qint32, qint16, quint16} = quint8")
    .SetShapeFn(QuantizedActivationShape);

REGISTER_OP("QuantizedRelu6")
    .Input("features: Tinput")
    .Input("min_features: float")
    .Input("max_features: float")
    .Output("activations: out_type")
    .Output("min_activations: float")
    .Output("max_activations: float")
    .Attr("Tinput: {qint8, quint8, qint32, qint16, quint16}")
    .Attr("out_type: {qint8, quint8, qint32, qint16, quint16} = quint8")
    .SetShapeFn(QuantizedActivationShape);

}  // namespace rill
