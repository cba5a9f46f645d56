// Op definitions: TF1 reference variables and resource variables.
#include <string>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "ops/attr_value_util.h"
#include "ops/op_registry.h"

namespace rill {
namespace {

// The dtype check of TensorFlow's ValidateVariableResourceHandle: where the variable the handle
// reaches is known (a VarHandleOp, maybe through Identity), its dtype must be the op's.
absl::Status CheckHandleDtype(const ShapeInferenceContext& c, const HandleShape& handle) {
  DataType dtype;
  RILL_RETURN_IF_ERROR(GetNodeAttr(c.node(), "dtype", &dtype));
  if (handle.dtype == dtype) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      "Trying to read variable with wrong dtype. Expected ", DataTypeString(handle.dtype), " got ",
      DataTypeString(dtype), " for node '", c.node().name(), "' (op ", c.node().op(), ")"));
}

// ReadVariableOp: the value's shape is left unknown (a variable assigned without validate_shape
// may change shape), but a known variable of another dtype is refused as in TensorFlow.
absl::Status ReadVariableShape(ShapeInferenceContext& c) {
  if (const HandleShape* handle = c.input_handle_shape(0)) {
    RILL_RETURN_IF_ERROR(CheckHandleDtype(c, *handle));
  }
  return shape_fns::Unknown(c);
}

// AssignVariableOp, AssignAddVariableOp, AssignSubVariableOp: TensorFlow's CreateAssignShapeFn
// merges the variable's shape attr with the value's static shape, whatever validate_shape says,
// so a constant of another shape is refused when the graph is built. Its merge texts: "Shapes
// must be equal rank, but are 1 and 0", "Dimension 0 in both shapes must be equal, but are 2
// and 3. Shapes are [2] and [3]."
absl::Status AssignVariableShape(ShapeInferenceContext& c) {
  const HandleShape* handle = c.input_handle_shape(0);
  if (handle == nullptr) return absl::OkStatus();
  RILL_RETURN_IF_ERROR(CheckHandleDtype(c, *handle));
  const PartialTensorShape& var = handle->shape;
  const PartialTensorShape& value = c.input(1);
  if (var.unknown_rank() || value.unknown_rank()) return absl::OkStatus();
  const std::string where =
      absl::StrCat(" for node '", c.node().name(), "' (op ", c.node().op(), ")");
  if (var.rank() != value.rank()) {
    return absl::InvalidArgumentError(absl::StrCat("Shapes must be equal rank, but are ",
                                                   var.rank(), " and ", value.rank(), where));
  }
  for (int d = 0; d < var.rank(); ++d) {
    const int64_t a = var.dims()[d], b = value.dims()[d];
    if (a >= 0 && b >= 0 && a != b) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Dimension ", d, " in both shapes must be equal, but are ", a, " and ", b,
          ". Shapes are ", var.DebugString(), " and ", value.DebugString(), ".", where));
    }
  }
  return absl::OkStatus();
}

REGISTER_OP("VariableV2")
    .Output("ref: Ref(dtype)")
    .Attr("shape: shape")
    .Attr("dtype: type")
    .Attr("container: string = \"\"")
    .Attr("shared_name: string = \"\"")
    .SetIsStateful()
    .SetShapeFn(shape_fns::FromShapeAttr);

REGISTER_OP("Variable")
    .Output("ref: Ref(dtype)")
    .Attr("shape: shape")
    .Attr("dtype: type")
    .Attr("container: string = \"\"")
    .Attr("shared_name: string = \"\"")
    .SetIsStateful()
    .SetShapeFn(shape_fns::FromShapeAttr);

REGISTER_OP("Assign")
    .Input("ref: Ref(T)")
    .Input("value: T")
    .Output("output_ref: Ref(T)")
    .Attr("T: type")
    .Attr("validate_shape: bool = true")
    .Attr("use_locking: bool = true")
    .SetAllowsUninitializedInput()
    .SetShapeFn([](ShapeInferenceContext& c) {
      // As TensorFlow: with validate_shape the variable's and the value's shapes are merged (a
      // restored value of unknown shape takes the variable's), else the value's.
      bool validate_shape = true;
      if (c.node().attr().count("validate_shape") > 0) {
        RILL_RETURN_IF_ERROR(GetNodeAttr(c.node(), "validate_shape", &validate_shape));
      }
      if (!validate_shape) {
        c.set_output(0, c.input(1));
        return absl::OkStatus();
      }
      RILL_ASSIGN_OR_RETURN(PartialTensorShape merged,
                            shape_fns::MergeShapes(c, c.input(0), c.input(1), "ref and value"));
      c.set_output(0, std::move(merged));
      return absl::OkStatus();
    });

