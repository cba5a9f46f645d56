#include "graph/recurrent_sequence_fusion.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "graph/loop_frame.h"
#include "graph/lstm_sequence_fusion.h"
#include "graph/op_classes.h"
#include "graph/pass_edits.h"
#include "graph/pass_queries.h"
#include "graph/recurrent_step_ops.h"

namespace rill {
namespace {

constexpr size_t kMaxFrameNodes = 400;
constexpr int kMaxHops = 16;

// Where a node runs: nowhere in particular (loop constants only), in the condition (every test),
// or in the body (after a true test). Ordered: a node runs where its latest input does.
enum class Gate { kNone = 0, kCond = 1, kBody = 2 };

struct Plan {
  LoopFrame frame;
  std::vector<Node*> consts;  // constant Enters, by input index after the variables
  std::vector<NodeDef> step;  // condition nodes first
  int num_cond = 0;
  std::string cond;
  std::vector<std::string> next;
};

// Whether MarkConstantWeights (session/graph_optimizer.cc) marks `n`: input 1 a Const on the
// node's device through Identity / Enter nodes.
bool ConstantWeights(const Node& n) {
  static const auto* kOps = new absl::flat_hash_set<std::string>{
      "MatMul",        "_FusedMatMul",          "Conv2D",
      "_FusedConv2D",  "DepthwiseConv2dNative", "_FusedDepthwiseConv2dNative",
      "BatchMatMulV2", "BatchMatMulV3"};
  if (!kOps->contains(n.op())) return false;
  const Edge* w = n.input_edge(1);
  for (int hops = 0; w != nullptr && w->src_output() == 0 && hops < kMaxHops; ++hops) {
    const OpClass c = w->src()->op_class();
    if (!IsIdentity(c) && !IsEnter(c)) break;
    w = w->src()->input_edge(0);
  }
  if (w == nullptr || w->src_output() != 0) return false;
  return IsConstant(w->src()->op_class()) &&
         w->src()->assigned_device_name() == n.assigned_device_name();
}

class Fuser {
 public:
  explicit Fuser(Graph* graph) : graph_(graph) {}

  absl::StatusOr<int> Run() {
    // Rounds: a loop reading another one's outputs (stacked layers) has inputs that may be dead
    // until that one is a plain node.
    int fused = 0;
    for (;;) {
      // LSTM frames that pass takes run with less plumbing as its _RillLstmSequence.
      RILL_ASSIGN_OR_RETURN(const int lstm, FuseLstmSequences(graph_));
      fused += lstm;
      std::vector<Node*> conds;
      for (Node* n : graph_->op_nodes()) {
        if (IsLoopCond(n->op_class())) conds.push_back(n);
      }
      if (conds.empty()) break;
      absl::StatusOr<std::vector<Node*>> order = TopologicalOrder(*graph_);
      if (!order.ok()) break;  // a cycle: the session reports it later
      position_.assign(graph_->num_node_ids(), 0);
      for (size_t i = 0; i < order->size(); ++i) position_[(*order)[i]->id()] = i;
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
      for (const Plan& p : plans) {
        const absl::Status s = Rewrite(p);
        if (!s.ok()) {
          return absl::InternalError(absl::StrCat("FuseRecurrentSequences: loop '",
                                                  p.frame.loop_cond->name(), "': ", s.message()));
        }
      }
      fused += static_cast<int>(plans.size());
    }
    if (fused > 0) graph_->FixupSourceAndSinkEdges();
    return fused;
  }

 private:
  // Where the value `e` carries is produced, or nullopt when a step may not read it.
  std::optional<Gate> GateOf(const Edge* e, const LoopFrame& f) const {
    Node* src = e->src();
    const OpClass k = src->op_class();
    if (IsMerge(k)) {
      if (!f.var_of_merge.contains(src) || e->src_output() != 0) return std::nullopt;
      return Gate::kCond;
    }
    if (IsSwitch(k)) {
      if (e->src_output() != 1) return std::nullopt;
      return Gate::kBody;
    }
    if (IsConstantEnter(*src)) return Gate::kNone;
    auto it = gate_.find(src);
    if (it == gate_.end()) return std::nullopt;  // not a step node
    return it->second;
  }

