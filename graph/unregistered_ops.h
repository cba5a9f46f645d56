// Rill. The error for a graph that uses ops Rill does not register: TensorFlow's NotFound text for
// the op that stopped the work, followed by every op of the graph that is not registered, so that
// a user learns of all of them from one run instead of one per attempt.
//
//   NotFound "Op type not registered 'Foo' in binary running on Rill. Make sure the Op and Kernel
//   are registered in the binary running in this process. The graph uses 2 ops Rill does not
//   register: Bar (1 node), Foo (2 nodes)."
#ifndef RILL_GRAPH_UNREGISTERED_OPS_H_
#define RILL_GRAPH_UNREGISTERED_OPS_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "graph/graph.h"

namespace rill {

// The error for `op` (not registered) in `graph`, listing every unregistered op of `graph` with
// its node count, sorted by name.
absl::Status UnregisteredOpError(const Graph& graph, absl::string_view op);

}  // namespace rill

#endif  // RILL_GRAPH_UNREGISTERED_OPS_H_
