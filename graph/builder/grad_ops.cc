#include "graph/builder/grad_ops.h"

#include <string>

#include "graph/builder/op_builder.h"

namespace rill {
namespace ops {
namespace {

Output Pair(const Scope& scope, const char* op, const Output& a, const Output& b) {
  return OpBuilder(scope, op).Input(a).Input(b).Finalize().output(0);
}

}  // namespace

Output ReluGrad(const Scope& scope, const Output& gradients, const Output& features) {
  return Pair(scope, "ReluGrad", gradients, features);
}
Output Relu6Grad(const Scope& scope, const Output& gradients, const Output& features) {
  return Pair(scope, "Relu6Grad", gradients, features);
}
Output EluGrad(const Scope& scope, const Output& gradients, const Output& outputs) {
  return Pair(scope, "EluGrad", gradients, outputs);
}
Output SeluGrad(const Scope& scope, const Output& gradients, const Output& outputs) {
  return Pair(scope, "SeluGrad", gradients, outputs);
}
Output SoftplusGrad(const Scope& scope, const Output& gradients, const Output& features) {
  return Pair(scope, "SoftplusGrad", gradients, features);
}
Output LeakyReluGrad(const Scope& scope, const Output& gradients, const Output& features,
                     float alpha) {
  return OpBuilder(scope, "LeakyReluGrad")
      .Input(gradients)
      .Input(features)
      .Attr("alpha", alpha)
      .Finalize()
      .output(0);
}
Output SigmoidGrad(const Scope& scope, const Output& y, const Output& dy) {
  return Pair(scope, "SigmoidGrad", y, dy);
}
Output TanhGrad(const Scope& scope, const Output& y, const Output& dy) {
  return Pair(scope, "TanhGrad", y, dy);
}
Output SqrtGrad(const Scope& scope, const Output& y, const Output& dy) {
  return Pair(scope, "SqrtGrad", y, dy);
}
Output RsqrtGrad(const Scope& scope, const Output& y, const Output& dy) {
  return Pair(scope, "RsqrtGrad", y, dy);
}
Output BiasAddGrad(const Scope& scope, const Output& out_backprop, absl::string_view data_format) {
  return OpBuilder(scope, "BiasAddGrad")
      .Input(out_backprop)
      .Attr("data_format", std::string(data_format))
      .Finalize()
      .output(0);
}
BroadcastArgs BroadcastGradientArgs(const Scope& scope, const Output& s0, const Output& s1) {
  Operation op = OpBuilder(scope, "BroadcastGradientArgs").Input(s0).Input(s1).Finalize();
  return {op.output(0), op.output(1)};
}
Output InvertPermutation(const Scope& scope, const Output& x) {
  return OpBuilder(scope, "InvertPermutation").Input(x).Finalize().output(0);
}

}  // namespace ops
}  // namespace rill
