// Questions the graph passes over TF1 loops and fusions (loop_invariants, loop_body_constants,
// loop_input_projection, lstm_cell_fusion, gru_cell_fusion) ask about a node. Reads only; not
// thread-safe against a concurrent edit of the graph.
#ifndef RILL_GRAPH_PASS_QUERIES_H_
#define RILL_GRAPH_PASS_QUERIES_H_

#include <optional>
#include <vector>

#include "core/tensor.h"
#include "graph/graph.h"
#include "proto/attr_value.pb.h"

namespace rill {

// The node's attr `name`, or null when its NodeDef has none.
const AttrValue* NodeAttrOrNull(const Node& n, const char* name);

// Whether the node's assigned device parses as a CPU.
bool AssignedToCpu(const Node& n);

// The node's data out edges, SINK left out.
std::vector<const Edge*> DataOutEdges(const Node& n);

// Whether the node's type attr T is float32.
bool IsFloatTyped(const Node& n);

// Whether a node other than SINK waits on the node by a control edge.
bool HasControlOuts(const Node& n);

// The one node reading `n` (by data, one edge, nothing by control), or null.
Node* OnlyReader(const Node& n);

// never_dead[id] for each node id: neither the node nor any ancestor can leave an output unset or
// forward deadness between frames (no control-flow op, no _Recv), so its outputs are never dead.
// `order` is a topological order of the graph's nodes.
std::vector<char> NeverDeadNodes(const Graph& graph, const std::vector<Node*>& order);

// A constant operand: the value of the Const that edge `e` reads, maybe through Enter and
// Identity nodes (at most `max_hops` of them), and the nodes whose control edges decide whether
// that value is dead: the control-input sources of the Const and of each node between it and the
// reader (a Const in a TF1 loop body waits on its frame's pivot). A pass that replaces the reader
// by a fused node which no longer reads the operand makes the fused node wait on `waits`, so the
// fused node is dead exactly when the reader was.
struct ConstOperand {
  Tensor value;
  std::vector<Node*> waits;
};

// Null when `e` reads no such chain, when the Const's value does not parse, or when a node at or
// before an Enter on the chain has a control input (its source is in an outer frame: a node
// inside the loop cannot wait on it).
std::optional<ConstOperand> ConstOperandAt(const Edge* e, int max_hops);

}  // namespace rill

#endif  // RILL_GRAPH_PASS_QUERIES_H_
