#include "graph/lstm_sequence_fusion.h"

#include <algorithm>
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
#include "graph/graph_def_import.h"
#include "graph/loop_frame.h"
#include "graph/op_classes.h"
#include "graph/pass_edits.h"
#include "graph/pass_queries.h"

namespace rill {
namespace {

constexpr int kMaxHops = 16;
constexpr size_t kMaxFrameNodes = 400;

bool BoolAttr(const Node& n, const char* name) {
  const AttrValue* a = NodeAttrOrNull(n, name);
  return a != nullptr && a->b();
}

bool TypeAttrIs(const Node& n, const char* name, DataType type) {
  const AttrValue* a = NodeAttrOrNull(n, name);
  return a != nullptr && a->type() == type;
}

// What a frame edge reads, looking through Identity and Switch:1: a variable's current value, a
// constant Enter, or a node's output.
struct Sym {
  enum Kind { kNone, kVar, kConst, kNode } kind = kNone;
  int var = -1;
  Node* node = nullptr;  // the Enter (kConst) or the node (kNode)
  int output = 0;
  bool IsNode(const Node* n, int o) const { return kind == kNode && node == n && output == o; }
};

struct Plan {
  LoopFrame frame;
  std::vector<int> counters;                  // var indices
  std::vector<std::pair<int, Node*>> bounds;  // (counter position, bound's Enter)
  int list = -1, h = -1, c = -1;
  int read_counter = -1, write_counter = -1;  // positions in `counters`
  int32_t write_index = 0;
  Node* cell = nullptr;
  Node* bias_add = nullptr;
  Node* sum = nullptr;
  Node* matmul_x = nullptr;  // may be null (the list holds x W)
  Node* matmul_h = nullptr;
  Node* get_item = nullptr;
  Node* set_item = nullptr;
  Node* list_in = nullptr;  // Enters of the input list, element shape, W, U, bias
  Node* element_shape = nullptr;
  Node* w = nullptr;
  Node* u = nullptr;
  Node* b = nullptr;
  bool input_first = true;
  bool to_bool = false;
};

class Fuser {
 public:
  explicit Fuser(Graph* graph) : graph_(graph) {}

  absl::StatusOr<int> Run() {
    // Rounds: a loop reading another one's outputs (stacked layers) has inputs that may be dead
    // until that one is a plain node.
    int fused = 0;
    for (;;) {
      std::vector<Node*> conds;
      bool any_cell = false;
      for (Node* n : graph_->op_nodes()) {
        if (IsLoopCond(n->op_class())) conds.push_back(n);
        any_cell |= n->op() == "_RillLstmCell";
      }
      if (conds.empty() || !any_cell) break;
      absl::StatusOr<std::vector<Node*>> order = TopologicalOrder(*graph_);
      if (!order.ok()) break;  // a cycle: the session reports it later
      const std::vector<char> never_dead = NeverDeadNodes(*graph_, *order);
      const EntersByFrame enters = CollectEnters(*graph_);
      std::vector<Plan> plans;
      for (Node* cond : conds) {
        std::optional<LoopFrame> frame = MatchLoopFrame(cond, enters, never_dead, kMaxFrameNodes);
        if (!frame) continue;
        Plan p;
        p.frame = std::move(*frame);
        if (Match(&p)) plans.push_back(std::move(p));
      }
      if (plans.empty()) break;
      // The counters must be scalars (the kernel keeps them as int32 values); shapes only prove
      // that when inference covers the whole graph.
      if (!InferShapes(graph_).ok()) break;
      plans.erase(std::remove_if(plans.begin(), plans.end(),
                                 [&](const Plan& p) { return !ScalarsProven(p); }),
                  plans.end());
      if (plans.empty()) break;
      for (const Plan& p : plans) {
        const absl::Status s = Rewrite(p);
        if (!s.ok()) {
          return absl::InternalError(
              absl::StrCat("FuseLstmSequences: cell '", p.cell->name(), "': ", s.message()));
        }
      }
      fused += static_cast<int>(plans.size());
    }
    if (fused > 0) graph_->FixupSourceAndSinkEdges();
    return fused;
  }

