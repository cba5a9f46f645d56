#include "graph/lstm_cell_fusion.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "graph/op_classes.h"
#include "graph/pass_edits.h"
#include "graph/pass_queries.h"
#include "ops/attr_value_util.h"

namespace rill {
namespace {

constexpr int kMaxHops = 8;

bool HasControlInputs(const Node& n) {
  for (const Edge* e : n.in_edges()) {
    if (e->IsControlEdge() && !e->src()->IsSource()) return true;
  }
  return false;
}

// Whether output 0 of `n` is rank 2 whatever the inputs (a product, or a bias or sum of such).
bool RankTwo(const Node* n, int depth) {
  if (n == nullptr || depth > 4) return false;
  const std::string& op = n->op();
  if (op == "MatMul" || op == "_FusedMatMul") return true;
  if (op == "BiasAdd") return RankTwo(n->input_node(0), depth + 1);
  if (op == "Add" || op == "AddV2") {
    return RankTwo(n->input_node(0), depth + 1) && RankTwo(n->input_node(1), depth + 1);
  }
  return false;
}

// When the Split's axis is a Const 1 or -1, maybe through Enter / Identity nodes: the nodes that
// decide whether that axis is dead (ConstOperandAt), which the fused cell waits on.
std::optional<std::vector<Node*>> LastAxisWaits(const Node& split) {
  std::optional<ConstOperand> axis = ConstOperandAt(split.input_edge(0), kMaxHops);
  if (!axis || axis->value.shape().rank() != 0 || axis->value.dtype() != DT_INT32) {
    return std::nullopt;
  }
  const int32_t k = axis->value.flat<int32_t>()[0];
  if (k != 1 && k != -1) return std::nullopt;
  return std::move(axis->waits);
}

// The input of binary `n` other than `from`'s output 0; null when `n` does not read `from` at
// exactly one input.
const Edge* OtherInput(const Node& n, const Node* from) {
  const Edge* a = n.input_edge(0);
  const Edge* b = n.input_edge(1);
  if (a == nullptr || b == nullptr) return nullptr;
  const bool in_a = a->src() == from && a->src_output() == 0;
  const bool in_b = b->src() == from && b->src_output() == 0;
  if (in_a == in_b) return nullptr;
  return in_a ? b : a;
}

struct Cell {
  Node* split;
  std::array<int64_t, 4> order;  // Split outputs of i, f, g, o
  std::vector<Node*> nodes;      // the ten nodes replaced
  // z and c as (node, output): an earlier cell's rewrite may replace c's node (an unrolled LSTM's
  // next cell reads the previous c').
  std::pair<Node*, int> z;
  std::pair<Node*, int> c;
  Node* f_c;                      // the Mul Sigmoid(f) * c
  Node* c_next;                   // the Add: c'
  Node* h;                        // the last Mul
  Node* tanh_c;                   // Tanh(c'), read by h
  std::vector<Node*> axis_waits;  // decide whether the Split's axis is dead
};

class Fuser {
 public:
  explicit Fuser(Graph* graph) : graph_(graph) {}

  absl::StatusOr<int> Run() {
    std::vector<Node*> splits;
    for (Node* n : graph_->op_nodes()) {
      if (n->op() == "Split") splits.push_back(n);
    }
    std::vector<Cell> cells;
    absl::flat_hash_set<const Node*> taken;
    for (Node* s : splits) {
      Cell cell;
      if (!Match(s, &cell)) continue;
      bool overlaps = false;
      for (const Node* n : cell.nodes) overlaps |= taken.contains(n);
      if (overlaps) continue;
      taken.insert(cell.nodes.begin(), cell.nodes.end());
      cells.push_back(std::move(cell));
    }
    for (const Cell& cell : cells) {
      const absl::Status s = Rewrite(cell);
      if (!s.ok()) {
        return absl::InternalError(
            absl::StrCat("FuseLstmCells: Split '", cell.split->name(), "': ", s.message()));
      }
    }
    if (!cells.empty()) graph_->FixupSourceAndSinkEdges();
    return static_cast<int>(cells.size());
  }

