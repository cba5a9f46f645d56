#include "graph/pass_queries.h"

#include <algorithm>
#include <utility>

#include "absl/status/statusor.h"
#include "core/device_name.h"
#include "core/tensor_proto.h"
#include "graph/op_classes.h"

namespace rill {

const AttrValue* NodeAttrOrNull(const Node& n, const char* name) {
  auto it = n.def().attr().find(name);
  return it == n.def().attr().end() ? nullptr : &it->second;
}

bool AssignedToCpu(const Node& n) {
  absl::StatusOr<DeviceName> parsed = ParseDeviceName(n.assigned_device_name());
  return parsed.ok() && parsed->has_type && parsed->type == "CPU";
}

std::vector<const Edge*> DataOutEdges(const Node& n) {
  std::vector<const Edge*> outs;
  for (const Edge* e : n.out_edges()) {
    if (!e->IsControlEdge() && !e->dst()->IsSink()) outs.push_back(e);
  }
  return outs;
}

bool IsFloatTyped(const Node& n) {
  const AttrValue* a = NodeAttrOrNull(n, "T");
  return a != nullptr && a->type() == DT_FLOAT;
}

bool HasControlOuts(const Node& n) {
  for (const Edge* e : n.out_edges()) {
    if (e->IsControlEdge() && !e->dst()->IsSink()) return true;
  }
  return false;
}

Node* OnlyReader(const Node& n) {
  const std::vector<const Edge*> outs = DataOutEdges(n);
  if (outs.size() != 1 || HasControlOuts(n)) return nullptr;
  return outs[0]->dst();
}

std::vector<char> NeverDeadNodes(const Graph& graph, const std::vector<Node*>& order) {
  std::vector<char> never_dead(graph.num_node_ids(), 0);
  never_dead[Graph::kSourceId] = 1;
  for (const Node* n : order) {
    const OpClass c = n->op_class();
    if (IsControlFlow(c) || IsRecv(c)) continue;
    bool ok = true;
    for (const Edge* e : n->in_edges()) {
      if (!never_dead[e->src()->id()]) {
        ok = false;
        break;
      }
    }
    never_dead[n->id()] = ok;
  }
  return never_dead;
}

std::optional<ConstOperand> ConstOperandAt(const Edge* e, int max_hops) {
  ConstOperand operand;
  bool outer_frame = false;
  for (int hops = 0; e != nullptr && e->src_output() == 0 && !e->IsControlEdge(); ++hops) {
    Node* src = e->src();
    const OpClass c = src->op_class();
    const bool is_const = src->op() == "Const";
    if (!is_const && (hops == max_hops || !(IsEnter(c) || IsIdentity(c)))) return std::nullopt;
    outer_frame |= IsEnter(c);
    for (const Edge* in : src->in_edges()) {
      if (!in->IsControlEdge() || in->src()->IsSource()) continue;
      if (outer_frame) return std::nullopt;
      if (std::find(operand.waits.begin(), operand.waits.end(), in->src()) == operand.waits.end()) {
        operand.waits.push_back(in->src());
      }
    }
    if (is_const) {
      const AttrValue* value = NodeAttrOrNull(*src, "value");
      if (value == nullptr) return std::nullopt;
      absl::StatusOr<Tensor> t = TensorFromProto(value->tensor());
      if (!t.ok()) return std::nullopt;
      operand.value = *std::move(t);
      return operand;
    }
    e = src->input_edge(0);
  }
  return std::nullopt;
}

}  // namespace rill
