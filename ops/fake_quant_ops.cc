// Op definitions of FakeQuantWithMinMaxArgs, FakeQuantWithMinMaxVars,
// FakeQuantWithMinMaxVarsPerChannel, QuantizeAndDequantizeV2 and QuantizeAndDequantizeV4: the
// quantize-dequantize nodes quantization-aware training leaves in a frozen graph; and their
// gradient ops (FakeQuantWithMinMax*Gradient, QuantizeAndDequantizeV4Grad), which training
// graphs hold. Signatures read from TensorFlow's registry (tests/tfgen/dump_op_specs.py); shape
// functions are TensorFlow's.
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "ops/attr_value_util.h"
#include "ops/op_registry.h"

namespace rill {
namespace {

// Input 0 (the incoming gradient) and input 1 (the forward input) have one shape.
absl::StatusOr<PartialTensorShape> GradientAndInput(const ShapeInferenceContext& c) {
  return shape_fns::MergeShapes(c, c.input(0), c.input(1), "gradients and inputs");
}

absl::Status FakeQuantArgsGradientShape(ShapeInferenceContext& c) {
  RILL_ASSIGN_OR_RETURN(PartialTensorShape inputs, GradientAndInput(c));
  c.set_output(0, inputs);
  return absl::OkStatus();
}

// min and max are scalars; backprops to them too.
absl::Status FakeQuantVarsGradientShape(ShapeInferenceContext& c) {
  RILL_ASSIGN_OR_RETURN(PartialTensorShape inputs, GradientAndInput(c));
  RILL_RETURN_IF_ERROR(c.WithRank(2, 0));
  RILL_RETURN_IF_ERROR(c.WithRank(3, 0));
  c.set_output(0, inputs);
  c.set_output(1, PartialTensorShape(std::vector<int64_t>{}));
  c.set_output(2, PartialTensorShape(std::vector<int64_t>{}));
  return absl::OkStatus();
}

// inputs of rank 1 to 4; min and max vectors of the last dimension's size.
absl::Status FakeQuantPerChannelGradientShape(ShapeInferenceContext& c) {
  const PartialTensorShape& in = c.input(1);
  if (!in.unknown_rank() && (in.rank() < 1 || in.rank() > 4)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Shape must be at ", in.rank() < 1 ? "least rank 1" : "most rank 4", " but is rank ",
        in.rank(), " for node '", c.node().name(), "' (op ", c.node().op(), ")"));
  }
  RILL_ASSIGN_OR_RETURN(PartialTensorShape inputs, GradientAndInput(c));
  RILL_RETURN_IF_ERROR(c.WithRank(2, 1));
  RILL_RETURN_IF_ERROR(c.WithRank(3, 1));
  RILL_ASSIGN_OR_RETURN(PartialTensorShape min_max,
                        shape_fns::MergeShapes(c, c.input(2), c.input(3), "min and max"));
  int64_t depth = min_max.unknown_rank() ? -1 : min_max.dims()[0];
  if (!inputs.unknown_rank()) {
    RILL_RETURN_IF_ERROR(
        c.MergeDim(depth, inputs.dims().back(), &depth, "min's size and the inputs' last dim"));
  }
  c.set_output(0, inputs);
  c.set_output(1, PartialTensorShape(std::vector<int64_t>{depth}));
  c.set_output(2, PartialTensorShape(std::vector<int64_t>{depth}));
  return absl::OkStatus();
}

// input_min and input_max are scalars (axis -1) or vectors as long as the input's dimension
// `axis`; their backprops have their shape.
absl::Status QuantizeAndDequantizeV4GradShape(ShapeInferenceContext& c) {
  int64_t axis = -1;
  RILL_RETURN_IF_ERROR(GetNodeAttr(c.node(), "axis", &axis));
  RILL_RETURN_IF_ERROR(c.WithRank(2, axis == -1 ? 0 : 1));
  RILL_RETURN_IF_ERROR(c.WithRank(3, axis == -1 ? 0 : 1));
  RILL_ASSIGN_OR_RETURN(
      PartialTensorShape min_max,
      shape_fns::MergeShapes(c, c.input(2), c.input(3), "input_min and input_max"));
  if (axis < -1) {
    return absl::InvalidArgumentError(absl::StrCat("axis should be at least -1, got ", axis,
                                                   " for node '", c.node().name(), "'"));
  }
  RILL_ASSIGN_OR_RETURN(PartialTensorShape inputs, GradientAndInput(c));
  if (axis != -1 && !c.input(0).unknown_rank()) {
    const PartialTensorShape& g = c.input(0);
    if (g.rank() < axis) {
      return absl::InvalidArgumentError(absl::StrCat("Shape must be at least rank ", axis,
                                                     " but is rank ", g.rank(), " for node '",
                                                     c.node().name(), "'"));
    }
    if (axis < g.rank() && !min_max.unknown_rank()) {
      int64_t depth;
      RILL_RETURN_IF_ERROR(
          c.MergeDim(min_max.dims()[0], g.dims()[axis], &depth, "input_min's size and depth"));
    }
  }
  c.set_output(0, inputs);
  c.set_output(1, min_max);
  c.set_output(2, min_max);
  return absl::OkStatus();
}

