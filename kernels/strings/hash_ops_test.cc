#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor Strings(std::vector<std::string> v) {
  const int64_t n = static_cast<int64_t>(v.size());
  return Tensor::FromVector<std::string>(v, TensorShape({n}));
}
Tensor Method(const std::string& m) {
  return Tensor::FromVector<std::string>({m}, TensorShape({}));
}

TEST(HashOpsTest, FingerprintOfNumbersAndStringsIsTensorFlows) {
  OpTester ints("Fingerprint");
  ints.Attr("T", DT_INT32);
  ints.Input(Tensor::FromVector<int32_t>({1, 2, 3, 4}, TensorShape({2, 2})))
      .Input(Method("farmhash64"));
  RILL_ASSERT_OK_AND_ASSIGN(auto a, ints.Run());
  // TensorFlow 2.21: tf.raw_ops.Fingerprint(data=[[1, 2], [3, 4]], method="farmhash64").
  ExpectTensorEqual(a[0], Tensor::FromVector<uint8_t>({76, 18, 253, 133, 168, 204, 240, 10, 254,
                                                       162, 60, 240, 103, 244, 53, 255},
                                                      TensorShape({2, 8})));
  OpTester row("Fingerprint");
  row.Attr("T", DT_STRING);
  row.Input(Tensor::FromVector<std::string>({"a", "bc"}, TensorShape({1, 2})))
      .Input(Method("farmhash64"));
  RILL_ASSERT_OK_AND_ASSIGN(auto b, row.Run());
  ExpectTensorEqual(
      b[0], Tensor::FromVector<uint8_t>({85, 27, 103, 37, 147, 177, 144, 87}, TensorShape({1, 8})));
}

TEST(HashOpsTest, Errors) {
  OpTester method("Fingerprint");
  method.Attr("T", DT_STRING).Input(Strings({"a"})).Input(Method("md5"));
  EXPECT_THAT(method.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                     HasSubstr("Unsupported fingerprint method: md5")));
  OpTester scalar("Fingerprint");
  scalar.Attr("T", DT_STRING)
      .Input(Tensor::FromVector<std::string>({"a"}, TensorShape({})))
      .Input(Method("farmhash64"));
  EXPECT_THAT(scalar.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                     HasSubstr("`data` should have at least one dimension: []")));
  OpTester key("StringToHashBucketStrong");
  key.Attr("num_buckets", int64_t{10}).Attr("key", std::vector<int64_t>{1, 2, 3});
  key.Input(Strings({"a"}));
  EXPECT_THAT(key.Run(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("Key must have 2 elements")));
}

TEST(HashOpsTest, BucketsAreHashesModuloNumBuckets) {
  OpTester t("StringToHashBucket");
  t.Attr("num_buckets", int64_t{1} << 62).Input(Strings({"", "hello world"}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], Tensor::FromVector<int64_t>({105434511174508091, 936430787915428847},
                                                        TensorShape({2})));
}

}  // namespace
}  // namespace rill
