// The committed graphs/*.pbtxt are what //examples:build_seed_graphs writes (rerun it after
// changing seed_graphs.cc), and parse back to the graphs built.
#include "examples/seed_graphs.h"

#include <fstream>
#include <sstream>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "google/protobuf/util/message_differencer.h"
#include "graph/builder/ops.h"
#include "gtest/gtest.h"

namespace rill {
namespace examples {
namespace {

using ::testing::ElementsAre;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(SeedGraphsTest, CommittedFilesAreWhatTheBuilderWrites) {
  ASSERT_EQ(SeedGraphs().size(), 8u);
  for (const SeedGraph& seed : SeedGraphs()) {
    SCOPED_TRACE(seed.name);
    RILL_ASSERT_OK_AND_ASSIGN(GraphDef built, seed.build());
    const std::string path = "examples/graphs/" + seed.name + ".pbtxt";
    EXPECT_EQ(ReadFile(path), FormatGraphDef(built))
        << path << " is stale: run `bazel run //examples:build_seed_graphs`";
    GraphDef read;
    ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(ReadFile(path), &read));
    EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(read, built));
  }
}

TEST(SeedGraphsTest, FormatGraphDefKeepsEveryField) {
  GraphDef g;
  NodeDef* n = g.add_node();
  n->set_name("a\"b");
  n->set_op("NoOp");
  n->mutable_experimental_debug_info()->add_original_node_names("x");
  g.mutable_versions()->set_producer(1087);
  const std::string text = FormatGraphDef(g);
  GraphDef back;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &back)) << text;
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(back, g)) << text;
}

TEST(SeedGraphsTest, AssignToDeviceIsSeed004sFunction) {
  DeviceFunction f = AssignToDevice("/device:GPU:0");
  NodeDef n;
  for (const char* op : {"Variable", "VariableV2", "AutoReloadVariable"}) {
    n.set_op(op);
    EXPECT_EQ(f(n), "/device:CPU:0") << op;
  }
  n.set_op("Sin");
  EXPECT_EQ(f(n), "/device:GPU:0");
  EXPECT_EQ(AssignToDevice("/gpu:1", "/cpu:2")(n), "/gpu:1");
}

TEST(SeedGraphsTest, RefVariableBuildsWhatTfVariableBuilds) {
  Scope root = Scope::NewRootScope();
  Output existing = ops::Const(root.WithOpName("w"), 1.f);  // takes the name "w"
  RefVariable v = MakeRefVariable(root, "w", [](const Scope& s) {
    return ops::Const(s.WithOpName("initial_value"), {1.f, 2.f});
  });
  EXPECT_EQ(v.variable.node(), "w_1");
  EXPECT_EQ(v.initializer.node(), "w_1/Assign");
  EXPECT_EQ(v.snapshot.node(), "w_1/read");
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef g, root.ToGraphDef());
  std::vector<std::string> names;
  for (const NodeDef& node : g.node()) names.push_back(node.name());
  EXPECT_THAT(names, ElementsAre("w", "w_1/initial_value", "w_1", "w_1/Assign", "w_1/read"));
  EXPECT_EQ(g.node(2).attr().at("shape").shape().dim(0).size(), 2);
}

TEST(SeedGraphsTest, RefVariableReportsAFailedInitialValue) {
  Scope root = Scope::NewRootScope();
  RefVariable v = MakeRefVariable(root, "w", [](const Scope&) { return Output(); });
  EXPECT_FALSE(v.variable.valid());
  EXPECT_THAT(root.status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                      "Variable 'w': the initial value is an invalid Output"));
}

}  // namespace
}  // namespace examples
}  // namespace rill