 private:
  Sym Resolve(const Edge* e) const {
    Sym s;
    for (int hops = 0; e != nullptr && !e->IsControlEdge() && hops < kMaxHops; ++hops) {
      Node* src = e->src();
      if (src->op() == "Identity") {
        if (e->src_output() != 0) return s;
        e = src->input_edge(0);
        continue;
      }
      if (IsSwitch(src->op_class())) {
        if (e->src_output() != 1) return s;
        e = src->input_edge(0);
        continue;
      }
      if (IsMerge(src->op_class())) {
        auto it = var_of_merge_->find(src);
        if (it == var_of_merge_->end() || e->src_output() != 0) return s;
        s.kind = Sym::kVar;
        s.var = it->second;
        return s;
      }
      if (IsEnter(src->op_class())) {
        if (!BoolAttr(*src, "is_constant")) return s;
        s.kind = Sym::kConst;
        s.node = src;
        return s;
      }
      s.kind = Sym::kNode;
      s.node = src;
      s.output = e->src_output();
      return s;
    }
    return s;
  }

  // The int32 scalar Const `e` reads (through Enter / Identity), if any.
  static std::optional<int32_t> IntConst(const Edge* e) {
    std::optional<ConstOperand> v = ConstOperandAt(e, kMaxHops);
    if (!v || v->value.dtype() != DT_INT32 || v->value.shape().rank() != 0) return std::nullopt;
    return v->value.flat<int32_t>()[0];
  }

  // A Less(counter, bound) of int32: records the bound; the counter var in *var.
  bool MatchLess(Node* less, std::vector<std::pair<int, Node*>>* bounds) {
    if (less->op() != "Less" || !TypeAttrIs(*less, "T", DT_INT32)) return false;
    const Sym a = Resolve(less->input_edge(0)), b = Resolve(less->input_edge(1));
    if (a.kind != Sym::kVar || b.kind != Sym::kConst) return false;
    bounds->emplace_back(a.var, b.node);
    matched_.insert(less);
    return true;
  }

