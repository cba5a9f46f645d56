// Builder wrappers for the neural-network ops (TensorFlow's C++ API names). Included by
// graph/builder/ops.h.
//
//   Output logits = ops::BiasAdd(root, ops::MatMul(root, x, w), b);
//   Output probs = ops::Softmax(root, logits);
//
// Errors are recorded in the scope (see op_builder.h). Thread safety: as Scope.
#ifndef RILL_GRAPH_BUILDER_NN_OPS_H_
#define RILL_GRAPH_BUILDER_NN_OPS_H_

#include "absl/strings/string_view.h"
#include "graph/builder/scope.h"

namespace rill {
namespace ops {

// out[..., m, n] = adj(x) * adj(y) per batch; V2 broadcasts the batch dims.
Output BatchMatMul(const Scope& scope, const Output& x, const Output& y, bool adj_x = false,
                   bool adj_y = false);
Output BatchMatMulV2(const Scope& scope, const Output& x, const Output& y, bool adj_x = false,
                     bool adj_y = false);
// data_format: "NHWC" (channels last) or "NCHW".
Output BiasAdd(const Scope& scope, const Output& value, const Output& bias,
               absl::string_view data_format = "NHWC");
Output Softmax(const Scope& scope, const Output& logits);
Output LogSoftmax(const Scope& scope, const Output& logits);
Output L2Loss(const Scope& scope, const Output& t);

}  // namespace ops
}  // namespace rill

#endif  // RILL_GRAPH_BUILDER_NN_OPS_H_
