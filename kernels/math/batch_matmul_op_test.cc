#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor F(std::vector<float> v, TensorShape s) { return Tensor::FromVector<float>(v, s); }

absl::StatusOr<std::vector<Tensor>> BatchMatMul(const std::string& op, const Tensor& x,
                                                const Tensor& y, bool adj_x = false,
                                                bool adj_y = false) {
  OpTester t(op);
  t.Attr("T", x.dtype()).Attr("adj_x", adj_x).Attr("adj_y", adj_y).Input(x).Input(y);
  return t.Run();
}

TEST(BatchMatMulOpTest, MultipliesEachBatch) {
  const Tensor x = F({1, 2, 3, 4, 5, 6, 7, 8}, TensorShape({2, 2, 2}));
  const Tensor y = F({1, 0, 0, 1, 2, 0, 0, 2}, TensorShape({2, 2, 2}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, BatchMatMul("BatchMatMul", x, y));
  ExpectTensorEqual(out[0], F({1, 2, 3, 4, 10, 12, 14, 16}, TensorShape({2, 2, 2})));
  RILL_ASSERT_OK_AND_ASSIGN(out, BatchMatMul("BatchMatMulV2", x, y, /*adj_x=*/true));
  ExpectTensorEqual(out[0], F({1, 3, 2, 4, 10, 14, 12, 16}, TensorShape({2, 2, 2})));
}

TEST(BatchMatMulOpTest, V2BroadcastsBatchDims) {
  // x [2,1,2] times y [2,1] (no batch dims): both x batches use the same y.
  const Tensor x = F({1, 2, 3, 4}, TensorShape({2, 1, 2}));
  const Tensor y = F({10, 1}, TensorShape({2, 1}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, BatchMatMul("BatchMatMulV2", x, y));
  ExpectTensorEqual(out[0], F({12, 34}, TensorShape({2, 1, 1})));
  // [3,1,1,2] x [2,2,1]: batch dims [3,1] and [2] broadcast to [3,2].
  const Tensor a = F({1, 1, 2, 2, 3, 3}, TensorShape({3, 1, 1, 2}));
  const Tensor b = F({1, 1, 10, 10}, TensorShape({2, 2, 1}));
  RILL_ASSERT_OK_AND_ASSIGN(out, BatchMatMul("BatchMatMulV2", a, b));
  ExpectTensorEqual(out[0], F({2, 20, 4, 40, 6, 60}, TensorShape({3, 2, 1, 1})));
}

TEST(BatchMatMulOpTest, ErrorsAreTensorFlows) {
  const Tensor x = F({1, 2, 3, 4, 5, 6}, TensorShape({1, 2, 3}));
  EXPECT_THAT(BatchMatMul("BatchMatMulV2", x, x),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Matrix size-incompatible: In[0]: [1,2,3], In[1]: [1,2,3]")));
  EXPECT_THAT(
      BatchMatMul("BatchMatMulV2", F({1, 2}, TensorShape({2})), x),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("In[0] ndims must be >= 2: 1")));
  EXPECT_THAT(BatchMatMul("BatchMatMulV2", F(std::vector<float>(12, 1), TensorShape({2, 2, 3})),
                          F(std::vector<float>(18, 1), TensorShape({3, 3, 2}))),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("In[0] and In[1] must have compatible batch dimensions: "
                                 "[2,2,3] vs. [3,3,2]")));
  EXPECT_THAT(BatchMatMul("BatchMatMul", x, F({1, 2, 3, 4, 5, 6}, TensorShape({3, 2}))),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("In[0] and In[1] has different ndims: [1,2,3] vs. [3,2]")));
}

TEST(BatchMatMulOpTest, V3TakesItsTypesAsAttrs) {
  const Tensor x = Tensor::FromVector<int32_t>({1, 2, 3, 4}, TensorShape({2, 1, 2}));
  const Tensor y = Tensor::FromVector<int32_t>({10, 1}, TensorShape({2, 1}));
  OpTester t("BatchMatMulV3");
  t.Attr("Ta", DT_INT32).Attr("Tb", DT_INT32).Attr("Tout", DT_INT32).Input(x).Input(y);
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], Tensor::FromVector<int32_t>({12, 34}, TensorShape({2, 1, 1})));
  // Mixed types have no CPU kernel.
  OpTester mixed("BatchMatMulV3");
  mixed.Attr("Ta", DT_INT32).Attr("Tb", DT_INT32).Attr("Tout", DT_INT64).Input(x).Input(y);
  EXPECT_THAT(mixed.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                    HasSubstr("No OpKernel was registered to support Op "
                                              "'BatchMatMulV3'")));
}

}  // namespace
}  // namespace rill
