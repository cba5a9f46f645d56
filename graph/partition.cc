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

// The dtype of output `index` of `node`, with refs as refs.
absl::StatusOr<DataType> OutputType(const NodeDef& node, int index) {
  absl::StatusOr<DataTypeVector> out = OutputTypesForNode(node);
  if (!out.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("Cannot send output ", index, " of node '",
                                                   node.name(),
                                                   "' across devices: ", out.status().message()));
  }
  if (index >= static_cast<int>(out->size())) {
    return absl::InvalidArgumentError(
        absl::StrCat("Node '", node.name(), "' has no output ", index));
  }
  return (*out)[index];
}

// The device type of a full device name ("GPU"), or "" when it does not parse.
std::string DeviceTypeOf(const std::string& device) {
  absl::StatusOr<DeviceName> parsed = ParseDeviceName(device);
  return parsed.ok() && parsed->has_type ? parsed->type : "";
}

class Partitioner {
 public:
  Partitioner(const GraphDef& graph, const PartitionOptions& options)
      : graph_(graph), options_(options) {
    if (options_.name_counter == nullptr) options_.name_counter = &local_counter_;
  }

  absl::StatusOr<std::map<std::string, GraphDef>> Run() {
    for (int i = 0; i < graph_.node_size(); ++i) {
      by_name_[graph_.node(i).name()] = i;
      std::string device = options_.device_of(graph_.node(i));
      if (device.empty()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Node '", graph_.node(i).name(), "' has no assigned device; cannot partition"));
      }
      devices_.push_back(std::move(device));
    }
    host_inputs_.resize(graph_.node_size());
    host_outputs_.resize(graph_.node_size());
    on_host_device_.resize(graph_.node_size());
    for (int i = 0; i < graph_.node_size(); ++i) RILL_RETURN_IF_ERROR(FillMemoryTypes(i));
    for (int i = 0; i < graph_.node_size(); ++i) RILL_RETURN_IF_ERROR(AddNode(i));
    for (auto& [device, part] : parts_) *part.mutable_versions() = graph_.versions();
    return std::move(parts_);
  }

 private:
  std::string NewName(const std::string& prefix) {
    return absl::StrCat(prefix, "/_", (*options_.name_counter)++);
  }

  // Host-memory flags of node i's inputs and outputs (left empty on CPU devices: all host).
  absl::Status FillMemoryTypes(int i) {
    const NodeDef& node = graph_.node(i);
    const std::string type = DeviceTypeOf(devices_[i]);
    on_host_device_[i] = type.empty() || type == "CPU";
    if (on_host_device_[i]) return absl::OkStatus();
    if (options_.memory_types) {
      absl::Status s = options_.memory_types(node, type, &host_inputs_[i], &host_outputs_[i]);
      if (!s.ok())
        return AnnotateStatus(s, absl::StrCat("memory types of node '", node.name(), "'"));
      return absl::OkStatus();
    }
    absl::StatusOr<DataTypeVector> out = OutputTypesForNode(node);
    if (!out.ok()) return absl::OkStatus();  // unknown op: nothing can be said; device memory
    for (DataType t : *out) host_outputs_[i].push_back(DataTypeAlwaysOnHost(t));
    return absl::OkStatus();
  }

  // Whether output `port` of node i / input `slot` of node i lives in host memory on a non-CPU
  // device (false on CPU, where there is only host memory).
  bool OutputOnHost(int i, int port) const {
    return port >= 0 && port < static_cast<int>(host_outputs_[i].size()) && host_outputs_[i][port];
  }
  bool InputOnHost(int i, int slot, DataType dtype) const {
    if (on_host_device_[i]) return false;
    if (slot < static_cast<int>(host_inputs_[i].size())) return host_inputs_[i][slot];
    return !options_.memory_types && DataTypeAlwaysOnHost(dtype);
  }

  NodeDef* AddTo(const std::string& device) {
    NodeDef* n = parts_[device].add_node();
    n->set_device(device);
    return n;
  }

  void SetSendRecvAttrs(NodeDef* n, const std::string& tensor_name, const std::string& src_dev,
                        const std::string& dst_dev) {
    SetAttr(n, "tensor_name", tensor_name);
    SetAttr(n, "send_device", src_dev);
    SetAttr(n, "send_device_incarnation", options_.incarnation_of(src_dev));
    SetAttr(n, "recv_device", dst_dev);
    SetAttr(n, "client_terminated", false);
  }

