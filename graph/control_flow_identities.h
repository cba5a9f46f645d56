// Identity nodes removed from graphs with TF1 control flow, where deadness allows it.
//
// TensorFlow's lowering of functional control flow (a model frozen with lower_control_flow)
// wraps every loop body and condition input and output in Identity nodes, most of them with a
// control input: a Keras LSTM's iteration runs about 25 of them. The graph optimizer's own
// identity removal does not touch graphs with control flow; this pass does, keeping every value
// and every node's deadness:
//   - an Identity-class node (Identity, StopGradient, PreventGradient) of a non-ref tensor, on
//     the device of its input and of its consumers, read by at least one node and by no
//     _Retval / _Send / _Recv, is removed; each consumer reads its input instead and waits on its
//     control inputs (a node with a dead input, data or control, is dead: the same deadness);
//   - one with control inputs stays when a consumer is a control-flow op other than
//     NextIteration (a Merge is not dead for one dead input, so the control inputs' deadness
//     would differ);
//   - one read by a control edge stays when its input is a Switch (a control edge from a Switch
//     is live whichever branch was taken; from the Identity, only on the taken one) or when that
//     reader is a control-flow op.
// Identity nodes without control inputs and a data consumer are removed whatever the consumer,
// as the Identity changes neither value nor deadness.
//
// Effects: removed ids are freed; no node is added; SOURCE / SINK edges fixed up when anything
// changed. Linear in the graph's size (plus the topological sort). Needs exclusive access.
#ifndef RILL_GRAPH_CONTROL_FLOW_IDENTITIES_H_
#define RILL_GRAPH_CONTROL_FLOW_IDENTITIES_H_

#include "absl/status/statusor.h"
#include "graph/graph.h"

namespace rill {

// Removes the Identity nodes described above in place; returns how many were removed.
// Errors: Internal when an edge cannot be rewired (a bug).
absl::StatusOr<int> RemoveControlFlowIdentities(Graph* graph);

}  // namespace rill

#endif  // RILL_GRAPH_CONTROL_FLOW_IDENTITIES_H_
