// BuildNodeItems (node_items.h): kernels, per-node flags and edges, then frames and slot layout.
// Runs once per executor, single-threaded; the result is immutable.
#include "session/executor/node_items.h"

#include <algorithm>
#include <deque>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "graph/graph_def_export.h"
#include "graph/op_classes.h"
#include "ops/attr_value_util.h"
#include "ops/node_def_util.h"
#include "ops/op_registry.h"

namespace rill {
namespace executor_internal {
namespace {

// Assigns every node its static frame (TensorFlow's BuildControlFlowInfo walk from the roots)
// and lays out each frame's input slots and pending counts, then flattens every node's out-edges
// (FlatEdge, with its consumer's slot in the consumer's frame). `graph_nodes` are the partition's
// nodes by executor index.
absl::Status BuildFrames(const std::vector<const Node*>& graph_nodes, NodeItems& items) {
  std::vector<NodeItem>& nodes = items.nodes;
  std::vector<FrameInfo>& frames = items.frames;
  const int n = static_cast<int>(nodes.size());
  frames.push_back(FrameInfo{});
  absl::flat_hash_map<std::string, int> frame_by_name;
  bool has_transfer = false;
  for (const NodeItem& item : nodes) has_transfer |= item.is_transfer;
  std::vector<bool> visited(n, false);
  std::deque<int> queue;
  for (int r : items.roots) {
    visited[r] = true;
    queue.push_back(r);
  }
  while (!queue.empty()) {
    const int id = queue.front();
    queue.pop_front();
    const NodeItem& item = nodes[id];
    const Node& node = *graph_nodes[id];
    // The frame the node's consumers run in.
    int out_frame = item.frame;
    if (item.is_enter) {
      std::string name;
      RILL_RETURN_IF_ERROR(GetNodeAttr(node.def(), "frame_name", &name));
      if (name.empty()) {  // the root frame's name: TensorFlow's error
        return absl::InvalidArgumentError(absl::StrCat(
            "The Enter node ", node.name(), " must have a frame name; give it its loop's name"));
      }
      auto [it, added] = frame_by_name.emplace(name, static_cast<int>(frames.size()));
      if (added) {
        FrameInfo info;
        info.name = name;
        info.parent = item.frame;
        frames.push_back(std::move(info));
      } else if (frames[it->second].parent != item.frame) {
        return absl::InvalidArgumentError(
            absl::StrCat("Enter node ", node.name(), " enters frame '", name, "' from frame '",
                         frames[item.frame].name, "', but other Enter nodes enter it from '",
                         frames[frames[it->second].parent].name,
                         "'; every Enter of a loop must sit in the same enclosing frame"));
      }
      out_frame = it->second;
      nodes[id].child_frame = out_frame;
      ++frames[out_frame].num_enters;
    } else if (item.is_exit) {
      if (item.frame == 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Exit node ", node.name(),
            " is not inside a while loop (no Enter node leads to it); an Exit must follow the "
            "loop's Switch"));
      }
      out_frame = frames[item.frame].parent;
    }
    auto visit = [&](int dst) -> absl::Status {
      if (!visited[dst]) {
        visited[dst] = true;
        nodes[dst].frame = out_frame;
        queue.push_back(dst);
      } else if (nodes[dst].frame != out_frame) {
        const std::string what =
            absl::StrCat("Node ", graph_nodes[dst]->name(), " has inputs from frame '",
                         frames[nodes[dst].frame].name, "' and from frame '",
                         frames[out_frame].name, "' (via ", node.name(), ")");
        if (has_transfer) {
          // A _Recv has no inputs, so a loop body cut by the partitioner looks like this.
          return absl::UnimplementedError(absl::StrCat(
              what,
              ": a while loop's body is split across devices here, and loops whose body "
              "spans devices are not supported yet: place the whole loop on one device"));
        }
        return absl::InvalidArgumentError(absl::StrCat(
            what, "; a tensor enters a loop only through Enter and leaves it only through Exit"));
      }
      return absl::OkStatus();
    };
    for (const auto& edges : item.out_edges) {
      for (const OutEdge& e : edges) RILL_RETURN_IF_ERROR(visit(e.dst));
    }
    for (int dst : item.control_out) RILL_RETURN_IF_ERROR(visit(dst));
  }
  for (int i = 0; i < n; ++i) {
    NodeItem& item = nodes[i];
    FrameInfo& frame = frames[item.frame];
    if (item.frame != 0 && item.is_transfer) {
      return absl::UnimplementedError(absl::StrCat(
          "Node ", item.kernel->name(), " (", item.kernel->type_string(),
          ") moves a tensor between devices inside while loop '", frame.name,
          "'; loops whose body spans devices are not supported yet: place the whole loop on "
          "one device"));
    }
    item.local_id = frame.num_nodes++;
    item.input_start = frame.total_inputs;
    frame.total_inputs += item.num_inputs;
    frame.initial_pending.push_back(item.initial_pending);
  }
  for (NodeItem& item : nodes) {
    for (int o = 0; o < item.num_outputs; ++o) {
      const std::vector<OutEdge>& edges = item.out_edges[o];
      for (size_t e = 0; e < edges.size(); ++e) {
        const NodeItem& dst = nodes[edges[e].dst];
        item.flat_out.push_back(FlatEdge{
            edges[e].dst, dst.local_id, edges[e].dst_slot, dst.input_start + edges[e].dst_slot, o,
            dst.num_inputs, e + 1 == edges.size(), dst.is_control_trigger, dst.is_merge});
      }
    }
    for (int d : item.control_out) {
      const NodeItem& dst = nodes[d];
      item.flat_out.push_back(FlatEdge{d, dst.local_id, -1, -1, -1, dst.num_inputs, false,
                                       dst.is_control_trigger, dst.is_merge});
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status WithNode(const absl::Status& s, const std::string& node) {
  return absl::Status(s.code(), absl::StrCat(s.message(), "\n\t [[{{node ", node, "}}]]"));
}

absl::StatusOr<NodeItems> BuildNodeItems(const Graph& partition, Device* device,
                                         const KernelRegistry& registry) {
  NodeItems items;
  // Executor nodes are the partition's op nodes in id order, numbered densely.
  std::vector<const Node*> graph_nodes;
  graph_nodes.reserve(partition.num_op_nodes());
  std::vector<int> index(partition.num_node_ids(), -1);
  for (const Node* node : partition.op_nodes()) {
    index[node->id()] = static_cast<int>(graph_nodes.size());
    graph_nodes.push_back(node);
  }
  const int n = static_cast<int>(graph_nodes.size());
  items.nodes.resize(n);
  for (int i = 0; i < n; ++i) {
    const Node& node = *graph_nodes[i];
    if (node.is_unknown_op()) {
      RILL_RETURN_IF_ERROR(OpRegistry::Global()->LookUpOrError(node.op()).status());
    }
    const OpDef& op_def = *node.op_def();
    // Kernels see the NodeDef with its input list, as TensorFlow's do (some name their inputs'
    // producers in messages).
    const NodeDef def = NodeDefWithInputs(node);
    absl::StatusOr<std::unique_ptr<OpKernel>> kernel = registry.CreateKernel(def, op_def, device);
    if (!kernel.ok()) return WithNode(kernel.status(), node.name());
    NodeItem& item = items.nodes[i];
    item.kernel = *std::move(kernel);
    item.num_outputs = static_cast<int>(item.kernel->output_types().size());
    item.out_edges.resize(item.num_outputs);
    item.allows_uninitialized_input = op_def.allows_uninitialized_input();
    item.is_expensive = item.kernel->IsExpensive();
    item.is_async = item.kernel->IsAsync();
    items.has_async |= item.is_async;
    if (device->device_type() != kDeviceCpu) {
      std::vector<bool> host_inputs, host_outputs;
      RILL_RETURN_IF_ERROR(WithNode(
          registry.HostMemoryArgs(def, op_def, device->device_type(), &host_inputs, &host_outputs),
          node.name()));
      if (std::find(host_outputs.begin(), host_outputs.end(), true) != host_outputs.end()) {
        item.host_outputs = std::move(host_outputs);
      }
    }
    const OpClass op_class = node.op_class();
    item.copies_ref_inputs = IsRetval(op_class);
    item.is_merge = IsMerge(op_class);
    item.is_enter = IsEnter(op_class);
    item.is_exit = IsExit(op_class);
    item.is_next_iteration = IsNextIteration(op_class);
    item.is_control_trigger = IsControlTrigger(op_class);
    item.is_transfer = IsTransfer(op_class);
    item.may_leave_output = MayLeaveOutputUnset(op_class);
    // By op name, not class: the kernels registered for exactly these ops on the CPU (kernels/
    // array/identity_op.cc, kernels/control_flow/control_flow_ops.cc) move a value and do nothing
    // else; StopGradient and the like share Identity's class but have kernels of their own.
    static const auto* const kForwardingOps =
        new absl::flat_hash_map<std::string, NodeItem::Forwarding>{
            {"Identity", NodeItem::Forwarding::kInput0},
            {"Enter", NodeItem::Forwarding::kInput0},
            {"RefEnter", NodeItem::Forwarding::kInput0},
            {"Exit", NodeItem::Forwarding::kInput0},
            {"RefExit", NodeItem::Forwarding::kInput0},
            {"NextIteration", NodeItem::Forwarding::kInput0},
            {"RefNextIteration", NodeItem::Forwarding::kInput0},
            {"LoopCond", NodeItem::Forwarding::kInput0},
            {"Switch", NodeItem::Forwarding::kSwitch},
            {"RefSwitch", NodeItem::Forwarding::kSwitch},
            {"Merge", NodeItem::Forwarding::kMerge},
            {"RefMerge", NodeItem::Forwarding::kMerge}};
    if (auto it = kForwardingOps->find(node.op());
        it != kForwardingOps->end() && device->device_type() == kDeviceCpu) {
      const NodeItem::Forwarding f = it->second;
      const bool input0 = f == NodeItem::Forwarding::kInput0;
      const int inputs = input0 ? 1 : f == NodeItem::Forwarding::kSwitch ? 2 : node.num_inputs();
      if (inputs >= 1 && node.num_inputs() == inputs && item.num_outputs == (input0 ? 1 : 2)) {
        item.forwarding = f;
      }
    }
    if (item.is_enter) {
      int64_t parallel = 0;  // import fills in the op's default when the attr is absent
      RILL_RETURN_IF_ERROR(GetNodeAttr(node.def(), "is_constant", &item.is_constant_enter));
      RILL_RETURN_IF_ERROR(GetNodeAttr(node.def(), "parallel_iterations", &parallel));
      if (const absl::Status s = CheckInt32Attr("parallel_iterations", parallel); !s.ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat(s.message(), " (Enter node ", node.name(), ")"));
      }
      // TensorFlow's executor holds a NextIteration back only while the live iterations equal
      // parallel_iterations, which never happens below 1: such a loop runs unbounded there, as
      // it does here at the cap.
      if (parallel < 1) parallel = kMaxParallelIterations;
      item.parallel_iterations =
          static_cast<int>(std::min<int64_t>(parallel, kMaxParallelIterations));
      items.has_loops = true;
    }
  }
  std::vector<int> num_control_in(n, 0);
  for (int i = 0; i < n; ++i) {
    const Node& node = *graph_nodes[i];
    NodeItem& item = items.nodes[i];
    const DataTypeVector& types = item.kernel->input_types();
    if (node.num_inputs() != static_cast<int>(types.size())) {
      return absl::InvalidArgumentError(
          absl::StrCat("Node '", node.name(), "' has ", node.num_inputs(),
                       " data inputs but its op expects ", types.size()));
    }
    for (int slot = 0; slot < node.num_inputs(); ++slot) {
      const Edge* e = node.input_edge(slot);
      if (e == nullptr) {
        return absl::InvalidArgumentError(absl::StrCat("Incomplete graph, input ", slot, " of ",
                                                       node.name(), " is not connected"));
      }
      const int src_index = index[e->src()->id()];
      NodeItem& src = items.nodes[src_index];
      if (e->src_output() >= src.num_outputs) {
        return absl::InvalidArgumentError(
            absl::StrCat("Node '", node.name(), "' input ", slot, " names output ", e->src_output(),
                         " but '", e->src()->name(), "' has ", src.num_outputs));
      }
      ++item.initial_pending;
      src.out_edges[e->src_output()].push_back({i, slot});
      item.input_src.push_back(src_index);
      item.input_is_ref.push_back(IsRefType(types[slot]));
      item.check_inputs |= item.input_is_ref.back();
      for (DataType type : src.kernel->output_types()) item.check_inputs |= IsRefType(type);
    }
    for (const Edge* e : node.in_edges()) {
      if (!e->IsControlEdge() || !e->src()->IsOp()) continue;
      ++item.initial_pending;
      items.nodes[index[e->src()->id()]].control_out.push_back(i);
      ++num_control_in[i];
    }
    item.num_inputs = node.num_inputs();
    if (item.is_merge) {
      item.initial_pending = kMergeNoLiveInputBit + kMergeControlInputStep * num_control_in[i];
    }
    if (item.is_merge || item.is_enter || item.is_exit || item.is_next_iteration) {
      items.simple = false;
    }
    if (item.initial_pending == 0 && !item.is_merge) items.roots.push_back(i);
  }
  for (int i = 0; i < n; ++i) {
    const NodeItem& item = items.nodes[i];
    if (!item.is_expensive || item.initial_pending == 0) continue;
    bool fed_by_roots = true;
    for (const Edge* e : graph_nodes[i]->in_edges()) {
      if (e->src()->IsOp()) {
        fed_by_roots &= items.nodes[index[e->src()->id()]].initial_pending == 0;
      }
    }
    items.expensive_fed_by_roots += fed_by_roots;
  }
  RILL_RETURN_IF_ERROR(BuildFrames(graph_nodes, items));
  return items;
}

}  // namespace executor_internal
}  // namespace rill