 private:
  bool Match(Node* split, Cell* cell) {
    const AttrValue* num = NodeAttrOrNull(*split, "num_split");
    if (num == nullptr || num->i() != 4 || !IsFloatTyped(*split) || !AssignedToCpu(*split) ||
        HasControlOuts(*split)) {
      return false;
    }
    std::optional<std::vector<Node*>> axis_waits = LastAxisWaits(*split);
    if (!axis_waits) return false;
    const std::string& device = split->assigned_device_name();
    const Edge* z = split->input_edge(1);
    if (z == nullptr || z->src_output() != 0 || !RankTwo(z->src(), 0)) return false;
    auto same = [&](const Node* n) {
      return n->assigned_device_name() == device && IsFloatTyped(*n);
    };
    // One activation per output.
    std::array<Node*, 4> act{};
    for (const Edge* e : DataOutEdges(*split)) {
      const int k = e->src_output();
      if (k < 0 || k > 3 || act[k] != nullptr || e->dst_input() != 0) return false;
      act[k] = e->dst();
    }
    int g = -1;
    for (int k = 0; k < 4; ++k) {
      if (act[k] == nullptr || !same(act[k]) || OnlyReader(*act[k]) == nullptr) return false;
      if (act[k]->op() == "Tanh") {
        if (g >= 0) return false;
        g = k;
      } else if (act[k]->op() != "Sigmoid") {
        return false;
      }
    }
    if (g < 0) return false;
    // i * g.
    Node* m_ig = OnlyReader(*act[g]);
    if (m_ig->op() != "Mul" || !same(m_ig)) return false;
    const Edge* i_edge = OtherInput(*m_ig, act[g]);
    if (i_edge == nullptr || i_edge->src_output() != 0) return false;
    int i = -1;
    for (int k = 0; k < 4; ++k) {
      if (k != g && act[k] == i_edge->src()) i = k;
    }
    if (i < 0) return false;
    std::vector<int> rest;
    for (int k = 0; k < 4; ++k) {
      if (k != g && k != i) rest.push_back(k);
    }
    for (int attempt = 0; attempt < 2; ++attempt) {
      const int f = rest[attempt], o = rest[1 - attempt];
      Node* m_fc = OnlyReader(*act[f]);
      Node* m_h = OnlyReader(*act[o]);
      if (m_fc == m_h || m_fc == m_ig || m_h == m_ig || m_fc->op() != "Mul" || m_h->op() != "Mul" ||
          !same(m_fc) || !same(m_h)) {
        continue;
      }
      const Edge* c = OtherInput(*m_fc, act[f]);
      if (c == nullptr) continue;
      bool c_ours = c->src() == split || c->src() == m_ig || c->src() == m_h;
      for (Node* a : act) c_ours |= c->src() == a;
      if (c_ours) continue;
      Node* add = OnlyReader(*m_fc);
      if (add == nullptr || add != OnlyReader(*m_ig) || !same(add) ||
          (add->op() != "AddV2" && add->op() != "Add")) {
        continue;
      }
      const Edge* a0 = add->input_edge(0);
      const Edge* a1 = add->input_edge(1);
      if (a0 == nullptr || a1 == nullptr || a0->src() == a1->src()) continue;
      const Edge* t_edge = OtherInput(*m_h, act[o]);
      if (t_edge == nullptr || t_edge->src_output() != 0) continue;
      Node* tanh_c = t_edge->src();
      if (tanh_c->op() != "Tanh" || !same(tanh_c) || OnlyReader(*tanh_c) != m_h) continue;
      // A control input of Tanh(c') or h may come from a reader of c' (an Assert on the new
      // state): on the fused node, which outputs c', it would close a cycle.
      if (HasControlInputs(*tanh_c) || HasControlInputs(*m_h)) continue;
      const Edge* t_in = tanh_c->input_edge(0);
      if (t_in == nullptr || t_in->src() != add || t_in->src_output() != 0) continue;
      cell->split = split;
      cell->order = {i, f, g, o};
      cell->nodes = {split, act[0], act[1], act[2], act[3], m_ig, m_fc, add, tanh_c, m_h};
      cell->f_c = m_fc;
      cell->z = {z->src(), z->src_output()};
      cell->c = {c->src(), c->src_output()};
      cell->c_next = add;
      cell->h = m_h;
      cell->tanh_c = tanh_c;
      cell->axis_waits = *std::move(axis_waits);
      return true;
    }
    return false;
  }

