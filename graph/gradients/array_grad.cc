// Gradients of the array ops (ops/array_ops.cc, shape_ops.cc, layout_ops.cc, index_ops.cc,
// tile_ops.cc, rearrange_ops.cc, space_batch_ops.cc, scatter_nd_ops.cc, segment_ops.cc,
// sparse_ops.cc) and the NotDifferentiable registrations of the random, string and check ops.
// Formulas are TensorFlow's (array_grad.py, math_grad.py, sparse_grad.py); see grad_registry.h
// for the contract of a gradient function.
//
// Index-selecting ops whose TensorFlow gradient needs a kernel Rill lacks (StridedSliceGrad,
// MirrorPadGrad) or a batch-aware scatter (GatherV2 with batch_dims) route the gradient through
// an "iota": the forward op applied to the flat positions 0..n-1 of the input names, for every
// output element, the input element it came from; the gradient is the output gradient summed
// into those positions (UnsortedSegmentSum), which adds up repeated reads as TensorFlow's
// kernels do.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "core/status_macros.h"
#include "core/types.h"
#include "graph/builder/op_builder.h"
#include "graph/builder/ops.h"
#include "graph/gradients/grad_helpers.h"
#include "graph/gradients/grad_registry.h"

namespace rill {
namespace {

using Grads = std::vector<Output>;
using GradSpan = absl::Span<const Output>;

// Ops no gradient flows through (TensorFlow's NotDifferentiable).
RILL_REGISTER_NO_GRADIENT("StopGradient");
RILL_REGISTER_NO_GRADIENT("Shape");
RILL_REGISTER_NO_GRADIENT("ShapeN");
RILL_REGISTER_NO_GRADIENT("Size");
RILL_REGISTER_NO_GRADIENT("Rank");
RILL_REGISTER_NO_GRADIENT("Const");
RILL_REGISTER_NO_GRADIENT("ZerosLike");
RILL_REGISTER_NO_GRADIENT("OnesLike");
RILL_REGISTER_NO_GRADIENT("BroadcastGradientArgs");
RILL_REGISTER_NO_GRADIENT("InvertPermutation");
RILL_REGISTER_NO_GRADIENT("Range");
RILL_REGISTER_NO_GRADIENT("LinSpace");
RILL_REGISTER_NO_GRADIENT("ConcatOffset");
RILL_REGISTER_NO_GRADIENT("OneHot");
// Checks, strings, summaries and random sampling (TensorFlow marks them NotDifferentiable).
RILL_REGISTER_NO_GRADIENT("Assert");
RILL_REGISTER_NO_GRADIENT("AsString");
RILL_REGISTER_NO_GRADIENT("ReduceJoin");
RILL_REGISTER_NO_GRADIENT("RegexReplace");
RILL_REGISTER_NO_GRADIENT("StringJoin");
RILL_REGISTER_NO_GRADIENT("StringToHashBucketFast");
RILL_REGISTER_NO_GRADIENT("StringToHashBucket");
RILL_REGISTER_NO_GRADIENT("StringToHashBucketStrong");
RILL_REGISTER_NO_GRADIENT("EncodeBase64");
RILL_REGISTER_NO_GRADIENT("DecodeBase64");
RILL_REGISTER_NO_GRADIENT("DecodeRaw");
RILL_REGISTER_NO_GRADIENT("TensorSummary");
// Image codecs: strings in or out, integer pixels (TensorFlow registers nothing for them; no
// gradient flows through their dtypes).
RILL_REGISTER_NO_GRADIENT("DecodeJpeg");
RILL_REGISTER_NO_GRADIENT("DecodeAndCropJpeg");
RILL_REGISTER_NO_GRADIENT("DecodePng");
RILL_REGISTER_NO_GRADIENT("DecodeImage");
RILL_REGISTER_NO_GRADIENT("DecodeBmp");
RILL_REGISTER_NO_GRADIENT("DecodeGif");
RILL_REGISTER_NO_GRADIENT("ExtractJpegShape");
RILL_REGISTER_NO_GRADIENT("EncodePng");
RILL_REGISTER_NO_GRADIENT("EncodeJpeg");
RILL_REGISTER_NO_GRADIENT("HashTableV2");
RILL_REGISTER_NO_GRADIENT("MutableHashTableV2");
RILL_REGISTER_NO_GRADIENT("InitializeTableV2");
RILL_REGISTER_NO_GRADIENT("LookupTableFindV2");
RILL_REGISTER_NO_GRADIENT("LookupTableInsertV2");
RILL_REGISTER_NO_GRADIENT("LookupTableSizeV2");
RILL_REGISTER_NO_GRADIENT("InitializeTableFromTextFileV2");
RILL_REGISTER_NO_GRADIENT("StringToNumber");
RILL_REGISTER_NO_GRADIENT("RandomShuffle");
RILL_REGISTER_NO_GRADIENT("RandomStandardNormal");
RILL_REGISTER_NO_GRADIENT("RandomUniform");
RILL_REGISTER_NO_GRADIENT("TruncatedNormal");
RILL_REGISTER_NO_GRADIENT("Multinomial");
RILL_REGISTER_NO_GRADIENT("StatelessRandomUniform");
RILL_REGISTER_NO_GRADIENT("StatelessRandomNormal");
RILL_REGISTER_NO_GRADIENT("StatelessTruncatedNormal");
RILL_REGISTER_NO_GRADIENT("StatelessRandomUniformInt");
RILL_REGISTER_NO_GRADIENT("StatelessRandomUniformV2");
RILL_REGISTER_NO_GRADIENT("StatelessRandomNormalV2");
RILL_REGISTER_NO_GRADIENT("StatelessTruncatedNormalV2");
RILL_REGISTER_NO_GRADIENT("StatelessRandomUniformIntV2");
RILL_REGISTER_NO_GRADIENT("StatelessMultinomial");
RILL_REGISTER_NO_GRADIENT("StatelessRandomPoisson");
RILL_REGISTER_NO_GRADIENT("StatelessRandomBinomial");
RILL_REGISTER_NO_GRADIENT("StatelessShuffle");

// --- Building blocks -------------------------------------------------------------------------

Output I32(const Scope& s, int v) { return ops::Const(s, v); }

Output CastTo(const Scope& s, const Output& x, DataType dtype) {
  if (BaseType(x.dtype()) == dtype) return x;
  return ops::Cast(s, x, dtype);
}

// One node of `type` with `inputs` (a list arg as one entry of several), and the attrs of the
// forward op named in `copy` (those it has).
Output Build(const Scope& s, absl::string_view type, const std::vector<std::vector<Output>>& inputs,
             const GradOp& op, std::initializer_list<const char*> copy) {
  OpBuilder b(s, type);
  for (const std::vector<Output>& in : inputs) {
    if (in.size() == 1) {
      b.Input(in[0]);
    } else {
      b.InputList(in);
    }
  }
  for (const char* name : copy) {
    auto it = op.node.attr().find(name);
    if (it != op.node.attr().end()) b.Attr(name, it->second);
  }
  return b.Finalize().output(0);
}

// Rill's UnsortedSegmentSum and ScatterNd kernels take real types: a complex gradient is
// summed as its real and imaginary parts. `sum` builds the real-typed sum of one part.
Output SumByParts(const Scope& s, const Output& x,
                  const std::function<Output(const Output&)>& sum) {
  const DataType t = BaseType(x.dtype());
  if (t != DT_COMPLEX64 && t != DT_COMPLEX128) return sum(x);
  const DataType part = t == DT_COMPLEX64 ? DT_FLOAT : DT_DOUBLE;
  auto component = [&](const char* type) {
    return OpBuilder(s, type).Input(x).Attr("Tout", part).Finalize().output(0);
  };
  return OpBuilder(s, "Complex")
      .Input(sum(component("Real")))
      .Input(sum(component("Imag")))
      .Attr("Tout", t)
      .Finalize()
      .output(0);
}

Output SegmentSumOf(const Scope& s, const Output& data, const Output& ids, const Output& n) {
  return SumByParts(s, data,
                    [&](const Output& d) { return ops::UnsortedSegmentSum(s, d, ids, n); });
}

Output ScatterNdOf(const Scope& s, const Output& indices, const Output& updates,
                   const Output& shape) {
  return SumByParts(s, updates,
                    [&](const Output& u) { return ops::ScatterNd(s, indices, u, shape); });
}

// The flat positions 0..size-1 of x, in x's shape (int32).
Output Iota(const Scope& s, const Output& x) {
  return ops::Reshape(s, ops::Range(s, I32(s, 0), ops::Size(s, x), I32(s, 1)), ops::Shape(s, x));
}

// The gradient of x given `positions` (an iota of x passed through the forward op) and the
// output gradient `g` of positions' shape: g summed into x's flat positions.
Output ScatterToPositions(const Scope& s, const Output& x, const Output& positions,
                          const Output& g) {
  Output flat_g = ops::Reshape(s, g, ops::Const(s, {-1}));
  Output flat_pos = ops::Reshape(s, positions, ops::Const(s, {-1}));
  return ops::Reshape(s, SegmentSumOf(s, flat_g, flat_pos, ops::Size(s, x)), ops::Shape(s, x));
}

// Element `i` (an int32 scalar Output) of vector v.
Output ElementOf(const Scope& s, const Output& v, const Output& i) { return ops::Gather(s, v, i); }

absl::Status Ok(Grads* out, Grads grads) {
  *out = std::move(grads);
  return absl::OkStatus();
}

// --- Shape changes ----------------------------------------------------------------------------

absl::Status ReshapeLikeInputGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  Output dx = ops::Reshape(s, g[0], ops::Shape(s, op.inputs[0]));
  if (op.inputs.size() == 1) return Ok(out, {dx});
  return Ok(out, {dx, Output()});
}
RILL_REGISTER_GRADIENT("Reshape", ReshapeLikeInputGrad);
RILL_REGISTER_GRADIENT("ExpandDims", ReshapeLikeInputGrad);
RILL_REGISTER_GRADIENT("Squeeze", ReshapeLikeInputGrad);

absl::Status TransposeGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return Ok(out, {ops::Transpose(s, g[0], ops::InvertPermutation(s, op.inputs[1])), Output()});
}
RILL_REGISTER_GRADIENT("Transpose", TransposeGrad);

