#include "graph/gradients/gradients.h"

#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "core/status_matchers.h"
#include "core/tensor.h"
#include "graph/builder/ops.h"
#include "graph/gradients/grad_registry.h"
#include "graph/gradients/grad_test_util.h"
#include "gtest/gtest.h"
#include "session/session.h"

namespace rill {
namespace {

using grad_test::RunGraph;
using grad_test::Values;

TEST(GradientsTest, SquareGivesTwoX) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Const(root.WithOpName("x"), {1.f, -2.f, 3.f});
  Output y = ops::Square(root.WithOpName("y"), x);
  std::vector<Output> dx;
  RILL_ASSERT_OK(AddSymbolicGradients(root, {y}, {x}, &dx));
  ASSERT_EQ(dx.size(), 1);
  EXPECT_EQ(dx[0].node(), "gradients/y_grad/Mul_1");
  EXPECT_EQ(Values(RunGraph(root, dx)[0]), (std::vector<float>{2, -4, 6}));
}

TEST(GradientsTest, PathsAreSummedWithAddN) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Const(root.WithOpName("x"), {1.f, 2.f});
  Output a = ops::Mul(root, x, x);                      // 2x
  Output b = ops::Mul(root, x, ops::Const(root, 3.f));  // 3
  Output y = ops::Sum(root, ops::AddV2(root, a, b), ops::Const(root, 0));
  std::vector<Output> dx;
  RILL_ASSERT_OK(AddSymbolicGradients(root, {y}, {x}, &dx));
  EXPECT_EQ(Values(RunGraph(root, dx)[0]), (std::vector<float>{5, 7}));
  absl::StatusOr<NodeDef> sum = root.GetNodeDef(dx[0].node());
  RILL_ASSERT_OK(sum.status());
  EXPECT_EQ(sum->op(), "AddN");
}

TEST(GradientsTest, GradInputsWeightTheOutputs) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Const(root.WithOpName("x"), {{1.f, 2.f}, {3.f, 4.f}});
  Output w = ops::Const(root.WithOpName("w"), {{1.f}, {-1.f}});
  Output y = ops::MatMul(root, x, w);
  Output dy = ops::Const(root.WithOpName("dy"), {{2.f}, {10.f}});
  std::vector<Output> grads;
  RILL_ASSERT_OK(AddSymbolicGradients(root, {y}, {x, w}, {dy}, &grads));
  std::vector<Tensor> got = RunGraph(root, grads);
  EXPECT_EQ(Values(got[0]), (std::vector<float>{2, -2, 10, -10}));
  EXPECT_EQ(Values(got[1]), (std::vector<float>{32, 44}));
}

TEST(GradientsTest, StopGradientsGivePartialDerivatives) {
  // TensorFlow's example: a = 0, b = 2a, gradients of a + b with a and b stopped are [1, 1].
  Scope root = Scope::NewRootScope();
  Output a = ops::Const(root.WithOpName("a"), 0.f);
  Output b = ops::Mul(root.WithOpName("b"), ops::Const(root, 2.f), a);
  Output y = ops::AddV2(root, a, b);
  GradientOptions options;
  options.stop_gradients = {a, b};
  std::vector<Output> g;
  RILL_ASSERT_OK(AddSymbolicGradients(root, {y}, {a, b}, {}, &g, options));
  std::vector<Tensor> got = RunGraph(root, g);
  EXPECT_EQ(got[0].flat<float>()[0], 1.f);
  EXPECT_EQ(got[1].flat<float>()[0], 1.f);
  // Without stops, the total derivative with respect to a is 3.
  std::vector<Output> total;
  RILL_ASSERT_OK(AddSymbolicGradients(root, {y}, {a, b}, &total));
  EXPECT_EQ(RunGraph(root, total)[0].flat<float>()[0], 3.f);
}

TEST(GradientsTest, StopGradientOpBlocksThePath) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Const(root.WithOpName("x"), 2.f);
  Output y = ops::AddV2(root, ops::Square(root, x), ops::StopGradient(root, ops::Square(root, x)));
  std::vector<Output> dx;
  RILL_ASSERT_OK(AddSymbolicGradients(root, {y}, {x}, &dx));
  EXPECT_EQ(RunGraph(root, dx)[0].flat<float>()[0], 4.f);
}

TEST(GradientsTest, UnconnectedInputsGetZerosOrNothing) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Const(root.WithOpName("x"), {1.f, 2.f});
  Output z = ops::Const(root.WithOpName("z"), {5.f, 6.f, 7.f});
  Output y = ops::Square(root, x);
  std::vector<Output> g;
  RILL_ASSERT_OK(AddSymbolicGradients(root, {y}, {x, z}, &g));
  EXPECT_EQ(Values(RunGraph(root, {g[1]})[0]), (std::vector<float>{0, 0, 0}));
  GradientOptions none;
  none.unconnected_gradients = GradientOptions::Unconnected::kNone;
  RILL_ASSERT_OK(AddSymbolicGradients(root, {y}, {x, z}, {}, &g, none));
  EXPECT_TRUE(g[0].valid());
  EXPECT_FALSE(g[1].valid());
}

