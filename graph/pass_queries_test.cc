#include "graph/pass_queries.h"

#include <memory>
#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "graph/builder/ops.h"
#include "graph/graph_def_import.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

std::unique_ptr<Graph> Import(const Scope& root) {
  EXPECT_THAT(root.status(), IsOk());
  absl::StatusOr<std::unique_ptr<Graph>> g = ImportGraphDef(*root.ToGraphDef());
  EXPECT_THAT(g.status(), IsOk());
  return *std::move(g);
}

const Node* Named(const Graph& g, const std::string& name) {
  for (const Node* n : g.op_nodes()) {
    if (n->name() == name) return n;
  }
  return nullptr;
}

TEST(PassQueriesTest, AttrDeviceAndDataReaders) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output a = ops::Add(root.WithOpName("a"), x, x);
  Output n = ops::Neg(root.WithOpName("n"), a);
  ops::Neg(root.WithOpName("m"), n);
  ops::Identity(root.WithOpName("i").WithControlDependencies({a}), x);
  std::unique_ptr<Graph> g = Import(root);
  Node* add = const_cast<Node*>(Named(*g, "a"));
  ASSERT_NE(add, nullptr);
  ASSERT_NE(NodeAttrOrNull(*add, "T"), nullptr);
  EXPECT_EQ(NodeAttrOrNull(*add, "T")->type(), DT_FLOAT);
  EXPECT_EQ(NodeAttrOrNull(*add, "missing"), nullptr);
  // x is read by a twice and by i; a by n, and by i through a control edge only.
  EXPECT_EQ(DataOutEdges(*Named(*g, "x")).size(), 3u);
  const std::vector<const Edge*> outs = DataOutEdges(*add);
  ASSERT_EQ(outs.size(), 1u);
  EXPECT_EQ(outs[0]->dst()->name(), "n");
  EXPECT_TRUE(IsFloatTyped(*add));
  EXPECT_FALSE(IsFloatTyped(*Named(*g, "x")));  // a Placeholder's type attr is dtype
  // a is read by n alone, but i waits on it; n is read by m alone.
  EXPECT_TRUE(HasControlOuts(*add));
  EXPECT_EQ(OnlyReader(*add), nullptr);
  EXPECT_FALSE(HasControlOuts(*Named(*g, "n")));
  ASSERT_NE(OnlyReader(*Named(*g, "n")), nullptr);
  EXPECT_EQ(OnlyReader(*Named(*g, "n"))->name(), "m");
  EXPECT_EQ(OnlyReader(*Named(*g, "x")), nullptr);  // read three times
  EXPECT_FALSE(AssignedToCpu(*add));                // not placed yet
  add->set_assigned_device_name("/job:localhost/replica:0/task:0/device:CPU:0");
  EXPECT_TRUE(AssignedToCpu(*add));
  add->set_assigned_device_name("/job:localhost/replica:0/task:0/device:GPU:0");
  EXPECT_FALSE(AssignedToCpu(*add));
}

TEST(PassQueriesTest, OutputsAfterControlFlowMayBeDead) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output p = ops::Placeholder(root.WithOpName("p"), DT_BOOL);
  Output before = ops::Neg(root.WithOpName("before"), x);
  ops::SwitchOutputs sw = ops::Switch(root.WithOpName("sw"), before, p);
  ops::Neg(root.WithOpName("after"), sw.output_true);
  ops::Add(root.WithOpName("mixed"), before, x);
  std::unique_ptr<Graph> g = Import(root);
  absl::StatusOr<std::vector<Node*>> order = TopologicalOrder(*g);
  ASSERT_THAT(order.status(), IsOk());
  const std::vector<char> never_dead = NeverDeadNodes(*g, *order);
  EXPECT_TRUE(never_dead[Named(*g, "x")->id()]);
  EXPECT_TRUE(never_dead[Named(*g, "before")->id()]);
  EXPECT_TRUE(never_dead[Named(*g, "mixed")->id()]);
  EXPECT_FALSE(never_dead[Named(*g, "sw")->id()]);
  EXPECT_FALSE(never_dead[Named(*g, "after")->id()]);
}

// Reader r0 of a Const through Identity, whose Const waits on a pivot; r1 through an Enter; r2
// of a Const with a control input above an Enter; r3 of a Placeholder.
TEST(PassQueriesTest, ConstOperandsAndTheNodesDecidingTheirDeadness) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output pivot = ops::Identity(root.WithOpName("pivot"), x);
  Output gate = ops::Identity(root.WithOpName("gate"), x);
  Output waiting = ops::Const(root.WithOpName("waiting").WithControlDependencies({pivot}), 3);
  Output id = ops::Identity(root.WithOpName("id").WithControlDependencies({gate, pivot}), waiting);
  ops::Neg(root.WithOpName("r0"), id);
  Output plain = ops::Const(root.WithOpName("plain"), 4);
  ops::Neg(root.WithOpName("r1"), ops::Enter(root.WithOpName("enter"), plain, "loop"));
  ops::Neg(root.WithOpName("r2"), ops::Enter(root.WithOpName("enter_waiting"), waiting, "loop"));
  ops::Neg(root.WithOpName("r3"), ops::Identity(root.WithOpName("fed"), x));
  std::unique_ptr<Graph> g = Import(root);
  auto operand = [&](const char* reader) {
    return ConstOperandAt(Named(*g, reader)->input_edge(0), 8);
  };

  std::optional<ConstOperand> r0 = operand("r0");
  ASSERT_TRUE(r0.has_value());
  EXPECT_EQ(r0->value.flat<int32_t>()[0], 3);
  std::vector<std::string> waits;
  for (const Node* n : r0->waits) waits.push_back(n->name());
  EXPECT_THAT(waits, ::testing::UnorderedElementsAre("gate", "pivot"));

  std::optional<ConstOperand> r1 = operand("r1");
  ASSERT_TRUE(r1.has_value());
  EXPECT_EQ(r1->value.flat<int32_t>()[0], 4);
  EXPECT_TRUE(r1->waits.empty());

  EXPECT_FALSE(operand("r2").has_value());  // its pivot is in the frame outside the Enter
  EXPECT_FALSE(operand("r3").has_value());  // no Const
  EXPECT_FALSE(ConstOperandAt(Named(*g, "r0")->input_edge(0), 0).has_value());  // one hop
}

}  // namespace
}  // namespace rill
