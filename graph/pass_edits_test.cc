#include "graph/pass_edits.h"

#include <memory>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "graph/builder/ops.h"
#include "graph/pass_test_util.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::ElementsAre;
using ::testing::UnorderedElementsAre;

// a's readers (b by data, c by data at input 1, d by control; e skipped) move to output 1 of s.
TEST(PassEditsTest, MoveOutEdgesKeepsInputsAndControlEdges) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output p = ops::Placeholder(root.WithOpName("p"), DT_BOOL);
  ops::SwitchOutputs s = ops::Switch(root.WithOpName("s"), x, p);
  Output a = ops::Neg(root.WithOpName("a"), x);
  ops::Neg(root.WithOpName("b"), a);
  ops::AddV2(root.WithOpName("c"), x, a);
  ops::NoOp(root.WithOpName("d").WithControlDependencies({a}));
  ops::Neg(root.WithOpName("e"), a);
  std::unique_ptr<Graph> g = ImportForPassTest(root, "");
  Node* from = g->FindNode("a");
  Node* to = g->FindNode("s");
  ASSERT_THAT(MoveOutEdges(g.get(), from, to, 1, g->FindNode("e")), IsOk());
  EXPECT_THAT(InputsOf(*g, "b"), ElementsAre("s:1"));
  EXPECT_THAT(InputsOf(*g, "c"), UnorderedElementsAre("x:0", "s:1"));
  EXPECT_THAT(InputsOf(*g, "d"), ElementsAre("^s"));
  EXPECT_THAT(InputsOf(*g, "e"), ElementsAre("a:0"));
}

}  // namespace
}  // namespace rill