  bool Match(Plan* p) {
    matched_.clear();
    var_of_merge_ = &p->frame.var_of_merge;
    const std::vector<LoopVar>& vars = p->frame.vars;
    // The condition.
    Sym pred = Resolve(p->frame.loop_cond->input_edge(0));
    if (pred.kind == Sym::kNode && pred.node->op() == "ToBool" && pred.output == 0) {
      // The kernel's to_bool.
      p->to_bool = true;
      matched_.insert(pred.node);
      pred = Resolve(pred.node->input_edge(0));
    }
    if (pred.kind != Sym::kNode || pred.output != 0) return false;
    std::vector<std::pair<int, Node*>> bounds;
    if (pred.node->op() == "LogicalAnd") {
      matched_.insert(pred.node);
      for (int i = 0; i < 2; ++i) {
        const Sym l = Resolve(pred.node->input_edge(i));
        if (l.kind != Sym::kNode || l.output != 0 || !MatchLess(l.node, &bounds)) return false;
      }
    } else if (!MatchLess(pred.node, &bounds)) {
      return false;
    }
    // The cell and its operands.
    for (Node* n : p->frame.nodes) {
      if (n->op() != "_RillLstmCell") continue;
      if (p->cell != nullptr) return false;
      p->cell = n;
    }
    if (p->cell == nullptr || !IsFloatTyped(*p->cell)) return false;
    matched_.insert(p->cell);
    const Sym c = Resolve(p->cell->input_edge(1));
    const Sym z = Resolve(p->cell->input_edge(0));
    if (c.kind != Sym::kVar || z.kind != Sym::kNode || z.output != 0) return false;
    p->c = c.var;
    p->bias_add = z.node;
    if (p->bias_add->op() != "BiasAdd" || !IsFloatTyped(*p->bias_add)) return false;
    matched_.insert(p->bias_add);
    const Sym bias = Resolve(p->bias_add->input_edge(1));
    const Sym sum = Resolve(p->bias_add->input_edge(0));
    if (bias.kind != Sym::kConst || sum.kind != Sym::kNode || sum.output != 0) return false;
    p->b = bias.node;
    p->sum = sum.node;
    if ((p->sum->op() != "AddV2" && p->sum->op() != "Add") || !IsFloatTyped(*p->sum)) return false;
    matched_.insert(p->sum);
    // One operand h U, the other x W (or x of a projected list).
    for (int first = 0; first < 2 && p->matmul_h == nullptr; ++first) {
      const Sym hu = Resolve(p->sum->input_edge(1 - first));
      const Sym xw = Resolve(p->sum->input_edge(first));
      if (hu.kind != Sym::kNode || hu.output != 0 || xw.kind != Sym::kNode || xw.output != 0 ||
          hu.node->op() != "MatMul") {
        continue;
      }
      const Sym hv = Resolve(hu.node->input_edge(0));
      const Sym uv = Resolve(hu.node->input_edge(1));
      if (hv.kind != Sym::kVar || uv.kind != Sym::kConst) continue;
      Node* get = xw.node;
      if (xw.node->op() == "MatMul") {
        const Sym xv = Resolve(xw.node->input_edge(0));
        const Sym wv = Resolve(xw.node->input_edge(1));
        if (xv.kind != Sym::kNode || xv.output != 0 || wv.kind != Sym::kConst ||
            !IsFloatTyped(*xw.node) || BoolAttr(*xw.node, "transpose_a")) {
          continue;
        }
        p->matmul_x = xw.node;
        p->w = wv.node;
        get = xv.node;
      }
      p->matmul_h = hu.node;
      p->u = uv.node;
      p->h = hv.var;
      p->get_item = get;
      p->input_first = first == 0;
    }
    if (p->matmul_h == nullptr || !IsFloatTyped(*p->matmul_h) ||
        BoolAttr(*p->matmul_h, "transpose_a")) {
      return false;
    }
    matched_.insert(p->matmul_h);
    if (p->matmul_x != nullptr) matched_.insert(p->matmul_x);
    // x = GetItem(list, counter, element_shape).
    Node* get = p->get_item;
    if (get->op() != "TensorListGetItem" || !TypeAttrIs(*get, "element_dtype", DT_FLOAT) ||
        (NodeAttrOrNull(*get, "Tshape") != nullptr && !TypeAttrIs(*get, "Tshape", DT_INT32))) {
      return false;
    }
    matched_.insert(get);
    const Sym list_in = Resolve(get->input_edge(0));
    const Sym read = Resolve(get->input_edge(1));
    const Sym es = Resolve(get->input_edge(2));
    if (list_in.kind != Sym::kConst || read.kind != Sym::kVar || es.kind != Sym::kConst) {
      return false;
    }
    p->list_in = list_in.node;
    p->element_shape = es.node;
    // Each variable: h, c, the output list or a counter.
    if (p->h == p->c) return false;
    int read_var = read.var, write_var = -1;
    for (int i = 0; i < static_cast<int>(vars.size()); ++i) {
      const Sym next = Resolve(vars[i].next->input_edge(0));
      if (i == p->h) {
        if (!next.IsNode(p->cell, 1)) return false;
      } else if (i == p->c) {
        if (!next.IsNode(p->cell, 0)) return false;
      } else if (next.kind == Sym::kNode && next.node->op() == "TensorListSetItem") {
        Node* set = next.node;
        if (p->list >= 0 || next.output != 0 || !TypeAttrIs(*set, "element_dtype", DT_FLOAT) ||
            BoolAttr(*set, "resize_if_index_out_of_bounds")) {
          return false;
        }
        const Sym l = Resolve(set->input_edge(0));
        const Sym item = Resolve(set->input_edge(2));
        if (l.kind != Sym::kVar || l.var != i || !item.IsNode(p->cell, 1)) return false;
        const Sym index = Resolve(set->input_edge(1));
        if (index.kind == Sym::kVar) {
          write_var = index.var;
        } else {
          std::optional<int32_t> k = IntConst(set->input_edge(1));
          if (!k) return false;
          p->write_index = *k;
        }
        p->list = i;
        p->set_item = set;
        matched_.insert(set);
      } else if (next.kind == Sym::kNode && next.output == 0 &&
                 (next.node->op() == "AddV2" || next.node->op() == "Add") &&
                 TypeAttrIs(*next.node, "T", DT_INT32)) {
        bool ok = false;
        for (int k = 0; k < 2 && !ok; ++k) {
          const Sym self = Resolve(next.node->input_edge(k));
          std::optional<int32_t> one = IntConst(next.node->input_edge(1 - k));
          ok = self.kind == Sym::kVar && self.var == i && one && *one == 1;
        }
        if (!ok) return false;
        matched_.insert(next.node);
        p->counters.push_back(i);
      } else {
        return false;
      }
    }
    if (p->list < 0 || p->h < 0 || p->c < 0 || p->h == p->list || p->c == p->list) return false;
    auto position = [&](int var) {
      auto it = std::find(p->counters.begin(), p->counters.end(), var);
      return it == p->counters.end() ? -1 : static_cast<int>(it - p->counters.begin());
    };
    p->read_counter = position(read_var);
    if (p->read_counter < 0) return false;
    if (write_var >= 0) {
      p->write_counter = position(write_var);
      if (p->write_counter < 0) return false;
    }
    for (auto& [var, enter] : bounds) {
      const int k = position(var);
      if (k < 0) return false;
      p->bounds.emplace_back(k, enter);
    }
    // Nothing else computes in the frame.
    for (Node* n : p->frame.nodes) {
      const OpClass k = n->op_class();
      if (IsEnter(k) || IsMerge(k) || IsSwitch(k) || IsExit(k) || IsNextIteration(k) ||
          IsLoopCond(k) || n->op() == "Identity" || n->op() == "NoOp" || n->op() == "Const" ||
          matched_.contains(n)) {
        continue;
      }
      return false;
    }
    return true;
  }

