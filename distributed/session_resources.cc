#include "distributed/session_resources.h"

#include "absl/strings/str_cat.h"

namespace rill {
namespace distributed {
namespace {

// The container a resource kernel uses when its attr is empty (kernels/state/variable.h).
constexpr char kDefaultContainer[] = "localhost";

bool PrivateByDefault(const NodeDef& node) {
  const std::string& op = node.op();
  if (op == "Iterator" || op == "IteratorV2") return true;
  if (op == "HashTableV2" || op == "MutableHashTableV2") {
    auto it = node.attr().find("use_node_name_sharing");
    return it == node.attr().end() || !it->second.b();
  }
  return false;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> PrivatizeResourceNames(const std::string& handle,
                                                                        const GraphDef& graph,
                                                                        GraphDef* privatized) {
  std::vector<std::pair<std::string, std::string>> named;
  if (handle.empty()) return named;
  for (int i = 0; i < graph.node_size(); ++i) {
    const NodeDef& node = graph.node(i);
    if (!PrivateByDefault(node)) continue;
    auto shared = node.attr().find("shared_name");
    if (shared != node.attr().end() && !shared->second.s().empty()) continue;
    if (named.empty()) *privatized = graph;
    const std::string name = absl::StrCat("_", handle, "_", node.name());
    (*privatized->mutable_node(i)->mutable_attr())["shared_name"].set_s(name);
    auto container = node.attr().find("container");
    named.emplace_back(container == node.attr().end() || container->second.s().empty()
                           ? kDefaultContainer
                           : container->second.s(),
                       name);
  }
  return named;
}

}  // namespace distributed
}  // namespace rill
