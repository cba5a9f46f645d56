#include "graph/pass_edits.h"

#include <vector>

#include "core/status_macros.h"

namespace rill {

absl::Status MoveOutEdges(Graph* graph, Node* from, Node* to, int output, const Node* skip) {
  const std::vector<const Edge*> outs(from->out_edges().begin(), from->out_edges().end());
  for (const Edge* e : outs) {
    Node* dst = e->dst();
    if (dst == skip) continue;
    const int input = e->dst_input();
    const bool control = e->IsControlEdge();
    graph->RemoveEdge(e);
    if (dst->IsSink()) continue;
    if (control) {
      graph->AddControlEdge(to, dst);
    } else {
      RILL_RETURN_IF_ERROR(graph->AddEdge(to, output, dst, input).status());
    }
  }
  return absl::OkStatus();
}

}  // namespace rill