// Gradients pass through unchanged.
absl::Status PassThroughGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = Grads(op.inputs.size());
  for (size_t i = 0; i < g.size() && i < out->size(); ++i) (*out)[i] = g[i];
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("IdentityN", PassThroughGrad);
RILL_REGISTER_GRADIENT("PlaceholderWithDefault", PassThroughGrad);
RILL_REGISTER_GRADIENT("RefIdentity", PassThroughGrad);
RILL_REGISTER_GRADIENT("EnsureShape", PassThroughGrad);
// Print's data inputs get none.
RILL_REGISTER_GRADIENT("Print", PassThroughGrad);

absl::Status CheckNumericsGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  RILL_ASSIGN_OR_RETURN(std::string message, op.GetString("message"));
  return Ok(out,
            {ops::CheckNumerics(
                s, g[0],
                absl::StrCat("Not a number (NaN) or infinity (Inf) values detected in gradient. ",
                             message))});
}
RILL_REGISTER_GRADIENT("CheckNumerics", CheckNumericsGrad);

// TensorFlow raises LookupError with this text; Rill returns it as InvalidArgument.
absl::Status PreventGradientGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  RILL_ASSIGN_OR_RETURN(std::string message, op.GetString("message"));
  return absl::InvalidArgumentError(absl::StrCat("Gradient explicitly disabled. Reason: ", message,
                                                 " (node '", op.name(), "', PreventGradient)"));
}
RILL_REGISTER_GRADIENT("PreventGradient", PreventGradientGrad);

// --- Joining and splitting --------------------------------------------------------------------

// The gradient split back into the n values' sizes along the axis; the values are inputs
// [first, first + n), the axis input `axis_index` gets none.
absl::Status SplitConcatGrad(const Scope& s, const GradOp& op, GradSpan g, int first,
                             int axis_index, Grads* out) {
  const int n = static_cast<int>(op.inputs.size()) - 1;
  Output rank = ops::Rank(s, op.inputs[first]);
  Output axis = ops::FloorMod(s, CastTo(s, op.inputs[axis_index], DT_INT32), rank);
  Output axis_vec = ops::Reshape(s, axis, ops::Const(s, {1}));
  std::vector<Output> sizes;
  for (int i = 0; i < n; ++i) {
    sizes.push_back(
        ops::Slice(s, ops::Shape(s, op.inputs[first + i]), axis_vec, ops::Const(s, {1})));
  }
  Output size_splits = ops::ConcatV2(s, sizes, I32(s, 0));
  Grads split = ops::SplitV(s, g[0], size_splits, axis, n);
  split.resize(n);
  split.insert(axis_index < first ? split.begin() : split.end(), Output());
  *out = std::move(split);
  return absl::OkStatus();
}
absl::Status ConcatV2Grad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const int n = static_cast<int>(op.inputs.size()) - 1;
  return SplitConcatGrad(s, op, g, 0, n, out);
}
RILL_REGISTER_GRADIENT("ConcatV2", ConcatV2Grad);
// Concat: concat_dim first, then the values.
absl::Status ConcatGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return SplitConcatGrad(s, op, g, 1, 0, out);
}
RILL_REGISTER_GRADIENT("Concat", ConcatGrad);

absl::Status PackGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  RILL_ASSIGN_OR_RETURN(int64_t axis, op.GetInt("axis"));
  *out = ops::Unpack(s, g[0], static_cast<int64_t>(op.inputs.size()), axis);
  out->resize(op.inputs.size());
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Pack", PackGrad);

absl::Status UnpackGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  RILL_ASSIGN_OR_RETURN(int64_t axis, op.GetInt("axis"));
  return Ok(out, {ops::Pack(s, g, axis)});
}
RILL_REGISTER_GRADIENT("Unpack", UnpackGrad);

absl::Status SplitGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return Ok(out, {Output(), ops::ConcatV2(s, g, op.inputs[0])});
}
RILL_REGISTER_GRADIENT("Split", SplitGrad);

