// Gradients of the ops of ops/nn_ops.cc and ops/image_ops.cc: activations, convolutions, pooling,
// normalization, softmax and losses, resizing. Formulas are TensorFlow's (nn_grad.py,
// image_grad.py); see grad_registry.h for the contract of a gradient function.
#include <initializer_list>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "core/status_macros.h"
#include "core/tensor.h"
#include "core/tensor_proto.h"
#include "core/types.h"
#include "graph/builder/op_builder.h"
#include "graph/builder/ops.h"
#include "graph/gradients/grad_helpers.h"
#include "graph/gradients/grad_registry.h"

namespace rill {
namespace {

using Grads = std::vector<Output>;
using GradSpan = absl::Span<const Output>;

// Copies those of `names` that the forward node has onto `b` (the gradient op takes the forward
// op's window attrs: strides, padding, data_format, ...).
OpBuilder& CopyAttrs(OpBuilder& b, const GradOp& op, std::initializer_list<const char*> names) {
  for (const char* name : names) {
    auto it = op.node.attr().find(name);
    if (it != op.node.attr().end()) b.Attr(name, it->second);
  }
  return b;
}

// Output `i` of a node built with OpBuilder (invalid when the build failed; the scope has the
// error).
Output Out(OpBuilder& b, int i = 0) { return b.Finalize().output(i); }

// True when `g` is the zeros AddSymbolicGradients made for an output no gradient reached.
bool IsZerosLike(const Scope& s, const Output& g) {
  if (!g.valid()) return true;
  absl::StatusOr<NodeDef> def = s.GetNodeDef(g.node());
  return def.ok() && def->op() == "ZerosLike";
}

Output AxisConst(const Scope& s, int axis) { return ops::Const(s, axis); }

// An int32 vector constant.
Output IntVector(const Scope& s, const std::vector<int>& values) {
  return ops::Const<int>(s, values, TensorShape({static_cast<int64_t>(values.size())}));
}

// --- Activations -----------------------------------------------------------------------------

// Relu, Relu6, Elu, Selu: <Op>Grad(g, the forward output).
template <Output (*GradOpFn)(const Scope&, const Input&, const Input&)>
absl::Status OutputActivationGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {GradOpFn(s, g[0], op.outputs[0])};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Relu", OutputActivationGrad<ops::ReluGrad>);
RILL_REGISTER_GRADIENT("Relu6", OutputActivationGrad<ops::Relu6Grad>);
RILL_REGISTER_GRADIENT("Elu", OutputActivationGrad<ops::EluGrad>);
RILL_REGISTER_GRADIENT("Selu", OutputActivationGrad<ops::SeluGrad>);

absl::Status LeakyReluGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  RILL_ASSIGN_OR_RETURN(float alpha, op.GetFloat("alpha"));
  *out = {ops::LeakyReluGrad(s, g[0], op.inputs[0], alpha)};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("LeakyRelu", LeakyReluGrad);

absl::Status SoftplusGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {ops::Mul(s, g[0], ops::Sigmoid(s, op.inputs[0]))};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Softplus", SoftplusGrad);

// d softsign(x) = g / (1 + |x|)^2 (TensorFlow's SoftsignGrad kernel, from primitives).
absl::Status SoftsignGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& x = op.inputs[0];
  Output denom = ops::Square(s, ops::Add(s, ops::Abs(s, x), grad::ScalarLike(s, 1.0, x)));
  *out = {ops::RealDiv(s, g[0], denom)};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Softsign", SoftsignGrad);

// ReluGrad, Relu6Grad (gradients, features): <Op>(g, features) for the gradients, zeros for
// the features.
template <Output (*GradOpFn)(const Scope&, const Input&, const Input&)>
absl::Status ActivationGradGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& x = op.inputs[1];
  *out = {GradOpFn(s, g[0], x), ops::ZerosLike(s, x)};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("ReluGrad", ActivationGradGrad<ops::ReluGrad>);
RILL_REGISTER_GRADIENT("Relu6Grad", ActivationGradGrad<ops::Relu6Grad>);

absl::Status LeakyReluGradGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  RILL_ASSIGN_OR_RETURN(float alpha, op.GetFloat("alpha"));
  const Output& x = op.inputs[1];
  *out = {ops::LeakyReluGrad(s, g[0], x, alpha), ops::ZerosLike(s, x)};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("LeakyReluGrad", LeakyReluGradGrad);

// EluGrad, SeluGrad (gradients, outputs): <Op>(g, outputs), and g * gradients where the
// outputs are negative.
template <Output (*GradOpFn)(const Scope&, const Input&, const Input&)>
absl::Status ExpActivationGradGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& y = op.inputs[1];
  Output negative = ops::Less(s, y, grad::ScalarLike(s, 0.0, y));
  *out = {GradOpFn(s, g[0], y),
          ops::SelectV2(s, negative, ops::Mul(s, g[0], op.inputs[0]), ops::ZerosLike(s, y))};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("EluGrad", ExpActivationGradGrad<ops::EluGrad>);
RILL_REGISTER_GRADIENT("SeluGrad", ExpActivationGradGrad<ops::SeluGrad>);

// SoftplusGrad (dy, x): SoftplusGrad(g, x), and g * dy / (e^-x + 2 + e^x).
absl::Status SoftplusGradGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& dy = op.inputs[0];
  const Output& x = op.inputs[1];
  Output denom = ops::Add(s, ops::Add(s, ops::Exp(s, ops::Neg(s, x)), grad::ScalarLike(s, 2.0, x)),
                          ops::Exp(s, x));
  *out = {ops::SoftplusGrad(s, g[0], x), ops::RealDiv(s, ops::Mul(s, g[0], dy), denom)};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("SoftplusGrad", SoftplusGradGrad);

// --- Bias, softmax, losses -------------------------------------------------------------------

absl::Status BiasAddGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  OpBuilder b(s, "BiasAddGrad");
  b.Input(g[0]);
  CopyAttrs(b, op, {"data_format"});
  *out = {g[0], Out(b)};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("BiasAdd", BiasAddGrad);

// BiasAddGrad: the bias gradient tiled back over the non-channel dims.
absl::Status BiasAddGradGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  std::string format = "NHWC";
  if (op.node.attr().count("data_format")) {
    RILL_ASSIGN_OR_RETURN(format, op.GetString("data_format"));
  }
  Output shape = ops::Shape(s, op.inputs[0]);
  Output bias_shape = ops::Shape(s, g[0]);
  Output one = ops::Const(s, {1});
  auto slice = [&](int begin, int end, int64_t end_mask) {
    return ops::StridedSlice(s, shape, ops::Const(s, {begin}), ops::Const(s, {end}), one,
                             ops::StridedSliceMasks{0, end_mask});
  };
  Output expanded_shape, multiples;
  if (format == "NCHW") {
    Output batch = slice(0, 1, 0);
    Output rest = slice(2, 0, 1);
    expanded_shape = ops::ConcatV2(s, {ops::OnesLike(s, batch), bias_shape, ops::OnesLike(s, rest)},
                                   AxisConst(s, 0));
    multiples = ops::ConcatV2(s, {batch, one, rest}, AxisConst(s, 0));
  } else {
    Output lead = slice(0, -1, 0);
    expanded_shape = ops::ConcatV2(s, {ops::OnesLike(s, lead), bias_shape}, AxisConst(s, 0));
    multiples = ops::ConcatV2(s, {lead, one}, AxisConst(s, 0));
  }
  *out = {ops::Tile(s, ops::Reshape(s, g[0], expanded_shape), multiples)};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("BiasAddGrad", BiasAddGradGrad);

// (g - sum(g * y, -1)) * y with y = softmax(x).
absl::Status SoftmaxGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& y = op.outputs[0];
  Output sum = ops::Sum(s, ops::Mul(s, g[0], y), AxisConst(s, -1), /*keep_dims=*/true);
  *out = {ops::Mul(s, ops::Sub(s, g[0], sum), y)};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Softmax", SoftmaxGrad);

// g - sum(g, -1) * exp(y) with y = log_softmax(x).
absl::Status LogSoftmaxGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  Output sum = ops::Sum(s, g[0], AxisConst(s, -1), /*keep_dims=*/true);
  *out = {ops::Sub(s, g[0], ops::Mul(s, sum, ops::Exp(s, op.outputs[0])))};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("LogSoftmax", LogSoftmaxGrad);

// The logits gradient of (Sparse)SoftmaxCrossEntropyWithLogits: g_loss[:, None] * backprop, plus
// the second-order term of the backprop output's gradient when one reached it.
Output XentLogitsGrad(const Scope& s, const GradOp& op, GradSpan g) {
  Output grad = ops::Mul(s, ops::ExpandDims(s, g[0], AxisConst(s, -1)), op.outputs[1]);
  if (IsZerosLike(s, g[1])) return grad;
  Output softmax = ops::Softmax(s, op.inputs[0]);
  Output dot = ops::Squeeze(s,
                            ops::BatchMatMulV2(s, ops::ExpandDims(s, g[1], AxisConst(s, 1)),
                                               ops::ExpandDims(s, softmax, AxisConst(s, 2))),
                            {1});
  return ops::Add(s, grad, ops::Mul(s, ops::Sub(s, g[1], dot), softmax));
}

absl::Status SoftmaxXentGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  Output labels_grad = ops::Mul(s, ops::ExpandDims(s, g[0], AxisConst(s, -1)),
                                ops::Neg(s, ops::LogSoftmax(s, op.inputs[0])));
  *out = {XentLogitsGrad(s, op, g), labels_grad};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("SoftmaxCrossEntropyWithLogits", SoftmaxXentGrad);

absl::Status SparseSoftmaxXentGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {XentLogitsGrad(s, op, g), Output()};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("SparseSoftmaxCrossEntropyWithLogits", SparseSoftmaxXentGrad);

absl::Status L2LossGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {ops::Mul(s, op.inputs[0], g[0])};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("L2Loss", L2LossGrad);

// --- Convolutions ----------------------------------------------------------------------------

constexpr std::initializer_list<const char*> kConvAttrs = {
    "strides", "padding", "explicit_paddings", "use_cudnn_on_gpu", "data_format", "dilations"};
constexpr std::initializer_list<const char*> kDepthwiseAttrs = {
    "strides", "padding", "explicit_paddings", "data_format", "dilations"};

// <type>(a, b, c) with the forward op's window attrs; `b` may be a shape.
Output Conv3Inputs(const Scope& s, const GradOp& op, const char* type, const Output& a,
                   const Output& b, const Output& c, std::initializer_list<const char*> attrs) {
  OpBuilder builder(s, type);
  builder.Input(a).Input(b).Input(c);
  CopyAttrs(builder, op, attrs);
  return Out(builder);
}

Output Conv2Inputs(const Scope& s, const GradOp& op, const char* type, const Output& a,
                   const Output& b, std::initializer_list<const char*> attrs) {
  OpBuilder builder(s, type);
  builder.Input(a).Input(b);
  CopyAttrs(builder, op, attrs);
  return Out(builder);
}

absl::Status Conv2DGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  std::vector<Output> shapes = ops::ShapeN(s, {op.inputs[0], op.inputs[1]});
  if (shapes.size() != 2) return s.status();
  *out = {Conv3Inputs(s, op, "Conv2DBackpropInput", shapes[0], op.inputs[1], g[0], kConvAttrs),
          Conv3Inputs(s, op, "Conv2DBackpropFilter", op.inputs[0], shapes[1], g[0], kConvAttrs)};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Conv2D", Conv2DGrad);

// Conv2DBackpropInput (input_sizes, filter, out_backprop).
absl::Status Conv2DBackpropInputGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {Output(),
          Conv3Inputs(s, op, "Conv2DBackpropFilter", g[0], ops::Shape(s, op.inputs[1]),
                      op.inputs[2], kConvAttrs),
          Conv2Inputs(s, op, "Conv2D", g[0], op.inputs[1], kConvAttrs)};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Conv2DBackpropInput", Conv2DBackpropInputGrad);

// Conv2DBackpropFilter (input, filter_sizes, out_backprop).
absl::Status Conv2DBackpropFilterGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {Conv3Inputs(s, op, "Conv2DBackpropInput", ops::Shape(s, op.inputs[0]), g[0], op.inputs[2],
                      kConvAttrs),
          Output(), Conv2Inputs(s, op, "Conv2D", op.inputs[0], g[0], kConvAttrs)};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Conv2DBackpropFilter", Conv2DBackpropFilterGrad);

absl::Status DepthwiseGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {Conv3Inputs(s, op, "DepthwiseConv2dNativeBackpropInput", ops::Shape(s, op.inputs[0]),
                      op.inputs[1], g[0], kDepthwiseAttrs),
          Conv3Inputs(s, op, "DepthwiseConv2dNativeBackpropFilter", op.inputs[0],
                      ops::Shape(s, op.inputs[1]), g[0], kDepthwiseAttrs)};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("DepthwiseConv2dNative", DepthwiseGrad);

absl::Status DepthwiseBackpropInputGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {Output(),
          Conv3Inputs(s, op, "DepthwiseConv2dNativeBackpropFilter", g[0],
                      ops::Shape(s, op.inputs[1]), op.inputs[2], kDepthwiseAttrs),
          Conv2Inputs(s, op, "DepthwiseConv2dNative", g[0], op.inputs[1], kDepthwiseAttrs)};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("DepthwiseConv2dNativeBackpropInput", DepthwiseBackpropInputGrad);

absl::Status DepthwiseBackpropFilterGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {Conv3Inputs(s, op, "DepthwiseConv2dNativeBackpropInput", ops::Shape(s, op.inputs[0]),
                      g[0], op.inputs[2], kDepthwiseAttrs),
          Output(),
          Conv2Inputs(s, op, "DepthwiseConv2dNative", op.inputs[0], g[0], kDepthwiseAttrs)};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("DepthwiseConv2dNativeBackpropFilter", DepthwiseBackpropFilterGrad);

// --- Pooling ---------------------------------------------------------------------------------

constexpr std::initializer_list<const char*> kPoolAttrs = {"ksize", "strides", "padding",
                                                           "data_format"};

absl::Status AvgPoolGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {Conv2Inputs(s, op, "AvgPoolGrad", ops::Shape(s, op.inputs[0]), g[0], kPoolAttrs)};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("AvgPool", AvgPoolGrad);

// AvgPoolGrad (orig_input_shape, grad): AvgPool of the gradient; none for the shape.
absl::Status AvgPoolGradGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  OpBuilder b(s, "AvgPool");
  b.Input(g[0]);
  CopyAttrs(b, op, kPoolAttrs);
  *out = {Output(), Out(b)};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("AvgPoolGrad", AvgPoolGradGrad);

absl::Status MaxPoolGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {Conv3Inputs(s, op, "MaxPoolGrad", op.inputs[0], op.outputs[0], g[0],
                      {"ksize", "strides", "padding", "explicit_paddings", "data_format"})};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("MaxPool", MaxPoolGrad);

// The values of an int32 Const node's output (MaxPoolV2's ksize and strides).
absl::StatusOr<std::vector<int64_t>> ConstInts(const Scope& s, const GradOp& op, const Output& v,
                                               const char* what) {
  absl::StatusOr<NodeDef> def = s.GetNodeDef(v.node());
  if (!def.ok() || def->op() != "Const" || !def->attr().count("value")) {
    return absl::UnimplementedError(
        absl::StrCat("The gradient of node '", op.name(), "' (MaxPoolV2) needs a constant ", what,
                     " (Rill has no MaxPoolGradV2 kernel); feed it from a Const or use MaxPool"));
  }
  RILL_ASSIGN_OR_RETURN(Tensor t, TensorFromProto(def->attr().at("value").tensor()));
  if (t.dtype() != DT_INT32) {
    return absl::InvalidArgumentError(
        absl::StrCat("Node '", op.name(), "' (MaxPoolV2): ", what, " must be int32"));
  }
  std::vector<int64_t> values;
  for (int32_t x : t.flat<int32_t>()) values.push_back(x);
  return values;
}

// MaxPoolV2: MaxPoolGrad with the constant ksize and strides as attrs (the values TensorFlow's
// MaxPoolGradV2 reads at run time); none for ksize and strides.
absl::Status MaxPoolV2Grad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  RILL_ASSIGN_OR_RETURN(std::vector<int64_t> ksize, ConstInts(s, op, op.inputs[1], "ksize"));
  RILL_ASSIGN_OR_RETURN(std::vector<int64_t> strides, ConstInts(s, op, op.inputs[2], "strides"));
  OpBuilder b(s, "MaxPoolGrad");
  b.Input(op.inputs[0]).Input(op.outputs[0]).Input(g[0]);
  b.Attr("ksize", ksize).Attr("strides", strides);
  CopyAttrs(b, op, {"padding", "data_format"});
  *out = {Out(b), Output(), Output()};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("MaxPoolV2", MaxPoolV2Grad);

// MaxPoolGrad (orig_input, orig_output, grad): zeros for the pooling's input and output,
// MaxPoolGradGrad for the gradient.
absl::Status MaxPoolGradGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {ops::ZerosLike(s, op.inputs[0]), ops::ZerosLike(s, op.inputs[1]),
          Conv3Inputs(s, op, "MaxPoolGradGrad", op.inputs[0], op.inputs[1], g[0], kPoolAttrs)};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("MaxPoolGrad", MaxPoolGradGrad);

// MaxPoolGradGrad (orig_input, orig_output, grad): zeros, zeros, MaxPoolGrad of the gradient.
absl::Status MaxPoolGradGradGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {ops::ZerosLike(s, op.inputs[0]), ops::ZerosLike(s, op.inputs[1]),
          Conv3Inputs(s, op, "MaxPoolGrad", op.inputs[0], op.inputs[1], g[0], kPoolAttrs)};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("MaxPoolGradGrad", MaxPoolGradGradGrad);

// MaxPoolWithArgmax (input): each pooled gradient added at the flat input index its argmax
// names (offset by the image's start unless include_batch_in_index), as TensorFlow's GPU
// MaxPoolGradWithArgmax does; built from UnsortedSegmentSum (TensorFlow has no CPU kernel for that
// op). The argmax output has no gradient.
absl::Status MaxPoolWithArgmaxGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const bool include_batch = op.BoolOr("include_batch_in_index", false);
  const Output& x = op.inputs[0];
  Output index = op.outputs[1];
  if (BaseType(index.dtype()) != DT_INT64) index = ops::Cast(s, index, DT_INT64);
  Output shape = ops::Shape(s, x, DT_INT64);
  if (!include_batch) {
    std::vector<Output> dims = ops::Unpack(s, shape, 4);
    if (dims.size() != 4) return s.status();
    Output per_image = ops::Mul(s, ops::Mul(s, dims[1], dims[2]), dims[3]);
    Output starts = ops::Mul(
        s, ops::Range(s, ops::Const(s, int64_t{0}), dims[0], ops::Const(s, int64_t{1})), per_image);
    index = ops::Add(s, index, ops::Reshape(s, starts, IntVector(s, {-1, 1, 1, 1})));
  }
  Output flat_grad = ops::Reshape(s, g[0], IntVector(s, {-1}));
  Output summed = ops::UnsortedSegmentSum(s, flat_grad, ops::Reshape(s, index, IntVector(s, {-1})),
                                          ops::Size(s, x, DT_INT64));
  *out = {ops::Reshape(s, summed, shape)};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("MaxPoolWithArgmax", MaxPoolWithArgmaxGrad);

// --- 3-D convolution and pooling -------------------------------------------------------------

constexpr std::initializer_list<const char*> kConv3DAttrs = {"strides", "padding", "data_format",
                                                             "dilations"};

absl::Status Conv3DGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  std::vector<Output> shapes = ops::ShapeN(s, {op.inputs[0], op.inputs[1]});
  if (shapes.size() != 2) return s.status();
  *out = {
      Conv3Inputs(s, op, "Conv3DBackpropInputV2", shapes[0], op.inputs[1], g[0], kConv3DAttrs),
      Conv3Inputs(s, op, "Conv3DBackpropFilterV2", op.inputs[0], shapes[1], g[0], kConv3DAttrs)};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Conv3D", Conv3DGrad);

// Conv3DBackpropInputV2 (input_sizes, filter, out_backprop).
absl::Status Conv3DBackpropInputGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {Output(),
          Conv3Inputs(s, op, "Conv3DBackpropFilterV2", g[0], ops::Shape(s, op.inputs[1]),
                      op.inputs[2], kConv3DAttrs),
          Conv2Inputs(s, op, "Conv3D", g[0], op.inputs[1], kConv3DAttrs)};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Conv3DBackpropInputV2", Conv3DBackpropInputGrad);

// Conv3DBackpropFilterV2 (input, filter_sizes, out_backprop).
absl::Status Conv3DBackpropFilterGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {Conv3Inputs(s, op, "Conv3DBackpropInputV2", ops::Shape(s, op.inputs[0]), g[0],
                      op.inputs[2], kConv3DAttrs),
          Output(), Conv2Inputs(s, op, "Conv3D", op.inputs[0], g[0], kConv3DAttrs)};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Conv3DBackpropFilterV2", Conv3DBackpropFilterGrad);

absl::Status AvgPool3DGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {Conv2Inputs(s, op, "AvgPool3DGrad", ops::Shape(s, op.inputs[0]), g[0], kPoolAttrs)};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("AvgPool3D", AvgPool3DGrad);

// AvgPool3DGrad (orig_input_shape, grad): AvgPool3D of the gradient; none for the shape.
absl::Status AvgPool3DGradGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  OpBuilder b(s, "AvgPool3D");
  b.Input(g[0]);
  CopyAttrs(b, op, kPoolAttrs);
  *out = {Output(), Out(b)};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("AvgPool3DGrad", AvgPool3DGradGrad);

absl::Status MaxPool3DGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {Conv3Inputs(s, op, "MaxPool3DGrad", op.inputs[0], op.outputs[0], g[0], kPoolAttrs)};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("MaxPool3D", MaxPool3DGrad);

// MaxPool3DGrad and MaxPool3DGradGrad (orig_input, orig_output, grad): zeros for the pooling's
// input and output; the other of the two for the gradient.
absl::Status MaxPool3DGradGradFn(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const char* other = op.type() == "MaxPool3DGrad" ? "MaxPool3DGradGrad" : "MaxPool3DGrad";
  *out = {ops::ZerosLike(s, op.inputs[0]), ops::ZerosLike(s, op.inputs[1]),
          Conv3Inputs(s, op, other, op.inputs[0], op.inputs[1], g[0], kPoolAttrs)};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("MaxPool3DGrad", MaxPool3DGradGradFn);
RILL_REGISTER_GRADIENT("MaxPool3DGradGrad", MaxPool3DGradGradFn);

// --- Local response normalization ------------------------------------------------------------

absl::Status LRNGradFn(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {Conv3Inputs(s, op, "LRNGrad", g[0], op.inputs[0], op.outputs[0],
                      {"depth_radius", "bias", "alpha", "beta"})};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("LRN", LRNGradFn);

// --- Batch normalization ---------------------------------------------------------------------

// FusedBatchNorm, V2, V3 (x, scale, offset, mean, variance): FusedBatchNormGrad<version> with the
// batch statistics (training) or, for inference, the population statistics in NHWC.
absl::Status FusedBatchNormGradFn(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const bool v3 = op.type() == "FusedBatchNormV3";
  const char* grad_type = v3                                ? "FusedBatchNormGradV3"
                          : op.type() == "FusedBatchNormV2" ? "FusedBatchNormGradV2"
                                                            : "FusedBatchNormGrad";
  RILL_ASSIGN_OR_RETURN(bool is_training, op.GetBool("is_training"));
  RILL_ASSIGN_OR_RETURN(std::string format, op.GetString("data_format"));
  Output x = op.inputs[0];
  Output dy = g[0];
  Output rs1 = op.outputs[3], rs2 = op.outputs[4];
  std::string grad_format = format;
  const bool channels_first = format == "NCHW" || format == "NCDHW";
  if (!is_training) {
    rs1 = op.inputs[3];
    rs2 = op.inputs[4];
    if (channels_first) {
      Output perm = format == "NCHW" ? ops::Const(s, {0, 2, 3, 1}) : ops::Const(s, {0, 2, 3, 4, 1});
      x = ops::Transpose(s, x, perm);
      dy = ops::Transpose(s, dy, perm);
    }
    grad_format = format == "NCHW" || format == "NHWC" ? "NHWC" : "NDHWC";
  }
  OpBuilder b(s, grad_type);
  b.Input(dy).Input(x).Input(op.inputs[1]).Input(rs1).Input(rs2);
  if (v3) b.Input(op.outputs[5]);
  CopyAttrs(b, op, {"epsilon"});
  b.Attr("data_format", grad_format).Attr("is_training", is_training);
  Operation grad_node = b.Finalize();
  Output dx = grad_node.output(0);
  if (!is_training && channels_first) {
    dx = ops::Transpose(
        s, dx, format == "NCHW" ? ops::Const(s, {0, 3, 1, 2}) : ops::Const(s, {0, 4, 1, 2, 3}));
  }
  *out = {dx, grad_node.output(1), grad_node.output(2), Output(), Output()};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("FusedBatchNorm", FusedBatchNormGradFn);
RILL_REGISTER_GRADIENT("FusedBatchNormV2", FusedBatchNormGradFn);
RILL_REGISTER_GRADIENT("FusedBatchNormV3", FusedBatchNormGradFn);

// FusedBatchNormGrad, V2, V3 (y_backprop, x, scale, reserve_space_1, reserve_space_2[, 3]): the
// derivatives of TensorFlow's batch-norm gradient formula (nn_fused_batch_norm_grad.py), worked
// out by hand. Per-channel quantities are kept with the reduced dims (broadcastable against x);
// with N elements per channel, xo = x - mean, ivar = 1 / (var + epsilon), rs = sqrt(ivar), and the
// incoming gradients a (of x_backprop), bs (of scale_backprop), co (of offset_backprop):
//   training:  dx_backprop = scale*rs*(dy - mean(dy) - ivar*mean(dy*xo)*xo)
//     d/dy     = scale*rs*(a - mean(a) - ivar*mean(a*xo)*xo) + bs*rs*xo + co
//     d/dscale = sum(a*rs*(dy - mean(dy) - ivar*mean(dy*xo)*xo))
//     d/dx     = scale*rs^3*(-mean(a*(dy-mean(dy)))*xo + 3*ivar*M*mean(a*xo)*xo
//                            - mean(a*xo)*(dy-mean(dy)) - M*(a-mean(a)))
//                + bs*(rs*(dy-mean(dy)) - rs^3*M*xo),  M = mean(dy*xo)
//   inference (population mean and variance): d/dy = a*scale*rs + bs*xo*rs + co,
//     d/dx = dy*bs*rs, d/dscale = sum(a*dy*rs).
absl::Status FusedBatchNormGradGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  RILL_ASSIGN_OR_RETURN(bool is_training, op.GetBool("is_training"));
  RILL_ASSIGN_OR_RETURN(std::string format, op.GetString("data_format"));
  RILL_ASSIGN_OR_RETURN(float epsilon, op.GetFloat("epsilon"));
  const bool channels_first = format == "NCHW" || format == "NCDHW";
  const int rank = format == "NDHWC" || format == "NCDHW" ? 5 : 4;
  std::vector<int> axes;
  for (int i = 0; i < rank; ++i) {
    if (i != (channels_first ? 1 : rank - 1)) axes.push_back(i);
  }
  const DataType x_type = BaseType(op.inputs[1].dtype());
  auto to_float = [&](const Output& v) {
    return x_type == DT_FLOAT ? v : ops::Cast(s, v, DT_FLOAT);
  };
  Output dy = to_float(op.inputs[0]);
  Output x = to_float(op.inputs[1]);
  Output a = to_float(g[0]);
  // Per-channel vectors as [1, C, 1, 1(, 1)] or [C] (which broadcasts along the last dim).
  std::vector<int> channel_shape(rank, 1);
  channel_shape[channels_first ? 1 : rank - 1] = -1;
  auto per_channel = [&](const Output& v) {
    return channels_first ? ops::Reshape(s, v, IntVector(s, channel_shape)) : v;
  };
  Output scale = per_channel(op.inputs[2]);
  Output bs = per_channel(g[1]);
  Output co = per_channel(g[2]);
  Output axis = IntVector(s, axes);
  auto mean = [&](const Output& v) { return ops::Mean(s, v, axis, /*keep_dims=*/true); };
  auto sum = [&](const Output& v) {
    return ops::Reshape(s, ops::Sum(s, v, axis, /*keep_dims=*/false), ops::Const(s, {-1}));
  };
  auto mul = [&](std::initializer_list<Output> fs) {
    Output p;
    for (const Output& f : fs) p = p.valid() ? ops::Mul(s, p, f) : f;
    return p;
  };
  Output eps = ops::Const(s, epsilon);
  Output d_dy, d_x, d_scale;
  if (is_training) {
    Output mean_x = mean(x);
    Output xo = ops::Sub(s, x, mean_x);
    Output var = mean(ops::SquaredDifference(s, x, mean_x));
    Output ivar = ops::Reciprocal(s, ops::Add(s, var, eps));
    Output rs = ops::Rsqrt(s, ops::Add(s, var, eps));
    Output rs3 = ops::Mul(s, rs, ivar);
    Output dy_c = ops::Sub(s, dy, mean(dy));
    Output a_c = ops::Sub(s, a, mean(a));
    Output m = mean(ops::Mul(s, dy, xo));
    Output mean_a_xo = mean(ops::Mul(s, a, xo));
    Output x_backprop_over_scale = ops::Mul(s, rs, ops::Sub(s, dy_c, mul({ivar, m, xo})));
    d_dy = ops::Add(s,
                    ops::Add(s, mul({scale, rs, ops::Sub(s, a_c, mul({ivar, mean_a_xo, xo}))}),
                             mul({bs, rs, xo})),
                    co);
    d_scale = sum(ops::Mul(s, a, x_backprop_over_scale));
    Output inner = ops::Sub(s,
                            ops::Sub(s,
                                     ops::Add(s, ops::Neg(s, mul({mean(ops::Mul(s, a, dy_c)), xo})),
                                              mul({ops::Const(s, 3.f), ivar, m, mean_a_xo, xo})),
                                     ops::Mul(s, mean_a_xo, dy_c)),
                            ops::Mul(s, m, a_c));
    d_x = ops::Add(s, mul({scale, rs3, inner}),
                   ops::Mul(s, bs, ops::Sub(s, ops::Mul(s, rs, dy_c), mul({rs3, m, xo}))));
  } else {
    Output pop_mean = per_channel(op.inputs[3]);
    Output rs = ops::Rsqrt(s, ops::Add(s, per_channel(op.inputs[4]), eps));
    Output xo = ops::Sub(s, x, pop_mean);
    d_dy = ops::Add(s, ops::Add(s, mul({a, scale, rs}), mul({bs, xo, rs})), co);
    d_x = mul({dy, bs, rs});
    d_scale = sum(mul({a, dy, rs}));
  }
  if (x_type != DT_FLOAT) {
    d_dy = ops::Cast(s, d_dy, x_type);
    d_x = ops::Cast(s, d_x, x_type);
  }
  *out = {d_dy, d_x, d_scale, Output(), Output()};
  if (op.type() == "FusedBatchNormGradV3") out->push_back(Output());
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("FusedBatchNormGrad", FusedBatchNormGradGrad);
RILL_REGISTER_GRADIENT("FusedBatchNormGradV2", FusedBatchNormGradGrad);
RILL_REGISTER_GRADIENT("FusedBatchNormGradV3", FusedBatchNormGradGrad);

// --- Image ops -------------------------------------------------------------------------------

// ExtractImagePatches: each input pixel's gradient is the sum of the patch entries that copied
// it. The patches of an image of pixel numbers 1..rows*cols say which (0: padding, dropped).
absl::Status ExtractImagePatchesGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  RILL_ASSIGN_OR_RETURN(std::vector<int64_t> ksizes, op.GetInts("ksizes"));
  if (ksizes.size() != 4) {
    return absl::InvalidArgumentError(absl::StrCat("Node '", op.name(),
                                                   "' (ExtractImagePatches): ksizes must have 4 "
                                                   "entries, got ",
                                                   ksizes.size()));
  }
  std::vector<Output> in = ops::Unpack(s, ops::Shape(s, op.inputs[0], DT_INT64), 4);
  std::vector<Output> out_dims = ops::Unpack(s, ops::Shape(s, op.outputs[0], DT_INT64), 4);
  if (in.size() != 4 || out_dims.size() != 4) return s.status();
  const Output &batch = in[0], &rows = in[1], &cols = in[2], &channels = in[3];
  auto i64 = [&](int64_t v) { return ops::Const(s, v); };
  Output pixels = ops::Mul(s, rows, cols);
  Output numbers =
      ops::Range(s, ops::Const(s, 1.f), ops::Cast(s, ops::Add(s, pixels, i64(1)), DT_FLOAT),
                 ops::Const(s, 1.f));
  numbers = ops::Reshape(s, numbers, ops::Pack(s, {i64(1), rows, cols, i64(1)}));
  OpBuilder patches(s, "ExtractImagePatches");
  patches.Input(numbers);
  CopyAttrs(patches, op, {"ksizes", "strides", "rates", "padding"});
  Output ids = ops::Sub(s, ops::Reshape(s, ops::Cast(s, Out(patches), DT_INT64), i64(-1)), i64(1));
  Output expanded =
      ops::Transpose(s,
                     ops::Reshape(s, g[0],
                                  ops::Pack(s, {batch, out_dims[1], out_dims[2], i64(ksizes[1]),
                                                i64(ksizes[2]), channels})),
                     ops::Const(s, {1, 2, 3, 4, 0, 5}));
  Output flat = ops::Reshape(s, expanded, ops::Pack(s, {i64(-1), ops::Mul(s, batch, channels)}));
  Output summed = ops::UnsortedSegmentSum(s, flat, ids, pixels);
  summed = ops::Reshape(s, summed, ops::Pack(s, {rows, cols, batch, channels}));
  *out = {ops::Transpose(s, summed, ops::Const(s, {2, 0, 1, 3}))};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("ExtractImagePatches", ExtractImagePatchesGrad);

// RGBToHSV: the piecewise derivatives of hue, saturation and value, selected by which channel
// is the largest and the smallest (TensorFlow's image_grad.py, term by term).
absl::Status RGBToHSVGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& x = op.inputs[0];
  const DataType dt = BaseType(x.dtype());
  std::vector<Output> rgb = ops::Unpack(s, x, 3, -1);
  std::vector<Output> hsv = ops::Unpack(s, op.outputs[0], 3, -1);
  std::vector<Output> dhsv = ops::Unpack(s, g[0], 3, -1);
  if (rgb.size() != 3 || hsv.size() != 3 || dhsv.size() != 3) return s.status();
  const Output &r = rgb[0], &gr = rgb[1], &b = rgb[2];
  const Output &sat = hsv[1], &val = hsv[2];
  auto c = [&](double v) { return grad::ScalarLike(s, v, x); };
  auto both = [&](const Output& p, const Output& q) {
    return ops::Cast(s, ops::LogicalAnd(s, p, q), dt);
  };
  auto pos = [&](const Output& v) { return ops::Cast(s, ops::Greater(s, v, c(0.0)), dt); };
  auto recip = [&](const Output& v) { return ops::DivNoNan(s, c(1.0), v); };
  auto sq = [&](const Output& v) { return ops::Square(s, v); };
  auto prod = [&](std::initializer_list<Output> fs) {
    Output p;
    for (const Output& f : fs) p = p.valid() ? ops::Mul(s, p, f) : f;
    return p;
  };
  auto add = [&](const Output& p, const Output& q) { return ops::Add(s, p, q); };
  auto sub = [&](const Output& p, const Output& q) { return ops::Sub(s, p, q); };
  const Output r_big = both(ops::GreaterEqual(s, r, b), ops::GreaterEqual(s, r, gr));
  const Output g_big = both(ops::Greater(s, gr, r), ops::GreaterEqual(s, gr, b));
  const Output b_big = both(ops::Greater(s, b, r), ops::Greater(s, b, gr));
  const Output r_small = both(ops::Less(s, r, b), ops::Less(s, r, gr));
  const Output g_small = both(ops::LessEqual(s, gr, r), ops::Less(s, gr, b));
  const Output b_small = both(ops::LessEqual(s, b, r), ops::LessEqual(s, b, gr));
  const Output neg = c(-1.0);
  // Saturation.
  const Output ds_dr = ops::Mul(
      s, pos(r),
      add(prod({r_big, add(ops::Mul(s, g_small, gr), ops::Mul(s, b_small, b)), recip(sq(r))}),
          prod({r_small, neg, recip(add(ops::Mul(s, g_big, gr), ops::Mul(s, b_big, b)))})));
  const Output ds_dg = ops::Mul(
      s, pos(gr),
      add(prod({g_big, add(ops::Mul(s, r_small, r), ops::Mul(s, b_small, b)), recip(sq(gr))}),
          prod({g_small, neg, recip(add(ops::Mul(s, r_big, r), ops::Mul(s, b_big, b)))})));
  const Output ds_db = ops::Mul(
      s, pos(b),
      add(prod({b_big, add(ops::Mul(s, g_small, gr), ops::Mul(s, r_small, r)), recip(sq(b))}),
          prod({b_small, neg, recip(add(ops::Mul(s, g_big, gr), ops::Mul(s, r_big, r)))})));
  // Hue: five terms per channel, each 60 * (...), summed and divided by 360.
  const Output inv_sv = ops::Mul(s, recip(sq(sat)), recip(sq(val)));
  auto hue = [&](std::initializer_list<Output> terms) {
    Output sum;
    for (const Output& t : terms) {
      Output term = ops::Mul(s, c(60.0), t);
      sum = sum.valid() ? add(sum, term) : term;
    }
    return ops::RealDiv(s, sum, c(360.0));
  };
  const Output dh_dr = hue({prod({pos(r), r_big, neg, sub(gr, b), inv_sv}),
                            prod({pos(gr), g_big, r_small, sub(b, gr), recip(sq(sub(r, gr)))}),
                            prod({pos(gr), g_big, b_small, neg, recip(sub(gr, b))}),
                            prod({pos(b), b_big, r_small, sub(b, gr), recip(sq(sub(b, r)))}),
                            prod({pos(b), b_big, g_small, recip(sub(b, gr))})});
  const Output dh_dg = hue({prod({pos(gr), g_big, neg, sub(b, r), inv_sv}),
                            prod({pos(r), r_big, g_small, sub(r, b), recip(sq(sub(r, gr)))}),
                            prod({pos(r), r_big, b_small, recip(sub(r, b))}),
                            prod({pos(b), b_big, g_small, sub(r, b), recip(sq(sub(b, gr)))}),
                            prod({pos(b), b_big, r_small, neg, recip(sub(b, r))})});
  const Output dh_db = hue({prod({pos(b), b_big, neg, sub(r, gr), inv_sv}),
                            prod({pos(r), r_big, b_small, sub(gr, r), recip(sq(sub(r, b)))}),
                            prod({pos(r), r_big, g_small, neg, recip(sub(r, gr))}),
                            prod({pos(gr), g_big, b_small, sub(gr, r), recip(sq(sub(gr, b)))}),
                            prod({pos(gr), g_big, r_small, recip(sub(gr, r))})});
  // Value is the largest channel.
  auto channel = [&](const Output& dv, const Output& ds, const Output& dh) {
    return add(add(ops::Mul(s, dhsv[2], dv), ops::Mul(s, dhsv[1], ds)), ops::Mul(s, dhsv[0], dh));
  };
  *out = {ops::Pack(
      s, {channel(r_big, ds_dr, dh_dr), channel(g_big, ds_dg, dh_dg), channel(b_big, ds_db, dh_db)},
      -1)};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("RGBToHSV", RGBToHSVGrad);

// Dilation2D (input, filter): each output's gradient to the input element and filter tap of its
// window's maximum.
absl::Status Dilation2DGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {Conv3Inputs(s, op, "Dilation2DBackpropInput", op.inputs[0], op.inputs[1], g[0],
                      {"strides", "rates", "padding"}),
          Conv3Inputs(s, op, "Dilation2DBackpropFilter", op.inputs[0], op.inputs[1], g[0],
                      {"strides", "rates", "padding"})};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Dilation2D", Dilation2DGrad);

// ResizeBilinear (images, size): ResizeBilinearGrad onto the images; none for the size.
absl::Status ResizeBilinearGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {Conv2Inputs(s, op, "ResizeBilinearGrad", g[0], op.inputs[0],
                      {"align_corners", "half_pixel_centers"}),
          Output()};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("ResizeBilinear", ResizeBilinearGrad);
RILL_REGISTER_NO_GRADIENT("ResizeBilinearGrad");

// ResizeNearestNeighbor (images, size): ResizeNearestNeighborGrad to the images' height and
// width; none for the size.
absl::Status ResizeNearestNeighborGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  Output hw = ops::Slice(s, ops::Shape(s, op.inputs[0]), ops::Const(s, {1}), ops::Const(s, {2}));
  *out = {Conv2Inputs(s, op, "ResizeNearestNeighborGrad", g[0], hw,
                      {"align_corners", "half_pixel_centers"}),
          Output()};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("ResizeNearestNeighbor", ResizeNearestNeighborGrad);

// ResizeBicubic (images, size): ResizeBicubicGrad onto float or double images (none for other
// dtypes); none for the size.
absl::Status ResizeBicubicGradFn(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const DataType t = BaseType(op.inputs[0].dtype());
  Output images_grad;
  if (t == DT_FLOAT || t == DT_DOUBLE) {
    images_grad = Conv2Inputs(s, op, "ResizeBicubicGrad", g[0], op.inputs[0],
                              {"align_corners", "half_pixel_centers"});
  }
  *out = {images_grad, Output()};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("ResizeBicubic", ResizeBicubicGradFn);

// CropAndResize (image, boxes, box_ind, crop_size): CropAndResizeGradImage for half, float and
// double images (none otherwise) and CropAndResizeGradBoxes (bilinear, whatever the method);
// none for box_ind and crop_size.
absl::Status CropAndResizeGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const DataType t = BaseType(op.inputs[0].dtype());
  Output image_grad;
  if (t == DT_HALF || t == DT_FLOAT || t == DT_DOUBLE) {
    OpBuilder b(s, "CropAndResizeGradImage");
    b.Input(g[0]).Input(op.inputs[1]).Input(op.inputs[2]).Input(ops::Shape(s, op.inputs[0]));
    b.Attr("T", t);
    CopyAttrs(b, op, {"method"});
    image_grad = Out(b);
  }
  OpBuilder boxes(s, "CropAndResizeGradBoxes");
  boxes.Input(g[0]).Input(op.inputs[0]).Input(op.inputs[1]).Input(op.inputs[2]);
  *out = {image_grad, Out(boxes), Output(), Output()};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("CropAndResize", CropAndResizeGrad);

// ImageProjectiveTransformV3 and V2 (TensorFlow's image_ops.py): the output gradient warped back
// with the inverted transforms (each [a0..a7] as a 3x3 matrix with a last 1, inverted and divided
// by its last entry), onto the images' height and width with the op's interpolation and
// fill_mode (and, for V3, fill_value 0). None for the transforms, output_shape and fill_value.
absl::Status ImageProjectiveTransformGrad(const Scope& s, const GradOp& op, GradSpan g,
                                          Grads* out) {
  Output flat = ops::Reshape(s, op.inputs[1], ops::Const(s, {-1, 8}));
  Output n = ops::Slice(s, ops::Shape(s, flat), ops::Const(s, {0}), ops::Const(s, {1}));
  Output ones = ops::Fill(s, ops::ConcatV2(s, {n, ops::Const(s, {1})}, ops::Const(s, 0)),
                          ops::Const(s, 1.0f));
  Output matrices =
      ops::Reshape(s, ops::ConcatV2(s, {flat, ones}, ops::Const(s, 1)), ops::Const(s, {-1, 3, 3}));
  Output inverse = ops::Reshape(s, ops::MatrixInverse(s, matrices), ops::Const(s, {-1, 9}));
  Output scaled = ops::RealDiv(
      s, inverse, ops::Slice(s, inverse, ops::Const(s, {0, 8}), ops::Const(s, {-1, 1})));
  Output transforms = ops::Slice(s, scaled, ops::Const(s, {0, 0}), ops::Const(s, {-1, 8}));
  Output size = ops::Slice(s, ops::Shape(s, op.inputs[0]), ops::Const(s, {1}), ops::Const(s, {2}));
  const bool v3 = op.type() == "ImageProjectiveTransformV3";
  OpBuilder b(s, op.type());
  b.Input(g[0]).Input(transforms).Input(size);
  if (v3) b.Input(ops::Const(s, 0.0f));
  CopyAttrs(b, op, {"interpolation", "fill_mode"});
  *out = {Out(b), Output(), Output()};
  if (v3) out->push_back(Output());
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("ImageProjectiveTransformV3", ImageProjectiveTransformGrad);
RILL_REGISTER_GRADIENT("ImageProjectiveTransformV2", ImageProjectiveTransformGrad);

// ScaleAndTranslate (images, size, scale, translation): ScaleAndTranslateGrad onto float images
// (none for other dtypes); none for the size, scale and translation.
absl::Status ScaleAndTranslateGradFn(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  Output images_grad;
  if (BaseType(op.inputs[0].dtype()) == DT_FLOAT) {
    OpBuilder b(s, "ScaleAndTranslateGrad");
    b.Input(g[0]).Input(op.inputs[0]).Input(op.inputs[2]).Input(op.inputs[3]);
    CopyAttrs(b, op, {"kernel_type", "antialias"});
    images_grad = Out(b);
  }
  *out = {images_grad, Output(), Output(), Output()};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("ScaleAndTranslate", ScaleAndTranslateGradFn);

RILL_REGISTER_NO_GRADIENT("HSVToRGB");
// CTC decoding (TensorFlow marks both decoders NotDifferentiable).
RILL_REGISTER_NO_GRADIENT("CTCGreedyDecoder");
RILL_REGISTER_NO_GRADIENT("CTCBeamSearchDecoder");
RILL_REGISTER_NO_GRADIENT("EditDistance");
// Box selection (TensorFlow marks NonMaxSuppressionV2 and NonMaxSuppressionWithOverlaps
// NotDifferentiable).
RILL_REGISTER_NO_GRADIENT("NonMaxSuppressionV2");
RILL_REGISTER_NO_GRADIENT("NonMaxSuppressionWithOverlaps");

}  // namespace
}  // namespace rill
