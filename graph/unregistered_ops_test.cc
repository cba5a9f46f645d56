#include "graph/unregistered_ops.h"

#include <memory>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "graph/graph_def_import.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

std::unique_ptr<Graph> Import(const char* text) {
  GraphDef def;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &def));
  absl::StatusOr<std::unique_ptr<Graph>> graph = ImportGraphDef(def, ImportOptions());
  EXPECT_THAT(graph.status(), IsOk());
  return *std::move(graph);
}

TEST(UnregisteredOpsTest, NamesTheOpThenEveryUnregisteredOpOfTheGraph) {
  std::unique_ptr<Graph> graph = Import(R"pb(
    node { name: "a" op: "FooOp" }
    node { name: "b" op: "BarOp" }
    node { name: "c" op: "FooOp" }
    node { name: "d" op: "NoOp" }
  )pb");
  EXPECT_THAT(UnregisteredOpError(*graph, "FooOp"),
              StatusIs(absl::StatusCode::kNotFound,
                       "Op type not registered 'FooOp' in binary running on Rill. Make sure the "
                       "Op and Kernel are registered in the binary running in this process. The "
                       "graph uses 2 ops Rill does not register: BarOp (1 node), FooOp (2 "
                       "nodes)."));
}

TEST(UnregisteredOpsTest, OneUnregisteredOp) {
  std::unique_ptr<Graph> graph = Import(R"pb(node { name: "a" op: "FooOp" })pb");
  EXPECT_THAT(UnregisteredOpError(*graph, "FooOp"),
              StatusIs(absl::StatusCode::kNotFound,
                       ::testing::EndsWith("The graph uses 1 op Rill does not register: FooOp (1 "
                                           "node).")));
}

}  // namespace
}  // namespace rill
