#include "graph/gru_cell_fusion.h"

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
#include "core/tensor_proto.h"
#include "graph/graph_def_import.h"
#include "graph/op_classes.h"
#include "graph/pass_edits.h"
#include "graph/pass_queries.h"
#include "ops/attr_value_util.h"

namespace rill {
namespace {

constexpr int kMaxHops = 8;

using TensorRef = std::pair<Node*, int>;  // a tensor: (node, output)

TensorRef Source(const Edge* e) { return {e->src(), e->src_output()}; }

// The value of the Const at the end of `e`, maybe through Enter / Identity nodes; the nodes that
// decide whether it is dead (graph/pass_queries.h's ConstOperandAt) are added to `waits` (when
// not null): the fused node no longer reads it, so it waits on them instead.
std::optional<Tensor> ConstValue(const Edge* e, std::vector<Node*>* waits) {
  std::optional<ConstOperand> c = ConstOperandAt(e, kMaxHops);
  if (!c) return std::nullopt;
  if (waits != nullptr) waits->insert(waits->end(), c->waits.begin(), c->waits.end());
  return std::move(c->value);
}

// The entries of an int32 / int64 vector Const at input k of `n`.
std::optional<std::vector<int64_t>> IntsAt(const Node& n, int k, std::vector<Node*>* waits) {
  std::optional<Tensor> t = ConstValue(n.input_edge(k), waits);
  if (!t || t->shape().rank() != 1) return std::nullopt;
  std::vector<int64_t> v;
  for (int64_t i = 0; i < t->NumElements(); ++i) {
    if (t->dtype() == DT_INT32) {
      v.push_back(t->flat<int32_t>()[i]);
    } else if (t->dtype() == DT_INT64) {
      v.push_back(t->flat<int64_t>()[i]);
    } else {
      return std::nullopt;
    }
  }
  return v;
}

int64_t IntAttr(const Node& n, const char* name) {
  const AttrValue* a = NodeAttrOrNull(n, name);
  return a == nullptr ? -1 : a->i();
}

// Whether the Split's axis is a Const 1 or -1 (x is rank 2: proven by shapes later).
bool LastAxis(const Node& split, std::vector<Node*>* waits) {
  std::optional<Tensor> t = ConstValue(split.input_edge(0), waits);
  if (!t || t->shape().rank() != 0 || t->dtype() != DT_INT32) return false;
  const int32_t axis = t->flat<int32_t>()[0];
  return axis == 1 || axis == -1;
}

// Whether `e` carries a float Const of ones that leaves a rank-2 operand's shape as it is.
bool OnesConst(const Edge* e, std::vector<Node*>* waits) {
  std::optional<Tensor> t = ConstValue(e, waits);
  if (!t || t->dtype() != DT_FLOAT || t->shape().rank() > 2 || t->NumElements() != 1) {
    return false;
  }
  return t->flat<float>()[0] == 1.0f;
}

// The input of binary `n` other than `from`; null when `n` does not read `from` at exactly one of
// its two inputs.
const Edge* OtherInput(const Node& n, TensorRef from) {
  const Edge* a = n.input_edge(0);
  const Edge* b = n.input_edge(1);
  if (a == nullptr || b == nullptr) return nullptr;
  const bool in_a = Source(a) == from;
  const bool in_b = Source(b) == from;
  if (in_a == in_b) return nullptr;
  return in_a ? b : a;
}

bool IsAdd(const Node& n) { return n.op() == "AddV2" || n.op() == "Add"; }

// A StridedSlice [:, begin:end] (every row, stride 1) of a rank-2 tensor; its column bounds for a
// known width as StridedSlice computes them.
struct ColumnSlice {
  int64_t begin_mask, end_mask, begin, end;

