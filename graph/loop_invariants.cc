#include "graph/loop_invariants.h"

#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "graph/op_classes.h"
#include "graph/pass_edits.h"
#include "graph/pass_queries.h"

namespace rill {
namespace {

// Hops of Identity-class nodes followed back from a NextIteration to its Switch.
constexpr int kMaxPassThroughHops = 64;

bool IsConstantEnter(const Node& n) {
  const AttrValue* a = NodeAttrOrNull(n, "is_constant");
  return a != nullptr && a->b();
}

// One loop variable carried unchanged.
struct Invariant {
  Node* enter;
  Node* merge;
  Node* next;
  std::vector<Node*> chain;  // Identity nodes from the NextIteration back to the Switch
};

class Rewriter {
 public:
  explicit Rewriter(Graph* graph) : graph_(graph) {}

  absl::StatusOr<int> Run() {
    absl::flat_hash_map<std::string, std::vector<Node*>> frames;
    std::vector<std::string> frame_order;
    for (Node* n : graph_->op_nodes()) {
      if (!IsEnter(n->op_class())) continue;
      const AttrValue* f = NodeAttrOrNull(*n, "frame_name");
      if (f == nullptr) return 0;  // import refuses such graphs; leave them alone
      auto [it, added] = frames.try_emplace(f->s());
      if (added) frame_order.push_back(f->s());
      it->second.push_back(n);
    }
    if (frames.empty()) return 0;
    absl::StatusOr<std::vector<Node*>> order = TopologicalOrder(*graph_);
    if (!order.ok()) return 0;  // a cycle: the session reports it later
    never_dead_ = NeverDeadNodes(*graph_, *order);
    stamp_.assign(graph_->num_node_ids(), -1);

    int rewritten = 0;
    std::vector<Node*> removed;
    for (int f = 0; f < static_cast<int>(frame_order.size()); ++f) {
      std::vector<Invariant> found;
      if (!Analyze(f, frames[frame_order[f]], &found)) continue;
      for (const Invariant& v : found) {
        const absl::Status s = Rewrite(v, &removed);
        if (!s.ok()) {
          return absl::InternalError(absl::StrCat("MakeLoopInvariantsConstant: Enter '",
                                                  v.enter->name(), "': ", s.message()));
        }
        ++rewritten;
      }
    }
    if (rewritten > 0) {
      graph_->RemoveNodes(removed);
      graph_->FixupSourceAndSinkEdges();
    }
    return rewritten;
  }

 private:
  // Checks frame `f` (see the header) and collects its variables carried unchanged; false when
  // the frame is not to be rewritten.
  bool Analyze(int f, const std::vector<Node*>& enters, std::vector<Invariant>* found) {
    for (Node* e : enters) {
      if (e->op() != "Enter") return false;
      for (const Edge* in : e->in_edges()) {
        if (!never_dead_[in->src()->id()]) return false;
      }
      stamp_[e->id()] = f;
    }
    // The frame's nodes, forward from its Enters, not past its Exits.
    std::vector<Node*> stack(enters.begin(), enters.end());
    std::vector<Node*> merges, switches;
    Node* loop_cond = nullptr;
    while (!stack.empty()) {
      Node* n = stack.back();
      stack.pop_back();
      const OpClass c = n->op_class();
      if (IsExit(c)) {
        if (n->op() != "Exit") return false;
        continue;
      }
      for (const Edge* out : n->out_edges()) {
        Node* d = out->dst();
        if (!d->IsOp() || stamp_[d->id()] == f) continue;
        const OpClass dc = d->op_class();
        if (IsEnter(dc) || IsRetval(dc) || IsArg(dc) || IsTransfer(dc) || IsControlTrigger(dc)) {
          return false;  // a nested loop, or a node this pass does not reason about
        }
        if (IsSwitch(dc)) {
          if (d->op() != "Switch") return false;
          switches.push_back(d);
        } else if (IsMerge(dc)) {
          if (d->op() != "Merge") return false;
          merges.push_back(d);
        } else if (IsNextIteration(dc)) {
          if (d->op() != "NextIteration") return false;
        } else if (IsLoopCond(dc)) {
          if (loop_cond != nullptr) return false;
          loop_cond = d;
        }
        stamp_[d->id()] = f;
        stack.push_back(d);
      }
    }
    if (loop_cond == nullptr) return false;
    for (Node* s : switches) {
      const Edge* pred = s->input_edge(1);
      if (pred == nullptr || pred->src() != loop_cond) return false;
    }
    std::vector<Invariant> candidates;
    for (Node* m : merges) {
      if (m->num_inputs() != 2) return false;
      Node* in0 = m->input_node(0);
      Node* in1 = m->input_node(1);
      if (in0 == nullptr || in1 == nullptr) return false;
      Node* enter = IsEnter(in0->op_class()) ? in0 : in1;
      Node* next = enter == in0 ? in1 : in0;
      if (!IsEnter(enter->op_class()) || stamp_[enter->id()] != f ||
          !IsNextIteration(next->op_class())) {
        return false;  // not a loop variable's Merge: a conditional inside the loop
      }
      Invariant v;
      if (CarriedUnchanged(m, enter, next, loop_cond, &v)) candidates.push_back(std::move(v));
    }
    // A loop of invariants alone keeps its structure (its NextIterations drive the iterations).
    if (candidates.size() >= merges.size()) return false;
    *found = std::move(candidates);
    return true;
  }

