// Unit tests of graph/gradients/math_grad.cc beyond the recorded conformance cases
// (tests/gradients/data/math): exact values at the points where the formulas need care (ties,
// zeros) and the ops with no gradient.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/status_matchers.h"
#include "core/tensor.h"
#include "graph/builder/ops.h"
#include "graph/gradients/grad_registry.h"
#include "graph/gradients/grad_test_util.h"
#include "graph/gradients/gradients.h"
#include "gtest/gtest.h"
#include "session/session.h"

namespace rill {
namespace {

using grad_test::GradOf;
using grad_test::RunFetch;

TEST(MathGradTest, MaxSharesTheGradientAmongTies) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Const(root.WithOpName("x"), {{1.f, 3.f, 3.f}, {2.f, 2.f, 2.f}});
  Output y = ops::Max(root.WithOpName("y"), x, ops::Const(root, 1));
  EXPECT_EQ(GradOf(root, y, x), (std::vector<float>{0, 0.5f, 0.5f, 1.f / 3, 1.f / 3, 1.f / 3}));
}

TEST(MathGradTest, ProdWithZerosIsExact) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Const(root.WithOpName("x"), {{2.f, 0.f, 3.f}, {0.f, 0.f, 5.f}});
  Output y = ops::Prod(root.WithOpName("y"), x, ops::Const(root, 1));
  EXPECT_EQ(GradOf(root, y, x), (std::vector<float>{0, 6, 0, 0, 0, 0}));
}

TEST(MathGradTest, ClipByValueRoutesTheGradient) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Const(root.WithOpName("x"), {-2.f, 0.5f, 3.f});
  Output lo = ops::Const(root.WithOpName("lo"), -1.f);
  Output hi = ops::Const(root.WithOpName("hi"), 1.f);
  Output y = ops::ClipByValue(root.WithOpName("y"), x, lo, hi);
  std::vector<Output> grads;
  RILL_ASSERT_OK(AddSymbolicGradients(root, {y}, {x, lo, hi}, &grads));
  EXPECT_EQ(RunFetch(root, grads[0]), (std::vector<float>{0, 1, 0}));
  EXPECT_EQ(RunFetch(root, grads[1]), (std::vector<float>{1}));
  EXPECT_EQ(RunFetch(root, grads[2]), (std::vector<float>{1}));
}

TEST(MathGradTest, FloorHasNoGradient) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Const(root.WithOpName("x"), {1.5f});
  Output y = ops::Floor(root.WithOpName("y"), x);
  std::vector<Output> grads;
  GradientOptions options;
  options.unconnected_gradients = GradientOptions::Unconnected::kNone;
  RILL_ASSERT_OK(AddSymbolicGradients(root, {y}, {x}, {}, &grads, options));
  EXPECT_FALSE(grads[0].valid());
}

TEST(MathGradTest, ComparisonsAndBitwiseOpsAreNotDifferentiable) {
  for (const char* op : {"Less", "Equal", "LogicalAnd", "BitwiseXor", "Invert", "LeftShift"}) {
    bool no_gradient = false;
    EXPECT_EQ(GradRegistry::Global()->Find(op, &no_gradient), nullptr) << op;
    EXPECT_TRUE(no_gradient) << op;
  }
}

}  // namespace
}  // namespace rill