absl::Status SplitVGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return Ok(out, {ops::ConcatV2(s, g, op.inputs[2]), Output(), Output()});
}
RILL_REGISTER_GRADIENT("SplitV", SplitVGrad);

// --- Slicing and padding ----------------------------------------------------------------------

// Slice: the gradient padded back to the input's shape.
absl::Status SliceGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& begin = op.inputs[1];
  const DataType dt = BaseType(begin.dtype());
  Output input_shape = ops::Shape(s, op.inputs[0], dt);
  Output slice_size = ops::Shape(s, op.outputs[0], dt);
  Output column = ops::Const(s, {-1, 1});
  Output before = ops::Reshape(s, begin, column);
  Output after = ops::Reshape(s, ops::Sub(s, ops::Sub(s, input_shape, slice_size), begin), column);
  Output paddings = ops::ConcatV2(s, {before, after}, I32(s, 1));
  return Ok(out, {ops::Pad(s, g[0], paddings), Output(), Output()});
}
RILL_REGISTER_GRADIENT("Slice", SliceGrad);

absl::Status StridedSliceGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& x = op.inputs[0];
  Output positions =
      Build(s, "StridedSlice", {{Iota(s, x)}, {op.inputs[1]}, {op.inputs[2]}, {op.inputs[3]}}, op,
            {"begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask"});
  return Ok(out, {ScatterToPositions(s, x, positions, g[0]), Output(), Output(), Output()});
}
RILL_REGISTER_GRADIENT("StridedSlice", StridedSliceGrad);

// Pad / PadV2: the slice of the gradient the input occupies; constant_values gets none.
absl::Status PadGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& paddings = op.inputs[1];
  Output before =
      ops::Reshape(s, ops::Slice(s, paddings, ops::Const(s, {0, 0}), ops::Const(s, {-1, 1})),
                   ops::Const(s, {-1}));
  Output dx = ops::Slice(s, g[0], before, ops::Shape(s, op.inputs[0], BaseType(paddings.dtype())));
  Grads grads = {dx, Output()};
  if (op.inputs.size() == 3) grads.push_back(Output());
  return Ok(out, std::move(grads));
}
RILL_REGISTER_GRADIENT("Pad", PadGrad);
RILL_REGISTER_GRADIENT("PadV2", PadGrad);

absl::Status MirrorPadGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& x = op.inputs[0];
  Output positions = Build(s, "MirrorPad", {{Iota(s, x)}, {op.inputs[1]}}, op, {"mode"});
  return Ok(out, {ScatterToPositions(s, x, positions, g[0]), Output()});
}
RILL_REGISTER_GRADIENT("MirrorPad", MirrorPadGrad);

// --- Repetition and broadcasting --------------------------------------------------------------

// Tile: the gradient reshaped to [m0, d0, m1, d1, ...] and summed over the m axes.
absl::Status TileGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& multiples = op.inputs[1];
  Output input_shape = ops::Shape(s, op.inputs[0], BaseType(multiples.dtype()));
  Output split_shape = ops::Reshape(
      s, ops::Transpose(s, ops::Pack(s, {multiples, input_shape}), ops::Const(s, {1, 0})),
      ops::Const(s, {-1}));
  Output axes = ops::Range(s, I32(s, 0), ops::Size(s, split_shape), I32(s, 2));
  return Ok(out, {ops::Sum(s, ops::Reshape(s, g[0], split_shape), axes), Output()});
}
RILL_REGISTER_GRADIENT("Tile", TileGrad);

absl::Status BroadcastToGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& shape = op.inputs[1];
  Output input_shape = ops::Shape(s, op.inputs[0], BaseType(shape.dtype()));
  auto r = ops::BroadcastGradientArgs(s, shape, input_shape);
  Output summed = ops::Sum(s, g[0], r.r1, /*keep_dims=*/true);
  return Ok(out, {ops::Reshape(s, summed, input_shape), Output()});
}
RILL_REGISTER_GRADIENT("BroadcastTo", BroadcastToGrad);

absl::Status FillGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  Output all = ops::Range(s, I32(s, 0), ops::Rank(s, g[0]), I32(s, 1));
  return Ok(out, {Output(), ops::Sum(s, g[0], all)});
}
RILL_REGISTER_GRADIENT("Fill", FillGrad);

// --- Reordering -------------------------------------------------------------------------------

absl::Status ReverseV2Grad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return Ok(out, {ops::ReverseV2(s, g[0], op.inputs[1]), Output()});
}
RILL_REGISTER_GRADIENT("ReverseV2", ReverseV2Grad);
absl::Status ReverseGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return Ok(out, {ops::Reverse(s, g[0], op.inputs[1]), Output()});
}
RILL_REGISTER_GRADIENT("Reverse", ReverseGrad);

absl::Status ReverseSequenceGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return Ok(out,
            {Build(s, "ReverseSequence", {{g[0]}, {op.inputs[1]}}, op, {"seq_dim", "batch_dim"}),
             Output()});
}
RILL_REGISTER_GRADIENT("ReverseSequence", ReverseSequenceGrad);

absl::Status RollGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return Ok(out, {ops::Roll(s, g[0], ops::Neg(s, op.inputs[1]), op.inputs[2]), Output(), Output()});
}
RILL_REGISTER_GRADIENT("Roll", RollGrad);

absl::Status SpaceToBatchNDGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return Ok(out, {ops::BatchToSpaceND(s, g[0], op.inputs[1], op.inputs[2]), Output(), Output()});
}
RILL_REGISTER_GRADIENT("SpaceToBatchND", SpaceToBatchNDGrad);

absl::Status BatchToSpaceNDGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return Ok(out, {ops::SpaceToBatchND(s, g[0], op.inputs[1], op.inputs[2]), Output(), Output()});
}
RILL_REGISTER_GRADIENT("BatchToSpaceND", BatchToSpaceNDGrad);

absl::Status SpaceToBatchGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return Ok(out,
            {Build(s, "BatchToSpace", {{g[0]}, {op.inputs[1]}}, op, {"block_size"}), Output()});
}
RILL_REGISTER_GRADIENT("SpaceToBatch", SpaceToBatchGrad);

absl::Status BatchToSpaceGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return Ok(out,
            {Build(s, "SpaceToBatch", {{g[0]}, {op.inputs[1]}}, op, {"block_size"}), Output()});
}
RILL_REGISTER_GRADIENT("BatchToSpace", BatchToSpaceGrad);

// DepthToSpace and SpaceToDepth undo each other; TensorFlow has no gradient for NCHW_VECT_C.
absl::Status DepthSpaceGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  RILL_ASSIGN_OR_RETURN(std::string format, op.GetString("data_format"));
  if (format == "NCHW_VECT_C") {
    return absl::InvalidArgumentError(absl::StrCat("Cannot compute ", op.type(),
                                                   " gradient with NCHW_VECT_C. NCHW_VECT_C "
                                                   "requires qint8 data type. (node '",
                                                   op.name(), "')"));
  }
  const char* inverse = op.type() == "DepthToSpace" ? "SpaceToDepth" : "DepthToSpace";
  return Ok(out, {Build(s, inverse, {{g[0]}}, op, {"block_size", "data_format"})});
}
RILL_REGISTER_GRADIENT("DepthToSpace", DepthSpaceGrad);
RILL_REGISTER_GRADIENT("SpaceToDepth", DepthSpaceGrad);

