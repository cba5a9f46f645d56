// Builder wrappers for the TensorList ops (ops/list_ops.cc). Lists are DT_VARIANT scalars;
// element_shape operands are int32 (or int64) Outputs: a vector of dims with -1 for unknown, or
// the scalar -1 for an unknown rank. Included by graph/builder/ops.h.
//
//   Output l = ops::TensorListReserve(root, ops::Const(root, {2}), ops::Const(root, 3), DT_FLOAT);
//   l = ops::TensorListSetItem(root, l, ops::Const(root, 0), x);
//   Output stacked = ops::TensorListStack(root, l, ops::Const(root, {2}), DT_FLOAT);
//
// Errors are recorded in the scope (see op_builder.h). Thread safety: as Scope.
#ifndef RILL_GRAPH_BUILDER_LIST_OPS_H_
#define RILL_GRAPH_BUILDER_LIST_OPS_H_

#include <cstdint>
#include <vector>

#include "graph/builder/input.h"
#include "graph/builder/scope.h"

namespace rill {
namespace ops {

Output EmptyTensorList(const Scope& scope, const Input& element_shape,
                       const Input& max_num_elements, DataType element_dtype);
Output TensorListReserve(const Scope& scope, const Input& element_shape, const Input& num_elements,
                         DataType element_dtype);
Output TensorListFromTensor(const Scope& scope, const Input& tensor, const Input& element_shape);
Output TensorListGetItem(const Scope& scope, const Input& list, const Input& index,
                         const Input& element_shape, DataType element_dtype);
Output TensorListSetItem(const Scope& scope, const Input& list, const Input& index,
                         const Input& item, bool resize_if_index_out_of_bounds = false);
Output TensorListStack(const Scope& scope, const Input& list, const Input& element_shape,
                       DataType element_dtype, int64_t num_elements = -1);
// tensor (the elements joined along dim 0; unset ones are zeros leading_dims[i] rows long),
// lengths.
std::vector<Output> TensorListConcatV2(const Scope& scope, const Input& list,
                                       const Input& element_shape, const Input& leading_dims,
                                       DataType element_dtype);
// A list of `tensor`'s rows split into elements of lengths[i] rows each.
Output TensorListSplit(const Scope& scope, const Input& tensor, const Input& element_shape,
                       const Input& lengths);
Output TensorListLength(const Scope& scope, const Input& list);
Output TensorListElementShape(const Scope& scope, const Input& list, DataType shape_type);
Output TensorListPushBack(const Scope& scope, const Input& list, const Input& tensor);
struct TensorListPopBackOutputs {
  Output output_handle, tensor;
};
TensorListPopBackOutputs TensorListPopBack(const Scope& scope, const Output& list,
                                           const Output& element_shape, DataType element_dtype);

// TensorListGather: the elements at `indices`, stacked.
Output TensorListGather(const Scope& scope, const Input& list, const Input& indices,
                        const Input& element_shape, DataType element_dtype);
// TensorListScatter(V2): a list whose element indices[i] is tensor[i]; V2 sets the list's length
// to num_elements (-1: as many as the largest index needs).
Output TensorListScatter(const Scope& scope, const Input& tensor, const Input& indices,
                         const Input& element_shape);
Output TensorListScatterV2(const Scope& scope, const Input& tensor, const Input& indices,
                           const Input& element_shape, const Input& num_elements);
Output TensorListScatterIntoExistingList(const Scope& scope, const Input& list, const Input& tensor,
                                         const Input& indices);
// TensorListConcat: the elements concatenated along their first dim, and each one's length.
std::vector<Output> TensorListConcat(const Scope& scope, const Input& list, DataType element_dtype);
Output TensorListConcatLists(const Scope& scope, const Input& a, const Input& b,
                             DataType element_dtype);
Output TensorListResize(const Scope& scope, const Input& list, const Input& size);
// TensorListPushBackBatch: appends tensor[i] to list i of the vector of lists `lists`.
Output TensorListPushBackBatch(const Scope& scope, const Input& lists, const Input& tensor);

}  // namespace ops
}  // namespace rill

#endif  // RILL_GRAPH_BUILDER_LIST_OPS_H_
