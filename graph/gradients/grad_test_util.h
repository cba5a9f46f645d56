// Helpers the gradient unit tests share: run the graph a Scope built and read float results.
#ifndef RILL_GRAPH_GRADIENTS_GRAD_TEST_UTIL_H_
#define RILL_GRAPH_GRADIENTS_GRAD_TEST_UTIL_H_

#include <string>
#include <utility>
#include <vector>

#include "core/tensor.h"
#include "graph/builder/scope.h"

namespace rill {
namespace grad_test {

using Feeds = std::vector<std::pair<std::string, Tensor>>;

// Runs the graph built so far in a new Session and fetches `fetches`; a gtest failure (and an
// empty result) when building or running fails.
std::vector<Tensor> RunGraph(const Scope& root, const std::vector<Output>& fetches,
                             const Feeds& feeds = {});
// The elements of a float tensor.
std::vector<float> Values(const Tensor& t);
// The float elements of one fetch ({} on failure).
std::vector<float> RunFetch(const Scope& root, const Output& fetch, const Feeds& feeds = {});
// The float elements of dy/dx by AddSymbolicGradients ({} on failure or no gradient).
std::vector<float> GradOf(const Scope& root, const Output& y, const Output& x);

}  // namespace grad_test
}  // namespace rill

#endif  // RILL_GRAPH_GRADIENTS_GRAD_TEST_UTIL_H_