  absl::Status Rewrite(const Cell& cell) {
    const absl::flat_hash_set<const Node*> gone(cell.nodes.begin(), cell.nodes.end());
    std::vector<Node*> waits;
    for (const Node* n : cell.nodes) {
      for (const Edge* e : n->in_edges()) {
        if (e->IsControlEdge() && e->src()->IsOp() && !gone.contains(e->src()) &&
            std::find(waits.begin(), waits.end(), e->src()) == waits.end()) {
          waits.push_back(e->src());
        }
      }
    }
    for (Node* w : cell.axis_waits) {
      if (std::find(waits.begin(), waits.end(), w) == waits.end()) waits.push_back(w);
    }
    NodeDef def;
    std::string name = absl::StrCat(cell.split->name(), "/lstm_cell");
    for (int i = 1; graph_->FindNode(name) != nullptr; ++i) {
      name = absl::StrCat(cell.split->name(), "/lstm_cell_", i);
    }
    def.set_name(name);
    def.set_op("_RillLstmCell");
    def.set_device(cell.split->requested_device());
    (*def.mutable_attr())["T"].set_type(DT_FLOAT);
    AttrValue::ListValue& order = *(*def.mutable_attr())["gate_order"].mutable_list();
    for (int64_t k : cell.order) order.add_i(k);
    // The nodes the kernel's errors name: the Split and the Mul of Sigmoid(f) and c, listed as
    // swapped when that Mul takes c first (its error names c's shape first).
    SetAttr(&def, kErrorNodesAttr, std::vector<std::string>{cell.split->name(), cell.f_c->name()});
    const Edge* fc0 = cell.f_c->input_edge(0);
    if (fc0 != nullptr && fc0->src() == cell.c.first && fc0->src_output() == cell.c.second) {
      SetAttr(&def, kErrorOperandsSwappedAttr, std::vector<int64_t>{1});
    }
    RILL_ASSIGN_OR_RETURN(Node * fused, graph_->AddNode(std::move(def)));
    fused->set_assigned_device_name(cell.split->assigned_device_name());
    const std::pair<Node*, int> z = Resolve(cell.z), c = Resolve(cell.c);
    RILL_RETURN_IF_ERROR(graph_->AddEdge(z.first, z.second, fused, 0).status());
    RILL_RETURN_IF_ERROR(graph_->AddEdge(c.first, c.second, fused, 1).status());
    for (Node* w : waits) graph_->AddControlEdge(w, fused);
    RILL_RETURN_IF_ERROR(MoveOutEdges(graph_, cell.c_next, fused, 0, cell.tanh_c));
    RILL_RETURN_IF_ERROR(MoveOutEdges(graph_, cell.h, fused, 1));
    replaced_[cell.c_next] = {fused, 0};
    replaced_[cell.h] = {fused, 1};
    graph_->RemoveNodes(cell.nodes);
    return absl::OkStatus();
  }

  // A tensor of an earlier cell's replaced nodes (c' or h, output 0) read from the fused node.
  std::pair<Node*, int> Resolve(std::pair<Node*, int> t) const {
    auto it = replaced_.find(t.first);
    return it == replaced_.end() ? t : it->second;
  }

  Graph* graph_;
  absl::flat_hash_map<const Node*, std::pair<Node*, int>> replaced_;
};

}  // namespace

absl::StatusOr<int> FuseLstmCells(Graph* graph) { return Fuser(graph).Run(); }

}  // namespace rill
