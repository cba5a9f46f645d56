// Op definitions of the indexing ops: Gather, GatherV2, GatherNd, OneHot, Where, TopKV2,
// NthElement, Unique, Range, LinSpace, UnravelIndex, CheckNumerics, ReverseV2, Reverse. Signatures
// read from TensorFlow's registry (tests/tfgen/dump_op_specs.py). Shape functions never fail on
// values the kernel checks (out of range indices, bad axes): those leave dims unknown.
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "ops/attr_value_util.h"
#include "ops/op_registry.h"

namespace rill {
namespace {

// GatherV2 (and Gather: axis 0): params.shape[:axis] + indices.shape[batch_dims:] +
// params.shape[axis+1:], when the ranks and the (constant) axis are known.
absl::Status GatherShape(ShapeInferenceContext& c) {
  const PartialTensorShape& params = c.input(0);
  const PartialTensorShape& indices = c.input(1);
  if (params.unknown_rank() || indices.unknown_rank()) return absl::OkStatus();
  int64_t axis = 0, batch_dims = 0;
  if (c.num_inputs() > 2) {
    std::vector<int64_t> a;
    if (!c.ConstantIndexValues(2, &a) || a.size() != 1) return absl::OkStatus();
    axis = a[0];
    (void)GetNodeAttr(c.node(), "batch_dims", &batch_dims);
  }
  if (axis < 0) axis += params.rank();
  if (batch_dims < 0) batch_dims += indices.rank();
  if (axis < 0 || axis >= params.rank() || batch_dims < 0 || batch_dims > indices.rank()) {
    return absl::OkStatus();
  }
  std::vector<int64_t> out(params.dims().begin(), params.dims().begin() + axis);
  out.insert(out.end(), indices.dims().begin() + batch_dims, indices.dims().end());
  out.insert(out.end(), params.dims().begin() + axis + 1, params.dims().end());
  c.set_output(0, PartialTensorShape(std::move(out)));
  return absl::OkStatus();
}

// GatherNd: indices.shape[:-1] + params.shape[K:], K the (known) last indices dim.
absl::Status GatherNdShape(ShapeInferenceContext& c) {
  const PartialTensorShape& params = c.input(0);
  const PartialTensorShape& indices = c.input(1);
  if (params.unknown_rank() || indices.rank() < 1) return absl::OkStatus();
  const int64_t depth = indices.dims().back();
  if (depth < 0 || depth > params.rank()) return absl::OkStatus();
  std::vector<int64_t> out(indices.dims().begin(), indices.dims().end() - 1);
  out.insert(out.end(), params.dims().begin() + depth, params.dims().end());
  c.set_output(0, PartialTensorShape(std::move(out)));
  return absl::OkStatus();
}

// OneHot: the indices' shape with the (constant) depth inserted at axis.
absl::Status OneHotShape(ShapeInferenceContext& c) {
  const PartialTensorShape& indices = c.input(0);
  if (indices.unknown_rank()) return absl::OkStatus();
  int64_t axis = -1;
  RILL_RETURN_IF_ERROR(GetNodeAttr(c.node(), "axis", &axis));
  if (axis < -1 || axis > indices.rank()) return absl::OkStatus();
  std::vector<int64_t> depth;
  const int64_t d =
      c.ConstantIndexValues(1, &depth) && depth.size() == 1 && depth[0] >= 0 ? depth[0] : -1;
  std::vector<int64_t> out = indices.dims();
  out.insert(out.begin() + (axis == -1 ? indices.rank() : axis), d);
  c.set_output(0, PartialTensorShape(std::move(out)));
  return absl::OkStatus();
}

// Where: [count (unknown), rank].
absl::Status WhereShape(ShapeInferenceContext& c) {
  const PartialTensorShape& in = c.input(0);
  c.set_output(0, PartialTensorShape({-1, in.unknown_rank() ? int64_t{-1} : in.rank()}));
  return absl::OkStatus();
}

// TopKV2: the input's shape with the last dim k (when constant).
absl::Status TopKShape(ShapeInferenceContext& c) {
  const PartialTensorShape& in = c.input(0);
  if (in.rank() < 1) return absl::OkStatus();
  std::vector<int64_t> k;
  std::vector<int64_t> out = in.dims();
  out.back() = c.ConstantIndexValues(1, &k) && k.size() == 1 && k[0] >= 0 ? k[0] : -1;
  c.set_output(0, PartialTensorShape(out));
  c.set_output(1, PartialTensorShape(out));
  return absl::OkStatus();
}

// Unique: y [unknown], idx the input's shape.
absl::Status UniqueShape(ShapeInferenceContext& c) {
  c.set_output(0, PartialTensorShape({-1}));
  c.set_output(1, c.input(0));
  if (c.num_outputs() > 2) c.set_output(2, PartialTensorShape({-1}));  // UniqueWithCounts' count
  return absl::OkStatus();
}

// UniqueV2: with a constant axis [k] and x of known rank, y is x with dimension k unknown and idx
// a vector of x's dimension k; with an empty axis, Unique's shapes; otherwise y has x's rank.
absl::Status UniqueV2Shape(ShapeInferenceContext& c) {
  const PartialTensorShape& x = c.input(0);
  std::vector<int64_t> axis;
  const bool known_axis = c.ConstantIndexValues(1, &axis) && axis.size() <= 1;
  if (known_axis && axis.empty()) return UniqueShape(c);
  c.set_output(0, x.unknown_rank() ? PartialTensorShape()
                                   : PartialTensorShape(std::vector<int64_t>(x.rank(), -1)));
  c.set_output(1, PartialTensorShape({-1}));
  if (!known_axis || x.unknown_rank()) return absl::OkStatus();
  int64_t k = axis[0] < 0 ? axis[0] + x.rank() : axis[0];
  if (k < 0 || k >= x.rank()) return absl::OkStatus();  // the kernel reports it
  std::vector<int64_t> y(x.dims().begin(), x.dims().end());
  y[k] = -1;
  c.set_output(0, PartialTensorShape(y));
  c.set_output(1, PartialTensorShape({x.dims()[k]}));
  return absl::OkStatus();
}

// Range: a vector of ceil(|limit - start| / |delta|) elements when start, limit and delta are
// known integers (constants, or values such as Size(Shape(x)) of a known-rank x), as TensorFlow's
// shape function computes it; [?] otherwise, and where the kernel will refuse the values.
absl::Status RangeShape(ShapeInferenceContext& c) {
  c.set_output(0, PartialTensorShape({-1}));
  int64_t start, limit, delta;
  if (!c.ScalarIndexValue(0, &start) || !c.ScalarIndexValue(1, &limit) ||
      !c.ScalarIndexValue(2, &delta) || delta == 0) {
    return absl::OkStatus();
  }
  if ((delta > 0 && start > limit) || (delta < 0 && start < limit)) return absl::OkStatus();
  const __int128 span = static_cast<__int128>(limit) - start;
  const __int128 step = delta;
  const __int128 size =
      ((span < 0 ? -span : span) + (step < 0 ? -step : step) - 1) / (step < 0 ? -step : step);
  if (size > std::numeric_limits<int64_t>::max()) return absl::OkStatus();
  c.set_output(0, PartialTensorShape({static_cast<int64_t>(size)}));
  return absl::OkStatus();
}

// LinSpace: [num] when num is a known positive integer, [?] otherwise.
absl::Status LinSpaceShape(ShapeInferenceContext& c) {
  int64_t num;
  const bool known = c.ScalarIndexValue(2, &num) && num > 0;
  c.set_output(0, PartialTensorShape({known ? num : -1}));
  return absl::OkStatus();
}

REGISTER_OP("Gather")
    .Input("params: Tparams")
    .Input("indices: Tindices")
    .Output("output: Tparams")
    .Attr("validate_indices: bool = true")
    .Attr("Tparams: type")
    .Attr("Tindices: {int32, int64}")
    .SetShapeFn(GatherShape);

REGISTER_OP("GatherV2")
    .Input("params: Tparams")
    .Input("indices: Tindices")
    .Input("axis: Taxis")
    .Output("output: Tparams")
    .Attr("batch_dims: int = 0")
    .Attr("Tparams: type")
    .Attr("Tindices: {int16, int32, int64}")
    .Attr("Taxis: {int32, int64}")
    .SetShapeFn(GatherShape);

REGISTER_OP("GatherNd")
    .Input("params: Tparams")
    .Input("indices: Tindices")
    .Output("output: Tparams")
    .Attr("Tparams: type")
    .Attr("Tindices: {int16, int32, int64}")
    .Attr("bad_indices_policy: string = \"\"")
    .SetShapeFn(GatherNdShape);

REGISTER_OP("OneHot")
    .Input("indices: TI")
    .Input("depth: int32")
    .Input("on_value: T")
    .Input("off_value: T")
    .Output("output: T")
    .Attr("axis: int = -1")
    .Attr("T: type")
    .Attr("TI: {uint8, int8, int32, int64} = int64")
    .SetShapeFn(OneHotShape);

REGISTER_OP("Where")
    .Input("input: T")
    .Output("index: int64")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, "
        "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64, bool} = bool")
    .SetShapeFn(WhereShape);

REGISTER_OP("TopKV2")
    .Input("input: T")
    .Input("k: Tk")
    .Output("values: T")
    .Output("indices: index_type")
    .Attr("sorted: bool = true")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
        "uint64}")
    .Attr("Tk: {int16, int32, int64} = int32")
    .Attr("index_type: {int16, int32, int64} = int32")
    .SetShapeFn(TopKShape);

