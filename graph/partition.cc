#include "graph/partition.h"

#include <tuple>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "core/device_name.h"
#include "core/status_macros.h"
#include "core/types.h"
#include "ops/attr_value_util.h"
#include "ops/node_def_util.h"
#include "ops/op_registry.h"

namespace rill {
namespace {

// The device type of a full device name ("GPU"), or "" when it does not parse.
std::string DeviceTypeOf(const std::string& device) {
  absl::StatusOr<DeviceName> parsed = ParseDeviceName(device);
  return parsed.ok() && parsed->has_type ? parsed->type : "";
}

// The dtype of output `index` of `node`, with refs as refs. InvalidArgument for an unknown op,
// whose outputs cannot be sent.
absl::StatusOr<DataType> OutputType(const Node& node, int index) {
  if (node.is_unknown_op()) {
    absl::Status unknown = OpRegistry::Global()->LookUpOrError(node.op()).status();
    return absl::InvalidArgumentError(absl::StrCat("Cannot send output ", index, " of node '",
                                                   node.name(),
                                                   "' across devices: ", unknown.message()));
  }
  if (index >= node.num_outputs()) {
    return absl::InvalidArgumentError(
        absl::StrCat("Node '", node.name(), "' has no output ", index));
  }
  return node.output_type(index);
}

class Partitioner {
 public:
  Partitioner(const Graph& graph, const PartitionOptions& options)
      : graph_(graph), options_(options) {
    if (options_.name_counter == nullptr) options_.name_counter = &local_counter_;
  }

  absl::StatusOr<std::map<std::string, Graph>> Run() {
    const int n = graph_.num_node_ids();
    on_host_device_.resize(n);
    copies_.resize(n, nullptr);
    for (const Node* node : graph_.op_nodes()) {
      if (node->assigned_device_name().empty()) {
        return absl::InvalidArgumentError(
            absl::StrCat("Node '", node->name(), "' has no assigned device; cannot partition"));
      }
      RILL_RETURN_IF_ERROR(FillMemoryTypes(*node));
    }
    for (const Node* node : graph_.op_nodes()) RILL_RETURN_IF_ERROR(AddNode(*node));
    // Edges last: a producer may come after its consumer in id order (a run graph's _Arg).
    for (const PendingEdge& p : pending_) {
      Node* src = p.src != nullptr ? p.src : copies_[p.src_id];
      Node* dst = p.dst != nullptr ? p.dst : copies_[p.dst_id];
      if (p.src_output == kControlSlot) {
        parts_.at(dst->assigned_device_name()).AddControlEdge(src, dst);
      } else {
        RILL_RETURN_IF_ERROR(parts_.at(dst->assigned_device_name())
                                 .AddEdge(src, p.src_output, dst, p.dst_input)
                                 .status());
      }
    }
    for (auto& [device, part] : parts_) {
      *part.mutable_versions() = graph_.versions();
      part.FixupSourceAndSinkEdges();
    }
    return std::move(parts_);
  }

 private:
  // An edge of a partition, added once every node exists. Each end is a node made here (src /
  // dst) or the copy of the input graph's node with that id (src_id / dst_id).
  struct PendingEdge {
    Node* src = nullptr;
    int src_id = -1;
    int src_output = kControlSlot;
    Node* dst = nullptr;
    int dst_id = -1;
    int dst_input = kControlSlot;
  };

  std::string NewName(const std::string& prefix) {
    return absl::StrCat(prefix, "/_", (*options_.name_counter)++);
  }

  // The device type of `node`'s assigned device, parsed once per distinct device: the names are
  // interned (Node::assigned_device_name), so their addresses key the cache.
  const std::string& DeviceTypeOfNode(const Node& node) {
    const std::string& device = node.assigned_device_name();
    auto [it, added] = device_types_.try_emplace(&device);
    if (added) it->second = DeviceTypeOf(device);
    return it->second;
  }

  // Host-memory flags of a node's inputs and outputs, kept only for nodes on non-CPU devices
  // (on a CPU all memory is host memory): most graphs have none, and flags by node id would
  // take 80 bytes per id of a run graph that the optimizer shrank.
  absl::Status FillMemoryTypes(const Node& node) {
    const int i = node.id();
    const std::string& type = DeviceTypeOfNode(node);
    on_host_device_[i] = type.empty() || type == "CPU";
    if (on_host_device_[i]) return absl::OkStatus();
    HostMemory& host = host_memory_[i];
    if (options_.memory_types) {
      absl::Status s = options_.memory_types(node, type, &host.inputs, &host.outputs);
      if (!s.ok())
        return AnnotateStatus(s, absl::StrCat("memory types of node '", node.name(), "'"));
      return absl::OkStatus();
    }
    if (node.is_unknown_op()) return absl::OkStatus();  // nothing can be said: device memory
    for (DataType t : node.output_types()) host.outputs.push_back(DataTypeAlwaysOnHost(t));
    return absl::OkStatus();
  }

