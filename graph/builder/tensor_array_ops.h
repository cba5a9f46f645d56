// Builder wrappers for TF1 TensorArrays (ops/tensor_array_ops.cc) and stacks (ops/stack_ops.cc).
// The handle is a resource; the float flow tensors order reads after writes (thread each op's
// flow_out into the next). Included by graph/builder/ops.h.
//
//   ops::TensorArrayOutputs ta = ops::TensorArrayV3(root, ops::Const(root, 3), DT_FLOAT);
//   Output flow = ops::TensorArrayWriteV3(root, ta.handle, ops::Const(root, 0), x, ta.flow);
//   Output all = ops::TensorArrayGatherV3(root, ta.handle, indices, flow, DT_FLOAT);
//
// Errors are recorded in the scope (see op_builder.h). Thread safety: as Scope.
#ifndef RILL_GRAPH_BUILDER_TENSOR_ARRAY_OPS_H_
#define RILL_GRAPH_BUILDER_TENSOR_ARRAY_OPS_H_

#include <vector>

#include "absl/strings/string_view.h"
#include "graph/builder/input.h"
#include "graph/builder/scope.h"

namespace rill {
namespace ops {

struct TensorArrayAttrs {
  TensorArrayAttrs DynamicSize(bool x) const {
    TensorArrayAttrs r = *this;
    r.dynamic_size = x;
    return r;
  }
  TensorArrayAttrs ClearAfterRead(bool x) const {
    TensorArrayAttrs r = *this;
    r.clear_after_read = x;
    return r;
  }
  bool dynamic_size = false;
  bool clear_after_read = true;
};
struct TensorArrayOutputs {
  Output handle, flow;
};
TensorArrayOutputs TensorArrayV3(const Scope& scope, const Output& size, DataType dtype,
                                 const TensorArrayAttrs& attrs = {});
Output TensorArrayWriteV3(const Scope& scope, const Input& handle, const Input& index,
                          const Input& value, const Input& flow_in);
Output TensorArrayReadV3(const Scope& scope, const Input& handle, const Input& index,
                         const Input& flow_in, DataType dtype);
Output TensorArrayGatherV3(const Scope& scope, const Input& handle, const Input& indices,
                           const Input& flow_in, DataType dtype);
Output TensorArrayScatterV3(const Scope& scope, const Input& handle, const Input& indices,
                            const Input& value, const Input& flow_in);
// Writes value's rows split into elements of lengths[i] rows each; the flow out.
Output TensorArraySplitV3(const Scope& scope, const Input& handle, const Input& value,
                          const Input& lengths, const Input& flow_in);
// value (elements joined along dim 0), lengths (each element's dim 0).
std::vector<Output> TensorArrayConcatV3(const Scope& scope, const Input& handle,
                                        const Input& flow_in, DataType dtype);
// The gradient array of `handle`'s array for gradient source `source` (made on first use).
TensorArrayOutputs TensorArrayGradV3(const Scope& scope, const Output& handle,
                                     const Output& flow_in, absl::string_view source);
Output TensorArraySizeV3(const Scope& scope, const Input& handle, const Input& flow_in);
Operation TensorArrayCloseV3(const Scope& scope, const Input& handle);

// TF1 stacks (ops/stack_ops.cc), which while-loop gradients use. max_size -1: unbounded.
Output StackV2(const Scope& scope, const Input& max_size, DataType elem_type);
Output StackPushV2(const Scope& scope, const Input& handle, const Input& elem);
Output StackPopV2(const Scope& scope, const Input& handle, DataType elem_type);
Operation StackCloseV2(const Scope& scope, const Input& handle);

}  // namespace ops
}  // namespace rill

#endif  // RILL_GRAPH_BUILDER_TENSOR_ARRAY_OPS_H_
