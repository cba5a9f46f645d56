// Text about placement: TensorFlow's log_device_placement output (spec §3) and Rill's own
// explanation of every node's device.
//
//   DeviceMappingText(devices)        "Device mapping:\n<name> -> <desc>\n" for devices with a
//                                     physical description, or "Device mapping: no known devices.\n"
//   PlacementLogLines(graph, p)       "MatMul: (MatMul): /job:localhost/replica:0/task:0/device:CPU:0\n"
//                                     per node, in TensorFlow's order (generators last)
//   ExplainPlacement(graph, p, max)   "MatMul (MatMul) -> /job:...:CPU:0: <reason>\n" per node, capped at
//                                     `max` lines on big graphs (< 0: no cap), then a per-device summary
//                                     (nodes per device, data edges crossing devices)
// Pure functions; thread-safe.
#ifndef RILL_SESSION_PLACEMENT_LOG_H_
#define RILL_SESSION_PLACEMENT_LOG_H_

#include <string>
#include <vector>

#include "proto/device_attributes.pb.h"
#include "proto/graph.pb.h"
#include "session/placer.h"

namespace rill {

std::string DeviceMappingText(const std::vector<DeviceAttributes>& devices);
std::string PlacementLogLines(const GraphDef& graph, const Placement& placement);
std::string ExplainPlacement(const GraphDef& graph, const Placement& placement, int max_nodes);

}  // namespace rill

#endif  // RILL_SESSION_PLACEMENT_LOG_H_
