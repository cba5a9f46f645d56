// Op definitions of the N-d scatter ops: ScatterNd (updates scattered into zeros of a given
// shape) and TensorScatterUpdate / Add / Sub / Max / Min (into a copy of a tensor). Signatures
// read from TensorFlow's registry (tests/tfgen/dump_op_specs.py).
//
// Shape functions: ScatterNd's output is the `shape` value when it is a constant, else of the
// shape input's length; the TensorScatter ops' output is the tensor's shape. Nothing here fails:
// the kernels report bad indices and shapes with TensorFlow's texts.
#include <cstdint>
#include <vector>

#include "ops/op_registry.h"
#include "ops/shape_inference.h"

namespace rill {
namespace {

absl::Status ScatterNdShape(ShapeInferenceContext& c) {
  std::vector<int64_t> dims;
  if (c.PartialIndexValues(2, &dims)) {
    for (int64_t& d : dims) d = d < 0 ? -1 : d;
    c.set_output(0, PartialTensorShape(dims));
    return absl::OkStatus();
  }
  const PartialTensorShape& s = c.input(2);
  if (s.rank() == 1 && s.dims()[0] >= 0) {
    c.set_output(0, PartialTensorShape(std::vector<int64_t>(s.dims()[0], -1)));
  }
  return absl::OkStatus();
}

REGISTER_OP("ScatterNd")
    .Input("indices: Tindices")
    .Input("updates: T")
    .Input("shape: Tindices")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tindices: {int16, int32, int64}")
    .Attr("bad_indices_policy: string = \"\"")
    .SetShapeFn(ScatterNdShape);

REGISTER_OP("TensorScatterUpdate")
    .Input("tensor: T")
    .Input("indices: Tindices")
    .Input("updates: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tindices: {int16, int32, int64, uint16}")
    .Attr("bad_indices_policy: string = \"\"")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("TensorScatterAdd")
    .Input("tensor: T")
    .Input("indices: Tindices")
    .Input("updates: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tindices: {int32, int64}")
    .Attr("bad_indices_policy: string = \"\"")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("TensorScatterSub")
    .Input("tensor: T")
    .Input("indices: Tindices")
    .Input("updates: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tindices: {int32, int64}")
    .Attr("bad_indices_policy: string = \"\"")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("TensorScatterMax")
    .Input("tensor: T")
    .Input("indices: Tindices")
    .Input("updates: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tindices: {int32, int64}")
    .Attr("bad_indices_policy: string = \"\"")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("TensorScatterMin")
    .Input("tensor: T")
    .Input("indices: Tindices")
    .Input("updates: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tindices: {int32, int64}")
    .Attr("bad_indices_policy: string = \"\"")
    .SetShapeFn(shape_fns::Unchanged);

}  // namespace
}  // namespace rill
