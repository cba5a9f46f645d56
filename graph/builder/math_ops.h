// Builder wrappers for the elementwise math ops (TensorFlow's C++ API names): binary ops with
// numpy broadcasting take (scope, x, y), unary ops (scope, x). Included by graph/builder/ops.h.
//
//   Output d = ops::Sub(root, x, y);
//   Output r = ops::LeakyRelu(root, d, ops::LeakyReluAttrs().Alpha(0.1f));
//
// Errors are recorded in the scope (see op_builder.h). Thread safety: as Scope.
#ifndef RILL_GRAPH_BUILDER_MATH_OPS_H_
#define RILL_GRAPH_BUILDER_MATH_OPS_H_

#include <cstdint>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "core/partial_tensor_shape.h"
#include "graph/builder/input.h"
#include "graph/builder/scope.h"

namespace rill {
namespace ops {

Output Sub(const Scope& scope, const Input& x, const Input& y);
Output Mul(const Scope& scope, const Input& x, const Input& y);
Output Div(const Scope& scope, const Input& x, const Input& y);
Output RealDiv(const Scope& scope, const Input& x, const Input& y);
Output DivNoNan(const Scope& scope, const Input& x, const Input& y);
Output FloorDiv(const Scope& scope, const Input& x, const Input& y);
Output FloorMod(const Scope& scope, const Input& x, const Input& y);
Output Maximum(const Scope& scope, const Input& x, const Input& y);
Output Minimum(const Scope& scope, const Input& x, const Input& y);
Output Pow(const Scope& scope, const Input& x, const Input& y);
Output SquaredDifference(const Scope& scope, const Input& x, const Input& y);
Output Less(const Scope& scope, const Input& x, const Input& y);
Output LessEqual(const Scope& scope, const Input& x, const Input& y);
Output Greater(const Scope& scope, const Input& x, const Input& y);
Output GreaterEqual(const Scope& scope, const Input& x, const Input& y);
Output Equal(const Scope& scope, const Input& x, const Input& y);
Output NotEqual(const Scope& scope, const Input& x, const Input& y);
Output LogicalAnd(const Scope& scope, const Input& x, const Input& y);
Output LogicalOr(const Scope& scope, const Input& x, const Input& y);

Output Neg(const Scope& scope, const Input& x);
Output Abs(const Scope& scope, const Input& x);
Output Sign(const Scope& scope, const Input& x);
Output Square(const Scope& scope, const Input& x);
Output Sqrt(const Scope& scope, const Input& x);
Output Rsqrt(const Scope& scope, const Input& x);
Output Exp(const Scope& scope, const Input& x);
Output Log(const Scope& scope, const Input& x);
Output Log1p(const Scope& scope, const Input& x);
Output Sin(const Scope& scope, const Input& x);
Output Cos(const Scope& scope, const Input& x);
Output Tanh(const Scope& scope, const Input& x);
Output Sigmoid(const Scope& scope, const Input& x);
Output Relu(const Scope& scope, const Input& x);
Output Relu6(const Scope& scope, const Input& x);
Output Elu(const Scope& scope, const Input& x);
Output Selu(const Scope& scope, const Input& x);
Output Softplus(const Scope& scope, const Input& x);
Output Floor(const Scope& scope, const Input& x);
Output Ceil(const Scope& scope, const Input& x);
Output Round(const Scope& scope, const Input& x);
Output Reciprocal(const Scope& scope, const Input& x);
Output Erf(const Scope& scope, const Input& x);
Output LogicalNot(const Scope& scope, const Input& x);

// Shape and layout (graph/builder/math_ops.cc too; index inputs are int32 Outputs).
Output Shape(const Scope& scope, const Input& input, DataType out_type = DT_INT32);
Output Size(const Scope& scope, const Input& input, DataType out_type = DT_INT32);
Output Rank(const Scope& scope, const Input& input);
Output Reshape(const Scope& scope, const Output& tensor, const Output& shape);
Output ExpandDims(const Scope& scope, const Input& input, const Input& axis);
Output Squeeze(const Scope& scope, const Input& input, const std::vector<int64_t>& axis = {});
Output Fill(const Scope& scope, const Input& dims, const Input& value);
// Empty: a tensor of `dtype` and the int32 vector `shape` (zeros in Rill).
Output Empty(const Scope& scope, const Input& shape, DataType dtype, bool init = false);
Output ZerosLike(const Scope& scope, const Input& x);
Output OnesLike(const Scope& scope, const Input& x);
Output StopGradient(const Scope& scope, const Output& input);
Output PreventGradient(const Scope& scope, const Input& input);
Output Snapshot(const Scope& scope, const Input& input);
// EnsureShape: `input`, checked at run time against `shape` (-1 dims match any size).
Output EnsureShape(const Scope& scope, const Input& input, const PartialTensorShape& shape);
Output Cast(const Scope& scope, const Input& x, DataType dst);
// Bitcast: x's bytes read as `type` (shape as TensorFlow's: see kernels/array/bitcast_op.cc).
Output Bitcast(const Scope& scope, const Input& x, DataType type);
std::vector<Output> ShapeN(const Scope& scope, absl::Span<const Output> inputs,
                           DataType out_type = DT_INT32);
// Layout ops (kernels/array/transpose_op.cc, concat_op.cc, split_op.cc, slice_op.cc, pad_op.cc,
// strided_slice_op.cc). Index operands are Outputs (int32 or int64).
Output Transpose(const Scope& scope, const Input& x, const Input& perm);
Output ConcatV2(const Scope& scope, absl::Span<const Output> values, const Input& axis);
// Concat: the axis (`concat_dim`, int32) first.
Output Concat(const Scope& scope, const Input& concat_dim, absl::Span<const Output> values);
// ConcatOffset: where each of `shapes` starts in their concat along concat_dim.
std::vector<Output> ConcatOffset(const Scope& scope, const Input& concat_dim,
                                 absl::Span<const Output> shapes);
Output Pack(const Scope& scope, absl::Span<const Output> values, int64_t axis = 0);
std::vector<Output> Unpack(const Scope& scope, const Input& value, int64_t num, int64_t axis = 0);
std::vector<Output> Split(const Scope& scope, const Input& split_dim, const Input& value,
                          int64_t num_split);
std::vector<Output> SplitV(const Scope& scope, const Input& value, const Input& size_splits,
                           const Input& split_dim, int64_t num_split);
Output Slice(const Scope& scope, const Input& input, const Input& begin, const Input& size);
// input with `update` written at `indices` (each clamped so the update fits): XLA's
// DynamicUpdateSlice, what Keras 3's ops.slice_update freezes to.
Output XlaDynamicUpdateSlice(const Scope& scope, const Input& input, const Input& update,
                             const Input& indices);
struct StridedSliceMasks {
  int64_t begin = 0, end = 0, ellipsis = 0, new_axis = 0, shrink_axis = 0;
};
Output StridedSlice(const Scope& scope, const Input& input, const Output& begin, const Output& end,
                    const Input& strides, const StridedSliceMasks& masks = {});
Output Pad(const Scope& scope, const Input& input, const Input& paddings);
Output PadV2(const Scope& scope, const Input& input, const Input& paddings,
             const Input& constant_values);
// mode: "REFLECT" or "SYMMETRIC".
Output MirrorPad(const Scope& scope, const Input& input, const Input& paddings,
                 absl::string_view mode);

// Reductions over `axis` (an int32 Output: scalar or vector).
Output Sum(const Scope& scope, const Output& input, const Output& axis, bool keep_dims = false);
Output Mean(const Scope& scope, const Output& input, const Output& axis, bool keep_dims = false);
Output Prod(const Scope& scope, const Output& input, const Output& axis, bool keep_dims = false);
Output Max(const Scope& scope, const Output& input, const Output& axis, bool keep_dims = false);
Output Min(const Scope& scope, const Output& input, const Output& axis, bool keep_dims = false);
Output All(const Scope& scope, const Output& input, const Output& axis, bool keep_dims = false);
Output Any(const Scope& scope, const Output& input, const Output& axis, bool keep_dims = false);
// The index of the largest / smallest element along `axis` (an int32 scalar Output).
Output ArgMax(const Scope& scope, const Input& input, const Input& axis,
              DataType output_type = DT_INT64);
Output ArgMin(const Scope& scope, const Input& input, const Input& axis,
              DataType output_type = DT_INT64);
Output Cumsum(const Scope& scope, const Input& x, const Input& axis, bool exclusive = false,
              bool reverse = false);

// Three-operand elementwise ops (kernels/math/select_op.cc, clip_op.cc) and repetition
// (kernels/array/tile_ops.cc).
Output Select(const Scope& scope, const Input& condition, const Input& t, const Input& e);
Output SelectV2(const Scope& scope, const Input& condition, const Input& t, const Input& e);
Output ClipByValue(const Scope& scope, const Input& t, const Input& clip_value_min,
                   const Input& clip_value_max);
Output Tile(const Scope& scope, const Input& input, const Input& multiples);
Output BroadcastTo(const Scope& scope, const Input& input, const Input& shape);

struct LeakyReluAttrs {
  LeakyReluAttrs Alpha(float x) const {
    LeakyReluAttrs r = *this;
    r.alpha = x;
    return r;
  }
  float alpha = 0.2f;
};
Output LeakyRelu(const Scope& scope, const Input& features, const LeakyReluAttrs& attrs = {});

// Special functions, inverse hyperbolics and bitwise ops (kernels/math/cwise_unary_op.cc,
// cwise_special_op.cc, cwise_binary_op.cc, bitwise_ops.cc).
Output Erfc(const Scope& scope, const Input& x);
Output Expm1(const Scope& scope, const Input& x);
Output Softsign(const Scope& scope, const Input& x);
Output Asinh(const Scope& scope, const Input& x);
Output Acosh(const Scope& scope, const Input& x);
Output Atanh(const Scope& scope, const Input& x);
Output Sinh(const Scope& scope, const Input& x);
Output Cosh(const Scope& scope, const Input& x);
Output Lgamma(const Scope& scope, const Input& x);
Output Digamma(const Scope& scope, const Input& x);
Output Erfinv(const Scope& scope, const Input& x);
Output Ndtri(const Scope& scope, const Input& x);
Output BesselI0e(const Scope& scope, const Input& x);
Output BesselI1e(const Scope& scope, const Input& x);
// tf.math.special: Bessel functions of the first, second and modified kinds, Dawson's integral,
// the exponential integral Ei, the Fresnel integrals and Spence's function.
Output BesselI0(const Scope& scope, const Input& x);
Output BesselI1(const Scope& scope, const Input& x);
Output BesselJ0(const Scope& scope, const Input& x);
Output BesselJ1(const Scope& scope, const Input& x);
Output BesselY0(const Scope& scope, const Input& x);
Output BesselY1(const Scope& scope, const Input& x);
Output BesselK0(const Scope& scope, const Input& x);
Output BesselK1(const Scope& scope, const Input& x);
Output BesselK0e(const Scope& scope, const Input& x);
Output BesselK1e(const Scope& scope, const Input& x);
Output Dawsn(const Scope& scope, const Input& x);
Output Expint(const Scope& scope, const Input& x);
Output FresnelCos(const Scope& scope, const Input& x);
Output FresnelSin(const Scope& scope, const Input& x);
Output Spence(const Scope& scope, const Input& x);
Output IsFinite(const Scope& scope, const Input& x);
Output Invert(const Scope& scope, const Input& x);
// Atan2 takes y first, as TensorFlow's op: atan2(y, x).
Output Atan2(const Scope& scope, const Output& y, const Output& x);
Output Xlogy(const Scope& scope, const Input& x, const Input& y);
Output Xdivy(const Scope& scope, const Input& x, const Input& y);
Output Xlog1py(const Scope& scope, const Input& x, const Input& y);
// Polygamma(a, x): the a-th derivative of Digamma at x (a a non-negative integer order).
Output Polygamma(const Scope& scope, const Input& a, const Input& x);
// The regularized incomplete gamma functions P(a, x) and Q(a, x) = 1 - P(a, x), and dP/da.
Output Igamma(const Scope& scope, const Input& a, const Input& x);
Output Igammac(const Scope& scope, const Input& a, const Input& x);
Output IgammaGradA(const Scope& scope, const Input& a, const Input& x);
// The Hurwitz zeta function sum_k (q + k)^-x.
Output Zeta(const Scope& scope, const Input& x, const Input& q);
// The regularized incomplete beta function I_x(a, b); operands scalar or of one shape.
Output Betainc(const Scope& scope, const Input& a, const Input& b, const Input& x);
// The derivative of gamma samples in alpha (tf.random.gamma's gradient).
Output RandomGammaGrad(const Scope& scope, const Input& alpha, const Input& sample);
Output TruncateDiv(const Scope& scope, const Input& x, const Input& y);
Output TruncateMod(const Scope& scope, const Input& x, const Input& y);
// Bucketize: per value, how many of the sorted `boundaries` are <= it (int32).
Output Bucketize(const Scope& scope, const Input& input, const std::vector<float>& boundaries);
// Cross: the cross products of the 3-vectors in a's and b's last dim.
Output Cross(const Scope& scope, const Input& a, const Input& b);
Output Mod(const Scope& scope, const Input& x, const Input& y);
Output Atan(const Scope& scope, const Input& x);
Output Asin(const Scope& scope, const Input& x);
Output Acos(const Scope& scope, const Input& x);
Output Tan(const Scope& scope, const Input& x);
Output IsNan(const Scope& scope, const Input& x);
Output IsInf(const Scope& scope, const Input& x);
Output Rint(const Scope& scope, const Input& x);
// Inv: TensorFlow's deprecated name for Reciprocal.
Output Inv(const Scope& scope, const Input& x);
Output BitwiseAnd(const Scope& scope, const Output& x, const Output& y);
Output BitwiseOr(const Scope& scope, const Input& x, const Input& y);
Output BitwiseXor(const Scope& scope, const Input& x, const Input& y);
Output LeftShift(const Scope& scope, const Input& x, const Input& y);
Output RightShift(const Scope& scope, const Input& x, const Input& y);
// Scans like Cumsum, and sqrt(sum(x * x)) over `axis` (kernels/math/scan_ops.cc,
// reduction_ops.cc).
Output Cumprod(const Scope& scope, const Input& x, const Input& axis, bool exclusive = false,
               bool reverse = false);
Output CumulativeLogsumexp(const Scope& scope, const Input& x, const Input& axis,
                           bool exclusive = false, bool reverse = false);
Output EuclideanNorm(const Scope& scope, const Input& input, const Input& axis,
                     bool keep_dims = false);
// Segment reductions (kernels/math/segment_ops.cc): sorted ids, ids with num_segments, and rows
// picked by indices.
Output SegmentSum(const Scope& scope, const Input& data, const Input& segment_ids);
Output SegmentMean(const Scope& scope, const Input& data, const Input& segment_ids);
Output SegmentMax(const Scope& scope, const Input& data, const Input& segment_ids);
Output SegmentMin(const Scope& scope, const Input& data, const Input& segment_ids);
Output SegmentProd(const Scope& scope, const Input& data, const Input& segment_ids);
Output UnsortedSegmentSum(const Scope& scope, const Input& data, const Input& segment_ids,
                          const Input& num_segments);
Output UnsortedSegmentMax(const Scope& scope, const Input& data, const Input& segment_ids,
                          const Input& num_segments);
Output UnsortedSegmentMin(const Scope& scope, const Input& data, const Input& segment_ids,
                          const Input& num_segments);
Output UnsortedSegmentProd(const Scope& scope, const Input& data, const Input& segment_ids,
                           const Input& num_segments);
Output SparseSegmentSum(const Scope& scope, const Input& data, const Input& indices,
                        const Input& segment_ids);
Output SparseSegmentMean(const Scope& scope, const Input& data, const Input& indices,
                         const Input& segment_ids);
Output SparseSegmentSqrtN(const Scope& scope, const Input& data, const Input& indices,
                          const Input& segment_ids);
// The same with the output's row count given (rows no id names are 0).
Output SparseSegmentSumWithNumSegments(const Scope& scope, const Input& data, const Input& indices,
                                       const Input& segment_ids, const Input& num_segments);
Output SparseSegmentMeanWithNumSegments(const Scope& scope, const Input& data, const Input& indices,
                                        const Input& segment_ids, const Input& num_segments);
Output SparseSegmentSqrtNWithNumSegments(const Scope& scope, const Input& data,
                                         const Input& indices, const Input& segment_ids,
                                         const Input& num_segments);
// Counting and shape ops (kernels/math/count_ops.cc).
Output InTopKV2(const Scope& scope, const Input& predictions, const Input& targets, const Input& k);
Output BroadcastArgs(const Scope& scope, const Input& s0, const Input& s1);
Output DenseBincount(const Scope& scope, const Input& input, const Input& size,
                     const Input& weights, bool binary_output = false);
// Bincount: int32 `arr` of any rank counted (or weighted) into `size` bins.
Output Bincount(const Scope& scope, const Input& arr, const Input& size, const Input& weights);

// Per value, the first index of sorted_inputs' row whose element is >= it (LowerBound) or > it
// (UpperBound): tf.searchsorted, row by row.
Output LowerBound(const Scope& scope, const Input& sorted_inputs, const Input& values,
                  DataType out_type = DT_INT32);
Output UpperBound(const Scope& scope, const Input& sorted_inputs, const Input& values,
                  DataType out_type = DT_INT32);
// Counts of values in nbins equal bins over value_range [lo, hi] (outer values in the end bins).
Output HistogramFixedWidth(const Scope& scope, const Input& values, const Input& value_range,
                           const Input& nbins, DataType dtype = DT_INT32);

}  // namespace ops
}  // namespace rill

#endif  // RILL_GRAPH_BUILDER_MATH_OPS_H_
