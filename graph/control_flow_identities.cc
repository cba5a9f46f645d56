#include "graph/control_flow_identities.h"

#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/types.h"
#include "graph/op_classes.h"

namespace rill {
namespace {

// Whether `n` can go (see the header), given its data input `in`.
bool Removable(const Node& n, const Edge& in) {
  const Node& src = *in.src();
  if (!src.IsOp() || IsRefType(n.input_type(0))) return false;
  const std::string& device = n.assigned_device_name();
  if (src.assigned_device_name() != device) return false;
  bool has_control_inputs = false;
  for (const Edge* e : n.in_edges()) {
    if (e->IsControlEdge() && e->src()->IsOp()) has_control_inputs = true;
  }
  bool read = false;
  for (const Edge* e : n.out_edges()) {
    const Node& dst = *e->dst();
    if (dst.IsSink()) continue;
    read = true;
    const OpClass c = dst.op_class();
    if (IsRetval(c) || IsTransfer(c) || dst.assigned_device_name() != device) return false;
    if (e->IsControlEdge()) {
      if (IsSwitch(src.op_class()) || IsControlFlow(c)) return false;
    } else if (has_control_inputs && IsControlFlow(c) && !IsNextIteration(c)) {
      return false;
    }
  }
  return read;
}

}  // namespace

absl::StatusOr<int> RemoveControlFlowIdentities(Graph* graph) {
  absl::StatusOr<std::vector<Node*>> order = TopologicalOrder(*graph);
  if (!order.ok()) return 0;  // a cycle: the session reports it later
  std::vector<Node*> removed;
  std::vector<Node*> controls;
  for (Node* n : *order) {
    if (!IsIdentity(n->op_class()) || n->num_inputs() != 1) continue;
    const Edge* in = n->input_edge(0);
    if (in == nullptr || !Removable(*n, *in)) continue;
    Node* src = in->src();
    const int src_output = in->src_output();
    controls.clear();
    for (const Edge* e : n->in_edges()) {
      if (e->IsControlEdge() && e->src()->IsOp()) controls.push_back(e->src());
    }
    std::vector<const Edge*> outs(n->out_edges().begin(), n->out_edges().end());
    for (const Edge* e : outs) {
      Node* dst = e->dst();
      const int input = e->dst_input();
      const bool control = e->IsControlEdge();
      graph->RemoveEdge(e);
      if (dst->IsSink()) continue;
      if (control) {
        graph->AddControlEdge(src, dst);
      } else {
        absl::StatusOr<const Edge*> added = graph->AddEdge(src, src_output, dst, input);
        if (!added.ok()) {
          return absl::InternalError(absl::StrCat("RemoveControlFlowIdentities: node '", n->name(),
                                                  "': ", added.status().message()));
        }
      }
      for (Node* c : controls) graph->AddControlEdge(c, dst);
    }
    removed.push_back(n);
  }
  if (!removed.empty()) {
    graph->RemoveNodes(removed);
    graph->FixupSourceAndSinkEdges();
  }
  return static_cast<int>(removed.size());
}

}  // namespace rill