// TopK: TopKV2 with k as an attr (TF1 graphs before GraphDef version 7): the input's shape with
// its last dim k.
absl::Status TopKAttrShape(ShapeInferenceContext& c) {
  int64_t k = -1;
  (void)GetNodeAttr(c.node(), "k", &k);
  const PartialTensorShape& in = c.input(0);
  if (in.unknown_rank() || in.rank() < 1) return shape_fns::Unknown(c);
  std::vector<int64_t> dims = in.dims();
  dims.back() = k;
  c.set_output(0, PartialTensorShape(dims));
  c.set_output(1, PartialTensorShape(dims));
  return absl::OkStatus();
}

REGISTER_OP("TopK")
    .Input("input: T")
    .Output("values: T")
    .Output("indices: int32")
    .Attr("k: int >= 0")
    .Attr("sorted: bool = true")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
        "uint64}")
    .SetShapeFn(TopKAttrShape);

// NthElement: the input's shape without its last dim.
absl::Status NthElementShape(ShapeInferenceContext& c) {
  const PartialTensorShape& in = c.input(0);
  if (in.unknown_rank() || in.rank() < 1) return shape_fns::Unknown(c);
  c.set_output(0, PartialTensorShape(std::vector<int64_t>(in.dims().begin(), in.dims().end() - 1)));
  return absl::OkStatus();
}

