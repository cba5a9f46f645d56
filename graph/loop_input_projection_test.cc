#include "graph/loop_input_projection.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "graph/builder/ops.h"
#include "graph/graph.h"
#include "graph/graph_def_import.h"
#include "graph/loop_invariants.h"
#include "graph/pass_test_util.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::UnorderedElementsAre;

constexpr char kCpu[] = "/job:localhost/replica:0/task:0/device:CPU:0";

std::unique_ptr<Graph> Import(const Scope& root) { return ImportForPassTest(root, kCpu); }

int Count(const Graph& g, const std::string& op) {
  int n = 0;
  for (const Node* node : g.op_nodes()) n += node->op() == op;
  return n;
}

struct LoopOptions {
  bool list_is_loop_variable = false;  // TF1 lowering: the list goes through a Merge and Switch
  bool second_reader = false;          // x_t read by a Neg besides the MatMul
  bool weights_fed = false;            // W a Placeholder, not a Const
  int element_dim = 3;                 // the list's element_shape [-1, element_dim]
};

// acc = 0; for i < n: acc += GetItem(list(x), i) @ w, where x is [T, 2, 3] and w [3, 2].
Scope Loop(const LoopOptions& o) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output n = ops::Placeholder(root.WithOpName("n"), DT_INT32);
  Output list = ops::TensorListFromTensor(root.WithOpName("list"), x,
                                          ops::Const(root.WithOpName("es"), {-1, o.element_dim}));
  Output w = o.weights_fed ? ops::Placeholder(root.WithOpName("w"), DT_FLOAT)
                           : ops::Const(root.WithOpName("w"), {{1.f, 2.f}, {3.f, 4.f}, {5.f, 6.f}});
  Output acc0 = ops::Const(root.WithOpName("acc0"), {{0.f, 0.f}, {0.f, 0.f}});
  std::vector<Output> vars = {ops::Const(root.WithOpName("i0"), 0), acc0};
  std::vector<Output> invariants = {n, w};
  if (o.list_is_loop_variable) {
    vars.push_back(list);
  } else {
    invariants.push_back(list);
  }
  const bool second = o.second_reader;
  const size_t list_at = o.list_is_loop_variable ? 2 : 4;
  const size_t n_at = o.list_is_loop_variable ? 3 : 2;
  const size_t w_at = n_at + 1;
  ops::WhileLoop(
      root.NewSubScope("while"), vars,
      [n_at](const Scope& s, const std::vector<Output>& v) { return ops::Less(s, v[0], v[n_at]); },
      [=](const Scope& s, const std::vector<Output>& v) {
        Output xt =
            ops::TensorListGetItem(s.WithOpName("x_t"), v[list_at], v[0],
                                   ops::Const(s.WithOpName("item_shape"), {-1, 3}), DT_FLOAT);
        Output y = ops::MatMul(s.WithOpName("proj"), xt, v[w_at]);
        if (second) y = ops::Add(s, y, ops::Neg(s.WithOpName("neg"), xt));
        std::vector<Output> next = {
            ops::Add(s.WithOpName("next_i"), v[0], ops::Const(s.WithOpName("one"), 1)),
            ops::Add(s.WithOpName("next_acc"), v[1], y)};
        if (list_at == 2) next.push_back(v[2]);
        return next;
      },
      ops::WhileLoopAttrs().Invariants(invariants));
  return root;
}

TEST(LoopInputProjectionTest, TheStepsProductBecomesOneProductBeforeTheLoop) {
  std::unique_ptr<Graph> g = Import(Loop({}));
  const int nodes = g->num_op_nodes();
  ASSERT_EQ(Count(*g, "MatMul"), 1);
  ASSERT_THAT(HoistLoopInputProjections(g.get()), IsOkAndHolds(1));
  // The product, its list and element_shape added; the MatMul gone.
  EXPECT_EQ(g->num_op_nodes(), nodes + 3 - 1);
  EXPECT_EQ(Count(*g, "MatMul"), 0);
  const Node* product = g->FindNode("while/proj/input_projection");
  ASSERT_NE(product, nullptr);
  EXPECT_EQ(product->op(), "BatchMatMulV2");
  EXPECT_EQ(product->assigned_device_name(), kCpu);
  EXPECT_FALSE(product->def().attr().at("adj_x").b());
  EXPECT_FALSE(product->def().attr().at("adj_y").b());
  EXPECT_THAT(InputsOf(*g, product->name()), UnorderedElementsAre("x:0", "w:0", "^list"));
  EXPECT_THAT(InputsOf(*g, "while/proj/input_projection/list"),
              UnorderedElementsAre("while/proj/input_projection:0",
                                   "while/proj/input_projection/element_shape:0"));
  // The list's constant Enter reads the rows; the sum reads the item.
  const Node* x_t = g->FindNode("while/x_t");
  ASSERT_NE(x_t, nullptr);
  const Node* enter = x_t->input_node(0);
  ASSERT_NE(enter, nullptr);
  EXPECT_EQ(enter->op(), "Enter");
  EXPECT_THAT(InputsOf(*g, enter->name()),
              UnorderedElementsAre("while/proj/input_projection/list:0"));
  EXPECT_THAT(InputsOf(*g, "while/next_acc"),
              UnorderedElementsAre("while/Identity_1:0", "while/x_t:0"));
  // W enters the loop as a constant Enter and the MatMul had no control inputs: nothing to wait on.
  EXPECT_EQ(InputsOf(*g, "while/x_t").size(), 3u);
  EXPECT_THAT(HoistLoopInputProjections(g.get()), IsOkAndHolds(0));
}

