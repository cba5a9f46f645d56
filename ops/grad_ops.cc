// Op definitions of the gradient helpers TensorFlow's training graphs contain: the elementwise
// gradients (ReluGrad ... RsqrtGrad), BiasAddGrad, BroadcastGradientArgs, InvertPermutation, and
// the gradients of convolution, pooling and batch normalization (Conv2DBackpropFilter,
// MaxPoolGrad, AvgPoolGrad, FusedBatchNormGrad/V2/V3).
// Signatures read from TensorFlow's registry (tests/tfgen/dump_op_specs.py).
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "ops/attr_value_util.h"
#include "ops/op_registry.h"

namespace rill {
namespace {

// Elementwise gradients: both operands have the output's shape.
absl::Status SameShapeMerged(ShapeInferenceContext& c) { return shape_fns::AllInputsMerged(c); }

#define RILL_GRAD_OP(name, a, b, types) \
  REGISTER_OP(name).Input(a).Input(b).Output("backprops: T").Attr(types).SetShapeFn(SameShapeMerged)

RILL_GRAD_OP("ReluGrad", "gradients: T", "features: T",
             "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, "
             "uint32, uint64}");
RILL_GRAD_OP("Relu6Grad", "gradients: T", "features: T",
             "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, "
             "uint32, uint64}");
RILL_GRAD_OP("EluGrad", "gradients: T", "outputs: T", "T: {half, bfloat16, float, double}");
RILL_GRAD_OP("SeluGrad", "gradients: T", "outputs: T", "T: {half, bfloat16, float, double}");
RILL_GRAD_OP("SoftplusGrad", "gradients: T", "features: T", "T: {half, bfloat16, float, double}");

REGISTER_OP("LeakyReluGrad")
    .Input("gradients: T")
    .Input("features: T")
    .Output("backprops: T")
    .Attr("alpha: float = 0.2")
    .Attr("T: {half, bfloat16, float, double} = float")
    .SetShapeFn(SameShapeMerged);

#define RILL_OUTPUT_GRAD_OP(name)                                        \
  REGISTER_OP(name)                                                      \
      .Input("y: T")                                                     \
      .Input("dy: T")                                                    \
      .Output("z: T")                                                    \
      .Attr("T: {bfloat16, half, float, double, complex64, complex128}") \
      .SetShapeFn(SameShapeMerged)

RILL_OUTPUT_GRAD_OP("SigmoidGrad");
RILL_OUTPUT_GRAD_OP("TanhGrad");
RILL_OUTPUT_GRAD_OP("SqrtGrad");
RILL_OUTPUT_GRAD_OP("RsqrtGrad");

// BiasAddGrad: a vector of the channel count: the last dim of a rank >= 2 NHWC input, dim 1 of a
// rank >= 3 NCHW one; a known lower rank is TensorFlow's error (NCHW has no channel dim before
// rank 3).
absl::Status BiasAddGradShape(ShapeInferenceContext& c) {
  const PartialTensorShape& in = c.input(0);
  if (in.unknown_rank()) return absl::OkStatus();
  std::string format = "NHWC";
  (void)GetNodeAttr(c.node(), "data_format", &format);
  const int min_rank = format == "NCHW" ? 3 : 2;
  if (in.rank() < min_rank) {
    return absl::InvalidArgumentError(
        absl::StrCat("Shape must be at least rank ", min_rank, " but is rank ", in.rank(),
                     " for node '", c.node().name(), "' (op BiasAddGrad, data_format ", format,
                     ", input 0 with shape ", in.DebugString(), ")"));
  }
  const int channel = format == "NCHW" ? 1 : in.rank() - 1;
  c.set_output(0, PartialTensorShape({in.dims()[channel]}));
  return absl::OkStatus();
}

REGISTER_OP("BiasAddGrad")
    .Input("out_backprop: T")
    .Output("output: T")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, "
        "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}")
    .Attr("data_format: {'NHWC', 'NCHW'} = \"NHWC\"")
    .SetShapeFn(BiasAddGradShape);

REGISTER_OP("BroadcastGradientArgs")
    .Input("s0: T")
    .Input("s1: T")
    .Output("r0: T")
    .Output("r1: T")
    .Attr("T: {int32, int64} = int32")
    .SetShapeFn([](ShapeInferenceContext& c) {
      c.set_output(0, PartialTensorShape({-1}));
      c.set_output(1, PartialTensorShape({-1}));
      return absl::OkStatus();
    });

// The 4-element shape input `i`, constant or known in part (PartialIndexValues, -1 unknown);
// else 4 unknown dims.
absl::Status ShapeFromInput(ShapeInferenceContext& c, int i) {
  std::vector<int64_t> dims;
  if (c.PartialIndexValues(i, &dims) && dims.size() == 4) {
    bool ok = true;
    for (int64_t d : dims) ok &= d >= -1;
    if (ok) {
      c.set_output(0, PartialTensorShape(std::move(dims)));
      return absl::OkStatus();
    }
  }
  c.set_output(0, PartialTensorShape(std::vector<int64_t>(4, -1)));
  return absl::OkStatus();
}

// FusedBatchNormGrad*: x_backprop has x's shape; scale/offset backprops are per channel.
absl::Status BatchNormGradShape(ShapeInferenceContext& c) {
  const PartialTensorShape& x = c.input(1);
  c.set_output(0, x);
  const PartialTensorShape& scale = c.input(2);
  const int64_t channels = scale.rank() == 1 ? scale.dims()[0] : -1;
  c.set_output(1, PartialTensorShape({channels}));
  c.set_output(2, PartialTensorShape({channels}));
  for (int i = 3; i < c.num_outputs(); ++i) c.set_output(i, PartialTensorShape({0}));
  return absl::OkStatus();
}

REGISTER_OP("Conv2DBackpropFilter")
    .Input("input: T")
    .Input("filter_sizes: int32")
    .Input("out_backprop: T")
    .Output("output: T")
    .Attr("T: {half, bfloat16, float, double}")
    .Attr("strides: list(int)")
    .Attr("use_cudnn_on_gpu: bool = true")
    .Attr("padding: {'SAME', 'VALID', 'EXPLICIT'}")
    .Attr("explicit_paddings: list(int) = []")
    .Attr("data_format: {'NHWC', 'NCHW'} = \"NHWC\"")
    .Attr("dilations: list(int) = [1, 1, 1, 1]")
    .SetShapeFn([](ShapeInferenceContext& c) { return ShapeFromInput(c, 1); });

REGISTER_OP("DepthwiseConv2dNativeBackpropInput")
    .Input("input_sizes: int32")
    .Input("filter: T")
    .Input("out_backprop: T")
    .Output("output: T")
    .Attr("T: {half, bfloat16, float, double}")
    .Attr("strides: list(int)")
    .Attr("padding: {'SAME', 'VALID', 'EXPLICIT'}")
    .Attr("explicit_paddings: list(int) = []")
    .Attr("data_format: {'NHWC', 'NCHW'} = \"NHWC\"")
    .Attr("dilations: list(int) = [1, 1, 1, 1]")
    .SetShapeFn([](ShapeInferenceContext& c) { return ShapeFromInput(c, 0); });

REGISTER_OP("DepthwiseConv2dNativeBackpropFilter")
    .Input("input: T")
    .Input("filter_sizes: int32")
    .Input("out_backprop: T")
    .Output("output: T")
    .Attr("T: {half, bfloat16, float, double}")
    .Attr("strides: list(int)")
    .Attr("padding: {'SAME', 'VALID', 'EXPLICIT'}")
    .Attr("explicit_paddings: list(int) = []")
    .Attr("data_format: {'NHWC', 'NCHW'} = \"NHWC\"")
    .Attr("dilations: list(int) = [1, 1, 1, 1]")
    .SetShapeFn([](ShapeInferenceContext& c) { return ShapeFromInput(c, 1); });

REGISTER_OP("MaxPoolGrad")
    .Input("orig_input: T")
    .Input("orig_output: T")
    .Input("grad: T")
    .Output("output: T")
    .Attr("ksize: list(int) >= 4")
    .Attr("strides: list(int) >= 4")
    .Attr("padding: {'SAME', 'VALID', 'EXPLICIT'}")
    .Attr("explicit_paddings: list(int) = []")
    .Attr("data_format: {'NHWC', 'NCHW'} = \"NHWC\"")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
        "uint64} = float")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("AvgPoolGrad")
    .Input("orig_input_shape: int32")
    .Input("grad: T")
    .Output("output: T")
    .Attr("ksize: list(int) >= 4")
    .Attr("strides: list(int) >= 4")
    .Attr("padding: {'SAME', 'VALID'}")
    .Attr("data_format: {'NHWC', 'NCHW'} = \"NHWC\"")
    .Attr("T: {half, bfloat16, float, double}")
    .SetShapeFn([](ShapeInferenceContext& c) { return ShapeFromInput(c, 0); });

