// TF_Graph: creation and deletion, lookup and iteration of operations, GraphDef/OpDef/VersionDef
// export, tensor shapes known to the graph, and the op registry as an OpList.
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "c/c_api_internal.h"
#include "graph/graph_def_export.h"
#include "graph/graph_def_versions.h"
#include "ops/op_registry.h"
#include "proto/graph.pb.h"
#include "proto/op_def.pb.h"

namespace rill_c {

void MaybeFreeGraph(TF_Graph* g) {
  bool free_it = false;
  {
    rill::MutexLock lock(&g->mu);
    free_it = g->delete_requested && g->num_sessions == 0;
  }
  if (free_it) {
    ForgetDeclaredOutputs(g->graph);
    delete g;
  }
}

rill::VersionDef GraphVersions(const rill::Graph& graph) {
  if (graph.has_versions()) return graph.versions();
  rill::VersionDef versions;
  versions.set_producer(rill::kGraphDefVersion);
  versions.set_min_consumer(rill::kGraphDefVersionMinConsumer);
  return versions;
}

rill::GraphDef ExportedGraphDef(TF_Graph* graph) {
  rill::GraphDef def;
  rill::MutexLock lock(&graph->mu);
  rill::ExportGraphDef(graph->graph, &def);
  *def.mutable_versions() = GraphVersions(graph->graph);
  def.mutable_library();
  return def;
}

namespace {

// The node of `output` after checking it is an output of a live op node of `g`.
absl::StatusOr<rill::Node*> OutputNode(TF_Graph* g, TF_Output output)
    ABSL_EXCLUSIVE_LOCKS_REQUIRED(g->mu) {
  if (output.oper == nullptr) return absl::InvalidArgumentError("The operation is null");
  rill::Node* node = ToNode(output.oper);
  const int id = g->graph.FindNodeId(node->name());
  if (id < 0 || g->graph.FindNodeById(id) != node) {
    return absl::InvalidArgumentError(
        absl::StrCat("Node ", node->name(), " was not found in the graph"));
  }
  if (output.index < 0 || output.index >= NumOutputs(node)) {
    return absl::OutOfRangeError(absl::StrCat("Node '", node->name(), "' has ", NumOutputs(node),
                                              " outputs; output ", output.index,
                                              " does not exist"));
  }
  return node;
}

rill::PartialTensorShape ShapeOf(const rill::Node& node, int index) {
  const std::vector<rill::PartialTensorShape>& shapes = node.output_shapes();
  if (index < static_cast<int>(shapes.size()) && !shapes[index].unknown_rank()) {
    return shapes[index];
  }
  // An imported call or functional op gets no shape inference in Rill (TensorFlow infers through
  // the function's body); the _output_shapes TensorFlow wrote with the node give its shapes.
  if (node.is_unknown_op() && IsFunctionalOp(node.op())) {
    auto it = node.def().attr().find("_output_shapes");
    if (it != node.def().attr().end() && index < it->second.list().shape_size() &&
        !it->second.list().shape(index).unknown_rank()) {
      std::vector<int64_t> dims;
      for (const auto& d : it->second.list().shape(index).dim()) {
        dims.push_back(d.size() < 0 ? -1 : d.size());
      }
      return rill::PartialTensorShape(dims);
    }
  }
  return index < static_cast<int>(shapes.size()) ? shapes[index] : rill::PartialTensorShape();
}

std::string DimsString(const rill::PartialTensorShape& s) {
  if (s.unknown_rank()) return "?";
  std::vector<std::string> dims;
  for (int64_t d : s.dims()) dims.push_back(d < 0 ? "?" : absl::StrCat(d));
  return absl::StrCat("[", absl::StrJoin(dims, ","), "]");
}

// TensorFlow's shape merge: unknown parts take the other side's value, known ones must agree.
absl::StatusOr<rill::PartialTensorShape> Merge(const rill::PartialTensorShape& a,
                                               const rill::PartialTensorShape& b) {
  if (a.unknown_rank()) return b;
  if (b.unknown_rank()) return a;
  if (a.rank() != b.rank()) {
    return absl::InvalidArgumentError(
        absl::StrCat("Shapes must be equal rank, but are ", a.rank(), " and ", b.rank()));
  }
  std::vector<int64_t> dims(a.rank());
  for (int i = 0; i < a.rank(); ++i) {
    const int64_t x = a.dims()[i], y = b.dims()[i];
    if (x >= 0 && y >= 0 && x != y) {
      return absl::InvalidArgumentError(
          absl::StrCat("Dimension ", i, " in both shapes must be equal, but are ", x, " and ", y,
                       ". Shapes are ", DimsString(a), " and ", DimsString(b), "."));
    }
    dims[i] = x >= 0 ? x : y;
  }
  return rill::PartialTensorShape(dims);
}

}  // namespace
}  // namespace rill_c