  // Whether output `port` of node i / input `slot` of node i lives in host memory on a non-CPU
  // device (false on CPU, where there is only host memory).
  bool OutputOnHost(int i, int port) const {
    auto it = host_memory_.find(i);
    if (it == host_memory_.end()) return false;
    const std::vector<bool>& outputs = it->second.outputs;
    return port >= 0 && port < static_cast<int>(outputs.size()) && outputs[port];
  }
  bool InputOnHost(int i, int slot, DataType dtype) const {
    if (on_host_device_[i]) return false;
    auto it = host_memory_.find(i);
    if (it != host_memory_.end() && slot < static_cast<int>(it->second.inputs.size())) {
      return it->second.inputs[slot];
    }
    return !options_.memory_types && DataTypeAlwaysOnHost(dtype);
  }

  Graph& PartOf(const std::string& device) { return parts_[device]; }

  // Adds a node built from `def` to `device`'s partition.
  absl::StatusOr<Node*> AddNew(const std::string& device, NodeDef def) {
    RILL_ASSIGN_OR_RETURN(Node * node, PartOf(device).AddNode(std::move(def)));
    node->set_assigned_device_name(device);
    return node;
  }

  void SetSendRecvAttrs(NodeDef* n, const std::string& tensor_name, const std::string& src_dev,
                        const std::string& dst_dev) {
    SetAttr(n, "tensor_name", tensor_name);
    SetAttr(n, "send_device", src_dev);
    SetAttr(n, "send_device_incarnation", options_.incarnation_of(src_dev));
    SetAttr(n, "recv_device", dst_dev);
    SetAttr(n, "client_terminated", false);
  }

  // Adds a _Send of output `port` of `src` (an input-graph node; with `src_new`, that node made
  // here instead, the pair still named after `src`) on src_dev and the matching _Recv on dst_dev;
  // returns the _Recv.
  // `host_send`/`host_recv` choose _HostSend/_HostRecv. When both ends are on one device (a
  // memory-type fix-up) the Recv waits on its Send by a control edge (spec §4.2 step 6).
  absl::StatusOr<Node*> AddSendRecv(const Node& src, Node* src_new, int port, DataType dtype,
                                    const std::string& src_dev, const std::string& dst_dev,
                                    bool host_send = false, bool host_recv = false) {
    const std::string tensor_name = absl::StrCat("edge_", edge_id_++, "_", src.name());
    NodeDef send_def;
    send_def.set_name(NewName(src.name()));
    send_def.set_op(host_send ? "_HostSend" : "_Send");
    SetAttr(&send_def, "T", BaseType(dtype));
    SetSendRecvAttrs(&send_def, tensor_name, src_dev, dst_dev);
    RILL_ASSIGN_OR_RETURN(Node * send, AddNew(src_dev, std::move(send_def)));
    PendingEdge to_send;
    to_send.src = src_new;
    to_send.src_id = src_new == nullptr ? src.id() : -1;
    to_send.src_output = port;
    to_send.dst = send;
    to_send.dst_input = 0;
    pending_.push_back(to_send);
    NodeDef recv_def;
    recv_def.set_name(NewName(src.name()));
    recv_def.set_op(host_recv ? "_HostRecv" : "_Recv");
    SetAttr(&recv_def, "tensor_type", BaseType(dtype));
    SetSendRecvAttrs(&recv_def, tensor_name, src_dev, dst_dev);
    RILL_ASSIGN_OR_RETURN(Node * recv, AddNew(dst_dev, std::move(recv_def)));
    if (src_dev == dst_dev) PartOf(dst_dev).AddControlEdge(send, recv);
    return recv;
  }

