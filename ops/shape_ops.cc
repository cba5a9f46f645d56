// Op definitions of the shape and layout ops that need no data movement beyond a copy: Shape,
// Size, Rank, Reshape, ExpandDims, Squeeze, Fill, ZerosLike, OnesLike, StopGradient,
// PreventGradient, EnsureShape, Snapshot, Cast, Bitcast, Empty. Signatures read from TensorFlow's
// registry (tests/tfgen/dump_op_specs.py).
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "ops/attr_value_util.h"
#include "ops/op_registry.h"

namespace rill {
namespace {

// Shape: a vector of the input's rank.
absl::Status ShapeOfShape(ShapeInferenceContext& c) {
  const PartialTensorShape& in = c.input(0);
  c.set_output(0, PartialTensorShape(std::vector<int64_t>{
                      in.unknown_rank() ? int64_t{-1} : static_cast<int64_t>(in.dims().size())}));
  return absl::OkStatus();
}

// Squeeze: drops the listed dims (or every 1) when the rank is known.
absl::Status SqueezeShape(ShapeInferenceContext& c) {
  const PartialTensorShape& in = c.input(0);
  if (in.unknown_rank()) return absl::OkStatus();
  std::vector<int64_t> squeeze;
  RILL_RETURN_IF_ERROR(GetNodeAttr(c.node(), "squeeze_dims", &squeeze));
  const int rank = static_cast<int>(in.dims().size());
  std::vector<bool> drop(rank, false);
  for (int64_t d : squeeze) {
    if (d < -rank || d >= rank) return absl::OkStatus();  // the kernel reports it
    drop[d < 0 ? d + rank : d] = true;
  }
  std::vector<int64_t> out;
  for (int i = 0; i < rank; ++i) {
    const int64_t dim = in.dims()[i];
    if (squeeze.empty() ? dim == 1 : drop[i]) continue;
    if (squeeze.empty() && dim == -1) return absl::OkStatus();  // might be 1: unknown
    out.push_back(dim);
  }
  c.set_output(0, PartialTensorShape(out));
  return absl::OkStatus();
}

// The element count of fully known `dims`, or -1 when it overflows int64: no tensor of that shape
// can exist, so the shape is left to the kernel, which refuses it (TensorFlow's shape functions
// multiply with an overflow check too).
int64_t CheckedNumElements(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (__builtin_mul_overflow(n, d, &n)) return -1;
  }
  return n;
}

// A partially known Reshape target (dims -1 where not known until run time: a literal -1 or a
// dimension of a shape that is unknown) with its one unknown dim resolved when the input's
// element count and the other dims are known, as TensorFlow's Reshape shape function does.
PartialTensorShape PartialShapeReshaped(const PartialTensorShape& in, PartialTensorShape target) {
  if (target.unknown_rank() || !in.IsFullyDefined()) return target;
  std::vector<int64_t> dims = target.dims();
  int unknown = -1;
  int64_t product = 1;
  for (int i = 0; i < static_cast<int>(dims.size()); ++i) {
    if (dims[i] >= 0) {
      if (__builtin_mul_overflow(product, dims[i], &product)) return target;
    } else if (unknown >= 0) {
      return target;  // two unknown dims
    } else {
      unknown = i;
    }
  }
  if (unknown < 0 || product == 0) return target;
  const int64_t n = CheckedNumElements(in.dims());
  if (n < 0) return target;
  if (n % product != 0) return target;  // the kernel reports it
  dims[unknown] = n / product;
  return PartialTensorShape(std::move(dims));
}

// Reshape: the constant `shape`, its -1 resolved when the input's element count is known; a
// partially known `shape` (ShapeFromShapeTensor) likewise; the rank alone when only the shape
// vector's length is known. A known input size that differs from
// a constant shape without -1 is InvalidArgument "Cannot reshape a tensor with 2 elements to shape
// [3] (3 elements)", as TensorFlow's shape function says; other mismatches (a -1 that cannot be
// resolved) leave the shape unknown and the kernel reports them.
absl::Status ReshapeShape(ShapeInferenceContext& c) {
  std::vector<int64_t> dims;
  if (!c.ConstantIndexValues(1, &dims)) {
    c.set_output(0, PartialShapeReshaped(c.input(0), c.ShapeFromShapeTensor(1)));
    return absl::OkStatus();
  }
  const PartialTensorShape& in = c.input(0);
  int unknown = -1;
  int64_t product = 1;
  for (int i = 0; i < static_cast<int>(dims.size()); ++i) {
    if (dims[i] == -1 && unknown < 0) {
      unknown = i;
    } else if (dims[i] < 0) {
      return absl::OkStatus();
    } else {
      if (__builtin_mul_overflow(product, dims[i], &product)) return absl::OkStatus();
    }
  }
  if (unknown < 0 && in.IsFullyDefined()) {
    // Both sizes known and different: TensorFlow's shape function refuses the graph.
    const int64_t n = CheckedNumElements(in.dims());
    if (n < 0) return absl::OkStatus();
    if (n != product) {
      std::string target;
      for (int64_t d : dims) absl::StrAppend(&target, target.empty() ? "" : ",", d);
      return absl::InvalidArgumentError(absl::StrCat("Cannot reshape a tensor with ", n,
                                                     " elements to shape [", target, "] (", product,
                                                     " elements)"));
    }
  }
  if (unknown >= 0 && in.IsFullyDefined()) {
    const int64_t n = CheckedNumElements(in.dims());
    if (n < 0) return absl::OkStatus();
    if (product == 0 || n % product != 0) return absl::OkStatus();
    dims[unknown] = n / product;
  }
  c.set_output(0, PartialTensorShape(std::move(dims)));
  return absl::OkStatus();
}

// ExpandDims: the input's dims with a 1 inserted at the constant `dim`.
absl::Status ExpandDimsShape(ShapeInferenceContext& c) {
  const PartialTensorShape& in = c.input(0);
  std::vector<int64_t> dim;
  if (in.unknown_rank()) return absl::OkStatus();
  const int rank = in.rank();
  if (!c.ConstantIndexValues(1, &dim) || dim.size() != 1 || dim[0] < -1 - rank || dim[0] > rank) {
    c.set_output(0, PartialTensorShape(std::vector<int64_t>(rank + 1, -1)));
    return absl::OkStatus();
  }
  const int64_t at = dim[0] < 0 ? dim[0] + rank + 1 : dim[0];
  std::vector<int64_t> out = in.dims();
  out.insert(out.begin() + at, 1);
  c.set_output(0, PartialTensorShape(std::move(out)));
  return absl::OkStatus();
}

// Fill: the `dims` input as a shape (ShapeFromShapeTensor; values the kernel refuses leave it
// unknown).
absl::Status FillShape(ShapeInferenceContext& c) {
  c.set_output(0, c.ShapeFromShapeTensor(0));
  return absl::OkStatus();
}

REGISTER_OP("Shape")
    .Input("input: T")
    .Output("output: out_type")
    .Attr("T: type")
    .Attr("out_type: {int32, int64} = int32")
    .SetShapeFn(ShapeOfShape);

REGISTER_OP("Size")
    .Input("input: T")
    .Output("output: out_type")
    .Attr("T: type")
    .Attr("out_type: {int32, int64} = int32")
    .SetShapeFn(shape_fns::Scalar);

REGISTER_OP("Rank")
    .Input("input: T")
    .Output("output: int32")
    .Attr("T: type")
    .SetShapeFn(shape_fns::Scalar);

REGISTER_OP("Reshape")
    .Input("tensor: T")
    .Input("shape: Tshape")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tshape: {int32, int64} = int32")
    .SetShapeFn(ReshapeShape);

// Reshape of a quantized tensor (graph_transforms' quantize_nodes): the range passes through.
REGISTER_OP("QuantizedReshape")
    .Input("tensor: T")
    .Input("shape: Tshape")
    .Input("input_min: float")
    .Input("input_max: float")
    .Output("output: T")
    .Output("output_min: float")
    .Output("output_max: float")
    .Attr("T: type")
    .Attr("Tshape: {int32, int64} = int32")
    .SetShapeFn([](ShapeInferenceContext& c) {
      RILL_RETURN_IF_ERROR(ReshapeShape(c));
      c.set_output(1, PartialTensorShape(std::vector<int64_t>{}));
      c.set_output(2, PartialTensorShape(std::vector<int64_t>{}));
      return absl::OkStatus();
    });

REGISTER_OP("ExpandDims")
    .Input("input: T")
    .Input("dim: Tdim")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tdim: {int32, int64} = int32")
    .SetShapeFn(ExpandDimsShape);

REGISTER_OP("Squeeze")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("squeeze_dims: list(int) >= 0 = []")
    .SetShapeFn(SqueezeShape);

REGISTER_OP("Fill")
    .Input("dims: index_type")
    .Input("value: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("index_type: {int32, int64} = int32")
    .SetShapeFn(FillShape);

REGISTER_OP("ZerosLike")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: type")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("OnesLike")
    .Input("x: T")
    .Output("y: T")
    .Attr(
        "T: {bfloat16, half, float, double, int8, uint8, int16, uint16, int32, uint32, int64, "
        "uint64, complex64, complex128, bool}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("StopGradient")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: type")
    .SetShapeFn(shape_fns::Unchanged);

// EnsureShape: the input's shape merged with the `shape` attr.
absl::Status EnsureShapeShape(ShapeInferenceContext& c) {
  TensorShapeProto proto;
  RILL_RETURN_IF_ERROR(GetNodeAttr(c.node(), "shape", &proto));
  RILL_ASSIGN_OR_RETURN(PartialTensorShape expected, PartialTensorShape::FromProto(proto));
  RILL_ASSIGN_OR_RETURN(PartialTensorShape merged,
                        shape_fns::MergeShapes(c, c.input(0), expected,
                                               "the input of EnsureShape and its shape attr"));
  c.set_output(0, std::move(merged));
  return absl::OkStatus();
}

// Bitcast: the input's shape, with in_size / out_size appended (smaller output type) or the last
// dim, which must then be out_size / in_size, dropped (larger output type).
absl::Status BitcastShape(ShapeInferenceContext& c) {
  DataType in_type = DT_INVALID, out_type = DT_INVALID;
  RILL_RETURN_IF_ERROR(GetNodeAttr(c.node(), "T", &in_type));
  RILL_RETURN_IF_ERROR(GetNodeAttr(c.node(), "type", &out_type));
  const PartialTensorShape& in = c.input(0);
  const int64_t in_size = DataTypeSize(in_type), out_size = DataTypeSize(out_type);
  if (in.unknown_rank() || in_size == 0 || out_size == 0) return shape_fns::Unknown(c);
  std::vector<int64_t> dims = in.dims();
  if (out_size < in_size) dims.push_back(in_size / out_size);
  if (out_size > in_size) {
    if (dims.empty()) return shape_fns::Unknown(c);  // the kernel reports it
    if (dims.back() >= 0 && dims.back() != out_size / in_size) {
      return absl::InvalidArgumentError(absl::StrCat("Cannot bitcast due to shape. ", dims.back(),
                                                     " does not match ", out_size / in_size,
                                                     " for node '", c.node().name(), "'"));
    }
    dims.pop_back();
  }
  c.set_output(0, PartialTensorShape(std::move(dims)));
  return absl::OkStatus();
}

REGISTER_OP("Bitcast")
    .Input("input: T")
    .Output("output: type")
    .Attr(
        "T: {bfloat16, half, float, double, int64, int32, uint8, uint16, uint32, uint64, int8, "
        "int16, complex64, complex128, qint8, quint8, qint16, quint16, qint32}")
    .Attr(
        "type: {bfloat16, half, float, double, int64, int32, uint8, uint16, uint32, uint64, int8, "
        "int16, complex64, complex128, qint8, quint8, qint16, quint16, qint32}")
    .SetShapeFn(BitcastShape);

// Empty: the shape input as a shape (ShapeFromShapeTensor).
absl::Status EmptyShape(ShapeInferenceContext& c) {
  c.set_output(0, c.ShapeFromShapeTensor(0));
  return absl::OkStatus();
}

REGISTER_OP("Empty")
    .Input("shape: int32")
    .Output("output: dtype")
    .Attr("dtype: type")
    .Attr("init: bool = false")
    .SetIsStateful()
    .SetShapeFn(EmptyShape);

REGISTER_OP("EnsureShape")
    .Input("input: T")
    .Output("output: T")
    .Attr("shape: shape")
    .Attr("T: type")
    .SetShapeFn(EnsureShapeShape);

REGISTER_OP("PreventGradient")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("message: string = \"\"")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Snapshot")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: type")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Cast")
    .Input("x: SrcT")
    .Output("y: DstT")
    .Attr("SrcT: type")
    .Attr("DstT: type")
    .Attr("Truncate: bool = false")
    .SetShapeFn(shape_fns::Unchanged);

}  // namespace
}  // namespace rill
