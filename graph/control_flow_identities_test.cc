#include "graph/control_flow_identities.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
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

const Node* Find(const Graph& g, const std::string& name) { return g.FindNode(name); }

std::string InputName(const Node& n, int i) {
  const Edge* e = n.input_edge(i);
  return e == nullptr ? "<none>" : absl::StrCat(e->src()->name(), ":", e->src_output());
}

bool HasControlInput(const Node& n, const std::string& from) {
  for (const Edge* e : n.in_edges()) {
    if (e->IsControlEdge() && e->src()->name() == from) return true;
  }
  return false;
}

TEST(ControlFlowIdentitiesTest, ALoopBodysIdentitiesGoAndTheirControlInputsMove) {
  // while i < n: i = Identity(Identity(i, ^gate) + 1): the body's Identity of the counter (the
  // builder's pivot, read by control edges from a Switch) stays; the others go.
  Scope root = Scope::NewRootScope();
  Output n = ops::Placeholder(root.WithOpName("n"), DT_INT32);
  ops::WhileLoop(
      root.NewSubScope("while"), {Scalar(root, 0)},
      [&](const Scope& s, const std::vector<Output>& v) { return ops::Less(s, v[0], v[1]); },
      [&](const Scope& s, const std::vector<Output>& v) {
        Operation gate = ops::NoOp(s.WithOpName("gate"));
        Output in = ops::Identity(s.WithOpName("in").WithControlDependencies({gate}), v[0]);
        Output add = ops::Add(s.WithOpName("add"), in, Scalar(s, 1));
        return std::vector<Output>{ops::Identity(s.WithOpName("out"), add)};
      },
      ops::WhileLoopAttrs().Invariants({n}));
  std::unique_ptr<Graph> g = Import(root);
  ASSERT_THAT(RemoveControlFlowIdentities(g.get()), IsOkAndHolds(2));
  EXPECT_EQ(Find(*g, "while/in"), nullptr);
  EXPECT_EQ(Find(*g, "while/out"), nullptr);
  const Node* add = Find(*g, "while/add");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->input_node(0)->op(), "Identity");  // the pivot, read by control edges
  EXPECT_TRUE(HasControlInput(*add, "while/gate"));
  // The NextIteration reads the Add.
  for (const Node* node : g->op_nodes()) {
    if (node->op() == "NextIteration") EXPECT_EQ(InputName(*node, 0), "while/add:0");
  }
  EXPECT_THAT(RemoveControlFlowIdentities(g.get()), IsOkAndHolds(0));
}

TEST(ControlFlowIdentitiesTest, IdentitiesWhoseDeadnessWouldChangeStay) {
  // A Merge of Identity(x, ^c) (a Merge is not dead for one dead input); Identity(Switch:1) read
  // by a control edge (from the Switch, the edge would be live on both branches).
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_INT32);
  Output pred = ops::Placeholder(root.WithOpName("pred"), DT_BOOL);
  ops::SwitchOutputs sw = ops::Switch(root.WithOpName("sw"), x, pred);
  Operation c = ops::NoOp(root.WithOpName("c"));
  Output gated =
      ops::Identity(root.WithOpName("gated").WithControlDependencies({c}), sw.output_true);
  Output plain = ops::Identity(root.WithOpName("plain"), sw.output_false);
  ops::Merge(root.WithOpName("merge"), {gated, plain});
  Output taken = ops::Identity(root.WithOpName("taken"), sw.output_true);
  ops::Neg(root.WithOpName("after").WithControlDependencies({taken}), x);
  ops::Neg(root.WithOpName("reader"), taken);
  std::unique_ptr<Graph> g = Import(root);
  ASSERT_THAT(RemoveControlFlowIdentities(g.get()), IsOkAndHolds(1));
  EXPECT_NE(Find(*g, "gated"), nullptr);
  EXPECT_NE(Find(*g, "taken"), nullptr);
  EXPECT_EQ(Find(*g, "plain"), nullptr);
  EXPECT_EQ(InputName(*Find(*g, "merge"), 1), "sw:0");
}

}  // namespace
}  // namespace rill
