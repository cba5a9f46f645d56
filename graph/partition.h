// Partition: cuts a placed graph into one GraphDef per device and joins the pieces with
// _Send/_Recv pairs, following TensorFlow's graph_partition.cc (spec §4.2):
//   - a data edge between devices becomes `_Send` on the producer's device and `_Recv` on the
//     consumer's, with TensorFlow's attrs (T / tensor_type, tensor_name "edge_<id>_<src>",
//     send_device, send_device_incarnation, recv_device, client_terminated=false);
//   - one pair per (tensor, destination device), shared by every consumer there (never for ref
//     outputs, which are sent once per edge);
//   - a control edge between devices is carried by a dummy DT_FLOAT [0] Const "<src>/ctrl/_N" sent
//     across and an Identity "<src>/_N" on the destination that the consumer depends on;
//   - new nodes are named "<src>/_<counter>".
// Works on GraphDefs (the placed graph is a GraphDef plus a node-name -> device map), so the
// result is directly what RunMetadata.partition_graphs shows. Pure function; thread-safe.
//
//   PartitionOptions opts; opts.device_of = [&](const NodeDef& n) { return placement.at(n.name()); };
//   RILL_ASSIGN_OR_RETURN(auto parts, Partition(graph, opts));   // device name -> GraphDef
#ifndef RILL_GRAPH_PARTITION_H_
#define RILL_GRAPH_PARTITION_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>

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
};

// InvalidArgument when a node has no device, an input names a missing node ("Incomplete graph,
// missing input ..."), or an output's dtype cannot be determined (unknown op feeding another
// device).
absl::StatusOr<std::map<std::string, GraphDef>> Partition(const GraphDef& graph,
                                                          const PartitionOptions& options);

}  // namespace rill

#endif  // RILL_GRAPH_PARTITION_H_
