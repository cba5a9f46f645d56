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
// Works on Graphs: each node runs on its assigned_device_name(); each partition is a Graph whose
// nodes share their properties with the input's (no NodeDef or Const value is copied) and are
// assigned their partition's device. Nodes keep the input's relative order, each new _Recv (and
// its control Identity) added just before its first consumer; ExportGraphDef with
// ExportOptions::assigned_devices gives what RunMetadata.partition_graphs shows. Linear in the
// graph's size. Pure function; thread-safe.
//
//   RILL_ASSIGN_OR_RETURN(auto parts, Partition(graph, {}));   // device name -> Graph
#ifndef RILL_GRAPH_PARTITION_H_
#define RILL_GRAPH_PARTITION_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "graph/graph.h"

namespace rill {

struct PartitionOptions {
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
  std::function<absl::Status(const Node& node, const std::string& device_type,
                             std::vector<bool>* host_inputs, std::vector<bool>* host_outputs)>
      memory_types;
};

// InvalidArgument when a node has no assigned device, or an output's dtype cannot be determined
// (an unknown op feeding another device).
absl::StatusOr<std::map<std::string, Graph>> Partition(const Graph& graph,
                                                       const PartitionOptions& options);

}  // namespace rill

#endif  // RILL_GRAPH_PARTITION_H_
