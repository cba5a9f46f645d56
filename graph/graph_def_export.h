// Graph -> GraphDef: the inverse of ImportGraphDef, for everything import accepted.
//
//   GraphDef out;
//   ExportGraphDef(graph, &out);
//
// Writes the op nodes in id order (SOURCE and SINK, and the control edges from/to them, are left
// out), each NodeDef as the node holds it (attrs with defaults filled, `_class`, `_output_shapes`
// and every other attr, device request, experimental_debug_info, experimental_type) with its
// `input` list rebuilt from the edges: data inputs by input index ("src" for output 0, "src:k"
// otherwise), then control inputs ("^src") in the order their edges were added (an imported
// node's GraphDef order). Then versions, the deprecated version field, library and debug_info, as
// imported. A data input with no edge (an incomplete graph being rewritten) is left out.
// `out` is cleared first. Never fails; thread-safe for concurrent exports of one Graph.
#ifndef RILL_GRAPH_GRAPH_DEF_EXPORT_H_
#define RILL_GRAPH_GRAPH_DEF_EXPORT_H_

#include "graph/graph.h"
#include "proto/graph.pb.h"

namespace rill {

void ExportGraphDef(const Graph& graph, GraphDef* out);

struct ExportOptions {
  // Write each node's assigned device (where it is not empty) instead of its requested device,
  // as TensorFlow's partition graphs in RunMetadata show.
  bool assigned_devices = false;
};
void ExportGraphDef(const Graph& graph, const ExportOptions& options, GraphDef* out);

// The NodeDef of one node with its `input` list rebuilt as ExportGraphDef writes it (for error
// messages and per-node rewrites).
NodeDef NodeDefWithInputs(const Node& node);

}  // namespace rill

#endif  // RILL_GRAPH_GRAPH_DEF_EXPORT_H_
