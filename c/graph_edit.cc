// Changing a graph's operations after they were added: TF_UpdateEdge rewires one data input,
// RILL_SetOperationDevice (Rill-only) changes a requested device,
// with the graph's dtype check, and recomputes the consumer's shapes; TF_TryEvaluateConstant runs
// the subgraph an output needs in a private session when it needs no placeholder, variable or
// other stateful or unknown operation.
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "c/c_api_internal.h"
#include "core/device_name.h"
#include "graph/graph_def_export.h"
#include "proto/graph.pb.h"
#include "session/session.h"
#include "tensorflow/c/rill_extensions.h"

namespace rill_c {
namespace {

absl::Status CheckLive(const rill::Graph& g, const rill::Node* node) {
  const int id = g.FindNodeId(node->name());
  if (id < 0 || g.FindNodeById(id) != node) {
    return absl::InvalidArgumentError(
        absl::StrCat("Node ", node->name(), " was not found in the graph"));
  }
  return absl::OkStatus();
}

absl::Status UpdateEdge(TF_Graph* graph, TF_Output new_src, TF_Input dst)
    ABSL_EXCLUSIVE_LOCKS_REQUIRED(graph->mu) {
  if (new_src.oper == nullptr || dst.oper == nullptr) {
    return absl::InvalidArgumentError("The source or the destination operation is null");
  }
  rill::Graph& g = graph->graph;
  rill::Node* src = ToNode(new_src.oper);
  rill::Node* node = ToNode(dst.oper);
  absl::Status st = CheckLive(g, src);
  if (st.ok()) st = CheckLive(g, node);
  if (!st.ok()) return st;
  const rill::Edge* old = node->input_edge(dst.index);
  if (old == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("Node '", node->name(), "' has no input ", dst.index, " to update"));
  }
  rill::Node* old_src = old->src();
  const int old_output = old->src_output();
  g.RemoveEdge(old);
  absl::StatusOr<const rill::Edge*> added = g.AddEdge(src, new_src.index, node, dst.index);
  if (!added.ok()) {
    (void)g.AddEdge(old_src, old_output, node, dst.index);  // put the old edge back
    return added.status();
  }
  return InferNodeShapes(node);
}

// The subgraph `output` needs, as a GraphDef; false when it needs an operation that cannot be
// evaluated ahead of a run.
bool ConstantSubgraph(const rill::Graph& g, const rill::Node* root, rill::GraphDef* out) {
  std::vector<const rill::Node*> stack = {root};
  std::vector<bool> seen(g.num_node_ids(), false);
  std::vector<const rill::Node*> nodes;
  while (!stack.empty()) {
    const rill::Node* n = stack.back();
    stack.pop_back();
    if (seen[n->id()]) continue;
    seen[n->id()] = true;
    if (n->op_def() == nullptr || n->op_def()->is_stateful() ||
        absl::StartsWith(n->op(), "Placeholder")) {
      return false;
    }
    nodes.push_back(n);
    for (const rill::Edge* e : n->in_edges()) {
      if (e->src()->IsOp()) stack.push_back(e->src());
    }
  }
  for (int id = 0; id < g.num_node_ids(); ++id) {
    const rill::Node* n = g.FindNodeById(id);
    if (n != nullptr && seen[id]) *out->add_node() = rill::NodeDefWithInputs(*n);
  }
  if (g.has_library()) *out->mutable_library() = g.library();
  if (g.has_versions()) *out->mutable_versions() = g.versions();
  return true;
}

}  // namespace
}  // namespace rill_c

extern "C" {

void TF_UpdateEdge(TF_Graph* graph, TF_Output new_src, TF_Input dst, TF_Status* status) {
  if (graph == nullptr) {
    return rill_c::SetStatus(status, absl::InvalidArgumentError("The graph is null"));
  }
  rill::MutexLock lock(&graph->mu);
  rill_c::SetStatus(status, rill_c::UpdateEdge(graph, new_src, dst));
}

void RILL_SetOperationDevice(TF_Graph* graph, TF_Operation* oper, const char* device,
                             TF_Status* status) {
  if (graph == nullptr || oper == nullptr || device == nullptr) {
    return rill_c::SetStatus(
        status, absl::InvalidArgumentError("The graph, the operation or the device is null"));
  }
  rill::MutexLock lock(&graph->mu);
  rill::Node* node = rill_c::ToNode(oper);
  absl::Status s = rill_c::CheckLive(graph->graph, node);
  if (s.ok()) {
    absl::Status parsed = rill::ParseDeviceName(device).status();
    if (!parsed.ok()) {
      s = absl::InvalidArgumentError(absl::StrCat("Node '", node->name(), "': ", parsed.message()));
    }
  }
  if (s.ok()) node->set_requested_device(device);
  rill_c::SetStatus(status, s);
}

unsigned char TF_TryEvaluateConstant(TF_Graph* graph, TF_Output output, TF_Tensor** result,
                                     TF_Status* status) {
  if (result != nullptr) *result = nullptr;
  if (graph == nullptr || output.oper == nullptr || result == nullptr) {
    rill_c::SetStatus(
        status, absl::InvalidArgumentError("The graph, the output or the result pointer is null"));
    return 0;
  }
  rill::GraphDef subgraph;
  {
    rill::MutexLock lock(&graph->mu);
    const rill::Node* node = rill_c::ToNode(output.oper);
    absl::Status live = rill_c::CheckLive(graph->graph, node);
    if (live.ok() && (output.index < 0 || output.index >= node->num_outputs())) {
      live =
          absl::OutOfRangeError(absl::StrCat("Node '", node->name(), "' has ", node->num_outputs(),
                                             " outputs; output ", output.index, " does not exist"));
    }
    if (!live.ok()) {
      rill_c::SetStatus(status, live);
      return 0;
    }
    if (!rill_c::ConstantSubgraph(graph->graph, node, &subgraph)) {
      rill_c::SetOk(status);
      return 0;
    }
  }
  absl::StatusOr<std::unique_ptr<rill::Session>> session =
      rill::Session::New(rill::SessionOptions());
  absl::Status st = session.status();
  std::vector<rill::Tensor> values;
  if (st.ok()) st = (*session)->Create(subgraph);
  if (st.ok()) st = (*session)->Run({}, {rill_c::OutputName(output)}, {}, &values);
  if (!st.ok()) {
    rill_c::SetStatus(status, st);
    return 0;
  }
  *result = rill_c::FromRillTensor(values[0]);
  rill_c::SetOk(status);
  return 1;
}

}  // extern "C"