REGISTER_OP("NthElement")
    .Input("input: T")
    .Input("n: int32")
    .Output("values: T")
    .Attr("reverse: bool = false")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
        "uint64}")
    .SetShapeFn(NthElementShape);

REGISTER_OP("Unique")
    .Input("x: T")
    .Output("y: T")
    .Output("idx: out_idx")
    .Attr("T: type")
    .Attr("out_idx: {int32, int64} = int32")
    .SetShapeFn(UniqueShape);

REGISTER_OP("UniqueV2")
    .Input("x: T")
    .Input("axis: Taxis")
    .Output("y: T")
    .Output("idx: out_idx")
    .Attr("T: type")
    .Attr("Taxis: {int32, int64} = int64")
    .Attr("out_idx: {int32, int64} = int32")
    .SetShapeFn(UniqueV2Shape);

REGISTER_OP("UniqueWithCounts")
    .Input("x: T")
    .Output("y: T")
    .Output("idx: out_idx")
    .Output("count: out_idx")
    .Attr("T: type")
    .Attr("out_idx: {int32, int64} = int32")
    .SetShapeFn(UniqueShape);

REGISTER_OP("Range")
    .Input("start: Tidx")
    .Input("limit: Tidx")
    .Input("delta: Tidx")
    .Output("output: Tidx")
    .Attr(
        "Tidx: {bfloat16, half, float, double, int8, int16, int32, int64, uint16, uint32, "
        "uint64} = int32")
    .SetShapeFn(RangeShape);

