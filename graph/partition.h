// Partition: cuts a placed graph into one GraphDef per device and joins the pieces with
// _Send/_Recv pairs, following TensorFlow's graph_partition.cc (spec §4.2):
//   - a data edge between devices becomes `_Send` on the producer's device and `_Recv` on the
//     consumer's, with TensorFlow's attrs (T / tensor_type, tensor_name "edge_<id>_<src>",
//     send_device, send_device_incarnation, recv_device, client_terminated=false);
//   - one pair per (tensor, destination device), shared by every consumer there (never for ref
//     outputs, which are sent once per edge);
//   - a control edge between devices is carried by a dummy DT_FLOAT [0] Const "<src>/ctrl/_N" sent
//     across and an Identity "<src>/_N" on the destination that the consumer depends on;
//   - new nodes are named "<src>/_<counter>";
//   - memory types (spec §4.3): on a non-CPU device an output or input may live in host memory
//     (a kernel's HostMemory args, always for string and resource). A producer output in host
//     memory is sent with `_HostSend`, a consumer input that must be in host memory receives with
//     `_HostRecv`; an edge inside one non-CPU device whose ends disagree also gets a pair, whose
//     Recv waits on its Send by a control edge. On CPU devices everything is host memory and plain
//     `_Send`/`_Recv` are used (Rill's choice; TensorFlow's CPU partitions look the same).
// Works on GraphDefs (the placed graph is a GraphDef plus a node-name -> device map), so the
// result is directly what RunMetadata.partition_graphs shows. Pure function; thread-safe.
//
//   PartitionOptions opts; opts.device_of = [&](const NodeDef& n) { return placement.at(n.name());
//   }; RILL_ASSIGN_OR_RETURN(auto parts, Partition(graph, opts));   // device name -> GraphDef
#ifndef RILL_GRAPH_PARTITION_H_
#define RILL_GRAPH_PARTITION_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "proto/graph.pb.h"

namespace rill {

struct PartitionOptions {
  // The full device name each node runs on. Required.
  std::function<std::string(const NodeDef&)> device_of;
  // The incarnation written into send_device_incarnation (DirectSession uses 1 for every device).
  std::function<int64_t(const std::string& device)> incarnation_of = [](const std::string&) {
    return int64_t{1};
  };
  // Counter for new node names ("<src>/_<n>"); shared across a session's partitions so names stay
  // unique. Not owned; may be null (then starts at 0 per call).
  int64_t* name_counter = nullptr;
  // Which inputs and outputs of `node` live in host memory when it runs on a device of type
  // `device_type` (only asked for non-CPU devices); fills one bool per input arg element / output.
  // Null: everything in device memory except DT_STRING and DT_RESOURCE, which are always on host.
  // An error fails the partition.
  std::function<absl::Status(const NodeDef& node, const std::string& device_type,
                             std::vector<bool>* host_inputs, std::vector<bool>* host_outputs)>
      memory_types;
};

// InvalidArgument when a node has no device, an input names a missing node ("Incomplete graph,
// missing input ..."), or an output's dtype cannot be determined (unknown op feeding another
// device).
absl::StatusOr<std::map<std::string, GraphDef>> Partition(const GraphDef& graph,
                                                          const PartitionOptions& options);

}  // namespace rill

#endif  // RILL_GRAPH_PARTITION_H_
