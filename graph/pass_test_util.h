// Helpers the graph passes' unit tests share (testonly): a builder graph imported for a pass, and
// a node's inputs as text to compare.
#ifndef RILL_GRAPH_PASS_TEST_UTIL_H_
#define RILL_GRAPH_PASS_TEST_UTIL_H_

#include <memory>
#include <string>
#include <vector>

#include "graph/builder/ops.h"
#include "graph/graph.h"

namespace rill {

// The graph of `root` (a failed build or import fails the calling test), every op node placed on
// `device` unless it is empty.
std::unique_ptr<Graph> ImportForPassTest(const Scope& root, const std::string& device);

// "src:i" per data input and "^src" per control input of the node named `name` (SOURCE left
// out), or {"<no node NAME>"}.
std::vector<std::string> InputsOf(const Graph& g, const std::string& name);

}  // namespace rill

#endif  // RILL_GRAPH_PASS_TEST_UTIL_H_
