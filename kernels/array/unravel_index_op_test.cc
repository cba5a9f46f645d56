#include <cstdint>
#include <vector>

#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

absl::StatusOr<std::vector<Tensor>> Unravel(const Tensor& indices, std::vector<int32_t> dims) {
  OpTester t("UnravelIndex");
  t.Attr("Tidx", DT_INT32)
      .Input(indices)
      .Input(Tensor::FromVector<int32_t>(dims, TensorShape({static_cast<int64_t>(dims.size())})));
  return t.Run();
}

TEST(UnravelIndexOpTest, RowMajorCoordinates) {
  RILL_ASSERT_OK_AND_ASSIGN(
      auto out, Unravel(Tensor::FromVector<int32_t>({22, 41, 37}, TensorShape({3})), {7, 6}));
  ExpectTensorEqual(out[0], Tensor::FromVector<int32_t>({3, 6, 6, 4, 5, 1}, TensorShape({2, 3})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Unravel(Tensor::Scalar<int32_t>(1621), {6, 7, 8, 9}));
  ExpectTensorEqual(out[0], Tensor::FromVector<int32_t>({3, 1, 4, 1}, TensorShape({4})));
}

TEST(UnravelIndexOpTest, ErrorsAreTensorFlows) {
  const Tensor i = Tensor::FromVector<int32_t>({5}, TensorShape({1}));
  EXPECT_THAT(Unravel(i, {2, 0}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Input dims cannot contain a dim of zero, but dims contains zero at "
                       "index 1"));
  EXPECT_THAT(Unravel(i, {-2, 3}), StatusIs(absl::StatusCode::kInvalidArgument,
                                            "Input dims cannot be negative. Got dim = -2 at "
                                            "index 0"));
  EXPECT_THAT(Unravel(i, {2, 2}),
              StatusIs(absl::StatusCode::kInvalidArgument, "index is out of bound as with dims"));
  EXPECT_THAT(Unravel(i, {65536, 65536}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Input dims product is causing integer overflow"));
}

}  // namespace
}  // namespace rill