TEST(GradientsTest, IntegerTensorsCarryNoGradient) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Const(root.WithOpName("x"), {1.f, 2.f});
  Output i = ops::Cast(root, x, DT_INT32);
  Output y = ops::Cast(root, ops::Mul(root, i, i), DT_FLOAT);
  GradientOptions none;
  none.unconnected_gradients = GradientOptions::Unconnected::kNone;
  std::vector<Output> g;
  RILL_ASSERT_OK(AddSymbolicGradients(root, {y}, {x}, {}, &g, none));
  EXPECT_FALSE(g[0].valid());
}

TEST(GradientsTest, MissingGradientFunctionIsNotFoundNamingTheNode) {
  // TensorFlow has no gradient for ResizeArea either.
  Scope root = Scope::NewRootScope();
  Output images = ops::Placeholder(root.WithOpName("images"), DT_FLOAT);
  Output y = ops::ResizeArea(root.WithOpName("area"), images, ops::Const(root, {2, 2}));
  std::vector<Output> g;
  absl::Status s = AddSymbolicGradients(root, {y}, {images}, &g);
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  EXPECT_TRUE(
      absl::StrContains(s.message(), "No gradient defined for op: ResizeArea (node 'area')"))
      << s;
}

TEST(GradientsTest, WrongGradInputsAreInvalidArgument) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Const(root.WithOpName("x"), {1.f, 2.f});
  Output y = ops::Square(root.WithOpName("y"), x);
  std::vector<Output> g;
  absl::Status count = AddSymbolicGradients(Scope::NewRootScope(), {y}, {x}, {y, y}, &g);
  EXPECT_EQ(count.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(count.message(), "grad_inputs has 2 entries but outputs has 1"));
  Output wrong = ops::Const(root.WithOpName("wrong"), {1, 2});
  absl::Status dtype = AddSymbolicGradients(root, {y}, {x}, {wrong}, &g);
  EXPECT_EQ(dtype.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(dtype.message(),
                                "Gradient for output 'y:0' has dtype int32, expected float"))
      << dtype;
}

TEST(GradientsTest, ColocatedGradientsTakeTheForwardDevice) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Const(root.WithOpName("x").WithDevice("/cpu:0"), {1.f, 2.f});
  Output y = ops::Square(root.WithOpName("y").WithDevice("/device:GPU:0"), x);
  GradientOptions options;
  options.colocate_gradients_with_ops = true;
  std::vector<Output> g;
  RILL_ASSERT_OK(AddSymbolicGradients(root, {y}, {x}, {}, &g, options));
  absl::StatusOr<NodeDef> node = root.GetNodeDef(g[0].node());
  RILL_ASSERT_OK(node.status());
  EXPECT_EQ(node->device(), "/device:GPU:0");
  EXPECT_EQ(node->attr().at("_class").list().s(0), "loc:@y");
}

TEST(GradientsTest, GatedGradientsWaitForEachOther) {
  Scope root = Scope::NewRootScope();
  Output a = ops::Const(root.WithOpName("a"), {{1.f, 2.f}});
  Output b = ops::Const(root.WithOpName("b"), {{3.f}, {4.f}});
  Output y = ops::MatMul(root.WithOpName("mm"), a, b);
  GradientOptions options;
  options.gate_gradients = true;
  std::vector<Output> g;
  RILL_ASSERT_OK(AddSymbolicGradients(root, {y}, {a, b}, {}, &g, options));
  EXPECT_EQ(g[0].node(), "gradients/mm_grad/tuple/control_dependency");
  EXPECT_EQ(g[1].node(), "gradients/mm_grad/tuple/control_dependency_1");
  std::vector<Tensor> got = RunGraph(root, g);
  EXPECT_EQ(Values(got[0]), (std::vector<float>{3, 4}));
  EXPECT_EQ(Values(got[1]), (std::vector<float>{1, 2}));
}

