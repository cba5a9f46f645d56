#include "graph/builder/input.h"

#include <string>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "graph/builder/ops.h"
#include "graph/builder/scope.h"
#include "gtest/gtest.h"
#include "proto/graph.pb.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

const NodeDef* FindNode(const GraphDef& graph, const std::string& name) {
  for (const NodeDef& n : graph.node()) {
    if (n.name() == name) return &n;
  }
  return nullptr;
}

TEST(InputTest, LiteralsBecomeConstNodesInTheWrappersScope) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Scope tower = root.NewSubScope("tower").WithDevice("/cpu:0");
  Output y = ops::Add(tower.WithOpName("sum"), x, {1.f, 2.f});
  ASSERT_THAT(root.status(), IsOk());
  EXPECT_EQ(y.node(), "tower/sum");
  GraphDef graph;
  ASSERT_THAT(root.ToGraphDef(&graph), IsOk());
  const NodeDef* c = FindNode(graph, "tower/Const");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->op(), "Const");
  EXPECT_EQ(c->device(), "/device:CPU:0");
  EXPECT_EQ(c->attr().at("dtype").type(), DT_FLOAT);
  EXPECT_EQ(c->attr().at("value").tensor().tensor_shape().dim(0).size(), 2);
  const NodeDef* sum = FindNode(graph, "tower/sum");
  ASSERT_NE(sum, nullptr);
  ASSERT_EQ(sum->input_size(), 2);
  EXPECT_EQ(sum->input(0), "x");
  EXPECT_EQ(sum->input(1), "tower/Const");
}

TEST(InputTest, ScalarsNestedListsStringsAndTensorsAreLiterals) {
  Scope root = Scope::NewRootScope();
  Output a = ops::Mul(root, 3.f, 4.f);
  Output m = ops::MatMul(root, {{1.f, 2.f}}, {{3.f}, {4.f}});
  Output s = ops::StringStrip(root, {" a", "b "});
  Output t = ops::Neg(root, Tensor::Scalar<int64_t>(5));
  ASSERT_THAT(root.status(), IsOk());
  EXPECT_EQ(a.dtype(), DT_FLOAT);
  EXPECT_EQ(m.dtype(), DT_FLOAT);
  absl::StatusOr<PartialTensorShape> shape = root.GetShape(m);
  ASSERT_TRUE(shape.ok());
  EXPECT_EQ(shape->DebugString(), "[1,1]");
  EXPECT_EQ(t.dtype(), DT_INT64);
  EXPECT_EQ(s.dtype(), DT_STRING);
}

TEST(InputTest, ALiteralOfAnotherDtypeIsTheWrappersDtypeError) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  EXPECT_FALSE(ops::Add(root, x, {1, 2}).valid());
  EXPECT_THAT(root.status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                      "Input 1 of node Add was passed int32 from Const:0 "
                                      "incompatible with expected float."));
}

TEST(InputTest, AMalformedLiteralIsReportedNamingItsConst) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  EXPECT_FALSE(ops::Add(root, x, {{1.f, 2.f}, {3.f}}).valid());
  EXPECT_THAT(
      root.status(),
      StatusIs(absl::StatusCode::kInvalidArgument,
               ::testing::AllOf(HasSubstr("Node 'Const' (Const)"),
                                HasSubstr("Initializer list components should all have the same "
                                          "shape"))));
}

TEST(InputTest, OutputsPassThroughUnchanged) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Const(root.WithOpName("x"), 1.f);
  Input in(x);
  EXPECT_FALSE(in.is_literal());
  Output out = in.ToOutput(root);
  EXPECT_EQ(out.node(), "x");
  EXPECT_EQ(out.graph_id(), x.graph_id());
  EXPECT_EQ(root.NodeCount(), 1);
}

}  // namespace
}  // namespace rill
