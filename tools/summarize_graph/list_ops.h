// ListRegisteredOps: every public op Rill registers, one per line, with the device types that have
// a kernel for it, as `summarize_graph --list_ops` prints them:
//
//   Conv2D CPU,GPU
//   DecodeBase64 CPU
//
// Sorted by op name; device types sorted with CPU first; an op without any kernel (none ship so)
// would show "-". Functional ops the session lowers or inlines (If, StatelessIf, Case,
// StatelessCase, While, StatelessWhile, PartitionedCall, StatefulPartitionedCall) are listed with
// Switch's device types.
// Reads the op and kernel registries; thread-safe.
#ifndef RILL_TOOLS_SUMMARIZE_GRAPH_LIST_OPS_H_
#define RILL_TOOLS_SUMMARIZE_GRAPH_LIST_OPS_H_

#include <string>

namespace rill {

std::string ListRegisteredOps();

}  // namespace rill

#endif  // RILL_TOOLS_SUMMARIZE_GRAPH_LIST_OPS_H_