  // The reference of the value `e` carries (GateOf accepted it); nullopt past kMaxHops Identities.
  std::optional<std::string> RefOf(const Edge* e, const LoopFrame& f) {
    for (int hops = 0; hops < kMaxHops && e->src()->op() == "Identity"; ++hops) {
      e = e->src()->input_edge(0);
    }
    Node* src = e->src();
    const OpClass k = src->op_class();
    if (IsSwitch(k)) src = src->input_node(0);
    if (IsMerge(src->op_class()) || IsSwitch(k)) {
      auto it = f.var_of_merge.find(src);
      if (it != f.var_of_merge.end()) return absl::StrCat("v:", it->second);
    }
    if (IsConstantEnter(*src)) {
      auto it = const_index_.find(src);
      if (it == const_index_.end()) {
        it = const_index_.emplace(src, static_cast<int>(consts_.size())).first;
        consts_.push_back(src);
      }
      return absl::StrCat("c:", it->second);
    }
    auto it = index_.find(src);
    if (it == index_.end()) return std::nullopt;
    return absl::StrCat("s:", it->second, ":", e->src_output());
  }

  bool Match(Plan* p) {
    gate_.clear();
    index_.clear();
    const_index_.clear();
    consts_.clear();
    const LoopFrame& f = p->frame;
    std::vector<Node*> work;
    bool any_matmul = false;
    for (Node* n : f.nodes) {
      const OpClass k = n->op_class();
      if (IsEnter(k) || IsMerge(k) || IsSwitch(k) || IsExit(k) || IsNextIteration(k) ||
          IsLoopCond(k)) {
        continue;
      }
      if (n->op() != "Identity" && n->op() != "NoOp" && !IsRecurrentStepOp(n->op())) return false;
      any_matmul |= n->op() == "MatMul";
      work.push_back(n);
    }
    if (!any_matmul) return false;
    std::sort(work.begin(), work.end(), [&](const Node* a, const Node* b) {
      return position_[a->id()] < position_[b->id()];
    });
    // Where each node runs (its inputs come first in the order).
    std::vector<Node*> cond_nodes, body_nodes;
    for (Node* n : work) {
      Gate gate = Gate::kNone;
      for (const Edge* e : n->in_edges()) {
        if (e->src()->IsSource()) continue;
        std::optional<Gate> g;
        if (e->IsControlEdge()) {
          // A Switch or Merge runs at every test (a control edge from a Switch that ran is live
          // whichever output it took).
          const OpClass k = e->src()->op_class();
          g = IsSwitch(k) || IsMerge(k) ? std::optional<Gate>(Gate::kCond) : GateOf(e, f);
        } else {
          g = GateOf(e, f);
          if (n->op() == "NoOp") return false;
        }
        if (!g) return false;
        gate = std::max(gate, *g);
      }
      gate_[n] = gate;
      if (n->op() == "Identity" || n->op() == "NoOp") continue;
      if (gate == Gate::kNone) return false;
      (gate == Gate::kCond ? cond_nodes : body_nodes).push_back(n);
    }
    p->num_cond = static_cast<int>(cond_nodes.size());
    std::vector<Node*> steps = cond_nodes;
    steps.insert(steps.end(), body_nodes.begin(), body_nodes.end());
    for (size_t j = 0; j < steps.size(); ++j) index_[steps[j]] = static_cast<int>(j);
    for (Node* n : steps) {
      NodeDef def;
      def.set_name(n->name());
      def.set_op(n->op());
      *def.mutable_attr() = n->def().attr();
      if (ConstantWeights(*n)) {
        AttrValue yes;
        yes.set_b(true);
        (*def.mutable_attr())["_rill_constant_weights"] = yes;
      }
      for (int i = 0; i < n->num_inputs(); ++i) {
        const Edge* e = n->input_edge(i);
        std::optional<std::string> ref = e == nullptr ? std::nullopt : RefOf(e, f);
        if (!ref) return false;
        def.add_input(*ref);
      }
      p->step.push_back(std::move(def));
    }
    // The condition: a condition value (or a variable); each next value: a body value (or a
    // variable through its Switch).
    const Edge* pred = f.loop_cond->input_edge(0);
    if (pred == nullptr) return false;
    std::optional<Gate> pg = GateOf(pred, f);
    if (!pg || *pg != Gate::kCond) return false;
    std::optional<std::string> cond = RefOf(pred, f);
    if (!cond) return false;
    p->cond = *cond;
    for (const LoopVar& v : f.vars) {
      const Edge* e = v.next->input_edge(0);
      std::optional<Gate> g = GateOf(e, f);
      std::optional<std::string> ref = g == Gate::kBody ? RefOf(e, f) : std::nullopt;
      if (!ref) return false;
      p->next.push_back(*ref);
    }
    p->consts = consts_;
    return true;
  }