// --- Gathering and scattering -----------------------------------------------------------------

// The gradient of params of shape `params_shape` gathered by `indices` along axis 0: rows of g
// summed into params' rows.
Output GatherRowsGradOfShape(const Scope& s, const Output& params_shape, const Output& indices,
                             const Output& g) {
  Output indices_size = ops::Reshape(s, ops::Size(s, indices), ops::Const(s, {1}));
  Output tail = ops::Slice(s, params_shape, ops::Const(s, {1}), ops::Const(s, {-1}));
  Output values = ops::Reshape(s, g, ops::ConcatV2(s, {indices_size, tail}, I32(s, 0)));
  Output flat_indices = ops::Reshape(s, indices, indices_size);
  return SegmentSumOf(s, values, flat_indices, ElementOf(s, params_shape, I32(s, 0)));
}

Output GatherRowsGrad(const Scope& s, const Output& params, const Output& indices,
                      const Output& g) {
  return GatherRowsGradOfShape(s, ops::Shape(s, params), indices, g);
}

absl::Status GatherGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return Ok(out, {GatherRowsGrad(s, op.inputs[0], op.inputs[1], g[0]), Output()});
}
RILL_REGISTER_GRADIENT("Gather", GatherGrad);

// The int value of a Const node's scalar output, when `x` is one.
bool ConstScalarInt(const Scope& s, const Output& x, int64_t* value) {
  absl::StatusOr<NodeDef> def = s.GetNodeDef(x.node());
  if (!def.ok() || def->op() != "Const") return false;
  auto it = def->attr().find("value");
  if (it == def->attr().end() || !it->second.has_tensor()) return false;
  const TensorProto& t = it->second.tensor();
  if (t.tensor_shape().dim_size() != 0) return false;
  if (t.int_val_size() == 1) {
    *value = t.int_val(0);
    return true;
  }
  if (t.int64_val_size() == 1) {
    *value = t.int64_val(0);
    return true;
  }
  return false;
}

// GatherV2 along axis 0 without batch dims sums rows; any other axis or batch_dims goes through
// the gathered positions.
absl::Status GatherV2Grad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  RILL_ASSIGN_OR_RETURN(int64_t batch_dims, op.GetInt("batch_dims"));
  int64_t axis = -1;
  const Output& params = op.inputs[0];
  if (batch_dims == 0 && ConstScalarInt(s, op.inputs[2], &axis) && axis == 0) {
    return Ok(out, {GatherRowsGrad(s, params, op.inputs[1], g[0]), Output(), Output()});
  }
  Output positions =
      Build(s, "GatherV2", {{Iota(s, params)}, {op.inputs[1]}, {op.inputs[2]}}, op, {"batch_dims"});
  return Ok(out, {ScatterToPositions(s, params, positions, g[0]), Output(), Output()});
}
RILL_REGISTER_GRADIENT("GatherV2", GatherV2Grad);

absl::Status GatherNdGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& indices = op.inputs[1];
  Output shape = ops::Shape(s, op.inputs[0], BaseType(indices.dtype()));
  return Ok(out, {ScatterNdOf(s, indices, g[0], shape), Output()});
}
RILL_REGISTER_GRADIENT("GatherNd", GatherNdGrad);

// Gathers from a resource variable: the gradient with respect to the handle is the variable's
// (TensorFlow's IndexedSlices for ResourceGather, densified; batch_dims is ignored there too).
absl::Status ResourceGatherGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  Output shape = ops::VariableShape(s, op.inputs[0]);
  return Ok(out, {GatherRowsGradOfShape(s, shape, op.inputs[1], g[0]), Output()});
}
RILL_REGISTER_GRADIENT("ResourceGather", ResourceGatherGrad);

absl::Status ResourceGatherNdGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& indices = op.inputs[1];
  Output shape = ops::VariableShape(s, op.inputs[0], BaseType(indices.dtype()));
  return Ok(out, {ScatterNdOf(s, indices, g[0], shape), Output()});
}
RILL_REGISTER_GRADIENT("ResourceGatherNd", ResourceGatherNdGrad);

absl::Status ScatterNdGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return Ok(out, {Output(), ops::GatherNd(s, g[0], op.inputs[0]), Output()});
}
RILL_REGISTER_GRADIENT("ScatterNd", ScatterNdGrad);

absl::Status TensorScatterUpdateGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& indices = op.inputs[1];
  Output dtensor = ops::TensorScatterUpdate(s, g[0], indices, ops::ZerosLike(s, op.inputs[2]));
  return Ok(out, {dtensor, Output(), ops::GatherNd(s, g[0], indices)});
}
RILL_REGISTER_GRADIENT("TensorScatterUpdate", TensorScatterUpdateGrad);

absl::Status TensorScatterAddGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return Ok(out, {ops::Identity(s, g[0]), Output(), ops::GatherNd(s, g[0], op.inputs[1])});
}
RILL_REGISTER_GRADIENT("TensorScatterAdd", TensorScatterAddGrad);

absl::Status TensorScatterSubGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return Ok(out,
            {ops::Identity(s, g[0]), Output(), ops::Neg(s, ops::GatherNd(s, g[0], op.inputs[1]))});
}
RILL_REGISTER_GRADIENT("TensorScatterSub", TensorScatterSubGrad);

// TensorScatterMax / Min: the gradient is shared among the tensor element and the updates that
// equal the result.
absl::Status TensorScatterMinOrMaxGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& x = op.inputs[0];
  const Output& indices = op.inputs[1];
  const Output& y = op.inputs[2];
  const Output& output = op.outputs[0];
  const DataType dt = BaseType(g[0].dtype());
  Output x_ind = ops::Cast(s, ops::Equal(s, x, output), dt);
  Output y_ind = ops::Cast(s, ops::Equal(s, y, ops::GatherNd(s, output, indices)), dt);
  Output ys_ind = ops::ScatterNd(s, indices, y_ind, ops::Shape(s, x, BaseType(indices.dtype())));
  Output indicators = ops::AddV2(s, x_ind, ys_ind);
  Output dx = ops::RealDiv(s, ops::Mul(s, g[0], x_ind), indicators);
  Output dy = ops::Mul(s, ops::GatherNd(s, ops::RealDiv(s, g[0], indicators), indices), y_ind);
  return Ok(out, {dx, Output(), dy});
}
RILL_REGISTER_GRADIENT("TensorScatterMax", TensorScatterMinOrMaxGrad);
RILL_REGISTER_GRADIENT("TensorScatterMin", TensorScatterMinOrMaxGrad);

absl::Status DynamicStitchGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const size_t n = op.inputs.size() / 2;
  Grads grads(n);
  for (size_t i = 0; i < n; ++i) {
    grads.push_back(ops::Gather(s, g[0], CastTo(s, op.inputs[i], DT_INT32)));
  }
  return Ok(out, std::move(grads));
}
RILL_REGISTER_GRADIENT("DynamicStitch", DynamicStitchGrad);

