#include <limits>
#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

absl::StatusOr<std::vector<Tensor>> Decode(const std::vector<std::string>& records,
                                           const std::vector<int64_t>& select_cols = {}) {
  OpTester t("DecodeCSV");
  t.Attr("OUT_TYPE", std::vector<DataType>{DT_INT32, DT_STRING, DT_FLOAT})
      .Attr("select_cols", select_cols);
  t.Input(Tensor::FromVector<std::string>(records,
                                          TensorShape({static_cast<int64_t>(records.size())})))
      .Input(Tensor::FromVector<int32_t>({-1}, TensorShape({1})))
      .Input(Tensor::FromVector<std::string>({"none"}, TensorShape({1})))
      .Input(Tensor(DT_FLOAT, TensorShape({0})));
  return t.Run();
}

TEST(DecodeCSVOpTest, QuotesDefaultsAndWhitespace) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Decode({" 7 ,\"a,\"\"b\"\"\",2.5", ",,-inf"}));
  ExpectTensorEqual(out[0], Tensor::FromVector<int32_t>({7, -1}, TensorShape({2})));
  ExpectTensorEqual(out[1], Tensor::FromVector<std::string>({"a,\"b\"", "none"}, TensorShape({2})));
  EXPECT_EQ(out[2].flat<float>()[0], 2.5f);
  EXPECT_EQ(out[2].flat<float>()[1], -std::numeric_limits<float>::infinity());
}

TEST(DecodeCSVOpTest, SelectedColumns) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Decode({"x,1,y,s,z,0.5,"}, {1, 3, 5}));
  ExpectTensorEqual(out[0], Tensor::FromVector<int32_t>({1}, TensorShape({1})));
  ExpectTensorEqual(out[1], Tensor::FromVector<std::string>({"s"}, TensorShape({1})));
}

TEST(DecodeCSVOpTest, Errors) {
  EXPECT_THAT(Decode({"1,a,"}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Field 2 is required but missing in record 0!")));
  EXPECT_THAT(Decode({"2147483648,a,1"}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Field 0 in record 0 is not a valid int32: 2147483648")));
  EXPECT_THAT(Decode({"1,\"a\"b,1"}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Quote inside a string has to be escaped by another quote")));
  EXPECT_THAT(Decode({"1,a"}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Expect 3 fields but have 2 in record 0")));
}

}  // namespace
}  // namespace rill
