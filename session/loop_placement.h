// Keeping each while loop on one device. Rill's executor runs a TF1 while loop only when all of
// its nodes are in one partition (TensorFlow's per-device control loops for a body split across
// devices are not built yet; session/executor/node_items.cc refuses such a partition, and a
// transfer between host and device memory inside a loop). So after placement, an outermost loop
// (its Enter nodes and every node of its frame, nested loops included) whose nodes landed on
// several devices, or on one GPU with an edge between host and device memory (a float
// comparison's device bool into LoopCond's host input), moves wholly to the CPU, when it can:
// every node has a CPU kernel, none was requested on a device, and none takes a reference or
// resource input (colocated with its producer). Loops that cannot move keep their placement, and
// their runs report the split. Generators that followed their consumers (a loop's weights before
// its Enters) follow them to the CPU. A loop whose every node has a GPU kernel and whose every
// tensor stays in one memory stays on the GPU: a Keras LSTM's does (TensorList kernels with host
// handles and device elements, host-memory int32 counters and condition bools; docs/gpu.md, "While
// loops").
//
//   RILL_ASSIGN_OR_RETURN(std::vector<std::string> moved,
//                         KeepLoopsOnOneDevice(*graph, kernels, &placement));
//
// A function of its arguments and of KernelRegistry::Global()'s memory types; thread-compatible.
#ifndef RILL_SESSION_LOOP_PLACEMENT_H_
#define RILL_SESSION_LOOP_PLACEMENT_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "graph/graph.h"
#include "kernels/framework/kernel_registry.h"
#include "session/placer.h"

namespace rill {

// Moves split loops to the first CPU device of `placement->devices` (full names; see above),
// rewriting each moved node's device and reason ("while loop 'F' on the CPU: its nodes were
// placed on several devices, and a loop runs on one device"). Returns the frame names of the
// loops moved, in graph order. InvalidArgument when an Enter has no frame_name.
absl::StatusOr<std::vector<std::string>> KeepLoopsOnOneDevice(const Graph& graph,
                                                              const KernelAvailability& kernels,
                                                              Placement* placement);

}  // namespace rill

#endif  // RILL_SESSION_LOOP_PLACEMENT_H_