REGISTER_OP("FakeQuantWithMinMaxArgs")
    .Input("inputs: float")
    .Output("outputs: float")
    .Attr("min: float = -6.0")
    .Attr("max: float = 6.0")
    .Attr("num_bits: int = 8")
    .Attr("narrow_range: bool = false")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("FakeQuantWithMinMaxArgsGradient")
    .Input("gradients: float")
    .Input("inputs: float")
    .Output("backprops: float")
    .Attr("min: float = -6.0")
    .Attr("max: float = 6.0")
    .Attr("num_bits: int = 8")
    .Attr("narrow_range: bool = false")
    .SetShapeFn(FakeQuantArgsGradientShape);

REGISTER_OP("FakeQuantWithMinMaxVars")
    .Input("inputs: float")
    .Input("min: float")
    .Input("max: float")
    .Output("outputs: float")
    .Attr("num_bits: int = 8")
    .Attr("narrow_range: bool = false")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("FakeQuantWithMinMaxVarsGradient")
    .Input("gradients: float")
    .Input("inputs: float")
    .Input("min: float")
    .Input("max: float")
    .Output("backprops_wrt_input: float")
    .Output("backprop_wrt_min: float")
    .Output("backprop_wrt_max: float")
    .Attr("num_bits: int = 8")
    .Attr("narrow_range: bool = false")
    .SetShapeFn(FakeQuantVarsGradientShape);

REGISTER_OP("FakeQuantWithMinMaxVarsPerChannel")
    .Input("inputs: float")
    .Input("min: float")
    .Input("max: float")
    .Output("outputs: float")
    .Attr("num_bits: int = 8")
    .Attr("narrow_range: bool = false")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("FakeQuantWithMinMaxVarsPerChannelGradient")
    .Input("gradients: float")
    .Input("inputs: float")
    .Input("min: float")
    .Input("max: float")
    .Output("backprops_wrt_input: float")
    .Output("backprop_wrt_min: float")
    .Output("backprop_wrt_max: float")
    .Attr("num_bits: int = 8")
    .Attr("narrow_range: bool = false")
    .SetShapeFn(FakeQuantPerChannelGradientShape);

REGISTER_OP("QuantizeAndDequantizeV2")
    .Input("input: T")
    .Input("input_min: T")
    .Input("input_max: T")
    .Output("output: T")
    .Attr("signed_input: bool = true")
    .Attr("num_bits: int = 8")
    .Attr("range_given: bool = false")
    .Attr("T: {bfloat16, half, float, double}")
    .Attr("round_mode: {'HALF_TO_EVEN', 'HALF_UP'} = \"HALF_TO_EVEN\"")
    .Attr("narrow_range: bool = false")
    .Attr("axis: int = -1")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("QuantizeAndDequantizeV3")
    .Input("input: T")
    .Input("input_min: T")
    .Input("input_max: T")
    .Input("num_bits: int32")
    .Output("output: T")
    .Attr("signed_input: bool = true")
    .Attr("range_given: bool = true")
    .Attr("T: {bfloat16, half, float, double}")
    .Attr("narrow_range: bool = false")
    .Attr("axis: int = -1")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("QuantizeAndDequantizeV4")
    .Input("input: T")
    .Input("input_min: T")
    .Input("input_max: T")
    .Output("output: T")
    .Attr("signed_input: bool = true")
    .Attr("num_bits: int = 8")
    .Attr("range_given: bool = false")
    .Attr("T: {bfloat16, half, float, double}")
    .Attr("round_mode: {'HALF_TO_EVEN', 'HALF_UP'} = \"HALF_TO_EVEN\"")
    .Attr("narrow_range: bool = false")
    .Attr("axis: int = -1")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("QuantizeAndDequantizeV4Grad")
    .Input("gradients: T")
    .Input("input: T")
    .Input("input_min: T")
    .Input("input_max: T")
    .Output("input_backprop: T")
    .Output("input_min_backprop: T")
    .Output("input_max_backprop: T")
    .Attr("T: {bfloat16, half, float, double}")
    .Attr("axis: int = -1")
    .SetShapeFn(QuantizeAndDequantizeV4GradShape);

}  // namespace
}  // namespace rill
