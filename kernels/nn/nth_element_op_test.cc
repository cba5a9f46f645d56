#include <cstdint>
#include <vector>

#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

absl::StatusOr<std::vector<Tensor>> NthElement(const Tensor& x, int32_t n, bool reverse) {
  OpTester t("NthElement");
  t.Attr("T", x.dtype()).Attr("reverse", reverse).Input(x).Input(Tensor::Scalar<int32_t>(n));
  return t.Run();
}

TEST(NthElementOpTest, NthSmallestOrLargestPerRow) {
  const Tensor x = Tensor::FromVector<float>({5, 1, 4, 2, 9, 7, 8, 6}, TensorShape({2, 4}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, NthElement(x, 1, false));
  ExpectTensorEqual(out[0], Tensor::FromVector<float>({2, 7}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(out, NthElement(x, 0, true));
  ExpectTensorEqual(out[0], Tensor::FromVector<float>({5, 9}, TensorShape({2})));
}

TEST(NthElementOpTest, ErrorsAreTensorFlows) {
  const Tensor x = Tensor::FromVector<float>({1, 2, 3}, TensorShape({3}));
  EXPECT_THAT(NthElement(x, 3, false), StatusIs(absl::StatusCode::kInvalidArgument,
                                                "Input must have last dimension > n = 3"));
  EXPECT_THAT(NthElement(x, -1, false),
              StatusIs(absl::StatusCode::kInvalidArgument, "n must be non-negative but is -1"));
  EXPECT_THAT(NthElement(Tensor::Scalar<float>(1), 0, false),
              StatusIs(absl::StatusCode::kInvalidArgument, "Input must be >= 1-D but is 0-D"));
}

}  // namespace
}  // namespace rill
