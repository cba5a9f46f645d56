#include "graph/loop_body_constants.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "graph/op_classes.h"
#include "graph/pass_queries.h"

namespace rill {
namespace {

constexpr int kRootFrame = 0;
constexpr int kUnknownFrame = -1;

// Which frame each node runs in (by node id), as the executor assigns them: an Enter's frame is
// its frame_name's child of its input's frame, an Exit's the parent of its input's, any other
// node's that of its inputs (the root for a node without op inputs).
class Frames {
 public:
  // False when the frames are not consistent (see the header); then nothing is rewritten.
  bool Build(Graph& graph, const std::vector<Node*>& order) {
    frame_of_.assign(graph.num_node_ids(), kUnknownFrame);
    parent_.push_back(kUnknownFrame);
    names_.push_back("");
    first_enter_.push_back(nullptr);
    for (Node* n : order) {
      int in = kUnknownFrame;
      for (const Edge* e : n->in_edges()) {
        if (!e->src()->IsOp()) continue;
        const int f = frame_of_[e->src()->id()];
        if (f == kUnknownFrame) {
          if (IsNextIteration(e->src()->op_class())) continue;  // a back edge into a Merge
          return false;
        }
        if (in != kUnknownFrame && in != f) return false;
        in = f;
      }
      if (in == kUnknownFrame) in = kRootFrame;
      const OpClass c = n->op_class();
      if (IsEnter(c)) {
        const AttrValue* name = NodeAttrOrNull(*n, "frame_name");
        if (name == nullptr) return false;
        auto [it, added] = child_.try_emplace(std::make_pair(in, name->s()), parent_.size());
        if (added) {
          parent_.push_back(in);
          names_.push_back(name->s());
          first_enter_.push_back(n);
        }
        frame_of_[n->id()] = it->second;
      } else if (IsExit(c)) {
        if (in == kRootFrame) return false;
        frame_of_[n->id()] = parent_[in];
      } else {
        frame_of_[n->id()] = in;
      }
    }
    return true;
  }

  int frame_of(const Node& n) const { return frame_of_[n.id()]; }
  int parent(int f) const { return parent_[f]; }
  const std::string& name(int f) const { return names_[f]; }
  const Node* first_enter(int f) const { return first_enter_[f]; }

 private:
  std::vector<int> frame_of_;  // by node id
  // By frame index; index 0 is the root.
  std::vector<int> parent_;
  std::vector<std::string> names_;
  std::vector<const Node*> first_enter_;
  absl::flat_hash_map<std::pair<int, std::string>, int> child_;
};

// The frame of `n`'s control inputs when it is a Const to rewrite (see the header), else
// kUnknownFrame.
int FrameToHoistFrom(const Node& n, const Frames& frames) {
  if (!IsConstant(n.op_class()) || n.op() != "Const" || n.num_outputs() != 1) return kUnknownFrame;
  // Frames::Build checked that every input is in the Const's frame.
  bool controlled = false;
  for (const Edge* e : n.in_edges()) {
    if (!e->src()->IsOp()) continue;
    if (!e->IsControlEdge()) return kUnknownFrame;
    controlled = true;
  }
  const int frame = frames.frame_of(n);
  if (!controlled || frame == kRootFrame || frames.parent(frame) != kRootFrame) {
    return kUnknownFrame;
  }
  const std::string& device = n.assigned_device_name();
  bool read = false;
  for (const Edge* e : n.out_edges()) {
    const Node& dst = *e->dst();
    if (dst.IsSink()) continue;
    const OpClass c = dst.op_class();
    if (e->IsControlEdge() || IsControlFlow(c) || IsRetval(c) || IsTransfer(c) ||
        dst.assigned_device_name() != device) {
      return kUnknownFrame;
    }
    read = true;
  }
  return read ? frame : kUnknownFrame;
}

bool ReadsFrom(const Node& dst, const Node* src) {
  for (const Edge* e : dst.in_edges()) {
    if (e->src() == src) return true;
  }
  return false;
}

absl::Status Hoist(Graph* graph, Node* n, int frame, const Frames& frames) {
  NodeDef def;
  std::string name = absl::StrCat(n->name(), "/loop_constant");
  for (int i = 1; graph->FindNode(name) != nullptr; ++i) {
    name = absl::StrCat(n->name(), "/loop_constant_", i);
  }
  def.set_name(name);
  def.set_op("Enter");
  def.set_device(n->requested_device());
  auto& attr = *def.mutable_attr();
  attr["T"].set_type(n->output_type(0));
  attr["frame_name"].set_s(frames.name(frame));
  attr["is_constant"].set_b(true);
  const AttrValue* parallel = NodeAttrOrNull(*frames.first_enter(frame), "parallel_iterations");
  attr["parallel_iterations"].set_i(parallel != nullptr ? parallel->i() : 10);
  absl::StatusOr<Node*> enter = graph->AddNode(std::move(def));
  if (!enter.ok()) return enter.status();
  (*enter)->set_assigned_device_name(n->assigned_device_name());
  if (!n->output_shapes().empty()) (*enter)->set_output_shapes(n->output_shapes());

  std::vector<Node*> controls;
  std::vector<const Edge*> ins(n->in_edges().begin(), n->in_edges().end());
  for (const Edge* e : ins) {
    if (e->src()->IsOp()) controls.push_back(e->src());
    graph->RemoveEdge(e);
  }
  std::vector<const Edge*> outs(n->out_edges().begin(), n->out_edges().end());
  for (const Edge* e : outs) {
    Node* dst = e->dst();
    const int input = e->dst_input();
    graph->RemoveEdge(e);
    if (dst->IsSink()) continue;
    absl::StatusOr<const Edge*> added = graph->AddEdge(*enter, 0, dst, input);
    if (!added.ok()) return added.status();
    for (Node* c : controls) {
      if (!ReadsFrom(*dst, c)) graph->AddControlEdge(c, dst);
    }
  }
  absl::StatusOr<const Edge*> in = graph->AddEdge(n, 0, *enter, 0);
  return in.ok() ? absl::OkStatus() : in.status();
}

}  // namespace

absl::StatusOr<int> HoistLoopBodyConstants(Graph* graph) {
  bool has_enter = false;
  for (const Node* n : graph->op_nodes()) {
    if (IsEnter(n->op_class())) {
      has_enter = true;
      break;
    }
  }
  if (!has_enter) return 0;
  absl::StatusOr<std::vector<Node*>> order = TopologicalOrder(*graph);
  if (!order.ok()) return 0;  // a cycle: the session reports it later
  Frames frames;
  if (!frames.Build(*graph, *order)) return 0;
  std::vector<std::pair<Node*, int>> found;
  for (Node* n : *order) {
    const int frame = FrameToHoistFrom(*n, frames);
    if (frame != kUnknownFrame) found.emplace_back(n, frame);
  }
  for (auto& [n, frame] : found) {
    const absl::Status s = Hoist(graph, n, frame, frames);
    if (!s.ok()) {
      return absl::InternalError(
          absl::StrCat("HoistLoopBodyConstants: Const '", n->name(), "': ", s.message()));
    }
  }
  if (!found.empty()) graph->FixupSourceAndSinkEdges();
  return static_cast<int>(found.size());
}

}  // namespace rill