  bool CarriedUnchanged(Node* m, Node* enter, Node* next, Node* loop_cond, Invariant* v) {
    if (IsConstantEnter(*enter)) return false;
    const std::string& device = m->assigned_device_name();
    if (enter->assigned_device_name() != device || next->assigned_device_name() != device) {
      return false;
    }
    // The Enter feeds the Merge alone (other readers would see x in iteration 0 only).
    for (const Edge* e : enter->out_edges()) {
      if (e->dst() != m && !e->dst()->IsSink()) return false;
    }
    for (const Edge* e : m->in_edges()) {
      if (e->IsControlEdge() && e->src()->IsOp()) return false;
    }
    Node* sw = nullptr;
    for (const Edge* e : m->out_edges()) {
      if (e->src_output() == 1) return false;
      if (e->src_output() == 0 && IsSwitch(e->dst()->op_class()) && e->dst_input() == 0) {
        if (sw != nullptr) return false;
        sw = e->dst();
      }
    }
    if (sw == nullptr || sw->input_node(1) != loop_cond || sw->assigned_device_name() != device) {
      return false;
    }
    const Edge* w = next->input_edge(0);
    std::vector<Node*> chain;
    for (int hops = 0; w != nullptr && w->src() != sw; ++hops) {
      Node* src = w->src();
      if (hops == kMaxPassThroughHops || w->src_output() != 0 || !IsIdentity(src->op_class())) {
        return false;
      }
      chain.push_back(src);
      w = src->input_edge(0);
    }
    if (w == nullptr || w->src_output() != 1) return false;
    *v = Invariant{enter, m, next, std::move(chain)};
    return true;
  }

  absl::Status Rewrite(const Invariant& v, std::vector<Node*>* removed) {
    AttrValue yes;
    yes.set_b(true);
    v.enter->AddAttr("is_constant", yes);
    // The Merge's readers read the constant Enter.
    RILL_RETURN_IF_ERROR(MoveOutEdges(graph_, v.merge, v.enter, 0));
    // The Merge, the NextIteration and the pass-through nodes read by nothing else go.
    absl::flat_hash_set<const Node*> gone = {v.merge, v.next};
    removed->push_back(v.merge);
    removed->push_back(v.next);
    for (Node* c : v.chain) {
      bool only_removed = true;
      for (const Edge* e : c->out_edges()) {
        if (!e->dst()->IsSink() && !gone.contains(e->dst())) {
          only_removed = false;
          break;
        }
      }
      if (!only_removed) break;
      gone.insert(c);
      removed->push_back(c);
    }
    return absl::OkStatus();
  }

  Graph* graph_;
  std::vector<char> never_dead_;  // by node id
  std::vector<int> stamp_;        // by node id: the frame index whose walk reached it
};

}  // namespace

absl::StatusOr<int> MakeLoopInvariantsConstant(Graph* graph) { return Rewriter(graph).Run(); }

}  // namespace rill
