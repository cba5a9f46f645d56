// Edits the graph passes over TF1 loops and fusions (loop_invariants, loop_input_projection,
// lstm_cell_fusion, gru_cell_fusion) share. Not thread-safe against other edits of the graph.
#ifndef RILL_GRAPH_PASS_EDITS_H_
#define RILL_GRAPH_PASS_EDITS_H_

#include "absl/status/status.h"
#include "graph/graph.h"

namespace rill {

// The attr (list(string)) in which a rewrite that replaces several nodes by one lists the replaced
// nodes the fused kernel's errors name (kernels/framework/error_nodes.h reads it).
inline constexpr char kErrorNodesAttr[] = "_rill_error_nodes";
// The attr (list(int)) listing the entries of kErrorNodesAttr whose node takes its two operands in
// the other order than the fused kernel's check names them (the kernel then names them as the node
// does).
inline constexpr char kErrorOperandsSwappedAttr[] = "_rill_error_operands_swapped";

// Moves every out edge of `from` (but those to `skip`, which may be null) to `to`: a data edge
// leaves output `output` of `to` for the same input of its reader, a control edge stays a control
// edge; edges to SINK are dropped (FixupSourceAndSinkEdges restores what the graph needs). The
// error of Graph::AddEdge for a data edge it refuses.
absl::Status MoveOutEdges(Graph* graph, Node* from, Node* to, int output,
                          const Node* skip = nullptr);

}  // namespace rill

#endif  // RILL_GRAPH_PASS_EDITS_H_
