// Unit tests of graph/gradients/nn_grad.cc beyond the recorded conformance cases
// (tests/gradients/data/nn): exact values, the ops with no gradient, and the error of MaxPoolV2's
// gradient with run-time window sizes.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/status_matchers.h"
#include "core/tensor.h"
#include "gmock/gmock.h"
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

TEST(NnGradTest, ActivationsPassTheGradientWhereActive) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Const(root.WithOpName("x"), {-1.f, 2.f, 7.f});
  EXPECT_EQ(GradOf(root, ops::Relu(root, x), x), (std::vector<float>{0, 1, 1}));
  EXPECT_EQ(GradOf(root, ops::Relu6(root, x), x), (std::vector<float>{0, 1, 0}));
  EXPECT_EQ(GradOf(root, ops::LeakyRelu(root, x, ops::LeakyReluAttrs().Alpha(0.25f)), x),
            (std::vector<float>{0.25f, 1, 1}));
}

TEST(NnGradTest, SparseCrossEntropyGradientIsSoftmaxMinusOneHot) {
  Scope root = Scope::NewRootScope();
  Output logits = ops::Const(root.WithOpName("logits"), {{0.f, 0.f}, {0.f, 0.f}});
  ops::XentOutputs xent =
      ops::SparseSoftmaxCrossEntropyWithLogits(root, logits, ops::Const(root, {0, 1}));
  EXPECT_EQ(GradOf(root, xent.loss, logits), (std::vector<float>{-0.5f, 0.5f, 0.5f, -0.5f}));
}

TEST(NnGradTest, MaxPoolRoutesToTheMaximum) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Const(root.WithOpName("x"),
                        Tensor::FromVector<float>({1, 4, 3, 2}, TensorShape({1, 2, 2, 1})));
  Output y = ops::MaxPool(root, x, {1, 2, 2, 1}, {1, 2, 2, 1}, "VALID");
  EXPECT_EQ(GradOf(root, y, x), (std::vector<float>{0, 1, 0, 0}));
}

TEST(NnGradTest, MaxPoolWithArgmaxScattersToTheArgmax) {
  // Two images of 2x2: maxima at flat indices 1 and (second image) 2; both index forms.
  for (bool include_batch : {false, true}) {
    Scope root = Scope::NewRootScope();
    Output x =
        ops::Const(root.WithOpName("x"),
                   Tensor::FromVector<float>({1, 4, 3, 2, 0, 1, 5, 2}, TensorShape({2, 2, 2, 1})));
    std::vector<Output> pool =
        ops::MaxPoolWithArgmax(root, x, {1, 2, 2, 1}, {1, 2, 2, 1}, "VALID", include_batch);
    EXPECT_EQ(GradOf(root, pool[0], x), (std::vector<float>{0, 1, 0, 0, 0, 0, 1, 0}))
        << include_batch;
  }
}

TEST(NnGradTest, MaxPoolV2NeedsConstantWindows) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Const(root.WithOpName("x"),
                        Tensor::FromVector<float>({1, 4, 3, 2}, TensorShape({1, 2, 2, 1})));
  Output ksize = ops::Placeholder(root.WithOpName("ksize"), DT_INT32);
  Output y =
      ops::MaxPoolV2(root.WithOpName("pool"), x, ksize, ops::Const(root, {1, 1, 1, 1}), "VALID");
  std::vector<Output> grads;
  EXPECT_THAT(AddSymbolicGradients(root, {y}, {x}, &grads),
              StatusIs(absl::StatusCode::kUnimplemented,
                       testing::HasSubstr("The gradient of node 'pool' (MaxPoolV2) needs a "
                                          "constant ksize")));
}

TEST(NnGradTest, ImageBackpropsAreNotDifferentiable) {
  for (const char* op : {"HSVToRGB", "ResizeBilinearGrad"}) {
    bool no_gradient = false;
    EXPECT_EQ(GradRegistry::Global()->Find(op, &no_gradient), nullptr) << op;
    EXPECT_TRUE(no_gradient) << op;
  }
}

}  // namespace
}  // namespace rill
