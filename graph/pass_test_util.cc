#include "graph/pass_test_util.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "graph/graph_def_import.h"
#include "gtest/gtest.h"

namespace rill {

std::unique_ptr<Graph> ImportForPassTest(const Scope& root, const std::string& device) {
  EXPECT_THAT(root.status(), IsOk());
  absl::StatusOr<std::unique_ptr<Graph>> g = ImportGraphDef(*root.ToGraphDef());
  EXPECT_THAT(g.status(), IsOk());
  if (!g.ok()) return std::make_unique<Graph>();
  if (!device.empty()) {
    for (Node* n : (*g)->op_nodes()) n->set_assigned_device_name(device);
  }
  return *std::move(g);
}

std::vector<std::string> InputsOf(const Graph& g, const std::string& name) {
  std::vector<std::string> in;
  const Node* n = g.FindNode(name);
  if (n == nullptr) return {"<no node " + name + ">"};
  for (const Edge* e : n->in_edges()) {
    if (!e->src()->IsOp()) continue;
    in.push_back(e->IsControlEdge() ? "^" + e->src()->name()
                                    : absl::StrCat(e->src()->name(), ":", e->src_output()));
  }
  return in;
}

}  // namespace rill