// TopKV2: the gradient of each value goes to the position its index names in its row.
absl::Status TopKV2Grad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& x = op.inputs[0];
  Output indices = CastTo(s, op.outputs[1], DT_INT32);
  Output in_shape = ops::Shape(s, x);
  Output last = ops::Sub(s, ops::Rank(s, x), I32(s, 1));
  Output in_lastdim = ElementOf(s, in_shape, last);
  Output k = ElementOf(s, ops::Shape(s, indices), last);
  Output ind_2d = ops::Reshape(s, indices, ops::Pack(s, {I32(s, -1), k}));
  Output rows = ElementOf(s, ops::Shape(s, ind_2d), I32(s, 0));
  Output offsets = ops::ExpandDims(
      s, ops::Range(s, I32(s, 0), ops::Mul(s, rows, in_lastdim), in_lastdim), I32(s, -1));
  Output positions = ops::AddV2(s, ind_2d, offsets);
  Output flat_g = ops::Reshape(s, g[0], ops::Const(s, {-1}));
  Output dx = ops::UnsortedSegmentSum(s, flat_g, ops::Reshape(s, positions, ops::Const(s, {-1})),
                                      ops::Size(s, x));
  return Ok(out, {ops::Reshape(s, dx, in_shape), Output()});
}
RILL_REGISTER_GRADIENT("TopKV2", TopKV2Grad);

// NthElement: the gradient shared among the row's elements equal to the selected value.
absl::Status NthElementGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& x = op.inputs[0];
  Output last = I32(s, -1);
  Output indicators = ops::Cast(s, ops::Equal(s, ops::ExpandDims(s, op.outputs[0], last), x),
                                BaseType(g[0].dtype()));
  Output num_selected = ops::ExpandDims(s, ops::Sum(s, indicators, last), last);
  return Ok(out,
            {ops::Mul(s, ops::RealDiv(s, indicators, num_selected), ops::ExpandDims(s, g[0], last)),
             Output()});
}
RILL_REGISTER_GRADIENT("NthElement", NthElementGrad);

// --- Segment reductions -----------------------------------------------------------------------

absl::Status SegmentSumGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return Ok(out, {ops::Gather(s, g[0], op.inputs[1]), Output()});
}
RILL_REGISTER_GRADIENT("SegmentSum", SegmentSumGrad);

// [n] + [1] * (rank(data) - 1): a per-row value shaped to broadcast against data's rows.
Output RowShape(const Scope& s, const Output& rows, const Output& data) {
  Output ones =
      ops::Fill(s, ops::Reshape(s, ops::Sub(s, ops::Rank(s, data), I32(s, 1)), ops::Const(s, {1})),
                I32(s, 1));
  return ops::ConcatV2(s, {ops::Shape(s, rows), ones}, I32(s, 0));
}

absl::Status SegmentMeanGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& data = op.inputs[0];
  const Output& ids = op.inputs[1];
  Output ones = ops::Fill(s, RowShape(s, ids, data), grad::ScalarLike(s, 1.0, g[0]));
  Output scaled = ops::RealDiv(s, g[0], ops::SegmentSum(s, ones, ids));
  return Ok(out, {ops::Gather(s, scaled, ids), Output()});
}
RILL_REGISTER_GRADIENT("SegmentMean", SegmentMeanGrad);

absl::Status SegmentMinOrMaxGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& data = op.inputs[0];
  const Output& ids = op.inputs[1];
  Output is_selected = ops::Equal(s, data, ops::Gather(s, op.outputs[0], ids));
  Output num_selected = ops::SegmentSum(s, ops::Cast(s, is_selected, BaseType(g[0].dtype())), ids);
  Output gathered = ops::Gather(s, ops::RealDiv(s, g[0], num_selected), ids);
  return Ok(out, {ops::SelectV2(s, is_selected, gathered, ops::ZerosLike(s, data)), Output()});
}
RILL_REGISTER_GRADIENT("SegmentMax", SegmentMinOrMaxGrad);
RILL_REGISTER_GRADIENT("SegmentMin", SegmentMinOrMaxGrad);

// Products: the product divided by the element when the segment has no zero; the product of
// the others for a segment's only zero; zero when a segment has several zeros.
absl::Status SegmentProdGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& data = op.inputs[0];
  const Output& ids = op.inputs[1];
  Output is_zero = ops::Equal(s, data, grad::ScalarLike(s, 0.0, data));
  Output num_zeros = ops::SegmentSum(s, ops::Cast(s, is_zero, DT_INT32), ids);
  Output dy =
      ops::SelectV2(s, ops::Greater(s, num_zeros, I32(s, 1)), ops::ZerosLike(s, g[0]), g[0]);
  Output non_zero_data = ops::SelectV2(s, is_zero, ops::OnesLike(s, data), data);
  Output non_zero_prod = ops::SegmentProd(s, non_zero_data, ids);
  Output by_el = ops::RealDiv(s, ops::Gather(s, op.outputs[0], ids), non_zero_data);
  Output partial = ops::SelectV2(s, is_zero, ops::Gather(s, non_zero_prod, ids), by_el);
  return Ok(out, {ops::Mul(s, ops::Gather(s, dy, ids), partial), Output()});
}
RILL_REGISTER_GRADIENT("SegmentProd", SegmentProdGrad);

// Gathers params' rows by ids, with zeros where an id is negative (rows dropped by the unsorted
// segment ops). `clipped` receives max(ids, 0) and `keep` the rows kept, broadcast to the result.
Output GatherDropNegatives(const Scope& s, const Output& params, const Output& ids, Output* clipped,
                           Output* keep) {
  if (!clipped->valid()) *clipped = ops::Maximum(s, ids, ops::ZerosLike(s, ids));
  Output gathered = ops::Gather(s, params, *clipped);
  if (!keep->valid()) {
    Output positive = ops::GreaterEqual(s, ids, ops::ZerosLike(s, ids));
    Output extra = ops::Sub(s, ops::Rank(s, gathered), ops::Rank(s, positive));
    Output shape =
        ops::ConcatV2(s,
                      {ops::Shape(s, positive),
                       ops::Fill(s, ops::Reshape(s, extra, ops::Const(s, {1})), I32(s, 1))},
                      I32(s, 0));
    *keep = ops::LogicalAnd(s, ops::Reshape(s, positive, shape),
                            ops::Fill(s, ops::Shape(s, gathered), ops::Const(s, true)));
  }
  return ops::SelectV2(s, *keep, gathered, ops::ZerosLike(s, gathered));
}

absl::Status UnsortedSegmentSumGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  Output clipped, keep;
  return Ok(out, {GatherDropNegatives(s, g[0], op.inputs[1], &clipped, &keep), Output(), Output()});
}
RILL_REGISTER_GRADIENT("UnsortedSegmentSum", UnsortedSegmentSumGrad);

absl::Status UnsortedSegmentMinOrMaxGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& data = op.inputs[0];
  const Output& ids = op.inputs[1];
  Output clipped, keep;
  Output gathered_outputs = GatherDropNegatives(s, op.outputs[0], ids, &clipped, &keep);
  Output is_selected = ops::LogicalAnd(s, ops::Equal(s, data, gathered_outputs), keep);
  Output num_selected = ops::UnsortedSegmentSum(
      s, ops::Cast(s, is_selected, BaseType(g[0].dtype())), ids, op.inputs[2]);
  Output gathered =
      GatherDropNegatives(s, ops::RealDiv(s, g[0], num_selected), ids, &clipped, &keep);
  return Ok(out, {ops::SelectV2(s, is_selected, gathered, ops::ZerosLike(s, gathered)), Output(),
                  Output()});
}
RILL_REGISTER_GRADIENT("UnsortedSegmentMax", UnsortedSegmentMinOrMaxGrad);
RILL_REGISTER_GRADIENT("UnsortedSegmentMin", UnsortedSegmentMinOrMaxGrad);

absl::Status UnsortedSegmentProdGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& data = op.inputs[0];
  const Output& ids = op.inputs[1];
  const Output& num_segments = op.inputs[2];
  Output is_zero = ops::Equal(s, data, grad::ScalarLike(s, 0.0, data));
  Output num_zeros = ops::UnsortedSegmentSum(s, ops::Cast(s, is_zero, DT_INT32), ids, num_segments);
  Output dy =
      ops::SelectV2(s, ops::Greater(s, num_zeros, I32(s, 1)), ops::ZerosLike(s, g[0]), g[0]);
  Output non_zero_data = ops::SelectV2(s, is_zero, ops::OnesLike(s, data), data);
  Output non_zero_prod = ops::UnsortedSegmentProd(s, non_zero_data, ids, num_segments);
  Output clipped = ops::Maximum(s, ids, ops::ZerosLike(s, ids));
  Output by_el = ops::RealDiv(s, ops::Gather(s, op.outputs[0], clipped), data);
  Output partial = ops::SelectV2(s, is_zero, ops::Gather(s, non_zero_prod, clipped), by_el);
  Output keep;
  Output gathered = GatherDropNegatives(s, dy, ids, &clipped, &keep);
  return Ok(out, {ops::Mul(s, gathered, partial), Output(), Output()});
}
RILL_REGISTER_GRADIENT("UnsortedSegmentProd", UnsortedSegmentProdGrad);

// SparseSegmentSum / Mean / SqrtN (and WithNumSegments): each selected row of data gets the
// gradient of its segment, scaled by 1 / count (Mean) or 1 / sqrt(count) (SqrtN) of that segment.
enum class SegmentNorm { kSum, kMean, kSqrtN };

absl::Status SparseSegmentGrad(const Scope& s, const GradOp& op, const Output& g, SegmentNorm norm,
                               Grads* out) {
  const Output& data = op.inputs[0];
  const Output& indices = op.inputs[1];
  const Output& ids = op.inputs[2];
  Output scaled = g;
  if (norm != SegmentNorm::kSum) {
    Output segments = ElementOf(s, ops::Shape(s, g), I32(s, 0));
    Output ones = ops::Fill(s, ops::Shape(s, ids), grad::ScalarLike(s, 1.0, g));
    Output counts = ops::UnsortedSegmentSum(s, ones, ids, segments);
    counts = ops::Maximum(s, counts, grad::ScalarLike(s, 1.0, g));
    if (norm == SegmentNorm::kSqrtN) counts = ops::Sqrt(s, counts);
    Output per_row = ops::Reshape(s, counts, RowShape(s, counts, g));
    scaled = ops::RealDiv(s, g, per_row);
  }
  Output rows = ElementOf(s, ops::Shape(s, data), I32(s, 0));
  Output dx = SegmentSumOf(s, ops::Gather(s, scaled, ids), indices, rows);
  if (op.inputs.size() == 4) return Ok(out, {dx, Output(), Output(), Output()});  // num_segments
  return Ok(out, {dx, Output(), Output()});
}

absl::Status SparseSegmentSumGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return SparseSegmentGrad(s, op, g[0], SegmentNorm::kSum, out);
}
absl::Status SparseSegmentMeanGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return SparseSegmentGrad(s, op, g[0], SegmentNorm::kMean, out);
}
absl::Status SparseSegmentSqrtNGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return SparseSegmentGrad(s, op, g[0], SegmentNorm::kSqrtN, out);
}
RILL_REGISTER_GRADIENT("SparseSegmentSum", SparseSegmentSumGrad);
RILL_REGISTER_GRADIENT("SparseSegmentMean", SparseSegmentMeanGrad);
RILL_REGISTER_GRADIENT("SparseSegmentSqrtN", SparseSegmentSqrtNGrad);
RILL_REGISTER_GRADIENT("SparseSegmentSumWithNumSegments", SparseSegmentSumGrad);
RILL_REGISTER_GRADIENT("SparseSegmentMeanWithNumSegments", SparseSegmentMeanGrad);
RILL_REGISTER_GRADIENT("SparseSegmentSqrtNWithNumSegments", SparseSegmentSqrtNGrad);

// --- Sparse tensors (indices, values, dense shape) ------------------------------------------

// The sum of all elements of x.
Output SumAll(const Scope& s, const Output& x) {
  return ops::Sum(s, x, ops::Range(s, I32(s, 0), ops::Rank(s, x), I32(s, 1)));
}

// SparseToDense: each value gets the gradient at its index; the default value the rest.
absl::Status SparseToDenseGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  Output values_grad = ops::GatherNd(s, g[0], op.inputs[0]);
  Output default_grad = ops::Sub(s, SumAll(s, g[0]), SumAll(s, values_grad));
  return Ok(out, {Output(), Output(), values_grad, default_grad});
}
RILL_REGISTER_GRADIENT("SparseToDense", SparseToDenseGrad);

// SparseTensorDenseAdd: each value gets the gradient at its index; b gets all of it.
absl::Status SparseTensorDenseAddGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return Ok(out, {Output(), ops::GatherNd(s, g[0], op.inputs[0]), Output(), g[0]});
}
RILL_REGISTER_GRADIENT("SparseTensorDenseAdd", SparseTensorDenseAddGrad);

// SparseTensorDenseMatMul: b's gradient is A^T g (A's adjoint flag flipped); each value a[r, c]
// gets the dot product of g's row r with b's row c (rows and columns swapped by the adjoints,
// conjugated for complex operands as TensorFlow's products are).
absl::Status SparseTensorDenseMatMulGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  RILL_ASSIGN_OR_RETURN(bool adj_a, op.GetBool("adjoint_a"));
  RILL_ASSIGN_OR_RETURN(bool adj_b, op.GetBool("adjoint_b"));
  const Output& a_indices = op.inputs[0];
  const Output& a_values = op.inputs[1];
  const Output& a_shape = op.inputs[2];
  const Output& b = op.inputs[3];
  if (BaseType(a_values.dtype()) != BaseType(b.dtype())) {
    return absl::InvalidArgumentError(
        absl::StrCat("SparseTensorDenseMatMul op received operands with different types: ",
                     DataTypeString(BaseType(a_values.dtype())), " and ",
                     DataTypeString(BaseType(b.dtype())), " (node '", op.name(), "')"));
  }
  OpBuilder product(s, "SparseTensorDenseMatMul");
  product.Input(a_indices).Input(a_values).Input(a_shape).Input(g[0]).Attr("adjoint_a", !adj_a);
  Output b_grad = product.Finalize().output(0);
  Output swap = ops::Const(s, {1, 0});
  if (adj_b) b_grad = grad::MaybeConj(s, ops::Transpose(s, b_grad, swap));
  Output rows = ops::GatherV2(s, a_indices, I32(s, 0), I32(s, 1));
  Output cols = ops::GatherV2(s, a_indices, I32(s, 1), I32(s, 1));
  Output parts_a = ops::Gather(s, g[0], adj_a ? cols : rows);
  Output parts_b = ops::Gather(s, adj_b ? ops::Transpose(s, b, swap) : b, adj_a ? rows : cols);
  if (adj_a) parts_a = grad::MaybeConj(s, parts_a);
  if (adj_a == adj_b) parts_b = grad::MaybeConj(s, parts_b);
  Output a_grad = ops::Sum(s, ops::Mul(s, parts_a, parts_b), I32(s, 1));
  return Ok(out, {Output(), a_grad, Output(), b_grad});
}
RILL_REGISTER_GRADIENT("SparseTensorDenseMatMul", SparseTensorDenseMatMulGrad);

