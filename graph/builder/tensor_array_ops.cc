#include "graph/builder/tensor_array_ops.h"

#include "graph/builder/op_builder.h"

namespace rill {
namespace ops {

TensorArrayOutputs TensorArrayV3(const Scope& scope, const Output& size, DataType dtype,
                                 const TensorArrayAttrs& attrs) {
  Operation op = OpBuilder(scope, "TensorArrayV3")
                     .Input(size)
                     .Attr("dtype", dtype)
                     .Attr("dynamic_size", attrs.dynamic_size)
                     .Attr("clear_after_read", attrs.clear_after_read)
                     .Finalize();
  return {op.output(0), op.output(1)};
}

Output TensorArrayWriteV3(const Scope& scope, const Input& handle, const Input& index,
                          const Input& value, const Input& flow_in) {
  return OpBuilder(scope, "TensorArrayWriteV3")
      .Input(handle)
      .Input(index)
      .Input(value)
      .Input(flow_in)
      .Finalize()
      .output(0);
}

Output TensorArrayReadV3(const Scope& scope, const Input& handle, const Input& index,
                         const Input& flow_in, DataType dtype) {
  return OpBuilder(scope, "TensorArrayReadV3")
      .Input(handle)
      .Input(index)
      .Input(flow_in)
      .Attr("dtype", dtype)
      .Finalize()
      .output(0);
}

Output TensorArrayGatherV3(const Scope& scope, const Input& handle, const Input& indices,
                           const Input& flow_in, DataType dtype) {
  return OpBuilder(scope, "TensorArrayGatherV3")
      .Input(handle)
      .Input(indices)
      .Input(flow_in)
      .Attr("dtype", dtype)
      .Finalize()
      .output(0);
}

Output TensorArraySplitV3(const Scope& scope, const Input& handle, const Input& value,
                          const Input& lengths, const Input& flow_in) {
  return OpBuilder(scope, "TensorArraySplitV3")
      .Input(handle)
      .Input(value)
      .Input(lengths)
      .Input(flow_in)
      .Finalize()
      .output(0);
}

std::vector<Output> TensorArrayConcatV3(const Scope& scope, const Input& handle,
                                        const Input& flow_in, DataType dtype) {
  Operation op = OpBuilder(scope, "TensorArrayConcatV3")
                     .Input(handle)
                     .Input(flow_in)
                     .Attr("dtype", dtype)
                     .Finalize();
  std::vector<Output> out;
  for (int i = 0; i < op.num_outputs(); ++i) out.push_back(op.output(i));
  return out;
}

Output TensorArrayScatterV3(const Scope& scope, const Input& handle, const Input& indices,
                            const Input& value, const Input& flow_in) {
  return OpBuilder(scope, "TensorArrayScatterV3")
      .Input(handle)
      .Input(indices)
      .Input(value)
      .Input(flow_in)
      .Finalize()
      .output(0);
}

Output TensorArraySizeV3(const Scope& scope, const Input& handle, const Input& flow_in) {
  return OpBuilder(scope, "TensorArraySizeV3").Input(handle).Input(flow_in).Finalize().output(0);
}

TensorArrayOutputs TensorArrayGradV3(const Scope& scope, const Output& handle,
                                     const Output& flow_in, absl::string_view source) {
  Operation op = OpBuilder(scope, "TensorArrayGradV3")
                     .Input(handle)
                     .Input(flow_in)
                     .Attr("source", source)
                     .Finalize();
  return {op.output(0), op.output(1)};
}

Operation TensorArrayCloseV3(const Scope& scope, const Input& handle) {
  return OpBuilder(scope, "TensorArrayCloseV3").Input(handle).Finalize();
}

Output StackV2(const Scope& scope, const Input& max_size, DataType elem_type) {
  return OpBuilder(scope, "StackV2")
      .Input(max_size)
      .Attr("elem_type", elem_type)
      .Finalize()
      .output(0);
}

Output StackPushV2(const Scope& scope, const Input& handle, const Input& elem) {
  return OpBuilder(scope, "StackPushV2").Input(handle).Input(elem).Finalize().output(0);
}

Output StackPopV2(const Scope& scope, const Input& handle, DataType elem_type) {
  return OpBuilder(scope, "StackPopV2")
      .Input(handle)
      .Attr("elem_type", elem_type)
      .Finalize()
      .output(0);
}

Operation StackCloseV2(const Scope& scope, const Input& handle) {
  return OpBuilder(scope, "StackCloseV2").Input(handle).Finalize();
}

}  // namespace ops
}  // namespace rill