  absl::Status Rewrite(const Plan& p) {
    const LoopFrame& f = p.frame;
    NodeDef def;
    const std::string base = absl::StrCat(f.loop_cond->name(), "/sequence");
    std::string name = base;
    for (int i = 1; graph_->FindNode(name) != nullptr; ++i) name = absl::StrCat(base, "_", i);
    def.set_name(name);
    def.set_op("_RillRecurrentSequence");
    def.set_device(f.loop_cond->requested_device());
    auto& attr = *def.mutable_attr();
    auto type_of = [](const Node& enter) {
      const AttrValue* t = NodeAttrOrNull(enter, "T");
      return t == nullptr ? DT_INVALID : t->type();
    };
    for (const LoopVar& v : f.vars) attr["Tvars"].mutable_list()->add_type(type_of(*v.enter));
    attr["Tconsts"].mutable_list();
    for (const Node* c : p.consts) attr["Tconsts"].mutable_list()->add_type(type_of(*c));
    for (const NodeDef& n : p.step) attr["step"].mutable_list()->add_s(n.SerializeAsString());
    attr["num_cond"].set_i(p.num_cond);
    attr["cond"].set_s(p.cond);
    attr["cond_switch"].set_s(f.vars[0].sw->name());
    attr["next"].mutable_list();
    for (const std::string& r : p.next) attr["next"].mutable_list()->add_s(r);
    RILL_ASSIGN_OR_RETURN(Node * seq, graph_->AddNode(std::move(def)));
    seq->set_assigned_device_name(f.loop_cond->assigned_device_name());
    int input = 0;
    auto feed = [&](const Node* enter) -> absl::Status {
      const Edge* e = enter->input_edge(0);
      return graph_->AddEdge(e->src(), e->src_output(), seq, input++).status();
    };
    for (const LoopVar& v : f.vars) RILL_RETURN_IF_ERROR(feed(v.enter));
    for (const Node* c : p.consts) RILL_RETURN_IF_ERROR(feed(c));
    for (Node* w : f.waits) graph_->AddControlEdge(w, seq);
    for (size_t k = 0; k < f.vars.size(); ++k) {
      Node* exit = f.vars[k].exit;
      if (exit != nullptr) {
        RILL_RETURN_IF_ERROR(MoveOutEdges(graph_, exit, seq, static_cast<int>(k)));
      }
    }
    // Exits of constant Switches: control readers only.
    for (Node* n : f.nodes) {
      if (IsExit(n->op_class())) RILL_RETURN_IF_ERROR(MoveOutEdges(graph_, n, seq, 0));
    }
    graph_->RemoveNodes(f.nodes);
    return absl::OkStatus();
  }

  Graph* graph_;
  std::vector<size_t> position_;                 // by node id: topological position
  absl::flat_hash_map<const Node*, Gate> gate_;  // frame nodes seen, by where they run
  absl::flat_hash_map<const Node*, int> index_;  // step nodes: their index in the step
  absl::flat_hash_map<const Node*, int> const_index_;
  std::vector<Node*> consts_;
};

}  // namespace

absl::StatusOr<int> FuseRecurrentSequences(Graph* graph) { return Fuser(graph).Run(); }

}  // namespace rill