TEST(LoopInputProjectionTest, AListCarriedThroughTheLoopsSwitchIsRewrittenToo) {
  LoopOptions o;
  o.list_is_loop_variable = true;
  std::unique_ptr<Graph> g = Import(Loop(o));
  // TensorFlow's lowering: the list through Merge, Switch and Identity; made a constant Enter
  // read through the Switch's true output and the body's Identity.
  ASSERT_THAT(MakeLoopInvariantsConstant(g.get()), IsOkAndHolds(1));
  const Node* through = g->FindNode("while/x_t")->input_node(0);
  ASSERT_NE(through, nullptr);
  EXPECT_EQ(through->op(), "Identity");
  ASSERT_THAT(HoistLoopInputProjections(g.get()), IsOkAndHolds(1));
  EXPECT_EQ(Count(*g, "MatMul"), 0);
  EXPECT_EQ(Count(*g, "BatchMatMulV2"), 1);
}

TEST(LoopInputProjectionTest, OtherReadersUnknownWeightsOrElementShapesAreLeftAlone) {
  for (int c = 0; c < 3; ++c) {
    LoopOptions o;
    if (c == 0) o.second_reader = true;
    if (c == 1) o.weights_fed = true;
    if (c == 2) o.element_dim = -1;  // the list's check no longer proves x's inner dim
    std::unique_ptr<Graph> g = Import(Loop(o));
    EXPECT_THAT(HoistLoopInputProjections(g.get()), IsOkAndHolds(0)) << c;
    EXPECT_EQ(Count(*g, "MatMul"), 1) << c;
  }
}

TEST(LoopInputProjectionTest, LoopsInABranchOrNestedInALoopAreLeftAlone) {
  // The list comes from a branch's Switch: it may be dead.
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output p = ops::Placeholder(root.WithOpName("p"), DT_BOOL);
  Output w = ops::Const(root.WithOpName("w"), {{1.f, 2.f}, {3.f, 4.f}, {5.f, 6.f}});
  ops::Cond(
      root.NewSubScope("cond"), p, {x},
      [&](const Scope& s, const std::vector<Output>& in) {
        Output list = ops::TensorListFromTensor(s.WithOpName("list"), in[0],
                                                ops::Const(s.WithOpName("es"), {-1, 3}));
        std::vector<Output> out = ops::WhileLoop(
            s.NewSubScope("while"), {ops::Const(s.WithOpName("i0"), 0)},
            [](const Scope& t, const std::vector<Output>& v) {
              return ops::Less(t, v[0], ops::Const(t, 2));
            },
            [](const Scope& t, const std::vector<Output>& v) {
              Output xt = ops::TensorListGetItem(t.WithOpName("x_t"), v[1], v[0],
                                                 ops::Const(t, {-1, 3}), DT_FLOAT);
              ops::MatMul(t.WithOpName("proj"), xt, v[2]);
              return std::vector<Output>{ops::Add(t, v[0], ops::Const(t, 1))};
            },
            ops::WhileLoopAttrs().Invariants({list, w}));
        return out;
      },
      [](const Scope& s, const std::vector<Output>& in) {
        return std::vector<Output>{ops::Const(s, 0)};
      });
  std::unique_ptr<Graph> g = Import(root);
  EXPECT_THAT(HoistLoopInputProjections(g.get()), IsOkAndHolds(0));
  EXPECT_EQ(Count(*g, "MatMul"), 1);

  // The inner loop of two: its list is built in the outer loop's frame.
  Scope nested = Scope::NewRootScope();
  Output y = ops::Placeholder(nested.WithOpName("y"), DT_FLOAT);
  Output v = ops::Const(nested.WithOpName("w"), {{1.f, 2.f}, {3.f, 4.f}, {5.f, 6.f}});
  ops::WhileLoop(
      nested.NewSubScope("outer"), {ops::Const(nested, 0)},
      [](const Scope& s, const std::vector<Output>& o) {
        return ops::Less(s, o[0], ops::Const(s, 2));
      },
      [](const Scope& s, const std::vector<Output>& o) {
        Output list = ops::TensorListFromTensor(s.WithOpName("list"), o[1],
                                                ops::Const(s.WithOpName("es"), {-1, 3}));
        ops::WhileLoop(
            s.NewSubScope("inner"), {ops::Const(s.WithOpName("j0"), 0)},
            [](const Scope& t, const std::vector<Output>& i) {
              return ops::Less(t, i[0], ops::Const(t, 2));
            },
            [](const Scope& t, const std::vector<Output>& i) {
              Output xt = ops::TensorListGetItem(t.WithOpName("x_t"), i[1], i[0],
                                                 ops::Const(t, {-1, 3}), DT_FLOAT);
              ops::MatMul(t.WithOpName("proj"), xt, i[2]);
              return std::vector<Output>{ops::Add(t, i[0], ops::Const(t, 1))};
            },
            ops::WhileLoopAttrs().Invariants({list, o[2]}));
        return std::vector<Output>{ops::Add(s, o[0], ops::Const(s, 1))};
      },
      ops::WhileLoopAttrs().Invariants({y, v}));
  std::unique_ptr<Graph> h = Import(nested);
  EXPECT_THAT(HoistLoopInputProjections(h.get()), IsOkAndHolds(0));
  EXPECT_EQ(Count(*h, "MatMul"), 1);
}

}  // namespace
}  // namespace rill
