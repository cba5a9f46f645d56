#include "graph/builder/nn_ops.h"

#include <string>

#include "graph/builder/op_builder.h"

namespace rill {
namespace ops {

Output BatchMatMul(const Scope& scope, const Output& x, const Output& y, bool adj_x, bool adj_y) {
  return OpBuilder(scope, "BatchMatMul")
      .Input(x)
      .Input(y)
      .Attr("adj_x", adj_x)
      .Attr("adj_y", adj_y)
      .Finalize()
      .output(0);
}
Output BatchMatMulV2(const Scope& scope, const Output& x, const Output& y, bool adj_x, bool adj_y) {
  return OpBuilder(scope, "BatchMatMulV2")
      .Input(x)
      .Input(y)
      .Attr("adj_x", adj_x)
      .Attr("adj_y", adj_y)
      .Finalize()
      .output(0);
}
Output BiasAdd(const Scope& scope, const Output& value, const Output& bias,
               absl::string_view data_format) {
  return OpBuilder(scope, "BiasAdd")
      .Input(value)
      .Input(bias)
      .Attr("data_format", std::string(data_format))
      .Finalize()
      .output(0);
}
Output Softmax(const Scope& scope, const Output& logits) {
  return OpBuilder(scope, "Softmax").Input(logits).Finalize().output(0);
}
Output LogSoftmax(const Scope& scope, const Output& logits) {
  return OpBuilder(scope, "LogSoftmax").Input(logits).Finalize().output(0);
}
Output L2Loss(const Scope& scope, const Output& t) {
  return OpBuilder(scope, "L2Loss").Input(t).Finalize().output(0);
}

}  // namespace ops
}  // namespace rill
