#include <cstdint>
#include <vector>

#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"
#include "ops/attr_value_util.h"

namespace rill {
namespace {

absl::StatusOr<std::vector<Tensor>> Bucketize(const Tensor& x, const std::vector<float>& bounds) {
  OpTester t("Bucketize");
  AttrValue b;
  for (float f : bounds) b.mutable_list()->add_f(f);
  t.Attr("T", x.dtype()).Attr("boundaries", b).Input(x);
  return t.Run();
}

TEST(BucketizeOpTest, CountsBoundariesAtOrBelow) {
  const Tensor x = Tensor::FromVector<float>({-5, 0, 5, 10, 12, 100}, TensorShape({2, 3}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Bucketize(x, {0, 10, 100}));
  ExpectTensorEqual(out[0], Tensor::FromVector<int32_t>({0, 1, 1, 2, 2, 3}, TensorShape({2, 3})));
  const Tensor i = Tensor::FromVector<int64_t>({1, 2, 3}, TensorShape({3}));
  RILL_ASSERT_OK_AND_ASSIGN(out, Bucketize(i, {1.5f, 2.5f}));
  ExpectTensorEqual(out[0], Tensor::FromVector<int32_t>({0, 1, 2}, TensorShape({3})));
}

TEST(BucketizeOpTest, UnsortedBoundariesAreInvalid) {
  EXPECT_THAT(Bucketize(Tensor::FromVector<float>({1}, TensorShape({1})), {2, 1}),
              StatusIs(absl::StatusCode::kInvalidArgument, "Expected sorted boundaries"));
}

}  // namespace
}  // namespace rill
