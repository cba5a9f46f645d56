// Op definitions: constants, placeholders, identities, NoOp.
#include "absl/strings/str_cat.h"
#include "core/partial_tensor_shape.h"
#include "core/status_macros.h"
#include "core/tensor_proto.h"
#include "ops/attr_value_util.h"
#include "ops/op_registry.h"

namespace rill {
namespace {

absl::Status ConstShape(ShapeInferenceContext& c) {
  const AttrValue* value = FindNodeAttr(c.node(), "value");
  if (value == nullptr || value->value_case() != AttrValue::kTensor) return absl::OkStatus();
  RILL_ASSIGN_OR_RETURN(PartialTensorShape s,
                        PartialTensorShape::FromProto(value->tensor().tensor_shape()));
  // A value the kernel will refuse (more values than elements, say) leaves the shape unknown, so
  // no rewrite folds a Shape of it and the run reports the kernel's error, optimized or not.
  if (!TensorProtoValuesFit(value->tensor())) return absl::OkStatus();
  c.set_output(0, std::move(s));
  return absl::OkStatus();
}

REGISTER_OP("Const")
    .Output("output: dtype")
    .Attr("value: tensor")
    .Attr("dtype: type")
    .SetShapeFn(ConstShape)
    .Doc("Returns a constant tensor.");

REGISTER_OP("Placeholder")
    .Output("output: dtype")
    .Attr("dtype: type")
    .Attr("shape: shape = { unknown_rank: true }")
    .SetShapeFn(shape_fns::FromShapeAttr)
    .Doc("A value that must be fed.");

// Placeholder's name in TF1 graphs of GraphDef versions 21 and 22 (shape required).
REGISTER_OP("PlaceholderV2")
    .Output("output: dtype")
    .Attr("dtype: type")
    .Attr("shape: shape")
    .SetShapeFn(shape_fns::FromShapeAttr);

REGISTER_OP("PlaceholderWithDefault")
    .Input("input: dtype")
    .Output("output: dtype")
    .Attr("dtype: type")
    .Attr("shape: shape")
    .SetShapeFn(shape_fns::FromShapeAttr)
    .Doc("Its input, unless fed.");

REGISTER_OP("Identity")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: type")
    .SetShapeFn(shape_fns::Unchanged);

// Pass-throughs at run time: GuaranteeConst marks a value constant for the grappler, DeepCopy
// hands out a copy.
REGISTER_OP("GuaranteeConst")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: type")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("DeepCopy")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: type")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Unchanged);

// Transpose, conjugating complex values.
REGISTER_OP("ConjugateTranspose")
    .Input("x: T")
    .Input("perm: Tperm")
    .Output("y: T")
    .Attr("T: type")
    .Attr("Tperm: {int32, int64} = int32")
    .SetShapeFn(shape_fns::Unknown);

// The reference itself, not its value (TF1 loops over reference variables: tf.identity of a ref).
REGISTER_OP("RefIdentity")
    .Input("input: Ref(T)")
    .Output("output: Ref(T)")
    .Attr("T: type")
    .SetAllowsUninitializedInput()
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("IdentityN")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: list(type) >= 1")
    .SetShapeFn([](ShapeInferenceContext& c) {
      for (int i = 0; i < c.num_outputs() && i < c.num_inputs(); ++i) c.set_output(i, c.input(i));
      return absl::OkStatus();
    });

REGISTER_OP("NoOp").SetShapeFn(shape_fns::NoOutputs);

// Axes and per-dimension vectors from one data format to another (layout rewrites).
REGISTER_OP("DataFormatDimMap")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {int32, int64} = int32")
    .Attr("src_format: string = \"NHWC\"")
    .Attr("dst_format: string = \"NCHW\"")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("DataFormatVecPermute")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {int32, int64} = int32")
    .Attr("src_format: string = \"NHWC\"")
    .Attr("dst_format: string = \"NCHW\"")
    .SetShapeFn(shape_fns::Unchanged);

// A copy of x with rows i added to, subtracted from or replaced by v's rows.
REGISTER_OP("InplaceAdd")
    .Input("x: T")
    .Input("i: int32")
    .Input("v: T")
    .Output("y: T")
    .Attr("T: type")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("InplaceSub")
    .Input("x: T")
    .Input("i: int32")
    .Input("v: T")
    .Output("y: T")
    .Attr("T: type")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("InplaceUpdate")
    .Input("x: T")
    .Input("i: int32")
    .Input("v: T")
    .Output("y: T")
    .Attr("T: type")
    .SetShapeFn(shape_fns::Unchanged);

// The elements of x not in y, and their positions (tf.compat.v1.setdiff1d).
absl::Status ListDiffShape(ShapeInferenceContext& c) {
  c.set_output(0, PartialTensorShape({-1}));
  c.set_output(1, PartialTensorShape({-1}));
  return absl::OkStatus();
}

REGISTER_OP("ListDiff")
    .Input("x: T")
    .Input("y: T")
    .Output("out: T")
    .Output("idx: out_idx")
    .Attr("T: type")
    .Attr("out_idx: {int32, int64} = int32")
    .SetShapeFn(ListDiffShape);

}  // namespace
}  // namespace rill
