#include "graph/loop_frame.h"

#include <algorithm>
#include <deque>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "graph/op_classes.h"
#include "graph/pass_queries.h"

namespace rill {
namespace {

std::string FrameName(const Node& enter) {
  const AttrValue* a = NodeAttrOrNull(enter, "frame_name");
  return a == nullptr ? "" : a->s();
}

// The frame's nodes: everything reachable from its Enters, Exits included and not passed. False
// for a nested frame or one larger than `max_nodes`.
bool Collect(const std::vector<Node*>& enters, size_t max_nodes, std::vector<Node*>* frame,
             absl::flat_hash_set<const Node*>* in_frame) {
  std::deque<Node*> queue(enters.begin(), enters.end());
  for (Node* e : enters) in_frame->insert(e);
  while (!queue.empty()) {
    Node* n = queue.front();
    queue.pop_front();
    frame->push_back(n);
    if (frame->size() > max_nodes) return false;
    if (IsExit(n->op_class())) continue;
    for (const Edge* e : n->out_edges()) {
      Node* d = e->dst();
      if (d->IsSink() || in_frame->contains(d)) continue;
      if (IsEnter(d->op_class())) return false;  // a nested frame
      in_frame->insert(d);
      queue.push_back(d);
    }
  }
  return true;
}

}  // namespace

bool IsConstantEnter(const Node& enter) {
  if (!IsEnter(enter.op_class())) return false;
  const AttrValue* a = NodeAttrOrNull(enter, "is_constant");
  return a != nullptr && a->b();
}

EntersByFrame CollectEnters(Graph& graph) {
  EntersByFrame out;
  for (Node* n : graph.op_nodes()) {
    if (IsEnter(n->op_class())) out[FrameName(*n)].push_back(n);
  }
  return out;
}

std::optional<LoopFrame> MatchLoopFrame(Node* cond, const EntersByFrame& enters,
                                        const std::vector<char>& never_dead, size_t max_nodes) {
  if (!IsLoopCond(cond->op_class()) || !AssignedToCpu(*cond)) return std::nullopt;
  const std::string& device = cond->assigned_device_name();
  // The frame: the Enters of the frame of the Merge a Switch on `cond` reads.
  std::string frame_name;
  for (const Edge* e : cond->out_edges()) {
    if (e->IsControlEdge() || !IsSwitch(e->dst()->op_class())) continue;
    const Node* in = e->dst()->input_node(0);
    if (in != nullptr && IsMerge(in->op_class())) {
      for (const Edge* m : in->in_edges()) {
        if (!m->IsControlEdge() && IsEnter(m->src()->op_class())) {
          frame_name = FrameName(*m->src());
        }
      }
    }
    if (!frame_name.empty()) break;
  }
  auto fe = enters.find(frame_name);
  if (frame_name.empty() || fe == enters.end()) return std::nullopt;
  LoopFrame f;
  f.loop_cond = cond;
  absl::flat_hash_set<const Node*> in_frame;
  if (!Collect(fe->second, max_nodes, &f.nodes, &in_frame)) return std::nullopt;
  int loop_conds = 0;
  for (Node* n : f.nodes) {
    if (n->assigned_device_name() != device) return std::nullopt;
    const OpClass k = n->op_class();
    for (const Edge* e : n->in_edges()) {
      Node* s = e->src();
      if (s->IsSource() || in_frame.contains(s)) continue;
      if (!IsEnter(k) || !never_dead[s->id()]) return std::nullopt;
      if (e->IsControlEdge() && std::find(f.waits.begin(), f.waits.end(), s) == f.waits.end()) {
        f.waits.push_back(s);
      }
    }
    if (!IsExit(k)) {
      for (const Edge* e : n->out_edges()) {
        if (!e->dst()->IsSink() && !in_frame.contains(e->dst())) return std::nullopt;
      }
    }
    if (IsLoopCond(k)) ++loop_conds;
    if (IsEnter(k) && (n->op() != "Enter" || n->input_edge(0) == nullptr)) return std::nullopt;
    if (!IsMerge(k)) continue;
    LoopVar v;
    v.merge = n;
    if (n->op() != "Merge" || n->num_inputs() != 2) return std::nullopt;
    for (int i = 0; i < 2; ++i) {
      Node* in = n->input_node(i);
      if (in == nullptr) return std::nullopt;
      if (IsEnter(in->op_class()) && !IsConstantEnter(*in)) {
        v.enter = in;
      } else if (IsNextIteration(in->op_class())) {
        v.next = in;
      }
    }
    if (v.enter == nullptr || v.next == nullptr || v.next->input_edge(0) == nullptr) {
      return std::nullopt;
    }
    for (const Edge* e : DataOutEdges(*n)) {
      if (e->src_output() != 0) return std::nullopt;
      if (!IsSwitch(e->dst()->op_class())) continue;
      if (v.sw != nullptr) return std::nullopt;
      v.sw = e->dst();
    }
    if (v.sw == nullptr) return std::nullopt;
    f.var_of_merge[n] = static_cast<int>(f.vars.size());
    f.vars.push_back(v);
  }
  if (loop_conds != 1) return std::nullopt;
  for (Node* n : f.nodes) {
    const OpClass k = n->op_class();
    if (IsSwitch(k)) {
      const Edge* pred = n->input_edge(1);
      const Node* in = n->input_node(0);
      if (n->op() != "Switch" || pred == nullptr || pred->src() != cond || in == nullptr) {
        return std::nullopt;
      }
      const bool constant = IsConstantEnter(*in);
      if (!constant && !f.var_of_merge.contains(in)) return std::nullopt;
      for (const Edge* e : n->out_edges()) {
        if (e->src_output() != 0 || e->dst()->IsSink()) continue;
        Node* exit = e->dst();
        if (!IsExit(exit->op_class()) || exit->op() != "Exit") return std::nullopt;
        if (constant) {
          if (!DataOutEdges(*exit).empty()) return std::nullopt;
          continue;
        }
        LoopVar& v = f.vars[f.var_of_merge.at(in)];
        if (v.exit != nullptr) return std::nullopt;
        v.exit = exit;
      }
    } else if (IsExit(k)) {
      const Node* in = n->input_node(0);
      if (in == nullptr || !IsSwitch(in->op_class())) return std::nullopt;
    } else if ((IsEnter(k) && !IsConstantEnter(*n)) || IsNextIteration(k)) {
      for (const Edge* e : DataOutEdges(*n)) {
        if (!f.var_of_merge.contains(e->dst())) return std::nullopt;
      }
    }
  }
  return f;
}

}  // namespace rill
