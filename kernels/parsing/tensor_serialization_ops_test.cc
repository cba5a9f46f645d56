#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

TEST(TensorSerializationOpsTest, RoundTripAndTypeMismatch) {
  OpTester ser("SerializeTensor");
  const Tensor x = Tensor::FromVector<int64_t>({1, -2, 3, 4, 5, 6}, TensorShape({2, 3}));
  ser.Attr("T", DT_INT64).Input(x);
  RILL_ASSERT_OK_AND_ASSIGN(auto s, ser.Run());
  ASSERT_EQ(s[0].shape(), TensorShape({}));

  OpTester parse("ParseTensor");
  parse.Attr("out_type", DT_INT64).Input(s[0]);
  RILL_ASSERT_OK_AND_ASSIGN(auto back, parse.Run());
  ExpectTensorEqual(back[0], x);

  OpTester wrong("ParseTensor");
  wrong.Attr("out_type", DT_FLOAT).Input(s[0]);
  EXPECT_THAT(wrong.Run().status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Type mismatch between parsed tensor (int64) and dtype (float)")));
}

}  // namespace
}  // namespace rill