REGISTER_OP("AssignAdd")
    .Input("ref: Ref(T)")
    .Input("value: T")
    .Output("output_ref: Ref(T)")
    .Attr("T: numbertype")
    .Attr("use_locking: bool = false")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("AssignSub")
    .Input("ref: Ref(T)")
    .Input("value: T")
    .Output("output_ref: Ref(T)")
    .Attr("T: numbertype")
    .Attr("use_locking: bool = false")
    .SetShapeFn(shape_fns::Unchanged);

// Scatter updates of a reference variable (in place; the output is the forwarded ref).
REGISTER_OP("ScatterUpdate")
    .Input("ref: Ref(T)")
    .Input("indices: Tindices")
    .Input("updates: T")
    .Output("output_ref: Ref(T)")
    .Attr("T: type")
    .Attr("Tindices: {int32, int64}")
    .Attr("use_locking: bool = true")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("ScatterAdd")
    .Input("ref: Ref(T)")
    .Input("indices: Tindices")
    .Input("updates: T")
    .Output("output_ref: Ref(T)")
    .Attr("T: numbertype")
    .Attr("Tindices: {int32, int64}")
    .Attr("use_locking: bool = false")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("ScatterSub")
    .Input("ref: Ref(T)")
    .Input("indices: Tindices")
    .Input("updates: T")
    .Output("output_ref: Ref(T)")
    .Attr("T: numbertype")
    .Attr("Tindices: {int32, int64}")
    .Attr("use_locking: bool = false")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("ScatterMul")
    .Input("ref: Ref(T)")
    .Input("indices: Tindices")
    .Input("updates: T")
    .Output("output_ref: Ref(T)")
    .Attr("T: numbertype")
    .Attr("Tindices: {int32, int64}")
    .Attr("use_locking: bool = false")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("ScatterDiv")
    .Input("ref: Ref(T)")
    .Input("indices: Tindices")
    .Input("updates: T")
    .Output("output_ref: Ref(T)")
    .Attr("T: numbertype")
    .Attr("Tindices: {int32, int64}")
    .Attr("use_locking: bool = false")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("ScatterMax")
    .Input("ref: Ref(T)")
    .Input("indices: Tindices")
    .Input("updates: T")
    .Output("output_ref: Ref(T)")
    .Attr("T: {half, bfloat16, float, double, int32, int64}")
    .Attr("Tindices: {int32, int64}")
    .Attr("use_locking: bool = false")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("ScatterMin")
    .Input("ref: Ref(T)")
    .Input("indices: Tindices")
    .Input("updates: T")
    .Output("output_ref: Ref(T)")
    .Attr("T: {half, bfloat16, float, double, int32, int64}")
    .Attr("Tindices: {int32, int64}")
    .Attr("use_locking: bool = false")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("ScatterNdUpdate")
    .Input("ref: Ref(T)")
    .Input("indices: Tindices")
    .Input("updates: T")
    .Output("output_ref: Ref(T)")
    .Attr("T: type")
    .Attr("Tindices: {int32, int64}")
    .Attr("use_locking: bool = true")
    .Attr("bad_indices_policy: string = \"\"")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("ScatterNdAdd")
    .Input("ref: Ref(T)")
    .Input("indices: Tindices")
    .Input("updates: T")
    .Output("output_ref: Ref(T)")
    .Attr("T: numbertype")
    .Attr("Tindices: {int32, int64}")
    .Attr("use_locking: bool = false")
    .Attr("bad_indices_policy: string = \"\"")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("ScatterNdSub")
    .Input("ref: Ref(T)")
    .Input("indices: Tindices")
    .Input("updates: T")
    .Output("output_ref: Ref(T)")
    .Attr("T: numbertype")
    .Attr("Tindices: {int32, int64}")
    .Attr("use_locking: bool = false")
    .Attr("bad_indices_policy: string = \"\"")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("VarHandleOp")
    .Output("resource: resource")
    .Attr("container: string = \"\"")
    .Attr("shared_name: string = \"\"")
    .Attr("debug_name: string = \"\"")
    .Attr("dtype: type")
    .Attr("shape: shape")
    .Attr("allowed_devices: list(string) = []")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Scalar);

REGISTER_OP("ReadVariableOp")
    .Input("resource: resource")
    .Output("value: dtype")
    .Attr("dtype: type")
    .SetIsStateful()
    .SetShapeFn(ReadVariableShape);

REGISTER_OP("AssignVariableOp")
    .Input("resource: resource")
    .Input("value: dtype")
    .Attr("dtype: type")
    .Attr("validate_shape: bool = false")
    .SetIsStateful()
    .SetShapeFn(AssignVariableShape);

REGISTER_OP("AssignAddVariableOp")
    .Input("resource: resource")
    .Input("value: dtype")
    .Attr("dtype: type")
    .SetIsStateful()
    .SetShapeFn(AssignVariableShape);

