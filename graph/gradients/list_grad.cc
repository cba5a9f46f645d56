// Gradients of the TensorList ops of ops/list_ops.cc. A list's gradient is a list of the
// elements' gradients; an absent list gradient (an invalid Output) means none for every element.
// Formulas are TensorFlow's (list_ops.py).
#include <vector>

#include "absl/types/span.h"
#include "core/status_macros.h"
#include "core/types.h"
#include "graph/builder/op_builder.h"
#include "graph/builder/ops.h"
#include "graph/gradients/grad_registry.h"

namespace rill {
namespace {

using Grads = std::vector<Output>;
using GradSpan = absl::Span<const Output>;

// The shape of one row of `t` (its shape without the first dimension).
Output RowShape(const Scope& s, const Output& t) {
  return ops::Slice(s, ops::Shape(s, t), ops::Const(s, {1}), ops::Const(s, {-1}));
}

// tensor = Stack(list, element_shape): the list of dtensor's rows.
absl::Status TensorListStackGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {ops::TensorListFromTensor(s, g[0], op.inputs[1]), Output()};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("TensorListStack", TensorListStackGrad);

// list = FromTensor(tensor, element_shape): the stacked gradients of the elements.
absl::Status TensorListFromTensorGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& t = op.inputs[0];
  if (!g[0].valid()) {
    *out = {Output(), Output()};
    return absl::OkStatus();
  }
  *out = {ops::TensorListStack(s, g[0], RowShape(s, t), BaseType(t.dtype())), Output()};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("TensorListFromTensor", TensorListFromTensorGrad);

// item = GetItem(list, index, element_shape): a list of the input's length holding ditem at
// index (the other elements unset, read as zeros).
absl::Status TensorListGetItemGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  RILL_ASSIGN_OR_RETURN(DataType dtype, op.GetType("element_dtype"));
  Output reserved =
      ops::TensorListReserve(s, ops::Shape(s, g[0]), ops::TensorListLength(s, op.inputs[0]), dtype);
  *out = {ops::TensorListSetItem(s, reserved, op.inputs[1], g[0]), Output(), Output()};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("TensorListGetItem", TensorListGetItemGrad);

// list' = SetItem(list, index, item): dlist with that element zeroed, and dlist[index].
absl::Status TensorListSetItemGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  if (!g[0].valid()) {
    *out = {Output(), Output(), Output()};
    return absl::OkStatus();
  }
  const Output& item = op.inputs[2];
  *out = {
      ops::TensorListSetItem(s, g[0], op.inputs[1], ops::ZerosLike(s, item)), Output(),
      ops::TensorListGetItem(s, g[0], op.inputs[1], ops::Shape(s, item), BaseType(item.dtype()))};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("TensorListSetItem", TensorListSetItemGrad);

// list' = PushBack(list, tensor): dlist' popped.
absl::Status TensorListPushBackGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  if (!g[0].valid()) {
    *out = {Output(), Output()};
    return absl::OkStatus();
  }
  const Output& t = op.inputs[1];
  ops::TensorListPopBackOutputs popped =
      ops::TensorListPopBack(s, g[0], ops::Shape(s, t), BaseType(t.dtype()));
  *out = {popped.output_handle, popped.tensor};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("TensorListPushBack", TensorListPushBackGrad);

// (list', tensor) = PopBack(list, element_shape): dtensor pushed back on dlist' (an empty list
// when none reached it; zeros when dtensor did not).
absl::Status TensorListPopBackGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& t = op.outputs[1];
  const DataType dtype = BaseType(t.dtype());
  Output dlist =
      g[0].valid() ? g[0] : ops::EmptyTensorList(s, ops::Shape(s, t), ops::Const(s, -1), dtype);
  Output dtensor = g[1].valid() ? g[1] : ops::ZerosLike(s, t);
  *out = {ops::TensorListPushBack(s, dlist, dtensor), Output()};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("TensorListPopBack", TensorListPopBackGrad);

// (tensor, lengths) = ConcatV2(list, element_shape, leading_dims): dtensor split back into a
// list by the forward lengths, with the list's element shape.
absl::Status TensorListConcatV2Grad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  OpBuilder split(s, "TensorListSplit");
  split.Input(g[0])
      .Input(ops::TensorListElementShape(s, op.inputs[0], DT_INT64))
      .Input(op.outputs[1])
      .Attr("element_dtype", BaseType(g[0].dtype()))
      .Attr("shape_type", DT_INT64);
  Output dlist = split.Finalize().output(0);
  *out = {dlist, Output(), Output()};
  return s.status();
}
RILL_REGISTER_GRADIENT("TensorListConcatV2", TensorListConcatV2Grad);

// list = Split(tensor, element_shape, lengths): dlist concatenated, each element's first dim
// from lengths (unset elements as zeros of those rows).
absl::Status TensorListSplitGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& t = op.inputs[0];
  Output element_shape = ops::ConcatV2(s, {ops::Const(s, {-1}), RowShape(s, t)}, ops::Const(s, 0));
  std::vector<Output> joined =
      ops::TensorListConcatV2(s, g[0], element_shape, op.inputs[2], BaseType(t.dtype()));
  if (joined.empty()) return s.status();
  *out = {joined[0], Output(), Output()};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("TensorListSplit", TensorListSplitGrad);

// (tensor, lengths) = Concat(list) (the first version): as ConcatV2's, for its one input.
absl::Status TensorListConcatGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  OpBuilder split(s, "TensorListSplit");
  split.Input(g[0])
      .Input(ops::TensorListElementShape(s, op.inputs[0], DT_INT64))
      .Input(op.outputs[1])
      .Attr("element_dtype", BaseType(g[0].dtype()))
      .Attr("shape_type", DT_INT64);
  *out = {split.Finalize().output(0)};
  return s.status();
}
RILL_REGISTER_GRADIENT("TensorListConcat", TensorListConcatGrad);