  std::pair<int64_t, int64_t> Bounds(int64_t width) const {
    auto clamp = [&](int64_t i) {
      if (i < 0) i += width;
      return std::clamp<int64_t>(i, 0, width);
    };
    const int64_t b = begin_mask & 2 ? 0 : clamp(begin);
    const int64_t e = end_mask & 2 ? width : clamp(end);
    return {b, std::max(b, e)};
  }
};

std::optional<ColumnSlice> AsColumnSlice(const Node& n, std::vector<Node*>* waits) {
  if (n.op() != "StridedSlice" || n.num_inputs() != 4) return std::nullopt;
  if (IntAttr(n, "ellipsis_mask") != 0 || IntAttr(n, "new_axis_mask") != 0 ||
      IntAttr(n, "shrink_axis_mask") != 0) {
    return std::nullopt;
  }
  const int64_t bm = IntAttr(n, "begin_mask"), em = IntAttr(n, "end_mask");
  if (bm < 0 || em < 0 || (bm & 1) == 0 || (em & 1) == 0 || (bm | em) > 3) return std::nullopt;
  std::optional<std::vector<int64_t>> b = IntsAt(n, 1, waits), e = IntsAt(n, 2, waits),
                                      s = IntsAt(n, 3, waits);
  if (!b || !e || !s || b->size() != 2 || e->size() != 2 || s->size() != 2 || (*s)[0] != 1 ||
      (*s)[1] != 1) {
    return std::nullopt;
  }
  return ColumnSlice{bm, em, (*b)[1], (*e)[1]};
}

struct Cell {
  Node* split;
  std::array<int, 3> order;  // Split outputs (and hh's column blocks) of z, r, c
  std::array<Node*, 3> slices;
  std::vector<Node*> nodes;  // the fifteen nodes replaced
  TensorRef x, hh, h;
  Node* out;                       // the Add: h'
  std::vector<Node*> const_waits;  // decide whether the axis, bounds and 1 are dead
  int64_t units = -1;              // U, proven by ShapesFit
  // The kernel's error nodes: the Split, z's Add, z * h, z's StridedSlice of hh; those of them
  // taking their operands in the other order than the kernel names them.
  std::vector<std::string> error_nodes;
  std::vector<int64_t> swapped;
};

class Fuser {
 public:
  explicit Fuser(Graph* graph) : graph_(graph) {}

  absl::StatusOr<int> Run() {
    std::vector<Cell> candidates;
    for (Node* n : graph_->op_nodes()) {
      Cell cell;
      if (n->op() == "Split" && Match(n, &cell)) candidates.push_back(std::move(cell));
    }
    if (candidates.empty()) return 0;
    // Shapes only prove what they say when inference covers the whole graph.
    if (!InferShapes(graph_).ok()) return 0;
    std::vector<Cell> cells;
    absl::flat_hash_set<const Node*> taken;
    for (Cell& cell : candidates) {
      if (!ShapesFit(cell)) continue;
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
            absl::StrCat("FuseGruCells: Split '", cell.split->name(), "': ", s.message()));
      }
    }
    if (!cells.empty()) graph_->FixupSourceAndSinkEdges();
    return static_cast<int>(cells.size());
  }

  absl::StatusOr<int> RunUpdates() {
    std::vector<Update> updates;
    absl::flat_hash_set<const Node*> taken;
    for (Node* n : graph_->op_nodes()) {
      Update u;
      if (n->op() != "Tanh" || !MatchUpdate(n, &u)) continue;
      bool overlaps = false;
      for (const Node* m : u.nodes) overlaps |= taken.contains(m);
      if (overlaps) continue;
      taken.insert(u.nodes.begin(), u.nodes.end());
      updates.push_back(std::move(u));
    }
    for (const Update& u : updates) {
      const absl::Status s = RewriteUpdate(u);
      if (!s.ok()) {
        return absl::InternalError(
            absl::StrCat("FuseGruUpdates: Tanh '", u.tanh->name(), "': ", s.message()));
      }
    }
    if (!updates.empty()) graph_->FixupSourceAndSinkEdges();
    return static_cast<int>(updates.size());
  }

 private:
  // Tanh(c), Sub(1, z), their product, z * h and the sum h'.
  struct Update {
    Node* tanh;
    std::vector<Node*> nodes;
    TensorRef z, c, h;
    Node* out;
    std::vector<Node*> const_waits;  // decide whether the 1 is dead
    // The kernel's error nodes: z * h, (1 - z) * Tanh(c), the sum; those of them taking their
    // operands in the other order than the kernel names them (h, Tanh(c), (1 - z) * Tanh(c)
    // first).
    std::vector<std::string> error_nodes;
    std::vector<int64_t> swapped;
  };

