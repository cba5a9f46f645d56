#include "graph/loop_body_constants.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "graph/builder/ops.h"
#include "graph/graph.h"
#include "graph/graph_def_import.h"
#include "graph/pass_test_util.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::UnorderedElementsAre;

std::unique_ptr<Graph> Import(const Scope& root) { return ImportForPassTest(root, ""); }

// The loop constant made of `name`: checks its attrs and that it alone reads the Const.
void ExpectLoopConstant(const Graph& g, const std::string& name, const std::string& frame) {
  EXPECT_THAT(InputsOf(g, name), ::testing::IsEmpty()) << name;
  const Node* c = g.FindNode(name);
  ASSERT_NE(c, nullptr) << name;
  int readers = 0;
  for (const Edge* e : c->out_edges()) readers += e->dst()->IsOp();
  EXPECT_EQ(readers, 1) << name;
  const Node* enter = g.FindNode(name + "/loop_constant");
  ASSERT_NE(enter, nullptr) << name;
  EXPECT_EQ(enter->op(), "Enter");
  EXPECT_THAT(InputsOf(g, enter->name()), UnorderedElementsAre(name + ":0"));
  const auto& attr = enter->def().attr();
  EXPECT_TRUE(attr.at("is_constant").b()) << name;
  EXPECT_EQ(attr.at("frame_name").s(), frame) << name;
  EXPECT_EQ(attr.at("parallel_iterations").i(), 10) << name;
}

// while i < min(n, cap): (i, acc) = (i + 1, acc * two + three); the condition's Const hangs on
// the counter's Merge, the body's on the pivot (the builder's and TensorFlow's layout).
Scope OneLoop() {
  Scope root = Scope::NewRootScope();
  Output n = ops::Placeholder(root.WithOpName("n"), DT_INT32);
  ops::WhileLoop(
      root.NewSubScope("while"), {ops::Const(root, 0), ops::Const(root, 1)},
      [](const Scope& s, const std::vector<Output>& v) {
        return ops::Less(
            s, v[0],
            ops::Minimum(s.WithOpName("limit"), v[2], ops::Const(s.WithOpName("cap"), 100)));
      },
      [](const Scope& s, const std::vector<Output>& v) {
        Output i = ops::Add(s.WithOpName("next_i"), v[0], ops::Const(s.WithOpName("one"), 1));
        Output twice = ops::Mul(s.WithOpName("twice"), v[1], ops::Const(s.WithOpName("two"), 2));
        Output acc =
            ops::Add(s.WithOpName("next_acc"), twice, ops::Const(s.WithOpName("three"), 3));
        return std::vector<Output>{i, acc};
      },
      ops::WhileLoopAttrs().Invariants({n}));
  return root;
}

TEST(LoopBodyConstantsTest, ALoopsConstantsEnterOnceAndTheirReadersWaitOnTheirControlInputs) {
  Scope root = OneLoop();
  std::unique_ptr<Graph> g = Import(root);
  EXPECT_THAT(InputsOf(*g, "while/one"), UnorderedElementsAre("^while/Identity"));
  EXPECT_THAT(InputsOf(*g, "while/cap"), UnorderedElementsAre("^while/Merge"));
  const int nodes = g->num_op_nodes();
  ASSERT_THAT(HoistLoopBodyConstants(g.get()), IsOkAndHolds(4));
  EXPECT_EQ(g->num_op_nodes(), nodes + 4);
  for (const char* c : {"while/cap", "while/one", "while/two", "while/three"}) {
    ExpectLoopConstant(*g, c, "while/while_context");
  }
  // Readers that read the control input already get no edge; the others wait on it.
  EXPECT_THAT(InputsOf(*g, "while/next_i"),
              UnorderedElementsAre("while/Identity:0", "while/one/loop_constant:0"));
  EXPECT_THAT(
      InputsOf(*g, "while/twice"),
      UnorderedElementsAre("while/Identity_1:0", "while/two/loop_constant:0", "^while/Identity"));
  EXPECT_THAT(
      InputsOf(*g, "while/next_acc"),
      UnorderedElementsAre("while/twice:0", "while/three/loop_constant:0", "^while/Identity"));
  const std::vector<std::string> limit = InputsOf(*g, "while/limit");
  ASSERT_EQ(limit.size(), 3u);
  EXPECT_EQ(limit[1], "while/cap/loop_constant:0");
  EXPECT_EQ(limit[2], "^while/Merge");
  EXPECT_THAT(HoistLoopBodyConstants(g.get()), IsOkAndHolds(0));
}

