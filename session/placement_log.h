// Text about placement: TensorFlow's log_device_placement output (tf_runtime_spec.md §3) and
// Rill's own explanation of every node's device, which TensorFlow lacks.
//
//   std::fputs(DeviceMappingText(attributes).c_str(), stdout);       // at session creation
//   std::fputs(PlacementLogLines(graph, placement).c_str(), stdout);  // after placement
//   std::cout << ExplainPlacement(graph, placement);                  // session_runner
//
// Thread safety: pure functions of their arguments.
#ifndef RILL_SESSION_PLACEMENT_LOG_H_
#define RILL_SESSION_PLACEMENT_LOG_H_

#include <string>
#include <vector>

#include "graph/graph.h"
#include "proto/device_attributes.pb.h"
#include "session/placer.h"

namespace rill {

// TensorFlow's "Device mapping:" block: "Device mapping:\n" then "<name> -> <desc>\n" for each
// device (in the given order) whose physical_device_desc is not empty (CPUs have none), or
// "Device mapping: no known devices.\n" when no device has one. A GPU's description reads
// "device: 0, name: NVIDIA H100, pci bus id: 0000:05:00.0, compute capability: 9.0".
std::string DeviceMappingText(const std::vector<DeviceAttributes>& devices);

// TensorFlow's placement lines, "name: (Op): /job:localhost/replica:0/task:0/device:CPU:0\n",
// one per placed node in `placement.order` (first-pass nodes in graph order, then the deferred
// generators). Unplaced nodes, and ids `graph` does not have, are not logged. `graph` is the
// placed graph (the placement is by its node ids); it supplies the names and ops.
std::string PlacementLogLines(const Graph& graph, const Placement& placement);

// Rill's explanation: "NAME (OP) -> DEVICE: reason\n" per op node in graph order (node-id order;
// DEVICE is "(unplaced)" for an unknown op), then a per-device summary: nodes per device and the
// number of data edges whose ends are on different devices, in all and per device pair.
//
// When the graph has more than `max_nodes` nodes (and max_nodes >= 0) only `max_nodes` lines are
// listed: first the nodes named in `always_show`, then the surprising ones (soft placement,
// overridden requests), then the rest in graph order; a line then says how many were left out
// and how to list them all (max_nodes = -1; session_runner --explain_all). Nodes named in
// `always_show` are listed even beyond the cap.
std::string ExplainPlacement(const Graph& graph, const Placement& placement, int max_nodes = 200,
                             const std::vector<std::string>& always_show = {});

}  // namespace rill

#endif  // RILL_SESSION_PLACEMENT_LOG_H_
