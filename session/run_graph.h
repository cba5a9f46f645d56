// Rewrites a session's graph for one Run signature, as TensorFlow's
// subgraph::RewriteGraphForExecution does with the function convention (spec §5.2):
//   - each fed tensor "n:i" becomes an _Arg node "_arg_n_i_k" (k = its position in the sorted feed
//     list) and every consumer of n:i reads it instead;
//   - each distinct fetch becomes a _Retval node "_retval_n_i_k" (k = its position in the
//     distinct fetch list);
//   - the graph is pruned to what the fetches and targets need.
// The result is a copy of the session's Graph: kept nodes keep their ids, properties and assigned
// devices; the _Arg and _Retval nodes are assigned `client_device`. Linear in the graph's size.
// Errors use TensorFlow's texts: NotFound "FeedInputs: unable to find feed output x:0",
// "FetchOutputs node x:0: not found", "PruneForTargets: Some target nodes not found: t ";
// InvalidArgument "Must specify at least one target to fetch or execute.", "Endpoint "x:0" fed
// more than once.", "x:0 is both fed and fetched.", output index out of range, and fetching a
// node without outputs; NotFound "Op type not registered ..." for feeding or fetching a node whose
// op is unknown. Pure function; thread-safe.
#ifndef RILL_SESSION_RUN_GRAPH_H_
#define RILL_SESSION_RUN_GRAPH_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/partial_tensor_shape.h"
#include "graph/graph.h"
#include "proto/types.pb.h"

namespace rill {

// "x" -> "x:0"; "x:2" unchanged.
std::string CanonicalTensorName(const std::string& name);

struct RunGraph {
  Graph graph;                         // pruned, with _Arg/_Retval nodes
  std::vector<std::string> feeds;      // canonical names, sorted; _Arg index = position
  std::vector<DataType> feed_types;    // dtype each feed must have
  std::vector<std::string> fetches;    // distinct canonical names; _Retval index = position
  std::vector<std::string> arg_nodes;  // node names of the _Arg nodes, by index
  std::vector<std::string> retval_nodes;
};

absl::StatusOr<RunGraph> BuildRunGraph(const Graph& graph, const std::vector<std::string>& feeds,
                                       const std::vector<std::string>& fetches,
                                       const std::vector<std::string>& targets,
                                       const std::string& client_device = "");

// The shape each of `run.feeds` must have: the `shape` attr of a fed Placeholder of `graph`,
// unknown for other fed tensors (the feed shape check of local and cluster sessions).
std::vector<PartialTensorShape> DeclaredFeedShapes(const Graph& graph, const RunGraph& run);

// OK when every node of `run.graph` has an assigned device; else the op registry's NotFound for
// an op it does not know (the first time an unknown op is reported), or Internal "Node x was not
// placed".
absl::Status CheckEveryNodePlaced(const RunGraph& run);

}  // namespace rill

#endif  // RILL_SESSION_RUN_GRAPH_H_
