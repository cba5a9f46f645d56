// Op definitions of the reductions over axes given as an input: Sum, Mean, Prod, Max, Min, All,
// Any, ArgMax, ArgMin, EuclideanNorm, and the scans Cumsum, Cumprod, CumulativeLogsumexp.
// Signatures read from TensorFlow's registry (tests/tfgen/dump_op_specs.py).
#include "core/status_macros.h"
#include "ops/attr_value_util.h"
#include "ops/op_registry.h"

namespace rill {
namespace {

// Reductions: with the input's rank and constant axes, the input's dims less the reduced ones
// (1 with keep_dims); with keep_dims alone, the input's rank. Out-of-range axes leave the shape
// unknown: the kernel reports them.
absl::Status ReductionShape(ShapeInferenceContext& c) {
  const PartialTensorShape& in = c.input(0);
  bool keep_dims = false;
  RILL_RETURN_IF_ERROR(GetNodeAttr(c.node(), "keep_dims", &keep_dims));
  if (in.unknown_rank()) return absl::OkStatus();
  const int rank = in.rank();
  std::vector<int64_t> axes;
  if (!c.ConstantIndexValues(1, &axes)) {
    if (keep_dims) c.set_output(0, PartialTensorShape(std::vector<int64_t>(rank, -1)));
    return absl::OkStatus();
  }
  std::vector<bool> reduced(rank, false);
  for (int64_t a : axes) {
    if (a < -rank || a >= rank) return absl::OkStatus();
    reduced[a < 0 ? a + rank : a] = true;
  }
  std::vector<int64_t> out;
  for (int d = 0; d < rank; ++d) {
    if (!reduced[d]) {
      out.push_back(in.dims()[d]);
    } else if (keep_dims) {
      out.push_back(1);
    }
  }
  c.set_output(0, PartialTensorShape(std::move(out)));
  return absl::OkStatus();
}

// ArgMax/ArgMin: the input's dims without the (constant) axis; the rank alone otherwise.
absl::Status ArgReductionShape(ShapeInferenceContext& c) {
  const PartialTensorShape& in = c.input(0);
  if (in.rank() <= 0) return absl::OkStatus();
  std::vector<int64_t> axis;
  std::vector<int64_t> out(in.rank() - 1, -1);
  if (c.ConstantIndexValues(1, &axis) && axis.size() == 1 && axis[0] >= -in.rank() &&
      axis[0] < in.rank()) {
    out = in.dims();
    out.erase(out.begin() + (axis[0] < 0 ? axis[0] + in.rank() : axis[0]));
  }
  c.set_output(0, PartialTensorShape(std::move(out)));
  return absl::OkStatus();
}

REGISTER_OP("Sum")
    .Input("input: T")
    .Input("reduction_indices: Tidx")
    .Output("output: T")
    .Attr("keep_dims: bool = false")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, "
        "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}")
    .Attr("Tidx: {int32, int64} = int32")
    .SetShapeFn(ReductionShape);

REGISTER_OP("Mean")
    .Input("input: T")
    .Input("reduction_indices: Tidx")
    .Output("output: T")
    .Attr("keep_dims: bool = false")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, "
        "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}")
    .Attr("Tidx: {int32, int64} = int32")
    .SetShapeFn(ReductionShape);

REGISTER_OP("Prod")
    .Input("input: T")
    .Input("reduction_indices: Tidx")
    .Output("output: T")
    .Attr("keep_dims: bool = false")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, "
        "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}")
    .Attr("Tidx: {int32, int64} = int32")
    .SetShapeFn(ReductionShape);

REGISTER_OP("Max")
    .Input("input: T")
    .Input("reduction_indices: Tidx")
    .Output("output: T")
    .Attr("keep_dims: bool = false")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
        "uint64, qint8, quint8, qint32, qint16, quint16}")
    .Attr("Tidx: {int32, int64} = int32")
    .SetShapeFn(ReductionShape);

REGISTER_OP("Min")
    .Input("input: T")
    .Input("reduction_indices: Tidx")
    .Output("output: T")
    .Attr("keep_dims: bool = false")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
        "uint64, qint8, quint8, qint32, qint16, quint16}")
    .Attr("Tidx: {int32, int64} = int32")
    .SetShapeFn(ReductionShape);

REGISTER_OP("All")
    .Input("input: bool")
    .Input("reduction_indices: Tidx")
    .Output("output: bool")
    .Attr("keep_dims: bool = false")
    .Attr("Tidx: {int32, int64} = int32")
    .SetShapeFn(ReductionShape);

REGISTER_OP("Any")
    .Input("input: bool")
    .Input("reduction_indices: Tidx")
    .Output("output: bool")
    .Attr("keep_dims: bool = false")
    .Attr("Tidx: {int32, int64} = int32")
    .SetShapeFn(ReductionShape);

REGISTER_OP("ArgMax")
    .Input("input: T")
    .Input("dimension: Tidx")
    .Output("output: output_type")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
        "uint64, qint8, quint8, qint32, qint16, quint16, bool}")
    .Attr("Tidx: {int16, int32, int64} = int32")
    .Attr("output_type: {int16, uint16, int32, int64} = int64")
    .SetShapeFn(ArgReductionShape);

REGISTER_OP("ArgMin")
    .Input("input: T")
    .Input("dimension: Tidx")
    .Output("output: output_type")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
        "uint64, qint8, quint8, qint32, qint16, quint16, bool}")
    .Attr("Tidx: {int32, int64} = int32")
    .Attr("output_type: {int32, int64} = int64")
    .SetShapeFn(ArgReductionShape);

REGISTER_OP("Cumsum")
    .Input("x: T")
    .Input("axis: Tidx")
    .Output("out: T")
    .Attr("exclusive: bool = false")
    .Attr("reverse: bool = false")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, "
        "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}")
    .Attr("Tidx: {int32, int64} = int32")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("EuclideanNorm")
    .Input("input: T")
    .Input("reduction_indices: Tidx")
    .Output("output: T")
    .Attr("keep_dims: bool = false")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, "
        "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}")
    .Attr("Tidx: {int32, int64} = int32")
    .SetShapeFn(ReductionShape);

REGISTER_OP("Cumprod")
    .Input("x: T")
    .Input("axis: Tidx")
    .Output("out: T")
    .Attr("exclusive: bool = false")
    .Attr("reverse: bool = false")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, "
        "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}")
    .Attr("Tidx: {int32, int64} = int32")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("CumulativeLogsumexp")
    .Input("x: T")
    .Input("axis: Tidx")
    .Output("out: T")
    .Attr("exclusive: bool = false")
    .Attr("reverse: bool = false")
    .Attr("T: {bfloat16, half, float, double}")
    .Attr("Tidx: {int32, int64} = int32")
    .SetShapeFn(shape_fns::Unchanged);

}  // namespace
}  // namespace rill
