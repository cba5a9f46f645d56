#include "graph/loop_invariants.h"

#include <memory>
#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "graph/builder/ops.h"
#include "graph/graph.h"
#include "graph/graph_def_import.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

Output Scalar(const Scope& s, int32_t v) { return ops::Const(s, v); }

std::unique_ptr<Graph> Import(const Scope& root) {
  EXPECT_THAT(root.status(), IsOk());
  absl::StatusOr<std::unique_ptr<Graph>> g = ImportGraphDef(*root.ToGraphDef());
  EXPECT_THAT(g.status(), IsOk());
  return *std::move(g);
}

int CountOp(const Graph& g, const std::string& op) {
  int n = 0;
  for (const Node* node : g.op_nodes()) n += node->op() == op;
  return n;
}

// The Enter whose input is the node named `input`.
const Node* EnterOf(const Graph& g, const std::string& input) {
  for (const Node* n : g.op_nodes()) {
    if (n->op() == "Enter" && n->input_node(0)->name() == input) return n;
  }
  return nullptr;
}

bool IsConstantEnter(const Node& n) { return n.def().attr().at("is_constant").b(); }

// while i < n: (n, i, acc, m) = (n, i + 1, acc + n, n * 2), with n a loop variable the body
// returns unchanged (through `extra_hops` more Identity nodes, the last with a control input
// on the counter's next value).
std::unique_ptr<Graph> StepLoop(int extra_hops) {
  Scope root = Scope::NewRootScope();
  Output n = ops::Placeholder(root.WithOpName("n"), DT_INT32);
  ops::WhileLoop(
      root.NewSubScope("while"),
      {n, Scalar(root.WithOpName("i0"), 0), Scalar(root.WithOpName("acc0"), 0),
       Scalar(root.WithOpName("m0"), 7)},
      [](const Scope& s, const std::vector<Output>& v) {
        // The counter read through an Identity waiting on n's Merge (a control edge to rewire).
        return ops::Less(s, ops::Identity(s.WithControlDependencies({v[0]}), v[1]), v[0]);
      },
      [&](const Scope& s, const std::vector<Output>& v) {
        Output i = ops::Add(s, v[1], Scalar(s, 1));
        Output same = v[0];
        for (int k = 0; k < extra_hops; ++k) {
          same = ops::Identity(k + 1 == extra_hops ? s.WithControlDependencies({i}) : s, same);
        }
        return std::vector<Output>{same, i, ops::Add(s, v[2], v[0]),
                                   ops::Mul(s, v[0], Scalar(s, 2))};
      });
  return Import(root);
}

TEST(LoopInvariantsTest, APassedThroughVariableEntersAsAConstant) {
  for (int hops : {0, 1, 3}) {
    std::unique_ptr<Graph> g = StepLoop(hops);
    const int nodes = g->num_op_nodes();
    ASSERT_THAT(MakeLoopInvariantsConstant(g.get()), IsOkAndHolds(1)) << hops;
    EXPECT_EQ(CountOp(*g, "Merge"), 3);
    EXPECT_EQ(CountOp(*g, "NextIteration"), 3);
    EXPECT_EQ(CountOp(*g, "Switch"), 4);
    EXPECT_EQ(CountOp(*g, "Exit"), 4);
    // Merge, NextIteration and the added Identity nodes go; the Switch's Identity stays (the
    // body reads it).
    EXPECT_EQ(g->num_op_nodes(), nodes - 2 - hops);
    const Node* enter = EnterOf(*g, "n");
    ASSERT_NE(enter, nullptr);
    EXPECT_TRUE(IsConstantEnter(*enter));
    // The Switch and the condition read the Enter, and the condition's control input comes
    // from it.
    int data = 0, control = 0;
    for (const Edge* e : enter->out_edges()) {
      if (e->IsControlEdge()) {
        control += e->dst()->IsOp();
      } else {
        ++data;
        EXPECT_THAT(e->dst()->op(), ::testing::AnyOf("Switch", "Less")) << e->DebugString();
      }
    }
    EXPECT_EQ(data, 2);
    EXPECT_EQ(control, 1);
    EXPECT_FALSE(IsConstantEnter(*EnterOf(*g, "i0")));
    // Idempotent.
    EXPECT_THAT(MakeLoopInvariantsConstant(g.get()), IsOkAndHolds(0));
  }
}

TEST(LoopInvariantsTest, ALoopOfInvariantsAloneKeepsItsStructure) {
  Scope root = Scope::NewRootScope();
  Output n = ops::Placeholder(root.WithOpName("n"), DT_INT32);
  ops::WhileLoop(
      root.NewSubScope("while"), {n},
      [](const Scope& s, const std::vector<Output>& v) { return ops::Less(s, v[0], Scalar(s, 3)); },
      [](const Scope& s, const std::vector<Output>& v) { return std::vector<Output>{v[0]}; });
  std::unique_ptr<Graph> g = Import(root);
  EXPECT_THAT(MakeLoopInvariantsConstant(g.get()), IsOkAndHolds(0));
  EXPECT_EQ(CountOp(*g, "Merge"), 1);
}