TEST(LoopBodyConstantsTest, ANestedLoopsConstantsStayAndTheOuterLoopsGo) {
  // for i < 3: j = 0; while j < i: j += inner_one;  i += outer_one
  Scope root = Scope::NewRootScope();
  ops::WhileLoop(
      root.NewSubScope("outer"), {ops::Const(root, 0)},
      [](const Scope& s, const std::vector<Output>& v) {
        return ops::Less(s, v[0], ops::Const(s.WithOpName("outer_limit"), 3));
      },
      [](const Scope& s, const std::vector<Output>& v) {
        ops::WhileLoop(
            s.NewSubScope("inner"), {ops::Const(s.WithOpName("j0"), 0)},
            [](const Scope& t, const std::vector<Output>& w) { return ops::Less(t, w[0], w[1]); },
            [](const Scope& t, const std::vector<Output>& w) {
              return std::vector<Output>{
                  ops::Add(t.WithOpName("next_j"), w[0], ops::Const(t.WithOpName("inner_one"), 1))};
            },
            ops::WhileLoopAttrs().Invariants({v[0]}));
        return std::vector<Output>{
            ops::Add(s.WithOpName("next_i"), v[0], ops::Const(s.WithOpName("outer_one"), 1))};
      });
  std::unique_ptr<Graph> g = Import(root);
  const int nodes = g->num_op_nodes();
  // outer_limit and outer_one; j0 (the inner loop's initial value) is read by an Enter.
  ASSERT_THAT(HoistLoopBodyConstants(g.get()), IsOkAndHolds(2));
  EXPECT_EQ(g->num_op_nodes(), nodes + 2);
  EXPECT_EQ(g->FindNode("outer/j0/loop_constant"), nullptr);
  for (const char* c : {"outer/outer_limit", "outer/outer_one"}) {
    ExpectLoopConstant(*g, c, "outer/while_context");
  }
  EXPECT_EQ(InputsOf(*g, "outer/inner/inner_one").size(), 1u);
  EXPECT_EQ(g->FindNode("outer/inner/inner_one/loop_constant"), nullptr);
}

TEST(LoopBodyConstantsTest, ConstantsReadByControlFlowOrControlEdgesStay) {
  // In the body: a Const a Merge reads (a Cond's branch returns it), one read by a control edge,
  // and one a branch's Mul reads (rewritten: its Mul waits on the branch's pivot and on the loop's,
  // the builder's control inputs of every node in the body).
  Scope root = Scope::NewRootScope();
  Output p = ops::Placeholder(root.WithOpName("p"), DT_BOOL);
  ops::WhileLoop(
      root.NewSubScope("while"), {ops::Const(root, 0), ops::Const(root, 0)},
      [](const Scope& s, const std::vector<Output>& v) {
        return ops::Less(s, v[0], ops::Const(s.WithOpName("limit"), 4));
      },
      [](const Scope& s, const std::vector<Output>& v) {
        Output k = ops::Const(s.WithOpName("order"), 7);
        Output i = ops::Add(s.WithOpName("next_i").WithControlDependencies({k}), v[0],
                            ops::Const(s.WithOpName("one"), 1));
        std::vector<Output> picked = ops::Cond(
            s.NewSubScope("cond"), v[2], {v[1]},
            [](const Scope& t, const std::vector<Output>& in) {
              return std::vector<Output>{ops::Const(t.WithOpName("five"), 5)};
            },
            [](const Scope& t, const std::vector<Output>& in) {
              return std::vector<Output>{
                  ops::Mul(t.WithOpName("times"), in[0], ops::Const(t.WithOpName("three"), 3))};
            });
        return std::vector<Output>{i, picked[0]};
      },
      ops::WhileLoopAttrs().Invariants({p}));
  std::unique_ptr<Graph> g = Import(root);
  ASSERT_THAT(HoistLoopBodyConstants(g.get()), IsOkAndHolds(3));
  for (const char* c : {"while/limit", "while/one", "while/cond/else/three"}) {
    ExpectLoopConstant(*g, c, "while/while_context");
  }
  EXPECT_THAT(InputsOf(*g, "while/cond/else/times"),
              UnorderedElementsAre("while/cond/Switch_1:0", "while/cond/else/three/loop_constant:0",
                                   "^while/Identity", "^while/cond/switch_f"));
  EXPECT_THAT(InputsOf(*g, "while/cond/then/five"),
              UnorderedElementsAre("^while/Identity", "^while/cond/switch_t"));
  EXPECT_THAT(InputsOf(*g, "while/order"), UnorderedElementsAre("^while/Identity"));
}

TEST(LoopBodyConstantsTest, GraphsWithoutLoopsOrWithInconsistentFramesAreLeftAlone) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_INT32);
  ops::Add(
      root.WithOpName("sum"), x,
      ops::Const(root.WithOpName("c").WithControlDependencies({ops::NoOp(root.WithOpName("gate"))}),
                 2));
  std::unique_ptr<Graph> g = Import(root);
  EXPECT_THAT(HoistLoopBodyConstants(g.get()), IsOkAndHolds(0));
  // A node reading two frames (an Enter's frame and the root): not a graph the executor runs.
  Scope mixed = Scope::NewRootScope();
  Output y = ops::Placeholder(mixed.WithOpName("y"), DT_INT32);
  Output in = ops::Enter(mixed.WithOpName("enter"), y, "frame");
  ops::Add(mixed.WithOpName("both"), in,
           ops::Const(mixed.WithOpName("k").WithControlDependencies({in}), 1));
  ops::Add(mixed.WithOpName("mixed"), in, y);
  std::unique_ptr<Graph> h = Import(mixed);
  EXPECT_THAT(HoistLoopBodyConstants(h.get()), IsOkAndHolds(0));
}

}  // namespace
}  // namespace rill
