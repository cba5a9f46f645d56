// Rill. Symbolic gradients of a graph being built: the C++ counterpart of TensorFlow's
// AddSymbolicGradients and tf.gradients.
//
//   Scope root = Scope::NewRootScope();
//   Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
//   Output y = ops::Square(root, x);
//   std::vector<Output> dx;
//   RILL_RETURN_IF_ERROR(AddSymbolicGradients(root, {y}, {x}, &dx));   // dx[0] = 2x
//
// Backpropagation runs over the nodes between `inputs` and `outputs` (reachable forward from an
// input's node and backward from an output's node, along data edges). Each node's gradient
// function (grad_registry.h) is called once all the gradients of its outputs have arrived;
// gradients reaching one tensor by several paths are summed (AddN). Integer and other
// non-trainable tensors (TensorFlow's IsTrainable: float, complex, resource, variant) carry no
// gradient. The new nodes are built under `scope` in the name scope `options.name`
// ("gradients", made unique), each op's in "<name>/<op name>_grad".
//
// Errors (the scope's status is set too):
//   InvalidArgument "grad_inputs has 1 entries but outputs has 2; give one gradient per output"
//   InvalidArgument "Gradient for output 'y:0' has dtype int32, expected float"
//   NotFound "No gradient defined for op: Foo (node 'y'); register one with RILL_REGISTER_GRADIENT
//     or stop the gradient before it (StopGradient, options.stop_gradients)"
//   Unimplemented for while loops between inputs and outputs (gradients of TF1 loops are not
//     built yet), naming the loop's node.
// Thread safety: as Scope; do not build other nodes into the same graph concurrently.
#ifndef RILL_GRAPH_GRADIENTS_GRADIENTS_H_
#define RILL_GRAPH_GRADIENTS_GRADIENTS_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "graph/builder/scope.h"

namespace rill {

// TensorFlow's tf.gradients options.
struct GradientOptions {
  // The name scope of the new nodes.
  std::string name = "gradients";
  // Build each gradient op colocated with its forward op (TensorFlow's `_class: loc:@op`), so it
  // is placed on the forward op's device.
  bool colocate_gradients_with_ops = false;
  // Tensors treated as constants: no gradient flows back through their nodes.
  std::vector<Output> stop_gradients;
  // What an input no output depends on gets: zeros of its shape (the C++ API's and the C API's
  // behaviour) or no gradient, an invalid Output (tf.gradients' default,
  // UnconnectedGradients.NONE).
  enum class Unconnected { kZero, kNone };
  Unconnected unconnected_gradients = Unconnected::kZero;
  // Gate each op's input gradients: none is used before all are computed (tf.tuple), as
  // Optimizer.minimize's GATE_OP does.
  bool gate_gradients = false;
};

// Adds the gradients of sum(outputs[j] * grad_inputs[j]) with respect to each of `inputs` and
// stores them in *grad_outputs (one per input, in order). `grad_inputs` holds one gradient per
// output, of the output's dtype; empty means ones (OnesLike of each output).
absl::Status AddSymbolicGradients(const Scope& scope, const std::vector<Output>& outputs,
                                  const std::vector<Output>& inputs,
                                  const std::vector<Output>& grad_inputs,
                                  std::vector<Output>* grad_outputs,
                                  const GradientOptions& options = {});
absl::Status AddSymbolicGradients(const Scope& scope, const std::vector<Output>& outputs,
                                  const std::vector<Output>& inputs,
                                  std::vector<Output>* grad_outputs);

// True for the dtypes gradients flow through (float, double, half, bfloat16, complex, resource,
// variant; refs of those).
bool IsTrainable(DataType dtype);

}  // namespace rill

#endif  // RILL_GRAPH_GRADIENTS_GRADIENTS_H_