  // Whether the input of `enter` is known to be a scalar.
  static bool ScalarInput(const Node& enter) { return Scalar(enter.input_edge(0), 0); }

  // Whether the tensor `e` reads is known to be a scalar: its inferred shape, or a reduction of a
  // scalar (whatever its axes: keras's step limit is Max over Range(Rank(x)) of a scalar).
  static bool Scalar(const Edge* e, int depth) {
    if (e == nullptr || e->IsControlEdge() || depth > 2) return false;
    const std::vector<PartialTensorShape>& shapes = e->src()->output_shapes();
    const int o = e->src_output();
    if (o < static_cast<int>(shapes.size()) && !shapes[o].unknown_rank() && shapes[o].rank() == 0) {
      return true;
    }
    static const auto* kReductions =
        new absl::flat_hash_set<std::string>{"Max", "Min", "Sum", "Prod", "Mean", "All", "Any"};
    return o == 0 && kReductions->contains(e->src()->op()) &&
           Scalar(e->src()->input_edge(0), depth + 1);
  }

  static bool ScalarsProven(const Plan& p) {
    for (int v : p.counters) {
      if (!ScalarInput(*p.frame.vars[v].enter)) return false;
    }
    return true;
  }

  // Whether `enter`'s input is a Const on the same device through Identity / Enter nodes (the
  // graph optimizer's _rill_constant_weights test).
  static bool ConstantWeights(const Node& enter) {
    const Edge* w = enter.input_edge(0);
    for (int hops = 0; w != nullptr && w->src_output() == 0 && hops < kMaxHops; ++hops) {
      const OpClass c = w->src()->op_class();
      if (IsConstant(c)) return w->src()->assigned_device_name() == enter.assigned_device_name();
      if (!IsIdentity(c) && !IsEnter(c)) return false;
      w = w->src()->input_edge(0);
    }
    return false;
  }

