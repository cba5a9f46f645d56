// Function calls and functional control flow, lowered into the graph before placement:
//   - a node whose op names a FunctionDef of the graph's library, PartitionedCall and
//     StatefulPartitionedCall: the body is inlined under the call's name
//     ("<call>/<body node>");
//   - If / StatelessIf: each input goes through a Switch on ToBool(cond) (TensorFlow's truth of
//     a tensor: a non-scalar is true when non-empty), the branches are inlined on the true and
//     false outputs ("<if>/then/...", "<if>/else/...") and each output is the Merge of both;
//   - While / StatelessWhile: the TF1 loop pattern (Enter, Merge, cond inlined, LoopCond,
//     Switch, Exit, body inlined, NextIteration), in frame "<while>".
// The lowered node's name is kept by an IdentityN over its outputs (a NoOp when it has none), so
// feeds, fetches and consumers ("w:1", "^w") are unchanged. Body nodes without inputs hang on a
// pivot by a control edge, so they run in the right frame and die with an untaken branch;
// control outputs (FunctionDef.control_ret: stateful ops without consumers) are kept alive by
// control edges into the IdentityN, the branch Merge or the NextIteration. Nested calls are
// lowered recursively (InvalidArgument past 64 levels: a recursive function).
//
// Inlining was chosen over a call-frame runtime: the bodies are then placed, partitioned,
// pruned and scheduled like any node, with no per-call executor cost.
//
// Errors (InvalidArgument, naming the node): an unknown function, a call whose input count does
// not match the signature, a `ret` naming an output the body lacks, an attr placeholder the call
// does not bind. Pure function; thread-safe.
#ifndef RILL_GRAPH_FUNCTION_LOWERING_H_
#define RILL_GRAPH_FUNCTION_LOWERING_H_

#include "absl/status/statusor.h"
#include "proto/graph.pb.h"

namespace rill {

// True when `graph` has a node the lowering would rewrite.
bool HasFunctionalOps(const GraphDef& graph);

// `graph` with every call, If and While lowered; the library is kept.
absl::StatusOr<GraphDef> LowerFunctionalOps(const GraphDef& graph);

}  // namespace rill

#endif  // RILL_GRAPH_FUNCTION_LOWERING_H_