REGISTER_OP("FusedBatchNormGrad")
    .Input("y_backprop: T")
    .Input("x: T")
    .Input("scale: T")
    .Input("reserve_space_1: T")
    .Input("reserve_space_2: T")
    .Output("x_backprop: T")
    .Output("scale_backprop: T")
    .Output("offset_backprop: T")
    .Output("reserve_space_3: T")
    .Output("reserve_space_4: T")
    .Attr("T: {float}")
    .Attr("epsilon: float = 1e-04")
    .Attr("data_format: {'NHWC', 'NCHW'} = \"NHWC\"")
    .Attr("is_training: bool = true")
    .SetShapeFn(BatchNormGradShape);

REGISTER_OP("FusedBatchNormGradV2")
    .Input("y_backprop: T")
    .Input("x: T")
    .Input("scale: float")
    .Input("reserve_space_1: U")
    .Input("reserve_space_2: U")
    .Output("x_backprop: T")
    .Output("scale_backprop: U")
    .Output("offset_backprop: U")
    .Output("reserve_space_3: U")
    .Output("reserve_space_4: U")
    .Attr("T: {half, bfloat16, float}")
    .Attr("U: {float}")
    .Attr("epsilon: float = 1e-04")
    .Attr("data_format: {'NHWC', 'NCHW'} = \"NHWC\"")
    .Attr("is_training: bool = true")
    .SetShapeFn(BatchNormGradShape);

REGISTER_OP("FusedBatchNormGradV3")
    .Input("y_backprop: T")
    .Input("x: T")
    .Input("scale: float")
    .Input("reserve_space_1: U")
    .Input("reserve_space_2: U")
    .Input("reserve_space_3: U")
    .Output("x_backprop: T")
    .Output("scale_backprop: U")
    .Output("offset_backprop: U")
    .Output("reserve_space_4: U")
    .Output("reserve_space_5: U")
    .Attr("T: {half, bfloat16, float}")
    .Attr("U: {float}")
    .Attr("epsilon: float = 1e-04")
    .Attr("data_format: {'NHWC', 'NCHW', 'NDHWC', 'NCDHW'} = \"NHWC\"")
    .Attr("is_training: bool = true")
    .SetShapeFn(BatchNormGradShape);

REGISTER_OP("InvertPermutation")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {int32, int64} = int32")
    .SetShapeFn(shape_fns::Unchanged);

}  // namespace
}  // namespace rill
