#include "graph/loop_frame.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "graph/builder/ops.h"
#include "graph/graph.h"
#include "graph/pass_queries.h"
#include "graph/pass_test_util.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

constexpr char kCpu[] = "/job:localhost/replica:0/task:0/device:CPU:0";
constexpr char kGpu[] = "/job:localhost/replica:0/task:0/device:GPU:0";

// i < n: i += 1, acc = acc * w; i and acc read after the loop.
Scope CountingLoop(bool in_branch) {
  Scope root = Scope::NewRootScope();
  Output n = ops::Placeholder(root.WithOpName("n"), DT_INT32);
  Output w = ops::Placeholder(root.WithOpName("w"), DT_FLOAT);
  if (in_branch) {
    w = ops::Switch(root.WithOpName("branch"), w, ops::Placeholder(root.WithOpName("p"), DT_BOOL))
            .output_true;
  }
  std::vector<Output> out = ops::WhileLoop(
      root.NewSubScope("while"), {ops::Const(root, 0), ops::Const(root, 1.f)},
      [&](const Scope& s, const std::vector<Output>& v) { return ops::Less(s, v[0], v[2]); },
      [&](const Scope& s, const std::vector<Output>& v) {
        return std::vector<Output>{ops::Add(s, v[0], ops::Const(s, 1)),
                                   ops::Mul(s.WithOpName("mul"), v[1], v[3])};
      },
      ops::WhileLoopAttrs().Invariants({n, w}));
  ops::Identity(root.WithOpName("i"), out[0]);
  ops::Identity(root.WithOpName("acc"), out[1]);
  return root;
}

std::optional<LoopFrame> Match(Graph& g) {
  Node* cond = nullptr;
  for (Node* n : g.op_nodes()) {
    if (n->op() == "LoopCond") cond = n;
  }
  if (cond == nullptr) return std::nullopt;
  auto order = TopologicalOrder(g);
  if (!order.ok()) return std::nullopt;
  return MatchLoopFrame(cond, CollectEnters(g), NeverDeadNodes(g, *order), 400);
}

TEST(LoopFrameTest, FindsTheVariablesAndTheirExits) {
  std::unique_ptr<Graph> g = ImportForPassTest(CountingLoop(false), kCpu);
  std::optional<LoopFrame> f = Match(*g);
  ASSERT_TRUE(f.has_value());
  ASSERT_EQ(f->vars.size(), 2u);
  for (const LoopVar& v : f->vars) {
    EXPECT_EQ(v.enter->op(), "Enter");
    EXPECT_FALSE(IsConstantEnter(*v.enter));
    EXPECT_EQ(v.merge->op(), "Merge");
    EXPECT_EQ(v.sw->op(), "Switch");
    EXPECT_EQ(v.next->op(), "NextIteration");
    ASSERT_NE(v.exit, nullptr);
    EXPECT_EQ(f->var_of_merge.at(v.merge), &v - f->vars.data());
  }
  int constants = 0;
  for (const Node* n : f->nodes) constants += IsConstantEnter(*n);
  EXPECT_EQ(constants, 2);  // n and w
}

TEST(LoopFrameTest, RefusesInputsThatMayBeDeadAndOtherDevices) {
  std::unique_ptr<Graph> dead = ImportForPassTest(CountingLoop(true), kCpu);
  EXPECT_FALSE(Match(*dead).has_value());
  std::unique_ptr<Graph> g = ImportForPassTest(CountingLoop(false), kCpu);
  Node* mul = g->FindNode("while/mul");
  ASSERT_NE(mul, nullptr);
  mul->set_assigned_device_name(kGpu);
  EXPECT_FALSE(Match(*g).has_value());
  mul->set_assigned_device_name(kCpu);
  EXPECT_TRUE(Match(*g).has_value());
}

// A node reading a body value belongs to the frame (as in TensorFlow, which places it there): the
// caller sees it among the frame's nodes.
TEST(LoopFrameTest, AReaderOfABodyValueIsAFrameNode) {
  std::unique_ptr<Graph> g = ImportForPassTest(CountingLoop(false), kCpu);
  Node* mul = g->FindNode("while/mul");
  ASSERT_NE(mul, nullptr);
  NodeDef def;
  def.set_name("reader");
  def.set_op("Identity");
  (*def.mutable_attr())["T"].set_type(DT_FLOAT);
  auto reader = g->AddNode(def);
  ASSERT_THAT(reader.status(), IsOk());
  (*reader)->set_assigned_device_name(kCpu);
  ASSERT_THAT(g->AddEdge(mul, 0, *reader, 0).status(), IsOk());
  std::optional<LoopFrame> f = Match(*g);
  ASSERT_TRUE(f.has_value());
  EXPECT_THAT(f->nodes, ::testing::Contains(*reader));
}

TEST(LoopFrameTest, RefusesAFrameLargerThanTheLimit) {
  std::unique_ptr<Graph> g = ImportForPassTest(CountingLoop(false), kCpu);
  Node* cond = nullptr;
  for (Node* n : g->op_nodes()) {
    if (n->op() == "LoopCond") cond = n;
  }
  ASSERT_NE(cond, nullptr);
  auto order = TopologicalOrder(*g);
  ASSERT_TRUE(order.ok());
  EXPECT_FALSE(MatchLoopFrame(cond, CollectEnters(*g), NeverDeadNodes(*g, *order), 5).has_value());
}

}  // namespace
}  // namespace rill
