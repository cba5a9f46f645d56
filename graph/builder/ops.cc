#include "graph/builder/ops.h"

#include "absl/strings/str_cat.h"
#include "core/tensor_proto.h"
#include "graph/builder/op_builder.h"

namespace rill {
namespace ops {
namespace {

Output ConstFromProto(const Scope& scope, DataType dtype, const TensorProto& value,
                      const absl::Status& error) {
  return OpBuilder(scope, "Const")
      .Attr("value", value)
      .Attr("dtype", dtype)
      .Fail(error)
      .Finalize()
      .output(0);
}

}  // namespace

Output Const(const Scope& scope, const Initializer& value) {
  TensorProto proto;
  if (value.status().ok()) TensorToProto(value.tensor(), &proto, /*use_tensor_content=*/false);
  return ConstFromProto(scope, value.tensor().dtype(), proto, value.status());
}

Output ConstOfShape(const Scope& scope, const Tensor& values, const TensorShape& shape) {
  TensorProto proto;
  absl::Status error;
  if (values.NumElements() == 1 || values.NumElements() == shape.num_elements()) {
    TensorToProto(values, &proto, /*use_tensor_content=*/false);
    shape.AsProto(proto.mutable_tensor_shape());
  } else {
    error = absl::InvalidArgumentError(
        absl::StrCat("Expected ", shape.num_elements(), " values for a Const of shape ",
                     shape.DebugString(), ", got ", values.NumElements()));
  }
  return ConstFromProto(scope, values.dtype(), proto, error);
}

Output Placeholder(const Scope& scope, DataType dtype, const PlaceholderAttrs& attrs) {
  return OpBuilder(scope, "Placeholder")
      .Attr("dtype", dtype)
      .Attr("shape", attrs.shape)
      .Finalize()
      .output(0);
}

Output Placeholder(const Scope& scope, DataType dtype, const PartialTensorShape& shape) {
  return Placeholder(scope, dtype, PlaceholderAttrs().Shape(shape));
}

Output PlaceholderWithDefault(const Scope& scope, const Input& input,
                              const PartialTensorShape& shape) {
  return OpBuilder(scope, "PlaceholderWithDefault")
      .Input(input)
      .Attr("shape", shape)
      .Finalize()
      .output(0);
}

Output Identity(const Scope& scope, const Input& input) {
  return OpBuilder(scope, "Identity").Input(input).Finalize().output(0);
}

Output RefIdentity(const Scope& scope, const Input& input) {
  return OpBuilder(scope, "RefIdentity").Input(input).Finalize().output(0);
}

std::vector<Output> IdentityN(const Scope& scope, absl::Span<const Output> inputs) {
  Operation op = OpBuilder(scope, "IdentityN").InputList(inputs).Finalize();
  std::vector<Output> outputs;
  for (int i = 0; i < op.num_outputs(); ++i) outputs.push_back(op.output(i));
  return outputs;
}

Operation NoOp(const Scope& scope) { return OpBuilder(scope, "NoOp").Finalize(); }

Output MatMul(const Scope& scope, const Input& a, const Input& b, const MatMulAttrs& attrs) {
  return OpBuilder(scope, "MatMul")
      .Input(a)
      .Input(b)
      .Attr("transpose_a", attrs.transpose_a)
      .Attr("transpose_b", attrs.transpose_b)
      .Finalize()
      .output(0);
}

Output Add(const Scope& scope, const Input& x, const Input& y) {
  return OpBuilder(scope, "Add").Input(x).Input(y).Finalize().output(0);
}

Output AddV2(const Scope& scope, const Input& x, const Input& y) {
  return OpBuilder(scope, "AddV2").Input(x).Input(y).Finalize().output(0);
}

Output AddN(const Scope& scope, absl::Span<const Output> inputs) {
  return OpBuilder(scope, "AddN").InputList(inputs).Finalize().output(0);
}

namespace {
Output VariableOp(const Scope& scope, absl::string_view op, const PartialTensorShape& shape,
                  DataType dtype, const VariableAttrs& attrs) {
  return OpBuilder(scope, op, "Variable")
      .Attr("shape", shape)
      .Attr("dtype", dtype)
      .Attr("container", attrs.container)
      .Attr("shared_name", attrs.shared_name)
      .Finalize()
      .output(0);
}
}  // namespace

Output Variable(const Scope& scope, const PartialTensorShape& shape, DataType dtype,
                const VariableAttrs& attrs) {
  return VariableOp(scope, "VariableV2", shape, dtype, attrs);
}

Output LegacyVariable(const Scope& scope, const PartialTensorShape& shape, DataType dtype,
                      const VariableAttrs& attrs) {
  return VariableOp(scope, "Variable", shape, dtype, attrs);
}

Output Assign(const Scope& scope, const Input& ref, const Input& value, const AssignAttrs& attrs) {
  return OpBuilder(scope, "Assign")
      .Input(ref)
      .Input(value)
      .Attr("validate_shape", attrs.validate_shape)
      .Attr("use_locking", attrs.use_locking)
      .Finalize()
      .output(0);
}

Output AssignAdd(const Scope& scope, const Input& ref, const Input& value,
                 const AssignAddAttrs& attrs) {
  return OpBuilder(scope, "AssignAdd")
      .Input(ref)
      .Input(value)
      .Attr("use_locking", attrs.use_locking)
      .Finalize()
      .output(0);
}

Output AssignSub(const Scope& scope, const Input& ref, const Input& value,
                 const AssignSubAttrs& attrs) {
  return OpBuilder(scope, "AssignSub")
      .Input(ref)
      .Input(value)
      .Attr("use_locking", attrs.use_locking)
      .Finalize()
      .output(0);
}

namespace {
Output RefScatter(const Scope& scope, absl::string_view op, const Input& ref, const Input& indices,
                  const Input& updates, bool use_locking) {
  return OpBuilder(scope, op)
      .Input(ref)
      .Input(indices)
      .Input(updates)
      .Attr("use_locking", use_locking)
      .Finalize()
      .output(0);
}
}  // namespace

Output ScatterUpdate(const Scope& scope, const Input& ref, const Input& indices,
                     const Input& updates, const ScatterUpdateAttrs& attrs) {
  return RefScatter(scope, "ScatterUpdate", ref, indices, updates, attrs.use_locking);
}
Output ScatterNdUpdate(const Scope& scope, const Input& ref, const Input& indices,
                       const Input& updates, const ScatterUpdateAttrs& attrs) {
  return RefScatter(scope, "ScatterNdUpdate", ref, indices, updates, attrs.use_locking);
}
Output ScatterAdd(const Scope& scope, const Input& ref, const Input& indices, const Input& updates,
                  const ScatterAddAttrs& attrs) {
  return RefScatter(scope, "ScatterAdd", ref, indices, updates, attrs.use_locking);
}
Output ScatterSub(const Scope& scope, const Input& ref, const Input& indices, const Input& updates,
                  const ScatterAddAttrs& attrs) {
  return RefScatter(scope, "ScatterSub", ref, indices, updates, attrs.use_locking);
}
Output ScatterMul(const Scope& scope, const Input& ref, const Input& indices, const Input& updates,
                  const ScatterAddAttrs& attrs) {
  return RefScatter(scope, "ScatterMul", ref, indices, updates, attrs.use_locking);
}
Output ScatterDiv(const Scope& scope, const Input& ref, const Input& indices, const Input& updates,
                  const ScatterAddAttrs& attrs) {
  return RefScatter(scope, "ScatterDiv", ref, indices, updates, attrs.use_locking);
}
Output ScatterMax(const Scope& scope, const Input& ref, const Input& indices, const Input& updates,
                  const ScatterAddAttrs& attrs) {
  return RefScatter(scope, "ScatterMax", ref, indices, updates, attrs.use_locking);
}
Output ScatterMin(const Scope& scope, const Input& ref, const Input& indices, const Input& updates,
                  const ScatterAddAttrs& attrs) {
  return RefScatter(scope, "ScatterMin", ref, indices, updates, attrs.use_locking);
}
Output ScatterNdAdd(const Scope& scope, const Input& ref, const Input& indices,
                    const Input& updates, const ScatterAddAttrs& attrs) {
  return RefScatter(scope, "ScatterNdAdd", ref, indices, updates, attrs.use_locking);
}
Output ScatterNdSub(const Scope& scope, const Input& ref, const Input& indices,
                    const Input& updates, const ScatterAddAttrs& attrs) {
  return RefScatter(scope, "ScatterNdSub", ref, indices, updates, attrs.use_locking);
}

Output VarHandleOp(const Scope& scope, DataType dtype, const PartialTensorShape& shape,
                   const VarHandleOpAttrs& attrs) {
  return OpBuilder(scope, "VarHandleOp")
      .Attr("dtype", dtype)
      .Attr("shape", shape)
      .Attr("container", attrs.container)
      .Attr("shared_name", attrs.shared_name)
      .Attr("debug_name", attrs.debug_name)
      .Attr("allowed_devices", attrs.allowed_devices)
      .Finalize()
      .output(0);
}

Output ReadVariableOp(const Scope& scope, const Input& resource, DataType dtype) {
  return OpBuilder(scope, "ReadVariableOp")
      .Input(resource)
      .Attr("dtype", dtype)
      .Finalize()
      .output(0);
}

Operation AssignVariableOp(const Scope& scope, const Input& resource, const Input& value,
                           const AssignVariableOpAttrs& attrs) {
  return OpBuilder(scope, "AssignVariableOp")
      .Input(resource)
      .Input(value)
      .Attr("validate_shape", attrs.validate_shape)
      .Finalize();
}

Operation AssignAddVariableOp(const Scope& scope, const Input& resource, const Input& value) {
  return OpBuilder(scope, "AssignAddVariableOp").Input(resource).Input(value).Finalize();
}

Operation AssignSubVariableOp(const Scope& scope, const Input& resource, const Input& value) {
  return OpBuilder(scope, "AssignSubVariableOp").Input(resource).Input(value).Finalize();
}

namespace {
Operation ResourceScatter(const Scope& scope, absl::string_view op, const Input& resource,
                          const Input& indices, const Input& updates) {
  return OpBuilder(scope, op).Input(resource).Input(indices).Input(updates).Finalize();
}
}  // namespace

Operation ResourceScatterUpdate(const Scope& scope, const Input& resource, const Input& indices,
                                const Input& updates) {
  return ResourceScatter(scope, "ResourceScatterUpdate", resource, indices, updates);
}
Operation ResourceScatterAdd(const Scope& scope, const Input& resource, const Input& indices,
                             const Input& updates) {
  return ResourceScatter(scope, "ResourceScatterAdd", resource, indices, updates);
}
Operation ResourceScatterSub(const Scope& scope, const Input& resource, const Input& indices,
                             const Input& updates) {
  return ResourceScatter(scope, "ResourceScatterSub", resource, indices, updates);
}
Operation ResourceScatterMul(const Scope& scope, const Input& resource, const Input& indices,
                             const Input& updates) {
  return ResourceScatter(scope, "ResourceScatterMul", resource, indices, updates);
}
Operation ResourceScatterDiv(const Scope& scope, const Input& resource, const Input& indices,
                             const Input& updates) {
  return ResourceScatter(scope, "ResourceScatterDiv", resource, indices, updates);
}
Operation ResourceScatterMax(const Scope& scope, const Input& resource, const Input& indices,
                             const Input& updates) {
  return ResourceScatter(scope, "ResourceScatterMax", resource, indices, updates);
}
Operation ResourceScatterMin(const Scope& scope, const Input& resource, const Input& indices,
                             const Input& updates) {
  return ResourceScatter(scope, "ResourceScatterMin", resource, indices, updates);
}
Operation ResourceScatterNdUpdate(const Scope& scope, const Input& resource, const Input& indices,
                                  const Input& updates) {
  return ResourceScatter(scope, "ResourceScatterNdUpdate", resource, indices, updates);
}
Operation ResourceScatterNdAdd(const Scope& scope, const Input& resource, const Input& indices,
                               const Input& updates) {
  return ResourceScatter(scope, "ResourceScatterNdAdd", resource, indices, updates);
}

Output ResourceGather(const Scope& scope, const Input& resource, const Input& indices,
                      DataType dtype, const ResourceGatherAttrs& attrs) {
  return OpBuilder(scope, "ResourceGather")
      .Input(resource)
      .Input(indices)
      .Attr("dtype", dtype)
      .Attr("batch_dims", attrs.batch_dims)
      .Finalize()
      .output(0);
}

Output ResourceGatherNd(const Scope& scope, const Input& resource, const Input& indices,
                        DataType dtype) {
  return OpBuilder(scope, "ResourceGatherNd")
      .Input(resource)
      .Input(indices)
      .Attr("dtype", dtype)
      .Finalize()
      .output(0);
}

Operation DestroyResourceOp(const Scope& scope, const Input& resource, bool ignore_lookup_error) {
  return OpBuilder(scope, "DestroyResourceOp")
      .Input(resource)
      .Attr("ignore_lookup_error", ignore_lookup_error)
      .Finalize();
}

Output VariableShape(const Scope& scope, const Input& resource, DataType out_type) {
  return OpBuilder(scope, "VariableShape")
      .Input(resource)
      .Attr("out_type", out_type)
      .Finalize()
      .output(0);
}

Output VarIsInitializedOp(const Scope& scope, const Input& resource) {
  return OpBuilder(scope, "VarIsInitializedOp").Input(resource).Finalize().output(0);
}

}  // namespace ops
}  // namespace rill