REGISTER_OP("AssignSubVariableOp")
    .Input("resource: resource")
    .Input("value: dtype")
    .Attr("dtype: type")
    .SetIsStateful()
    .SetShapeFn(AssignVariableShape);

// Scatter updates of a resource variable (a fresh buffer, swapped in under the lock).
REGISTER_OP("ResourceScatterUpdate")
    .Input("resource: resource")
    .Input("indices: Tindices")
    .Input("updates: dtype")
    .Attr("dtype: type")
    .Attr("Tindices: {int32, int64}")
    .SetIsStateful()
    .SetShapeFn(shape_fns::NoOutputs);

REGISTER_OP("ResourceScatterAdd")
    .Input("resource: resource")
    .Input("indices: Tindices")
    .Input("updates: dtype")
    .Attr("dtype: numbertype")
    .Attr("Tindices: {int32, int64}")
    .SetIsStateful()
    .SetShapeFn(shape_fns::NoOutputs);

REGISTER_OP("ResourceScatterSub")
    .Input("resource: resource")
    .Input("indices: Tindices")
    .Input("updates: dtype")
    .Attr("dtype: numbertype")
    .Attr("Tindices: {int32, int64}")
    .SetIsStateful()
    .SetShapeFn(shape_fns::NoOutputs);

REGISTER_OP("ResourceScatterMul")
    .Input("resource: resource")
    .Input("indices: Tindices")
    .Input("updates: dtype")
    .Attr("dtype: numbertype")
    .Attr("Tindices: {int32, int64}")
    .SetIsStateful()
    .SetShapeFn(shape_fns::NoOutputs);

REGISTER_OP("ResourceScatterDiv")
    .Input("resource: resource")
    .Input("indices: Tindices")
    .Input("updates: dtype")
    .Attr("dtype: numbertype")
    .Attr("Tindices: {int32, int64}")
    .SetIsStateful()
    .SetShapeFn(shape_fns::NoOutputs);

REGISTER_OP("ResourceScatterMax")
    .Input("resource: resource")
    .Input("indices: Tindices")
    .Input("updates: dtype")
    .Attr("dtype: numbertype")
    .Attr("Tindices: {int32, int64}")
    .SetIsStateful()
    .SetShapeFn(shape_fns::NoOutputs);

REGISTER_OP("ResourceScatterMin")
    .Input("resource: resource")
    .Input("indices: Tindices")
    .Input("updates: dtype")
    .Attr("dtype: numbertype")
    .Attr("Tindices: {int32, int64}")
    .SetIsStateful()
    .SetShapeFn(shape_fns::NoOutputs);

REGISTER_OP("ResourceScatterNdUpdate")
    .Input("ref: resource")
    .Input("indices: Tindices")
    .Input("updates: T")
    .Attr("T: type")
    .Attr("Tindices: {int32, int64}")
    .Attr("use_locking: bool = true")
    .Attr("bad_indices_policy: string = \"\"")
    .SetIsStateful()
    .SetShapeFn(shape_fns::NoOutputs);

REGISTER_OP("ResourceScatterNdAdd")
    .Input("ref: resource")
    .Input("indices: Tindices")
    .Input("updates: T")
    .Attr("T: type")
    .Attr("Tindices: {int32, int64}")
    .Attr("use_locking: bool = true")
    .Attr("bad_indices_policy: string = \"\"")
    .SetIsStateful()
    .SetShapeFn(shape_fns::NoOutputs);

REGISTER_OP("ResourceGather")
    .Input("resource: resource")
    .Input("indices: Tindices")
    .Output("output: dtype")
    .Attr("batch_dims: int = 0")
    .Attr("validate_indices: bool = true")
    .Attr("dtype: type")
    .Attr("Tindices: {int32, int64}")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Unknown);  // the variable's shape is not in the graph

REGISTER_OP("ResourceGatherNd")
    .Input("resource: resource")
    .Input("indices: Tindices")
    .Output("output: dtype")
    .Attr("dtype: type")
    .Attr("Tindices: {int32, int64}")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Unknown);

REGISTER_OP("VariableShape")
    .Input("input: resource")
    .Output("output: out_type")
    .Attr("out_type: {int32, int64} = int32")
    .SetIsStateful()
    .SetShapeFn([](ShapeInferenceContext& c) {
      c.set_output(0, PartialTensorShape({-1}));  // the variable's rank is not in the graph
      return absl::OkStatus();
    });

REGISTER_OP("DestroyResourceOp")
    .Input("resource: resource")
    .Attr("ignore_lookup_error: bool = true")
    .SetIsStateful()
    .SetShapeFn(shape_fns::NoOutputs);

REGISTER_OP("VarIsInitializedOp")
    .Input("resource: resource")
    .Output("is_initialized: bool")
    .SetShapeFn(shape_fns::Scalar);

}  // namespace
}  // namespace rill
