#include "session/loop_placement.h"

#include <deque>
#include <map>
#include <set>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "core/device.h"
#include "core/device_name.h"
#include "core/types.h"
#include "graph/op_classes.h"
#include "ops/attr_value_util.h"

namespace rill {
namespace {

bool IsEnter(const Node& n) { return n.op() == "Enter" || n.op() == "RefEnter"; }
bool IsExit(const Node& n) { return n.op() == "Exit" || n.op() == "RefExit"; }

struct Frames {
  std::vector<int> parent = {0};  // by frame id; 0 is the root frame
  std::vector<std::string> name = {""};
  // By node id, -1 where none: the frame each node runs in (-1: not reached from a root), and
  // the frame each Enter node enters (-1 for other nodes).
  std::vector<int> node_frame;
  std::vector<int> enter_child;
  int Outermost(int frame) const {
    while (frame != 0 && parent[frame] != 0) frame = parent[frame];
    return frame;
  }
};

// TensorFlow's frame walk (as the executor's BuildFrames): from the roots along data and control
// edges, an Enter's consumers run in its child frame and an Exit's in its frame's parent.
absl::StatusOr<Frames> FindFrames(const Graph& graph) {
  Frames f;
  f.node_frame.assign(graph.num_node_ids(), -1);
  f.enter_child.assign(graph.num_node_ids(), -1);
  std::map<std::pair<int, std::string>, int> by_name;
  std::deque<const Node*> queue;
  for (const Node* n : graph.nodes()) {
    if (n->in_edges().empty()) {
      f.node_frame[n->id()] = 0;
      queue.push_back(n);
    }
  }
  while (!queue.empty()) {
    const Node* n = queue.front();
    queue.pop_front();
    const int frame = f.node_frame[n->id()];
    int out_frame = frame;
    if (IsEnter(*n)) {
      std::string name;
      absl::Status s = GetNodeAttr(n->def(), "frame_name", &name);
      if (!s.ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat("Enter node ", n->name(), " has no frame_name attr: ", s.message()));
      }
      auto [it, added] = by_name.emplace(std::make_pair(frame, name), 0);
      if (added) {
        it->second = static_cast<int>(f.parent.size());
        f.parent.push_back(frame);
        f.name.push_back(name);
      }
      out_frame = it->second;
      f.enter_child[n->id()] = out_frame;
    } else if (IsExit(*n) && frame != 0) {
      out_frame = f.parent[frame];
    }
    for (const Edge* e : n->out_edges()) {
      if (f.node_frame[e->dst()->id()] < 0) {
        f.node_frame[e->dst()->id()] = out_frame;
        queue.push_back(e->dst());
      }
    }
  }
  return f;
}

// "GPU" of "/job:localhost/replica:0/task:0/device:GPU:0"; "" when the name sets no type or
// does not parse.
std::string DeviceType(const std::string& device) {
  absl::StatusOr<DeviceName> parsed = ParseDeviceName(device);
  if (!parsed.ok() || !parsed->has_type) return "";
  return parsed->type;
}

// The index of the first CPU device in `devices`; -1 when there is none.
int CpuDevice(const std::vector<std::string>& devices) {
  for (size_t d = 0; d < devices.size(); ++d) {
    if (DeviceType(devices[d]) == kDeviceCpu) return static_cast<int>(d);
  }
  return -1;
}

// On a non-CPU device, the first data edge between two of `nodes` whose producer's output and
// consumer's input live in different memories (host or device, by the kernels' HostMemory args,
// as the partitioner decides): "A:0 into B:1", or "" when there is none. The partitioner would put
// a transfer pair there, inside the loop.
absl::StatusOr<std::string> MemoryMismatch(const std::vector<const Node*>& nodes,
                                           const std::string& device_type) {
  std::set<const Node*> members(nodes.begin(), nodes.end());
  std::map<const Node*, std::pair<std::vector<bool>, std::vector<bool>>> host;
  for (const Node* n : nodes) {
    if (n->is_unknown_op()) continue;
    auto& [in, out] = host[n];
    absl::Status s =
        KernelRegistry::Global()->HostMemoryArgs(n->def(), *n->op_def(), device_type, &in, &out);
    if (!s.ok()) return s;
  }
  for (const Node* n : nodes) {
    for (const Edge* e : n->out_edges()) {
      if (e->IsControlEdge() || members.count(e->dst()) == 0) continue;
      auto src = host.find(n);
      auto dst = host.find(e->dst());
      if (src == host.end() || dst == host.end()) continue;
      const std::vector<bool>& outs = src->second.second;
      const std::vector<bool>& ins = dst->second.first;
      if (e->src_output() < 0 || e->src_output() >= static_cast<int>(outs.size()) ||
          e->dst_input() < 0 || e->dst_input() >= static_cast<int>(ins.size())) {
        continue;
      }
      if (outs[e->src_output()] != ins[e->dst_input()]) {
        return absl::StrCat(n->name(), ":", e->src_output(), " into ", e->dst()->name(), ":",
                            e->dst_input());
      }
    }
  }
  return std::string();
}

}  // namespace

