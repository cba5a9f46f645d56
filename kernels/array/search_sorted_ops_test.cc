#include <vector>

#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

absl::StatusOr<std::vector<Tensor>> Bound(const char* op, const Tensor& sorted,
                                          const Tensor& values, DataType out = DT_INT32) {
  OpTester t(op);
  t.Attr("T", sorted.dtype()).Attr("out_type", out).Input(sorted).Input(values);
  return t.Run();
}

const Tensor kSorted =
    Tensor::FromVector<float>({0, 2, 2, 5, 9, 1, 1, 1, 3, 3}, TensorShape({2, 5}));
const Tensor kValues = Tensor::FromVector<float>({-1, 2, 10, 1, 3, 0}, TensorShape({2, 3}));

TEST(SearchSortedOpsTest, LowerAndUpperBoundPerRow) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Bound("LowerBound", kSorted, kValues));
  ExpectTensorEqual(out[0], Tensor::FromVector<int32_t>({0, 1, 5, 0, 3, 0}, TensorShape({2, 3})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Bound("UpperBound", kSorted, kValues, DT_INT64));
  ExpectTensorEqual(out[0], Tensor::FromVector<int64_t>({0, 3, 5, 3, 5, 0}, TensorShape({2, 3})));
}

TEST(SearchSortedOpsTest, ErrorsAreTensorFlows) {
  EXPECT_THAT(
      Bound("LowerBound", kSorted, Tensor::FromVector<float>({1}, TensorShape({1, 1}))).status(),
      StatusIs(absl::StatusCode::kInvalidArgument, "Leading dim_size of both tensors must match."));
  EXPECT_THAT(
      Bound("UpperBound", Tensor::FromVector<float>({1, 2}, TensorShape({2})), kValues).status(),
      StatusIs(absl::StatusCode::kInvalidArgument,
               "Shape must be rank 2 but is rank 1 for `sorted_inputs` argument"));
}

}  // namespace
}  // namespace rill