  bool MatchUpdate(Node* tanh, Update* u) {
    if (!IsFloatTyped(*tanh) || !AssignedToCpu(*tanh)) return false;
    const std::string& device = tanh->assigned_device_name();
    auto same = [&](const Node* n) {
      return n != nullptr && n->assigned_device_name() == device && IsFloatTyped(*n);
    };
    const Edge* c = tanh->input_edge(0);
    Node* keep_c = OnlyReader(*tanh);
    if (c == nullptr || !same(keep_c) || keep_c->op() != "Mul") return false;
    const Edge* k = OtherInput(*keep_c, {tanh, 0});
    if (k == nullptr || k->src_output() != 0) return false;
    Node* sub = k->src();
    if (!same(sub) || sub->op() != "Sub" || OnlyReader(*sub) != keep_c) return false;
    std::optional<Tensor> one = ConstValue(sub->input_edge(0), &u->const_waits);
    if (!one || one->dtype() != DT_FLOAT || one->shape().rank() != 0 ||
        one->flat<float>()[0] != 1.0f) {
      return false;
    }
    const Edge* z = sub->input_edge(1);
    Node* out = OnlyReader(*keep_c);
    if (z == nullptr || !same(out) || !IsAdd(*out)) return false;
    const Edge* p = OtherInput(*out, {keep_c, 0});
    if (p == nullptr || p->src_output() != 0) return false;
    Node* zh = p->src();
    if (!same(zh) || zh->op() != "Mul" || OnlyReader(*zh) != out) return false;
    const Edge* h = OtherInput(*zh, Source(z));
    if (h == nullptr) return false;
    u->tanh = tanh;
    u->nodes = {tanh, sub, keep_c, zh, out};
    u->error_nodes = {zh->name(), keep_c->name(), out->name()};
    if (Source(zh->input_edge(0)) != Source(z)) u->swapped.push_back(0);
    if (keep_c->input_edge(0)->src() == tanh) u->swapped.push_back(1);
    if (out->input_edge(0)->src() == keep_c) u->swapped.push_back(2);
    u->z = Source(z);
    u->c = Source(c);
    u->h = Source(h);
    u->out = out;
    return true;
  }

  absl::Status RewriteUpdate(const Update& u) {
    NodeDef def;
    std::string name = absl::StrCat(u.tanh->name(), "/gru_update");
    for (int i = 1; graph_->FindNode(name) != nullptr; ++i) {
      name = absl::StrCat(u.tanh->name(), "/gru_update_", i);
    }
    def.set_name(name);
    def.set_op("_RillGruUpdate");
    def.set_device(u.tanh->requested_device());
    (*def.mutable_attr())["T"].set_type(DT_FLOAT);
    SetAttr(&def, kErrorNodesAttr, u.error_nodes);
    if (!u.swapped.empty()) SetAttr(&def, kErrorOperandsSwappedAttr, u.swapped);
    return Replace(u.nodes, std::move(def), u.tanh->assigned_device_name(),
                   {Resolve(u.z), Resolve(u.c), Resolve(u.h)}, u.out, u.const_waits);
  }