  absl::Status Rewrite(const Plan& p) {
    NodeDef def;
    const std::string base = absl::StrCat(p.cell->name(), "/sequence");
    std::string name = base;
    for (int i = 1; graph_->FindNode(name) != nullptr; ++i) name = absl::StrCat(base, "_", i);
    def.set_name(name);
    def.set_op("_RillLstmSequence");
    def.set_device(p.cell->requested_device());
    auto& attr = *def.mutable_attr();
    attr["T"].set_type(DT_FLOAT);
    attr["num_counters"].set_i(static_cast<int64_t>(p.counters.size()));
    attr["num_bounds"].set_i(static_cast<int64_t>(p.bounds.size()));
    AttrValue::ListValue& bc = *attr["bound_counters"].mutable_list();
    for (const auto& [k, enter] : p.bounds) bc.add_i(k);
    attr["read_counter"].set_i(p.read_counter);
    attr["write_counter"].set_i(p.write_counter);
    attr["write_index"].set_i(p.write_index);
    attr["project_input"].set_b(p.matmul_x != nullptr);
    attr["transpose_kernel"].set_b(p.matmul_x != nullptr && BoolAttr(*p.matmul_x, "transpose_b"));
    attr["transpose_recurrent_kernel"].set_b(BoolAttr(*p.matmul_h, "transpose_b"));
    attr["constant_kernel"].set_b(p.matmul_x != nullptr && ConstantWeights(*p.w));
    attr["constant_recurrent_kernel"].set_b(ConstantWeights(*p.u));
    attr["input_first"].set_b(p.input_first);
    attr["to_bool"].set_b(p.to_bool);
    const AttrValue* format = NodeAttrOrNull(*p.bias_add, "data_format");
    attr["bias_data_format"].set_s(format == nullptr ? "NHWC" : format->s());
    const AttrValue* order = NodeAttrOrNull(*p.cell, "gate_order");
    if (order != nullptr) attr["gate_order"] = *order;
    // The step's nodes its errors name (kernels/nn/lstm_sequence_op.cc), then the cell's.
    AttrValue::ListValue& errors = *attr[kErrorNodesAttr].mutable_list();
    for (const Node* n : {p.get_item, p.matmul_x, p.matmul_h, p.sum, p.bias_add, p.set_item,
                          p.frame.vars[p.counters[0]].sw}) {
      errors.add_s(n == nullptr ? "" : n->name());
    }
    const AttrValue* cell_errors = NodeAttrOrNull(*p.cell, kErrorNodesAttr);
    if (cell_errors != nullptr) {
      for (const std::string& name : cell_errors->list().s()) errors.add_s(name);
    }
    RILL_ASSIGN_OR_RETURN(Node * seq, graph_->AddNode(std::move(def)));
    seq->set_assigned_device_name(p.cell->assigned_device_name());
    int input = 0;
    auto feed = [&](const Node* enter) -> absl::Status {
      const Edge* e = enter->input_edge(0);
      return graph_->AddEdge(e->src(), e->src_output(), seq, input++).status();
    };
    for (int v : p.counters) RILL_RETURN_IF_ERROR(feed(p.frame.vars[v].enter));
    for (const auto& [k, enter] : p.bounds) RILL_RETURN_IF_ERROR(feed(enter));
    RILL_RETURN_IF_ERROR(feed(p.list_in));
    RILL_RETURN_IF_ERROR(feed(p.element_shape));
    RILL_RETURN_IF_ERROR(feed(p.frame.vars[p.list].enter));
    RILL_RETURN_IF_ERROR(feed(p.frame.vars[p.h].enter));
    RILL_RETURN_IF_ERROR(feed(p.frame.vars[p.c].enter));
    if (p.matmul_x != nullptr) {
      RILL_RETURN_IF_ERROR(feed(p.w));
    } else {
      // Unused by the kernel: U stands in for the absent W.
      RILL_RETURN_IF_ERROR(feed(p.u));
    }
    RILL_RETURN_IF_ERROR(feed(p.u));
    RILL_RETURN_IF_ERROR(feed(p.b));
    for (Node* w : p.frame.waits) graph_->AddControlEdge(w, seq);
    // The Exits' readers.
    const int nc = static_cast<int>(p.counters.size());
    auto move = [&](int var, int output) -> absl::Status {
      Node* exit = p.frame.vars[var].exit;
      return exit == nullptr ? absl::OkStatus() : MoveOutEdges(graph_, exit, seq, output);
    };
    for (int k = 0; k < nc; ++k) RILL_RETURN_IF_ERROR(move(p.counters[k], k));
    RILL_RETURN_IF_ERROR(move(p.list, nc));
    RILL_RETURN_IF_ERROR(move(p.h, nc + 1));
    RILL_RETURN_IF_ERROR(move(p.c, nc + 2));
    // Exits of constant Switches: control readers only.
    for (Node* n : p.frame.nodes) {
      if (IsExit(n->op_class())) RILL_RETURN_IF_ERROR(MoveOutEdges(graph_, n, seq, 0));
    }
    graph_->RemoveNodes(p.frame.nodes);
    return absl::OkStatus();
  }

  Graph* graph_;
  const absl::flat_hash_map<const Node*, int>* var_of_merge_ = nullptr;  // the frame's
  absl::flat_hash_set<const Node*> matched_;
};

}  // namespace

absl::StatusOr<int> FuseLstmSequences(Graph* graph) { return Fuser(graph).Run(); }

}  // namespace rill
