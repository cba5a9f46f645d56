// Questions the graph passes over TF1 loops and fusions (loop_invariants, loop_body_constants,
// loop_input_projection, lstm_cell_fusion) ask about a node. Reads only; not thread-safe against
// a concurrent edit of the graph.
#ifndef RILL_GRAPH_PASS_QUERIES_H_
#define RILL_GRAPH_PASS_QUERIES_H_

#include <vector>

#include "graph/graph.h"
#include "proto/attr_value.pb.h"

namespace rill {

// The node's attr `name`, or null when its NodeDef has none.
const AttrValue* NodeAttrOrNull(const Node& n, const char* name);

// Whether the node's assigned device parses as a CPU.
bool AssignedToCpu(const Node& n);

// The node's data out edges, SINK left out.
std::vector<const Edge*> DataOutEdges(const Node& n);

// never_dead[id] for each node id: neither the node nor any ancestor can leave an output unset or
// forward deadness between frames (no control-flow op, no _Recv), so its outputs are never dead.
// `order` is a topological order of the graph's nodes.
std::vector<char> NeverDeadNodes(const Graph& graph, const std::vector<Node*>& order);

}  // namespace rill

#endif  // RILL_GRAPH_PASS_QUERIES_H_