TEST(LoopInvariantsTest, ALoopInABranchOrAroundABranchIsLeftAlone) {
  // In a branch: the Enters read a Switch's output, which may be dead.
  {
    Scope root = Scope::NewRootScope();
    Output n = ops::Placeholder(root.WithOpName("n"), DT_INT32);
    Output pred = ops::Placeholder(root.WithOpName("pred"), DT_BOOL);
    ops::Cond(
        root.NewSubScope("cond"), pred, {n},
        [](const Scope& s, const std::vector<Output>& in) {
          return ops::WhileLoop(
              s.NewSubScope("while"), {in[0], Scalar(s, 0)},
              [](const Scope& t, const std::vector<Output>& v) { return ops::Less(t, v[1], v[0]); },
              [](const Scope& t, const std::vector<Output>& v) {
                return std::vector<Output>{v[0], ops::Add(t, v[1], Scalar(t, 1))};
              });
        },
        [](const Scope& s, const std::vector<Output>& in) {
          return std::vector<Output>{in[0], in[0]};
        });
    std::unique_ptr<Graph> g = Import(root);
    EXPECT_THAT(MakeLoopInvariantsConstant(g.get()), IsOkAndHolds(0));
  }
  // A conditional in the body: its Switch is not on the LoopCond.
  {
    Scope root = Scope::NewRootScope();
    Output n = ops::Placeholder(root.WithOpName("n"), DT_INT32);
    ops::WhileLoop(
        root.NewSubScope("while"), {n, Scalar(root, 0)},
        [](const Scope& s, const std::vector<Output>& v) { return ops::Less(s, v[1], v[0]); },
        [](const Scope& s, const std::vector<Output>& v) {
          std::vector<Output> c = ops::Cond(
              s.NewSubScope("cond"), ops::Less(s, v[1], Scalar(s, 2)), {v[1]},
              [](const Scope& t, const std::vector<Output>& in) {
                return std::vector<Output>{ops::Add(t, in[0], Scalar(t, 1))};
              },
              [](const Scope& t, const std::vector<Output>& in) {
                return std::vector<Output>{ops::Add(t, in[0], Scalar(t, 2))};
              });
          return std::vector<Output>{v[0], c[0]};
        });
    std::unique_ptr<Graph> g = Import(root);
    EXPECT_THAT(MakeLoopInvariantsConstant(g.get()), IsOkAndHolds(0));
  }
}

TEST(LoopInvariantsTest, NestedLoopsAreLeftAlone) {
  Scope root = Scope::NewRootScope();
  Output n = ops::Placeholder(root.WithOpName("n"), DT_INT32);
  ops::WhileLoop(
      root.NewSubScope("outer"), {n, Scalar(root, 0)},
      [](const Scope& s, const std::vector<Output>& v) { return ops::Less(s, v[1], v[0]); },
      [](const Scope& s, const std::vector<Output>& v) {
        std::vector<Output> inner = ops::WhileLoop(
            s.NewSubScope("inner"), {v[0], Scalar(s, 0)},
            [](const Scope& t, const std::vector<Output>& w) { return ops::Less(t, w[1], w[0]); },
            [](const Scope& t, const std::vector<Output>& w) {
              return std::vector<Output>{w[0], ops::Add(t, w[1], Scalar(t, 1))};
            });
        return std::vector<Output>{v[0], ops::Add(s, v[1], inner[1])};
      });
  std::unique_ptr<Graph> g = Import(root);
  EXPECT_THAT(MakeLoopInvariantsConstant(g.get()), IsOkAndHolds(0));
  EXPECT_EQ(CountOp(*g, "Merge"), 4);
}

TEST(LoopInvariantsTest, AVariableWhoseMergeIndexIsReadStays) {
  Scope root = Scope::NewRootScope();
  Output n = ops::Placeholder(root.WithOpName("n"), DT_INT32);
  Output reads_index;
  ops::WhileLoop(
      root.NewSubScope("while"), {n, Scalar(root, 0)},
      [](const Scope& s, const std::vector<Output>& v) { return ops::Less(s, v[1], v[0]); },
      [](const Scope& s, const std::vector<Output>& v) {
        return std::vector<Output>{v[0], ops::Add(s, v[1], Scalar(s, 1))};
      });
  ASSERT_THAT(root.status(), IsOk());
  GraphDef def = *root.ToGraphDef();
  // Add a reader of the first Merge's value_index inside the loop.
  std::string merge;
  for (const NodeDef& node : def.node()) {
    if (node.op() == "Merge" && merge.empty()) merge = node.name();
  }
  NodeDef* reader = def.add_node();
  reader->set_name("index_reader");
  reader->set_op("Identity");
  reader->add_input(merge + ":1");
  (*reader->mutable_attr())["T"].set_type(DT_INT32);
  absl::StatusOr<std::unique_ptr<Graph>> g = ImportGraphDef(def);
  ASSERT_THAT(g.status(), IsOk());
  EXPECT_THAT(MakeLoopInvariantsConstant(g->get()), IsOkAndHolds(0));
}

}  // namespace
}  // namespace rill
