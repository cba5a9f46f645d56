// Behaviour of array_grad.cc that the recorded TensorFlow cases (tests/gradients) cannot show:
// the error of a gradient through PreventGradient, and the GatherV2 gradient when the axis is
// not a constant (the gathered-positions path instead of the row sums).
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/status_matchers.h"
#include "core/tensor.h"
#include "graph/builder/op_builder.h"
#include "graph/builder/ops.h"
#include "graph/gradients/grad_test_util.h"
#include "graph/gradients/gradients.h"
#include "gtest/gtest.h"
#include "session/session.h"

namespace rill {
namespace {

using grad_test::RunFetch;

using ::testing::HasSubstr;

TEST(ArrayGradTest, PreventGradientIsAnErrorNamingTheNodeAndReason) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Const(root.WithOpName("x"), {1.f, 2.f});
  Output p = OpBuilder(root.WithOpName("guard"), "PreventGradient")
                 .Input(x)
                 .Attr("message", "second derivative unsupported")
                 .Finalize()
                 .output(0);
  Output y = ops::ExpandDims(root.WithOpName("y"), p, ops::Const(root, 0));
  std::vector<Output> dx;
  EXPECT_THAT(AddSymbolicGradients(root, {y}, {x}, &dx),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Gradient explicitly disabled. Reason: second derivative "
                                 "unsupported (node 'guard', PreventGradient)")));
}

TEST(ArrayGradTest, GatherV2WithAFedAxisSumsRepeatedRows) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Const(root.WithOpName("x"), {{1.f, 2.f}, {3.f, 4.f}, {5.f, 6.f}});
  Output axis = ops::Placeholder(root.WithOpName("axis"), DT_INT32,
                                 PartialTensorShape(std::vector<int64_t>{}));
  Output y = ops::GatherV2(root.WithOpName("y"), x, ops::Const(root, {2, 0, 2}), axis);
  std::vector<Output> dx;
  RILL_ASSERT_OK(AddSymbolicGradients(root, {y}, {x}, &dx));
  EXPECT_EQ(RunFetch(root, dx[0], {{"axis", Tensor::Scalar<int32_t>(0)}}),
            (std::vector<float>{1, 1, 0, 0, 2, 2}));
}

// x[-1:0:-2] reads elements 4 and 2.
TEST(ArrayGradTest, StridedSliceGradientLandsOnTheReadElements) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Const(root.WithOpName("x"), {1.f, 2.f, 3.f, 4.f, 5.f});
  Output y = ops::StridedSlice(root.WithOpName("y"), x, ops::Const(root, {-1}),
                               ops::Const(root, {0}), ops::Const(root, {-2}));
  std::vector<Output> dx;
  RILL_ASSERT_OK(AddSymbolicGradients(root, {y}, {x}, &dx));
  EXPECT_EQ(RunFetch(root, dx[0]), (std::vector<float>{0, 0, 1, 0, 1}));
}

}  // namespace
}  // namespace rill
