// Op definitions of the layout ops, whose kernels move elements without
// computing on them: Transpose, ConcatV2, Concat, ConcatOffset, Pack, Unpack, Split, SplitV, Slice,
// StridedSlice, XlaDynamicUpdateSlice, Pad, PadV2, MirrorPad. Signatures read from TensorFlow's
// registry (tests/tfgen/dump_op_specs.py).
//
// Shape functions: shape inference sees no constant input values yet, so dims
// that depend on perm/axis/begin/paddings values are unknown (-1) while ranks
// that follow from shapes and attrs are known. Inputs that contradict each
// other leave the output unknown: the kernel then reports TensorFlow's exact
// error at run time.
#include <cstdint>
#include <limits>
#include <vector>

#include "core/status_macros.h"
#include "ops/attr_value_util.h"
#include "ops/op_registry.h"
#include "ops/quantized_range_shape.h"

namespace rill {
namespace {

constexpr int64_t kMaxDim = std::numeric_limits<int64_t>::max();

// A known-rank shape of `rank` unknown dims; unknown rank when rank < 0.
PartialTensorShape UnknownDims(int64_t rank) {
  if (rank < 0) return PartialTensorShape();
  return PartialTensorShape(std::vector<int64_t>(static_cast<size_t>(rank), -1));
}

// The number of elements of a known-shape vector input, else -1.
int64_t VectorLength(const PartialTensorShape& s) { return s.rank() == 1 ? s.dims()[0] : -1; }

// Transpose: x's rank (or perm's length); a rank-0/1 input comes out unchanged.
absl::Status TransposeShape(ShapeInferenceContext& c) {
  const PartialTensorShape& x = c.input(0);
  if (x.rank() == 0 || x.rank() == 1) {
    c.set_output(0, x);
    return absl::OkStatus();
  }
  c.set_output(0, UnknownDims(x.unknown_rank() ? VectorLength(c.input(1)) : x.rank()));
  return absl::OkStatus();
}

// The first known-rank shape among inputs [begin, end), or unknown rank.
PartialTensorShape FirstKnownRank(ShapeInferenceContext& c, int begin, int end) {
  for (int i = begin; i < end; ++i) {
    if (!c.input(i).unknown_rank()) return c.input(i);
  }
  return PartialTensorShape();
}

// ConcatV2: the inputs' rank; dims unknown (they depend on the axis value).
absl::Status ConcatV2Shape(ShapeInferenceContext& c) {
  c.set_output(0, UnknownDims(FirstKnownRank(c, 0, c.num_inputs() - 1).rank()));
  return absl::OkStatus();
}

// Concat: as ConcatV2, the values after the leading concat_dim.
absl::Status ConcatShape(ShapeInferenceContext& c) {
  c.set_output(0, UnknownDims(FirstKnownRank(c, 1, c.num_inputs()).rank()));
  return absl::OkStatus();
}

// Pack: the inputs' shape (merged) with N inserted at `axis`.
absl::Status PackShape(ShapeInferenceContext& c) {
  PartialTensorShape merged = FirstKnownRank(c, 0, c.num_inputs());
  if (merged.unknown_rank()) return absl::OkStatus();
  std::vector<int64_t> dims = merged.dims();
  for (int i = 0; i < c.num_inputs(); ++i) {
    const PartialTensorShape& s = c.input(i);
    if (s.unknown_rank()) continue;
    if (s.rank() != merged.rank()) return absl::OkStatus();  // the kernel reports it
    for (size_t d = 0; d < dims.size(); ++d) {
      if (dims[d] < 0) dims[d] = s.dims()[d];
      if (s.dims()[d] >= 0 && s.dims()[d] != dims[d]) return absl::OkStatus();
    }
  }
  int64_t axis;
  RILL_RETURN_IF_ERROR(GetNodeAttr(c.node(), "axis", &axis));
  const int64_t out_rank = static_cast<int64_t>(dims.size()) + 1;
  if (axis < 0) axis += out_rank;
  if (axis < 0 || axis >= out_rank) return absl::OkStatus();
  dims.insert(dims.begin() + axis, c.num_inputs());
  c.set_output(0, PartialTensorShape(std::move(dims)));
  return absl::OkStatus();
}

// Split, SplitV: every piece has the input's rank; dims unknown (they depend on
// split_dim).
absl::Status SplitShape(ShapeInferenceContext& c) {
  const int value = c.node().op() == "Split" ? 1 : 0;
  for (int i = 0; i < c.num_outputs(); ++i) c.set_output(i, UnknownDims(c.input(value).rank()));
  return absl::OkStatus();
}

// Unpack: the input's shape without `axis`.
absl::Status UnpackShape(ShapeInferenceContext& c) {
  const PartialTensorShape& in = c.input(0);
  if (in.unknown_rank()) return absl::OkStatus();
  int64_t axis;
  RILL_RETURN_IF_ERROR(GetNodeAttr(c.node(), "axis", &axis));
  if (axis < 0) axis += in.rank();
  if (axis < 0 || axis >= in.rank()) return absl::OkStatus();  // the kernel reports it
  std::vector<int64_t> dims = in.dims();
  dims.erase(dims.begin() + axis);
  for (int i = 0; i < c.num_outputs(); ++i) c.set_output(i, PartialTensorShape(dims));
  return absl::OkStatus();
}

// Slice: the input's rank, or the begin vector's
// length; dims unknown (they depend on begin/size values).
absl::Status SliceShape(ShapeInferenceContext& c) {
  const PartialTensorShape& in = c.input(0);
  c.set_output(0, UnknownDims(in.unknown_rank() ? VectorLength(c.input(1)) : in.rank()));
  return absl::OkStatus();
}

// Pad, PadV2, MirrorPad: the input's rank, or the number of rows of paddings. With constant
// paddings of the input's rank, a known dim d padded by (a, b) is d + a + b, as in TensorFlow's
// shape function (so a window later checked against it sees the padded size); other dims are
// unknown, and paddings the kernel refuses (negative, of another shape) leave them to it.
absl::Status PadShape(ShapeInferenceContext& c) {
  const PartialTensorShape& in = c.input(0);
  const PartialTensorShape& paddings = c.input(1);
  const int64_t rows = paddings.rank() == 2 ? paddings.dims()[0] : -1;
  PartialTensorShape out = UnknownDims(in.unknown_rank() ? rows : in.rank());
  std::vector<int64_t> pads;
  if (!in.unknown_rank() && paddings.rank() == 2 && paddings.dims()[0] == in.rank() &&
      paddings.dims()[1] == 2 && c.ConstantIndexValues(1, &pads) &&
      static_cast<int64_t>(pads.size()) == 2 * in.rank()) {
    std::vector<int64_t> dims = in.dims();
    for (size_t i = 0; i < dims.size(); ++i) {
      const int64_t a = pads[2 * i], b = pads[2 * i + 1];
      if (dims[i] < 0 || a < 0 || b < 0 || a > kMaxDim - dims[i] || b > kMaxDim - dims[i] - a) {
        dims[i] = -1;
      } else {
        dims[i] += a + b;
      }
    }
    out = PartialTensorShape(dims);
  }
  c.set_output(0, out);
  return absl::OkStatus();
}

// ShapeN: output i is a vector of input i's rank.
absl::Status ShapeNShape(ShapeInferenceContext& c) {
  for (int i = 0; i < c.num_outputs() && i < c.num_inputs(); ++i) {
    c.set_output(i, PartialTensorShape(std::vector<int64_t>{c.input(i).rank()}));
  }
  return absl::OkStatus();
}

// StridedSlice: the rank follows from the input's rank, the number of begin
// entries and the masks (each new axis adds a dim, each shrunk index drops one;
// an ellipsis entry is neither); dims unknown (they depend on begin/end/strides
// values).
absl::Status StridedSliceShape(ShapeInferenceContext& c) {
  const int64_t rank = c.input(0).rank();
  const int64_t entries = VectorLength(c.input(1));
  if (rank < 0 || entries < 0 || entries >= 32) return absl::OkStatus();
  int64_t ellipsis, new_axis, shrink;
  RILL_RETURN_IF_ERROR(GetNodeAttr(c.node(), "ellipsis_mask", &ellipsis));
  RILL_RETURN_IF_ERROR(GetNodeAttr(c.node(), "new_axis_mask", &new_axis));
  RILL_RETURN_IF_ERROR(GetNodeAttr(c.node(), "shrink_axis_mask", &shrink));
  int64_t out_rank = rank;
  for (int64_t i = 0; i < entries; ++i) {
    const int64_t bit = int64_t{1} << i;
    if (ellipsis & bit) continue;
    if (new_axis & bit) {
      ++out_rank;
    } else if (shrink & bit) {
      --out_rank;
    }
  }
  if (out_rank >= 0) c.set_output(0, UnknownDims(out_rank));
  return absl::OkStatus();
}

REGISTER_OP("Transpose")
    .Input("x: T")
    .Input("perm: Tperm")
    .Output("y: T")
    .Attr("T: type")
    .Attr("Tperm: {int32, int64} = int32")
    .SetShapeFn(TransposeShape);

REGISTER_OP("ConcatV2")
    .Input("values: N * T")
    .Input("axis: Tidx")
    .Output("output: T")
    .Attr("N: int >= 2")
    .Attr("T: type")
    .Attr("Tidx: {int32, int64} = int32")
    .SetShapeFn(ConcatV2Shape);

// ConcatOffset: N vectors, each as long as the first shape.
absl::Status ConcatOffsetShape(ShapeInferenceContext& c) {
  for (int i = 1; i < c.num_inputs(); ++i) c.set_output(i - 1, c.input(1));
  return absl::OkStatus();
}

REGISTER_OP("ConcatOffset")
    .Input("concat_dim: int32")
    .Input("shape: N * shape_type")
    .Output("offset: N * shape_type")
    .Attr("N: int >= 2")
    .Attr("shape_type: {int32, int64} = int32")
    .SetShapeFn(ConcatOffsetShape);

REGISTER_OP("Concat")
    .Input("concat_dim: int32")
    .Input("values: N * T")
    .Output("output: T")
    .Attr("N: int >= 2")
    .Attr("T: type")
    .SetShapeFn(ConcatShape);

REGISTER_OP("Pack")
    .Input("values: N * T")
    .Output("output: T")
    .Attr("N: int >= 1")
    .Attr("T: type")
    .Attr("axis: int = 0")
    .SetShapeFn(PackShape);

REGISTER_OP("Unpack")
    .Input("value: T")
    .Output("output: num * T")
    .Attr("num: int >= 0")
    .Attr("T: type")
    .Attr("axis: int = 0")
    .SetShapeFn(UnpackShape);

REGISTER_OP("Split")
    .Input("split_dim: int32")
    .Input("value: T")
    .Output("output: num_split * T")
    .Attr("num_split: int >= 1")
    .Attr("T: type")
    .SetShapeFn(SplitShape);

REGISTER_OP("SplitV")
    .Input("value: T")
    .Input("size_splits: Tlen")
    .Input("split_dim: int32")
    .Output("output: num_split * T")
    .Attr("num_split: int >= 1")
    .Attr("T: type")
    .Attr("Tlen: {int8, int32, int64} = int64")
    .SetShapeFn(SplitShape);

REGISTER_OP("Slice")
    .Input("input: T")
    .Input("begin: Index")
    .Input("size: Index")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Index: {int32, int64}")
    .SetShapeFn(SliceShape);

// XLA's DynamicUpdateSlice (Keras 3's ops.slice_update on the TensorFlow backend).
REGISTER_OP("XlaDynamicUpdateSlice")
    .Input("input: T")
    .Input("update: T")
    .Input("indices: Tindices")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tindices: {int32, int64}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("StridedSlice")
    .Input("input: T")
    .Input("begin: Index")
    .Input("end: Index")
    .Input("strides: Index")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Index: {int16, int32, int64}")
    .Attr("begin_mask: int = 0")
    .Attr("end_mask: int = 0")
    .Attr("ellipsis_mask: int = 0")
    .Attr("new_axis_mask: int = 0")
    .Attr("shrink_axis_mask: int = 0")
    .SetShapeFn(StridedSliceShape);

REGISTER_OP("Pad")
    .Input("input: T")
    .Input("paddings: Tpaddings")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tpaddings: {int32, int64} = int32")
    .SetShapeFn(PadShape);

REGISTER_OP("PadV2")
    .Input("input: T")
    .Input("paddings: Tpaddings")
    .Input("constant_values: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tpaddings: {int32, int64} = int32")
    .SetShapeFn(PadShape);

REGISTER_OP("MirrorPad")
    .Input("input: T")
    .Input("paddings: Tpaddings")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tpaddings: {int32, int64} = int32")
    .Attr("mode: {'REFLECT', 'SYMMETRIC'}")
    .SetShapeFn(PadShape);

REGISTER_OP("ShapeN")
    .Input("input: N * T")
    .Output("output: N * out_type")
    .Attr("N: int >= 1")
    .Attr("T: type")
    .Attr("out_type: {int32, int64} = int32")
    .SetShapeFn(ShapeNShape);

}  // namespace
// The eight-bit concatenation of quantize_nodes graphs: as Concat over the N values, scalar
// ranges.
REGISTER_OP("QuantizedConcat")
    .Input("concat_dim: int32")
    .Input("values: N * T")
    .Input("input_mins: N * float")
    .Input("input_maxes: N * float")
    .Output("output: T")
    .Output("output_min: float")
    .Output("output_max: float")
    .Attr("N: int >= 2")
    .Attr("T: type")
    .SetShapeFn([](ShapeInferenceContext& c) {
      const int n = (c.num_inputs() - 1) / 3;
      c.set_output(0, UnknownDims(FirstKnownRank(c, 1, 1 + n).rank()));
      return QuantizedRangeShapes(c, 1 + n, 1 + 3 * n);
    });

}  // namespace rill