  bool Match(Node* split, Cell* cell) {
    if (IntAttr(*split, "num_split") != 3 || !IsFloatTyped(*split) || !AssignedToCpu(*split) ||
        HasControlOuts(*split) || !LastAxis(*split, &cell->const_waits)) {
      return false;
    }
    const std::string& device = split->assigned_device_name();
    auto same = [&](const Node* n) {
      return n != nullptr && n->assigned_device_name() == device && IsFloatTyped(*n);
    };
    const Edge* x = split->input_edge(1);
    if (x == nullptr) return false;
    // One Add per output; its other input a slice (z, r) or a Mul (c).
    std::array<Node*, 3> add{}, other{};
    for (const Edge* e : DataOutEdges(*split)) {
      const int k = e->src_output();
      if (k < 0 || k > 2 || add[k] != nullptr) return false;
      add[k] = e->dst();
    }
    int c = -1;
    std::array<Node*, 3> slice{};
    for (int k = 0; k < 3; ++k) {
      if (!same(add[k]) || !IsAdd(*add[k]) || OnlyReader(*add[k]) == nullptr) return false;
      const Edge* o = OtherInput(*add[k], {split, k});
      if (o == nullptr || o->src_output() != 0 || !same(o->src())) return false;
      other[k] = o->src();
      if (other[k]->op() == "Mul") {
        if (c >= 0) return false;
        c = k;
      } else if (other[k]->op() == "StridedSlice") {
        slice[k] = other[k];
      } else {
        return false;
      }
    }
    if (c < 0) return false;
    // r * hh_c, read by c's Add alone.
    Node* r_mul = other[c];
    if (OnlyReader(*r_mul) != add[c]) return false;
    int r = -1;
    for (int k = 0; k < 3; ++k) {
      if (k == c) continue;
      Node* sig = OnlyReader(*add[k]);
      if (!same(sig) || sig->op() != "Sigmoid") return false;
      const Edge* s = OtherInput(*r_mul, {sig, 0});
      if (s == nullptr) continue;
      if (r >= 0 || s->src_output() != 0 || s->src()->op() != "StridedSlice") return false;
      r = k;
      slice[c] = s->src();
    }
    if (r < 0) return false;
    const int z = 3 - c - r;
    Node* sig_r = OnlyReader(*add[r]);
    Node* sig_z = OnlyReader(*add[z]);
    if (OnlyReader(*sig_r) != r_mul) return false;
    // The slices: one hh, each read by its own consumer alone.
    const Edge* hh = slice[0]->input_edge(0);
    if (hh == nullptr) return false;
    for (int k = 0; k < 3; ++k) {
      const Node* reader = k == c ? r_mul : add[k];
      if (!same(slice[k]) || OnlyReader(*slice[k]) != reader ||
          !AsColumnSlice(*slice[k], &cell->const_waits) || slice[k]->input_edge(0) == nullptr ||
          Source(slice[k]->input_edge(0)) != Source(hh)) {
        return false;
      }
    }
    // c = Tanh(x_c + r * hh_c); z's readers: z * h and 1 - z.
    Node* tanh = OnlyReader(*add[c]);
    if (!same(tanh) || tanh->op() != "Tanh") return false;
    const std::vector<const Edge*> z_outs = DataOutEdges(*sig_z);
    if (z_outs.size() != 2 || HasControlOuts(*sig_z)) return false;
    Node* sub = nullptr;
    Node* zh = nullptr;
    for (const Edge* e : z_outs) {
      Node* d = e->dst();
      if (d->op() == "Sub" && e->dst_input() == 1 && sub == nullptr) {
        sub = d;
      } else if (d->op() == "Mul" && zh == nullptr) {
        zh = d;
      } else {
        return false;
      }
    }
    if (!same(sub) || !same(zh) || !OnesConst(sub->input_edge(0), &cell->const_waits)) {
      return false;
    }
    const Edge* h = OtherInput(*zh, {sig_z, 0});
    if (h == nullptr) return false;
    // (1 - z) * c and the sum.
    Node* keep_c = OnlyReader(*sub);
    if (!same(keep_c) || keep_c->op() != "Mul" || OnlyReader(*tanh) != keep_c) return false;
    const Edge* kc = OtherInput(*keep_c, {sub, 0});
    if (kc == nullptr || Source(kc) != TensorRef{tanh, 0}) return false;
    Node* out = OnlyReader(*zh);
    if (!same(out) || !IsAdd(*out) || OnlyReader(*keep_c) != out) return false;
    const Edge* o = OtherInput(*out, {zh, 0});
    if (o == nullptr || Source(o) != TensorRef{keep_c, 0}) return false;
    cell->split = split;
    cell->order = {z, r, c};
    cell->slices = {slice[z], slice[r], slice[c]};
    cell->nodes = {split, slice[0], slice[1], slice[2], add[0], add[1], add[2], sig_z,
                   sig_r, r_mul,    tanh,     zh,       sub,    keep_c, out};
    cell->error_nodes = {split->name(), add[z]->name(), zh->name(), slice[z]->name()};
    // z's Add taking hh's block first; z * h taking h first.
    if (add[z]->input_edge(0) != nullptr && add[z]->input_edge(0)->src() == slice[z]) {
      cell->swapped.push_back(1);
    }
    if (zh->input_edge(0) != nullptr && zh->input_edge(0)->src() != sig_z) {
      cell->swapped.push_back(2);
    }
    cell->x = Source(x);
    cell->hh = Source(hh);
    cell->h = Source(h);
    cell->out = out;
    return true;
  }

