// Function calls and functional control flow, lowered in place in an imported Graph before
// placement:
//   - a node whose op names a FunctionDef of graph->library() (and is not a registered op),
//     PartitionedCall and StatefulPartitionedCall: the body is inlined under the call's name
//     ("<call>/<body node>");
//   - If / StatelessIf: each input goes through a Switch on ToBool(cond) (TensorFlow's truth of
//     a tensor: a non-scalar is true when non-empty), the branches are inlined on the true and
//     false outputs ("<if>/then/...", "<if>/else/...") and each output is the Merge of both;
//   - Case / StatelessCase: a _SwitchN of the branch index on itself gives one pivot per branch
//     (an index out of range takes the last branch, as TensorFlow's Case and _SwitchN do; a
//     non-scalar index fails with _SwitchN's "The second input must be a scalar, but it has
//     shape [..]"), each input goes through a _SwitchN on the index, the branches are inlined
//     on the pivots ("<case>/branch_<b>/...") and each output is the Merge of every branch's;
//   - While / StatelessWhile: the TF1 loop pattern (Enter, Merge, cond inlined, LoopCond,
//     Switch, Exit, body inlined, NextIteration), in frame "<while>".
// The lowered node is removed and an IdentityN over its outputs (a NoOp when it has none) takes
// over its name and its out-edges (data edges from the same output index, control edges), so
// feeds, fetches and consumers ("w:1", "^w") are unchanged. Body nodes without inputs hang on a
// pivot by a control edge, so they run in the right frame and die with an untaken branch;
// control outputs (FunctionDef.control_ret: stateful ops without consumers) are kept alive by
// control edges into the IdentityN, the branch Merge or the NextIteration. The functional node's
// own control inputs (not SOURCE's) gate the lowered pattern. Nested calls in inlined bodies are
// lowered in turn, depth first and without recursion: a call nested 64 levels deep is refused
// before its body is inlined, and so is a call that would take the nodes made by the lowering
// past LoweringOptions::max_new_nodes (a function calling itself, or calls fanning out
// exponentially, fail fast instead of exhausting memory).
//
// Inlining was chosen over a call-frame runtime: the bodies are then placed, partitioned,
// pruned and scheduled like any node, with no per-call executor cost.
//
// The nodes made are checked as ImportGraphDef checks a GraphDef's (node names, device strings,
// attrs with defaults filled, input counts, dtypes of every edge, cycles), with import's
// messages; when anything was lowered, SOURCE/SINK edges are fixed up
// (Graph::FixupSourceAndSinkEdges) and, with infer_shapes, InferShapes (graph_def_import.h)
// recomputes every node's output shapes, so the lowered graph holds exactly the shapes and
// fails with exactly the errors an import of the lowered graph would. A graph without
// functional ops is left untouched.
//
// Errors (InvalidArgument): lowering errors name the node and op ("Node 'call' (PartitionedCall):
// ..."): an unknown function, a call whose input count does not match the signature, a `ret`
// naming an output the body lacks, an attr placeholder the call does not bind, too many nodes
// made ("... reduce the recursion ..."); nesting past 64 levels names the call only ("Node
// 'f/f/f': function calls nest more than 64 deep ..."); validation errors name the node made, as
// import's do. After an error the graph
// is unspecified (it may be destroyed or overwritten); callers drop it.
// Mutates the graph: needs exclusive access to it; otherwise thread-safe.
#ifndef RILL_GRAPH_FUNCTION_LOWERING_H_
#define RILL_GRAPH_FUNCTION_LOWERING_H_

#include <cstdint>

#include "absl/status/status.h"
#include "graph/graph.h"

namespace rill {

struct LoweringOptions {
  // The most nodes the whole lowering may add to the graph.
  int64_t max_new_nodes = 10'000'000;
  // Recompute the graph's output shapes after lowering (as ImportOptions::infer_shapes; keep
  // them alike). Without it only the cycle check of import's checks 4 and 5 runs.
  bool infer_shapes = true;
};

// True when `graph` has a node the lowering would rewrite.
bool HasFunctionalOps(const Graph& graph);

// Lowers every call, If, Case and While of `graph` in place; the library is kept.
absl::Status LowerFunctionalOps(Graph* graph, const LoweringOptions& options = {});

}  // namespace rill

#endif  // RILL_GRAPH_FUNCTION_LOWERING_H_