  // The node on `dst_dev` that a consumer there waits on for a control edge from `src` on
  // another device: a dummy Const after src, sent across, and an Identity of what arrives.
  absl::StatusOr<Node*> ControlProxy(const Node& src, const std::string& dst_dev) {
    auto key = std::make_tuple(src.id(), kControlSlot, dst_dev, false);
    auto found = recvs_.find(key);
    if (found != recvs_.end()) return found->second;
    const std::string& src_dev = src.assigned_device_name();
    NodeDef dummy_def;
    dummy_def.set_name(absl::StrCat(src.name(), "/ctrl/_", (*options_.name_counter)++));
    dummy_def.set_op("Const");
    SetAttr(&dummy_def, "dtype", DT_FLOAT);
    AttrValue value;
    value.mutable_tensor()->set_dtype(DT_FLOAT);
    value.mutable_tensor()->mutable_tensor_shape()->add_dim()->set_size(0);
    (*dummy_def.mutable_attr())["value"] = value;
    RILL_ASSIGN_OR_RETURN(Node * dummy, AddNew(src_dev, std::move(dummy_def)));
    PendingEdge after_src;
    after_src.src_id = src.id();
    after_src.dst = dummy;
    pending_.push_back(after_src);
    RILL_ASSIGN_OR_RETURN(Node * recv, AddSendRecv(src, dummy, 0, DT_FLOAT, src_dev, dst_dev));
    NodeDef identity_def;
    identity_def.set_name(NewName(src.name()));
    identity_def.set_op("Identity");
    SetAttr(&identity_def, "T", DT_FLOAT);
    RILL_ASSIGN_OR_RETURN(Node * identity, AddNew(dst_dev, std::move(identity_def)));
    RILL_RETURN_IF_ERROR(PartOf(dst_dev).AddEdge(recv, 0, identity, 0).status());
    recvs_.emplace(key, identity);
    return identity;
  }

  absl::Status AddNode(const Node& node) {
    const int i = node.id();
    const std::string& dst_dev = node.assigned_device_name();
    std::vector<PendingEdge> edges;  // into this node, added to pending_ once it exists
    for (int slot = 0; slot < node.num_inputs(); ++slot) {
      const Edge* e = node.input_edge(slot);
      if (e == nullptr) continue;  // an incomplete graph: the executor reports it
      const Node& src = *e->src();
      const std::string& src_dev = src.assigned_device_name();
      PendingEdge edge;
      edge.dst_id = i;
      edge.dst_input = slot;
      edge.src_id = src.id();
      edge.src_output = e->src_output();
      if (src_dev == dst_dev && on_host_device_[i]) {
        edges.push_back(edge);  // within a CPU all memory is host memory: a plain edge
        continue;
      }
      RILL_ASSIGN_OR_RETURN(DataType dtype, OutputType(src, e->src_output()));
      const bool src_host = OutputOnHost(src.id(), e->src_output());
      const bool dst_host = InputOnHost(i, slot, dtype);
      if (src_dev == dst_dev && src_host == dst_host) {
        edges.push_back(edge);
        continue;
      }
      auto key = std::make_tuple(src.id(), e->src_output(), dst_dev, dst_host);
      auto found = IsRefType(dtype) ? recvs_.end() : recvs_.find(key);
      if (found == recvs_.end()) {
        RILL_ASSIGN_OR_RETURN(Node * recv, AddSendRecv(src, nullptr, e->src_output(), dtype,
                                                       src_dev, dst_dev, src_host, dst_host));
        found = recvs_.insert_or_assign(key, recv).first;
      }
      edge.src = found->second;
      edge.src_id = -1;
      edge.src_output = 0;
      edges.push_back(edge);
    }
    for (const Edge* e : node.in_edges()) {
      if (!e->IsControlEdge() || !e->src()->IsOp()) continue;
      PendingEdge edge;
      edge.dst_id = i;
      if (e->src()->assigned_device_name() == dst_dev) {
        edge.src_id = e->src()->id();
      } else {
        RILL_ASSIGN_OR_RETURN(edge.src, ControlProxy(*e->src(), dst_dev));
      }
      edges.push_back(edge);
    }
    RILL_ASSIGN_OR_RETURN(copies_[i], PartOf(dst_dev).AddNodeCopy(node));
    pending_.insert(pending_.end(), edges.begin(), edges.end());
    return absl::OkStatus();
  }

  const Graph& graph_;
  PartitionOptions options_;
  int64_t local_counter_ = 0;
  int64_t edge_id_ = 0;
  struct HostMemory {
    std::vector<bool> inputs;   // by input arg element
    std::vector<bool> outputs;  // by output
  };
  absl::flat_hash_map<int, HostMemory> host_memory_;  // by node id; only nodes on non-CPU devices
  absl::flat_hash_map<const std::string*, std::string> device_types_;  // see DeviceTypeOfNode
  std::vector<bool> on_host_device_;  // by node id: placed on a CPU (all host memory)
  std::vector<Node*> copies_;         // by node id: the node's copy in its partition
  std::vector<PendingEdge> pending_;
  // (src node id, src port, destination device, destination input on host) -> _Recv (or the
  // Identity of a control edge, port kControlSlot).
  absl::flat_hash_map<std::tuple<int, int, std::string, bool>, Node*> recvs_;
  std::map<std::string, Graph> parts_;
};

}  // namespace

absl::StatusOr<std::map<std::string, Graph>> Partition(const Graph& graph,
                                                       const PartitionOptions& options) {
  return Partitioner(graph, options).Run();
}

}  // namespace rill