  // The inferred shape of a tensor, or null.
  static const PartialTensorShape* ShapeOf(TensorRef t) {
    const std::vector<PartialTensorShape>& shapes = t.first->output_shapes();
    return t.second < static_cast<int>(shapes.size()) ? &shapes[t.second] : nullptr;
  }

  // Whether a known rank-2 shape's last dim is `width` (and known).
  static bool Width(const PartialTensorShape* s, int64_t width) {
    return s != nullptr && !s->unknown_rank() && s->rank() == 2 && s->dims()[1] == width;
  }

  // x and hh [?, 3U] with the slices the gates' blocks; h [?, U] by a MatMul hh comes from.
  bool ShapesFit(Cell& cell) const {
    const PartialTensorShape* x = ShapeOf(cell.x);
    if (x == nullptr || x->unknown_rank() || x->rank() != 2 || x->dims()[1] < 0 ||
        x->dims()[1] % 3 != 0) {
      return false;
    }
    const int64_t width = x->dims()[1], units = width / 3;
    if (!Width(ShapeOf(cell.hh), width)) return false;
    for (int k = 0; k < 3; ++k) {
      const std::pair<int64_t, int64_t> b = AsColumnSlice(*cell.slices[k], nullptr)->Bounds(width);
      if (b.first != cell.order[k] * units || b.second != b.first + units) return false;
    }
    // A MatMul of h that hh is (or is a bias or sum of): h is rank 2 of width U when it ran.
    std::vector<const Node*> products = {cell.hh.first};
    if (cell.hh.second == 0 && (IsAdd(*cell.hh.first) || cell.hh.first->op() == "BiasAdd")) {
      for (const Edge* e : cell.hh.first->in_edges()) {
        if (!e->IsControlEdge() && e->src_output() == 0) products.push_back(e->src());
      }
    }
    for (const Node* m : products) {
      if (m->op() != "MatMul" || m->input_edge(0) == nullptr || m->input_edge(1) == nullptr ||
          Source(m->input_edge(0)) != cell.h) {
        continue;
      }
      const AttrValue* ta = NodeAttrOrNull(*m, "transpose_a");
      const AttrValue* tb = NodeAttrOrNull(*m, "transpose_b");
      if (ta != nullptr && ta->b()) continue;
      const PartialTensorShape* w = ShapeOf(Source(m->input_edge(1)));
      if (w == nullptr || w->unknown_rank() || w->rank() != 2) continue;
      if (w->dims()[tb != nullptr && tb->b() ? 1 : 0] == units) {
        cell.units = units;
        return true;
      }
    }
    return false;
  }

  absl::Status Rewrite(const Cell& cell) {
    NodeDef def;
    std::string name = absl::StrCat(cell.split->name(), "/gru_cell");
    for (int i = 1; graph_->FindNode(name) != nullptr; ++i) {
      name = absl::StrCat(cell.split->name(), "/gru_cell_", i);
    }
    def.set_name(name);
    def.set_op("_RillGruCell");
    def.set_device(cell.split->requested_device());
    (*def.mutable_attr())["T"].set_type(DT_FLOAT);
    AttrValue::ListValue& order = *(*def.mutable_attr())["gate_order"].mutable_list();
    for (int k : cell.order) order.add_i(k);
    (*def.mutable_attr())["units"].set_i(cell.units);
    SetAttr(&def, kErrorNodesAttr, cell.error_nodes);
    if (!cell.swapped.empty()) SetAttr(&def, kErrorOperandsSwappedAttr, cell.swapped);
    return Replace(cell.nodes, std::move(def), cell.split->assigned_device_name(),
                   {Resolve(cell.x), Resolve(cell.hh), Resolve(cell.h)}, cell.out,
                   cell.const_waits);
  }