// SparseReduceSum: each value gets the gradient of the output element it was summed into.
absl::Status SparseReduceSumGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& indices = op.inputs[0];
  const Output& shape = op.inputs[2];
  Output kept = grad::ReducedShape(s, ops::Cast(s, shape, DT_INT32), op.inputs[3]);
  Output g_kept = ops::Reshape(s, g[0], kept);
  Output scale = ops::FloorDiv(s, shape, ops::Cast(s, kept, DT_INT64));
  Output values_grad = ops::GatherNd(s, g_kept, ops::FloorDiv(s, indices, scale));
  return Ok(out, {Output(), values_grad, Output(), Output()});
}
RILL_REGISTER_GRADIENT("SparseReduceSum", SparseReduceSumGrad);

// SparseReorder: the values' gradient put back in the input's entry order.
absl::Status SparseReorderGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& indices = op.inputs[0];
  Output entries =
      ops::Range(s, I32(s, 0), ElementOf(s, ops::Shape(s, indices), I32(s, 0)), I32(s, 1));
  std::vector<Output> ordered = ops::SparseReorder(s, indices, entries, op.inputs[2]);
  if (ordered.size() != 2) return s.status();
  Output inverse = ops::InvertPermutation(s, ordered[1]);
  return Ok(out, {Output(), ops::Gather(s, g[1], inverse), Output()});
}
RILL_REGISTER_GRADIENT("SparseReorder", SparseReorderGrad);

// SparseAdd: each operand's value gets the sum's gradient at its index (none when the sum
// dropped it under thresh). The sum's gradient is scattered into a dense tensor of the sum's
// shape, so memory grows with that shape.
absl::Status SparseAddGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  Output dense = ScatterNdOf(s, op.outputs[0], g[1], op.outputs[2]);
  return Ok(out, {Output(), ops::GatherNd(s, dense, op.inputs[0]), Output(), Output(),
                  ops::GatherNd(s, dense, op.inputs[3]), Output(), Output()});
}
RILL_REGISTER_GRADIENT("SparseAdd", SparseAddGrad);

// SparseFillEmptyRows: each value gets the gradient of the entry it moved to
// (reverse_index_map); the default value the gradients of the filled-in entries.
absl::Status SparseFillEmptyRowsGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  Output values_grad = ops::Gather(s, g[1], op.outputs[3]);
  Output default_grad = ops::Sub(s, SumAll(s, g[1]), SumAll(s, values_grad));
  return Ok(out, {Output(), values_grad, Output(), default_grad});
}
RILL_REGISTER_GRADIENT("SparseFillEmptyRows", SparseFillEmptyRowsGrad);

// --- Quantization (TensorFlow's array_ops.py and array_grad.py) -----------------------------

RILL_REGISTER_NO_GRADIENT("FakeQuantWithMinMaxArgsGradient");
RILL_REGISTER_NO_GRADIENT("FakeQuantWithMinMaxVarsGradient");
RILL_REGISTER_NO_GRADIENT("FakeQuantWithMinMaxVarsPerChannelGradient");

// The forward op's gradient op: FakeQuantWithMinMax*Gradient or QuantizeAndDequantizeV4Grad on
// (dy, the forward op's inputs), with the attrs in `copy`; all its outputs.
Grads GradientOp(const Scope& s, absl::string_view type, const GradOp& op, const Output& dy,
                 std::initializer_list<const char*> copy) {
  OpBuilder b(s, type);
  b.Input(dy);
  for (const Output& in : op.inputs) b.Input(in);
  for (const char* name : copy) {
    auto it = op.node.attr().find(name);
    if (it != op.node.attr().end()) b.Attr(name, it->second);
  }
  Operation node = b.Finalize();
  Grads grads(op.inputs.size());
  for (int i = 0; i < node.num_outputs() && i < static_cast<int>(grads.size()); ++i) {
    grads[i] = node.output(i);
  }
  return grads;
}

// FakeQuantWithMinMax{Args,Vars,VarsPerChannel}: the gradient op of the same name + "Gradient".
absl::Status FakeQuantGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const bool args = op.type() == "FakeQuantWithMinMaxArgs";
  return Ok(out, GradientOp(s, absl::StrCat(op.type(), "Gradient"), op, g[0],
                            args ? std::initializer_list<const char*>{"min", "max", "num_bits",
                                                                      "narrow_range"}
                                 : std::initializer_list<const char*>{"num_bits", "narrow_range"}));
}
RILL_REGISTER_GRADIENT("FakeQuantWithMinMaxArgs", FakeQuantGrad);
RILL_REGISTER_GRADIENT("FakeQuantWithMinMaxVars", FakeQuantGrad);
RILL_REGISTER_GRADIENT("FakeQuantWithMinMaxVarsPerChannel", FakeQuantGrad);

// QuantizeAndDequantizeV2: straight through to the input (TensorFlow's estimator), nothing to the
// range.
absl::Status QuantizeAndDequantizeV2Grad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return Ok(out, {g[0], Output(), Output()});
}
RILL_REGISTER_GRADIENT("QuantizeAndDequantizeV2", QuantizeAndDequantizeV2Grad);

// QuantizeAndDequantizeV3: straight through as well (nothing to the range or num_bits).
absl::Status QuantizeAndDequantizeStraightGrad(const Scope& s, const GradOp& op, GradSpan g,
                                               Grads* out) {
  Grads grads(op.inputs.size());
  grads[0] = g[0];
  return Ok(out, std::move(grads));
}
RILL_REGISTER_GRADIENT("QuantizeAndDequantizeV3", QuantizeAndDequantizeStraightGrad);
// QuantizeAndDequantize (v1, old TF1 graphs): the incoming gradient, as TensorFlow's.
RILL_REGISTER_GRADIENT("QuantizeAndDequantize", QuantizeAndDequantizeStraightGrad);

// QuantizeAndDequantizeV4: QuantizeAndDequantizeV4Grad (dy where the input lies in
// [input_min, input_max], zeros for the range).
absl::Status QuantizeAndDequantizeV4Grad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return Ok(out, GradientOp(s, "QuantizeAndDequantizeV4Grad", op, g[0], {"axis"}));
}
RILL_REGISTER_GRADIENT("QuantizeAndDequantizeV4", QuantizeAndDequantizeV4Grad);