// v = x, then three times v = v * v: y = x^8, dy/dx = 8 x^7 (the body's Mul reads each
// iteration's v, which the backprop loop pops from a stack).
TEST(GradientsTest, WhileLoopVariableThroughAStack) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Const(root.WithOpName("x"), {1.1f, -0.5f});
  std::vector<Output> exits = ops::WhileLoop(
      root.NewSubScope("while"), {ops::Const(root, 0), x},
      [](const Scope& s, const std::vector<Output>& v) {
        return ops::Less(s, v[0], ops::Const(s, 3));
      },
      [](const Scope& s, const std::vector<Output>& v) -> std::vector<Output> {
        return {ops::AddV2(s, v[0], ops::Const(s, 1)), ops::Mul(s, v[1], v[1])};
      });
  std::vector<Output> dx;
  RILL_ASSERT_OK(AddSymbolicGradients(root, {exits[1]}, {x}, &dx));
  std::vector<float> got = Values(RunGraph(root, dx)[0]);
  EXPECT_NEAR(got[0], 8 * std::pow(1.1f, 7), 1e-4);
  EXPECT_NEAR(got[1], 8 * std::pow(-0.5f, 7), 1e-6);
}

// v = x, then four times v = v * w with w a loop invariant: y = x w^4, dy/dx = w^4 and
// dy/dw = 4 x w^3, summed over the iterations by an accumulator.
TEST(GradientsTest, WhileLoopInvariantAccumulates) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Const(root.WithOpName("x"), 3.f);
  Output w = ops::Const(root.WithOpName("w"), 0.5f);
  std::vector<Output> exits = ops::WhileLoop(
      root.NewSubScope("while"), {ops::Const(root, 0), x},
      [](const Scope& s, const std::vector<Output>& v) {
        return ops::Less(s, v[0], ops::Const(s, 4));
      },
      [](const Scope& s, const std::vector<Output>& v) -> std::vector<Output> {
        return {ops::AddV2(s, v[0], ops::Const(s, 1)), ops::Mul(s, v[1], v[2])};
      },
      ops::WhileLoopAttrs().Invariants({w}));
  std::vector<Output> g;
  RILL_ASSERT_OK(AddSymbolicGradients(root, {exits[1]}, {x, w}, &g));
  std::vector<Tensor> got = RunGraph(root, g);
  EXPECT_FLOAT_EQ(got[0].flat<float>()[0], 0.0625f);
  EXPECT_FLOAT_EQ(got[1].flat<float>()[0], 1.5f);
}

// Tensors inside a loop's body cannot be differentiated from outside: Unimplemented naming them.
TEST(GradientsTest, TensorsInsideALoopAreRefused) {
  // x, then three times v = v * v; returns {the loop's exit, the body's product}.
  auto build = [](const Scope& root) {
    Output x = ops::Const(root.WithOpName("x"), 2.f);
    Output inside;
    std::vector<Output> exits = ops::WhileLoop(
        root.NewSubScope("while"), {ops::Const(root, 0), x},
        [](const Scope& s, const std::vector<Output>& v) {
          return ops::Less(s, v[0], ops::Const(s, 3));
        },
        [&inside](const Scope& s, const std::vector<Output>& v) -> std::vector<Output> {
          inside = ops::Mul(s.WithOpName("sq"), v[1], v[1]);
          return {ops::AddV2(s, v[0], ops::Const(s, 1)), inside};
        });
    return std::vector<Output>{x, exits[1], inside};
  };
  std::vector<Output> g;
  Scope a = Scope::NewRootScope();
  std::vector<Output> ta = build(a);
  absl::Status of = AddSymbolicGradients(a, {ta[2]}, {ta[0]}, &g);
  EXPECT_EQ(of.code(), absl::StatusCode::kUnimplemented);
  EXPECT_TRUE(absl::StrContains(of.message(), "Gradients of a tensor inside a while loop")) << of;
  EXPECT_TRUE(absl::StrContains(of.message(), "node 'while/sq'")) << of;
  Scope b = Scope::NewRootScope();
  std::vector<Output> tb = build(b);
  absl::Status wrt = AddSymbolicGradients(b, {tb[1]}, {tb[2]}, &g);
  EXPECT_EQ(wrt.code(), absl::StatusCode::kUnimplemented);
  EXPECT_TRUE(absl::StrContains(wrt.message(), "with respect to a tensor inside a while loop"))
      << wrt;
}

// A loop that runs zero times passes the gradient straight through.
TEST(GradientsTest, WhileLoopOfZeroIterations) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Const(root.WithOpName("x"), 2.f);
  std::vector<Output> exits = ops::WhileLoop(
      root.NewSubScope("while"), {ops::Const(root, 5), x},
      [](const Scope& s, const std::vector<Output>& v) {
        return ops::Less(s, v[0], ops::Const(s, 3));
      },
      [](const Scope& s, const std::vector<Output>& v) -> std::vector<Output> {
        return {ops::AddV2(s, v[0], ops::Const(s, 1)), ops::Mul(s, v[1], v[1])};
      });
  std::vector<Output> dx;
  RILL_ASSERT_OK(AddSymbolicGradients(root, {ops::Mul(root, exits[1], exits[1])}, {x}, &dx));
  EXPECT_FLOAT_EQ(RunGraph(root, dx)[0].flat<float>()[0], 4.f);
}

}  // namespace
}  // namespace rill
