// TF_AddGradients, TF_AddGradientsWithPrefix and RILL_AddGradientsWithOptions: the graph is
// exported, imported into a builder Scope, differentiated there by rill::AddSymbolicGradients
// (graph/gradients), and the new nodes are added back to the TF_Graph as one checked import.
#include "graph/gradients/gradients.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "c/c_api_internal.h"
#include "core/status_macros.h"
#include "graph/builder/scope.h"
#include "graph/graph_def_export.h"
#include "tensorflow/c/c_api.h"
#include "tensorflow/c/rill_extensions.h"

namespace rill_c {
namespace {

absl::StatusOr<std::vector<rill::Output>> ToOutputs(const rill::Scope& scope, const TF_Output* list,
                                                    int n, const char* what) {
  std::vector<rill::Output> outputs;
  if (n > 0 && list == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(what, " is null but its count is ", n));
  }
  for (int i = 0; i < n; ++i) {
    if (list[i].oper == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(what, "[", i, "] has a null operation"));
    }
    RILL_ASSIGN_OR_RETURN(rill::Operation op, scope.GetOperation(ToNode(list[i].oper)->name()));
    rill::Output out = op.output(list[i].index);
    if (!out.valid()) {
      return absl::InvalidArgumentError(absl::StrCat(what, "[", i, "] names output ", list[i].index,
                                                     " of '", op.name(), "', which has ",
                                                     op.num_outputs()));
    }
    outputs.push_back(out);
  }
  return outputs;
}

absl::Status AddGradients(TF_Graph* g, const char* prefix, TF_Output* y, int ny, TF_Output* x,
                          int nx, TF_Output* dx, const rill::GradientOptions& base_options,
                          const TF_Output* stop, int nstop, TF_Output* dy) {
  if (g == nullptr) return absl::InvalidArgumentError("The graph is null");
  if (ny < 0 || nx < 0 || nstop < 0) {
    return absl::InvalidArgumentError("ny, nx and nstop_gradients must not be negative");
  }
  if (nx > 0 && dy == nullptr) return absl::InvalidArgumentError("dy is null");
  rill::MutexLock lock(&g->mu);
  rill::GraphDef existing;
  rill::ExportGraphDef(g->graph, &existing);
  rill::GradientOptions options = base_options;
  if (prefix != nullptr) {
    // TensorFlow's rule: the prefix must not be a node's name or a name scope of the graph.
    const std::string scope_prefix = absl::StrCat(prefix, "/");
    for (const rill::NodeDef& n : existing.node()) {
      if (n.name() == prefix || absl::StartsWith(n.name(), scope_prefix)) {
        return absl::InvalidArgumentError(
            absl::StrCat("prefix [", prefix, "] conflicts with existing node in the graph named [",
                         n.name(), "]"));
      }
    }
    options.name = prefix;
  }
  rill::Scope root = rill::Scope::NewRootScope();
  RILL_RETURN_IF_ERROR(root.ImportGraphDef(existing));
  RILL_ASSIGN_OR_RETURN(std::vector<rill::Output> ys, ToOutputs(root, y, ny, "y"));
  RILL_ASSIGN_OR_RETURN(std::vector<rill::Output> xs, ToOutputs(root, x, nx, "x"));
  std::vector<rill::Output> dys;
  if (dx != nullptr) {
    RILL_ASSIGN_OR_RETURN(dys, ToOutputs(root, dx, ny, "dx"));
  }
  RILL_ASSIGN_OR_RETURN(options.stop_gradients, ToOutputs(root, stop, nstop, "stop_gradients"));
  std::vector<rill::Output> grads;
  RILL_RETURN_IF_ERROR(rill::AddSymbolicGradients(root, ys, xs, dys, &grads, options));
  RILL_ASSIGN_OR_RETURN(rill::GraphDef all, root.ToGraphDef());
  rill::GraphDef added;
  for (int i = existing.node_size(); i < all.node_size(); ++i) *added.add_node() = all.node(i);
  RILL_RETURN_IF_ERROR(ImportNodesLocked(g, added));
  for (int i = 0; i < nx; ++i) {
    if (!grads[i].valid()) {
      dy[i] = TF_Output{nullptr, 0};
      continue;
    }
    rill::Node* node = g->graph.FindNode(grads[i].node());
    if (node == nullptr) {
      return absl::InternalError(absl::StrCat("gradient node '", grads[i].node(), "' was lost"));
    }
    dy[i] = TF_Output{ToOperation(node), grads[i].index()};
  }
  return absl::OkStatus();
}

}  // namespace
}  // namespace rill_c

extern "C" {

void TF_AddGradients(TF_Graph* g, TF_Output* y, int ny, TF_Output* x, int nx, TF_Output* dx,
                     TF_Status* status, TF_Output* dy) {
  TF_AddGradientsWithPrefix(g, nullptr, y, ny, x, nx, dx, status, dy);
}

void TF_AddGradientsWithPrefix(TF_Graph* g, const char* prefix, TF_Output* y, int ny, TF_Output* x,
                               int nx, TF_Output* dx, TF_Status* status, TF_Output* dy) {
  rill_c::SetStatus(status, rill_c::AddGradients(g, prefix, y, ny, x, nx, dx, {}, nullptr, 0, dy));
}

void RILL_AddGradientsWithOptions(TF_Graph* g, const char* prefix, TF_Output* y, int ny,
                                  TF_Output* x, int nx, TF_Output* dx, TF_Output* stop_gradients,
                                  int nstop_gradients, unsigned char colocate_gradients_with_ops,
                                  unsigned char unconnected_gradients_zero,
                                  unsigned char gate_gradients, TF_Status* status, TF_Output* dy) {
  rill::GradientOptions options;
  options.colocate_gradients_with_ops = colocate_gradients_with_ops != 0;
  options.gate_gradients = gate_gradients != 0;
  options.unconnected_gradients = unconnected_gradients_zero
                                      ? rill::GradientOptions::Unconnected::kZero
                                      : rill::GradientOptions::Unconnected::kNone;
  rill_c::SetStatus(status, rill_c::AddGradients(g, prefix, y, ny, x, nx, dx, options,
                                                 stop_gradients, nstop_gradients, dy));
}

}  // extern "C"
