// Resources a worker session keeps to itself. All sessions on one server share its device's
// ResourceMgr; as in TensorFlow, a resource op without a shared_name makes a resource private to
// the session that runs it when TensorFlow's kernel gives it a unique name:
//   Iterator, IteratorV2                   (always)
//   HashTableV2, MutableHashTableV2        (unless use_node_name_sharing)
// Variables (VariableV2, VarHandleOp) are named by their node and shared by every session on the
// server, TensorFlow's between-graph replication; TensorArrays and stacks live for one step.
//
// PrivatizeResourceNames gives each such node of `graph`, a partition registered by session
// `handle`, the shared_name "_<handle>_<node name>" (one resource per node per session, whichever
// partitions name it) and returns the (container, name) pairs it gave, which the worker deletes
// with the session. When it returns any, `*privatized` is `graph` with those names (otherwise it
// is left alone: most partitions are not copied). An empty handle (a master that did not call
// CreateWorkerSession) names nothing.
#ifndef RILL_DISTRIBUTED_SESSION_RESOURCES_H_
#define RILL_DISTRIBUTED_SESSION_RESOURCES_H_

#include <string>
#include <utility>
#include <vector>

#include "proto/graph.pb.h"

namespace rill {
namespace distributed {

std::vector<std::pair<std::string, std::string>> PrivatizeResourceNames(const std::string& handle,
                                                                        const GraphDef& graph,
                                                                        GraphDef* privatized);

}  // namespace distributed
}  // namespace rill

#endif  // RILL_DISTRIBUTED_SESSION_RESOURCES_H_