absl::StatusOr<std::vector<std::string>> KeepLoopsOnOneDevice(const Graph& graph,
                                                              const KernelAvailability& kernels,
                                                              Placement* placement) {
  std::vector<std::string> moved;
  const int cpu = CpuDevice(placement->devices);
  if (cpu < 0) return moved;
  // Without an Enter there is no loop: the frame walk below is skipped.
  bool has_loop = false;
  for (const Node* n : graph.op_nodes()) {
    if (rill::IsEnter(n->op_class())) {
      has_loop = true;
      break;
    }
  }
  if (!has_loop) return moved;
  absl::StatusOr<Frames> frames = FindFrames(graph);
  if (!frames.ok()) return frames.status();
  // Each outermost loop's nodes (its Enters and every node of its frame and nested frames), in
  // graph order.
  std::map<int, std::vector<const Node*>> loops;
  for (const Node* n : graph.op_nodes()) {
    const int enter = frames->enter_child[n->id()];
    const int at = frames->node_frame[n->id()];
    int loop = 0;
    if (enter >= 0) {
      loop = frames->Outermost(enter);
    } else if (at >= 0) {
      loop = frames->Outermost(at);
    }
    if (loop != 0) loops[loop].push_back(n);
  }
  PlacementEditor editor(placement);
  for (const auto& [loop, nodes] : loops) {
    std::set<std::string> used;
    bool movable = true;
    for (const Node* n : nodes) {
      const std::string& device = placement->device(n->id());
      if (device.empty()) continue;
      used.insert(device);
      if (!n->requested_device().empty() ||
          kernels.SupportedDeviceTypes(n->def(), {kDeviceCpu}).empty()) {
        movable = false;
      }
      for (DataType t : n->input_types()) {
        if (IsRefType(t) || t == DT_RESOURCE) movable = false;
      }
    }
    if (!movable || used.empty()) continue;
    std::string why;
    if (used.size() > 1) {
      why = "its nodes were placed on several devices";
    } else if (const std::string type = DeviceType(*used.begin()); type != kDeviceCpu) {
      absl::StatusOr<std::string> mismatch = MemoryMismatch(nodes, type);
      if (!mismatch.ok()) return mismatch.status();
      if (!mismatch->empty()) {
        why = absl::StrCat("its tensor from ", *mismatch,
                           " would move between host and device memory");
      }
    }
    if (why.empty()) continue;
    const std::string& name = frames->name[loop];
    const std::string reason = absl::StrCat("while loop '", name, "' on the CPU: ", why,
                                            ", and a loop runs in one partition without transfers");
    for (const Node* n : nodes) {
      if (placement->device(n->id()).empty()) continue;
      editor.Set(n->id(), cpu, reason);
    }
    moved.push_back(name);
  }
  if (moved.empty()) return moved;
  // Generators outside the loops that followed a consumer now on the CPU follow it there too
  // (a loop's weights, fed through its Enters), when every consumer is on the CPU.
  for (const Node* n : graph.op_nodes()) {
    if (!placement->listed(n->id()) || placement->nodes[n->id()].device == cpu ||
        !absl::StartsWith(placement->reason(n->id()), "follows its consumer") ||
        !n->requested_device().empty() ||
        kernels.SupportedDeviceTypes(n->def(), {kDeviceCpu}).empty()) {
      continue;
    }
    bool all_on_cpu = !n->out_edges().empty();
    for (const Edge* e : n->out_edges()) {
      if (e->dst()->IsOp() &&
          (!placement->listed(e->dst()->id()) || placement->nodes[e->dst()->id()].device != cpu)) {
        all_on_cpu = false;
      }
    }
    if (all_on_cpu) {
      editor.Set(n->id(), cpu,
                 absl::StrCat(placement->reason(n->id()), " (its loop moved to the CPU)"));
    }
  }
  return moved;
}

}  // namespace rill
