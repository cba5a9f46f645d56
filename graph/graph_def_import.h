// GraphDef -> Graph, validating as TensorFlow's importer does.
//
//   RILL_ASSIGN_OR_RETURN(std::unique_ptr<Graph> g, ImportGraphDef(graph_def, {}));
//
// Checks, in this order; the first failure is returned, InvalidArgument naming the node:
//   1. node names: empty, invalid characters (TensorFlow's node-name rule, '_' allowed first),
//      duplicates ("Node 'x' is not unique");
//   2. per node: a malformed device string ("Node 'x': Malformed device specification '...'";
//      skipped with clear_devices), control inputs listed before data inputs, and for a known op,
//      after attr defaults are filled from the op registry, ValidateNodeDef's checks: attrs
//      missing, of the wrong kind, not allowed, and the number of data inputs;
//   3. inputs (`name`, `name:3`, `^name`): a malformed input string, a missing node ("Node 'x':
//      Unknown input node 'y:1'"), an out-of-range output ("Node 'x': Connecting to invalid output
//      3 of source node y which has 1 outputs."), a dtype mismatch ("Input 0 of node x was passed
//      float from y:0 incompatible with expected int32."; a ref output may feed a non-ref input
//      of the same base type, a non-ref output never feeds a ref input);
//   4. cycles whose edges do not pass through a NextIteration (or RefNextIteration) node: "Graph
//      has a cycle that does not pass through NextIteration: a -> b -> a (2 nodes in a cycle...)"
//      (TopologicalOrder in graph.h);
//   5. with infer_shapes, each known op's shape function in topological order; unknown
//      dimensions are never an error, a contradiction between known ones is (the shape
//      function's InvalidArgument, naming the node).
// GraphDef versions: when versions.producer <= 21 (also when `versions` is absent), a
// Placeholder's scalar `shape {}` means unknown shape and the attr is rewritten to unknown_rank,
// as TensorFlow reads such graphs.
// Unknown ops (not in the op registry) are kept, with no dtype checks on their edges and as many
// outputs as the largest output index their consumers use; they fail only the runs that need them.
// versions, the deprecated version field, library and debug_info are kept verbatim.
// Pure function; thread-safe (reads the op registry).
#ifndef RILL_GRAPH_GRAPH_DEF_IMPORT_H_
#define RILL_GRAPH_GRAPH_DEF_IMPORT_H_

#include <memory>

#include "absl/status/statusor.h"
#include "graph/graph.h"
#include "proto/graph.pb.h"

namespace rill {

struct ImportOptions {
  // Drop every node's device request (as TensorFlow's clear_devices: saved graphs carry the
  // devices of the machine they were saved on).
  bool clear_devices = false;
  // Run shape inference and store each node's output shapes (Node::output_shapes()).
  bool infer_shapes = true;
};

absl::StatusOr<std::unique_ptr<Graph>> ImportGraphDef(const GraphDef& graph_def,
                                                      const ImportOptions& options = {});
// The same, moving the NodeDefs, library and debug_info out of `graph_def` instead of copying
// them (a frozen model's weights are not held twice); `graph_def` is left unspecified.
absl::StatusOr<std::unique_ptr<Graph>> ImportGraphDef(GraphDef&& graph_def,
                                                      const ImportOptions& options = {});

// Import's checks 4 and 5 on a Graph: TopologicalOrder's cycle check, then each known op's shape
// function in that order, storing every op node's output shapes (unknown ops: unknown shapes).
// Shapes stored before are cleared first and every node's are computed afresh, so on an imported
// graph it reproduces import's shapes exactly, and after a rewrite (function lowering) it gives
// the shapes an import of the rewritten graph would. Errors as import's, naming the node.
absl::Status InferShapes(Graph* graph);

// TensorFlow's node-name rule: [A-Za-z0-9._][A-Za-z0-9_./-]*, then any number of
// '>' [A-Za-z0-9.][A-Za-z0-9_./-]* pieces.
bool IsValidNodeName(absl::string_view name);

}  // namespace rill

#endif  // RILL_GRAPH_GRAPH_DEF_IMPORT_H_
