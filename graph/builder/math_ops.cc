#include "graph/builder/math_ops.h"

#include "graph/builder/op_builder.h"

namespace rill {
namespace ops {
namespace {

Output Binary(const Scope& scope, const char* op, const Input& x, const Input& y) {
  return OpBuilder(scope, op).Input(x).Input(y).Finalize().output(0);
}

Output Reduction(const Scope& scope, const char* op, const Input& input, const Input& axis,
                 bool keep_dims) {
  return OpBuilder(scope, op)
      .Input(input)
      .Input(axis)
      .Attr("keep_dims", keep_dims)
      .Finalize()
      .output(0);
}

Output Unary(const Scope& scope, const char* op, const Input& x) {
  return OpBuilder(scope, op).Input(x).Finalize().output(0);
}

// Every output of `op` (ops with a list output: ShapeN, Unpack, Split, SplitV).
std::vector<Output> AllOutputs(const Operation& op) {
  std::vector<Output> out;
  for (int i = 0; i < op.num_outputs(); ++i) out.push_back(op.output(i));
  return out;
}

// Cumsum, Cumprod and CumulativeLogsumexp: x scanned along axis.
Output Scan(const Scope& scope, const char* op, const Input& x, const Input& axis, bool exclusive,
            bool reverse) {
  return OpBuilder(scope, op)
      .Input(x)
      .Input(axis)
      .Attr("exclusive", exclusive)
      .Attr("reverse", reverse)
      .Finalize()
      .output(0);
}

}  // namespace

Output Sub(const Scope& scope, const Input& x, const Input& y) {
  return Binary(scope, "Sub", x, y);
}
Output Mul(const Scope& scope, const Input& x, const Input& y) {
  return Binary(scope, "Mul", x, y);
}
Output Div(const Scope& scope, const Input& x, const Input& y) {
  return Binary(scope, "Div", x, y);
}
Output RealDiv(const Scope& scope, const Input& x, const Input& y) {
  return Binary(scope, "RealDiv", x, y);
}
Output DivNoNan(const Scope& scope, const Input& x, const Input& y) {
  return Binary(scope, "DivNoNan", x, y);
}
Output FloorDiv(const Scope& scope, const Input& x, const Input& y) {
  return Binary(scope, "FloorDiv", x, y);
}
Output FloorMod(const Scope& scope, const Input& x, const Input& y) {
  return Binary(scope, "FloorMod", x, y);
}
Output Maximum(const Scope& scope, const Input& x, const Input& y) {
  return Binary(scope, "Maximum", x, y);
}
Output Minimum(const Scope& scope, const Input& x, const Input& y) {
  return Binary(scope, "Minimum", x, y);
}
Output Pow(const Scope& scope, const Input& x, const Input& y) {
  return Binary(scope, "Pow", x, y);
}
Output SquaredDifference(const Scope& scope, const Input& x, const Input& y) {
  return Binary(scope, "SquaredDifference", x, y);
}
Output Less(const Scope& scope, const Input& x, const Input& y) {
  return Binary(scope, "Less", x, y);
}
Output LessEqual(const Scope& scope, const Input& x, const Input& y) {
  return Binary(scope, "LessEqual", x, y);
}
Output Greater(const Scope& scope, const Input& x, const Input& y) {
  return Binary(scope, "Greater", x, y);
}
Output GreaterEqual(const Scope& scope, const Input& x, const Input& y) {
  return Binary(scope, "GreaterEqual", x, y);
}
Output Equal(const Scope& scope, const Input& x, const Input& y) {
  return Binary(scope, "Equal", x, y);
}
Output NotEqual(const Scope& scope, const Input& x, const Input& y) {
  return Binary(scope, "NotEqual", x, y);
}
Output LogicalAnd(const Scope& scope, const Input& x, const Input& y) {
  return Binary(scope, "LogicalAnd", x, y);
}
Output LogicalOr(const Scope& scope, const Input& x, const Input& y) {
  return Binary(scope, "LogicalOr", x, y);
}

Output Neg(const Scope& scope, const Input& x) { return Unary(scope, "Neg", x); }
Output Abs(const Scope& scope, const Input& x) { return Unary(scope, "Abs", x); }
Output Sign(const Scope& scope, const Input& x) { return Unary(scope, "Sign", x); }
Output Square(const Scope& scope, const Input& x) { return Unary(scope, "Square", x); }
Output Sqrt(const Scope& scope, const Input& x) { return Unary(scope, "Sqrt", x); }
Output Rsqrt(const Scope& scope, const Input& x) { return Unary(scope, "Rsqrt", x); }
Output Exp(const Scope& scope, const Input& x) { return Unary(scope, "Exp", x); }
Output Log(const Scope& scope, const Input& x) { return Unary(scope, "Log", x); }
Output Log1p(const Scope& scope, const Input& x) { return Unary(scope, "Log1p", x); }
Output Sin(const Scope& scope, const Input& x) { return Unary(scope, "Sin", x); }
Output Cos(const Scope& scope, const Input& x) { return Unary(scope, "Cos", x); }
Output Tanh(const Scope& scope, const Input& x) { return Unary(scope, "Tanh", x); }
Output Sigmoid(const Scope& scope, const Input& x) { return Unary(scope, "Sigmoid", x); }
Output Relu(const Scope& scope, const Input& x) { return Unary(scope, "Relu", x); }
Output Relu6(const Scope& scope, const Input& x) { return Unary(scope, "Relu6", x); }
Output Elu(const Scope& scope, const Input& x) { return Unary(scope, "Elu", x); }
Output Selu(const Scope& scope, const Input& x) { return Unary(scope, "Selu", x); }
Output Softplus(const Scope& scope, const Input& x) { return Unary(scope, "Softplus", x); }
Output Floor(const Scope& scope, const Input& x) { return Unary(scope, "Floor", x); }
Output Ceil(const Scope& scope, const Input& x) { return Unary(scope, "Ceil", x); }
Output Round(const Scope& scope, const Input& x) { return Unary(scope, "Round", x); }
Output Reciprocal(const Scope& scope, const Input& x) { return Unary(scope, "Reciprocal", x); }
Output Erf(const Scope& scope, const Input& x) { return Unary(scope, "Erf", x); }
Output LogicalNot(const Scope& scope, const Input& x) { return Unary(scope, "LogicalNot", x); }

Output LeakyRelu(const Scope& scope, const Input& features, const LeakyReluAttrs& attrs) {
  return OpBuilder(scope, "LeakyRelu")
      .Input(features)
      .Attr("alpha", attrs.alpha)
      .Finalize()
      .output(0);
}

Output Shape(const Scope& scope, const Input& input, DataType out_type) {
  return OpBuilder(scope, "Shape").Input(input).Attr("out_type", out_type).Finalize().output(0);
}
Output Size(const Scope& scope, const Input& input, DataType out_type) {
  return OpBuilder(scope, "Size").Input(input).Attr("out_type", out_type).Finalize().output(0);
}
Output Rank(const Scope& scope, const Input& input) { return Unary(scope, "Rank", input); }
Output Reshape(const Scope& scope, const Output& tensor, const Output& shape) {
  return Binary(scope, "Reshape", tensor, shape);
}
Output ExpandDims(const Scope& scope, const Input& input, const Input& axis) {
  return Binary(scope, "ExpandDims", input, axis);
}
Output Squeeze(const Scope& scope, const Input& input, const std::vector<int64_t>& axis) {
  return OpBuilder(scope, "Squeeze").Input(input).Attr("squeeze_dims", axis).Finalize().output(0);
}
Output Fill(const Scope& scope, const Input& dims, const Input& value) {
  return Binary(scope, "Fill", dims, value);
}
Output ZerosLike(const Scope& scope, const Input& x) { return Unary(scope, "ZerosLike", x); }
Output OnesLike(const Scope& scope, const Input& x) { return Unary(scope, "OnesLike", x); }
Output StopGradient(const Scope& scope, const Output& input) {
  return Unary(scope, "StopGradient", input);
}
Output PreventGradient(const Scope& scope, const Input& input) {
  return Unary(scope, "PreventGradient", input);
}
Output Snapshot(const Scope& scope, const Input& input) { return Unary(scope, "Snapshot", input); }
Output EnsureShape(const Scope& scope, const Input& input, const PartialTensorShape& shape) {
  return OpBuilder(scope, "EnsureShape").Input(input).Attr("shape", shape).Finalize().output(0);
}
Output Empty(const Scope& scope, const Input& shape, DataType dtype, bool init) {
  return OpBuilder(scope, "Empty")
      .Input(shape)
      .Attr("dtype", dtype)
      .Attr("init", init)
      .Finalize()
      .output(0);
}
Output Bitcast(const Scope& scope, const Input& x, DataType type) {
  return OpBuilder(scope, "Bitcast").Input(x).Attr("type", type).Finalize().output(0);
}
Output Cast(const Scope& scope, const Input& x, DataType dst) {
  return OpBuilder(scope, "Cast").Input(x).Attr("DstT", dst).Finalize().output(0);
}

#define RILL_REDUCTION_WRAPPER(Op)                                                         \
  Output Op(const Scope& scope, const Output& input, const Output& axis, bool keep_dims) { \
    return Reduction(scope, #Op, input, axis, keep_dims);                                  \
  }
RILL_REDUCTION_WRAPPER(Sum)
RILL_REDUCTION_WRAPPER(Mean)
RILL_REDUCTION_WRAPPER(Prod)
RILL_REDUCTION_WRAPPER(Max)
RILL_REDUCTION_WRAPPER(Min)
RILL_REDUCTION_WRAPPER(All)
RILL_REDUCTION_WRAPPER(Any)
#undef RILL_REDUCTION_WRAPPER

std::vector<Output> ShapeN(const Scope& scope, absl::Span<const Output> inputs, DataType out_type) {
  return AllOutputs(
      OpBuilder(scope, "ShapeN").InputList(inputs).Attr("out_type", out_type).Finalize());
}
std::vector<Output> ConcatOffset(const Scope& scope, const Input& concat_dim,
                                 absl::Span<const Output> shapes) {
  return AllOutputs(
      OpBuilder(scope, "ConcatOffset").Input(concat_dim).InputList(shapes).Finalize());
}
Output Transpose(const Scope& scope, const Input& x, const Input& perm) {
  return Binary(scope, "Transpose", x, perm);
}
Output ConcatV2(const Scope& scope, absl::Span<const Output> values, const Input& axis) {
  return OpBuilder(scope, "ConcatV2").InputList(values).Input(axis).Finalize().output(0);
}
Output Concat(const Scope& scope, const Input& concat_dim, absl::Span<const Output> values) {
  return OpBuilder(scope, "Concat").Input(concat_dim).InputList(values).Finalize().output(0);
}
Output Pack(const Scope& scope, absl::Span<const Output> values, int64_t axis) {
  return OpBuilder(scope, "Pack").InputList(values).Attr("axis", axis).Finalize().output(0);
}
std::vector<Output> Unpack(const Scope& scope, const Input& value, int64_t num, int64_t axis) {
  return AllOutputs(
      OpBuilder(scope, "Unpack").Input(value).Attr("num", num).Attr("axis", axis).Finalize());
}
std::vector<Output> Split(const Scope& scope, const Input& split_dim, const Input& value,
                          int64_t num_split) {
  return AllOutputs(OpBuilder(scope, "Split")
                        .Input(split_dim)
                        .Input(value)
                        .Attr("num_split", num_split)
                        .Finalize());
}
std::vector<Output> SplitV(const Scope& scope, const Input& value, const Input& size_splits,
                           const Input& split_dim, int64_t num_split) {
  return AllOutputs(OpBuilder(scope, "SplitV")
                        .Input(value)
                        .Input(size_splits)
                        .Input(split_dim)
                        .Attr("num_split", num_split)
                        .Finalize());
}
Output Slice(const Scope& scope, const Input& input, const Input& begin, const Input& size) {
  return OpBuilder(scope, "Slice").Input(input).Input(begin).Input(size).Finalize().output(0);
}
Output XlaDynamicUpdateSlice(const Scope& scope, const Input& input, const Input& update,
                             const Input& indices) {
  return OpBuilder(scope, "XlaDynamicUpdateSlice")
      .Input(input)
      .Input(update)
      .Input(indices)
      .Finalize()
      .output(0);
}
Output StridedSlice(const Scope& scope, const Input& input, const Output& begin, const Output& end,
                    const Input& strides, const StridedSliceMasks& masks) {
  return OpBuilder(scope, "StridedSlice")
      .Input(input)
      .Input(begin)
      .Input(end)
      .Input(strides)
      .Attr("begin_mask", masks.begin)
      .Attr("end_mask", masks.end)
      .Attr("ellipsis_mask", masks.ellipsis)
      .Attr("new_axis_mask", masks.new_axis)
      .Attr("shrink_axis_mask", masks.shrink_axis)
      .Finalize()
      .output(0);
}
Output Pad(const Scope& scope, const Input& input, const Input& paddings) {
  return Binary(scope, "Pad", input, paddings);
}
Output PadV2(const Scope& scope, const Input& input, const Input& paddings,
             const Input& constant_values) {
  return OpBuilder(scope, "PadV2")
      .Input(input)
      .Input(paddings)
      .Input(constant_values)
      .Finalize()
      .output(0);
}
Output MirrorPad(const Scope& scope, const Input& input, const Input& paddings,
                 absl::string_view mode) {
  return OpBuilder(scope, "MirrorPad")
      .Input(input)
      .Input(paddings)
      .Attr("mode", mode)
      .Finalize()
      .output(0);
}

Output ArgMax(const Scope& scope, const Input& input, const Input& axis, DataType output_type) {
  return OpBuilder(scope, "ArgMax")
      .Input(input)
      .Input(axis)
      .Attr("output_type", output_type)
      .Finalize()
      .output(0);
}
Output ArgMin(const Scope& scope, const Input& input, const Input& axis, DataType output_type) {
  return OpBuilder(scope, "ArgMin")
      .Input(input)
      .Input(axis)
      .Attr("output_type", output_type)
      .Finalize()
      .output(0);
}
Output Cumsum(const Scope& scope, const Input& x, const Input& axis, bool exclusive, bool reverse) {
  return Scan(scope, "Cumsum", x, axis, exclusive, reverse);
}
Output Select(const Scope& scope, const Input& condition, const Input& t, const Input& e) {
  return OpBuilder(scope, "Select").Input(condition).Input(t).Input(e).Finalize().output(0);
}
Output SelectV2(const Scope& scope, const Input& condition, const Input& t, const Input& e) {
  return OpBuilder(scope, "SelectV2").Input(condition).Input(t).Input(e).Finalize().output(0);
}
Output ClipByValue(const Scope& scope, const Input& t, const Input& clip_value_min,
                   const Input& clip_value_max) {
  return OpBuilder(scope, "ClipByValue")
      .Input(t)
      .Input(clip_value_min)
      .Input(clip_value_max)
      .Finalize()
      .output(0);
}
Output Tile(const Scope& scope, const Input& input, const Input& multiples) {
  return Binary(scope, "Tile", input, multiples);
}
Output BroadcastTo(const Scope& scope, const Input& input, const Input& shape) {
  return Binary(scope, "BroadcastTo", input, shape);
}

Output Erfc(const Scope& scope, const Input& x) { return Unary(scope, "Erfc", x); }
Output Expm1(const Scope& scope, const Input& x) { return Unary(scope, "Expm1", x); }
Output Softsign(const Scope& scope, const Input& x) { return Unary(scope, "Softsign", x); }
Output Asinh(const Scope& scope, const Input& x) { return Unary(scope, "Asinh", x); }
Output Acosh(const Scope& scope, const Input& x) { return Unary(scope, "Acosh", x); }
Output Atanh(const Scope& scope, const Input& x) { return Unary(scope, "Atanh", x); }
Output Sinh(const Scope& scope, const Input& x) { return Unary(scope, "Sinh", x); }
Output Cosh(const Scope& scope, const Input& x) { return Unary(scope, "Cosh", x); }
Output Lgamma(const Scope& scope, const Input& x) { return Unary(scope, "Lgamma", x); }
Output Digamma(const Scope& scope, const Input& x) { return Unary(scope, "Digamma", x); }
Output Erfinv(const Scope& scope, const Input& x) { return Unary(scope, "Erfinv", x); }
Output Ndtri(const Scope& scope, const Input& x) { return Unary(scope, "Ndtri", x); }
Output BesselI0e(const Scope& scope, const Input& x) { return Unary(scope, "BesselI0e", x); }
Output BesselI1e(const Scope& scope, const Input& x) { return Unary(scope, "BesselI1e", x); }
Output IsFinite(const Scope& scope, const Input& x) { return Unary(scope, "IsFinite", x); }
Output BesselI0(const Scope& scope, const Input& x) { return Unary(scope, "BesselI0", x); }
Output BesselI1(const Scope& scope, const Input& x) { return Unary(scope, "BesselI1", x); }
Output BesselJ0(const Scope& scope, const Input& x) { return Unary(scope, "BesselJ0", x); }
Output BesselJ1(const Scope& scope, const Input& x) { return Unary(scope, "BesselJ1", x); }
Output BesselY0(const Scope& scope, const Input& x) { return Unary(scope, "BesselY0", x); }
Output BesselY1(const Scope& scope, const Input& x) { return Unary(scope, "BesselY1", x); }
Output BesselK0(const Scope& scope, const Input& x) { return Unary(scope, "BesselK0", x); }
Output BesselK1(const Scope& scope, const Input& x) { return Unary(scope, "BesselK1", x); }
Output BesselK0e(const Scope& scope, const Input& x) { return Unary(scope, "BesselK0e", x); }
Output BesselK1e(const Scope& scope, const Input& x) { return Unary(scope, "BesselK1e", x); }
Output Dawsn(const Scope& scope, const Input& x) { return Unary(scope, "Dawsn", x); }
Output Expint(const Scope& scope, const Input& x) { return Unary(scope, "Expint", x); }
Output FresnelCos(const Scope& scope, const Input& x) { return Unary(scope, "FresnelCos", x); }
Output FresnelSin(const Scope& scope, const Input& x) { return Unary(scope, "FresnelSin", x); }
Output Spence(const Scope& scope, const Input& x) { return Unary(scope, "Spence", x); }
Output Invert(const Scope& scope, const Input& x) { return Unary(scope, "Invert", x); }
Output Atan2(const Scope& scope, const Output& y, const Output& x) {
  return Binary(scope, "Atan2", y, x);
}
Output Xlogy(const Scope& scope, const Input& x, const Input& y) {
  return Binary(scope, "Xlogy", x, y);
}
Output Xdivy(const Scope& scope, const Input& x, const Input& y) {
  return Binary(scope, "Xdivy", x, y);
}
Output Xlog1py(const Scope& scope, const Input& x, const Input& y) {
  return Binary(scope, "Xlog1py", x, y);
}
Output Polygamma(const Scope& scope, const Input& a, const Input& x) {
  return Binary(scope, "Polygamma", a, x);
}
Output Igamma(const Scope& scope, const Input& a, const Input& x) {
  return Binary(scope, "Igamma", a, x);
}
Output Igammac(const Scope& scope, const Input& a, const Input& x) {
  return Binary(scope, "Igammac", a, x);
}
Output IgammaGradA(const Scope& scope, const Input& a, const Input& x) {
  return Binary(scope, "IgammaGradA", a, x);
}
Output Zeta(const Scope& scope, const Input& x, const Input& q) {
  return Binary(scope, "Zeta", x, q);
}
Output Betainc(const Scope& scope, const Input& a, const Input& b, const Input& x) {
  return OpBuilder(scope, "Betainc").Input(a).Input(b).Input(x).Finalize().output(0);
}
Output RandomGammaGrad(const Scope& scope, const Input& alpha, const Input& sample) {
  return Binary(scope, "RandomGammaGrad", alpha, sample);
}
Output TruncateDiv(const Scope& scope, const Input& x, const Input& y) {
  return Binary(scope, "TruncateDiv", x, y);
}
Output TruncateMod(const Scope& scope, const Input& x, const Input& y) {
  return Binary(scope, "TruncateMod", x, y);
}
Output Bucketize(const Scope& scope, const Input& input, const std::vector<float>& boundaries) {
  AttrValue list;
  for (float b : boundaries) list.mutable_list()->add_f(b);
  return OpBuilder(scope, "Bucketize").Input(input).Attr("boundaries", list).Finalize().output(0);
}
Output Cross(const Scope& scope, const Input& a, const Input& b) {
  return Binary(scope, "Cross", a, b);
}
Output Mod(const Scope& scope, const Input& x, const Input& y) {
  return Binary(scope, "Mod", x, y);
}
Output Atan(const Scope& scope, const Input& x) { return Unary(scope, "Atan", x); }
Output Asin(const Scope& scope, const Input& x) { return Unary(scope, "Asin", x); }
Output Acos(const Scope& scope, const Input& x) { return Unary(scope, "Acos", x); }
Output Tan(const Scope& scope, const Input& x) { return Unary(scope, "Tan", x); }
Output IsNan(const Scope& scope, const Input& x) { return Unary(scope, "IsNan", x); }
Output IsInf(const Scope& scope, const Input& x) { return Unary(scope, "IsInf", x); }
Output Rint(const Scope& scope, const Input& x) { return Unary(scope, "Rint", x); }
Output Inv(const Scope& scope, const Input& x) { return Unary(scope, "Inv", x); }
Output BitwiseAnd(const Scope& scope, const Output& x, const Output& y) {
  return Binary(scope, "BitwiseAnd", x, y);
}
Output BitwiseOr(const Scope& scope, const Input& x, const Input& y) {
  return Binary(scope, "BitwiseOr", x, y);
}
Output BitwiseXor(const Scope& scope, const Input& x, const Input& y) {
  return Binary(scope, "BitwiseXor", x, y);
}
Output LeftShift(const Scope& scope, const Input& x, const Input& y) {
  return Binary(scope, "LeftShift", x, y);
}
Output RightShift(const Scope& scope, const Input& x, const Input& y) {
  return Binary(scope, "RightShift", x, y);
}
Output Cumprod(const Scope& scope, const Input& x, const Input& axis, bool exclusive,
               bool reverse) {
  return Scan(scope, "Cumprod", x, axis, exclusive, reverse);
}
Output CumulativeLogsumexp(const Scope& scope, const Input& x, const Input& axis, bool exclusive,
                           bool reverse) {
  return Scan(scope, "CumulativeLogsumexp", x, axis, exclusive, reverse);
}
Output EuclideanNorm(const Scope& scope, const Input& input, const Input& axis, bool keep_dims) {
  return Reduction(scope, "EuclideanNorm", input, axis, keep_dims);
}
Output SegmentSum(const Scope& scope, const Input& data, const Input& segment_ids) {
  return Binary(scope, "SegmentSum", data, segment_ids);
}
Output SegmentMean(const Scope& scope, const Input& data, const Input& segment_ids) {
  return Binary(scope, "SegmentMean", data, segment_ids);
}
Output SegmentMax(const Scope& scope, const Input& data, const Input& segment_ids) {
  return Binary(scope, "SegmentMax", data, segment_ids);
}
Output SegmentMin(const Scope& scope, const Input& data, const Input& segment_ids) {
  return Binary(scope, "SegmentMin", data, segment_ids);
}
Output SegmentProd(const Scope& scope, const Input& data, const Input& segment_ids) {
  return Binary(scope, "SegmentProd", data, segment_ids);
}
Output UnsortedSegmentSum(const Scope& scope, const Input& data, const Input& segment_ids,
                          const Input& num_segments) {
  return OpBuilder(scope, "UnsortedSegmentSum")
      .Input(data)
      .Input(segment_ids)
      .Input(num_segments)
      .Finalize()
      .output(0);
}
Output UnsortedSegmentMax(const Scope& scope, const Input& data, const Input& segment_ids,
                          const Input& num_segments) {
  return OpBuilder(scope, "UnsortedSegmentMax")
      .Input(data)
      .Input(segment_ids)
      .Input(num_segments)
      .Finalize()
      .output(0);
}
Output UnsortedSegmentMin(const Scope& scope, const Input& data, const Input& segment_ids,
                          const Input& num_segments) {
  return OpBuilder(scope, "UnsortedSegmentMin")
      .Input(data)
      .Input(segment_ids)
      .Input(num_segments)
      .Finalize()
      .output(0);
}
Output UnsortedSegmentProd(const Scope& scope, const Input& data, const Input& segment_ids,
                           const Input& num_segments) {
  return OpBuilder(scope, "UnsortedSegmentProd")
      .Input(data)
      .Input(segment_ids)
      .Input(num_segments)
      .Finalize()
      .output(0);
}
Output SparseSegmentSum(const Scope& scope, const Input& data, const Input& indices,
                        const Input& segment_ids) {
  return OpBuilder(scope, "SparseSegmentSum")
      .Input(data)
      .Input(indices)
      .Input(segment_ids)
      .Finalize()
      .output(0);
}
Output SparseSegmentMean(const Scope& scope, const Input& data, const Input& indices,
                         const Input& segment_ids) {
  return OpBuilder(scope, "SparseSegmentMean")
      .Input(data)
      .Input(indices)
      .Input(segment_ids)
      .Finalize()
      .output(0);
}
Output SparseSegmentSqrtN(const Scope& scope, const Input& data, const Input& indices,
                          const Input& segment_ids) {
  return OpBuilder(scope, "SparseSegmentSqrtN")
      .Input(data)
      .Input(indices)
      .Input(segment_ids)
      .Finalize()
      .output(0);
}
Output SparseSegmentSumWithNumSegments(const Scope& scope, const Input& data, const Input& indices,
                                       const Input& segment_ids, const Input& num_segments) {
  return OpBuilder(scope, "SparseSegmentSumWithNumSegments")
      .Input(data)
      .Input(indices)
      .Input(segment_ids)
      .Input(num_segments)
      .Finalize()
      .output(0);
}
Output SparseSegmentMeanWithNumSegments(const Scope& scope, const Input& data, const Input& indices,
                                        const Input& segment_ids, const Input& num_segments) {
  return OpBuilder(scope, "SparseSegmentMeanWithNumSegments")
      .Input(data)
      .Input(indices)
      .Input(segment_ids)
      .Input(num_segments)
      .Finalize()
      .output(0);
}
Output SparseSegmentSqrtNWithNumSegments(const Scope& scope, const Input& data,
                                         const Input& indices, const Input& segment_ids,
                                         const Input& num_segments) {
  return OpBuilder(scope, "SparseSegmentSqrtNWithNumSegments")
      .Input(data)
      .Input(indices)
      .Input(segment_ids)
      .Input(num_segments)
      .Finalize()
      .output(0);
}
Output InTopKV2(const Scope& scope, const Input& predictions, const Input& targets,
                const Input& k) {
  return OpBuilder(scope, "InTopKV2")
      .Input(predictions)
      .Input(targets)
      .Input(k)
      .Finalize()
      .output(0);
}
Output BroadcastArgs(const Scope& scope, const Input& s0, const Input& s1) {
  return Binary(scope, "BroadcastArgs", s0, s1);
}
Output DenseBincount(const Scope& scope, const Input& input, const Input& size,
                     const Input& weights, bool binary_output) {
  return OpBuilder(scope, "DenseBincount")
      .Input(input)
      .Input(size)
      .Input(weights)
      .Attr("binary_output", binary_output)
      .Finalize()
      .output(0);
}
Output Bincount(const Scope& scope, const Input& arr, const Input& size, const Input& weights) {
  return OpBuilder(scope, "Bincount").Input(arr).Input(size).Input(weights).Finalize().output(0);
}

Output LowerBound(const Scope& scope, const Input& sorted_inputs, const Input& values,
                  DataType out_type) {
  return OpBuilder(scope, "LowerBound")
      .Input(sorted_inputs)
      .Input(values)
      .Attr("out_type", out_type)
      .Finalize()
      .output(0);
}
Output UpperBound(const Scope& scope, const Input& sorted_inputs, const Input& values,
                  DataType out_type) {
  return OpBuilder(scope, "UpperBound")
      .Input(sorted_inputs)
      .Input(values)
      .Attr("out_type", out_type)
      .Finalize()
      .output(0);
}
Output HistogramFixedWidth(const Scope& scope, const Input& values, const Input& value_range,
                           const Input& nbins, DataType dtype) {
  return OpBuilder(scope, "HistogramFixedWidth")
      .Input(values)
      .Input(value_range)
      .Input(nbins)
      .Attr("dtype", dtype)
      .Finalize()
      .output(0);
}

}  // namespace ops
}  // namespace rill
