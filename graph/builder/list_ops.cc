#include "graph/builder/list_ops.h"

#include "graph/builder/op_builder.h"

namespace rill {
namespace ops {

Output EmptyTensorList(const Scope& scope, const Input& element_shape,
                       const Input& max_num_elements, DataType element_dtype) {
  return OpBuilder(scope, "EmptyTensorList")
      .Input(element_shape)
      .Input(max_num_elements)
      .Attr("element_dtype", element_dtype)
      .Finalize()
      .output(0);
}

Output TensorListReserve(const Scope& scope, const Input& element_shape, const Input& num_elements,
                         DataType element_dtype) {
  return OpBuilder(scope, "TensorListReserve")
      .Input(element_shape)
      .Input(num_elements)
      .Attr("element_dtype", element_dtype)
      .Finalize()
      .output(0);
}

Output TensorListFromTensor(const Scope& scope, const Input& tensor, const Input& element_shape) {
  return OpBuilder(scope, "TensorListFromTensor")
      .Input(tensor)
      .Input(element_shape)
      .Finalize()
      .output(0);
}

Output TensorListGetItem(const Scope& scope, const Input& list, const Input& index,
                         const Input& element_shape, DataType element_dtype) {
  return OpBuilder(scope, "TensorListGetItem")
      .Input(list)
      .Input(index)
      .Input(element_shape)
      .Attr("element_dtype", element_dtype)
      .Finalize()
      .output(0);
}

Output TensorListSetItem(const Scope& scope, const Input& list, const Input& index,
                         const Input& item, bool resize_if_index_out_of_bounds) {
  return OpBuilder(scope, "TensorListSetItem")
      .Input(list)
      .Input(index)
      .Input(item)
      .Attr("resize_if_index_out_of_bounds", resize_if_index_out_of_bounds)
      .Finalize()
      .output(0);
}

Output TensorListStack(const Scope& scope, const Input& list, const Input& element_shape,
                       DataType element_dtype, int64_t num_elements) {
  return OpBuilder(scope, "TensorListStack")
      .Input(list)
      .Input(element_shape)
      .Attr("element_dtype", element_dtype)
      .Attr("num_elements", num_elements)
      .Finalize()
      .output(0);
}

Output TensorListSplit(const Scope& scope, const Input& tensor, const Input& element_shape,
                       const Input& lengths) {
  return OpBuilder(scope, "TensorListSplit")
      .Input(tensor)
      .Input(element_shape)
      .Input(lengths)
      .Finalize()
      .output(0);
}

std::vector<Output> TensorListConcatV2(const Scope& scope, const Input& list,
                                       const Input& element_shape, const Input& leading_dims,
                                       DataType element_dtype) {
  Operation op = OpBuilder(scope, "TensorListConcatV2")
                     .Input(list)
                     .Input(element_shape)
                     .Input(leading_dims)
                     .Attr("element_dtype", element_dtype)
                     .Finalize();
  std::vector<Output> out;
  for (int i = 0; i < op.num_outputs(); ++i) out.push_back(op.output(i));
  return out;
}

Output TensorListLength(const Scope& scope, const Input& list) {
  return OpBuilder(scope, "TensorListLength").Input(list).Finalize().output(0);
}

Output TensorListElementShape(const Scope& scope, const Input& list, DataType shape_type) {
  return OpBuilder(scope, "TensorListElementShape")
      .Input(list)
      .Attr("shape_type", shape_type)
      .Finalize()
      .output(0);
}

Output TensorListPushBack(const Scope& scope, const Input& list, const Input& tensor) {
  return OpBuilder(scope, "TensorListPushBack").Input(list).Input(tensor).Finalize().output(0);
}

TensorListPopBackOutputs TensorListPopBack(const Scope& scope, const Output& list,
                                           const Output& element_shape, DataType element_dtype) {
  Operation op = OpBuilder(scope, "TensorListPopBack")
                     .Input(list)
                     .Input(element_shape)
                     .Attr("element_dtype", element_dtype)
                     .Finalize();
  return {op.output(0), op.output(1)};
}

Output TensorListGather(const Scope& scope, const Input& list, const Input& indices,
                        const Input& element_shape, DataType element_dtype) {
  return OpBuilder(scope, "TensorListGather")
      .Input(list)
      .Input(indices)
      .Input(element_shape)
      .Attr("element_dtype", element_dtype)
      .Finalize()
      .output(0);
}

Output TensorListScatter(const Scope& scope, const Input& tensor, const Input& indices,
                         const Input& element_shape) {
  return OpBuilder(scope, "TensorListScatter")
      .Input(tensor)
      .Input(indices)
      .Input(element_shape)
      .Finalize()
      .output(0);
}

Output TensorListScatterV2(const Scope& scope, const Input& tensor, const Input& indices,
                           const Input& element_shape, const Input& num_elements) {
  return OpBuilder(scope, "TensorListScatterV2")
      .Input(tensor)
      .Input(indices)
      .Input(element_shape)
      .Input(num_elements)
      .Finalize()
      .output(0);
}

Output TensorListScatterIntoExistingList(const Scope& scope, const Input& list, const Input& tensor,
                                         const Input& indices) {
  return OpBuilder(scope, "TensorListScatterIntoExistingList")
      .Input(list)
      .Input(tensor)
      .Input(indices)
      .Finalize()
      .output(0);
}

std::vector<Output> TensorListConcat(const Scope& scope, const Input& list,
                                     DataType element_dtype) {
  Operation op = OpBuilder(scope, "TensorListConcat")
                     .Input(list)
                     .Attr("element_dtype", element_dtype)
                     .Finalize();
  return {op.output(0), op.output(1)};
}

Output TensorListConcatLists(const Scope& scope, const Input& a, const Input& b,
                             DataType element_dtype) {
  return OpBuilder(scope, "TensorListConcatLists")
      .Input(a)
      .Input(b)
      .Attr("element_dtype", element_dtype)
      .Finalize()
      .output(0);
}

Output TensorListResize(const Scope& scope, const Input& list, const Input& size) {
  return OpBuilder(scope, "TensorListResize").Input(list).Input(size).Finalize().output(0);
}

Output TensorListPushBackBatch(const Scope& scope, const Input& lists, const Input& tensor) {
  return OpBuilder(scope, "TensorListPushBackBatch")
      .Input(lists)
      .Input(tensor)
      .Finalize()
      .output(0);
}

}  // namespace ops
}  // namespace rill