  // Adds a _Send of `tensor` (a "name:port" input string) on src_dev and the matching _Recv on
  // dst_dev; returns the _Recv's name.
  // `host_send`/`host_recv` choose _HostSend/_HostRecv. When both ends are on one device (a
  // memory-type fix-up) the Recv waits on its Send by a control edge (spec §4.2 step 6).
  std::string AddSendRecv(const std::string& src_node, const std::string& tensor, DataType dtype,
                          const std::string& src_dev, const std::string& dst_dev,
                          bool host_send = false, bool host_recv = false) {
    const std::string tensor_name = absl::StrCat("edge_", edge_id_++, "_", src_node);
    NodeDef* send = AddTo(src_dev);
    send->set_name(NewName(src_node));
    send->set_op(host_send ? "_HostSend" : "_Send");
    send->add_input(tensor);
    SetAttr(send, "T", BaseType(dtype));
    SetSendRecvAttrs(send, tensor_name, src_dev, dst_dev);
    NodeDef* recv = AddTo(dst_dev);
    recv->set_name(NewName(src_node));
    recv->set_op(host_recv ? "_HostRecv" : "_Recv");
    if (src_dev == dst_dev) recv->add_input(absl::StrCat("^", send->name()));
    SetAttr(recv, "tensor_type", BaseType(dtype));
    SetSendRecvAttrs(recv, tensor_name, src_dev, dst_dev);
    return recv->name();
  }

  absl::Status AddNode(int i) {
    const NodeDef& node = graph_.node(i);
    const std::string& dst_dev = devices_[i];
    NodeDef copy = node;
    copy.clear_input();
    copy.set_device(dst_dev);
    std::vector<std::string> controls;
    int slot = 0;
    for (const std::string& input : node.input()) {
      RILL_ASSIGN_OR_RETURN(InputName in, ParseInputName(input));
      auto it = by_name_.find(in.node);
      if (it == by_name_.end()) {
        return absl::InvalidArgumentError(
            absl::StrCat("Incomplete graph, missing input '", input, "' for ", node.name()));
      }
      const std::string& src_dev = devices_[it->second];
      if (in.is_control()) {
        if (src_dev == dst_dev) {
          controls.push_back(input);
          continue;
        }
        auto key = std::make_tuple(in.node, in.index, dst_dev, false);
        auto found = recvs_.find(key);
        if (found == recvs_.end()) {
          NodeDef* dummy = AddTo(src_dev);
          dummy->set_name(absl::StrCat(in.node, "/ctrl/_", (*options_.name_counter)++));
          dummy->set_op("Const");
          dummy->add_input(absl::StrCat("^", in.node));
          SetAttr(dummy, "dtype", DT_FLOAT);
          AttrValue value;
          value.mutable_tensor()->set_dtype(DT_FLOAT);
          value.mutable_tensor()->mutable_tensor_shape()->add_dim()->set_size(0);
          (*dummy->mutable_attr())["value"] = value;
          const std::string recv = AddSendRecv(in.node, dummy->name(), DT_FLOAT, src_dev, dst_dev);
          NodeDef* identity = AddTo(dst_dev);
          identity->set_name(NewName(in.node));
          identity->set_op("Identity");
          identity->add_input(recv);
          SetAttr(identity, "T", DT_FLOAT);
          found = recvs_.emplace(key, identity->name()).first;
        }
        controls.push_back(absl::StrCat("^", found->second));
        continue;
      }
      const int this_slot = slot++;
      if (src_dev == dst_dev && on_host_device_[i]) {
        *copy.add_input() = input;  // within a CPU all memory is host memory: a plain edge
        continue;
      }
      RILL_ASSIGN_OR_RETURN(DataType dtype, OutputType(graph_.node(it->second), in.index));
      const bool src_host = OutputOnHost(it->second, in.index);
      const bool dst_host = InputOnHost(i, this_slot, dtype);
      if (src_dev == dst_dev && src_host == dst_host) {
        *copy.add_input() = input;
        continue;
      }
      auto key = std::make_tuple(in.node, in.index, dst_dev, dst_host);
      auto found = IsRefType(dtype) ? recvs_.end() : recvs_.find(key);
      if (found == recvs_.end()) {
        const std::string tensor = in.index == 0 ? in.node : absl::StrCat(in.node, ":", in.index);
        const std::string recv =
            AddSendRecv(in.node, tensor, dtype, src_dev, dst_dev, src_host, dst_host);
        found = recvs_.insert_or_assign(key, recv).first;
      }
      *copy.add_input() = found->second;
    }
    for (std::string& c : controls) *copy.add_input() = std::move(c);
    *AddTo(dst_dev) = std::move(copy);
    return absl::OkStatus();
  }

  const GraphDef& graph_;
  PartitionOptions options_;
  int64_t local_counter_ = 0;
  int64_t edge_id_ = 0;
  absl::flat_hash_map<std::string, int> by_name_;
  std::vector<std::string> devices_;
  std::vector<std::vector<bool>> host_inputs_;   // per node; empty on CPU devices
  std::vector<std::vector<bool>> host_outputs_;  // per node; empty on CPU devices
  std::vector<bool> on_host_device_;             // per node: placed on a CPU (all host memory)
  // (src node, src port, destination device, destination input on host) -> Recv (or Identity
  // for control edges).
  std::map<std::tuple<std::string, int, std::string, bool>, std::string> recvs_;
  std::map<std::string, GraphDef> parts_;
};

}  // namespace

absl::StatusOr<std::map<std::string, GraphDef>> Partition(const GraphDef& graph,
                                                          const PartitionOptions& options) {
  return Partitioner(graph, options).Run();
}

}  // namespace rill
