// Op definitions of the elementwise ops with three operands: Select, SelectV2, ClipByValue.
// Signatures read from TensorFlow's registry (tests/tfgen/dump_op_specs.py).
#include "core/status_macros.h"
#include "ops/op_registry.h"

namespace rill {
namespace {

// Select: the output has the operands' shape (`t`, merged with `e` where known).
absl::Status SelectShape(ShapeInferenceContext& c) {
  const PartialTensorShape& t = c.input(1);
  const PartialTensorShape& e = c.input(2);
  if (t.unknown_rank() || e.unknown_rank() || t.rank() != e.rank()) {
    c.set_output(0, t.unknown_rank() ? e : t);
    return absl::OkStatus();
  }
  std::vector<int64_t> dims = t.dims();
  for (int d = 0; d < t.rank(); ++d) {
    RILL_RETURN_IF_ERROR(c.MergeDim(dims[d], e.dims()[d], &dims[d], "'then' and 'else'"));
  }
  c.set_output(0, PartialTensorShape(std::move(dims)));
  return absl::OkStatus();
}

// SelectV2: the broadcast of all three inputs.
absl::Status SelectV2Shape(ShapeInferenceContext& c) {
  RILL_ASSIGN_OR_RETURN(PartialTensorShape te,
                        shape_fns::BroadcastPartial(c, c.input(1), c.input(2)));
  RILL_ASSIGN_OR_RETURN(PartialTensorShape out, shape_fns::BroadcastPartial(c, c.input(0), te));
  c.set_output(0, std::move(out));
  return absl::OkStatus();
}

REGISTER_OP("Select")
    .Input("condition: bool")
    .Input("t: T")
    .Input("e: T")
    .Output("output: T")
    .Attr("T: type")
    .SetShapeFn(SelectShape);

REGISTER_OP("SelectV2")
    .Input("condition: bool")
    .Input("t: T")
    .Input("e: T")
    .Output("output: T")
    .Attr("T: type")
    .SetShapeFn(SelectV2Shape);

REGISTER_OP("ClipByValue")
    .Input("t: T")
    .Input("clip_value_min: T")
    .Input("clip_value_max: T")
    .Output("output: T")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, complex64, int64, "
        "qint8, quint8, qint32, "
        "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}")
    .SetShapeFn(shape_fns::Unchanged);

}  // namespace
}  // namespace rill
