// Validates a GraphDef as TensorFlow's importer does and returns it with attr defaults filled:
//   - duplicate node names;
//   - inputs naming missing nodes or out-of-range outputs ("name", "name:3", "^name" forms);
//   - producer/consumer dtype mismatch (a ref output may feed a non-ref input, never the reverse):
//     "Input 0 of node X was passed float from Y:0 incompatible with expected int32.";
//   - attrs missing, of the wrong kind, or not allowed (after defaults from the op registry);
//   - malformed device strings;
//   - cycles that do not pass through NextIteration.
// GraphDef versions: producer <= 21 makes a Placeholder's scalar `shape {}` mean unknown shape.
// Unknown ops are kept (their edges' dtype checks skipped) so runs that never touch them work.
// Every error is InvalidArgument naming the node. Pure function; thread-safe.
#ifndef RILL_GRAPH_GRAPH_VALIDATION_H_
#define RILL_GRAPH_GRAPH_VALIDATION_H_

#include "absl/status/statusor.h"
#include "proto/graph.pb.h"

namespace rill {

struct ValidationOptions {
  bool clear_devices = false;  // drop every device request (as TensorFlow's clear_devices)
};

absl::StatusOr<GraphDef> ValidateGraphDef(const GraphDef& graph,
                                          const ValidationOptions& options = {});

}  // namespace rill

#endif  // RILL_GRAPH_GRAPH_VALIDATION_H_
