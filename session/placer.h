// The placer: chooses a device for every node of a validated GraphDef, following TensorFlow's
// rules (spec §2), and records the rule that chose each device, which TensorFlow never tells.
//
//   RILL_ASSIGN_OR_RETURN(Placement p, Place(graph, device_names, *KernelRegistry::Global(),
//                                              options));
//   p.nodes.at("MatMul").device;   // "/job:localhost/replica:0/task:0/device:CPU:0"
//   p.nodes.at("MatMul").reason;   // "default: highest-priority device with a kernel (GPU > CPU)"
//
// Rules, in order: colocation groups from `_class: loc:@x` and from reference/resource edges (the
// destination joins the source's group, and a conflicting request of the destination is
// overridden by the source's); requests merged per group; kernel availability per device type per
// NodeDef (type constraints matter); candidates sorted GPU > CPU, then by name; soft placement
// (missing device or no kernel there -> best device with a kernel); generators (no inputs, one
// non-ref output, no request) follow their consumers when those agree; stateful nodes keep the
// device they had in `previous`. Nodes whose op is not registered are left unplaced (device "")
// and fail only the runs that need them.
//
// Errors (InvalidArgument, TensorFlow's texts, spec §2.5, then one "Rill:" line saying what to
// change): "Cannot assign a device for operation X: {{node X}} was explicitly assigned to D but
// available devices are [ ... ]. Make sure the device specification refers to a valid device.",
// "...Could not satisfy explicit device specification 'D' because no supported kernel for GPU
// devices is available.", "Cannot colocate nodes ...", TensorFlow's "No OpKernel was registered"
// for a node no device can run, "Malformed device specification"; FailedPrecondition "No devices
// are registered" for an empty device list. Pure function; thread-safe.
#ifndef RILL_SESSION_PLACER_H_
#define RILL_SESSION_PLACER_H_

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "kernels/kernel_registry.h"
#include "proto/graph.pb.h"

namespace rill {

struct PlacerOptions {
  bool allow_soft_placement = false;
};

struct NodePlacement {
  std::string device;  // full device name; empty when the op is unknown
  std::string reason;  // the rule that chose it, one line
};

struct Placement {
  std::map<std::string, NodePlacement> nodes;  // by node name
  std::vector<std::string> order;              // TensorFlow's log order (generators last)
};

absl::StatusOr<Placement> Place(const GraphDef& graph, const std::vector<std::string>& devices,
                                const KernelAvailability& kernels, const PlacerOptions& options,
                                const Placement* previous = nullptr);

}  // namespace rill

#endif  // RILL_SESSION_PLACER_H_
