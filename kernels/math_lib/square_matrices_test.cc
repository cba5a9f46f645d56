#include "kernels/math_lib/square_matrices.h"

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::Eq;

TEST(SquareMatricesTest, CountsTheLeadingDims) {
  RILL_ASSERT_OK_AND_ASSIGN(SquareMatrices m, SplitSquareMatrices(TensorShape({2, 3, 4, 4}), 0));
  EXPECT_EQ(m.count, 6);
  EXPECT_EQ(m.n, 4);
  RILL_ASSERT_OK_AND_ASSIGN(m, SplitSquareMatrices(TensorShape({5, 5}), 0));
  EXPECT_EQ(m.count, 1);
  EXPECT_EQ(m.n, 5);
  RILL_ASSERT_OK_AND_ASSIGN(m, SplitSquareMatrices(TensorShape({3, 0, 2, 2}), 0));
  EXPECT_EQ(m.count, 0);
}

TEST(SquareMatricesTest, RefusesWithTensorFlowsTexts) {
  EXPECT_THAT(SplitSquareMatrices(TensorShape({3}), 1).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("Input tensor 1 must have rank >= 2, got 1")));
  EXPECT_THAT(SplitSquareMatrices(TensorShape({2, 3, 4}), 0).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, Eq("Input matrix must be square.")));
}

}  // namespace
}  // namespace rill
