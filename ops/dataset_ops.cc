// Op definitions of TensorFlow's tf.data ops that a TF1 graph (or TensorFlow's Go binding) builds
// to feed one element through an iterator: TensorDataset, Iterator, IteratorV2, MakeIterator and
// IteratorGetNext. Signatures read from TensorFlow's registry (tests/tfgen/dump_op_specs.py).
// A dataset is a DT_VARIANT scalar, an iterator a resource scalar; IteratorGetNext's outputs have
// the output_shapes attr's shapes, as TensorFlow's DatasetIteratorShape gives them.
#include <utility>

#include "core/partial_tensor_shape.h"
#include "core/status_macros.h"
#include "ops/attr_value_util.h"
#include "ops/op_registry.h"

namespace rill {
namespace {

absl::Status NoOutputs(ShapeInferenceContext&) { return absl::OkStatus(); }

// IteratorGetNext: a scalar handle; output i the output_shapes attr's entry i.
absl::Status IteratorGetNextShape(ShapeInferenceContext& c) {
  RILL_RETURN_IF_ERROR(c.WithRank(0, 0));
  const AttrValue* shapes = FindNodeAttr(c.node(), "output_shapes");
  if (shapes == nullptr || shapes->list().shape_size() != c.num_outputs()) {
    return absl::OkStatus();  // the kernel reports the mismatch
  }
  for (int i = 0; i < c.num_outputs(); ++i) {
    absl::StatusOr<PartialTensorShape> s = PartialTensorShape::FromProto(shapes->list().shape(i));
    if (s.ok()) c.set_output(i, *std::move(s));
  }
  return absl::OkStatus();
}

REGISTER_OP("TensorDataset")
    .Input("components: Toutput_types")
    .Output("handle: variant")
    .Attr("Toutput_types: list(type) >= 1")
    .Attr("output_shapes: list(shape) >= 1")
    .Attr("metadata: string = \"\"")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Scalar);

#define RILL_ITERATOR_OP(name)                 \
  REGISTER_OP(name)                            \
      .Output("handle: resource")              \
      .Attr("shared_name: string")             \
      .Attr("container: string")               \
      .Attr("output_types: list(type) >= 1")   \
      .Attr("output_shapes: list(shape) >= 1") \
      .SetIsStateful()                         \
      .SetShapeFn(shape_fns::Scalar)

RILL_ITERATOR_OP("Iterator");
RILL_ITERATOR_OP("IteratorV2");

REGISTER_OP("MakeIterator")
    .Input("dataset: variant")
    .Input("iterator: resource")
    .SetIsStateful()
    .SetShapeFn(NoOutputs);

REGISTER_OP("IteratorGetNext")
    .Input("iterator: resource")
    .Output("components: output_types")
    .Attr("output_types: list(type) >= 1")
    .Attr("output_shapes: list(shape) >= 1")
    .SetIsStateful()
    .SetShapeFn(IteratorGetNextShape);

}  // namespace
}  // namespace rill
