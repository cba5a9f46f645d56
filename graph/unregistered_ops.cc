#include "graph/unregistered_ops.h"

#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "ops/op_registry.h"

namespace rill {

absl::Status UnregisteredOpError(const Graph& graph, absl::string_view op) {
  const absl::Status first = OpRegistry::Global()->LookUpOrError(op).status();
  std::map<std::string, int> counts;  // sorted by op name
  for (const Node* node : graph.op_nodes()) {
    if (node->is_unknown_op()) ++counts[node->op()];
  }
  if (counts.empty()) return first;
  std::vector<std::string> parts;
  for (const auto& [name, count] : counts) {
    parts.push_back(absl::StrCat(name, " (", count, count == 1 ? " node)" : " nodes)"));
  }
  return absl::Status(first.code(),
                      absl::StrCat(first.message(), " The graph uses ", counts.size(),
                                   counts.size() == 1 ? " op" : " ops",
                                   " Rill does not register: ", absl::StrJoin(parts, ", "), "."));
}

}  // namespace rill
