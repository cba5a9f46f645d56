// Internal to graph/gradients: the state of one AddSymbolicGradients call, shared by the main
// backpropagation (gradients.cc) and the gradients of TF1 while loops (while_gradients.cc).
#ifndef RILL_GRAPH_GRADIENTS_GRADIENT_BUILDER_H_
#define RILL_GRAPH_GRADIENTS_GRADIENT_BUILDER_H_

#include <deque>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "graph/builder/scope.h"
#include "graph/gradients/gradients.h"
#include "proto/graph.pb.h"

namespace rill {
namespace gradients_internal {

// The forward graph as it was when gradients were requested: nodes, their data inputs and
// consumers, and the while-loop frame each node runs in, by index.
struct ForwardGraph {
  GraphDef def;
  absl::flat_hash_map<std::string, int> index;
  std::vector<std::vector<std::pair<int, int>>> inputs;  // per node: (producer, output)
  std::vector<std::vector<int>> consumers;               // per node, with repeats
  std::vector<Operation> ops;                            // per node, with output dtypes
  // Per node: the frame it runs in ("" outside loops, "outer;inner" for nested loops). An Enter
  // runs in its loop's frame; an Exit too, its output is in the parent frame.
  std::vector<std::string> frame;

  absl::Status Load(const Scope& scope);
  absl::StatusOr<int> NodeOf(const Output& t, absl::string_view what) const;
  const std::string& op(int node) const { return def.node(node).op(); }
  bool IsExit(int node) const { return op(node) == "Exit" || op(node) == "RefExit"; }
  bool IsEnter(int node) const { return op(node) == "Enter" || op(node) == "RefEnter"; }
};

using TensorKey = std::pair<int, int>;  // (node, output)

// One backpropagation over a set of nodes: which nodes it differentiates, how many of each
// node's consumers are still to be processed, and the nodes ready to be.
struct Pass {
  std::vector<bool> in;       // nodes whose gradient functions this pass calls
  std::vector<bool> deposit;  // nodes whose outputs collect gradients (`in` and the targets)
  std::vector<int> pending;
  std::deque<int> ready;
  Scope scope;  // where the gradient nodes are built
};

class GradientBuilder {
 public:
  GradientBuilder(const Scope& scope, const GradientOptions& options)
      : options_(options), root_(scope.NewSubScope(options.name)) {}

  absl::Status Build(const std::vector<Output>& outputs, const std::vector<Output>& inputs,
                     const std::vector<Output>& grad_inputs, std::vector<Output>* grad_outputs);

 private:
  // A scope for the gradient nodes of forward node `node`, colocated with it when asked.
  Scope ForNode(const Scope& base, int node) const {
    return options_.colocate_gradients_with_ops ? base.ColocateWith(graph_.ops[node]) : base;
  }
  // The sum of the gradients that reached `key` (an invalid Output when none did).
  Output Aggregate(const TensorKey& key, const Scope& scope);
  // Calls `node`'s gradient function and hands its input gradients to the producers in
  // `pass.deposit`, readying those whose consumers are all done.
  absl::Status Backprop(int node, Pass& pass);
  // Runs `pass` until nothing is ready; loop Exits reached in the main pass build their loop's
  // gradient (while_gradients.cc).
  absl::Status Drain(Pass& pass, bool main);

  // while_gradients.cc: the backpropagation loop of the forward loop of `frame`, given the
  // gradients that reached its Exits; deposits the gradients of its Enters' inputs in `main`.
  absl::Status BuildLoopGradient(const std::string& frame, Pass& main);

  const GradientOptions& options_;
  Scope root_;
  ForwardGraph graph_;
  std::vector<bool> between_;  // nodes between the inputs and the outputs
  std::vector<bool> stop_;
  std::map<TensorKey, std::vector<Output>> grads_;
  std::map<std::string, bool> loop_done_;  // frame -> its gradient loop was built
};

}  // namespace gradients_internal
}  // namespace rill

#endif  // RILL_GRAPH_GRADIENTS_GRADIENT_BUILDER_H_