REGISTER_OP("LinSpace")
    .Input("start: T")
    .Input("stop: T")
    .Input("num: Tidx")
    .Output("output: T")
    .Attr("T: {bfloat16, half, float, double}")
    .Attr("Tidx: {int32, int64} = int32")
    .SetShapeFn(LinSpaceShape);

// UnravelIndex: [len(dims)] for a scalar index, [len(dims), n] for n indices.
absl::Status UnravelIndexShape(ShapeInferenceContext& c) {
  const PartialTensorShape& indices = c.input(0);
  const PartialTensorShape& dims = c.input(1);
  const int64_t rank = dims.unknown_rank() || dims.rank() != 1 ? -1 : dims.dims()[0];
  if (indices.unknown_rank() || indices.rank() > 1) return shape_fns::Unknown(c);
  c.set_output(0, indices.rank() == 0 ? PartialTensorShape({rank})
                                      : PartialTensorShape({rank, indices.dims()[0]}));
  return absl::OkStatus();
}

REGISTER_OP("UnravelIndex")
    .Input("indices: Tidx")
    .Input("dims: Tidx")
    .Output("output: Tidx")
    .Attr("Tidx: {int32, int64} = int32")
    .SetShapeFn(UnravelIndexShape);

REGISTER_OP("CheckNumerics")
    .Input("tensor: T")
    .Output("output: T")
    .Attr("T: {bfloat16, half, float, double}")
    .Attr("message: string")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("ReverseV2")
    .Input("tensor: T")
    .Input("axis: Tidx")
    .Output("output: T")
    .Attr("Tidx: {int32, int64} = int32")
    .Attr(
        "T: {uint8, int8, uint16, int16, int32, uint32, int64, uint64, bool, bfloat16, half, "
        "float, double, complex64, complex128, string}")
    .SetShapeFn(shape_fns::Unchanged);

// Reverse: the input's shape; `dims` must be a vector with one flag per input dim, at most 8.
absl::Status ReverseShape(ShapeInferenceContext& c) {
  RILL_RETURN_IF_ERROR(c.WithRank(1, 1));
  const PartialTensorShape& flags = c.input(1);
  if (!flags.unknown_rank() && flags.dims()[0] >= 0) {
    RILL_RETURN_IF_ERROR(c.WithRank(0, static_cast<int>(flags.dims()[0])));
  }
  const PartialTensorShape& in = c.input(0);
  const int64_t rank = !in.unknown_rank() ? in.rank() : flags.unknown_rank() ? -1 : flags.dims()[0];
  if (rank > 8) {
    return absl::InvalidArgumentError(
        absl::StrCat("reverse does not work on tensors with more than 8 dimensions for node '",
                     c.node().name(), "'"));
  }
  c.set_output(0, in);
  return absl::OkStatus();
}

REGISTER_OP("Reverse")
    .Input("tensor: T")
    .Input("dims: bool")
    .Output("output: T")
    .Attr(
        "T: {uint8, int8, uint16, int16, uint32, int32, uint64, int64, bool, bfloat16, half, "
        "float, double, complex64, complex128, string}")
    .SetShapeFn(ReverseShape);

}  // namespace
}  // namespace rill
