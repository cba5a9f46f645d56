// Op definitions of the gradient helpers TensorFlow's training graphs contain: the elementwise
// gradients (ReluGrad ... RsqrtGrad), BiasAddGrad, BroadcastGradientArgs, InvertPermutation.
// Signatures read from TensorFlow's registry (tools/tfgen/dump_op_specs.py).
#include <vector>

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

// BiasAddGrad: a vector of the channel count (last dim, or dim 1 for NCHW of rank >= 3).
absl::Status BiasAddGradShape(ShapeInferenceContext& c) {
  const PartialTensorShape& in = c.input(0);
  if (in.rank() < 2) return absl::OkStatus();
  std::string format = "NHWC";
  (void)GetNodeAttr(c.node(), "data_format", &format);
  const int channel = format == "NCHW" && in.rank() >= 3 ? 1 : in.rank() - 1;
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

REGISTER_OP("InvertPermutation")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {int32, int64} = int32")
    .SetShapeFn(shape_fns::Unchanged);

}  // namespace
}  // namespace rill
