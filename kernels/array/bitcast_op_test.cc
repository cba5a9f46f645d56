#include <cstdint>
#include <vector>

#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

absl::StatusOr<std::vector<Tensor>> Bitcast(const Tensor& x, DataType type) {
  OpTester t("Bitcast");
  t.Attr("T", x.dtype()).Attr("type", type).Input(x);
  return t.Run();
}

TEST(BitcastOpTest, SameSmallerAndLargerTypes) {
  const Tensor one = Tensor::FromVector<float>({1.0f}, TensorShape({1}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Bitcast(one, DT_INT32));
  ExpectTensorEqual(out[0], Tensor::FromVector<int32_t>({0x3f800000}, TensorShape({1})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Bitcast(one, DT_INT16));
  ExpectTensorEqual(out[0], Tensor::FromVector<int16_t>({0, 0x3f80}, TensorShape({1, 2})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Bitcast(out[0], DT_FLOAT));
  ExpectTensorEqual(out[0], one);
}

TEST(BitcastOpTest, LargerTypeNeedsTheRatioAsLastDim) {
  EXPECT_THAT(Bitcast(Tensor::FromVector<float>({1, 2, 3}, TensorShape({3})), DT_DOUBLE),
              StatusIs(absl::StatusCode::kInvalidArgument, "Cannot bitcast from 1 to 2"));
}

}  // namespace
}  // namespace rill
