// Validates a GraphDef as TensorFlow's importer does and returns it with attr defaults filled: a
// GraphDef-in, GraphDef-out wrapper over ImportGraphDef + ExportGraphDef for callers that work on
// GraphDefs (see graph_def_import.h for every check and its message). Inputs come back in
// canonical spelling ("a" for "a:0"; duplicate control inputs dropped). Every error is
// InvalidArgument naming the node. Pure function; thread-safe.
#ifndef RILL_GRAPH_GRAPH_VALIDATION_H_
#define RILL_GRAPH_GRAPH_VALIDATION_H_

#include "absl/status/statusor.h"
#include "proto/graph.pb.h"

namespace rill {

struct ValidationOptions {
  bool clear_devices = false;  // drop every device request (as TensorFlow's clear_devices)
  bool infer_shapes = true;    // also fail on a contradiction between known shapes
};

absl::StatusOr<GraphDef> ValidateGraphDef(const GraphDef& graph,
                                          const ValidationOptions& options = {});

}  // namespace rill

#endif  // RILL_GRAPH_GRAPH_VALIDATION_H_