// The elements of `list` at `indices`, each of `row_like`'s row shape.
Output Gather(const Scope& s, const Output& list, const Output& indices, const Output& row_like) {
  OpBuilder gather(s, "TensorListGather");
  gather.Input(list)
      .Input(indices)
      .Input(RowShape(s, row_like))
      .Attr("element_dtype", BaseType(row_like.dtype()));
  return gather.Finalize().output(0);
}

// `list` with row i of `t` written at indices[i].
Output ScatterInto(const Scope& s, const Output& list, const Output& t, const Output& indices) {
  OpBuilder scatter(s, "TensorListScatterIntoExistingList");
  scatter.Input(list).Input(t).Input(indices).Attr("element_dtype", BaseType(t.dtype()));
  return scatter.Finalize().output(0);
}

// values = Gather(list, indices, element_shape): a list of the input's length and element shape
// holding dvalues' rows at indices.
absl::Status TensorListGatherGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  RILL_ASSIGN_OR_RETURN(DataType dtype, op.GetType("element_dtype"));
  Output reserved =
      ops::TensorListReserve(s, ops::TensorListElementShape(s, op.inputs[0], DT_INT32),
                             ops::TensorListLength(s, op.inputs[0]), dtype);
  *out = {ScatterInto(s, reserved, g[0], op.inputs[1]), Output(), Output()};
  return s.status();
}
RILL_REGISTER_GRADIENT("TensorListGather", TensorListGatherGrad);

// list = Scatter(tensor, indices, element_shape[, num_elements]): dlist gathered at indices.
absl::Status TensorListScatterGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  out->assign(op.inputs.size(), Output());
  if (g[0].valid()) (*out)[0] = Gather(s, g[0], op.inputs[1], op.inputs[0]);
  return s.status();
}
RILL_REGISTER_GRADIENT("TensorListScatter", TensorListScatterGrad);
RILL_REGISTER_GRADIENT("TensorListScatterV2", TensorListScatterGrad);

// list' = ScatterIntoExistingList(list, tensor, indices): dlist' with the scattered elements
// zeroed, and dlist' gathered at indices.
absl::Status TensorListScatterIntoExistingListGrad(const Scope& s, const GradOp& op, GradSpan g,
                                                   Grads* out) {
  if (!g[0].valid()) {
    *out = {Output(), Output(), Output()};
    return absl::OkStatus();
  }
  const Output& t = op.inputs[1];
  const Output& indices = op.inputs[2];
  *out = {ScatterInto(s, g[0], ops::ZerosLike(s, t), indices), Gather(s, g[0], indices, t),
          Output()};
  return s.status();
}
RILL_REGISTER_GRADIENT("TensorListScatterIntoExistingList", TensorListScatterIntoExistingListGrad);

// list' = Resize(list, size): dlist' resized back to the input's length.
absl::Status TensorListResizeGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  if (!g[0].valid()) {
    *out = {Output(), Output()};
    return absl::OkStatus();
  }
  OpBuilder resize(s, "TensorListResize");
  resize.Input(g[0]).Input(ops::TensorListLength(s, op.inputs[0]));
  *out = {resize.Finalize().output(0), Output()};
  return s.status();
}
RILL_REGISTER_GRADIENT("TensorListResize", TensorListResizeGrad);

RILL_REGISTER_NO_GRADIENT("TensorListConcatLists");
RILL_REGISTER_NO_GRADIENT("TensorListPushBackBatch");

}  // namespace
}  // namespace rill
