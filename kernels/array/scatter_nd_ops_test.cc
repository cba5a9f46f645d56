// What the recorded cases cannot show: bad_indices_policy (IGNORE skips indices outside the
// target; an unknown policy is refused).
#include <cstdint>
#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

absl::StatusOr<std::vector<Tensor>> TensorScatterAdd(const std::string& policy) {
  OpTester t("TensorScatterAdd");
  t.Attr("T", DT_FLOAT)
      .Attr("Tindices", DT_INT32)
      .Attr("bad_indices_policy", policy)
      .Input(Tensor::FromVector<float>({1, 2, 3, 4}, TensorShape({4})))
      .Input(Tensor::FromVector<int32_t>({3, 9, -1, 0}, TensorShape({4, 1})))
      .Input(Tensor::FromVector<float>({10, 20, 30, 40}, TensorShape({4})));
  return t.Run();
}

TEST(ScatterNdTest, IgnorePolicySkipsBadIndices) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out, TensorScatterAdd("IGNORE"));
  ExpectTensorEqual(out[0], Tensor::FromVector<float>({41, 2, 3, 14}, TensorShape({4})));
  EXPECT_THAT(TensorScatterAdd("ERROR"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "indices[2] = [-1] does not index into shape [4]"));
  EXPECT_THAT(TensorScatterAdd("SOMETIMES"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("bad_indices_policy")));
}

}  // namespace
}  // namespace rill