  // Adds `def` on `device` reading `inputs` and waiting on the control inputs of `nodes` and on
  // `const_waits` (what decides whether their dropped constant operands are dead), moves the
  // readers of `out` to it and removes `nodes`, then what fed only them.
  absl::Status Replace(const std::vector<Node*>& nodes, NodeDef def, const std::string& device,
                       const std::vector<TensorRef>& inputs, Node* out,
                       const std::vector<Node*>& const_waits) {
    const absl::flat_hash_set<const Node*> gone(nodes.begin(), nodes.end());
    std::vector<Node*> waits;
    for (Node* w : const_waits) {
      if (!gone.contains(w) && std::find(waits.begin(), waits.end(), w) == waits.end()) {
        waits.push_back(w);
      }
    }
    std::vector<Node*> fed;  // what fed the replaced nodes: an axis, slice bounds, the 1
    for (const Node* n : nodes) {
      for (const Edge* e : n->in_edges()) {
        if (gone.contains(e->src())) continue;
        if (!e->IsControlEdge()) {
          fed.push_back(e->src());
        } else if (e->src()->IsOp() &&
                   std::find(waits.begin(), waits.end(), e->src()) == waits.end()) {
          waits.push_back(e->src());
        }
      }
    }
    RILL_ASSIGN_OR_RETURN(Node * fused, graph_->AddNode(std::move(def)));
    fused->set_assigned_device_name(device);
    for (size_t k = 0; k < inputs.size(); ++k) {
      RILL_RETURN_IF_ERROR(
          graph_->AddEdge(inputs[k].first, inputs[k].second, fused, static_cast<int>(k)).status());
    }
    for (Node* w : waits) graph_->AddControlEdge(w, fused);
    RILL_RETURN_IF_ERROR(MoveOutEdges(graph_, out, fused, 0));
    replaced_[out] = {fused, 0};
    graph_->RemoveNodes(nodes);
    RemoveUnread(std::move(fed));
    return absl::OkStatus();
  }

  // Removes the Consts, Enters and Identities among `nodes` that nothing reads any more (a loop
  // runs each constant Enter and its Const once per step), and then their inputs likewise. They
  // compute nothing else and cannot fail, so no value, error or order changes.
  void RemoveUnread(std::vector<Node*> nodes) {
    absl::flat_hash_set<const Node*> removed;  // compared, never read: a node may come twice
    while (!nodes.empty()) {
      Node* n = nodes.back();
      nodes.pop_back();
      if (removed.contains(n) || !n->IsOp()) continue;
      const OpClass c = n->op_class();
      if (n->op() != "Const" && !IsEnter(c) && !IsIdentity(c)) continue;
      bool read = false;
      for (const Edge* e : n->out_edges()) read |= !e->dst()->IsSink();
      if (read) continue;
      for (const Edge* e : n->in_edges()) {
        if (!e->IsControlEdge()) nodes.push_back(e->src());
      }
      removed.insert(n);
      graph_->RemoveNode(n);
    }
  }

  // A tensor of an earlier cell's replaced h' read from the fused node (an unrolled GRU's next
  // step reads the previous h').
  TensorRef Resolve(TensorRef t) const {
    auto it = replaced_.find(t.first);
    return it == replaced_.end() ? t : it->second;
  }

  Graph* graph_;
  absl::flat_hash_map<const Node*, TensorRef> replaced_;
};

}  // namespace

absl::StatusOr<int> FuseGruCells(Graph* graph) { return Fuser(graph).Run(); }

absl::StatusOr<int> FuseGruUpdates(Graph* graph) { return Fuser(graph).RunUpdates(); }

}  // namespace rill