using rill_c::SetOk;
using rill_c::SetStatus;
using rill_c::ToNode;
using rill_c::ToOperation;

extern "C" {

TF_Graph* TF_NewGraph(void) { return new TF_Graph; }

void TF_DeleteGraph(TF_Graph* g) {
  if (g == nullptr) return;
  {
    rill::MutexLock lock(&g->mu);
    g->delete_requested = true;
  }
  rill_c::MaybeFreeGraph(g);
}

TF_Operation* TF_GraphOperationByName(TF_Graph* graph, const char* oper_name) {
  if (graph == nullptr || oper_name == nullptr) return nullptr;
  rill::MutexLock lock(&graph->mu);
  return ToOperation(graph->graph.FindNode(oper_name));
}

TF_Operation* TF_GraphNextOperation(TF_Graph* graph, size_t* pos) {
  if (graph == nullptr || pos == nullptr) return nullptr;
  rill::MutexLock lock(&graph->mu);
  // Positions count op node ids (SOURCE and SINK, ids 0 and 1, are skipped).
  for (size_t id = *pos + 2; id < static_cast<size_t>(graph->graph.num_node_ids()); ++id) {
    rill::Node* node = graph->graph.FindNodeById(static_cast<int>(id));
    if (node == nullptr) continue;
    *pos = id - 1;
    return ToOperation(node);
  }
  *pos = graph->graph.num_node_ids();
  return nullptr;
}

void TF_GraphToGraphDef(TF_Graph* graph, TF_Buffer* output_graph_def, TF_Status* status) {
  if (graph == nullptr) return SetStatus(status, absl::InvalidArgumentError("The graph is null"));
  SetStatus(status, rill_c::SerializeToBuffer(rill_c::ExportedGraphDef(graph), output_graph_def));
}

void TF_GraphGetOpDef(TF_Graph* graph, const char* op_name, TF_Buffer* output_op_def,
                      TF_Status* status) {
  if (graph == nullptr || op_name == nullptr) {
    return SetStatus(status, absl::InvalidArgumentError("The graph or the op name is null"));
  }
  {
    rill::MutexLock lock(&graph->mu);
    for (const rill::FunctionDef& f : graph->graph.library().function()) {
      if (f.signature().name() == op_name) {
        return SetStatus(status, rill_c::SerializeToBuffer(f.signature(), output_op_def));
      }
    }
  }
  absl::StatusOr<const rill::OpRegistration*> reg =
      rill::OpRegistry::Global()->LookUpOrError(op_name);
  if (!reg.ok()) return SetStatus(status, reg.status());
  SetStatus(status, rill_c::SerializeToBuffer((*reg)->op_def, output_op_def));
}

void TF_GraphVersions(TF_Graph* graph, TF_Buffer* output_version_def, TF_Status* status) {
  if (graph == nullptr) return SetStatus(status, absl::InvalidArgumentError("The graph is null"));
  rill::VersionDef versions;
  {
    rill::MutexLock lock(&graph->mu);
    versions = rill_c::GraphVersions(graph->graph);
  }
  SetStatus(status, rill_c::SerializeToBuffer(versions, output_version_def));
}

int TF_GraphGetTensorNumDims(TF_Graph* graph, TF_Output output, TF_Status* status) {
  if (graph == nullptr) {
    SetStatus(status, absl::InvalidArgumentError("The graph is null"));
    return -1;
  }
  rill::MutexLock lock(&graph->mu);
  absl::StatusOr<rill::Node*> node = rill_c::OutputNode(graph, output);
  if (!node.ok()) {
    SetStatus(status, node.status());
    return -1;
  }
  SetOk(status);
  return rill_c::ShapeOf(**node, output.index).rank();
}

void TF_GraphGetTensorShape(TF_Graph* graph, TF_Output output, int64_t* dims, int num_dims,
                            TF_Status* status) {
  if (graph == nullptr) return SetStatus(status, absl::InvalidArgumentError("The graph is null"));
  rill::MutexLock lock(&graph->mu);
  absl::StatusOr<rill::Node*> node = rill_c::OutputNode(graph, output);
  if (!node.ok()) return SetStatus(status, node.status());
  const rill::PartialTensorShape shape = rill_c::ShapeOf(**node, output.index);
  if (shape.rank() != num_dims) {
    return SetStatus(
        status, absl::InvalidArgumentError(absl::StrCat("Expected rank is ", num_dims,
                                                        " but actual rank is ", shape.rank())));
  }
  if (num_dims > 0 && dims == nullptr) {
    return SetStatus(status, absl::InvalidArgumentError("The dims array is null"));
  }
  for (int i = 0; i < num_dims; ++i) dims[i] = shape.dims()[i];
  SetOk(status);
}

void TF_GraphSetTensorShape(TF_Graph* graph, TF_Output output, const int64_t* dims,
                            const int num_dims, TF_Status* status) {
  if (graph == nullptr) return SetStatus(status, absl::InvalidArgumentError("The graph is null"));
  if (num_dims > 0 && dims == nullptr) {
    return SetStatus(status, absl::InvalidArgumentError("The dims array is null"));
  }
  rill::MutexLock lock(&graph->mu);
  absl::StatusOr<rill::Node*> node = rill_c::OutputNode(graph, output);
  if (!node.ok()) return SetStatus(status, node.status());
  rill::PartialTensorShape given;
  if (num_dims >= 0) {
    std::vector<int64_t> d(dims, dims + num_dims);
    for (int64_t& x : d) {
      if (x < -1) {
        return SetStatus(
            status, absl::InvalidArgumentError(absl::StrCat("Dimension ", x, " must be >= -1")));
      }
    }
    given = rill::PartialTensorShape(d);
  }
  absl::StatusOr<rill::PartialTensorShape> merged =
      rill_c::Merge(rill_c::ShapeOf(**node, output.index), given);
  if (!merged.ok()) return SetStatus(status, merged.status());
  std::vector<rill::PartialTensorShape> shapes = (*node)->output_shapes();
  shapes.resize(std::max<size_t>(shapes.size(), rill_c::NumOutputs(*node)));
  shapes[output.index] = *merged;
  (*node)->set_output_shapes(std::move(shapes));
  SetOk(status);
}

TF_Buffer* TF_GetAllOpList(void) {
  rill::OpList list;
  rill::OpRegistry* registry = rill::OpRegistry::Global();
  for (const std::string& name : registry->ListOps(/*include_internal=*/true)) {
    const rill::OpRegistration* reg = registry->LookUp(name);
    if (reg != nullptr) *list.add_op() = reg->op_def;
  }
  TF_Buffer* buffer = TF_NewBuffer();
  (void)rill_c::SerializeToBuffer(list, buffer);
  return buffer;
}

}  // extern "C"
