#include "graph/builder/control_flow_ops.h"

#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "graph/builder/ops.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

const NodeDef* FindNode(const GraphDef& g, const std::string& name) {
  for (const NodeDef& n : g.node()) {
    if (n.name() == name) return &n;
  }
  return nullptr;
}

std::vector<std::string> Inputs(const GraphDef& g, const std::string& name) {
  const NodeDef* n = FindNode(g, name);
  if (n == nullptr) return {"<no node " + name + ">"};
  return {n->input().begin(), n->input().end()};
}

TEST(WhileLoopTest, WritesTensorFlowsLoopPattern) {
  Scope root = Scope::NewRootScope();
  Output zero = ops::Const(root.WithOpName("zero"), 0);
  Output limit = ops::Const(root.WithOpName("limit"), 10);
  std::vector<Output> out = ops::WhileLoop(
      root.NewSubScope("while"), {zero},
      [](const Scope& s, const std::vector<Output>& v) { return ops::Less(s, v[0], v[1]); },
      [](const Scope& s, const std::vector<Output>& v) {
        return std::vector<Output>{ops::Add(s, v[0], ops::Const(s.WithOpName("one"), 1))};
      },
      ops::WhileLoopAttrs().Invariants({limit}).ParallelIterations(4));
  ASSERT_THAT(root.status(), IsOk());
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].TensorName(), "while/Exit:0");
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef g, root.ToGraphDef());
  EXPECT_THAT(Inputs(g, "while/Enter"), ElementsAre("zero"));
  EXPECT_EQ(FindNode(g, "while/Enter")->attr().at("frame_name").s(), "while/while_context");
  EXPECT_EQ(FindNode(g, "while/Enter")->attr().at("parallel_iterations").i(), 4);
  EXPECT_FALSE(FindNode(g, "while/Enter")->attr().at("is_constant").b());
  EXPECT_TRUE(FindNode(g, "while/Enter_1")->attr().at("is_constant").b());
  // The Merge's second input is the back edge from the NextIteration.
  EXPECT_THAT(Inputs(g, "while/Merge"), ElementsAre("while/Enter", "while/NextIteration"));
  EXPECT_THAT(Inputs(g, "while/Less"), ElementsAre("while/Merge", "while/Enter_1"));
  EXPECT_THAT(Inputs(g, "while/LoopCond"), ElementsAre("while/Less"));
  EXPECT_THAT(Inputs(g, "while/Switch"), ElementsAre("while/Merge", "while/LoopCond"));
  EXPECT_THAT(Inputs(g, "while/Exit"), ElementsAre("while/Switch"));
  EXPECT_THAT(Inputs(g, "while/Identity"), ElementsAre("while/Switch:1"));
  // A body node with no inputs hangs on the body's pivot, so it runs in the loop's frame.
  EXPECT_THAT(Inputs(g, "while/one"), ElementsAre("^while/Identity"));
  EXPECT_THAT(Inputs(g, "while/NextIteration"), ElementsAre("while/Add"));
}

TEST(WhileLoopTest, BodyReturningTheWrongCountIsRecorded) {
  Scope root = Scope::NewRootScope();
  ops::WhileLoop(
      root.NewSubScope("while"), {ops::Const(root, 0)},
      [](const Scope& s, const std::vector<Output>& v) {
        return ops::Less(s, v[0], ops::Const(s, 3));
      },
      [](const Scope& s, const std::vector<Output>& v) {
        return std::vector<Output>{v[0], v[0]};
      });
  EXPECT_THAT(root.status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "WhileLoop in scope 'while': the body returns 2 values for 1 loop "
                       "variables"));
}

TEST(CondTest, WritesSwitchesPivotsAndMerges) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output p = ops::Placeholder(root.WithOpName("p"), DT_BOOL);
  std::vector<Output> out = ops::Cond(
      root.NewSubScope("cond"), p, {x},
      [](const Scope& s, const std::vector<Output>& in) {
        return std::vector<Output>{ops::Mul(s, in[0], ops::Const(s.WithOpName("two"), 2.f))};
      },
      [](const Scope& s, const std::vector<Output>& in) {
        return std::vector<Output>{ops::Neg(s, in[0])};
      });
  ASSERT_THAT(root.status(), IsOk());
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef g, root.ToGraphDef());
  EXPECT_THAT(Inputs(g, "cond/Switch"), ElementsAre("p", "p"));
  EXPECT_THAT(Inputs(g, "cond/switch_t"), ElementsAre("cond/Switch:1"));
  EXPECT_THAT(Inputs(g, "cond/Switch_1"), ElementsAre("x", "p"));
  EXPECT_THAT(Inputs(g, "cond/then/two"), ElementsAre("^cond/switch_t"));
  // Mul reads a node built under the same control dependency, so it needs none of its own.
  EXPECT_THAT(Inputs(g, "cond/then/Mul"), ElementsAre("cond/Switch_1:1", "cond/then/two"));
  EXPECT_THAT(Inputs(g, "cond/Merge"), ElementsAre("cond/else/Neg", "cond/then/Mul"));
  EXPECT_EQ(out[0].TensorName(), "cond/Merge:0");
}

TEST(UpdateInputTest, RejectsADtypeChangeAndUnknownNodes) {
  Scope root = Scope::NewRootScope();
  Output a = ops::Const(root.WithOpName("a"), 1.f);
  Output b = ops::Const(root.WithOpName("b"), 1);
  Output id = ops::Identity(root.WithOpName("id"), a);
  EXPECT_THAT(root.UpdateInput(id, 0, b),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "UpdateInput of node 'id': input 0 is float but 'b:0' is int32"));
  Scope other = Scope::NewRootScope();
  Output c = ops::Const(other.WithOpName("c"), 1.f);
  Output id2 = ops::Identity(other.WithOpName("id2"), c);
  EXPECT_THAT(other.UpdateInput(id2, 1, c),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "UpdateInput of node 'id2': no data input 1 (it has 1)"));
}

}  // namespace
}  // namespace rill