// --- Ragged -----------------------------------------------------------------------------------

// RaggedTensorToTensor (TensorFlow's ragged_conversion_ops.py): the op applied to the value
// positions 0..nvals-1 with default -1 gives, for each element of the output's outer
// (1 + ragged_rank) dims, the value row it came from (-1 where the default filled it). `values`
// gets the gradient summed into those rows (UnsortedSegmentSum drops the -1s); default_value the
// gradient of the filled elements, summed over every dim but its own (leading dims of size 1
// ignored, as TensorFlow does) and reshaped to its shape. The shape and the row partitions get
// none.
absl::Status RaggedTensorToTensorGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  std::vector<std::string> types;
  auto attr = op.node.attr().find("row_partition_types");
  if (attr != op.node.attr().end()) {
    for (const std::string& t : attr->second.list().s()) types.push_back(t);
  }
  int ragged_rank = 0;
  for (const std::string& t : types) ragged_rank += t != "FIRST_DIM_SIZE";
  const Output& values = op.inputs[1];
  const Output& default_value = op.inputs[2];
  std::vector<Output> partitions(op.inputs.begin() + 3, op.inputs.end());
  Output outer_shape =
      ops::Slice(s, ops::Shape(s, g[0]), ops::Const(s, {0}), ops::Const(s, {1 + ragged_rank}));
  Output nvals = ops::Squeeze(
      s, ops::Slice(s, ops::Shape(s, values), ops::Const(s, {0}), ops::Const(s, {1})), {0});
  Output indices = ops::RaggedTensorToTensor(
      s, outer_shape, ops::Range(s, I32(s, 0), nvals, I32(s, 1)), I32(s, -1), partitions, types);
  Output values_grad = ops::UnsortedSegmentSum(s, g[0], indices, nvals);
  // The filled elements' mask, broadcast over the values' inner dims.
  Output inner_ones = ops::Fill(
      s, ops::ExpandDims(s, ops::Sub(s, ops::Rank(s, values), I32(s, 1)), I32(s, 0)), I32(s, 1));
  Output filled = ops::Reshape(s, ops::Equal(s, indices, I32(s, -1)),
                               ops::ConcatV2(s, {ops::Shape(s, indices), inner_ones}, I32(s, 0)));
  Output default_grads = ops::SelectV2(s, filled, g[0], ops::ZerosLike(s, g[0]));
  // rank(default_value) without its leading dims of size 1.
  Output leading_ones = ops::Sum(
      s,
      ops::Cumprod(s,
                   ops::Cast(s, ops::Equal(s, ops::Shape(s, default_value), I32(s, 1)), DT_INT32),
                   I32(s, 0)),
      I32(s, 0));
  Output kept_rank = ops::Sub(s, ops::Rank(s, default_value), leading_ones);
  Output summed =
      ops::Sum(s, default_grads,
               ops::Range(s, I32(s, 0), ops::Sub(s, ops::Rank(s, g[0]), kept_rank), I32(s, 1)));
  Output default_grad = ops::Reshape(s, summed, ops::Shape(s, default_value));
  Grads grads(op.inputs.size());
  grads[1] = values_grad;
  grads[2] = default_grad;
  return Ok(out, std::move(grads));
}
RILL_REGISTER_GRADIENT("RaggedTensorToTensor", RaggedTensorToTensorGrad);

// RaggedGather (TensorFlow's ragged_gather_ops.py): each gathered params row covers the flat
// values [combined[i], combined[i + 1]) (the splits composed level by level); the output's
// values are those ranges in order, so their gradient rows are summed back into those value
// rows (TensorFlow's IndexedSlices, made dense as UnsortedSegmentSum). Splits and indices get
// none.
absl::Status RaggedGatherGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const size_t levels = op.inputs.size() - 2;
  const Output& values = op.inputs[levels];
  const Output& indices = op.inputs[levels + 1];
  Output combined = op.inputs[0];
  for (size_t i = 1; i < levels; ++i) combined = ops::Gather(s, op.inputs[i], combined);
  Output flat_indices = ops::Reshape(s, indices, ops::Const(s, {-1}));
  Output starts = ops::Gather(s, combined, flat_indices);
  Output limits = ops::Gather(s, ops::Slice(s, combined, ops::Const(s, {1}), ops::Const(s, {-1})),
                              flat_indices);
  Output rows = OpBuilder(s, "RaggedRange")
                    .Input(starts)
                    .Input(limits)
                    .Input(ops::OnesLike(s, starts))
                    .Attr("Tsplits", DT_INT64)
                    .Finalize()
                    .output(1);
  Grads grads(op.inputs.size());
  grads[levels] =
      SegmentSumOf(s, g[g.size() - 1], rows, ElementOf(s, ops::Shape(s, values), I32(s, 0)));
  return Ok(out, std::move(grads));
}
RILL_REGISTER_GRADIENT("RaggedGather", RaggedGatherGrad);

// DynamicPartition (TensorFlow's data_flow_grad.py): the positions 0..n-1 of partitions' elements,
// partitioned the same way, say where each output row came from; DynamicStitch puts the outputs'
// gradients back there. Partitions get none.
absl::Status DynamicPartitionGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& data = op.inputs[0];
  const Output& partitions = op.inputs[1];
  RILL_ASSIGN_OR_RETURN(int64_t n, op.GetInt("num_partitions"));
  Output prefix_shape = ops::Shape(s, partitions);
  Output positions = ops::Reshape(
      s, ops::Range(s, I32(s, 0), ops::Prod(s, prefix_shape, ops::Const(s, 0)), I32(s, 1)),
      prefix_shape);
  Operation parts = OpBuilder(s, "DynamicPartition")
                        .Input(positions)
                        .Input(partitions)
                        .Attr("num_partitions", n)
                        .Finalize();
  std::vector<Output> indices;
  for (int64_t i = 0; i < n; ++i) indices.push_back(parts.output(static_cast<int>(i)));
  std::vector<Output> grads;  // an output nothing used gets zeros, as in TensorFlow
  for (size_t i = 0; i < g.size(); ++i) {
    grads.push_back(g[i].valid() ? g[i] : ops::ZerosLike(s, op.outputs[i]));
  }
  Output stitched = ops::DynamicStitch(s, indices, grads);
  *out = {ops::Reshape(s, stitched, ops::Shape(s, data)), Output()};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("DynamicPartition", DynamicPartitionGrad);

// RaggedTensorToSparse (TensorFlow's ragged_conversion_ops.py): the sparse values are the flat
// values flattened, so their gradient is reshaped back; the splits get none.
absl::Status RaggedTensorToSparseGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& values = op.inputs.back();
  Grads grads(op.inputs.size());
  grads.back() = ops::Reshape(s, g[1], ops::Shape(s, values));
  return Ok(out, std::move(grads));
}
RILL_REGISTER_GRADIENT("RaggedTensorToSparse", RaggedTensorToSparseGrad);
RILL_REGISTER_NO_GRADIENT("RaggedRange");

}  // namespace
}  // namespace rill
